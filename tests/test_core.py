"""The core's contract: purity, registry, option validation, API basics."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import hotdeath
from hotdeath import actions as A
from hotdeath.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    OptionError,
    WrongSeatError,
)
from hotdeath.notation import to_position
from hotdeath.simulate import _Tally
from tests.support import act, hand, position, texts

CORE_MODULES = [
    "hotdeath", "hotdeath.cards", "hotdeath.actions", "hotdeath.events", "hotdeath.errors",
    "hotdeath.options", "hotdeath.state", "hotdeath.view", "hotdeath.notation", "hotdeath.rng",
    "hotdeath.rulebook", "hotdeath.variants", "hotdeath.variants.standard",
    "hotdeath.variants.hotdeath",
]


def test_core_imports_only_the_standard_library() -> None:
    code = (
        "import sys, json\n"
        "before = set(sys.modules)\n"
        f"import importlib\nfor m in {CORE_MODULES!r}: importlib.import_module(m)\n"
        "new = sorted(m.split('.')[0] for m in set(sys.modules) - before)\n"
        "print(json.dumps(sorted(set(new))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    roots = set(json.loads(out))
    # the compiled core (mypyc) adds one shared helper module named <hash>__mypyc
    third_party = {r for r in roots - {"hotdeath"}
                   if r not in sys.stdlib_module_names and not r.endswith("__mypyc")}
    assert third_party == set(), third_party


def test_a_plain_import_gives_the_notation_and_the_views() -> None:
    # as python-chess's ``import chess`` gives ``chess.Board``: ``import hotdeath`` alone,
    # in a fresh interpreter, reaches the position notation and the views
    code = ("import hotdeath\n"
            "g = hotdeath.new_game('standard', players=2, seed=7)\n"
            "p = hotdeath.notation.to_position(g)\n"
            "q = hotdeath.notation.from_position(p)\n"
            "print(q.turn == g.turn, hotdeath.view.View.__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["True", "View"]


@pytest.mark.parametrize("variant", ["standard", "hotdeath", "cutthroat", "throwdown"])
def test_the_legal_actions_cannot_be_corrupted_by_their_caller(variant: str) -> None:
    # the list a caller gets is immutable (a tuple, cached until the state changes): as
    # with python-chess's generators or OpenSpiel's fresh lists, clearing or editing what
    # it got cannot change the game; a list of one's own is list(...)
    g = hotdeath.new_game(variant, players=3, seed=7)
    for _ in range(30):
        if g.is_terminal():
            break
        for seat in g.actors():
            acts = g.legal_actions(seat)
            assert isinstance(acts, tuple) and acts
            with pytest.raises(AttributeError):
                acts.clear()  # type: ignore[attr-defined]
            mine = list(acts)
            mine.clear()
            assert g.legal_actions(seat) == acts
        seat = g.current_player()
        g.apply_action(g.legal_actions()[0], seat)  # the listed actions still work


def test_every_input_error_is_a_value_error() -> None:
    # python-chess's IllegalMoveError is a ValueError: so is every error of the engine about
    # what a caller gave, an illegal action, a wrong seat and a finished game included
    from hotdeath import errors

    classes = [c for c in vars(errors).values()
               if isinstance(c, type) and issubclass(c, errors.HotDeathError)]
    assert len(classes) == 8
    for cls in classes:
        assert issubclass(cls, ValueError) is (cls is not errors.HotDeathError), cls
    g = hotdeath.new_game("standard", players=2, seed=1)
    assert g.current_player() == 0 and "play Y2" not in map(str, g.legal_actions())
    before = to_position(g)
    for bad, seat, err in (("play Y2", None, errors.IllegalActionError),
                           ("draw", 1, errors.WrongSeatError),
                           ("fly", None, errors.NotationError)):
        with pytest.raises(err) as caught:
            g.apply_action(bad, seat)
        assert isinstance(caught.value, ValueError)  # what code catching bad values catches
    assert to_position(g) == before


def test_registry_finds_variants_by_name_and_alias() -> None:
    assert hotdeath.get_variant("hd").name == "hotdeath"
    assert hotdeath.get_variant("Standard").name == "standard"
    assert hotdeath.get_variant("uno").name == "standard"
    with pytest.raises(OptionError) as e:
        hotdeath.get_variant("poker")
    assert e.value.code == "unknown_variant"
    assert "hotdeath" in e.value.message and "standard" in e.value.message


@pytest.mark.parametrize(
    ("options", "code", "words"),
    [
        ({"no_such_option": 1}, "unknown_option", ["no_such_option", "uno_rule"]),
        ({"uno_rule": "sometimes"}, "bad_option_value", ["uno_rule", "catch, off"]),
        ({"mad_min_active_players": 1}, "bad_option_value", ["from 2 to 10"]),
        ({"draw_two_defensible": "maybe"}, "bad_option_value", ["true, false"]),
        ({"min_deal": 9, "max_deal": 6}, "bad_option_combination", ["min_deal", "max_deal"]),
    ],
)
def test_bad_options_are_named_with_allowed_values(
    options: dict[str, object], code: str, words: list[str]
) -> None:
    with pytest.raises(OptionError) as e:
        hotdeath.new_game("hotdeath", players=4, options=options)
    assert e.value.code == code
    for w in words:
        assert w in e.value.message


def test_unknown_preset_and_bad_player_counts() -> None:
    with pytest.raises(OptionError) as e:
        hotdeath.new_game("hotdeath", preset="house")
    assert e.value.code == "unknown_preset" and "canonical" in e.value.message
    with pytest.raises(OptionError) as e:
        hotdeath.new_game("hotdeath", players=11)
    assert e.value.code == "bad_players"
    with pytest.raises(OptionError) as e:
        hotdeath.new_game("hotdeath", players=10, options={"min_deal": 11})
    assert e.value.code == "bad_option_combination"
    assert "10 players" in e.value.message


def test_option_values_given_as_text_are_coerced() -> None:
    g = hotdeath.new_game(
        "hotdeath", options={"draw_two_defensible": "false", "mad_points": "75"}
    )
    assert g.opts.draw_two_defensible is False
    assert g.opts.mad_points == 75


def test_errors_leave_the_state_unchanged() -> None:
    g = hotdeath.new_game("standard", players=3, seed=4)
    before = to_position(g)
    other = (g.current_player() + 1) % 3
    with pytest.raises(WrongSeatError) as e:
        act(g, g.legal_actions()[0], seat=other)
    assert e.value.code == "wrong_seat"
    with pytest.raises(IllegalActionError) as e2:
        act(g, "pass")
    assert e2.value.code == "illegal_action"
    with pytest.raises(NotationError) as e3:
        act(g, "fly away")
    assert e3.value.code == "bad_syntax"
    with pytest.raises(WrongSeatError):
        act(g, "draw", seat=7)
    assert to_position(g) == before


def test_game_over_refuses_actions() -> None:
    g = hotdeath.new_game("standard", players=2, seed=1, options={"rounds": 1})
    while not g.is_terminal():
        acts = g.legal_actions()
        plays = [a for a in acts if a.kind == A.PLAY]
        g.step(plays[0] if plays else acts[0])
    assert g.current_player() == hotdeath.TERMINAL
    assert g.legal_actions() == () and g.actors() == []
    assert sum(g.returns()) >= 1.0
    with pytest.raises(GameOverError) as e:
        act(g, "draw")
    assert e.value.code == "game_over"


@pytest.mark.rule("STD-2.1", "ruling", "the next game starts as the first did")
@pytest.mark.rule("HD-3.2", "ruling", "a later game's first dealer is random again")
@pytest.mark.rule("CT-7.2", "ruling", "nothing carries over: P0 deals (CT-1.3)")
@pytest.mark.rule("TD-1.6", "seed 004", "the winner deals the next game")
@pytest.mark.parametrize(("variant", "fields", "dealer"), [
    ("standard", {"hands": [["R3"], ["B5", "Y9"], ["G1"]], "scores": [490, 0, 0]}, None),
    ("standard", {"hands": [["R3"], ["B5", "Y9"], ["G1"]], "scores": [490, 0, 0],
                  "options": {"dealer_selection": "rotate_left"}}, None),
    ("hotdeath", {"hands": [["R1"], ["R9", "R5"], ["G2"]], "scores": [0, 990, 500]}, None),
    ("cutthroat", {"hands": [["R3"], ["B5", "Y9"], ["G1"]]}, None),
    ("throwdown", {"hands": [["R3"], ["B5", "Y9"], ["G1"]],
                   "options": {"play_on_after_first_out": False}}, 0),
])
def test_the_next_games_dealer_is_the_variants(
    variant: str, fields: dict[str, object], dealer: int | None
) -> None:
    """``next_game_dealer()``: who deals the next game at the table, once a game is over."""
    g = position(variant=variant, players=3, turn=0, top="R7", dealer=2, **fields)
    assert g.next_game_dealer() is None  # nobody while the game goes on
    act(g, "play " + hand(g, 0)[0])
    assert g.is_terminal() and g.winners == [0]
    assert g.next_game_dealer() == dealer
    if dealer is not None:  # (None: the next game starts as any first game does)
        nxt = hotdeath.new_game(variant, players=3, seed=5, dealer=dealer)
        assert nxt.dealer == dealer and nxt.init_params == {"dealer": dealer}


def test_every_event_cites_a_rule_of_the_rulebook() -> None:
    from hotdeath.rulebook import RULES

    for variant in ("standard", "hotdeath", "cutthroat", "throwdown"):
        for seed in range(8):
            g = hotdeath.new_game(variant, players=2 + seed % 4, seed=seed)
            steps = 0
            while not g.is_terminal() and steps < 3000:
                acts = g.legal_actions()
                plays = [a for a in acts if a.kind == A.PLAY]
                for ev in g.apply_action(plays[seed % len(plays)] if plays else acts[-1]):
                    assert ev.rule in RULES, (ev.kind, ev.rule)
                    assert hotdeath.describe(ev).endswith(f"[{ev.rule}]")
                steps += 1


def test_variant_states_stay_compilable_with_mypyc() -> None:
    """mypyc refuses a subclass that narrows the type of ``opts`` (scripts/build_mypyc.py)."""
    import re
    from pathlib import Path

    variants = Path(hotdeath.__file__).parent / "variants"
    for path in sorted(variants.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^    opts: \w+$", text, re.MULTILINE), path.name


# A turn draw and a penalty draw of every variant, with both piles empty (the discard pile
# holds only its top card): (variant, position fields, action, cards owed, forgiven rule).
_EMPTY_PILES = [
    ("standard", {}, "draw", 1, "STD-0.4"),
    ("standard", {"top": "B+2", "pot": {"count": 2}}, "accept", 2, "STD-0.4"),
    ("cutthroat", {}, "draw", 1, "CT-7.4"),
    ("cutthroat", {"top": "B+2", "pot": {"count": 2}}, "accept", 2, "CT-7.4"),
    ("throwdown", {}, "draw", 1, "TD-3.2"),
    ("throwdown", {}, "catch 1", 2, "TD-3.2"),  # an erroneous call costs the caller two
    ("throwdown", {"top": "B+2", "pending": {"type": "pot", "victim": 0, "count": 2}},
     "accept", 2, "TD-4.8"),  # the pot
    ("hotdeath", {}, "draw", 1, "HD-3.2"),
    ("hotdeath", {"top": "WD4", "color": "blue", "attack": {"count": 4}}, "accept", 4, "HD-3.2"),
]


@pytest.mark.rule("STD-0.4", "ruling", "uno-variants.md §0.4: owed cards are forgiven")
@pytest.mark.rule("HD-3.2", "ruling", "hot-death.md §3.2: the empty draw pile")
@pytest.mark.parametrize(("variant", "fields", "action", "owed", "rule"), _EMPTY_PILES)
def test_a_draw_that_finds_both_piles_empty_logs_only_the_forgiven_cards(
    variant: str, fields: dict[str, object], action: str, owed: int, rule: str
) -> None:
    place: dict[str, object] = {"top": "B9", **fields}
    g = position(variant=variant, players=2, turn=0, draw=[],
                 hands=[["R1", "R3"], ["G5", "Y7"]], **place)
    events = act(g, action)
    assert hand(g, 0) == ["R1", "R3"]  # nothing came
    assert [e.kind for e in events if e.kind in ("draw", "forgiven")] == ["forgiven"]
    forgiven = next(e for e in events if e.kind == "forgiven")
    assert (forgiven.seat, forgiven.n, forgiven.rule) == (0, owed, rule)
    lines = texts(events)
    assert f"P0 cannot draw {owed} more card{'s' if owed > 1 else ''}: no cards left  [{rule}]" \
        in lines
    assert not [line for line in lines if "draws 0" in line]
    tally = _Tally(2)  # the statistics of hotdeath.simulate, read from the same events
    tally.add(events)
    assert tally.kinds["draw"] == 0 and tally.kinds["forgiven"] == 1 and tally.largest_draw == 0


def test_a_draw_cut_short_by_empty_piles_logs_the_cards_drawn_then_the_rest_forgiven() -> None:
    # a Draw Two on R7: the R7 under it is reshuffled and drawn, the second card is forgiven
    g = position(variant="standard", players=2, turn=0, draw=[], discard=["R7"],
                 hands=[["R+2", "G1"], ["G5", "Y7"]])
    events = act(g, "play R+2")
    owed = [(e.kind, e.n) for e in events if e.kind in ("draw", "forgiven")]
    assert owed == [("draw", 1), ("forgiven", 1)]


def test_the_shuffle_is_the_sort_by_the_generators_random_keys() -> None:
    """``Rng.shuffle`` draws its keys through C callables; the order is the reference one.

    The reference: a stable sort of the list by ``random()`` of a Mersenne Twister seeded
    with the next 64-bit number, one key per item in the list's order (the deals of every
    seed depend on it: the golden playthroughs pin them).
    """
    import random

    from hotdeath.rng import Rng

    picks = random.Random(13)
    for _ in range(300):
        seed = picks.getrandbits(64)
        items = [picks.randrange(200) for _ in range(picks.choice((0, 1, 2, 7, 108, 216)))]
        got, want = items[:], items[:]
        rng, ref = Rng(seed), Rng(seed)
        rng.shuffle(got)
        keys = random.Random(ref.next64())
        want.sort(key=lambda _item: keys.random())
        assert got == want
        assert rng.state == ref.state
