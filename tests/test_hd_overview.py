"""Scenario tests for the overview rules HD-1.1 (the ordinary deck) and HD-3.6 (what plays do)."""

from __future__ import annotations

from collections import Counter

import pytest

from hotdeath.cards import FACE_KIND, IS_WILD, NUMBER, card_code, hotdeath_deck, standard_deck
from tests.support import act, legal, pos, position


@pytest.mark.rule("HD-1.1", "seed 003", "app", "hot-death.md §1.1")
def test_the_ordinary_deck_hot_death_is_built_from() -> None:
    deck = standard_deck()
    assert len(deck) == 108
    counts = Counter(card_code(c) for c in deck)
    for color in "RYGB":
        assert counts[f"{color}0"] == 1
        for n in range(1, 10):
            assert counts[f"{color}{n}"] == 2
        for action in ("S", "R", "+2"):
            assert counts[f"{color}{action}"] == 2
    assert counts["W"] == 4 and counts["WD4"] == 4
    # the Hot Death deck keeps the size and replaces cards slot for slot (HD-1.2)
    assert len(hotdeath_deck()) == len(deck)


@pytest.mark.rule("HD-1.1", "seed 003", "hot-death.md §1.1")
def test_hot_death_keeps_every_standard_number_slot_count() -> None:
    std = sum(1 for c in standard_deck() if FACE_KIND[c] == NUMBER)
    hd_numbers = sum(1 for c in hotdeath_deck() if FACE_KIND[c] == NUMBER)
    specials = sum(1 for c in hotdeath_deck() if not IS_WILD[c] and FACE_KIND[c] >= 13)
    assert std == 76
    assert hd_numbers + specials == std  # 65 plain numbers + 11 special number cards


@pytest.mark.rule("HD-3.6", "seed 002", "app", "hot-death.md §3.6")
@pytest.mark.parametrize(
    ("card", "next_seat", "attack"),
    [
        ("RS", 2, None),  # Skip: only who plays next changes
        ("R+2", 1, "draw"),  # Draw Two: an attack its victim may answer
        ("QUIT", 1, "eject"),  # Quitter: an attack
        ("LOI", 1, None),  # a special number card without an effect of its own
    ],
)
def test_what_plays_do(card: str, next_seat: int, attack: str | None) -> None:
    top = "G0" if card == "QUIT" else ("G4" if card == "LOI" else "R7")
    g = position(
        variant="hotdeath", players=4, turn=0, top=top, options={"deck": "double_216"},
        hands=[[card, "B9", "Y3"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y4"], ["G7", "G8", "G9"]],
    )
    act(g, legal(g)[0])
    assert g.current_player() == next_seat
    at = pos(g).get("pending")
    assert (at["type"] if at else None) == attack
