"""The game authority of a table: one game, changed one versioned action at a time.

:class:`GameRun` holds a running game: the engine's state, its version (the actions
applied), the newest version whose write has committed, the event log, the deal and seed
commitments, the message ids each seat used, and the ``state`` messages, serialised once
per seat and version.  It checks an action message against the game (:meth:`GameRun.check`),
applies an action (:meth:`GameRun.apply`, which returns the :class:`Move` to write) and
builds what each seat sees (:meth:`GameRun.state_message`).  It knows no table,
connection, event loop or database: the room (:mod:`hotdeath.server.room`) writes each
move and sends the messages once it is saved, so the authority is tested on its own
(``tests/test_server_authority.py``), as boardgame.io's ``Master`` is.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import hotdeath
from hotdeath.actions import Action
from hotdeath.bots import Bot
from hotdeath.coach import hints_line, hints_used
from hotdeath.events import Event
from hotdeath.rng import DEAL_SCHEME
from hotdeath.server.commitment import (
    commit_deck,
    install,
    new_salt,
    opening_deck,
    seed_digest,
    take_deal_shuffle,
)
from hotdeath.server.messages import (
    action_words,
    actions_json,
    auto_words,
    check_json,
    dumps,
    event_json,
    marked,
    results_json,
    reveal_json,
    rule_at_table,
)
from hotdeath.server.protocol import ProtocolError
from hotdeath.server.seating import table_bot, thinks
from hotdeath.server.store import DealRow, GameRows, deal_scheme_of
from hotdeath.state import GameState
from hotdeath.words import pending_words

LOG_TAIL = 300
"""Events sent with the first ``state`` after ``welcome``."""
SEEN_IDS = 512
"""Client message ids remembered per seat (a reused one is ``replayed``)."""

Clock = Callable[[], "dict[str, Any] | None"]
"""What the table's turn timer says now (``clock`` of a ``state`` message)."""


def no_clock() -> dict[str, Any] | None:
    """A table without a turn timer."""
    return None


@dataclass(frozen=True, slots=True)
class Move:
    """An applied action, as the room writes it: version, seat, notation, what it made.

    ``deals`` are the deal commitments it created (a new hand was dealt), ``result`` the
    final scores and winners when it ended the game.
    """

    version: int
    seat: int
    text: str
    deals: list[DealRow]
    result: tuple[list[int], list[int]] | None
    events: list[Event]


class StaleVersion(ProtocolError):
    """An action for another version than the current one (``stale``).

    ``ahead``: the client named a version the game has not reached (a confused client);
    behind, every newer state is on its way to it already.
    """

    def __init__(self, given: int, current: int, msg_id: str | None) -> None:
        super().__init__("stale", f"version {given} is not the current version {current}",
                         msg_id)
        self.ahead = given > current


