"""The store's writer: each table's jobs in order, the tables served in turn, writes batched.

Every statement of the server goes through one :class:`Writer` (docs/architecture.md,
"One ordered writer").  A job belongs to a *lane*, the table it is about (reads that
concern no table share the lane ``""``): the jobs of a lane run in the order they were
submitted, so a table's actions are written in the order they were applied and a read of
a table sees every write of it submitted before.  Lanes do not wait for each other: for a
database server, one thread of the writer serves the lanes in turn (round robin), so a
table with many writes queued delays another table's join by at most one round, not by
its whole backlog (issue 23, N1).  Within a round the writes of every lane (up to
:data:`LANE_BATCH` of one table, :data:`ROUND_WRITES` in all) are made in one transaction
by :class:`Commits`: one commit for many tables' changes, each lane's in its order.  When
that transaction fails, each of its writes is made again alone, so only the one that
fails fails, as if they had never been batched.

A write still queued, or being made but not yet committing, can be withdrawn
(:meth:`Writer.withdraw`): a REST change whose client stopped waiting, or that waited
longer than its bound, is then neither made nor acknowledged.

For SQLite the writer runs each job at once in the caller's thread (``threaded=False``):
its commits take a fraction of a millisecond and a hand-over between threads costs more.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine

log = logging.getLogger("hotdeath.server")
T = TypeVar("T")

LANE_BATCH = 16
"""The most writes of one table made in one round (one transaction)."""
ROUND_WRITES = 64
"""The most writes of one round, all tables together; the next tables wait one round."""

QUEUED, RUNNING, SEALED, WITHDRAWN = range(4)
"""Where a job stands: queued, being run, committing (too late to withdraw), withdrawn."""


class Quiet(Exception):
    """A failed job the store has already logged (the writer does not log it again)."""


class SaveRefused(Quiet):
    """A write not made because an earlier write of the same table failed."""


class WriteFailed(Quiet):
    """A write the database refused (the cause is chained); logged once per episode."""


class LeaseLost(WriteFailed):
    """A write of a table another server process holds now: made by neither.

    With several processes on one database every write of a table checks, in its own
    transaction, that the ``leases`` row still names this process (docs/architecture.md,
    "Several server processes"); a process whose lease was taken over while it stalled
    learns it here, before it acknowledges anything.
    """


class Withdrawn(Quiet):
    """A write withdrawn before it committed (its client stopped waiting): not made."""


@dataclass(frozen=True, slots=True)
class Write:
    """One change of a table, made in a transaction with the others of its round.

    ``chain``: part of the table's game record (refused after a failed one, never written
    with a gap); ``fenced``: checks the table's lease first (several processes).
    """

    table_id: str
    what: str
    step: Callable[[sa.Connection], None]
    chain: bool = False
    fenced: bool = True


class Job(Future[T]):
    """A submitted job: its future, its lane, and where it stands (:data:`QUEUED` …)."""

    def __init__(self, lane: str, what: str, lock: threading.RLock,
                 call: Callable[[], T] | None = None, write: Write | None = None) -> None:
        super().__init__()
        self.set_running_or_notify_cancel()  # a waiter that is cancelled cannot cancel it
        self.lane = lane
        self.what = what
        self.call = call
        self.write = write
        self.lock = lock
        self.stage = QUEUED
        self.finished = False
        """The writer is through with it (done, refused or skipped as withdrawn)."""

    def take(self) -> bool:
        """Start it (the writer's thread); False if it was withdrawn."""
        with self.lock:
            if self.stage != QUEUED:
                return False
            self.stage = RUNNING
            return True

    def withdraw(self) -> bool:
        """Fail it with :class:`Withdrawn` unless it is committing or done; True if so."""
        with self.lock:
            if self.stage not in (QUEUED, RUNNING) or self.done():
                return False
            self.stage = WITHDRAWN
        self.set_exception(Withdrawn(f"{self.what}: withdrawn, not made"))
        return True


def seal(jobs: list[Job[Any]]) -> bool:
    """Mark ``jobs`` committing (none may be withdrawn from now); False if one was."""
    if not jobs:
        return True
    with jobs[0].lock:
        if any(j.stage != RUNNING for j in jobs):
            return False
        for j in jobs:
            j.stage = SEALED
    return True


class Writer:
    """Runs database jobs: in order within a lane, the lanes in turn.

    Threaded (the default): one thread of its own runs them, and :meth:`submit` returns at
    once.  Inline (``threaded=False``): :meth:`submit` runs the job in the caller's thread
    and returns its finished future, the same interface with no hand-over between threads.
    ``commit`` makes a round's writes (:meth:`Commits.run`).
    """

    def __init__(self, commit: Callable[[list[Job[None]]], None], name: str = "hotdeath-db",
                 threaded: bool = True) -> None:
        self._commit = commit
        self._jobs: queue.SimpleQueue[Job[Any] | None] = queue.SimpleQueue()
        self._lanes: dict[str, collections.deque[Job[Any]]] = {}
        """The lanes with queued jobs (the writer's thread only), in the order served."""
        self._tails: dict[str, Job[Any]] = {}
        """Each lane's newest job not yet finished (under the lock)."""
        self.threaded = threaded
        self._lock = threading.RLock()  # inline: a job may queue another (same thread)
        self._closed = False
        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._work, name=name, daemon=True)
            self._thread.start()

    def submit(self, job: Callable[[], T], what: str, lane: str = "") -> Job[T]:
        """Queue ``job`` in ``lane`` (``what`` names it in the log); the future: its outcome.

        The future cannot be cancelled (it is marked running at once): a task awaiting
        it that is cancelled (a client went away) must not cancel a queued write, nor
        leave the writer a cancelled future to set (which would stop its thread).
        """
        return self._queue(Job(lane, what, self._lock, call=job))

    def submit_write(self, write: Write) -> Job[None]:
        """Queue a change of a table (its lane), to be made with its round's others."""
        return self._queue(Job(write.table_id, f"{write.what} (table {write.table_id})",
                               self._lock, write=write))

    def _queue(self, job: Job[T]) -> Job[T]:
        with self._lock:
            if self._closed:
                job.set_exception(RuntimeError(f"the store is closed ({job.what})"))
                return job
            if self._thread is None:
                self._run_now(job)
                return job
            self._tails[job.lane] = job
            self._jobs.put(job)
        return job

    def _run_now(self, job: Job[Any]) -> None:
        if job.write is not None:
            self._commit([job])
        elif job.take():
            run(job)
        job.finished = True

    @staticmethod
    def withdraw(fut: Future[Any]) -> bool:
        """Withdraw a write not yet committing (its future fails with :class:`Withdrawn`).

        True if withdrawn: it will not be made.  False if it is committing or done (await
        its outcome), or if ``fut`` is no job of a writer.
        """
        return isinstance(fut, Job) and fut.write is not None and fut.withdraw()

    def barrier(self) -> Future[None]:
        """A future done when every job submitted so far is finished."""
        done: Future[None] = Future()
        with self._lock:
            waits = [self._queue(Job(lane, "barrier", self._lock, call=_nothing))
                     for lane, tail in list(self._tails.items()) if not tail.finished]
        if not waits:
            done.set_result(None)
            return done
        left = [len(waits)]
        count = threading.Lock()

        def one(_f: Future[Any]) -> None:
            with count:
                left[0] -= 1
                last = left[0] == 0
            if last:
                done.set_result(None)

        for w in waits:
            w.add_done_callback(one)
        return done

    # ------------------------------------------------------------------ the thread

    def _work(self) -> None:
        closing = False
        while True:
            if not self._lanes:
                if closing:
                    return
                closing = self._add(self._jobs.get()) or closing
            while True:  # everything submitted so far goes to its lane
                try:
                    item = self._jobs.get_nowait()
                except queue.Empty:
                    break
                closing = self._add(item) or closing
            if self._lanes:
                self._round()

    def _add(self, job: Job[Any] | None) -> bool:
        """Put ``job`` in its lane; True for the mark of :meth:`close`."""
        if job is None:
            return True
        lane = self._lanes.get(job.lane)
        if lane is None:
            lane = self._lanes[job.lane] = collections.deque()
        lane.append(job)
        return False

    def _round(self) -> None:
        """Serve each lane once: its next writes (one transaction for all), or one job."""
        writes: list[Job[None]] = []
        jobs: list[Job[Any]] = []
        for name in list(self._lanes):
            lane = self._lanes.pop(name)
            head = lane[0]
            if head.write is None:
                jobs.append(lane.popleft())
            elif not head.write.fenced:  # it takes a table's lease: alone in its lane
                writes.append(lane.popleft())
            else:
                n = 0
                while lane and n < LANE_BATCH and lane[0].write is not None and (
                        lane[0].write.fenced):
                    writes.append(lane.popleft())
                    n += 1
            if lane:
                self._lanes[name] = lane  # served: to the end of the turn
            if len(writes) >= ROUND_WRITES:
                break
        if writes:
            self._commit(writes)
        for job in jobs:
            if job.take():
                run(job)
        self._finish([*writes, *jobs])

    def _finish(self, jobs: Iterable[Job[Any]]) -> None:
        with self._lock:
            for job in jobs:
                job.finished = True
                if self._tails.get(job.lane) is job:
                    del self._tails[job.lane]

    def close(self) -> None:
        """Run every job queued so far, then stop the thread (later jobs are refused)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._thread is None:
                return
            self._jobs.put(None)
        self._thread.join()


def _nothing() -> None:
    """A barrier's job."""


