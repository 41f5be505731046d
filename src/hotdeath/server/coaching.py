"""The coach at the server: hints at a table, and reviews of hands that are over.

:class:`Hints` answers a person's ``hint`` message: the coach (:func:`hotdeath.coach.hint`)
is given the seat's view only and searches in the hub's coach thread, so the event loop
keeps serving every table.  :class:`Reviews` computes the coach's review of a hand
(:func:`review_json`) in a worker process of its own, one at a time, caches it and stores
it with the game.
"""

from __future__ import annotations

import logging
import multiprocessing
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TYPE_CHECKING, Any

from hotdeath.coach import CoachError, hint, review
from hotdeath.notation import RECORD_FORMAT
from hotdeath.server.protocol import ProtocolError
from hotdeath.server.store import Store, deal_scheme_of
from hotdeath.server.writes import on_loop

if TYPE_CHECKING:
    from hotdeath.server.connections import Conn
    from hotdeath.server.room import Room

log = logging.getLogger("hotdeath.server")

REVIEW_SECONDS = 0.2
"""The coach's thinking time per decision in a review of a hand."""
REVIEW_BUDGET = 20.0
"""The most seconds one review of a hand may take (longer hands get less per decision)."""
REVIEWS_KEPT = 64
"""Reviews kept in memory (every one is also stored with its game)."""
REVIEWS_WAITING = 8
"""Reviews one server computes or holds waiting at once; more are refused (``coach_busy``)."""


class Hints:
    """A table's hints from the coach (the hints given are part of the game's record)."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def ask(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A person asks the coach for a hint: computed off the event loop, then sent.

        The coach is given the seat's view only (computed here, on the loop); the search
        runs in the hub's coach thread for :attr:`Hub.hint_seconds
        <hotdeath.server.hub.Hub.hint_seconds>`.  The answer is a ``hint`` message to the
        asking connection, and the hint is recorded with the game.
        """
        room = self.room
        msg_id = msg.get("id")
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", "spectators get no hints", msg_id)
        if not room.hints_on:
            raise ProtocolError("hints_off", "hints from the coach are off at this table",
                                msg_id)
        run = room.run
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
        fut = room.hub.coach.submit(
            hint, view, room.hub.hint_seconds, 0, None, list(run.names), room.theme
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
                log.exception("a hint failed at table %s", room.table_id)
                conn.send_json(ProtocolError("server_error", "the coach could not answer",
                                             msg_id).to_json())
                return
            index = len(run.state.history) + 1 if run.version == version else -1
            if index > 0 and [seat, index] not in run.hints:
                run.hints.append([seat, index])
                room.writes.when_saved(
                    room.store.record_hints(room.table_id, run.game_id, list(run.hints)),
                    _nothing, episode=False)
            conn.send_json({
                "type": "hint", "id": msg_id, "version": version,
                "fresh": run.version == version and room.run is run,
                "hint": given.to_json(), "lines": given.lines(),
                "used": sum(1 for h in run.hints if h[0] == seat),
            })

        on_loop(fut, answered)


class Reviews:
    """The coach's reviews of hands: computed once in a worker process, cached, stored.

    ``seconds`` is the thinking time per decision, ``budget`` the most seconds one review
    takes.
    """

    def __init__(self, store: Store, seconds: float = REVIEW_SECONDS,
                 budget: float = REVIEW_BUDGET) -> None:
        self.store = store
        self.seconds = seconds
        self.budget = budget
        self.cache: OrderedDict[tuple[str, str], Future[dict[str, Any]]] = OrderedDict()
        """Reviews computed or being computed, by game and ``"hand:seat"`` (newest last)."""
        self._pool: ProcessPoolExecutor | None = None
        """The review worker process (started on the first review; see :meth:`worker`)."""

    def review(self, row: Mapping[str, Any], actions: list[tuple[int, str]], hand: int,
               seat: int, theme: str) -> Future[dict[str, Any]]:
        """The coach's review of ``hand`` for ``seat`` of the game of ``row``.

        Cached: a review stored with the game is answered at once, one being computed is
        shared; otherwise it is computed in the review process (:meth:`worker`, at most
        :attr:`budget` seconds) and then stored with the game.  Raises
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
        fut = self.cache.get((game_id, key))
        if fut is not None and not (fut.done() and fut.exception() is not None):
            self.cache.move_to_end((game_id, key))
            return fut
        if sum(not f.done() for f in self.cache.values()) >= REVIEWS_WAITING:
            raise CoachError("coach_busy", "the coach is busy with other reviews: ask again "
                             "in a minute")
        rec = {
            "format": RECORD_FORMAT, "variant": row["variant"], "options": row["options"],
            "players": int(row["players"]), "seed": int(row["seed"]), "preset": row["preset"],
            "dealer": row.get("dealer"), "deal_scheme": deal_scheme_of(row),
            "actions": [[s, a] for s, a in actions],
        }
        job = partial(review_json, rec, hand, seat, list(row["names"]), theme,
                      self.seconds, self.budget)
        pool = self.worker()
        try:
            fut = pool.submit(job)
        except BrokenProcessPool:  # the worker died (killed, out of memory): a new one
            fut = self.worker(pool).submit(job)
        self.cache[(game_id, key)] = fut
        for old in [k for k, f in self.cache.items() if f.done()]:
            if len(self.cache) <= REVIEWS_KEPT:
                break
            del self.cache[old]

        def stored_now(f: Future[dict[str, Any]]) -> None:
            if not f.cancelled() and f.exception() is None:
                self.store.record_review(str(row["table_id"]), game_id, key, f.result())

        fut.add_done_callback(stored_now)
        return fut

    def worker(self, broken: ProcessPoolExecutor | None = None) -> ProcessPoolExecutor:
        """The process where this server's reviews are computed, one at a time.

        A review searches for up to :attr:`budget` seconds; in a process of its own it
        never holds the event loop's interpreter lock (the tables' pings and moves go on
        at full speed, as with the replay workers).  Started on first use; a new one in
        place of ``broken``.
        """
        if self._pool is None or self._pool is broken:
            self._pool = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        """Stop the review process: a review under way ends now, not at its budget."""
        if self._pool is None:
            return
        workers = list((self._pool._processes or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for proc in workers:
            proc.terminate()


def _nothing() -> None:
    """What the table does once the hints are stored: nothing more."""


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
