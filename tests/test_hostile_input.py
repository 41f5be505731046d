"""Hostile input: any text, any JSON gets a result or one of our coded errors (issue 16).

``Action.parse`` takes arbitrary text, :func:`hotdeath.jsontext.loads_bounded` arbitrary
JSON text (depth-bounded), ``from_position`` and ``replay`` arbitrary JSON values and
mutations of real positions and records.  Nothing may escape but a
:class:`~hotdeath.errors.HotDeathError` with a code: no ``ValueError``, ``RecursionError``,
``IndexError`` …
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hotdeath
from hotdeath.actions import Action
from hotdeath.cards import FACE_CODE
from hotdeath.errors import HotDeathError, NotationError, PositionError
from hotdeath.jsontext import MAX_DEPTH, check_depth, loads_bounded, text_depth
from hotdeath.notation import from_position, record, replay, to_position
from hotdeath.state import GameState

CODED = HotDeathError


def _coded(e: HotDeathError) -> None:
    assert isinstance(e.code, str) and e.code and e.code.isascii(), e
    assert e.message


# ------------------------------------------------------------------ Action.parse


@pytest.mark.parametrize(
    "text",
    ["catch ²", "catch ٣", "victim ¹", "play R5 @²", "deal ²", "deal -3", "deal +3",
     "deal 1_0", "catch @@1", "catch " + "9" * 5000, "deal " + "9" * 5000, "x" * 100_000],
)
def test_bad_numbers_and_long_text_are_coded_errors(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Action.parse(text)
    assert info.value.code == "bad_syntax"


def test_numbers_are_ascii_digits() -> None:
    assert Action.parse("catch 3").target == 3
    assert Action.parse("play R5 @2").target == 2
    assert Action.parse("deal 12").n == 12


@pytest.mark.parametrize("value", [None, 3, b"draw", ["draw"]])
def test_parse_of_something_not_text_is_a_coded_error(value: Any) -> None:
    with pytest.raises(NotationError):
        Action.parse(value)


_WORDS = st.sampled_from(
    ["play", "jump", "draw", "pass", "accept", "challenge", "question", "decline", "leave",
     "uno", "catch", "direction", "deal", "color", "colour", "victim", "cw", "ccw", "red",
     "r", "@1", "@", "uno", "²", "٣", "-1", "0", "07", "+2", *FACE_CODE]
)
_ACTIONISH = st.lists(st.one_of(_WORDS, st.text(max_size=6)), max_size=6).map(" ".join)


@given(text=st.one_of(st.text(), _ACTIONISH))
@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
def test_parse_of_any_text_is_an_action_or_a_coded_error(text: str) -> None:
    try:
        a = Action.parse(text)
    except NotationError as e:
        _coded(e)
        return
    assert Action.parse(str(a)) == a


# ------------------------------------------------------------------ bounded JSON


def test_deep_json_is_refused_before_parsing() -> None:
    deep = "[" * 4000 + "]" * 4000  # a 8 KB message: RecursionError in json.loads
    with pytest.raises(RecursionError):
        json.loads(deep)
    with pytest.raises(NotationError) as info:
        loads_bounded(deep)
    assert info.value.code == "json_too_deep"
    assert loads_bounded("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(NotationError):
        loads_bounded("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert loads_bounded('{"a": "[[[[[[[[[[[[[[["}', max_depth=1) == {"a": "[" * 15}
    assert text_depth('["\\"[[", {"b": []}]') == 3


@pytest.mark.parametrize(
    ("text", "code"),
    [("NaN", "bad_json"), ('{"a": Infinity}', "bad_json"), ("1" * 5000, "bad_json"),
     ("{", "bad_json"), ("", "bad_json"), (b"\xff", "bad_json"), ("{" * 10_000, "json_too_deep")],
)
def test_bad_json_texts_are_coded(text: str | bytes, code: str) -> None:
    with pytest.raises(NotationError) as info:
        loads_bounded(text)
    assert info.value.code == code


def test_size_bound() -> None:
    with pytest.raises(NotationError) as info:
        loads_bounded("[1, 2, 3]", max_chars=5)
    assert info.value.code == "json_too_large"


def test_check_depth_on_loaded_values() -> None:
    v: Any = []
    for _ in range(10_000):
        v = [v]
    with pytest.raises(NotationError):
        check_depth(v)
    check_depth({"a": [[1]], "b": "x"}, max_depth=3)
    with pytest.raises(NotationError):
        check_depth({"a": [[1]]}, max_depth=2)


@given(text=st.text(alphabet='[]{}",:0123456789.eE-+truefalsnNI\\ ', max_size=200))
@settings(max_examples=800)
def test_loads_bounded_of_any_text_is_json_or_a_coded_error(text: str) -> None:
    try:
        loads_bounded(text, max_depth=8)
    except NotationError as e:
        _coded(e)


@pytest.mark.parametrize("loader", [from_position, replay])
def test_deep_json_positions_and_records_are_coded_errors(loader: Any) -> None:
    deep = '{"variant": "standard", "hands": ' + "[" * 3000 + "]" * 3000 + "}"
    with pytest.raises(PositionError) as info:
        loader(deep)
    assert info.value.code == "json_too_deep"
    v: Any = []
    for _ in range(3000):
        v = [v]
    with pytest.raises(PositionError) as info:
        loader({"variant": "standard", "hands": v})
    assert info.value.code == "json_too_deep"


# ------------------------------------------------------------------ arbitrary JSON values

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=12,
)
"""Any JSON value (what ``json.loads`` can return)."""

_CARDS = st.sampled_from(FACE_CODE)
PLAUSIBLE = st.one_of(
    st.integers(-3, 12),
    st.booleans(),
    st.none(),
    _CARDS,
    st.lists(_CARDS, max_size=8),
    st.lists(st.integers(-1, 5), max_size=5),
    st.lists(st.lists(_CARDS, max_size=5), min_size=2, max_size=5),
    st.lists(st.booleans(), min_size=2, max_size=5),
    st.sampled_from(["turn", "response", "deal", "game_over", "choose_color",
                     "choose_victim", "cw", "ccw", "red", "green", "draw", "eject", "reveal",
                     "wild_draw", "draw_two", "mystery"]),
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["draw", "eject", "reveal", "pot", "throwdown"]),
            "kind": st.sampled_from(["draw", "eject", "reveal", "burn"]),
            "family": st.sampled_from(["wild_draw", "draw_two", "mystery", "x"]),
            "count": st.integers(-3, 40), "level": st.integers(0, 5),
            "victim": st.integers(-2, 6), "sender": st.integers(-2, 6),
            "attacker": st.integers(-2, 6), "anchor": st.integers(-3, 6),
            "player": st.integers(-2, 6), "legal": st.booleans(),
            "last_card": _CARDS, "locked": st.booleans(), "redirected": st.booleans(),
            "two_active": st.booleans(),
        },
    ),
    JSON,
)
"""Values near what a position field holds (so the loader gets past its first checks)."""

_SAMPLE_GAMES: list[tuple[str, str | None]] = [
    ("standard", None), ("standard", "house"), ("hotdeath", None),
    ("hotdeath", "app_compat"), ("cutthroat", None), ("throwdown", None),
]


def _positions(variant: str, preset: str | None, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    game = hotdeath.new_game(variant, players=rng.choice([2, 3, 4]), seed=seed, preset=preset)
    out = [to_position(game)]
    for step in range(300):
        if game.is_terminal():
            break
        seat = rng.choice(game.actors())
        game.apply_action(rng.choice(game.legal_actions(seat)), seat)
        if step % 5 == 0:
            out.append(to_position(game))
    out.append(to_position(game))
    return out


REAL_POSITIONS = [p for v, pr in _SAMPLE_GAMES for s in range(3) for p in _positions(v, pr, s)]
FIELDS = sorted({k for p in REAL_POSITIONS for k in p} | {"attack", "pot", "wd4", "top",
                                                           "preset", "up_pending"})


def _load_or_coded(data: object) -> GameState | None:
    try:
        return from_position(data)  # type: ignore[arg-type]
    except HotDeathError as e:
        _coded(e)
        return None


@given(value=JSON)
@settings(max_examples=300)
def test_from_position_of_any_json_value_is_coded(value: object) -> None:
    _load_or_coded(value)
    _load_or_coded(json.dumps(value))


@given(
    index=st.integers(0, len(REAL_POSITIONS) - 1),
    changes=st.lists(
        st.tuples(st.sampled_from(FIELDS), st.one_of(st.just("<delete>"), PLAUSIBLE)),
        min_size=1, max_size=3,
    ),
)
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_from_position_of_mutated_positions_is_coded(
    index: int, changes: list[tuple[str, object]]
) -> None:
    data = dict(REAL_POSITIONS[index])
    for key, value in changes:
        if value == "<delete>":
            data.pop(key, None)
        else:
            data[key] = value
    state = _load_or_coded(data)
    if state is not None:  # what loads can be shown, written back and played from
        # issue 16: every loaded position has a legal action for someone or is over
        assert state.is_terminal() or any(state.legal_actions(s) for s in range(state.n))
        state.view(None)
        for s in range(state.n):
            state.view(s)
        again = from_position(to_position(state))
        assert to_position(again) == to_position(state)


def _records() -> list[dict[str, Any]]:
    out = []
    for v, pr in _SAMPLE_GAMES:
        game = hotdeath.new_game(v, players=3, seed=5, preset=pr)
        rng = random.Random(5)
        for _ in range(40):
            if game.is_terminal():
                break
            seat = rng.choice(game.actors())
            game.apply_action(rng.choice(game.legal_actions(seat)), seat)
        out.append(record(game))
    return out


RECORDS = _records()


@given(
    index=st.integers(0, len(RECORDS) - 1),
    key=st.sampled_from(["variant", "options", "players", "seed", "dealer", "actions",
                         "preset", "format"]),
    value=st.one_of(PLAUSIBLE, st.lists(st.one_of(JSON, st.tuples(st.integers(-1, 4),
                                                                   _ACTIONISH).map(list))))
)
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_replay_of_mutated_records_is_coded(index: int, key: str, value: object) -> None:
    rec = dict(RECORDS[index])
    rec[key] = value
    try:
        replay(rec)
    except HotDeathError as e:
        _coded(e)


@given(value=JSON)
@settings(max_examples=200)
def test_replay_of_any_json_value_is_coded(value: object) -> None:
    for data in (value, json.dumps(value)):
        try:
            replay(data)  # type: ignore[arg-type]
        except HotDeathError as e:
            _coded(e)


# ------------------------------------------------------------------ impossible positions

_HD: dict[str, Any] = {"variant": "hotdeath", "hands": [["R3", "HOLY"], ["G5", "B2"], ["B1", "Y7"]],
                       "top": "R9"}
_STD: dict[str, Any] = {"variant": "standard", "hands": [["R3", "G4"], ["G5", "B2"], ["B1", "Y7"]],
                        "top": "R9"}


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("game_over with no winner", {**_HD, "phase": "game_over"}),
        ("game_over with no winner (standard)", {**_STD, "phase": "game_over"}),
        ("winners while the game runs", {**_HD, "winners": [1]}),
        ("every seat inactive", {**_HD, "active": [False, False, False]}),
        ("every seat but one inactive", {**_HD, "active": [True, False, False]}),
        ("an inactive seat to act", {**_HD, "active": [False, True, True]}),
        ("a negative attack count", {**_HD, "attack": {"count": -2}}),
        ("a negative pot", {**_STD, "top": "R+2", "pot": {"count": -2}}),
        ("an attack on an ejected victim",
         {**_HD, "attack": {"victim": 1}, "turn": 1, "active": [True, False, True]}),
        ("hand_winner out of range", {**_HD, "hand_winner": 7}),
        ("pot.victim out of range", {**_STD, "top": "R+2", "pot": {"victim": 9}}),
        ("top_player out of range", {**_STD, "top_player": 3}),
        ("wd4.player out of range",
         {**_STD, "top": "WD4", "color": "red", "pot": {"count": 4, "victim": 1},
          "wd4": {"player": 99}, "options": {"wild_draw_four_rule": "challenge"}}),
        ("negative infections", {**_HD, "infections": [0, -1, 0]}),
        ("choose_victim in a standard hand", {**_STD, "phase": "choose_victim"}),
        ("deal in a standard hand", {**_STD, "phase": "deal"}),
        ("deal in a Cutthroat hand", {**_STD, "variant": "cutthroat", "phase": "deal"}),
        ("up-card choice without a wild", {**_HD, "phase": "choose_color", "dealer": 0}),
        ("uno_open on a two-card hand", {**_HD, "uno_open": [1]}),
        # issue 23 N6: only a hand that ended with nobody left in it (Hot Death's M.A.D.
        # between the last two players, with mad_min_active_players 2) leaves every seat
        # out at the deal; tests/test_properties.py loads such positions of real games
        ("every seat inactive at the deal",
         {"variant": "hotdeath", "phase": "deal", "players": 3, "dealer": 1, "turn": 1,
          "active": [False, False, False]}),
        ("every seat inactive at a Throwdown deal",
         {"variant": "throwdown", "phase": "deal", "players": 2, "dealer": 0, "turn": 0,
          "active": [False, False]}),
    ],
)
def test_impossible_positions_are_refused(kind: str, data: dict[str, Any]) -> None:
    with pytest.raises(PositionError) as info:
        from_position(data)
    _coded(info.value)


def test_the_wd4_player_99_position_no_longer_breaks_challenge() -> None:
    data = {**_STD, "top": "WD4", "color": "red", "pot": {"count": 4, "victim": 1},
            "wd4": {"player": 99}, "options": {"wild_draw_four_rule": "challenge"}}
    with pytest.raises(PositionError):
        from_position(data)
    ok = from_position({**data, "wd4": {"player": 0, "legal": False}})
    ok.apply_action("challenge")
    assert len(ok.hands[0]) == 6  # the guilty player drew the four


def test_possible_edge_positions_still_load() -> None:
    # a game stopped by max_turns may have no winner (STD-9.4)
    from_position({**_STD, "phase": "game_over", "options": {"max_turns": 10}})
    # Hot Death's deal phase after a hand that ejected players
    from_position({"variant": "hotdeath", "phase": "deal", "players": 3, "dealer": 1,
                   "turn": 1, "active": [False, True, False]})
    from_position({**_HD, "phase": "choose_color", "top": "HOT", "dealer": 0, "turn": 0})


def test_a_deal_after_a_hand_that_left_nobody_in_it_loads() -> None:
    """Issue 23 N6's ruling: M.A.D. between the last two players (``source_000``:
    ``mad_min_active_players`` 2) ejects both, the hand ends with nobody left in it
    (HD-3.7.1), and the deal that follows has every seat inactive: such a position loads."""
    import random as rnd

    from hotdeath.state import DEAL

    state = hotdeath.new_game("hotdeath", 2, 0, "source_000")
    rng = rnd.Random(0)
    while not (state.phase == DEAL and not any(state.active)):
        assert not state.is_terminal() and len(state.history) < 5000
        seat = state.current_player()
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    assert state.last_hand is not None and not state.last_hand.winners
    again = from_position(json.loads(json.dumps(to_position(state))))
    assert to_position(again) == to_position(state)


@pytest.mark.parametrize(("name", "good", "bad"), [("decks", 1, True), ("decks", 2, 2.0)])
def test_an_option_value_of_the_wrong_type_is_refused_after_an_equal_good_one(
    name: str, good: object, bad: object
) -> None:
    """``True == 1`` and ``2.0 == 2`` in Python: resolving's cache must not take one for the
    other (the last request and the cache are both keyed by the values' types too)."""
    from hotdeath.errors import OptionError
    from hotdeath.variants import get_variant

    v = get_variant("throwdown")
    assert getattr(v.resolve_options(None, {name: good}), name) == good
    for _ in range(2):  # right after the good request, and again from the cache
        with pytest.raises(OptionError) as err:
            v.resolve_options(None, {name: bad})
        assert err.value.code == "bad_option_value"
        v.resolve_options(None, {name: good})
