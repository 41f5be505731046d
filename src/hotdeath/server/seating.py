"""Seating and settings: who sits where at a table, the host's settings, and their checks.

:class:`SeatInfo` is a seat (a person, a bot or open) and :class:`Settings` what the host
may change; :class:`Seating` makes the changes people and hosts ask for through the REST
API (take a seat, put a bot in one, change a setting, remove a person).  The functions
here check what a request may put in a seat or a setting (bot specs, turn timers, names,
option values) and answer a refusal with its :class:`~hotdeath.server.protocol.ApiError`.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hotdeath.bots import Bot, BotInfo, bot_label, make_bot, parse_spec
from hotdeath.bots.ladder import ladder_levels, level_rating
from hotdeath.errors import TextError
from hotdeath.options import as_dict
from hotdeath.server.protocol import ApiError, ProtocolError
from hotdeath.text import clean_text
from hotdeath.variants import get_variant

if TYPE_CHECKING:
    from hotdeath.server.room import Room

DEFAULT_BOT = "basic"
"""The bot the lobby proposes and the default takeover bot."""
DEFAULT_TAKEOVER = 60.0
"""Seconds before a bot plays a disconnected person's seat, unless the table says otherwise."""
MAX_BOT_SECONDS = 1.0
"""Default cap on a thinking bot's time per decision at the server."""
MAX_MASTER_SEATS = 2
"""Default cap on the seats a server process runs a searching bot (``master``) in at once."""
MOVE_SLACK = 0.25
"""CPU seconds a searching bot's move may take beyond its budget (the set-up of a search,
the expert's opinion of the moves, the last iteration) before the driver logs it."""
LEVEL_SECONDS = (0.2, 0.5, 1.0)
"""The thinking times the lobby offers for a bot with a budget (up to the cap)."""
TURN_TIMER_RANGE = (15.0, 120.0)
"""The turn timers a table may have (seconds; None: no timer)."""
BOT_NAMES = ("Ada", "Bo", "Cy", "Dot", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo")
"""The first names of bot seats, by seat."""

def token_hash(token: str) -> str:
    """The stored form of a token (SHA-256 hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def name_key(name: str) -> str:
    """How names are compared at a table: NFKC-normalised and case-folded.

    >>> name_key("\uff21nn") == name_key("ANN") == name_key("ann")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


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


def thinks(spec: str) -> bool:
    """Whether the bot of ``spec`` has a thinking time (is asked off the event loop)."""
    return parse_spec(spec)[0].budget is not None


def table_bot(spec: str) -> Bot:
    """The bot of ``spec`` as the server runs it.

    A bot that searches (``master``, ``ismcts``) searches in a worker process
    (:attr:`IsmctsBot.offload <hotdeath.bots.ismcts.IsmctsBot.offload>`): the server's
    thread only waits for the answer, so it never holds the interpreter's lock against
    the event loop.
    """
    bot = make_bot(spec)
    if thinks(spec) and hasattr(bot, "offload"):
        bot.offload = True
    return bot


def move_budget(spec: str) -> float | None:
    """The CPU seconds a move of the bot of ``spec`` may take (None: it does not search).

    Its time budget (at most the server's cap, :func:`check_bot`) times the processes
    that search each move (``workers``; a spec at the server cannot set them).
    """
    info, values = parse_spec(spec)
    if info.budget is None:
        return None
    workers = values.get("workers", 1)
    parts = int(workers) if isinstance(workers, int) and workers > 0 else 1
    return float(values[info.budget]) * parts


def searching_seats(room: Room) -> int:
    """The searching bots a loaded table runs: its seats' and its takeover bot.

    A finished game's table runs none; a table whose takeover bot searches counts it
    once (it plays for the people gone), whether or not it plays now.
    """
    if room.status == "finished":
        return 0
    count = sum(1 for info in room.seats if info.bot is not None and thinks(info.bot))
    return count + (1 if thinks(room.settings.takeover_bot) else 0)


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


def busy_words(playing: int, limit: int) -> str | None:
    """Why a process takes no more searching seats, in words (None: it takes some).

    >>> busy_words(1, 2), busy_words(2, 2)
    (None, 'this server plays at most 2 at once')
    """
    if playing < limit:
        return None
    return f"this server plays at most {limit} at once" if limit else "this server runs none"


def bot_menu(max_seconds: float = MAX_BOT_SECONDS, busy: str | None = None,
             ) -> list[dict[str, Any]]:
    """The lobby's levels: the ladder's (:mod:`hotdeath.bots.ladder`), weakest first.

    Each with its spec, its words, its place, its bot's description, whether it is the
    default and its measured ``rating`` by variant; a searching level says ``busy`` (the
    words) when the server runs all the searching seats it may.  A searching level whose
    budget is above ``max_seconds`` is offered at the cap, unrated (it was measured at its
    own budget).
    """
    menu: list[dict[str, Any]] = []
    for rank, level in enumerate(ladder_levels()):
        info, values = parse_spec(level)
        if not server_bot(info):
            continue
        spec, rating = level, level_rating(level)
        if info.budget is not None and float(values[info.budget]) > max_seconds:
            spec, rating = f"{info.name}:{info.budget}={max_seconds:g}", {}
        menu.append({"spec": spec, "label": bot_label(spec), "rank": rank,
                     "help": info.description, "default": spec == DEFAULT_BOT,
                     "rating": rating, "busy": busy if info.budget is not None else None})
    return menu


def check_bot(spec: object, max_seconds: float = MAX_BOT_SECONDS,
              table: tuple[str, int] | None = None) -> str:
    """A valid bot spec the server offers (``bad_bot`` otherwise).

    A thinking bot's spec may set only its time budget, at most ``max_seconds``; with
    ``table`` (variant, seats) the bot must play that table (``BotInfo.fits``).
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
    if table is not None and info.fits is not None and not info.fits(*table):
        raise ApiError(400, "bad_bot", f"bot {info.name!r} does not play {table[0]} at "
                       f"{table[1]} players")
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


@dataclass(slots=True)
class Settings:
    """What the host may set at a table (the ``tables`` row's columns, in memory)."""

    name: str
    bot_delay: float
    takeover_timeout: float | None
    takeover_bot: str
    turn_timer: float | None = None
    public: bool = False
    breather: float = 0.0
    """Seconds of pause after a hand until every person is ready (0: none)."""
    hints: bool | None = None
    """Hints from the coach: on, off, or None (on when the table has a bot)."""

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Settings:
        """The settings of a table row."""
        settings = cls(row["name"], row["bot_delay"], row["takeover_timeout"],
                       row["takeover_bot"])
        settings.install(row)
        return settings

    def install(self, row: Mapping[str, Any]) -> None:
        """Take what the host may change from ``row`` (the takeover bot stays)."""
        self.name, self.bot_delay = row["name"], row["bot_delay"]
        self.takeover_timeout = row["takeover_timeout"]
        self.turn_timer, self.public = row.get("turn_timer"), bool(row.get("public", False))
        self.breather = float(row.get("breather") or 0.0)
        self.hints = row.get("hints")


class Seating:
    """The REST side of a table: seats and settings, each change checked, written, undone.

    Each change is made in memory at once, written through the store, and undone in
    memory if its write fails (so what the server holds is what the database holds); the
    REST route awaits the write (:attr:`Writes.last_write
    <hotdeath.server.writes.Writes.last_write>`) before it answers.
    """

    def __init__(self, room: Room, seats: list[SeatInfo], settings: Settings) -> None:
        self.room = room
        self.seats = seats
        self.settings = settings

    def _require_waiting(self) -> None:
        if self.room.status != "waiting":
            raise ApiError(409, "already_started", "the game at this table has started")

    def seat_arg(self, seat: object) -> int:
        """``seat`` as a seat number of this table, or ``bad_seat``."""
        players = self.room.players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ApiError(
                400, "bad_seat", f"seat must be a number from 0 to {players - 1}"
            )
        return seat

    def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Seat a person; returns the seat and its new token."""
        room = self.room
        self._require_waiting()
        name = checked_text(name, "name")
        if seat is None:
            free = [s.seat for s in self.seats if s.kind == "open"]
            if not free:
                raise ApiError(409, "table_full", "every seat is taken")
            seat = free[0]
        seat = self.seat_arg(seat)
        info = self.seats[seat]
        if info.kind != "open":
            raise ApiError(409, "seat_taken", f"seat {seat} is taken")
        self._check_unique(name)
        room.writes.writable()
        token = secrets.token_urlsafe(24)
        before = (info.name, info.token_hash, info.since)
        info.name, info.token_hash, info.since = name, token_hash(token), time.monotonic()
        mine = info.token_hash

        def undo() -> None:
            if info.token_hash == mine:  # the seat is open again, as in the database
                info.name, info.token_hash, info.since = before

        fut = room.writes.last_write = room.store.update_seat(
            room.table_id, seat, name=name, token_hash=info.token_hash
        )
        room.writes.when_saved(fut, room.broadcast_table, undo)
        return seat, token

    def _check_unique(self, name: str) -> None:
        """``name_taken`` if another seat's name is ``name`` (:func:`name_key`)."""
        key = name_key(name)
        for other in self.seats:
            if other.name is not None and name_key(other.name) == key:
                raise ApiError(409, "name_taken", f"seat {other.seat} is called "
                               f"{other.name!r} already: names at a table must differ in "
                               "more than case or width")

    def set_bot(self, seat: int, spec: str | None) -> None:
        """Put a bot in an open (or bot) seat, or open a bot's seat (``spec=None``)."""
        room = self.room
        self._require_waiting()
        seat = self.seat_arg(seat)
        info = self.seats[seat]
        if info.kind == "human":
            raise ApiError(409, "seat_taken", f"seat {seat} has a person")
        if spec is not None:
            spec = check_bot(spec, room.hub.max_bot_seconds, (room.variant, room.players))
        elif info.kind != "bot":
            raise ApiError(400, "bad_seat", f"seat {seat} has no bot")
        room.hub.check_search_seats(
            (1 if spec is not None and thinks(spec) else 0)
            - (1 if info.bot is not None and thinks(info.bot) else 0))
        room.writes.writable()
        before = (info.bot, info.name)
        info.bot = spec
        info.name = bot_name(seat, spec) if spec else None
        after = (info.bot, info.name)

        def undo() -> None:
            if (info.bot, info.name) == after and info.kind != "human":
                info.bot, info.name = before

        fut = room.writes.last_write = room.store.update_seat(
            room.table_id, seat, bot=spec, name=info.name
        )
        room.writes.when_saved(fut, room.broadcast_table, undo)

    def set_settings(self, turn_timer: object = ..., public: object = ...,
                     hints: object = ...) -> None:
        """Change the turn timer (None: off), whether the lobby lists the table, or hints.

        ``hints``: true, false, or None for the default (on when the table has a bot).
        """
        room, s, driver = self.room, self.settings, self.room.driver
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
        room.writes.writable()  # everything is checked before anything changes
        before = (s.turn_timer, driver.clock, s.public, s.hints)
        if "turn_timer" in changes:
            s.turn_timer = changes["turn_timer"]
            driver.clock = None
        if "public" in changes:
            s.public = changes["public"]
        if "hints" in changes:
            s.hints = changes["hints"]
        after = (s.turn_timer, s.public, s.hints)

        def undo() -> None:  # the database kept the old settings: so does memory
            if (s.turn_timer, s.public, s.hints) == after:
                s.turn_timer, driver.clock, s.public, s.hints = before

        fut = room.writes.last_write = room.store.update_table(room.table_id, **changes)
        room.writes.when_saved(fut, room.broadcast_table, undo)
        driver.wake()

    def set_bot_delay(self, delay: float) -> None:
        """Change how long bots wait before they move (at any time)."""
        room, s = self.room, self.settings
        room.writes.writable()
        before = s.bot_delay
        s.bot_delay = delay

        def undo() -> None:
            if s.bot_delay == delay:
                s.bot_delay = before

        fut = room.writes.last_write = room.store.update_table(room.table_id, bot_delay=delay)
        room.writes.when_saved(fut, room.broadcast_table, undo)
        room.driver.wake()

    def remove_player(self, seat: object) -> None:
        """Host: a person leaves the table; the table's takeover bot takes the seat.

        Their connections stay as spectators (told with a ``removed`` error).  In a running
        game the bot plays on in the same seat; the record is unchanged.
        """
        room = self.room
        seat = self.seat_arg(seat)
        info = self.seats[seat]
        if info.kind != "human":
            raise ApiError(409, "not_a_person", f"seat {seat} has no person to remove")
        spec = self.settings.takeover_bot
        room.hub.check_search_seats(1 if thinks(spec) else 0)
        room.writes.writable()
        before = (info.token_hash, info.bot, info.name)
        info.token_hash = None
        info.bot = spec
        info.name = bot_name(seat, spec)
        after = (info.bot, info.name)
        fut = room.writes.last_write = room.store.update_seat(
            room.table_id, seat, token_hash=None, bot=spec, name=info.name, connected=False
        )

        def undo() -> None:  # not stored: the person keeps the seat and the token
            if (info.bot, info.name) == after and info.token_hash is None:
                info.token_hash, info.bot, info.name = before

        def ok() -> None:  # stored: the bot takes over and the person watches
            run, driver = room.run, room.driver
            if run is not None:
                run.taken.pop(seat, None)
                run.bots[seat] = table_bot(spec)
                if thinks(spec):
                    run.slow.add(seat)
            if driver.clock is not None and driver.clock[0] == seat:
                driver.clock = None
            for c in list(room.conns):
                if c.seat == seat:
                    c.send_json(ProtocolError(
                        "removed", "the host gave your seat to a bot: you are watching now"
                    ).to_json())
                    room.detach(c)
                    room.hello(c, None)
            info.conns = 0
            if driver.breather is not None:
                driver.check_ready()
            room.broadcast_table()
            driver.wake()

        room.writes.when_saved(fut, ok, undo)
