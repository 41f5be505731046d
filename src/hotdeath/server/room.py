"""The game authority: one :class:`Room` per table, all of them in one :class:`Hub`.

A room holds its table's seats, connections and running game in memory, backed by the
:class:`~hotdeath.server.store.Store`.  Everything that changes a game runs synchronously
on the event loop, so actions are applied one at a time without locks: an action is
checked and applied by the engine, its write queued to the store's database thread, and
the messages it makes (each seat's own view, computed and serialised once per seat and
version) are sent when that write has committed, so nobody sees a move that is not saved.
A write that fails is logged and the table goes back to what the database holds (every
connection is told).  Bots move from one background task per room
(:func:`hotdeath.bots.arena.next_bot_move`), after the table's delay, with generators
derived from the game's seed and version (:func:`decision_rngs`), so a table reloaded
from its record plays on exactly as it would have.  The :class:`Hub` unloads a table that
nobody is connected to once it has been idle for a while, and loads it back on demand.

A bot that thinks (its catalog entry has a time ``budget``, such as ``ismcts``) is asked
in one of the hub's few worker threads (:data:`THINKERS`) on a clone of the state, so the
event loop keeps serving every table meanwhile; its answer is applied only if the game
has not moved on in between (otherwise it is asked again).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import multiprocessing
import random
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import hotdeath
from hotdeath.actions import DEAL, DIRECTION, KIND_WORDS, LEAVE, Action
from hotdeath.bots import Bot, BotInfo, bot_label, make_bot, parse_spec
from hotdeath.bots.arena import next_bot_move, worth_offering
from hotdeath.cards import COLOR_NAMES, THEMES, card_code
from hotdeath.coach import HINT_SECONDS, CoachError, hint, hints_line, hints_used, review
from hotdeath.errors import HotDeathError, TextError
from hotdeath.events import Event, describe
from hotdeath.notation import RECORD_FORMAT
from hotdeath.options import as_dict
from hotdeath.pending import DrawAttack, Pot
from hotdeath.rulebook import RULES
from hotdeath.server.chat import CHAT_BURST, CHAT_PER_SECOND, REACTIONS, chat_text
from hotdeath.server.commitment import (
    commit_deck,
    install,
    new_salt,
    opening_deck,
    seed_digest,
    take_deal_shuffle,
)
from hotdeath.server.leases import Claim, Leases
from hotdeath.server.protocol import RATE_BURST, RATE_PER_SECOND, ProtocolError, TokenBucket
from hotdeath.server.store import CHAT_KEPT, DealRow, GameRows, LeaseLost, RoomRows, Store
from hotdeath.state import GameState
from hotdeath.text import clean_text
from hotdeath.variants import get_variant
from hotdeath.words import (
    button_label,
    describe_action,
    describe_game,
    describe_hand,
    for_people,
    house_rules,
    themed,
)

log = logging.getLogger("hotdeath.server")

LOG_TAIL = 300
"""Events sent with the first ``state`` after ``welcome``."""
SEEN_IDS = 512
"""Client message ids remembered per seat (a reused one is ``replayed``)."""
OUTBOX_LIMIT = 2000
"""Messages queued for one connection before it is dropped as too slow."""
DEFAULT_BOT = "basic"
"""The bot the lobby proposes and the default takeover bot."""
MAX_BOT_SECONDS = 1.0
"""Default cap on a thinking bot's time per decision at the server."""
LEVEL_SECONDS = (0.2, 0.5, 1.0)
"""The thinking times the lobby offers for a bot with a budget (up to the cap)."""
THINKERS = 2
"""Worker threads for thinking bots, shared by every table.  Bots are pure Python, so more
threads add no speed under the GIL, only delay for the event loop (docs/performance.md)."""
ADOPT_BATCH = 50
"""Tables of a stopped process one process takes over per round of its heartbeat."""
LEASE_TRIES = 40
"""Tries (50 ms apart) to take a table another process is taking at the same moment."""
IDLE_UNLOAD = 900.0
"""Default seconds a table nobody is connected to stays in memory after its last event."""
FINISHED_UNLOAD = 120.0
"""The same for a table whose game is over."""
BACKOFF_FIRST = 1.0
"""Seconds a table whose write failed waits before it tries to write again."""
BACKOFF_MAX = 60.0
"""The longest wait: each failure in a row doubles the wait up to this."""
BREATHER_SECONDS = 20.0
"""The lobby's pause after a hand: the next starts when every person is ready, or after
this (a table made through the API has none unless it asks, ``breather``)."""
TURN_TIMER_RANGE = (15.0, 120.0)
"""The turn timers a table may have (seconds; None: no timer)."""
BOT_NAMES = ("Ada", "Bo", "Cy", "Dot", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo")
"""The first names of bot seats, by seat."""
REVIEW_SECONDS = 0.2
"""The coach's thinking time per decision in a review of a hand."""
REVIEW_BUDGET = 20.0
"""The most seconds one review of a hand may take (longer hands get less per decision)."""
REVIEWS_KEPT = 64
"""Reviews kept in memory (every one is also stored with its game)."""
REVIEWS_WAITING = 8
"""Reviews one server computes or holds waiting at once; more are refused (``coach_busy``)."""
SAFE_DEFAULTS = ("accept", "draw", "pass", "decline")
"""What a timed-out seat does when no bot can choose: the first of these that is legal."""


def token_hash(token: str) -> str:
    """The stored form of a token (SHA-256 hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def decision_rngs(seed: int, version: int, players: int) -> list[random.Random]:
    """The bots' generators for the decisions at ``version`` of the game of ``seed``.

    A function of the record only: a game rebuilt from the database (after a restart or
    an unload) asks its bots with the same generators as the game that was never unloaded.
    """
    base = (seed * 1_000_003 + version) * 64
    return [random.Random(base + seat) for seat in range(players)]


def on_loop(fut: Future[Any], fn: Callable[[], None]) -> None:
    """Call ``fn`` on the running event loop once ``fut`` is done.

    Outside an event loop, wait for ``fut`` here and call ``fn``.  Callbacks of one
    future run in the order they were added, before anything awaiting it resumes.  A
    future already done is queued on the loop too, never called at once: the store's
    thread finishes writes in order and queues their callbacks as each one commits, so a
    later write that is done already must wait behind an earlier one's queued callback
    (called at once, version 15 went out before version 0 on a busy machine).
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        fut.exception()
        fn()
        return
    if fut.done():
        loop.call_soon(fn)
        return

    def committed(_f: Future[Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody to tell
            loop.call_soon_threadsafe(fn)

    fut.add_done_callback(committed)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class ApiError(Exception):
    """A refused REST request: HTTP status, stable code, message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class Conn:
    """One WebSocket connection: its seat (None: spectator) and its outgoing queue."""

    def __init__(self, burst: float = RATE_BURST, rate: float = RATE_PER_SECOND) -> None:
        self.seat: int | None = None
        self.greeted = False
        self.bucket = TokenBucket(burst, rate, burst)
        self.chat_bucket = TokenBucket(CHAT_BURST, CHAT_PER_SECOND, CHAT_BURST)
        self.watcher = 0
        """A spectator's number at its table (its chat name is "Watcher N")."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code: int | None = None
        """The WebSocket close code to send when the server closes it (None: keep it)."""

    def send(self, text: str) -> None:
        """Queue ``text``; a connection that falls too far behind is closed."""
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(text)

    def send_json(self, obj: Mapping[str, Any]) -> None:
        """Queue a JSON message."""
        self.send(_dumps(obj))

    def close(self, code: int | None = None) -> None:
        """Stop sending (the sender task ends at the ``None`` mark).

        ``code``: close the socket too, with this close code (1012: served elsewhere now).
        """
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.outbox.put_nowait(None)


@dataclass(slots=True)
class SeatInfo:
    """A seat of a table: a person (name + token hash), a bot, or open."""

    seat: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    conns: int = 0
    since: float = field(default_factory=time.monotonic)
    """When the person last left (or joined, or the server started)."""

    @property
    def kind(self) -> str:
        """``human``, ``bot`` or ``open``."""
        return "human" if self.token_hash else "bot" if self.bot else "open"


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
    auto_now: bool = False
    """Whether the newest action was the turn timer's move for a person."""
    hints: list[list[int]] = field(default_factory=list)
    """The hints given: ``[seat, index of the action they were for]`` (1 for the first)."""
    hinting: set[int] = field(default_factory=set)
    """Seats whose hint is being computed (one at a time per seat)."""

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


_RULE_CACHE: dict[tuple[str, str], tuple[str, str]] = {}


def _rule(rule_id: str, theme: str = "family") -> tuple[str, str]:
    """A rule's title and text for people (option ids in words), in ``theme``."""
    got = _RULE_CACHE.get((rule_id, theme))
    if got is None:
        r = RULES.get(rule_id)
        got = (
            (themed(r.title, theme), for_people(r.text, r.game, theme)) if r is not None
            else ("", "")
        )
        _RULE_CACHE[(rule_id, theme)] = got
    return got


def event_json(
    event: Event, seat: int | None, version: int, names: list[str], theme: str
) -> dict[str, Any]:
    """An event as ``seat`` may see it, in words, with its rule's title and text."""
    d = event.for_seat(seat).to_json()
    title, text = _rule(event.rule, theme)
    d["version"] = version
    d["text"] = describe(event, theme, names, viewer=seat)
    d["rule_title"] = title
    d["rule_text"] = text
    return d


def action_words(action: Action, theme: str, names: list[str] | None = None) -> str:
    """An action for people, with card names from ``theme`` and seat names.

    The one renderer of actions, :func:`hotdeath.words.describe_action`.

    >>> action_words(Action.parse("play WD4 green"), "family")
    'play Wild Draw Four, naming green'
    >>> action_words(Action.parse("catch 1"), "family", ["Ann", "Bo"])
    'catch Bo: no Uno call'
    """
    return describe_action(action, names, theme)


def actions_json(state: GameState, seat: int | None, names: list[str],
                 theme: str) -> list[dict[str, Any]]:
    """``seat``'s legal actions for the page: each in parts, in words, and whether to offer it.

    The page reads these parts (it parses no notation of its own): ``text`` is the action
    as the socket takes it back; ``cards`` are card codes, ``color`` a colour name, ``n`` a
    deal size or ``cw``/``ccw`` for a direction; ``words`` come from
    :func:`hotdeath.words.describe_action` and ``button`` from
    :func:`hotdeath.words.button_label` (an accept says how many cards it takes); ``offer``
    is false for a call that is sure to be wrong (Throwdown lists those; they only cost
    cards, TD-5.5), so the page gives it no button (leaving is offered: the page asks
    before it sends it).

    >>> g = hotdeath.new_game("standard", players=2, seed=1)
    >>> [a["words"] for a in actions_json(g, g.current_player(), ["Ann", "Bo"], "family")]
    ['play Green 6', 'draw a card']
    """
    if seat is None:
        return []
    pending = state.pending()
    owed = pending.count if isinstance(pending, (DrawAttack, Pot)) else 0
    out = []
    for a in state.legal_actions(seat):
        out.append({
            "text": str(a),
            "kind": KIND_WORDS[a.kind],
            "cards": [card_code(c) for c in a.cards],
            "color": COLOR_NAMES[a.color] if a.color >= 0 else None,
            "target": a.target if a.target >= 0 else None,
            "n": ("cw" if a.n == 1 else "ccw") if a.kind == DIRECTION
            else a.n if a.kind == DEAL else None,
            "uno": a.uno,
            "words": describe_action(a, names, theme),
            "button": button_label(a, names, theme, owed),
            "offer": a.kind == LEAVE or worth_offering(state, seat, a),
        })
    return out


def results_json(state: GameState, names: list[str], theme: str) -> dict[str, Any] | None:
    """The last hand's and the game's result in words for the page (``hotdeath.words``).

    The view carries the results themselves (``last_hand``, ``game_result``, the common
    shape); these are their words in the table's name theme, with each cited rule's title,
    so the page builds no words of its own.  None before any hand has ended.
    """
    last = state.last_hand
    final = state.game_result()
    if last is None and final is None:
        return None
    extras = state.variant.result_extras
    rules = {last.rule} if last is not None else set()
    if last is not None:
        rules.update(x.rule for s in last.seats for x in s.lines)
    if final is not None:
        rules.add(final.rule)
    return {
        "hand": None if last is None else describe_hand(last, names, theme, extras).to_json(),
        "game": None if final is None else describe_game(final, names, theme,
                                                         extras).to_json(),
        "rule_titles": {r: _rule(r)[0] for r in sorted(rules)},
    }


def goal_json(variant: str, preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """How a game at a table is won: the variant's words and the rule they come from.

    >>> goal_json("standard", "official", {"scoring": "penalty_points"})["lowest_wins"]
    True
    """
    v = get_variant(variant)
    goal = v.goal(v.resolve_options(preset, options))
    title, text = _rule(goal.rule)
    return {"rule": goal.rule, "rule_title": title, "rule_text": text,
            "lowest_wins": goal.lowest_wins, "text": goal.text}


def changed_options(
    variant: str, preset: str, options: Mapping[str, object]
) -> dict[str, object]:
    """The overrides of ``options`` that truly change the preset (typed as the option is).

    An override equal to the preset's value (``"1"`` for an integer choice of 1, say) is
    no change and is dropped.

    >>> changed_options("standard", "official", {"initial_direction": "1", "seven_o": True})
    {'seven_o': True}
    """
    v = get_variant(variant)
    base = as_dict(v.resolve_options(preset, {}))
    by_name = {s.name: s for s in v.option_specs()}
    out: dict[str, object] = {}
    for name, value in options.items():
        spec = by_name.get(name)
        if spec is None:
            out[name] = value  # resolve_options refuses it with its error
            continue
        typed = spec.coerce(value)
        if typed != base[name] or isinstance(typed, bool) != isinstance(base[name], bool):
            out[name] = typed
    return out


def reveal_json(deal: DealRow) -> dict[str, Any]:
    """The reveal of a deal commitment."""
    return {"hand_no": deal.hand_no, "salt": deal.salt, "deck": list(deal.deck),
            "digest": deal.digest}


class Room:
    """One table: seats, connections, the running game and its bot driver."""

    def __init__(self, hub: Hub, row: Mapping[str, Any], seats: list[SeatInfo]) -> None:
        self.hub = hub
        self.store = hub.store
        self.table_id: str = row["id"]
        self.name: str = row["name"]
        self.variant: str = row["variant"]
        self.preset: str = row["preset"]
        self.options: dict[str, Any] = dict(row["options"])
        self.players: int = row["players"]
        self.theme: str = row["theme"]
        self.bot_delay: float = row["bot_delay"]
        self.takeover_timeout: float | None = row["takeover_timeout"]
        self.takeover_bot: str = row["takeover_bot"]
        self.host_hash: str = row["host_token_hash"]
        self.status: str = row["status"]
        self.turn_timer: float | None = row.get("turn_timer")
        self.public: bool = bool(row.get("public", False))
        self.breather_seconds: float = float(row.get("breather") or 0.0)
        self.hints_setting: bool | None = row.get("hints")
        """Hints from the coach: on, off, or None (on when the table has a bot)."""
        self.seats = seats
        self.chat: list[dict[str, Any]] = []
        """The newest chat lines (the store keeps them all)."""
        self.watchers = 0
        """Spectator connections so far (each gets a number for its chat name)."""
        self.breather: dict[str, Any] | None = None
        """The pause after a hand: ``until`` (monotonic), ``hand``, ``ready`` seats."""
        self.clock: tuple[int, float] | None = None
        """The seat on the turn timer and when its clock started."""
        self.games: list[str] = []
        self.run: GameRun | None = None
        self.conns: set[Conn] = set()
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self.takeover_thinks = thinks(self.takeover_bot)
        self.goal = goal_json(self.variant, self.preset, self.options)
        self.house_rules = house_rules(self.variant, self.preset, self.options, self.theme)
        self.stale_answers = 0
        """Bot answers dropped because the game moved on while they were computed."""
        self.recovering = False
        """True from a failed write until the table is reloaded from the database."""
        self.failing = False
        """True from a failed write until a write of the table works again (an episode)."""
        self.backoff = 0.0
        """The current wait between write attempts (doubles per failure, capped)."""
        self.retry_at = 0.0
        """When (monotonic) the table may try to write again."""
        self.last_write: Future[None] | None = None
        """The write of the last change made through a method (the REST API awaits it)."""
        self.used = time.monotonic()
        """When something last happened at the table (a move, a connection, a change)."""
        self._recovery: asyncio.Task[None] | None = None
        self._buckets: dict[int, TokenBucket] = {}

    @classmethod
    def from_rows(cls, hub: Hub, rows: RoomRows) -> Room:
        """A room rebuilt from what the database holds (its game replayed from the record)."""
        room = cls(hub, rows.table, [SeatInfo(int(s["seat"])) for s in rows.seats])
        room.install(rows)
        return room

    def install(self, rows: RoomRows) -> None:
        """Take the table's settings, seats, games and current game from ``rows``."""
        row = rows.table
        self.name, self.bot_delay = row["name"], row["bot_delay"]
        self.takeover_timeout, self.status = row["takeover_timeout"], row["status"]
        self.turn_timer, self.public = row.get("turn_timer"), bool(row.get("public", False))
        self.breather_seconds = float(row.get("breather") or 0.0)
        self.hints_setting = row.get("hints")
        self.chat = list(rows.chat)
        for info, s in zip(self.seats, rows.seats, strict=True):
            info.name, info.token_hash, info.bot = s["name"], s["token_hash"], s["bot"]
        self.games = list(rows.games)
        self.run = self._rebuild(rows.game) if rows.game is not None else None
        if self.run is not None:
            for info in self.seats:  # a person the host removed: a bot plays on
                if info.bot and info.seat not in self.run.bots:
                    self.run.bots[info.seat] = make_bot(info.bot)
        if self.run is not None and self.run.state.is_terminal():
            self.status = "finished"
        self.used = time.monotonic()

    # ------------------------------------------------------------------ summaries

    def summary(self) -> dict[str, Any]:
        """The public table summary (no tokens, no cards)."""
        run = self.run
        taken = run.taken if run is not None else {}
        return {
            "table_id": self.table_id,
            "name": self.name,
            "variant": self.variant,
            "preset": self.preset,
            "preset_title": get_variant(self.variant).preset_title(self.preset),
            "variant_title": get_variant(self.variant).title,
            "options": self.options,
            "house_rules": self.house_rules,
            "players": self.players,
            "theme": self.theme,
            "bot_delay": self.bot_delay,
            "takeover_timeout": self.takeover_timeout,
            "turn_timer": self.turn_timer,
            "breather": self.breather_seconds,
            "public": self.public,
            "hints": self.hints_on,
            "hints_setting": self.hints_setting,
            "status": self.status,
            "goal": self.goal,
            "game_id": run.game_id if run is not None else None,
            "games": list(self.games),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "bot": s.bot,
                    "bot_label": bot_label(s.bot) if s.bot else None,
                    "connected": s.conns > 0 or s.kind == "bot",
                    "played_by_bot": s.seat in taken,
                }
                for s in self.seats
            ],
        }

    @property
    def hints_on(self) -> bool:
        """Whether people at this table may ask the coach for hints.

        The host's setting; without one, on for a table with a bot and off for people only.
        """
        if self.hints_setting is not None:
            return self.hints_setting
        return any(s.bot for s in self.seats)

    def seat_bucket(self, seat: int | None) -> bool:
        """Spend one message of ``seat``'s budget (all its connections together).

        False means over the limit; a spectator (None) has only its connection's budget.
        """
        if seat is None:
            return True
        bucket = self._buckets.get(seat)
        if bucket is None:
            burst, rate = self.hub.seat_rate
            bucket = self._buckets[seat] = TokenBucket(burst, rate, burst)
        return bucket.take()

    def _broadcast_table(self) -> None:
        self.used = time.monotonic()
        text = _dumps({"type": "table", "table": self.summary()})
        for c in self.conns:
            c.send(text)

    # ------------------------------------------------------------------ lobby

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is this table's host token."""
        return token is not None and secrets.compare_digest(token_hash(token), self.host_hash)

    def require_host(self, token: str | None) -> None:
        """Raise ``not_host`` unless ``token`` is the host token."""
        if not self.is_host(token):
            raise ApiError(403, "not_host", "only the table's host (its host token) may do this")

    # ------------------------------------------------------------------ writes

    def _when_saved(
        self, fut: Future[None], ok: Callable[[], None],
        failed: Callable[[], None] | None = None,
    ) -> None:
        """Call ``ok`` on the event loop once ``fut`` has committed, ``failed`` if it failed.

        A write that failed also starts (or continues) the table's backoff episode; one
        refused because another process holds the table now (:class:`LeaseLost`) drops the
        table here instead, and its clients reconnect to that process.
        """

        def done() -> None:
            e = fut.exception()
            if e is None:
                self._write_ok()
                ok()
            elif isinstance(e, LeaseLost):
                self._moved()
            else:
                self._write_failed()
                if failed is not None:
                    failed()

        on_loop(fut, done)

    def _moved(self) -> None:
        """Another process holds this table now: drop it here (once), nothing acknowledged."""
        if self.hub.rooms.get(self.table_id) is not self or (
                self._recovery is not None and not self._recovery.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop to close sockets on: the next heartbeat drops it
            return
        self._recovery = loop.create_task(self.hub.drop(self.table_id))

    def paused_for(self) -> float:
        """Seconds until this table may write again (0: now)."""
        if self.recovering:
            return max(self.retry_at - time.monotonic(), 0.5)
        return max(self.retry_at - time.monotonic(), 0.0) if self.failing else 0.0

    def writable(self) -> None:
        """Raise ``not_saved`` (503) while the table backs off after failed writes."""
        wait = self.paused_for()
        if wait > 0:
            raise ApiError(503, "not_saved", "this table's changes cannot be saved at the "
                           f"moment; try again in {math.ceil(wait)} s")

    def _write_failed(self) -> None:
        """A write failed: start the episode (log and tell once) or double the wait."""
        if not self.failing:
            self.failing = True
            self.backoff = BACKOFF_FIRST
            log.error("table %s: a change could not be saved; the table waits and tries "
                      "again (%.0f s, doubling up to %.0f s)", self.table_id, self.backoff,
                      BACKOFF_MAX)
            note = {"type": "error", "code": "not_saved", "id": None,
                    "message": "this table's changes cannot be saved at the moment: it "
                               "waits and tries again; nothing unsaved is kept"}
            for c in self.conns:
                c.send_json(note)
        else:
            self.backoff = min(self.backoff * 2, BACKOFF_MAX)
        self.retry_at = time.monotonic() + self.backoff

    def _write_ok(self) -> None:
        """A write committed: the episode (if any) is over."""
        if self.failing:
            self.failing = False
            self.backoff = self.retry_at = 0.0
            log.info("table %s: its changes are saved again", self.table_id)

    async def settled(self, timeout: float = 10.0) -> None:
        """Wait (at most ``timeout``) until a reload after a failed write is done."""
        task = self._recovery
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    def _require_waiting(self) -> None:
        if self.status != "waiting":
            raise ApiError(409, "already_started", "the game at this table has started")

    def _seat_arg(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise ApiError(
                400, "bad_seat", f"seat must be a number from 0 to {self.players - 1}"
            )
        return seat

    def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Seat a person; returns the seat and its new token."""
        self._require_waiting()
        name = checked_text(name, "name")
        if seat is None:
            free = [s.seat for s in self.seats if s.kind == "open"]
            if not free:
                raise ApiError(409, "table_full", "every seat is taken")
            seat = free[0]
        seat = self._seat_arg(seat)
        info = self.seats[seat]
        if info.kind != "open":
            raise ApiError(409, "seat_taken", f"seat {seat} is taken")
        self.writable()
        token = secrets.token_urlsafe(24)
        before = (info.name, info.token_hash, info.since)
        info.name, info.token_hash, info.since = name, token_hash(token), time.monotonic()
        mine = info.token_hash

        def undo() -> None:
            if info.token_hash == mine:  # the seat is open again, as in the database
                info.name, info.token_hash, info.since = before

        fut = self.last_write = self.store.update_seat(
            self.table_id, seat, name=name, token_hash=info.token_hash
        )
        self._when_saved(fut, self._broadcast_table, undo)
        return seat, token

    def set_bot(self, seat: int, spec: str | None) -> None:
        """Put a bot in an open (or bot) seat, or open a bot's seat (``spec=None``)."""
        self._require_waiting()
        seat = self._seat_arg(seat)
        info = self.seats[seat]
        if info.kind == "human":
            raise ApiError(409, "seat_taken", f"seat {seat} has a person")
        if spec is not None:
            spec = check_bot(spec, self.hub.max_bot_seconds)
        elif info.kind != "bot":
            raise ApiError(400, "bad_seat", f"seat {seat} has no bot")
        self.writable()
        before = (info.bot, info.name)
        info.bot = spec
        info.name = bot_name(seat, spec) if spec else None
        after = (info.bot, info.name)

        def undo() -> None:
            if (info.bot, info.name) == after and info.kind != "human":
                info.bot, info.name = before

        fut = self.last_write = self.store.update_seat(
            self.table_id, seat, bot=spec, name=info.name
        )
        self._when_saved(fut, self._broadcast_table, undo)

    def set_settings(self, turn_timer: object = ..., public: object = ...,
                     hints: object = ...) -> None:
        """Change the turn timer (None: off), whether the lobby lists the table, or hints.

        ``hints``: true, false, or None for the default (on when the table has a bot).
        """
        changes: dict[str, Any] = {}
        if hints is not ...:
            if hints is not None and not isinstance(hints, bool):
                raise ApiError(400, "bad_request", "hints is true, false or null")
            changes["hints"] = hints
        if turn_timer is not ...:
            changes["turn_timer"] = check_turn_timer(turn_timer)
        if public is not ...:
            if not isinstance(public, bool):
                raise ApiError(400, "bad_request", "public is true or false")
            changes["public"] = public
        if not changes:
            return
        self.writable()  # everything is checked before anything changes
        before = (self.turn_timer, self.clock, self.public, self.hints_setting)
        if "turn_timer" in changes:
            self.turn_timer = changes["turn_timer"]
            self.clock = None
        if "public" in changes:
            self.public = changes["public"]
        if "hints" in changes:
            self.hints_setting = changes["hints"]
        after = (self.turn_timer, self.public, self.hints_setting)

        def undo() -> None:  # the database kept the old settings: so does memory
            if (self.turn_timer, self.public, self.hints_setting) == after:
                self.turn_timer, self.clock, self.public, self.hints_setting = before

        fut = self.last_write = self.store.update_table(self.table_id, **changes)
        self._when_saved(fut, self._broadcast_table, undo)
        self._wake.set()

    def remove_player(self, seat: object) -> None:
        """Host: a person leaves the table; the table's takeover bot takes the seat.

        Their connections stay as spectators (told with a ``removed`` error).  In a running
        game the bot plays on in the same seat; the record is unchanged.
        """
        seat = self._seat_arg(seat)
        info = self.seats[seat]
        if info.kind != "human":
            raise ApiError(409, "not_a_person", f"seat {seat} has no person to remove")
        self.writable()
        spec = self.takeover_bot
        before = (info.token_hash, info.bot, info.name)
        info.token_hash = None
        info.bot = spec
        info.name = bot_name(seat, spec)
        after = (info.bot, info.name)
        fut = self.last_write = self.store.update_seat(
            self.table_id, seat, token_hash=None, bot=spec, name=info.name, connected=False
        )

        def undo() -> None:  # not stored: the person keeps the seat and the token
            if (info.bot, info.name) == after and info.token_hash is None:
                info.token_hash, info.bot, info.name = before

        def ok() -> None:  # stored: the bot takes over and the person watches
            run = self.run
            if run is not None:
                run.taken.pop(seat, None)
                run.bots[seat] = make_bot(spec)
                if thinks(spec):
                    run.slow.add(seat)
            if self.clock is not None and self.clock[0] == seat:
                self.clock = None
            for c in list(self.conns):
                if c.seat == seat:
                    c.send_json(ProtocolError(
                        "removed", "the host gave your seat to a bot: you are watching now"
                    ).to_json())
                    self.detach(c)
                    self.hello(c, None)
            info.conns = 0
            if self.breather is not None:
                self._check_ready()
            self._broadcast_table()
            self._wake.set()

        self._when_saved(fut, ok, undo)

    def set_bot_delay(self, delay: float) -> None:
        """Change how long bots wait before they move (at any time)."""
        self.writable()
        before = self.bot_delay
        self.bot_delay = delay

        def undo() -> None:
            if self.bot_delay == delay:
                self.bot_delay = before

        fut = self.last_write = self.store.update_table(self.table_id, bot_delay=delay)
        self._when_saved(fut, self._broadcast_table, undo)
        self._wake.set()

    def start(self) -> None:
        """Start the first game (every seat must have a person or a bot)."""
        self._require_waiting()
        open_seats = [s.seat for s in self.seats if s.kind == "open"]
        if open_seats:
            raise ApiError(
                409, "seats_open",
                f"seats {', '.join(map(str, open_seats))} need a person or a bot",
            )
        self._new_game()

    def rematch(self) -> None:
        """A new game at this table once the last one is over."""
        if self.run is None or not self.run.state.is_terminal():
            raise ProtocolError("not_over", "a rematch needs the game to be over")
        self._new_game()

    # ------------------------------------------------------------------ games

    def _new_game(self) -> None:
        wait = self.paused_for()
        if wait > 0:
            raise ProtocolError("not_saved", "this table's changes cannot be saved at the "
                                f"moment; try again in {math.ceil(wait)} s")
        seed = secrets.randbits(62)
        # a later game is dealt as the variant's rules say (Throwdown: the last winner)
        last = self.run
        dealer = last.state.next_game_dealer() if last is not None else None
        state = hotdeath.new_game(self.variant, self.players, seed, self.preset, self.options,
                                  dealer)
        deck = opening_deck(state, dealer)
        install(state)
        deals = {1: commit_deck(1, deck)} if deck is not None else {}
        names = [s.name or f"P{s.seat}" for s in self.seats]
        bot_specs = {s.seat: s.bot for s in self.seats if s.bot}
        game_id = secrets.token_urlsafe(9)
        run = GameRun(
            game_id=game_id, state=state, seed=seed, seed_salt=new_salt(),
            preset=self.preset, names=names,
            bots={s: make_bot(spec) for s, spec in bot_specs.items()},
            deals=deals,
            slow={s for s, spec in bot_specs.items() if thinks(spec)},
        )
        saving = self.store.start_game(
            {"id": game_id, "table_id": self.table_id, "variant": self.variant,
             "preset": self.preset, "options": self.options, "players": self.players,
             "seed": seed, "seed_salt": run.seed_salt, "names": names,
             "bots": {str(k): v for k, v in bot_specs.items()}, "dealer": dealer},
            deals.values(),
        )
        run.events_now = list(state.opening_events)
        run.log = [(0, e) for e in state.opening_events]
        self.run = run
        self.games.append(game_id)
        self.status = "playing"
        self.used = time.monotonic()
        self.last_write = saving
        self._after_save(saving, run, 0, [*self._table_texts(), *self._state_texts()])
        self.start_driver()

    def _rebuild(self, rows: GameRows) -> GameRun:
        """A game rebuilt from its record in the database (replaying every action)."""
        row, actions, deals = rows
        seed = int(row["seed"])
        state = hotdeath.new_game(row["variant"], row["players"], seed, row["preset"],
                                  row["options"], row.get("dealer"))
        install(state)
        run = GameRun(
            game_id=row["id"], state=state, seed=seed, seed_salt=row["seed_salt"],
            preset=row["preset"], names=list(row["names"]),
            bots={int(s): make_bot(spec) for s, spec in dict(row["bots"]).items()},
            deals=dict(deals),
            slow={int(s) for s, spec in dict(row["bots"]).items() if thinks(spec)},
            hints=[[int(h[0]), int(h[1])] for h in row.get("hints") or []],
        )
        run.events_now = list(state.opening_events)
        run.log = [(0, e) for e in state.opening_events]
        for seat, text in actions:
            events = state.apply_action(Action.parse(text), seat)
            run.version += 1
            self._process(run, events, create=False)
            run.events_now = events
            run.last_action = (seat, text)
            run.log.extend((run.version, e) for e in events)
        run.saved = run.version
        return run

    def _process(self, run: GameRun, events: list[Event], create: bool) -> list[DealRow]:
        """Deal commitments and reveals after ``events``; returns the new commitments."""
        state = run.state
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
            run.deals[state.hand_no] = row
            new.append(row)
        current_over = state.is_terminal() or last_end > last_deal
        run.reveals_now = []
        for h in sorted(run.deals):
            if h in run.revealed:
                continue
            if h < state.hand_no or (h == state.hand_no and current_over):
                run.revealed.add(h)
                run.reveals_now.append(reveal_json(run.deals[h]))
        return new

    def apply(self, seat: int, action: Action, auto: bool = False) -> None:
        """Apply, record, then tell everyone; raises the engine's error if illegal.

        ``auto``: the turn timer's move for a person whose time ran out (recorded as the
        seat's action like any other).
        """
        run = self.run
        if run is None:
            raise ProtocolError("not_started", "no game is running at this table")
        wait = self.paused_for()
        if wait > 0:
            raise ProtocolError(
                "not_saved", "a move could not be saved: the table waits and tries again "
                f"in {math.ceil(wait)} s"
            )
        state = run.state
        events = state.apply_action(action, seat)
        text = str(state.history[-1][1])
        new = self._process(run, events, create=True)
        result = (list(state.scores), list(state.winners)) if state.is_terminal() else None
        saving = self.store.record_action(
            self.table_id, run.game_id, run.version + 1, seat, text, new, result
        )
        run.version += 1
        run.events_now = events
        run.last_action = (seat, text)
        run.log.extend((run.version, e) for e in events)
        run.auto_now = auto
        self.used = time.monotonic()
        started = self._after_move(run, seat, events)
        out = self._state_texts()
        if result is not None:
            self.status = "finished"
            out = [*self._table_texts(), *out]
        self.last_write = saving
        if started:
            text = _dumps(self.breather_json())
            out += [(c, text) for c in self.conns if c.greeted]
        self._after_save(saving, run, run.version, out)
        self._wake.set()

    # ------------------------------------------------------------------ breather, clock

    def _after_move(self, run: GameRun, seat: int, events: list[Event]) -> bool:
        """Start the breather after a hand that ended (not the game); move the clock on.

        Returns whether a breather started.
        """
        state = run.state
        if self.clock is not None and (
            self.clock[0] == seat or self.clock[0] != state.current_player()
        ):
            self.clock = None
        if state.is_terminal() or not any(e.kind == "hand_end" for e in events):
            return False
        if self.breather_seconds <= 0:
            return False
        if not self._waiting_for():
            return False
        self.breather = {
            "until": time.monotonic() + self.breather_seconds,
            "hand": sum(1 for _, e in run.log if e.kind == "hand_end"),
            "ready": set(),
        }
        self.clock = None
        return True

    def _waiting_for(self) -> list[int]:
        """The people a breather waits for: connected, seated, not played by a bot."""
        taken = self.run.taken if self.run is not None else {}
        return [s.seat for s in self.seats
                if s.kind == "human" and s.conns > 0 and s.seat not in taken]

    def breather_json(self) -> dict[str, Any]:
        """The ``breather`` message: who is ready, who is waited for, seconds left."""
        b = self.breather
        if b is None:
            return {"type": "breather", "over": True}
        waiting = self._waiting_for()
        return {"type": "breather", "over": False, "hand": b["hand"],
                "seconds": max(0.0, round(b["until"] - time.monotonic(), 1)),
                "ready": sorted(b["ready"]),
                "waiting": [s for s in waiting if s not in b["ready"]]}

    def _send_breather(self) -> None:
        text = _dumps(self.breather_json())
        for c in self.conns:
            if c.greeted:
                c.send(text)

    def ready(self, conn: Conn) -> None:
        """A person pressed "Next hand"."""
        if self.breather is None or conn.seat is None:
            return
        self.breather["ready"].add(conn.seat)
        self._check_ready()

    def _check_ready(self) -> None:
        b = self.breather
        if b is None:
            return
        if time.monotonic() >= b["until"] or all(
            s in b["ready"] for s in self._waiting_for()
        ):
            self.breather = None
            self.clock = None
            self._wake.set()
        self._send_breather()

    def _breather_wait(self) -> float | None:
        """Seconds until the breather ends by itself (None: no breather)."""
        if self.breather is None:
            return None
        left: float = self.breather["until"] - time.monotonic()
        if left <= 0:
            self._check_ready()
            return None
        return left

    def _clock_seat(self, run: GameRun) -> int | None:
        """The person whose turn the timer counts (None: nobody is on the clock)."""
        if self.turn_timer is None or self.breather is not None or run.state.is_terminal():
            return None
        seat = run.state.current_player()
        if not 0 <= seat < self.players:
            return None
        info = self.seats[seat]
        if info.kind != "human" or seat in run.taken or seat in run.bots:
            return None
        if not run.state.legal_actions(seat):
            return None
        if self.clock is None or self.clock[0] != seat:
            self.clock = (seat, time.monotonic())
        return seat

    def clock_json(self) -> dict[str, Any] | None:
        """The turn timer now: ``{seat, seconds, left}`` (None: no clock running)."""
        run = self.run
        if run is None or self._clock_seat(run) is None or self.clock is None:
            return None
        assert self.turn_timer is not None
        seat, started = self.clock
        left = max(0.0, self.turn_timer - (time.monotonic() - started))
        return {"seat": seat, "seconds": self.turn_timer, "left": round(left, 2)}

    def _timed_out(self, run: GameRun) -> tuple[int, float | None]:
        """The seat whose time ran out (-1: none) and the seconds until the next runs out."""
        seat = self._clock_seat(run)
        if seat is None or self.clock is None or self.turn_timer is None:
            return -1, None
        left = self.turn_timer - (time.monotonic() - self.clock[1])
        return (seat, None) if left <= 0 else (-1, left)

    def timer_move(self, run: GameRun, seat: int) -> Action:
        """The move made for ``seat`` when its time ran out: the takeover bot's choice.

        The bot sees only the seat's view, with the generators of the version
        (:func:`decision_rngs`), so the move follows from the record (:func:`timer_choice`).
        """
        return timer_choice(run.state, seat, self.takeover_bot,
                            decision_rngs(run.seed, run.version, self.players), self.table_id)

    # ------------------------------------------------------------------ chat

    def chat_line(self, conn: Conn, kind: str, text: str) -> None:
        """Store and send one chat line (or reaction) of a connection (never of a bot)."""
        if conn.seat is not None:
            name = self.seats[conn.seat].name or f"Seat {conn.seat + 1}"
        else:
            name = f"Watcher {conn.watcher}"
        idx = (self.chat[-1]["idx"] + 1) if self.chat else 1
        line = {"idx": idx, "seat": conn.seat, "name": name, "kind": kind, "text": text}
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]
        self.used = time.monotonic()
        saving = self.store.add_chat(self.table_id, line)
        message = _dumps({"type": "chat", "line": line})

        def sent() -> None:
            if saving.exception() is not None:  # not stored: nobody sees it
                with contextlib.suppress(ValueError):
                    self.chat.remove(line)
                return
            for c in list(self.conns):
                if c.greeted:
                    c.send(message)

        on_loop(saving, sent)

    # ------------------------------------------------------------------ saving

    def _table_texts(self) -> list[tuple[Conn, str]]:
        text = _dumps({"type": "table", "table": self.summary()})
        return [(c, text) for c in self.conns]

    def _state_texts(self) -> list[tuple[Conn, str]]:
        return [(c, self.state_text(c.seat)) for c in self.conns if c.greeted]

    def _after_save(
        self, saving: Future[None], run: GameRun, version: int, out: list[tuple[Conn, str]]
    ) -> None:
        """Send ``out`` once ``saving`` has committed; if it failed, reload the table.

        The store's thread finishes writes in the order they were queued, so messages go
        out in the order of the versions.
        """

        def sent() -> None:
            run.saved = max(run.saved, version)
            for conn, text in out:
                conn.send(text)

        self._when_saved(saving, sent, lambda: self._lost(run))

    def _lost(self, run: GameRun) -> None:
        """A write of ``run`` failed: reload the table from the database (once)."""
        if self.run is not run or self.recovering:
            return
        self.recovering = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            rows = self.store.load_room(self.table_id).result()
            self._recovered(rows)
            return
        self._recovery = loop.create_task(self._recover())

    async def _recover(self) -> None:
        """Reload what the database holds: at once, then after each wait of the backoff.

        With leases, first make sure this process still holds the table: a write that
        failed may be the sign that another process took it over (both wrote the same
        action's key); then the table is dropped here, not reloaded.
        """
        await self.stop_driver()
        if self.hub.leases is not None and not await self.hub.still_held(self.table_id):
            self.recovering = False
            return
        while True:
            try:
                rows = await asyncio.wrap_future(self.store.load_room(self.table_id))
                break
            except Exception:  # the database still fails: logged once by the store
                self._write_failed()
                await asyncio.sleep(max(0.0, self.retry_at - time.monotonic()))
        self._recovered(rows)
        if self.run is not None and not self.run.state.is_terminal():
            self.start_driver()

    def _recovered(self, rows: RoomRows | None) -> None:
        """Install what the database holds and tell every connection."""
        self.recovering = False
        if rows is None:  # the table itself was never saved
            self.hub.rooms.pop(self.table_id, None)
            for c in list(self.conns):
                c.send_json({"type": "error", "code": "not_saved", "id": None,
                             "message": "this table could not be saved"})
                c.close()
            return
        self.install(rows)
        self._broadcast_table()  # the episode's note went out with its first failure
        for c in self.conns:
            if c.greeted and self.run is not None:
                c.send_json(self.state_message(c.seat, with_log=True))

    # ------------------------------------------------------------------ messages

    def state_message(self, seat: int | None, with_log: bool = False) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: spectator) at the current version."""
        run = self.run
        assert run is not None
        state = run.state
        v = run.version
        names, theme = run.names, self.theme
        last = None
        if run.last_action is not None:
            s, text = run.last_action
            words = action_words(Action.parse(text), theme, names)
            last = {"seat": s, "action": text, "text": f"{names[s]}: {words}"}
        current = run.deals.get(state.hand_no)
        msg: dict[str, Any] = {
            "type": "state",
            "game_id": run.game_id,
            "version": v,
            "view": state.view(seat).to_json(),
            "actions": actions_json(state, seat, names, theme),
            "names": names,
            "theme": theme,
            "last_action": last,
            "results": results_json(state, names, theme),
            "events": [event_json(e, seat, v, names, theme) for e in run.events_now],
            "commitment": (
                {"hand_no": current.hand_no, "digest": current.digest}
                if current is not None and current.hand_no not in run.revealed else None
            ),
            "reveals": run.reveals_now,
            "seed_commitment": seed_digest(run.seed_salt, run.seed),
            "seed_reveal": (
                {"seed": run.seed, "salt": run.seed_salt} if state.is_terminal() else None
            ),
            "clock": self.clock_json(),
            "auto": run.auto_now,
            "hints_used": (
                hints_used(run.hints, state.n) if state.is_terminal()
                else hints_used([h for h in run.hints if h[0] == seat], state.n)
            ),
            "hints_line": hints_line(run.hints, state.n, names) if state.is_terminal() else "",
        }
        if with_log:
            msg["log"] = [
                event_json(e, seat, ver, names, theme) for ver, e in run.log[-LOG_TAIL:]
            ]
        return msg

    def state_text(self, seat: int | None) -> str:
        """The serialised ``state`` message for ``seat``, cached per version."""
        run = self.run
        assert run is not None
        if run.cache_version != run.version:
            run.cache.clear()
            run.cache_version = run.version
        text = run.cache.get(seat)
        if text is None:
            text = run.cache[seat] = _dumps(self.state_message(seat))
        return text

    # ------------------------------------------------------------------ connections

    def handle(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Handle one checked client message; raises :class:`ProtocolError` if refused."""
        kind = msg["type"]
        if kind == "hello":
            self.hello(conn, msg.get("token"))
        elif kind == "ping":
            conn.send_json({"type": "pong", "id": msg.get("id")})
        elif not conn.greeted:
            raise ProtocolError("hello_required", "send a hello first", msg.get("id"))
        elif kind == "action":
            self.act(conn, msg)
        elif kind == "rematch":
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators cannot ask for a rematch")
            self.rematch()
        elif kind == "chat":
            text = chat_text(msg.get("text"))  # a refused line costs no chat token
            if not conn.chat_bucket.take():
                raise ProtocolError("chat_limited", "too many chat lines: wait a moment")
            self.chat_line(conn, "text", text)
        elif kind == "react":
            words = REACTIONS.get(str(msg.get("reaction")))
            if words is None:
                raise ProtocolError(
                    "bad_chat", f"reactions: {', '.join(REACTIONS)}", msg.get("id")
                )
            if not conn.chat_bucket.take():
                raise ProtocolError("chat_limited", "too many chat lines: wait a moment")
            self.chat_line(conn, "reaction", words)
        elif kind == "ready":
            self.ready(conn)
        elif kind == "hint":
            self.ask_hint(conn, msg)

    # ------------------------------------------------------------------ the coach

    def ask_hint(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A person asks the coach for a hint: computed off the event loop, then sent.

        The coach is given the seat's view only (computed here, on the loop); the search
        runs in the hub's coach thread for :attr:`Hub.hint_seconds`.  The answer is a
        ``hint`` message to the asking connection, and the hint is recorded with the game.
        """
        msg_id = msg.get("id")
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", "spectators get no hints", msg_id)
        if not self.hints_on:
            raise ProtocolError("hints_off", "hints from the coach are off at this table",
                                msg_id)
        run = self.run
        if run is None or run.state.is_terminal():
            raise ProtocolError("not_started", "no game is running at this table", msg_id)
        if run.state.current_player() != seat or not run.state.legal_actions(seat):
            raise ProtocolError("not_your_turn", "a hint is for your own turn", msg_id)
        if seat in run.hinting:
            raise ProtocolError("hint_busy", "the coach is still thinking about your hint",
                                msg_id)
        view = run.state.view(seat)
        version = run.version
        run.hinting.add(seat)
        fut = self.hub.coach.submit(
            hint, view, self.hub.hint_seconds, 0, None, list(run.names), self.theme
        )

        def answered() -> None:
            run.hinting.discard(seat)
            if fut.cancelled():  # the server is closing
                return
            try:
                given = fut.result()
            except CoachError as e:
                conn.send_json(ProtocolError(e.code, e.message, msg_id).to_json())
                return
            except Exception:  # a defect of the coach: the table plays on
                log.exception("a hint failed at table %s", self.table_id)
                conn.send_json(ProtocolError("server_error", "the coach could not answer",
                                             msg_id).to_json())
                return
            index = len(run.state.history) + 1 if run.version == version else -1
            if index > 0 and [seat, index] not in run.hints:
                run.hints.append([seat, index])
                self.store.record_hints(self.table_id, run.game_id, list(run.hints))
            conn.send_json({
                "type": "hint", "id": msg_id, "version": version,
                "fresh": run.version == version and self.run is run,
                "hint": given.to_json(), "lines": given.lines(),
                "used": sum(1 for h in run.hints if h[0] == seat),
            })

        on_loop(fut, answered)

    def hello(self, conn: Conn, token: str | None) -> None:
        """Attach ``conn`` to a seat (or as a spectator); send welcome and the state."""
        seat: int | None = None
        if token is not None:
            h = token_hash(token)
            found = [s.seat for s in self.seats if s.token_hash == h]
            if not found:
                raise ProtocolError("bad_token", "this token is not a seat's at this table")
            seat = found[0]
        self.detach(conn)
        conn.seat = seat
        conn.greeted = True
        if seat is None and not conn.watcher:
            self.watchers += 1
            conn.watcher = self.watchers
        self.conns.add(conn)
        self.used = time.monotonic()
        first = False
        if seat is not None:
            info = self.seats[seat]
            info.conns += 1
            first = info.conns == 1
        conn.send_json({
            "type": "welcome", "seat": seat,
            "name": self.seats[seat].name if seat is not None else None,
            "table": self.summary(),
            "chat": self.chat, "reactions": dict(REACTIONS),
            "watcher": conn.watcher if seat is None else None,
        })
        if self.run is not None:
            conn.send_json(self.state_message(seat, with_log=True))
        if self.breather is not None:
            conn.send_json(self.breather_json())
        if first and seat is not None:
            self._connected(self.seats[seat], True)

    def detach(self, conn: Conn) -> None:
        """Forget ``conn`` (it closed, or said hello again)."""
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if conn.seat is not None:
            info = self.seats[conn.seat]
            info.conns -= 1
            if info.conns == 0:
                info.since = time.monotonic()
                self._connected(info, False)

    def _connected(self, info: SeatInfo, on: bool) -> None:
        self.used = time.monotonic()
        self.store.update_seat(self.table_id, info.seat, connected=on)
        if on and self.run is not None:
            self.run.taken.pop(info.seat, None)
        self._broadcast_table()
        self._wake.set()

    def act(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A person's action message: every check, then :meth:`apply`."""
        msg_id: str = msg["id"]
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot act", msg_id)
        if msg.get("seat") is not None and msg["seat"] != seat:
            raise ProtocolError(
                "not_your_seat", f"you hold seat {seat}, not seat {msg['seat']}", msg_id
            )
        run = self.run
        if run is None:
            raise ProtocolError("not_started", "no game is running at this table", msg_id)
        if run.state.is_terminal():
            raise ProtocolError("game_over", "the game is over", msg_id)
        if self.breather is not None:
            raise ProtocolError(
                "breather", "the next hand starts when everyone has pressed Next hand", msg_id
            )
        if run.id_seen(seat, msg_id):
            raise ProtocolError("replayed", f"message id {msg_id!r} was already used", msg_id)
        if msg["version"] != run.version:
            err = ProtocolError(
                "stale",
                f"version {msg['version']} is not the current version {run.version}",
                msg_id,
            )
            conn.send_json(err.to_json())
            # behind: every newer state is on its way to this connection already; ahead (a
            # confused client): the current one, unless its write is pending (it follows)
            if msg["version"] > run.version and run.saved == run.version:
                conn.send(self.state_text(seat))
            return
        try:
            action = Action.parse(msg["action"])
            self.apply(seat, action)
        except HotDeathError as e:
            raise ProtocolError(e.code, e.message, msg_id) from None
        run.remember(seat, msg_id)

    # ------------------------------------------------------------------ bots

    def _bot_seats(self, run: GameRun) -> dict[int, Bot]:
        """Bots of the table plus takeover bots for people gone longer than the timeout."""
        timeout = self.takeover_timeout
        if timeout is None:
            return run.bots
        now = time.monotonic()
        out = dict(run.bots)
        changed = False
        for info in self.seats:
            if info.kind != "human" or info.conns > 0:
                continue
            if now - info.since >= timeout:
                bot = run.taken.get(info.seat)
                if bot is None:
                    bot = run.taken[info.seat] = make_bot(self.takeover_bot)
                    changed = True
                out[info.seat] = bot
        if changed:
            self._broadcast_table()
        return out

    def _next_takeover(self) -> float | None:
        timeout = self.takeover_timeout
        run = self.run
        if timeout is None or run is None:
            return None
        now = time.monotonic()
        waits = [
            info.since + timeout - now
            for info in self.seats
            if info.kind == "human" and info.conns == 0 and info.seat not in run.taken
        ]
        return max(0.01, min(waits)) if waits else None

    def _thinking(self, run: GameRun, bots: Mapping[int, Bot]) -> bool:
        """Whether a bot that thinks may be asked now (then every bot is asked off-loop)."""
        if any(seat in run.slow for seat in bots if seat in run.bots):
            return True
        return self.takeover_thinks and any(seat in run.taken for seat in bots)

    async def _think(
        self, run: GameRun, bots: dict[int, Bot]
    ) -> tuple[bool, tuple[int, Action] | None]:
        """The next bot move computed in the hub's worker threads on a clone of the state.

        Returns ``(fresh, move)``.  The bots' generators are those of the version
        (:func:`decision_rngs`); an answer computed for an older version is dropped
        (``fresh`` false, counted in :attr:`stale_answers`).
        """
        version = run.version
        snapshot = run.state.clone()
        rngs = decision_rngs(run.seed, version, self.players)
        loop = asyncio.get_running_loop()
        move = await loop.run_in_executor(
            self.hub.thinkers, next_bot_move, snapshot, bots, rngs
        )
        if self.run is not run or run.version != version:
            self.stale_answers += 1
            return False, None
        return True, move

    def start_driver(self) -> None:
        """Start (or restart) the background task that moves the bots."""
        if self._driver is not None and not self._driver.done():
            self._wake.set()
            return
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def stop_driver(self) -> None:
        """Cancel the bot task."""
        task = self._driver
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _drive(self) -> None:
        while True:
            run = self.run
            if run is None or run.state.is_terminal():
                return
            self._wake.clear()
            pause = self._breather_wait()
            if pause is not None:  # between hands: nobody moves, bots included
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), pause)
                continue
            late, clock_left = self._timed_out(run)
            if late >= 0:  # the turn timer ran out: a move is made for the person
                if self.takeover_thinks:  # a bot that searches: off the event loop
                    version = run.version
                    timed = await asyncio.get_running_loop().run_in_executor(
                        self.hub.thinkers, timer_choice, run.state.clone(), late,
                        self.takeover_bot, decision_rngs(run.seed, version, self.players),
                        self.table_id)
                    if (self.run is not run or run.version != version
                            or self._timed_out(run)[0] != late):
                        # meanwhile the person moved, the table was reloaded, or the
                        # clock stopped counting for the seat (timer off or longer, the
                        # seat given to a bot, the person taken over): no timer move
                        self.stale_answers += 1
                        continue
                else:
                    timed = self.timer_move(run, late)
                try:
                    self.apply(late, timed, auto=True)
                except ProtocolError:  # the table is being reloaded: try again later
                    await asyncio.sleep(max(self.paused_for(), 0.05))
                except HotDeathError:
                    log.exception("the timer's move failed at table %s", self.table_id)
                    return
                continue
            bots = self._bot_seats(run)
            version = run.version
            started = time.monotonic()
            move: tuple[int, Action] | None
            if not bots:
                move = None
            elif self._thinking(run, bots):
                fresh, move = await self._think(run, bots)
                if not fresh:
                    continue
            else:
                move = next_bot_move(
                    run.state, bots, decision_rngs(run.seed, run.version, self.players)
                )
            if move is None:
                waits = [w for w in (self._next_takeover(), clock_left) if w is not None]
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), min(waits) if waits else None)
                continue
            # the thinking time counts toward the table's delay
            await asyncio.sleep(max(0.0, self.bot_delay - (time.monotonic() - started)))
            if self.paused_for() > 0:  # writes fail: wait out the backoff, not a busy loop
                await asyncio.sleep(self.paused_for())
                continue
            if self.run is not run or run.version != version:
                continue
            seat, action = move
            try:
                self.apply(seat, action)
            except ProtocolError:  # the table is being reloaded: try again later
                await asyncio.sleep(max(self.paused_for(), 0.05))
            except HotDeathError:  # a bot chose an illegal move: a bug; people play on
                log.exception("a bot move failed at table %s", self.table_id)
                return


