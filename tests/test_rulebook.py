"""Tests of the rulebook data (hotdeath.rulebook) and of the docs generated from it."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from hotdeath.rulebook import (
    GAMES,
    RULES,
    SECTIONS,
    SOURCE_TAGS,
    Rule,
    get_rule,
    rules_for,
    section_of,
)

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "scripts" / "gen_rulebook.py"

ID_PATTERN = re.compile(r"^(HD|STD|CT|TD)-[0-9]+(\.[0-9]+)*(\.T[0-9])?$")
ID_REFERENCE = re.compile(r"(?<![\w-])((?:HD|STD|CT|TD)-[0-9]+(?:\.[0-9]+)*(?:\.T[0-9])?)")
BACKTICKED = re.compile(r"`([^`]*)`")

ALLOWED_SOURCES = frozenset(
    {"seed 000", "seed 001", "seed 002", "seed 003", "seed 004", "app", "official", "ruling"}
)

# hot-death.md §3.12 (the option table)
HOTDEATH_OPTIONS = frozenset(
    {
        "deck", "min_deal", "max_deal", "first_player", "up_card_rule", "after_draw_play",
        "draw_rule", "uno_rule", "uno_penalty_cards", "draw_two_defensible",
        "stack_draw_twos", "stack_after_deflection", "magic5_effect",
        "magic5_requires_hot_death_on_top", "mystery_defensible", "virus_odd_split",
        "redirect_sender", "irish_scope", "sixty_nine_proof", "sixty_nine_challenge_penalty",
        "shitter_last_card_needs_match", "glasnost_response", "quitter_with_two_active",
        "mad_min_active_players", "delayed_blast_min_active_for_skip", "all_bastards_effect",
        "combo_1000_cards", "combo_1000_scoring", "sixty_nine_modifiers",
        "mystery_number_mode", "blue_shield_floor_zero", "halving_rounding",
        "spreader_value", "mad_points", "plain_wild_points", "game_end_score", "tie_break",
    }
)  # fmt: skip

# uno-variants.md §4 (the option registry); the options whose column is not "—"
_EVERY_VARIANT_GAME = frozenset(
    {
        "dealer_selection", "max_players", "decks", "initial_direction", "wd4_color_must_change",
        "wild_color_must_change", "uno_catch_penalty", "false_uno_call_penalty", "scoring",
        "rounds", "max_turns", "shortfall",
    }
)  # fmt: skip
VARIANT_OPTIONS: dict[str, frozenset[str]] = {
    "standard": _EVERY_VARIANT_GAME
    | {
        "first_card_wild", "first_card_reverse", "first_card_draw_two_loses_turn",
        "wild_draw_four_rule", "wd4_guilty_challenger_turn", "may_draw_with_playable",
        "drawn_card_play", "draw_rule", "stacking", "seven_o", "jump_in", "two_player_rules",
        "two_player_reverse_as_skip", "partners", "partners_victory", "target_score",
    },
    "cutthroat": _EVERY_VARIANT_GAME
    | {
        "first_card_wild", "first_card_reverse", "first_card_draw_two_loses_turn",
        "first_card_wd4_victim_loses_turn", "wd4_challenge", "wd4_guilty_challenger_turn",
        "may_draw_with_playable", "draw_until_match_then", "stacking", "two_player_rules",
        "two_player_reverse_as_skip", "partners", "partners_victory",
    },
    "throwdown": _EVERY_VARIANT_GAME
    | {
        "voluntary_draw", "two_player_reverse_as_skip", "uno_force_draw", "uno_force_window",
        "multi_play_same_color", "top_three_pair_equivalence", "regular_wd4_restriction",
        "throwdown_match", "level2_mix_draw_family", "level4_draw_rule", "level4_mix_fours",
        "pot_drawer_loses_turn", "play_on_after_first_out", "extended_play",
        "callback_decline",
    },
}  # fmt: skip
VARIANT_OPTION_NAMES = frozenset().union(*VARIANT_OPTIONS.values())


def _ids(prefix: str, first: int, last: int) -> list[str]:
    return [f"{prefix}{n}" for n in range(first, last + 1)]


# The ids the engine cites (they must exist).
REQUIRED_HOTDEATH_IDS = [
    *_ids("HD-1.", 1, 4),
    *_ids("HD-2.3.", 1, 24),
    *_ids("HD-3.", 1, 7),
    *_ids("HD-3.7.", 1, 4),
    *_ids("HD-3.", 8, 11),
    *_ids("HD-3.11.", 1, 2),
    "HD-4.2",
    "HD-4.3",
    *_ids("HD-4.3.", 1, 6),
    "HD-4.4",
    "HD-4.5",
    *_ids("HD-4.5.T", 1, 5),
    "HD-4.6",
]
STANDARD_IDS = [
    *("STD-0.4", "STD-0.5", "STD-1.1", "STD-1.2", "STD-2.1", "STD-2.2", "STD-3", "STD-4"),
    *_ids("STD-5.", 1, 6),
    *_ids("STD-6.", 1, 7),
    *_ids("STD-7.", 0, 4),
    *_ids("STD-8.", 1, 5),
    *_ids("STD-9.", 1, 5),
    *_ids("STD-10.", 1, 2),
    *_ids("STD-11.", 1, 4),
    *_ids("STD-12.", 1, 4),
]
CUTTHROAT_IDS = [
    *_ids("CT-1.", 1, 4),
    "CT-2",
    *_ids("CT-3.", 1, 4),
    *_ids("CT-4.", 1, 4),
    *_ids("CT-5.", 1, 3),
    *_ids("CT-6.", 1, 3),
    *_ids("CT-7.", 1, 4),
    *_ids("CT-8.", 0, 4),
    *_ids("CT-9.", 1, 5),
]
THROWDOWN_IDS = [
    *_ids("TD-1.", 1, 6),
    *_ids("TD-2.", 1, 9),
    *_ids("TD-3.", 1, 5),
    *_ids("TD-4.", 1, 10),
    *_ids("TD-5.", 1, 8),
    *_ids("TD-6.", 1, 7),
]

# Original card names: each appears only in its own card's rule (outside option names).
ORIGINAL_NAMES = {"Fuck You": "HD-2.3.23", "Shitter": "HD-2.3.24", "AIDS": "HD-2.3.21"}


def _sort_key(rule_id: str) -> tuple[tuple[int, int], ...]:
    """Document order of ids: numeric parts, with ``.T1`` after its parent section."""
    parts = rule_id.split("-", 1)[1].split(".")
    return tuple((1, int(p[1:])) if p.startswith("T") else (0, int(p)) for p in parts)


def _prose(text: str) -> str:
    """The text without its backticked option names and values."""
    return BACKTICKED.sub("", text)


@pytest.fixture(scope="module")
def generator() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("gen_rulebook", GENERATOR)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


# ----------------------------------------------------------------------------- ids


def test_ids_are_unique_and_well_formed() -> None:
    ids = [rule.id for rule in RULES.values()]
    assert len(ids) == len(set(ids))
    for key, rule in RULES.items():
        assert key == rule.id
        assert ID_PATTERN.match(rule.id), rule.id


def test_required_hotdeath_ids_exist() -> None:
    missing = [rule_id for rule_id in REQUIRED_HOTDEATH_IDS if rule_id not in RULES]
    assert missing == []


@pytest.mark.parametrize(
    ("game", "expected"),
    [("standard", STANDARD_IDS), ("cutthroat", CUTTHROAT_IDS), ("throwdown", THROWDOWN_IDS)],
)
def test_variant_ids_are_exactly_the_contract_ids(game: str, expected: list[str]) -> None:
    assert [rule.id for rule in rules_for(game)] == expected


def test_ids_carry_their_game() -> None:
    prefixes = {"HD": "hotdeath", "STD": "standard", "CT": "cutthroat", "TD": "throwdown"}
    for rule in RULES.values():
        assert prefixes[rule.id.split("-", 1)[0]] == rule.game, rule.id


def test_rules_are_in_document_order() -> None:
    games = list(GAMES)
    order = [games.index(rule.game) for rule in RULES.values()]
    assert order == sorted(order)
    for game in GAMES:
        keys = [_sort_key(rule.id) for rule in rules_for(game)]
        assert keys == sorted(keys), game


# ----------------------------------------------------------------------------- fields


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_has_rules(game: str) -> None:
    rules = rules_for(game)
    assert rules
    assert all(rule.game == game for rule in rules)


def test_games_are_the_four_games() -> None:
    assert set(GAMES) == {"hotdeath", "standard", "cutthroat", "throwdown"}
    assert sum(len(rules_for(game)) for game in GAMES) == len(RULES)


def test_fields_are_filled_in() -> None:
    for rule in RULES.values():
        assert rule.title.strip() == rule.title, rule.id
        assert rule.title, rule.id
        assert rule.text, rule.id
        assert rule.text == " ".join(rule.text.split()), rule.id
        assert rule.text.endswith("."), rule.id
        assert rule.text.count("`") % 2 == 0, rule.id


def test_sources_are_known_tags() -> None:
    assert set(SOURCE_TAGS) == ALLOWED_SOURCES
    for rule in RULES.values():
        assert rule.sources, rule.id
        assert len(set(rule.sources)) == len(rule.sources), rule.id
        assert set(rule.sources) <= ALLOWED_SOURCES, rule.id


def test_hotdeath_and_variant_sources_do_not_mix() -> None:
    # seed 003 restates the standard deck, which Hot Death modifies (HD-1.1).
    hotdeath_sources = {"seed 000", "seed 001", "seed 002", "seed 003", "app", "ruling"}
    variant_sources = {"seed 003", "seed 004", "official", "ruling"}
    for rule in RULES.values():
        allowed = hotdeath_sources if rule.game == "hotdeath" else variant_sources
        assert set(rule.sources) <= allowed, rule.id


def test_options_are_contract_option_names() -> None:
    for rule in RULES.values():
        assert len(set(rule.options)) == len(rule.options), rule.id
        allowed = HOTDEATH_OPTIONS if rule.game == "hotdeath" else VARIANT_OPTIONS[rule.game]
        unknown = set(rule.options) - allowed
        assert not unknown, f"{rule.id}: {sorted(unknown)}"


def test_options_named_in_the_text_are_listed() -> None:
    for rule in RULES.values():
        names = HOTDEATH_OPTIONS if rule.game == "hotdeath" else VARIANT_OPTION_NAMES
        mentioned = {token for token in BACKTICKED.findall(rule.text) if token in names}
        assert mentioned <= set(rule.options), f"{rule.id}: {sorted(mentioned)}"


def test_every_hotdeath_option_is_covered() -> None:
    used = {name for rule in rules_for("hotdeath") for name in rule.options}
    assert used == HOTDEATH_OPTIONS


def test_cross_references_point_to_rules_or_sections() -> None:
    targets = set(RULES) | {section.prefix for section in SECTIONS}
    for rule in RULES.values():
        for ref in ID_REFERENCE.findall(rule.text):
            assert ref in targets, f"{rule.id} mentions unknown rule {ref}"


def test_original_card_names_appear_only_in_their_own_rule() -> None:
    for name, own in ORIGINAL_NAMES.items():
        users = [rule.id for rule in RULES.values() if name.lower() in _prose(rule.text).lower()]
        assert users == [own], name
        assert _prose(RULES[own].text).count(name) == 1, name
        assert name not in RULES[own].title


def test_family_names_are_the_titles() -> None:
    assert get_rule("HD-2.3.21").title == "Virus"
    assert get_rule("HD-2.3.23").title == "Retaliation"
    assert get_rule("HD-2.3.24").title == "Big Brother"
    assert get_rule("HD-2.3.10").title == "Hot Death"


def test_rules_are_frozen() -> None:
    rule = get_rule("HD-1.1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.title = "changed"  # type: ignore[misc]


# ----------------------------------------------------------------------------- sections


def test_every_rule_has_a_section_of_its_game() -> None:
    for rule in RULES.values():
        section = section_of(rule)
        assert section.game == rule.game
        assert section.contains(rule.id)


def test_every_section_has_rules() -> None:
    for section in SECTIONS:
        assert any(section_of(rule) == section for rule in RULES.values()), section.prefix


def test_section_prefix_does_not_match_longer_numbers() -> None:
    standard_1 = next(s for s in SECTIONS if s.prefix == "STD-1")
    assert standard_1.contains("STD-1.2")
    assert not standard_1.contains("STD-10.1")
    assert section_of(get_rule("STD-10.1")).prefix == "STD-10"


# ----------------------------------------------------------------------------- lookups


def test_get_rule_returns_the_rule() -> None:
    rule = get_rule("HD-2.3.10")
    assert isinstance(rule, Rule)
    assert rule.id == "HD-2.3.10"
    assert rule.game == "hotdeath"
    assert get_rule("HD-4.5.T3").id == "HD-4.5.T3"


@pytest.mark.parametrize("rule_id", ["HD-9.9", "STD-99", "", "XX-1.1", "hd-2.3.10"])
def test_get_rule_raises_key_error_on_unknown_ids(rule_id: str) -> None:
    with pytest.raises(KeyError, match="unknown rule id"):
        get_rule(rule_id)


def test_get_rule_suggests_close_ids() -> None:
    with pytest.raises(KeyError, match=r"did you mean .*HD-2\.3\.10"):
        get_rule("hd-2.3.10")


def test_rules_for_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        rules_for("poker")


def test_rules_for_returns_a_fresh_list() -> None:
    first = rules_for("cutthroat")
    first.clear()
    assert rules_for("cutthroat")


# ----------------------------------------------------------------------------- docs


def test_docs_are_up_to_date(generator: ModuleType) -> None:
    problems: list[str] = generator.check()
    assert problems == [], "run: python scripts/gen_rulebook.py"


def test_check_detects_stale_and_missing_docs(generator: ModuleType, tmp_path: Path) -> None:
    generator.write(tmp_path)
    assert generator.check(tmp_path) == []
    assert generator.main(["--check", "--docs-dir", str(tmp_path)]) == 0
    page = tmp_path / "hotdeath.md"
    page.write_text(page.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    (tmp_path / "README.md").unlink()
    problems: list[str] = generator.check(tmp_path)
    assert len(problems) == 2
    assert generator.main(["--check", "--docs-dir", str(tmp_path)]) == 1


def test_docs_have_a_heading_and_anchor_per_rule(generator: ModuleType) -> None:
    files: dict[str, str] = generator.render()
    assert set(files) == {"hotdeath.md", "standard.md", "cutthroat.md", "throwdown.md", "README.md"}
    for rule in RULES.values():
        page = files[f"{rule.game}.md"]
        block = f'<a id="{rule.id}"></a>\n### {rule.id} {rule.title}\n'
        assert page.count(block) == 1, rule.id
        assert f"]({rule.game}.md#{rule.id})" in files["README.md"], rule.id
    for section in SECTIONS:
        page = files[f"{section.game}.md"]
        assert f"\n## {section.title}\n" in page, section.prefix
        assert f'<a id="{section.prefix}"></a>' in page, section.prefix
