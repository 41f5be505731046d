"""The driver of a table: its bots, the turn clock, the breather and the takeover.

One background task per room (:class:`Driver`) moves the bots
(:func:`hotdeath.bots.arena.next_bot_move`) after the table's delay, with generators
derived from the game's seed and version (:func:`decision_rngs`), so a table reloaded
from its record plays on exactly as it would have.  A bot that thinks (its catalog entry
has a time ``budget``, such as ``ismcts``) is asked in one of the hub's few worker
threads on a clone of the state, and searches in a worker process
(:func:`~hotdeath.server.seating.table_bot`), so the event loop keeps serving every table
meanwhile; its answer is applied only if the game has not moved on in between (otherwise
it is asked again).  Every searched move's CPU time is kept beside its budget
(:attr:`Driver.searches`); the budget is the spec's, which the server caps.  The driver
also makes the turn timer's move for a person whose time ran out, holds the next hand
during the breather after a hand, and lets the table's takeover bot play for a person
gone longer than the takeover time.  It changes the game only through
:meth:`Room.apply <hotdeath.server.room.Room.apply>`, as a person does, and only once the
table's last write is done (:meth:`Writes.caught_up
<hotdeath.server.writes.Writes.caught_up>`): bots never run ahead of the database, however
short their delay (issue 23, N1).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hotdeath.actions import Action
from hotdeath.bots import Bot
from hotdeath.bots.arena import next_bot_move
from hotdeath.errors import HotDeathError
from hotdeath.events import Event
from hotdeath.server.authority import GameRun
from hotdeath.server.messages import dumps
from hotdeath.server.protocol import ProtocolError
from hotdeath.server.seating import MOVE_SLACK, move_budget, table_bot, thinks
from hotdeath.state import GameState

if TYPE_CHECKING:
    from hotdeath.server.room import Room

log = logging.getLogger("hotdeath.server")

BREATHER_SECONDS = 20.0
"""The lobby's pause after a hand: the next starts when every person is ready, or after
this (a table made through the API has none unless it asks, ``breather``)."""
SEARCHES_KEPT = 500
"""Searched moves whose CPU time a driver keeps (:attr:`Driver.searches`)."""
SAFE_DEFAULTS = ("accept", "draw", "pass", "decline")
"""What a timed-out seat does when no bot can choose: the first of these that is legal."""


def decision_rngs(seed: int, version: int, players: int) -> list[random.Random]:
    """The bots' generators for the decisions at ``version`` of the game of ``seed``.

    A function of the record only: a game rebuilt from the database (after a restart or
    an unload) asks its bots with the same generators as the game that was never unloaded.
    """
    base = (seed * 1_000_003 + version) * 64
    return [random.Random(base + seat) for seat in range(players)]


def search_cpu(bot: Bot) -> float:
    """The CPU seconds ``bot``'s last decision searched (0: it did not search)."""
    cpu = getattr(bot, "last_cpu", 0.0)
    return float(cpu) if isinstance(cpu, int | float) else 0.0


def think(state: GameState, bots: Mapping[int, Bot], rngs: list[random.Random]
          ) -> tuple[tuple[int, Action] | None, float]:
    """The next bot move (:func:`next_bot_move`) and the CPU its search took (0: none)."""
    move = next_bot_move(state, bots, rngs)
    return move, (search_cpu(bots[move[0]]) if move is not None else 0.0)


def timer_choice(state: GameState, seat: int, spec: str, rngs: list[random.Random],
                 table_id: str, spent: list[float] | None = None) -> Action:
    """The move of bot ``spec`` for ``seat`` whose turn timer ran out, from its view only.

    ``rngs`` are the bots' generators of the version (:func:`decision_rngs`), so the move
    follows from the record.  Pure of the room, so the hub's worker threads may run it on a
    clone of the state (for a bot that searches; the CPU its search took is appended to
    ``spent``).  If the bot fails, the variant's safe default: accept, draw, pass or
    decline, else the first legal action.
    """
    legal = state.legal_actions(seat)
    try:
        bot = table_bot(spec)
        move = next_bot_move(state, {seat: bot}, rngs)
        if spent is not None:
            spent.append(search_cpu(bot))
        if move is not None and move[0] == seat:
            return move[1]
    except Exception:  # a bot failure must not stall the table
        log.exception("the timer bot failed at table %s", table_id)
    for kind in SAFE_DEFAULTS:
        for action in legal:
            if str(action).split()[0] == kind:
                return action
    return legal[0]


