"""One table: the :class:`Room`, which wires the table's parts and holds its connections.

A room holds its table's seats, connections and running game in memory, backed by the
:class:`~hotdeath.server.store.Store`.  Everything that changes a game runs synchronously
on the event loop, so actions are applied one at a time without locks: an action is
checked and applied by the game authority (:class:`~hotdeath.server.authority.GameRun`),
its write queued to the store, and the messages it makes (each seat's own view, computed
and serialised once per seat and version) are sent when that write has committed
(:class:`~hotdeath.server.writes.Writes`), so nobody sees a move that is not saved.  The
parts of a table (docs/architecture.md, "The server as small rooms"): the authority, the
seating and settings (:class:`~hotdeath.server.seating.Seating`), the driver of bots,
clock and breather (:class:`~hotdeath.server.driver.Driver`), the writes and their
recovery, the chat (:class:`~hotdeath.server.chat.TableChat`) and the coach's hints
(:class:`~hotdeath.server.coaching.Hints`).  The :class:`~hotdeath.server.hub.Hub` holds
every room in memory.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hotdeath.actions import Action
from hotdeath.bots import bot_label
from hotdeath.errors import HotDeathError
from hotdeath.server.authority import GameRun, StaleVersion
from hotdeath.server.chat import REACTIONS, TableChat
from hotdeath.server.coaching import Hints
from hotdeath.server.connections import Conn
from hotdeath.server.driver import Driver
from hotdeath.server.messages import dumps, goal_json
from hotdeath.server.protocol import ApiError, ProtocolError, TokenBucket
from hotdeath.server.seating import SeatInfo, Seating, Settings, table_bot, token_hash
from hotdeath.server.store import RoomRows
from hotdeath.server.writes import Writes
from hotdeath.variants import get_variant
from hotdeath.words import house_rules

if TYPE_CHECKING:
    from hotdeath.server.hub import Hub


class Room:
    """One table: its identity and game, its connections, and the parts that run it."""

    def __init__(self, hub: Hub, row: Mapping[str, Any], seats: list[SeatInfo]) -> None:
        self.hub = hub
        self.store = hub.store
        self.table_id: str = row["id"]
        self.variant: str = row["variant"]
        self.preset: str = row["preset"]
        self.options: dict[str, Any] = dict(row["options"])
        self.players: int = row["players"]
        self.theme: str = row["theme"]
        self.code: str | None = row.get("code")
        """The table's short code (``/{CODE}`` opens it); None for a table without one."""
        self.host_hash: str = row["host_token_hash"]
        self.status: str = row["status"]
        self.games: list[str] = []
        self.run: GameRun | None = None
        self.conns: set[Conn] = set()
        self.watchers = 0
        """Spectator connections so far (each gets a number for its chat name)."""
        self.goal = goal_json(self.variant, self.preset, self.options)
        self.house_rules = house_rules(self.variant, self.preset, self.options, self.theme)
        self.used = time.monotonic()
        """When something last happened at the table (a move, a connection, a change)."""
        self._buckets: dict[int, TokenBucket] = {}
        self.seating = Seating(self, seats, Settings.from_row(row))
        self.writes = Writes(self)
        self.driver = Driver(self)
        self.chat = TableChat(self)
        self.hints = Hints(self)

    @property
    def seats(self) -> list[SeatInfo]:
        """The table's seats, by seat number (:attr:`Seating.seats`)."""
        return self.seating.seats

    @property
    def settings(self) -> Settings:
        """What the host may change (:attr:`Seating.settings`)."""
        return self.seating.settings

    @classmethod
    def from_rows(cls, hub: Hub, rows: RoomRows) -> Room:
        """A room rebuilt from what the database holds (its game replayed from the record)."""
        room = cls(hub, rows.table, [SeatInfo(int(s["seat"])) for s in rows.seats])
        room.install(rows)
        return room

    def install(self, rows: RoomRows) -> None:
        """Take the table's settings, seats, games and current game from ``rows``."""
        self.settings.install(rows.table)
        self.status = rows.table["status"]
        self.code = rows.table.get("code")
        self.chat.lines = list(rows.chat)
        for info, s in zip(self.seats, rows.seats, strict=True):
            info.name, info.token_hash, info.bot = s["name"], s["token_hash"], s["bot"]
        self.games = list(rows.games)
        self.run = GameRun.rebuild(rows.game, self.theme) if rows.game is not None else None
        if self.run is not None:
            for info in self.seats:  # a person the host removed: a bot plays on
                if info.bot and info.seat not in self.run.bots:
                    self.run.bots[info.seat] = table_bot(info.bot)
        if self.run is not None and self.run.state.is_terminal():
            self.status = "finished"
        self.used = time.monotonic()

    # ------------------------------------------------------------------ summaries

    def summary(self) -> dict[str, Any]:
        """The public table summary (no tokens, no cards)."""
        run, s = self.run, self.settings
        taken = run.taken if run is not None else {}
        return {
            "table_id": self.table_id,
            "name": s.name,
            "variant": self.variant,
            "preset": self.preset,
            "preset_title": get_variant(self.variant).preset_title(self.preset),
            "variant_title": get_variant(self.variant).title,
            "options": self.options,
            "house_rules": self.house_rules,
            "players": self.players,
            "theme": self.theme,
            "bot_delay": s.bot_delay,
            "takeover_timeout": s.takeover_timeout,
            "turn_timer": s.turn_timer,
            "breather": s.breather,
            "public": s.public,
            "hints": self.hints_on,
            "hints_setting": s.hints,
            "status": self.status,
            "goal": self.goal,
            "code": self.code,
            "join_path": self.join_path(),
            "game_id": run.game_id if run is not None else None,
            "games": list(self.games),
            "seats": [
                {
                    "seat": info.seat,
                    "name": info.name,
                    "kind": info.kind,
                    "bot": info.bot,
                    "bot_label": bot_label(info.bot) if info.bot else None,
                    "connected": info.conns > 0 or info.kind == "bot",
                    "played_by_bot": info.seat in taken,
                }
                for info in self.seats
            ],
        }

    def join_path(self) -> str:
        """The path that opens this table for people joining (never a seat): its code's."""
        return f"/{self.code}" if self.code else f"/t/{self.table_id}"

    @property
    def hints_on(self) -> bool:
        """Whether people at this table may ask the coach for hints.

        The host's setting; without one, on for a table with a bot and off for people only.
        """
        if self.settings.hints is not None:
            return self.settings.hints
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

    def broadcast_table(self) -> None:
        """Send the table's summary to every connection."""
        self.used = time.monotonic()
        text = dumps({"type": "table", "table": self.summary()})
        for c in self.conns:
            c.send(text)

    def _table_texts(self) -> list[tuple[Conn, str]]:
        text = dumps({"type": "table", "table": self.summary()})
        return [(c, text) for c in self.conns]

    def _state_texts(self) -> list[tuple[Conn, str]]:
        return [(c, self.state_text(c.seat)) for c in self.conns if c.greeted]

    def state_message(self, seat: int | None, with_log: bool = False) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: spectator) at the current version."""
        assert self.run is not None
        return self.run.state_message(seat, self.driver.clock_json, with_log)

    def state_text(self, seat: int | None) -> str:
        """The serialised ``state`` message for ``seat``, cached per version."""
        assert self.run is not None
        return self.run.state_text(seat, self.driver.clock_json)

    # ------------------------------------------------------------------ the host

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is this table's host token."""
        return token is not None and secrets.compare_digest(token_hash(token), self.host_hash)

    def require_host(self, token: str | None) -> None:
        """Raise ``not_host`` unless ``token`` is the host token."""
        if not self.is_host(token):
            raise ApiError(403, "not_host", "only the table's host (its host token) may do this")

    def start(self) -> None:
        """Start the first game (every seat must have a person or a bot)."""
        if self.status != "waiting":
            raise ApiError(409, "already_started", "the game at this table has started")
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
        self.writes.check()
        # a later game is dealt as the variant's rules say (Throwdown: the last winner)
        last = self.run
        dealer = last.state.next_game_dealer() if last is not None else None
        names = [s.name or f"P{s.seat}" for s in self.seats]
        bot_specs = {s.seat: s.bot for s in self.seats if s.bot}
        run = GameRun.start(self.variant, self.players, self.preset, self.options, dealer,
                            names, bot_specs, self.theme)
        saving = self.store.start_game(
            {"id": run.game_id, "table_id": self.table_id, "variant": self.variant,
             "preset": self.preset, "options": self.options, "players": self.players,
             "seed": run.seed, "seed_salt": run.seed_salt, "names": names,
             "bots": {str(k): v for k, v in bot_specs.items()}, "dealer": dealer,
             "deal_scheme": run.state.deal_scheme},
            run.deals.values(),
        )
        self.run = run
        self.games.append(run.game_id)
        self.status = "playing"
        self.used = time.monotonic()
        self.writes.last_write = saving
        self.writes.after_save(saving, run, 0, [*self._table_texts(), *self._state_texts()])
        self.driver.start()

    def apply(self, seat: int, action: Action, auto: str | None = None) -> None:
        """Apply, record, then tell everyone; raises the engine's error if illegal.

        ``auto``: a move a bot made for a person, ``timer`` (the time ran out) or
        ``takeover`` (the person is away), recorded as the seat's action like any other.
        """
        run = self.run
        if run is None:
            raise ProtocolError("not_started", "no game is running at this table")
        self.writes.check()
        move = run.apply(seat, action, auto)
        saving = self.store.record_action(
            self.table_id, run.game_id, move.version, seat, move.text, move.deals, move.result
        )
        self.used = time.monotonic()
        started = self.driver.after_move(run, seat, move.events)
        out = self._state_texts()
        if move.result is not None:
            self.status = "finished"
            out = [*self._table_texts(), *out]
        self.writes.last_write = saving
        if started:
            text = dumps(self.driver.breather_json())
            out += [(c, text) for c in self.conns if c.greeted]
        self.writes.after_save(saving, run, move.version, out)
        self.driver.wake()

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
        elif kind in ("chat", "react"):
            self.chat.receive(conn, msg)
        elif kind == "ready":
            self.driver.ready(conn.seat)
        elif kind == "hint":
            self.hints.ask(conn, msg)
        elif kind == "check":  # why a selection of cards is no play: the engine's words
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators have no cards to play",
                                    msg.get("id"))
            if self.run is None:
                raise ProtocolError("not_started", "no game is running at this table",
                                    msg.get("id"))
            conn.send_json(self.run.check_play(conn.seat, msg["cards"], msg.get("id")))

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
            "chat": self.chat.lines, "reactions": dict(REACTIONS),
            "watcher": conn.watcher if seat is None else None,
            "servers": self.hub.keeper.peers if self.hub.keeper is not None else [],
        })
        if self.run is not None:
            conn.send_json(self.state_message(seat, with_log=True))
        if self.driver.breather is not None:
            conn.send_json(self.driver.breather_json())
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
        self.writes.connected(info.seat, on)
        if on and self.run is not None:
            self.run.taken.pop(info.seat, None)
        self.broadcast_table()
        self.driver.wake()

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
        if self.driver.breather is not None and not run.state.is_terminal():
            raise ProtocolError(
                "breather", "the next hand starts when everyone has pressed Next hand", msg_id
            )
        try:
            run.check(seat, msg_id, msg["version"])
        except StaleVersion as err:
            conn.send_json(err.to_json())
            # behind: every newer state is on its way to this connection already; ahead (a
            # confused client): the current one, unless its write is pending (it follows)
            if err.ahead and run.saved == run.version:
                conn.send(self.state_text(seat))
            return
        try:
            action = Action.parse(msg["action"])
            self.apply(seat, action)
        except HotDeathError as e:
            raise ProtocolError(e.code, e.message, msg_id) from None
        except ProtocolError as e:  # not saved, busy: refused with the message's id
            raise ProtocolError(e.code, e.message, msg_id) from None
        run.remember(seat, msg_id)