@dataclass(slots=True)
class GameRun:
    """A game in memory: the state, its record's bookkeeping and the message cache."""

    game_id: str
    state: GameState
    seed: int
    seed_salt: str
    preset: str
    names: list[str]
    bots: dict[int, Bot]
    deals: dict[int, DealRow]
    theme: str = "family"
    """The table's name theme: the words of every message are in it."""
    version: int = 0
    saved: int = 0
    """The newest version whose write has committed (``version`` may be ahead of it)."""
    log: list[tuple[int, Event]] = field(default_factory=list)
    events_now: list[Event] = field(default_factory=list)
    last_action: tuple[int, str] | None = None
    revealed: set[int] = field(default_factory=set)
    reveals_now: list[dict[str, Any]] = field(default_factory=list)
    seen: dict[int, tuple[deque[str], set[str]]] = field(default_factory=dict)
    cache: dict[int | None, str] = field(default_factory=dict)
    cache_version: int = -1
    taken: dict[int, Bot] = field(default_factory=dict)
    slow: set[int] = field(default_factory=set)
    """Seats whose table bot thinks (is asked off the event loop)."""
    autos: dict[int, tuple[str, int]] = field(default_factory=dict)
    """Versions a bot made for a person: (``timer``, the turn timer ran out, or
    ``takeover``, the person is away; the seat).  In memory: a rebuilt game has none."""
    options: dict[str, Any] = field(default_factory=dict)
    """The table's options (what its preset changes): rule texts say their values."""
    _rules: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Rule titles and texts in the table's words, once made (:meth:`rule_words`)."""
    hints: list[list[int]] = field(default_factory=list)
    """The hints given: ``[seat, index of the action they were for]`` (1 for the first)."""
    hinting: set[int] = field(default_factory=set)
    """Seats whose hint is being computed (one at a time per seat)."""
    _segments: list[str] | None = None
    """The serialised shared fields of the version's ``state`` text (:func:`_segments`)."""
    _event_texts: tuple[int, list[tuple[dict[str, Any], str]]] | None = None
    """The version's events as the seats see them, each with its serialised text."""

    # ------------------------------------------------------------------ a game begins

    @classmethod
    def start(
        cls, variant: str, players: int, preset: str, options: Mapping[str, Any],
        dealer: int | None, names: list[str], bot_specs: Mapping[int, str], theme: str,
        seed: int | None = None,
    ) -> GameRun:
        """A new game, its opening deal committed (not yet written).

        ``seed``: the game's seed (None: a fresh random one, as every table's game has).
        """
        if seed is None:
            seed = secrets.randbits(62)
        state = hotdeath.new_game(variant, players, seed, preset, dict(options), dealer,
                                  DEAL_SCHEME)
        deck = opening_deck(state, dealer)
        install(state)
        deals = {1: commit_deck(1, deck)} if deck is not None else {}
        run = cls(
            game_id=secrets.token_urlsafe(9), state=state, seed=seed, seed_salt=new_salt(),
            preset=preset, names=names,
            bots={s: table_bot(spec) for s, spec in bot_specs.items()},
            deals=deals, theme=theme, options=dict(options),
            slow={s for s, spec in bot_specs.items() if thinks(spec)},
        )
        run.events_now = list(state.opening_events)
        run.log = [(0, e) for e in state.opening_events]
        return run

    @classmethod
    def rebuild(cls, rows: GameRows, theme: str) -> GameRun:
        """A game rebuilt from its record in the database (replaying every action)."""
        row, actions, deals = rows
        seed = int(row["seed"])
        state = hotdeath.new_game(row["variant"], row["players"], seed, row["preset"],
                                  row["options"], row.get("dealer"), deal_scheme_of(row))
        install(state)
        run = cls(
            game_id=row["id"], state=state, seed=seed, seed_salt=row["seed_salt"],
            preset=row["preset"], names=list(row["names"]),
            bots={int(s): table_bot(spec) for s, spec in dict(row["bots"]).items()},
            deals=dict(deals), theme=theme, options=dict(row["options"]),
            slow={int(s) for s, spec in dict(row["bots"]).items() if thinks(spec)},
            hints=[[int(h[0]), int(h[1])] for h in row.get("hints") or []],
        )
        run.events_now = list(state.opening_events)
        run.log = [(0, e) for e in state.opening_events]
        for seat, text in actions:
            events = state.apply_action(Action.parse(text), seat)
            run.version += 1
            run.process(events, create=False)
            run.events_now = events
            run.last_action = (seat, text)
            run.log.extend((run.version, e) for e in events)
        run.saved = run.version
        return run

    # ------------------------------------------------------------------ actions

    def check(self, seat: int, msg_id: str, version: int) -> None:
        """Refuse an action message of ``seat`` the game cannot take now.

        ``game_over``; ``replayed`` (``msg_id`` already used by the seat);
        :class:`StaleVersion` (``version`` is not the current one).
        """
        if self.state.is_terminal():
            raise ProtocolError("game_over", "the game is over", msg_id)
        if self.id_seen(seat, msg_id):
            raise ProtocolError("replayed", f"message id {msg_id!r} was already used", msg_id)
        if version != self.version:
            raise StaleVersion(version, self.version, msg_id)

    def apply(self, seat: int, action: Action, auto: str | None = None) -> Move:
        """Apply ``action`` of ``seat`` (the engine's error if illegal; nothing changes then).

        ``auto``: a move a bot made for the person: ``timer`` (the time ran out) or
        ``takeover`` (the person is away); the messages mark it.  Returns the
        :class:`Move` to write; the version counts it at once, :attr:`saved` once the room
        knows it is written.
        """
        state = self.state
        events = state.apply_action(action, seat)
        text = str(state.history[-1][1])
        new = self.process(events, create=True)
        result = (list(state.scores), list(state.winners)) if state.is_terminal() else None
        self.version += 1
        self.events_now = events
        self.last_action = (seat, text)
        self.log.extend((self.version, e) for e in events)
        if auto is not None:
            self.autos[self.version] = (auto, seat)
        return Move(self.version, seat, text, new, result, events)

    def process(self, events: list[Event], create: bool) -> list[DealRow]:
        """Deal commitments and reveals after ``events``; returns the new commitments."""
        state = self.state
        new: list[DealRow] = []
        deck = take_deal_shuffle(state)
        last_deal = last_end = -1
        for i, e in enumerate(events):
            if e.kind == "deal":
                last_deal = i
            elif e.kind == "hand_end":
                last_end = i
        if last_deal >= 0 and create and deck is not None:
            row = commit_deck(state.hand_no, deck)
            self.deals[state.hand_no] = row
            new.append(row)
        current_over = state.is_terminal() or last_end > last_deal
        self.reveals_now = []
        for h in sorted(self.deals):
            if h in self.revealed:
                continue
            if h < state.hand_no or (h == state.hand_no and current_over):
                self.revealed.add(h)
                self.reveals_now.append(reveal_json(self.deals[h]))
        return new

    def id_seen(self, seat: int, msg_id: str) -> bool:
        """Whether ``seat`` already used ``msg_id``."""
        entry = self.seen.get(seat)
        return entry is not None and msg_id in entry[1]

    def remember(self, seat: int, msg_id: str) -> None:
        """Remember an accepted message id of ``seat`` (the last ``SEEN_IDS``)."""
        order, ids = self.seen.setdefault(seat, (deque(), set()))
        order.append(msg_id)
        ids.add(msg_id)
        if len(order) > SEEN_IDS:
            ids.discard(order.popleft())

    # ------------------------------------------------------------------ messages

    def state_message(self, seat: int | None, clock: Clock = no_clock,
                      with_log: bool = False) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: spectator) at the current version.

        ``clock`` gives the table's turn timer now; ``with_log``: the last
        :data:`LOG_TAIL` events too (the first ``state`` after ``welcome``).
        """
        shared = self._shared_values()
        own = self._seat_values(seat, clock)
        msg = {key: own[key] if key in SEAT_KEYS else shared[key] for key in STATE_KEYS}
        if with_log:
            names, theme = self.names, self.theme
            msg["log"] = marked([event_json(e, seat, ver, names, theme, self.rule_words)
                                 for ver, e in self.log[-LOG_TAIL:]], self.autos, names)
        return msg

    def rule_words(self, rule_id: str) -> tuple[str, str]:
        """A rule's title and text in this table's words and option values."""
        got = self._rules.get(rule_id)
        if got is None:
            got = self._rules[rule_id] = rule_at_table(
                rule_id, self.state.variant.name, self.preset, self.options, self.theme)
        return got

    def check_play(self, seat: int, cards: list[str], msg_id: object) -> dict[str, Any]:
        """The answer to ``seat``'s ``check``: why no order of ``cards`` is a play now."""
        return check_json(self.state, seat, cards, self.version, self.theme, msg_id)

    def state_text(self, seat: int | None, clock: Clock = no_clock) -> str:
        """The serialised ``state`` message for ``seat``, cached per version.

        The same text as :func:`~hotdeath.server.messages.dumps` of :meth:`state_message`;
        what is the same for every seat is built and serialised once per version.
        """
        if self.cache_version != self.version:
            self.cache.clear()
            self.cache_version = self.version
            self._segments = None
        text = self.cache.get(seat)
        if text is None:
            segments = self._segments
            if segments is None:
                segments = self._segments = _segments(self._shared_values())
            own = self._seat_values(seat, clock)
            events = self._events_text(own["events"])
            text = self.cache[seat] = "".join(
                [part for key, segment in zip(SEAT_ORDER, segments, strict=False)
                 for part in (segment, events if key == "events" else dumps(own[key]))]
                + [segments[-1]])
        return text

    def _events_text(self, events: list[dict[str, Any]]) -> str:
        """``dumps(events)``, each event serialised once per version for the seats alike.

        Most events read the same to every seat, their rule's whole text included.
        """
        done = self._event_texts
        if done is None or done[0] != self.version:
            done = self._event_texts = (self.version, [])
        parts = []
        for event in events:
            text = next((t for d, t in done[1] if d == event), None)
            if text is None:
                text = dumps(event)
                done[1].append((event, text))
            parts.append(text)
        return f"[{','.join(parts)}]"

    def _shared_values(self) -> dict[str, Any]:
        """The fields of a ``state`` message that are the same for every seat."""
        state = self.state
        names, theme = self.names, self.theme
        last = None
        if self.last_action is not None:
            s, text = self.last_action
            words = action_words(Action.parse(text), theme, names)
            last = {"seat": s, "action": text, "text": f"{names[s]}: {words}"}
        current = self.deals.get(state.hand_no)
        over = state.is_terminal()
        return {
            "type": "state",
            "game_id": self.game_id,
            "version": self.version,
            "names": names,
            "theme": theme,
            "last_action": last,
            "results": results_json(state, names, theme),
            "commitment": (
                {"hand_no": current.hand_no, "digest": current.digest}
                if current is not None and current.hand_no not in self.revealed else None
            ),
            "reveals": self.reveals_now,
            "seed_commitment": seed_digest(self.seed_salt, self.seed),
            "seed_reveal": {"seed": self.seed, "salt": self.seed_salt} if over else None,
            "auto": self.version in self.autos,
            "auto_reason": self.autos[self.version][0] if self.version in self.autos else None,
            "auto_text": auto_words(*self.autos[self.version], names)
            if self.version in self.autos else None,
            "hints_line": hints_line(self.hints, state.n, names) if over else "",
        }

    def _seat_values(self, seat: int | None, clock: Clock) -> dict[str, Any]:
        """The fields of a ``state`` message that are ``seat``'s own (in message order)."""
        state = self.state
        names, theme, v = self.names, self.theme, self.version
        view = state.view(seat)
        attack = pending_words(view.attack, names, theme, you=seat)  # the one renderer
        return {
            "view": view.to_json(),
            "attack_words": None if attack is None else attack.to_json(),
            "actions": actions_json(state, seat, names, theme),
            "events": marked([event_json(e, seat, v, names, theme, self.rule_words)
                              for e in self.events_now], self.autos, names),
            "clock": clock(),
            "hints_used": (
                hints_used(self.hints, state.n) if state.is_terminal()
                else hints_used([h for h in self.hints if h[0] == seat], state.n)
            ),
        }