class Driver:
    """What moves a table without a person: bots, the turn timer, breathers, takeovers."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.breather: dict[str, Any] | None = None
        """The pause after a hand: ``until`` (monotonic), ``hand``, ``ready`` seats."""
        self.clock: tuple[int, float] | None = None
        """The seat on the turn timer and when its clock started."""
        self.takeover_thinks = thinks(room.settings.takeover_bot)
        """Whether the takeover bot searches (its moves are asked off the event loop)."""
        self.stale_answers = 0
        """Bot answers dropped because the game moved on while they were computed."""
        self.searches: deque[tuple[int, float, float]] = deque(maxlen=SEARCHES_KEPT)
        """The latest searched moves: (seat, CPU seconds, the bot's budget per move)."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Something changed: the bot task looks at the table again."""
        self._wake.set()

    # ------------------------------------------------------------------ the task

    def start(self) -> None:
        """Start (or restart) the background task that moves the bots."""
        if self._task is not None and not self._task.done():
            self._wake.set()
            return
        self._task = asyncio.get_running_loop().create_task(self._drive())

    async def stop(self) -> None:
        """Cancel the bot task."""
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _drive(self) -> None:
        room = self.room
        while True:
            run = room.run
            if run is None or run.state.is_terminal():
                return
            tail = room.writes.tail
            if tail is not None and not tail.done():  # back-pressure: the bots move
                await room.writes.caught_up()  # once the table's last write is done
                continue
            self._wake.clear()
            pause = self._breather_wait()
            if pause is not None:  # between hands: nobody moves, bots included
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), pause)
                continue
            late, clock_left = self._timed_out(run)
            if late >= 0:  # the turn timer ran out: a move is made for the person
                if not await self._timer_turn(run, late):
                    return
                continue
            if not await self._bot_turn(run, clock_left):
                return

    async def _timer_turn(self, run: GameRun, late: int) -> bool:
        """Make the timer's move for ``late``; False if the table's driving must stop."""
        room = self.room
        if self.takeover_thinks:  # a bot that searches: off the event loop
            version = run.version
            spent: list[float] = []
            timed = await asyncio.get_running_loop().run_in_executor(
                room.hub.thinkers, timer_choice, run.state.clone(), late,
                room.settings.takeover_bot, decision_rngs(run.seed, version, room.players),
                room.table_id, spent)
            if spent and spent[0] > 0:
                self._searched(late, spent[0], room.settings.takeover_bot)
            if (room.run is not run or run.version != version
                    or self._timed_out(run)[0] != late):
                # meanwhile the person moved, the table was reloaded, or the
                # clock stopped counting for the seat (timer off or longer, the
                # seat given to a bot, the person taken over): no timer move
                self.stale_answers += 1
                return True
        else:
            timed = self.timer_move(run, late)
        try:
            room.apply(late, timed, auto="timer")
        except ProtocolError:  # the table is being reloaded: try again later
            await asyncio.sleep(max(room.writes.paused_for(), 0.05))
        except HotDeathError:
            log.exception("the timer's move failed at table %s", room.table_id)
            return False
        return True

    async def _bot_turn(self, run: GameRun, clock_left: float | None) -> bool:
        """Ask the bots and make their move (or wait); False if driving must stop."""
        room = self.room
        bots = self._bot_seats(run)
        version = run.version
        started = time.monotonic()
        move: tuple[int, Action] | None
        if not bots:
            move = None
        elif self._thinking(run, bots):
            fresh, move = await self._think(run, bots)
            if not fresh:
                return True
        else:
            move = next_bot_move(
                run.state, bots, decision_rngs(run.seed, run.version, room.players)
            )
        if move is None:
            waits = [w for w in (self._next_takeover(), clock_left) if w is not None]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(waits) if waits else None)
            return True
        # the thinking time counts toward the table's delay
        await asyncio.sleep(max(0.0, room.settings.bot_delay - (time.monotonic() - started)))
        if room.writes.paused_for() > 0:  # writes fail: wait out the backoff, not a busy loop
            await asyncio.sleep(room.writes.paused_for())
            return True
        if room.run is not run or run.version != version:
            return True
        seat, action = move
        try:  # a person gone too long: the takeover bot's move is marked as made for them
            room.apply(seat, action, "takeover" if seat in run.taken else None)
        except ProtocolError:  # the table is being reloaded: try again later
            await asyncio.sleep(max(room.writes.paused_for(), 0.05))
        except HotDeathError:  # a bot chose an illegal move: a bug; people play on
            log.exception("a bot move failed at table %s", room.table_id)
            return False
        return True

    # ------------------------------------------------------------------ bots

    def _bot_seats(self, run: GameRun) -> dict[int, Bot]:
        """Bots of the table plus takeover bots for people gone longer than the timeout."""
        room = self.room
        timeout = room.settings.takeover_timeout
        if timeout is None:
            return run.bots
        now = time.monotonic()
        out = dict(run.bots)
        changed = False
        for info in room.seats:
            if info.kind != "human" or info.conns > 0:
                continue
            if now - info.since >= timeout:
                bot = run.taken.get(info.seat)
                if bot is None:
                    bot = run.taken[info.seat] = table_bot(room.settings.takeover_bot)
                    changed = True
                out[info.seat] = bot
        if changed:
            room.broadcast_table()
        return out

    def _next_takeover(self) -> float | None:
        room = self.room
        timeout = room.settings.takeover_timeout
        run = room.run
        if timeout is None or run is None:
            return None
        now = time.monotonic()
        waits = [
            info.since + timeout - now
            for info in room.seats
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
        room = self.room
        version = run.version
        snapshot = run.state.clone()
        rngs = decision_rngs(run.seed, version, room.players)
        loop = asyncio.get_running_loop()
        move, cpu = await loop.run_in_executor(room.hub.thinkers, think, snapshot, bots, rngs)
        if move is not None and cpu > 0:
            seat = move[0]
            spec = (room.settings.takeover_bot if seat in run.taken
                    else room.seats[seat].bot if 0 <= seat < len(room.seats) else None)
            if spec is not None:
                self._searched(seat, cpu, spec)
        if room.run is not run or run.version != version:
            self.stale_answers += 1
            return False, None
        return True, move

    def _searched(self, seat: int, cpu: float, spec: str) -> None:
        """Keep a searched move's CPU time; log one beyond its budget and the slack."""
        budget = move_budget(spec)
        if budget is None:
            return
        self.searches.append((seat, cpu, budget))
        if cpu > budget + MOVE_SLACK:
            log.warning("a %s move at table %s took %.3f s of CPU (budget %.3f s)",
                        spec, self.room.table_id, cpu, budget)

    # ------------------------------------------------------------------ breather

    def after_move(self, run: GameRun, seat: int, events: list[Event]) -> bool:
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
        if self.room.settings.breather <= 0:
            return False
        if not self.waiting_for():
            return False
        self.breather = {
            "until": time.monotonic() + self.room.settings.breather,
            "hand": sum(1 for _, e in run.log if e.kind == "hand_end"),
            "ready": set(),
        }
        self.clock = None
        return True

    def waiting_for(self) -> list[int]:
        """The people a breather waits for: connected, seated, not played by a bot."""
        room = self.room
        taken = room.run.taken if room.run is not None else {}
        return [s.seat for s in room.seats
                if s.kind == "human" and s.conns > 0 and s.seat not in taken]

    def breather_json(self) -> dict[str, Any]:
        """The ``breather`` message: who is ready, who is waited for, seconds left."""
        b = self.breather
        if b is None:
            return {"type": "breather", "over": True}
        waiting = self.waiting_for()
        return {"type": "breather", "over": False, "hand": b["hand"],
                "seconds": max(0.0, round(b["until"] - time.monotonic(), 1)),
                "ready": sorted(b["ready"]),
                "waiting": [s for s in waiting if s not in b["ready"]]}

    def _send_breather(self) -> None:
        text = dumps(self.breather_json())
        for c in self.room.conns:
            if c.greeted:
                c.send(text)

    def ready(self, seat: int | None) -> None:
        """A person pressed "Next hand"."""
        if self.breather is None or seat is None:
            return
        self.breather["ready"].add(seat)
        self.check_ready()

    def check_ready(self) -> None:
        """End the breather if its time is up or everyone waited for is ready; tell all."""
        b = self.breather
        if b is None:
            return
        if time.monotonic() >= b["until"] or all(
            s in b["ready"] for s in self.waiting_for()
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
            self.check_ready()
            return None
        return left

    # ------------------------------------------------------------------ the turn timer

    def _clock_seat(self, run: GameRun) -> int | None:
        """The person whose turn the timer counts (None: nobody is on the clock)."""
        room = self.room
        if (room.settings.turn_timer is None or self.breather is not None
                or run.state.is_terminal()):
            return None
        seat = run.state.current_player()
        if not 0 <= seat < room.players:
            return None
        info = room.seats[seat]
        if info.kind != "human" or seat in run.taken or seat in run.bots:
            return None
        if not run.state.legal_actions(seat):
            return None
        if self.clock is None or self.clock[0] != seat:
            self.clock = (seat, time.monotonic())
        return seat

    def clock_json(self) -> dict[str, Any] | None:
        """The turn timer now: ``{seat, seconds, left}`` (None: no clock running)."""
        run = self.room.run
        if run is None or self._clock_seat(run) is None or self.clock is None:
            return None
        timer = self.room.settings.turn_timer
        assert timer is not None
        seat, started = self.clock
        left = max(0.0, timer - (time.monotonic() - started))
        return {"seat": seat, "seconds": timer, "left": round(left, 2)}

    def _timed_out(self, run: GameRun) -> tuple[int, float | None]:
        """The seat whose time ran out (-1: none) and the seconds until the next runs out."""
        seat = self._clock_seat(run)
        timer = self.room.settings.turn_timer
        if seat is None or self.clock is None or timer is None:
            return -1, None
        left = timer - (time.monotonic() - self.clock[1])
        return (seat, None) if left <= 0 else (-1, left)

    def timer_move(self, run: GameRun, seat: int) -> Action:
        """The move made for ``seat`` when its time ran out: the takeover bot's choice.

        The bot sees only the seat's view, with the generators of the version
        (:func:`decision_rngs`), so the move follows from the record (:func:`timer_choice`).
        """
        room = self.room
        return timer_choice(run.state, seat, room.settings.takeover_bot,
                            decision_rngs(run.seed, run.version, room.players), room.table_id)
