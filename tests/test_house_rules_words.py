"""House rules for people: every option and preset has words; only true changes count."""

from __future__ import annotations

import re

import pytest

import hotdeath
from hotdeath.options import OPTION_GROUPS
from hotdeath.server.seating import changed_options
from hotdeath.words import house_rules

IDENTIFIER = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")


@pytest.mark.parametrize("variant", [v.name for v in hotdeath.all_variants()])
def test_every_option_has_a_title_a_sentence_a_group_and_words_for_its_values(
    variant: str,
) -> None:
    v = hotdeath.variants.get_variant(variant)
    for spec in v.option_specs():
        assert spec.title and spec.sentence.endswith("."), spec.name
        assert spec.group in OPTION_GROUPS, spec.name
        for text in (spec.title, spec.sentence):
            assert not IDENTIFIER.search(text), (spec.name, text)
        if spec.type == "choice" and (len(spec.values) > 1 or isinstance(spec.values[0], str)):
            labelled = [value for value, _ in spec.labels]
            assert labelled == list(spec.values), spec.name
            assert all(not IDENTIFIER.search(words) for _, words in spec.labels), spec.name
    for preset in v.presets:
        title, sentence = v.preset_words[preset]
        assert title and sentence and not IDENTIFIER.search(title + " " + sentence), preset
        assert "seed" not in title.lower() and "source" not in title.lower()


def test_a_value_equal_to_the_preset_is_no_change() -> None:
    # an integer choice read back as text from a form is the same value
    assert changed_options("standard", "official", {"initial_direction": "1"}) == {}
    assert changed_options("cutthroat", "seed_003", {"initial_direction": 1, "decks": "1"}) == {}
    assert changed_options("throwdown", "seed_004", {"initial_direction": "0"}) == {}
    assert changed_options("throwdown", "one_deck", {"decks": 1}) == {}
    assert changed_options("standard", "house", {"seven_o": False}) == {"seven_o": False}
    assert changed_options("standard", "official", {"initial_direction": "-1"}) == {
        "initial_direction": -1
    }


def test_house_rules_are_told_in_the_name_theme() -> None:
    family = house_rules("hotdeath", "canonical", {"shitter_last_card_needs_match": True})
    assert family[0]["text"] == "Big Brother as the last card: yes"
    original = house_rules(
        "hotdeath", "canonical", {"shitter_last_card_needs_match": True}, "original"
    )
    assert original[0]["text"] == "Shitter as the last card: yes"
    assert house_rules("standard", "official", {"initial_direction": -1})[0]["text"] == (
        "First direction: Counter-clockwise"
    )