def bot_name(seat: int, spec: str) -> str:
    """The display name of a bot seat: ``Ada — strong bot``."""
    return f"{BOT_NAMES[seat % len(BOT_NAMES)]} — {bot_label(spec)}"


def check_turn_timer(value: object) -> float | None:
    """A valid turn timer (seconds, :data:`TURN_TIMER_RANGE`) or None, else ``bad_timer``."""
    if value is None:
        return None
    lo, hi = TURN_TIMER_RANGE
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise ApiError(400, "bad_timer", f"the turn timer is off (null) or {lo:g} to {hi:g} s")
    return float(value)


def server_bot(info: BotInfo) -> bool:
    """Whether the server offers this bot.

    Bots whose parameters are all whole numbers or fixed choices run inside the server
    and see only their view.  A bot with a thinking-time ``budget`` (``ismcts``) is
    offered too, but a spec may set only that budget, up to the server's cap (its other
    parameters may name bots to run, ``rollout=external:…``).  A free-text parameter can
    name a program to run (``external:COMMAND``): such bots are never offered.
    """
    return info.budget is not None or all(p.kind is int or p.choices for p in info.params)


def timer_choice(state: GameState, seat: int, spec: str, rngs: list[random.Random],
                 table_id: str) -> Action:
    """The move of bot ``spec`` for ``seat`` whose turn timer ran out, from its view only.

    ``rngs`` are the bots' generators of the version (:func:`decision_rngs`), so the move
    follows from the record.  Pure of the room, so the hub's worker threads may run it on a
    clone of the state (for a bot that searches).  If the bot fails, the variant's safe
    default: accept, draw, pass or decline, else the first legal action.
    """
    legal = state.legal_actions(seat)
    try:
        move = next_bot_move(state, {seat: make_bot(spec)}, rngs)
        if move is not None and move[0] == seat:
            return move[1]
    except Exception:  # a bot failure must not stall the table
        log.exception("the timer bot failed at table %s", table_id)
    for kind in SAFE_DEFAULTS:
        for action in legal:
            if str(action).split()[0] == kind:
                return action
    return legal[0]


