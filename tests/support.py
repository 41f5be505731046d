"""Helpers for scenario tests written in the position notation."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import pytest

from hotdeath import actions as A
from hotdeath import describe
from hotdeath.actions import Action
from hotdeath.cards import FACE_CODE, THEMES, card_code, card_name, parse_card
from hotdeath.errors import HotDeathError, IllegalActionError, NotationError, WrongSeatError
from hotdeath.events import Event
from hotdeath.notation import from_position, to_position
from hotdeath.state import GameState


def position(**fields: Any) -> GameState:
    """Build a state from position-notation fields (see docs/notation.md)."""
    return from_position(fields)


_NAMES = {card_name(face, theme) for face in range(len(FACE_CODE)) for theme in THEMES}
CARD_CODES = re.compile(
    r"\b(" + "|".join(re.escape(c) for c in sorted(set(FACE_CODE) - _NAMES) if len(c) > 1)
    + r")\b(?!%)")
"""A card's code in text people read, which they should never see.

Codes that are also a card's name are left out: the card "69" is called 69 in both themes, so
"play 69" is its name, not its code. "69%" is a win chance, never a code.
"""


PATHS = ("apply_action", "step")
"""The two ways to apply an action; :func:`act` takes the one of the ``path`` fixture."""
_path = ["apply_action"]
"""The path :func:`act` takes now (set by the ``path`` fixture of ``tests/conftest.py``)."""


def set_path(name: str) -> None:
    """Make :func:`act` apply actions through ``name`` (one of :data:`PATHS`)."""
    assert name in PATHS, name
    _path[0] = name


def act(state: GameState, *actions: Action | str, seat: int | None = None) -> list[Event]:
    """Apply actions in order (each for ``seat`` or the current player); return all events.

    Every test that calls ``act`` runs twice (``tests/conftest.py``): once through
    ``apply_action`` and once through ``step``.  ``step`` builds no events, so on the
    ``step`` run each action is also applied to a clone through ``apply_action``: the two
    must reach the same position and history (or raise the same error and change nothing),
    and the events returned are the clone's.  The test goes on with the state ``step``
    made, so every check of the state after the action checks ``step``.
    """
    out: list[Event] = []
    for a in actions:
        if _path[0] == "step":
            out += _step_and_compare(state, a, seat)
        else:
            out += state.apply_action(a, seat)
    return out


def _step_and_compare(state: GameState, action: Action | str, seat: int | None) -> list[Event]:
    """``step`` ``action`` on ``state`` and ``apply_action`` it on a clone; compare them."""
    twin = state.clone()
    before = to_position(state)
    history = list(state.history)
    state.legal_actions(seat)  # the current player's list cached first, as bots do
    refused: HotDeathError | None = None
    try:
        state.step(action, seat)
    except HotDeathError as err:
        refused = err
    if refused is not None:
        with pytest.raises(type(refused)) as again:
            twin.apply_action(action, seat)
        assert again.value.code == refused.code
        assert to_position(state) == before and state.history == history, "step changed state"
        raise refused
    events = twin.apply_action(action, seat)
    assert to_position(state) == to_position(twin), f"step and apply_action differ on {action}"
    assert state.history == twin.history
    return events


def legal(state: GameState, seat: int | None = None) -> list[str]:
    """The legal actions of ``seat`` (default: the current player) as notation strings."""
    return [str(a) for a in state.legal_actions(seat)]


def hand(state: GameState, seat: int) -> list[str]:
    """Seat's hand as sorted card codes."""
    return sorted(card_code(c) for c in state.hands[seat])


def kinds(events: list[Event]) -> list[str]:
    """The kinds of the events, in order."""
    return [e.kind for e in events]


def texts(events: list[Event]) -> list[str]:
    """The events in words."""
    return [describe(e) for e in events]


def pos(state: GameState) -> dict[str, Any]:
    """The state's position notation."""
    return to_position(state)


def card(code: str) -> int:
    """Face id of a card code."""
    return parse_card(code)


def assert_step_refuses_and_changes_nothing(g: GameState) -> None:
    """``step`` with the current player's list cached still refuses every bad action.

    Another seat, a seat that does not exist, an action not in the list (also after another
    seat's list was cached) and unreadable text: each raises its error and ``g`` is as
    before.  Used by ``tests/test_paths_agree.py``.
    """
    p = g.current_player()
    acts = g.legal_actions()
    before = to_position(g)
    history = list(g.history)
    other = (p + 1) % g.n
    with pytest.raises(WrongSeatError):
        g.step(acts[0], other)  # another seat, with the current player's list cached
    with pytest.raises(WrongSeatError):
        g.step(acts[0], 9)
    illegal = next(a for a in (A.PASS_ACTION, A.ACCEPT_ACTION) if a not in acts)
    with pytest.raises(IllegalActionError):
        g.step(illegal)
    g.legal_actions(other)  # the cache now holds another seat's (empty) list
    with pytest.raises(IllegalActionError):
        g.step(illegal)
    with pytest.raises(NotationError):
        g.step("fly away")
    assert to_position(g) == before and g.history == history
    g.legal_actions(other)


