"""Every rule of the rulebook has a scenario test citing it, every option a test using it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hotdeath
from hotdeath.rulebook import rules_for

TESTS = Path(__file__).resolve().parent
_CITE = re.compile(r"""pytest\.mark\.rule\(\s*["']([A-Z]+-[0-9.T]+)["']""")


def _sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(TESTS.glob("test_*.py")))


def _cited() -> set[str]:
    return set(_CITE.findall(_sources()))


@pytest.mark.parametrize("game", ["hotdeath", "standard", "cutthroat", "throwdown"])
def test_every_rule_has_a_scenario_test(game: str) -> None:
    cited = _cited()
    missing = [r.id for r in rules_for(game) if r.id not in cited]
    assert missing == [], f"rules without a scenario test citing them: {missing}"


def test_cited_rule_ids_exist() -> None:
    from hotdeath.rulebook import RULES

    unknown = sorted(c for c in _cited() if c not in RULES)
    assert unknown == []


@pytest.mark.parametrize("variant", ["hotdeath", "standard", "cutthroat", "throwdown"])
def test_every_option_is_exercised_by_a_test(variant: str) -> None:
    text = _sources()
    missing = [
        s.name for s in hotdeath.get_variant(variant).option_specs()
        if not re.search(rf"""["']{s.name}["']\s*:""", text)
    ]
    assert missing == [], f"options no test sets: {missing}"