def thinks(spec: str) -> bool:
    """Whether the bot of ``spec`` has a thinking time (is asked off the event loop)."""
    return parse_spec(spec)[0].budget is not None


def bot_levels(info: BotInfo, max_seconds: float = MAX_BOT_SECONDS) -> list[dict[str, Any]]:
    """The specs the lobby offers for a bot: one per level, with a label and the default.

    A bot with a budget gets one level per thinking time of :data:`LEVEL_SECONDS` up to
    ``max_seconds``; one with a fixed-choice parameter one level per choice.

    >>> from hotdeath.bots import parse_spec
    >>> [lv["spec"] for lv in bot_levels(parse_spec("ismcts")[0], 0.5)]
    ['ismcts:seconds=0.2', 'ismcts:seconds=0.5']
    """
    if info.budget is not None:
        times = [s for s in LEVEL_SECONDS if s <= max_seconds] or [max_seconds]
        return [
            {"spec": f"{info.name}:{info.budget}={s:g}", "label": f"{s:g} s a move",
             "default": i == len(times) // 2}
            for i, s in enumerate(times)
        ]
    level = next((p for p in info.params if p.choices), None)
    if level is None:
        return [{"spec": info.name, "label": None, "default": True}]
    return [
        {"spec": f"{info.name}:{level.name}={c}", "label": c, "default": c == level.default}
        for c in level.choices
    ]


def check_bot(spec: object, max_seconds: float = MAX_BOT_SECONDS) -> str:
    """A valid bot spec the server offers (``bad_bot`` otherwise).

    A thinking bot's spec may set only its time budget, at most ``max_seconds``.
    """
    if not isinstance(spec, str) or not 0 < len(spec) <= 200:
        raise ApiError(400, "bad_bot", "a bot is a spec such as 'basic' or 'random'")
    try:
        info, values = parse_spec(spec)
    except ValueError as e:
        raise ApiError(400, "bad_bot", str(e)) from None
    if not server_bot(info):
        raise ApiError(400, "bad_bot", f"the server does not run bot {info.name!r} "
                       "(it runs an outside program)")
    if info.budget is not None:
        changed = [p.name for p in info.params
                   if p.name != info.budget and values[p.name] != p.default]
        if changed:
            raise ApiError(400, "bad_bot", f"at the server, bot {info.name!r} takes only "
                           f"{info.budget}= (not {', '.join(changed)})")
        seconds = float(values[info.budget])
        if not 0 < seconds <= max_seconds:
            raise ApiError(400, "bad_bot", f"{info.budget} must be more than 0 and at most "
                           f"{max_seconds:g} at this server (got {seconds:g})")
    return spec.strip()


class Hub:
    """Every room in memory: loaded from the store on demand, unloaded when idle.

    A table nobody is connected to is unloaded ``idle_unload`` seconds after the last thing
    that happened at it (``finished_unload`` once its game is over; None: never); any
    request for it (a page, a connection, a replay) loads it back from the database.
    """

    def __init__(
        self, store: Store, bot_delay: float = 0.6, max_bot_seconds: float = MAX_BOT_SECONDS,
        idle_unload: float | None = IDLE_UNLOAD, finished_unload: float | None = FINISHED_UNLOAD,
        seat_rate: tuple[float, float] = (RATE_BURST, RATE_PER_SECOND),
        leases: Leases | None = None,
    ) -> None:
        self.store = store
        self.leases = leases
        """Shared with other processes (PostgreSQL): the tables' leases; None: alone."""
        self.held: set[str] = set()
        """The tables whose lease this process holds (with :attr:`leases`)."""
        self._keeper: asyncio.Task[None] | None = None
        self.seat_rate = seat_rate
        """Each seat's token bucket (burst, per second), shared by its connections."""
        self.bot_delay = bot_delay
        self.max_bot_seconds = max_bot_seconds
        """The cap on a thinking bot's time per decision (seconds)."""
        self.thinkers = ThreadPoolExecutor(THINKERS, thread_name_prefix="hotdeath-bot")
        self.coach = ThreadPoolExecutor(1, thread_name_prefix="hotdeath-coach")
        """Where hints are computed, one at a time for every table."""
        self._review_pool: ProcessPoolExecutor | None = None
        """The review worker process (started on the first review; see :meth:`reviewer`)."""
        self.hint_seconds = min(HINT_SECONDS, max_bot_seconds)
        """The coach's thinking time per hint (the bots' cap, at most a second)."""
        self.review_seconds = min(REVIEW_SECONDS, max_bot_seconds)
        """The coach's thinking time per decision of a review."""
        self.review_budget = REVIEW_BUDGET
        """The most seconds one review takes."""
        self.reviews: OrderedDict[tuple[str, str], Future[dict[str, Any]]] = OrderedDict()
        """Reviews computed or being computed, by game and ``"hand:seat"`` (newest last)."""
        """Where thinking bots are asked (tables wait their turn when all are busy)."""
        self.rooms: dict[str, Room] = {}
        self.idle_unload = idle_unload
        self.finished_unload = finished_unload
        self.unloaded = 0
        """How many times a table was unloaded."""
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self.create_backoff = 0.0
        """The wait after a table could not be created (doubles per failure, capped)."""
        self.create_retry_at = 0.0
        """When (monotonic) a new table may be created again."""

    def create_table(
        self,
        variant: str,
        preset: str | None,
        options: Mapping[str, object],
        seats: int,
        bots: Mapping[int, str],
        theme: str,
        bot_delay: float | None,
        takeover_timeout: float | None,
        takeover_bot: str | None,
        name: str | None,
        turn_timer: float | None = None,
        public: bool = False,
        breather: float = 0.0,
        hints: bool | None = None,
    ) -> tuple[Room, str]:
        """Validate and create a table; returns the room and the host token."""
        try:
            v = get_variant(variant)
            preset = preset or v.default_preset
            opts = v.resolve_options(preset, options)
            options = changed_options(v.name, preset, options)
            v.check_players(seats, opts)
        except HotDeathError as e:
            raise ApiError(400, e.code, e.message) from None
        if theme not in THEMES:
            raise ApiError(400, "bad_theme", f"theme must be one of {', '.join(THEMES)}")
        specs = {}
        for seat, spec in bots.items():
            if not 0 <= seat < seats:
                raise ApiError(400, "bad_seat", f"seat must be a number from 0 to {seats - 1}")
            specs[seat] = check_bot(spec, self.max_bot_seconds)
        host = secrets.token_urlsafe(24)
        table_id = secrets.token_urlsafe(9)
        title = checked_text(name or "", "table_name") or f"{v.title} table"
        row = {
            "id": table_id, "name": title, "variant": v.name, "preset": preset,
            "options": {k: opts_value(val) for k, val in options.items()},
            "players": seats, "theme": theme,
            "bot_delay": self.bot_delay if bot_delay is None else bot_delay,
            "takeover_timeout": takeover_timeout,
            "takeover_bot": check_bot(takeover_bot or DEFAULT_BOT, self.max_bot_seconds),
            "host_token_hash": token_hash(host), "status": "waiting", "game_id": None,
            "turn_timer": check_turn_timer(turn_timer), "public": bool(public),
            "breather": float(breather), "hints": hints,
        }
        seat_rows: list[dict[str, Any]] = [
            {"seat": s, "bot": specs.get(s),
             "name": bot_name(s, specs[s]) if s in specs else None,
             "token_hash": None, "connected": False}
            for s in range(seats)
        ]
        wait = self.create_retry_at - time.monotonic()
        if wait > 0:
            raise ApiError(503, "not_saved", "new tables cannot be saved at the moment; try "
                           f"again in {math.ceil(wait)} s")
        fut = self.store.create_table(row, seat_rows)
        room = Room(self, row, [SeatInfo(s["seat"], s["name"], None, s["bot"]) for s in seat_rows])
        self.rooms[table_id] = room
        room.last_write = fut

        def done() -> None:
            if fut.exception() is None:
                self.create_backoff = 0.0
                if self.leases is not None:  # its lease was stored with it
                    self.held.add(table_id)
                return
            if self.rooms.get(table_id) is room:  # never stored: it never existed
                del self.rooms[table_id]
            self.create_backoff = min(BACKOFF_MAX, max(BACKOFF_FIRST, self.create_backoff * 2))
            self.create_retry_at = time.monotonic() + self.create_backoff

        on_loop(fut, done)
        return room, host

    def review(self, row: Mapping[str, Any], actions: list[tuple[int, str]], hand: int,
               seat: int, theme: str) -> Future[dict[str, Any]]:
        """The coach's review of ``hand`` for ``seat`` of the game of ``row``.

        Cached: a review stored with the game is answered at once, one being computed is
        shared; otherwise it is computed in the review process (:meth:`reviewer`, at most
        :attr:`review_budget` seconds) and then stored with the game.  Raises
        :class:`~hotdeath.coach.CoachError` ``coach_busy`` when :data:`REVIEWS_WAITING`
        reviews are already under way.
        """
        game_id = str(row["id"])
        key = f"{hand}:{seat}"
        stored = (row.get("reviews") or {}).get(key)
        if isinstance(stored, dict):
            done: Future[dict[str, Any]] = Future()
            done.set_result(stored)
            return done
        fut = self.reviews.get((game_id, key))
        if fut is not None and not (fut.done() and fut.exception() is not None):
            self.reviews.move_to_end((game_id, key))
            return fut
        if sum(not f.done() for f in self.reviews.values()) >= REVIEWS_WAITING:
            raise CoachError("coach_busy", "the coach is busy with other reviews: ask again "
                             "in a minute")
        rec = {
            "format": RECORD_FORMAT, "variant": row["variant"], "options": row["options"],
            "players": int(row["players"]), "seed": int(row["seed"]), "preset": row["preset"],
            "dealer": row.get("dealer"), "actions": [[s, a] for s, a in actions],
        }
        job = partial(review_json, rec, hand, seat, list(row["names"]), theme,
                      self.review_seconds, self.review_budget)
        pool = self.reviewer()
        try:
            fut = pool.submit(job)
        except BrokenProcessPool:  # the worker died (killed, out of memory): a new one
            fut = self.reviewer(pool).submit(job)
        self.reviews[(game_id, key)] = fut
        for old in [k for k, f in self.reviews.items() if f.done()]:
            if len(self.reviews) <= REVIEWS_KEPT:
                break
            del self.reviews[old]

        def stored_now(f: Future[dict[str, Any]]) -> None:
            if not f.cancelled() and f.exception() is None:
                self.store.record_review(str(row["table_id"]), game_id, key, f.result())

        fut.add_done_callback(stored_now)
        return fut

    def reviewer(self, broken: ProcessPoolExecutor | None = None) -> ProcessPoolExecutor:
        """The process where this server's reviews are computed, one at a time.

        A review searches for up to :attr:`review_budget` seconds; in a process of its own
        it never holds the event loop's interpreter lock (the tables' pings and moves go on
        at full speed, as with the replay workers).  Started on first use; a new one in
        place of ``broken``.
        """
        if self._review_pool is None or self._review_pool is broken:
            self._review_pool = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"))
        return self._review_pool

    def get(self, table_id: str) -> Room | None:
        """The room of ``table_id`` (loaded from the database if needed, waiting), or None.

        For start-up and scripts; the application awaits :meth:`load` instead.
        """
        room = self.rooms.get(table_id)
        if room is not None or len(table_id) > 32:
            return room
        rows = self.store.load_room(table_id).result()
        if rows is None:
            return None
        room = self.rooms[table_id] = Room.from_rows(self, rows)
        return room

    async def load(self, table_id: str) -> Room | None:
        """The room of ``table_id``, loaded from the database if it is not in memory.

        The database is read in the store's thread; a loaded running game gets its bots.
        """
        room = self.rooms.get(table_id)
        if room is not None or len(table_id) > 32:
            return room
        if (self.leases is not None and table_id not in self.held
                and await self.owner(table_id) is not None):
            raise ApiError(503, "elsewhere", "another server process plays this table at "
                           "the moment; try again in a few seconds")
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is not None:
                return room
            rows = await asyncio.wrap_future(self.store.load_room(table_id))
            room = self.rooms.get(table_id)
            if room is not None or rows is None:
                return room
            room = self.rooms[table_id] = Room.from_rows(self, rows)
            if room.run is not None and not room.run.state.is_terminal():
                room.start_driver()
            log.info("table %s loaded from the database", table_id)
            return room

    async def owner(self, table_id: str) -> str | None:
        """Where ``table_id`` is played: None here (or nowhere), else the owner's address.

        Without leases always None.  With them the table is taken here unless a live
        other process holds it (docs/architecture.md, "Several server processes").
        """
        if self.leases is None or len(table_id) > 32 or table_id in self.held:
            return None
        for _ in range(LEASE_TRIES):
            got = await asyncio.to_thread(self.leases.claim, table_id)
            if got is Claim.BUSY:
                await asyncio.sleep(0.05)
                continue
            if got is Claim.HERE:
                self.held.add(table_id)
                return None
            if got is Claim.NO_TABLE:
                return None
            assert isinstance(got, str)
            return got
        raise ApiError(503, "elsewhere", "another server process is taking this table at "
                       "the moment; try again in a few seconds")

    async def room(self, table_id: str) -> Room:
        """Like :meth:`load`, but ``unknown_table`` (404) if there is no such table."""
        room = await self.load(table_id)
        if room is None:
            raise ApiError(404, "unknown_table", f"there is no table {table_id!r}")
        return room

    def restore(self) -> int:
        """Load every table with a running game and start its bots; returns how many.

        With leases: register this process and load only the running tables nobody
        (alive) holds, and start the task that keeps the leases.  Also starts the task
        that unloads idle tables.
        """
        if self.leases is not None:
            self.leases.register()
            self.store.server_id = self.leases.server_id
            ids = []
            while batch := self.leases.adopt(ADOPT_BATCH, unleased=True):
                ids += batch
                self.held.update(batch)
            self._keeper = asyncio.get_running_loop().create_task(self._keep_leases())
        else:
            self.store.reset_connected()
            ids = self.store.playing_tables()
        for table_id in ids:
            room = self.get(table_id)
            if room is not None and room.run is not None and not room.run.state.is_terminal():
                room.start_driver()
        self.start_sweeper()
        return len(ids)

    def start_sweeper(self) -> None:
        """Start the task that unloads idle tables (if unloading is on)."""
        limits = [t for t in (self.idle_unload, self.finished_unload) if t is not None]
        if limits and (self._sweeper is None or self._sweeper.done()):
            every = max(0.02, min(30.0, min(limits) / 4))
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(every))

    async def _keep_leases(self) -> None:
        """Renew the heartbeat, drop the tables taken over, adopt those of dead processes.

        A process that could not renew for a whole lease time drops every table (another
        process may have taken them over meanwhile).
        """
        leases = self.leases
        assert leases is not None
        last_ok = time.monotonic()
        failing = False
        while True:
            await asyncio.sleep(leases.seconds / 3)
            known = set(self.held)
            try:
                held = await asyncio.to_thread(leases.heartbeat)
            except Exception as e:
                if not failing:
                    log.error("the leases could not be renewed: %s", type(e).__name__)
                failing = True
                if time.monotonic() - last_ok > leases.seconds:
                    for table_id in list(self.rooms):
                        await self.drop(table_id)
                    self.held.clear()
                continue
            if failing:
                log.info("the leases are renewed again")
            failing, last_ok = False, time.monotonic()
            for table_id in known - held:
                await self.drop(table_id)
            self.held -= known - held
            try:
                adopted = await asyncio.to_thread(leases.adopt, ADOPT_BATCH)
                for table_id in adopted:
                    self.held.add(table_id)
                    room = self.rooms.get(table_id) or await self.load(table_id)
                    if room is not None and room.run is not None and (
                            not room.run.state.is_terminal()):
                        room.start_driver()
                if adopted:
                    log.info("took over %d table(s) of a stopped server process", len(adopted))
            except Exception:  # the next round tries again
                log.exception("adopting the tables of a stopped server process failed")

    async def still_held(self, table_id: str) -> bool:
        """Ask the database whether this process holds ``table_id``; drop it if not.

        True also when the database cannot say (the heartbeat decides then).
        """
        if self.leases is None:
            return True
        self.held.discard(table_id)
        try:
            where = await self.owner(table_id)
        except Exception:  # the database fails: keep it, the heartbeat decides
            self.held.add(table_id)
            return True
        if where is None:
            return True
        await self.drop(table_id)
        return False

    async def drop(self, table_id: str) -> None:
        """Forget a table another process has taken over: its bots stop, its sockets close.

        The clients reconnect (close code 1012) and reach the process that plays it now.
        """
        self.held.discard(table_id)
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        await room.stop_driver()
        for c in list(room.conns):
            c.close(code=1012)
        log.info("table %s is played by another server process now", table_id)

    async def _sweep(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.unload_idle()
            except Exception:  # never stop sweeping
                log.exception("unloading idle tables failed")

    async def unload_idle(self) -> list[str]:
        """Unload every table idle long enough that nobody is connected to; their ids."""
        now = time.monotonic()
        gone = []
        for table_id, room in list(self.rooms.items()):
            limit = self.finished_unload if room.status == "finished" else self.idle_unload
            if limit is None or room.conns or room.recovering or now - room.used < limit:
                continue
            await room.stop_driver()
            if room.conns or self.rooms.get(table_id) is not room or room.used > now:
                if room.run is not None and not room.run.state.is_terminal():
                    room.start_driver()  # someone came back meanwhile
                continue
            del self.rooms[table_id]
            if self.leases is not None and table_id in self.held:
                self.held.discard(table_id)
                with contextlib.suppress(Exception):  # a lease kept runs out by itself
                    await asyncio.to_thread(self.leases.release, table_id)
            self.unloaded += 1
            gone.append(table_id)
            log.info("table %s unloaded (idle %.0f s)", table_id, now - room.used)
        return gone

    async def close(self) -> None:
        """Stop every bot task, the bots' threads and close every connection.

        With leases: once the queued writes are made, this process resigns (its running
        tables are free for the other processes at once).
        """
        for task in (self._sweeper, self._keeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room in list(self.rooms.values()):
            await room.stop_driver()
            for c in list(room.conns):
                c.close(code=1012 if self.leases is not None else None)
        self.thinkers.shutdown(wait=False, cancel_futures=True)
        self.coach.shutdown(wait=False, cancel_futures=True)
        if self._review_pool is not None:  # a review under way ends now, not at its budget
            workers = list((self._review_pool._processes or {}).values())
            self._review_pool.shutdown(wait=False, cancel_futures=True)
            for proc in workers:
                proc.terminate()
        if self.leases is not None and self.store.server_id is not None:
            await asyncio.to_thread(self.store.flush)
            try:
                await asyncio.to_thread(self.leases.resign)
            except Exception as e:  # the leases run out by themselves
                log.error("could not hand the tables over: %s", type(e).__name__)


def review_json(rec: Mapping[str, Any], hand: int, seat: int, names: list[str], theme: str,
                seconds: float, budget: float) -> dict[str, Any]:
    """The coach's review of a hand that is over, as JSON (run in the review process).

    Raises :class:`~hotdeath.coach.CoachError`: ``no_hand`` (the record has no such hand),
    ``hand_not_over`` (the hand is still being played).
    """
    from hotdeath.notation import replay

    state = replay(rec)
    if not state.is_terminal() and state.current_hand() <= hand:
        raise CoachError("hand_not_over", f"hand {hand} is still being played")
    done = review(rec, hand, [seat], seconds=seconds, budget=budget, names=names,
                  theme=theme)
    return done.to_json(names)


def checked_text(text: object, kind: str) -> str:
    """``text`` under the input policy (:func:`hotdeath.text.clean_text`), or its 400."""
    try:
        return clean_text(text, kind)
    except TextError as e:
        raise ApiError(400, e.code, e.message) from None


def opts_value(value: object) -> object:
    """An option value as stored (JSON scalars only)."""
    if isinstance(value, bool | int | str):
        return value
    raise ApiError(400, "bad_option_value", f"option values are booleans, numbers or text: "
                   f"{value!r}")
