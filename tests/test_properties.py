"""Property tests over many random seeded games, for every variant and preset.

Invariants: every card is in exactly one place; whoever may act has a legal action
until the game ends; games end; the same seed and actions give the same state; records
replay; positions and actions round-trip through their notations; a seat's view holds
no card that seat cannot know.

Every run plays the first 30 games per variant and preset; the ``slow`` test plays the rest of
``HOTDEATH_PROPERTY_GAMES`` (default 400), in CI or with ``-m slow``. CI's second pass, on the
compiled core (three times faster, the same source), plays 2,000 (``.ci/run``).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hotdeath
from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import IS_WILD, NUM_FACES, card_code, parse_card
from hotdeath.notation import from_position, record, replay, to_position
from hotdeath.state import RESPONSE, GameState

GAMES = int(os.environ.get("HOTDEATH_PROPERTY_GAMES", "400"))
FAST_GAMES = min(GAMES, 30)
MAX_STEPS = 60_000

CONFIGS = [
    ("standard", "official"),
    ("standard", "house"),
    ("standard", "no_bluffing"),
    ("hotdeath", "canonical"),
    ("hotdeath", "source_000"),
    ("hotdeath", "app_compat"),
    ("hotdeath", "homepage_001"),
    ("cutthroat", "seed_003"),
    ("throwdown", "seed_004"),
]


_WINDOW_KINDS = frozenset((A.UNO, A.CATCH, A.CHALLENGE, A.JUMP))


def _sensible(state: GameState, seat: int, a: Action) -> bool:
    """Window actions a player would really take: no false Uno calls, no leaving."""
    if a.kind == A.LEAVE:
        return False
    if a.kind == A.CATCH:
        return len(state.hands[a.target]) == 1
    if a.kind == A.UNO:
        return len(state.hands[seat]) == 1
    return True


def choose(state: GameState, rnd: random.Random) -> tuple[int, Action]:
    """A random but purposeful policy (so that games end): out-of-turn windows now and
    then, answers to attacks at random, mostly non-wild plays when there are some."""
    actors = state.actors()
    seat = actors[0]
    if len(actors) > 1 and rnd.random() < 0.3:
        other = rnd.choice(actors[1:])
        window = [a for a in state.legal_actions(other) if _sensible(state, other, a)]
        if window:
            return other, rnd.choice(window)
    legal = state.legal_actions(seat)
    acts = [a for a in legal if _sensible(state, seat, a)] or legal
    main = [a for a in acts if a.kind not in _WINDOW_KINDS] or acts
    if state.phase == RESPONSE and seat == state.turn:
        return seat, main[-1] if rnd.random() < 0.6 else rnd.choice(main)
    plays = [a for a in main if a.kind == A.PLAY]
    if plays:
        tame = [a for a in plays if not IS_WILD[a.cards[0]]]
        if tame and rnd.random() < 0.8:
            return seat, rnd.choice(tame)
        if rnd.random() < 0.95:
            return seat, rnd.choice(plays)
    return seat, rnd.choice(acts)


def check_conservation(state: GameState) -> None:
    held = Counter(state.draw_pile)
    held.update(state.discard)
    for h in state.hands:
        held.update(h)
    assert held == Counter(state.deck)


def check_views(state: GameState) -> None:
    for seat in [None, *range(state.n)]:
        v = state.view(seat)
        if seat is None:
            assert v.hand is None
        else:
            assert v.hand is not None and sorted(v.hand) == sorted(state.hands[seat])
        for sv in v.seats:
            assert sv.hand_size == len(state.hands[sv.seat])
            # every card shown as public for a seat is really in that seat's hand
            assert not Counter(sv.revealed) - Counter(state.hands[sv.seat])
        if seat is not None:
            # of the other hands the view shows only the cards made public
            for s in range(state.n):
                if s != seat:
                    assert not Counter(v.seats[s].revealed) - Counter(state.revealed[s])
            check_view_ignores_hidden_cards(state, seat)
            assert v.drawn < 0 or v.drawn in (v.hand or ())
        json.dumps(v.to_json())


def check_view_ignores_hidden_cards(state: GameState, seat: int) -> None:
    """A seat's view must not change when the cards it cannot see are dealt differently."""
    other = state.clone()
    hidden: list[int] = []
    for s in range(other.n):
        if s != seat:
            secret = list((Counter(other.hands[s]) - Counter(other.revealed[s])).elements())
            for c in secret:
                other.hands[s].remove(c)
            hidden += secret
    hidden += other.draw_pile
    random.Random(len(hidden)).shuffle(hidden)
    for s in range(other.n):
        if s != seat:
            need = len(state.hands[s]) - len(other.hands[s])
            other.hands[s] += hidden[:need]
            del hidden[:need]
    other.draw_pile = hidden
    before = state.view(seat).to_json()
    after = other.view(seat).to_json()
    assert before == after