STATE_KEYS: Final = (
    "type", "game_id", "version", "view", "attack_words", "actions", "names", "theme",
    "last_action",
    "results", "events", "commitment", "reveals", "seed_commitment", "seed_reveal", "clock",
    "auto", "auto_reason", "auto_text", "hints_used", "hints_line",
)
"""The fields of a ``state`` message, in the order they are sent."""
SEAT_ORDER: Final = tuple(k for k in STATE_KEYS if k in ("view", "attack_words", "actions",
                                                         "events", "clock", "hints_used"))
"""The fields that differ from seat to seat, in message order."""
SEAT_KEYS: Final = frozenset(SEAT_ORDER)


def _segments(shared: Mapping[str, Any]) -> list[str]:
    """The serialised text of a ``state`` message around its seat's own fields.

    ``len(SEAT_ORDER) + 1`` pieces: the text before the first seat field (ending in its
    key), between each two, and after the last; joined with each seat field's
    serialisation they are exactly :func:`dumps` of the whole message.
    """
    out: list[str] = []
    current = "{"
    for i, key in enumerate(STATE_KEYS):
        head = f'{"," if i else ""}"{key}":'
        if key in SEAT_KEYS:
            out.append(current + head)
            current = ""
        else:
            current += head + dumps(shared[key])
    out.append(current + "}")
    return out