def pick(state: GameState, rnd: random.Random) -> tuple[int, Action]:
    """Any actor's action, mostly the current player's (window actions now and then)."""
    actors = state.actors()
    seat = actors[0] if len(actors) == 1 or rnd.random() < 0.8 else rnd.choice(actors)
    return seat, rnd.choice(state.legal_actions(seat))


def step_as_bots_do(state: GameState, seat: int, action: Action) -> None:
    """``step`` the way bots, simulations and the benchmark call it: the current player's
    list fetched without a seat first (so ``step`` finds it cached), any other seat named."""
    if seat == state.current_player():
        state.legal_actions()
        state.step(action)
    else:
        state.step(action, seat)


def assert_step_matches_apply_action(
    fast: GameState, slow: GameState, rnd: random.Random, moves: int,
    reference_legal: Callable[[GameState, int], Sequence[Action]], same_actors: bool = False,
) -> None:
    """Play the same random game through ``step`` (``fast``) and ``apply_action`` (``slow``).

    Before every action each actor's legal list must agree in both and with
    ``reference_legal`` (the generic builder); after it the positions and histories must be
    equal; at the end the results.  ``same_actors`` also compares the actors each time.
    """
    for _ in range(moves):
        if fast.is_terminal():
            break
        for s in fast.actors():
            assert fast.legal_actions(s) == slow.legal_actions(s) == tuple(
                reference_legal(fast, s))
        if same_actors:
            assert fast.actors() == slow.actors()
        seat, action = pick(fast, rnd)
        step_as_bots_do(fast, seat, action)
        slow.apply_action(action, seat)
        assert to_position(fast) == to_position(slow)
        assert fast.history == slow.history
    assert fast.is_terminal() == slow.is_terminal()
    assert fast.winners == slow.winners and fast.scores == slow.scores


# ------------------------------------------------------------------ tools the suite needs

MISSING = "missing tool:"
"""How a skip for a missing tool starts (``tests/conftest.py`` sums these up)."""

INSTALL: dict[str, str] = {
    "chromium": "sudo apt-get install chromium  (or: python -m playwright install chromium)",
    "playwright": 'pip install -e ".[test]"  (the test extra brings Playwright)',
    "tmux": "sudo apt-get install tmux",
    "postgresql": "sudo apt-get install postgresql",
    "caddy": "sudo apt-get install caddy",
    "psycopg": 'pip install -e ".[test]"  (or: pip install "hotdeath[postgres]")',
}
"""How to get each tool that some tests need."""


def missing(tool: str, tests: str) -> NoReturn:
    """Skip (fail where ``CI`` is set) a test that needs ``tool``, saying how to get it.

    ``tests`` names what is left untested, e.g. ``"the browser tests"``.  The session's
    summary lists every such skip, and a run with any of them does not end green unless
    ``HOTDEATH_ALLOW_MISSING=1`` is set.
    """
    import os

    text = f"{MISSING} {tool} ({tests}): install it with: {INSTALL.get(tool, tool)}"
    if os.environ.get("CI"):
        pytest.fail(f"{text} (CI must run every test)", pytrace=False)
    pytest.skip(text)


# ------------------------------------------------------------------ waiting ceilings


def timeout_scale() -> float:
    """The factor every waiting ceiling of the suite is multiplied by.

    ``HOTDEATH_TEST_TIMEOUT_SCALE`` (default 1; e.g. ``3`` on a slow or crowded machine).
    A ceiling is only how long a test waits for an event before it calls it lost: a test
    that passes never waits that long, so a larger scale costs nothing when all is well.
    """
    import os

    text = os.environ.get("HOTDEATH_TEST_TIMEOUT_SCALE", "").strip()
    try:
        scale = float(text) if text else 1.0
    except ValueError:
        raise pytest.UsageError(
            f"HOTDEATH_TEST_TIMEOUT_SCALE={text!r}: give a number such as 2 or 0.5") from None
    if not scale > 0:
        raise pytest.UsageError(f"HOTDEATH_TEST_TIMEOUT_SCALE={text!r}: must be above 0")
    return scale


def ceiling(seconds: float) -> float:
    """``seconds`` scaled by :func:`timeout_scale`: the ceiling of a wait for an event.

    >>> ceiling(10) == 10 * timeout_scale()
    True
    """
    return seconds * timeout_scale()


def stored_rows(url: str, sql: str, **params: Any) -> list[Any]:
    """The rows ``sql`` (with ``params``) finds in the database at ``url`` now, read on a
    connection of its own (what a server process has committed, not what it holds)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            return list(c.execute(sa.text(sql), params).all())
    finally:
        engine.dispose()