def play_game(variant: str, preset: str, seed: int, deep: bool) -> GameState:
    players = 2 + seed % 5
    if preset == "app_compat":
        players = 4
    state = hotdeath.new_game(variant, players=players, seed=seed, preset=preset)
    rnd = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        actors = state.actors()
        assert actors, "someone must be able to act until the game ends"
        for s in actors:
            assert state.legal_actions(s), f"seat {s} is listed as an actor without actions"
        seat, action = choose(state, rnd)
        if deep and steps % 7 == 0:
            assert Action.parse(str(action)) == action
            before = to_position(state)
            copy = from_position(json.loads(json.dumps(before)))
            assert to_position(copy) == before
            assert [str(a) for a in copy.legal_actions(seat)] == [
                str(a) for a in state.legal_actions(seat)
            ]
            check_views(state)
        events = state.apply_action(action, seat) if deep else None
        if events is not None:
            for e in events:
                for s in range(state.n):
                    shown = e.for_seat(s)
                    if e.hidden and s not in (e.seat, e.target):
                        assert shown.cards == ()
        if steps % 5 == 0 or state.is_terminal():
            check_conservation(state)
        steps += 1
        assert steps < MAX_STEPS, f"game {variant}/{preset}/{seed} did not end"
    check_conservation(state)
    assert state.winners
    return state


def play_fast(variant: str, preset: str, seed: int) -> GameState:
    players = 4 if preset == "app_compat" else 2 + seed % 5
    state = hotdeath.new_game(variant, players=players, seed=seed, preset=preset)
    rnd = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        seat, action = choose(state, rnd)
        state.step(action, seat)
        steps += 1
        if steps % 50 == 0:
            check_conservation(state)
        assert steps < MAX_STEPS, f"game {variant}/{preset}/{seed} did not end"
    check_conservation(state)
    assert state.winners
    return state


def _play_seeds(variant: str, preset: str, seeds: range) -> None:
    """Full games of the ``seeds``; every 10th is checked deeply."""
    for seed in seeds:
        if seed % 10 == 0:
            play_game(variant, preset, seed, deep=True)
        else:
            play_fast(variant, preset, seed)


@pytest.mark.parametrize(("variant", "preset"), CONFIGS)
def test_random_games_keep_invariants(variant: str, preset: str) -> None:
    """The first FAST_GAMES games per variant and preset (every run)."""
    _play_seeds(variant, preset, range(FAST_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "preset"), CONFIGS)
def test_many_random_games_keep_invariants(variant: str, preset: str) -> None:
    """The rest of the GAMES games per variant and preset (CI, or ``-m slow``)."""
    _play_seeds(variant, preset, range(FAST_GAMES, GAMES))


@pytest.mark.parametrize(("variant", "preset"), CONFIGS)
def test_same_seed_same_game_and_records_replay(variant: str, preset: str) -> None:
    for seed in (3, 11):
        a = play_fast(variant, preset, seed)
        b = play_fast(variant, preset, seed)
        assert to_position(a) == to_position(b)
        rec = json.loads(json.dumps(record(a)))
        assert to_position(replay(rec)) == to_position(a)
        half = len(a.history) // 2
        partial = replay(rec, upto=half)
        assert len(partial.history) == half


@pytest.mark.parametrize(("variant", "preset"), CONFIGS)
def test_clone_is_independent(variant: str, preset: str) -> None:
    state = hotdeath.new_game(variant, players=3, seed=5, preset=preset)
    rnd = random.Random(5)
    for _ in range(40):
        if state.is_terminal():
            break
        seat, action = choose(state, rnd)
        state.step(action, seat)
    before = to_position(state)
    copy = state.clone()
    rnd2 = random.Random(9)
    for _ in range(30):
        if copy.is_terminal():
            break
        seat, action = choose(copy, rnd2)
        copy.step(action, seat)
    assert to_position(state) == before


@given(face=st.integers(min_value=0, max_value=NUM_FACES - 1))
def test_card_codes_round_trip(face: int) -> None:
    assert parse_card(card_code(face)) == face
    assert parse_card(card_code(face).lower()) == face


_ACTION_TEXTS = st.one_of(
    st.builds(
        lambda f, c, t, u: " ".join(
            ["play", card_code(f)]
            + ([["red", "yellow", "green", "blue"][c]] if c >= 0 else [])
            + ([f"@{t}"] if t >= 0 else [])
            + (["uno"] if u else [])
        ),
        st.integers(0, NUM_FACES - 1),
        st.integers(-1, 3),
        st.integers(-1, 9),
        st.booleans(),
    ),
    st.sampled_from(["draw", "pass", "accept", "uno", "challenge", "question"]),
    st.builds(lambda n: f"deal {n}", st.integers(1, 15)),
    st.builds(lambda n: f"catch {n}", st.integers(0, 9)),
    st.builds(lambda n: f"victim {n}", st.integers(0, 9)),
    st.builds(lambda n: f"challenge {n}", st.integers(0, 9)),
    st.sampled_from(["color red", "color yellow", "color green", "color blue"]),
)


@given(text=_ACTION_TEXTS)
@settings(max_examples=300)
def test_action_notation_round_trips(text: str) -> None:
    a = Action.parse(text)
    assert Action.parse(str(a)) == a
    assert str(Action.parse(str(a))) == str(a)


@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(2, 10))
@settings(max_examples=40, deadline=None)
def test_new_hotdeath_game_is_dealt_correctly(seed: int, players: int) -> None:
    state = hotdeath.new_game("hotdeath", players=players, seed=seed)
    assert state.legal_actions()
    deal = state.legal_actions()[-1]
    state.apply_action(deal)
    assert sum(len(h) for h in state.hands) >= players * deal.n
    assert len(state.discard) >= 1
    check_conservation(state)
    check_views(state)
