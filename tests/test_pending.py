"""Typed pending values (hotdeath.pending): one JSON form each, states, views, positions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import hotdeath
from hotdeath.cards import parse_card
from hotdeath.errors import PositionError
from hotdeath.notation import POSITION_FORMAT, from_position, to_position
from hotdeath.pending import (
    Context,
    DrawAttack,
    Ejection,
    Pending,
    Pot,
    Reveal,
    from_json,
)
from hotdeath.state import GameState

VALUES: list[Pending] = [
    DrawAttack(1, 0, 8, "wild_draw", parse_card("HOT"), 0, False, False),
    DrawAttack(2, -1, 2, "draw_two", parse_card("R+2"), -1, False, True),
    Ejection(1, 0, 0, True, False, parse_card("QUIT")),
    Reveal(3, 0, 2, False, -2, parse_card("GLAS")),
    Pot(1, 0, 4, parse_card("WD4"), None, False),
    Pot(0, 2, 6, parse_card("B+2"), 2, None),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_one_json_form_round_trips(value: Pending) -> None:
    data = json.loads(json.dumps(value.to_json()))
    assert data["type"] in ("draw", "eject", "reveal", "pot")
    assert from_json(data, Context(turn=0, top=-1)) == value


def test_public_hides_only_the_wild_draw_four_legality() -> None:
    for v in VALUES:
        pub = v.public()
        if isinstance(v, Pot) and v.wd4_legal is not None:
            assert isinstance(pub, Pot) and pub.wd4_legal is None and pub.count == v.count
        else:
            assert pub == v


def _until_pending(variant: str, preset: str | None, seed: int) -> GameState | None:
    rng = random.Random(seed)
    g = hotdeath.new_game(variant, players=3, seed=seed, preset=preset)
    for _ in range(2000):
        if g.is_terminal():
            return None
        if g.pending() is not None:
            return g
        seat = rng.choice(g.actors())
        g.apply_action(rng.choice(g.legal_actions(seat)), seat)
    return None


@pytest.mark.parametrize(
    ("variant", "preset"),
    [("hotdeath", None), ("standard", "house"), ("standard", None), ("cutthroat", None),
     ("throwdown", None)],
)
def test_states_write_and_read_their_pending_value(variant: str, preset: str | None) -> None:
    found = 0
    for seed in range(30):
        g = _until_pending(variant, preset, seed)
        if g is None:
            continue
        found += 1
        p = g.pending()
        assert p is not None and p.victim == g.turn
        data = to_position(g)
        assert data["format"] == POSITION_FORMAT and data["pending"] == p.to_json()
        assert not {"attack", "pot", "wd4"} & set(data)
        again = from_position(json.loads(json.dumps(data)))
        assert again.pending() == p
        assert again.legal_actions() == g.legal_actions()
        view = g.view(None)
        assert view.attack == p.public()
        assert view.to_json()["attack"] == p.public().to_json()
    assert found >= 3


def test_version_1_positions_still_load() -> None:
    old_hd = {"format": "hotdeath-position/1", "variant": "hotdeath",
              "hands": [["R3", "HOLY"], ["G5", "Y2"], ["B1"]], "top": "HOT", "color": "red",
              "attack": {"kind": "draw", "count": 8, "victim": 0, "sender": 2,
                         "last_card": "HOT", "anchor": 2, "two_active": False}}
    g = from_position(old_hd)
    assert g.pending() == DrawAttack(0, 2, 8, "wild_draw", parse_card("HOT"), 2, False, False)
    new = {**{k: v for k, v in old_hd.items() if k != "attack"},
           "format": POSITION_FORMAT, "pending": g.pending().to_json()}  # type: ignore[union-attr]
    assert to_position(from_position(new)) == to_position(g)
    old_std = {"variant": "standard", "hands": [["R3"], ["G5", "WD4"], ["B1"]], "top": "WD4",
               "color": "red", "pot": {"count": 4, "last_card": "WD4", "victim": 1},
               "wd4": {"player": 0, "legal": False},
               "options": {"wild_draw_four_rule": "challenge"}}
    s = from_position(old_std)
    assert s.pending() == Pot(1, 0, 4, parse_card("WD4"), None, False)
    old_td = {"variant": "throwdown", "hands": [["G1"], ["B2", "G2", "R6"], ["G3", "G4"]],
              "top": "WD4", "color": "green", "pot": {"count": 8, "level": 4}, "turn": 1}
    t = from_position(old_td)
    assert t.pending() == Pot(1, -1, 8, parse_card("WD4"), 4, None)


@pytest.mark.parametrize(
    "fields",
    [
        {"format": "hotdeath-position/9"},
        {"pending": {"type": "pot", "count": 2}},  # a pot in Hot Death
        {"pending": {"type": "draw", "count": -1}},
        {"pending": {"type": "draw", "victim": 7}},
        {"pending": {"type": "draw", "sender": 9}},
        {"pending": {"type": "burn"}},
        {"pending": {"type": "draw", "bogus": 1}},
        {"pending": {"type": "draw"}, "phase": "turn"},
        {"phase": "response"},
        {"pending": {"type": "draw", "victim": 1}, "turn": 0},
        {"pending": {"type": "draw", "victim": 1}, "active": [True, False, True]},
        {"pending": {"type": "draw", "last_card": "R5"}},
        {"pending": {"type": "reveal", "anchor": -3}},
        {"pending": {"type": "eject", "two_active": True}},  # three active seats
        {"pending": {"type": "draw"}, "attack": {"count": 2}},
    ],
)
def test_impossible_hot_death_pending_values_are_refused(fields: dict[str, Any]) -> None:
    base: dict[str, Any] = {"variant": "hotdeath", "hands": [["R3", "HOLY"], ["G5"], ["B1"]],
                            "top": "R9"}
    with pytest.raises(PositionError):
        from_position({**base, **fields})


@pytest.mark.parametrize(
    ("variant", "pending"),
    [
        ("standard", {"type": "draw", "count": 2}),
        ("standard", {"type": "pot", "last_card": "R5"}),
        ("standard", {"type": "pot", "level": 2}),
        ("standard", {"type": "pot", "wd4_legal": True}),  # no Wild Draw Four on top
        ("standard", {"type": "pot", "victim": 0, "sender": 0, "last_card": "WD4"}),
        ("throwdown", {"type": "pot", "wd4_legal": True}),
        ("throwdown", {"type": "pot", "last_card": "B+2"}),  # not the top card
        ("throwdown", {"type": "pot", "level": 3}),
    ],
)
def test_impossible_pots_are_refused(variant: str, pending: dict[str, Any]) -> None:
    with pytest.raises(PositionError):
        from_position({"variant": variant, "hands": [["R3", "R+2"], ["G5", "G+2"], ["B1", "B2"]],
                       "top": "R+2", "pending": pending})