def run(job: Job[Any]) -> None:
    """Run a plain job (a read, a barrier) and set its future."""
    assert job.call is not None
    try:
        result = job.call()
    except Quiet as e:
        job.set_exception(e)
    except Exception as e:
        log.exception("database: %s failed", job.what)
        job.set_exception(e)
    else:
        job.set_result(result)


def reason(e: BaseException) -> str:
    """One line for a database error (SQLAlchemy's text without the statement)."""
    orig = getattr(e, "orig", None)
    text = str(orig if orig is not None else e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:300]


class _Again(Exception):
    """A transaction rolled back because a write of it was withdrawn."""


class Commits:
    """Makes a store's writes: a round's in one transaction, or one alone.

    Owns what the writes of a table share between rounds (only the writer's thread
    touches it): the tables whose record is refused since a write of it failed
    (``broken``), the tables in a failure episode (logged once), and the counts.
    """

    def __init__(self, engine: Engine, leases: sa.Table) -> None:
        self.engine = engine
        self.leases = leases
        self.server_id: str | None = None
        """This process's id when it shares the database: fenced writes check it."""
        self.broken: set[str] = set()
        """Tables whose record writes are refused since one failed."""
        self.taken: set[str] = set()
        """Of :attr:`broken`, the tables refused because another process holds them: the
        writes queued after the refusal are refused for that reason too (a move away, not
        a failure)."""
        self.failing: set[str] = set()
        """Tables whose last write failed: their next failures are not logged again."""
        self.failures = 0
        """Writes the database refused (a count, for tests and the log)."""
        self.fenced = 0
        """Writes refused because another process holds the table now (a count)."""

    def run(self, jobs: list[Job[None]]) -> None:
        """Make ``jobs`` (in order); each one's future gets its outcome."""
        ready: list[Job[None]] = []
        for job in jobs:
            write = job.write
            assert write is not None
            if not job.take():  # withdrawn: the rest of its record waits for a reload
                if write.chain:
                    self.broken.add(write.table_id)
            elif not self._refused(job, write):
                ready.append(job)
        if len(ready) == 1:
            self._alone(ready[0])
        elif ready:
            try:
                self._together(ready)
            except Exception:  # one failed or was withdrawn: each alone, so only it fails
                for job in ready:
                    with job.lock:
                        if job.stage == SEALED:  # the commit itself failed
                            job.stage = RUNNING
                    self._alone(job)

    def _refused(self, job: Job[None], write: Write) -> bool:
        """Refuse a record write of a table whose earlier write failed (True if so).

        Refused as moved (:class:`LeaseLost`) when that write found another process holding
        the table, as a failure (:class:`SaveRefused`) otherwise.
        """
        if not (write.chain and write.table_id in self.broken):
            return False
        if write.table_id in self.taken:
            self.fenced += 1
            log.debug("database: %s not written: another server process holds table %s "
                      "now", job.what, write.table_id)
            self._fail(job, LeaseLost(f"table {write.table_id} is held by another server "
                                      "process now"))
            return True
        log.debug("database: %s not written: an earlier write failed", job.what)
        self._fail(job, SaveRefused(f"an earlier write of table {write.table_id} failed"))
        return True

    @staticmethod
    def _fail(job: Job[None], error: Exception) -> None:
        """Fail ``job`` with ``error`` unless it was withdrawn meanwhile (failed already)."""
        if seal([job]):
            job.set_exception(error)

    def _holders(self, c: sa.Connection, tables: set[str]) -> dict[str, str]:
        """Lock the lease rows of ``tables`` (``FOR SHARE``); who holds each."""
        rows = c.execute(
            sa.select(self.leases.c.table_id, self.leases.c.server_id)
            .where(self.leases.c.table_id.in_(sorted(tables))).with_for_update(read=True)
        ).all()
        return {str(t): str(s) for t, s in rows}

    def _together(self, jobs: list[Job[None]]) -> None:
        server_id = self.server_id
        with self.engine.begin() as c:
            lost: set[str] = set()
            if server_id is not None:
                fenced = {j.write.table_id for j in jobs if j.write and j.write.fenced}
                holders = self._holders(c, fenced) if fenced else {}
                lost = {t for t in fenced if holders.get(t) != server_id}
            doing = [j for j in jobs if j.write and not (j.write.fenced
                                                         and j.write.table_id in lost)]
            for job in doing:
                assert job.write is not None
                job.write.step(c)
            if not seal(doing):
                raise _Again  # rolled back: the others are made again, alone
        made = {id(j) for j in doing}
        for job in jobs:
            if id(job) in made:
                self._made(job)
            else:
                self._lost(job)

    def _alone(self, job: Job[None]) -> None:
        write = job.write
        assert write is not None
        if job.stage == WITHDRAWN:
            if write.chain:
                self.broken.add(write.table_id)
            return
        if self._refused(job, write):
            return
        server_id = self.server_id if write.fenced else None
        try:
            with self.engine.begin() as c:
                if server_id is not None and self._holders(
                        c, {write.table_id}).get(write.table_id) != server_id:
                    raise LeaseLost(f"table {write.table_id} is held by another server "
                                    "process now")
                write.step(c)
                if not seal([job]):
                    raise _Again  # withdrawn while it was being made: rolled back
        except _Again:
            if write.chain:
                self.broken.add(write.table_id)
        except LeaseLost:
            self._lost(job)
        except Exception as e:
            if write.chain:
                self.broken.add(write.table_id)
            self.failures += 1
            self._log_failure(write.table_id, write.what, e)
            error = WriteFailed(f"the database refused to {write.what}: {reason(e)}")
            error.__cause__ = e
            with job.lock:
                if job.stage == SEALED:  # the commit failed: nobody may withdraw it now
                    job.stage = RUNNING
            self._fail(job, error)
        else:
            self._made(job)

    def _made(self, job: Job[None]) -> None:
        assert job.write is not None
        if self.failing:
            self.failing.discard(job.write.table_id)
        job.set_result(None)

    def _lost(self, job: Job[None]) -> None:
        write = job.write
        assert write is not None
        if write.chain:
            self.broken.add(write.table_id)
            self.taken.add(write.table_id)
        self.fenced += 1
        log.info("database: %s not written: another server process holds table %s now",
                 write.what, write.table_id)
        self._fail(job, LeaseLost(f"table {write.table_id} is held by another server "
                                  "process now"))

    def _log_failure(self, table_id: str, what: str, e: Exception) -> None:
        """Log a failed write once per episode (until a write of that table works again).

        The first failure while every table writes fine is logged with its traceback; the
        first of another table meanwhile in one line; the later ones of a failing table
        only at debug level (no retry storm in the log).
        """
        if table_id in self.failing:
            log.debug("database: %s failed again: %s", what, reason(e))
        elif self.failing:
            self.failing.add(table_id)
            log.error("database: %s failed: %s", what, reason(e))
        else:
            self.failing.add(table_id)
            log.error("database: %s failed", what, exc_info=e)

    def log_failure(self, table_id: str, what: str, e: Exception) -> None:
        """:meth:`_log_failure` for a read of the store (a table's reload)."""
        self._log_failure(table_id, what, e)
