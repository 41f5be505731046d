"""Root-parallel search: the parts of one ISMCTS decision searched in worker processes.

``ismcts:workers=N`` searches each decision N times at once, each part on its own sampled
deals (:func:`hotdeath.bots.ismcts.search_part`), and adds the parts' root tallies up
(:func:`~hotdeath.bots.ismcts.merge_parts`).  The calling process searches the first part
itself while N - 1 worker processes search the others.  The parts' seeds come from the
caller's generator, so the merged result depends only on it and on N when the budget is a
number of iterations.

A worker is ``python -m hotdeath.bots.parallel`` with the caller's ``sys.path`` (the same
``hotdeath``, compiled or not), reading pickled tasks on its standard input and writing
pickled answers on its standard output.  Plain subprocesses rather than a
``multiprocessing`` pool: nothing is forked from a process that runs threads (a server),
and no caller needs a ``__main__`` guard.  Idle workers are kept for the next search
(shared by every searching bot of the process, one task at a time each) and end when the
process exits (their input closes).

Interpreted on purpose: it only moves tasks; the search itself is compiled.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading
from typing import IO, Any

from hotdeath.bots.ismcts import Part, SearchSetting, search_part

_LOCK = threading.Lock()
_IDLE: list[_Worker] = []
_ALL: list[_Worker] = []


class WorkerError(RuntimeError):
    """A worker process failed or stopped during a search."""


class _Worker:
    """One worker process and its pipes."""

    def __init__(self) -> None:
        path = os.pathsep.join(p for p in sys.path if p)
        env = dict(os.environ, PYTHONPATH=path)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hotdeath.bots.parallel"], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    @property
    def pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        """Its input and output."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None
        assert stdout is not None
        return stdin, stdout

    def send(self, task: tuple[SearchSetting, int, int]) -> None:
        """Start a task (:func:`search_part`'s arguments)."""
        stdin, _ = self.pipes
        try:
            pickle.dump(task, stdin, protocol=pickle.HIGHEST_PROTOCOL)
            stdin.flush()
        except OSError as e:
            raise WorkerError(f"a search worker stopped: {e}") from None

    def answer(self) -> Part:
        """Wait for the task's result."""
        _, stdout = self.pipes
        try:
            kind, value = pickle.load(stdout)
        except (EOFError, OSError, pickle.UnpicklingError) as e:
            raise WorkerError(f"a search worker stopped: {e!r}") from None
        if kind != "part":
            raise WorkerError(f"a search worker failed: {value}")
        part: Part = value
        return part

    def close(self) -> None:
        """End the process (its input closes; it exits)."""
        stdin, stdout = self.pipes
        try:
            stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(timeout=10)
        stdout.close()


def _take(count: int) -> list[_Worker]:
    """``count`` idle workers (new ones started as needed)."""
    with _LOCK:
        taken = [_IDLE.pop() for _ in range(min(count, len(_IDLE)))]
    while len(taken) < count:
        worker = _Worker()
        with _LOCK:
            _ALL.append(worker)
        taken.append(worker)
    return taken


def _give_back(workers: list[_Worker]) -> None:
    with _LOCK:
        _IDLE.extend(workers)


def shutdown() -> None:
    """End every worker process (a later search starts new ones)."""
    with _LOCK:
        workers = list(_ALL)
        _ALL.clear()
        _IDLE.clear()
    for worker in workers:
        worker.close()


atexit.register(shutdown)


def search_parts(setting: SearchSetting, seeds: list[int], budgets: list[int],
                 local: bool = True) -> list[Part]:
    """Every part of a root-parallel search, in the order of ``seeds``.

    Part 0 is searched here (``local``; else by a worker too), the others by worker
    processes at the same time.  Raises :class:`WorkerError` when a worker fails (it is
    not reused).
    """
    first_remote = 0 if not local else 1
    workers = _take(len(seeds) - first_remote)
    healthy: list[_Worker] = []
    try:
        for i, worker in enumerate(workers, start=first_remote):
            worker.send((setting, seeds[i], budgets[i]))
        parts = [search_part(setting, seeds[0], budgets[0])] if local else []
        for worker in workers:
            parts.append(worker.answer())
            healthy.append(worker)
        return parts
    finally:
        _give_back(healthy)
        for worker in workers:
            if worker not in healthy:
                worker.close()


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """A worker's loop: answer each pickled task with ``("part", Part)`` or an error."""
    while True:
        try:
            task: Any = pickle.load(stdin)
        except EOFError:
            return
        try:
            answer: tuple[str, object] = ("part", search_part(*task))
        except Exception as e:  # any failure: the caller reports it
            answer = ("error", f"{type(e).__name__}: {e}")
        pickle.dump(answer, stdout, protocol=pickle.HIGHEST_PROTOCOL)
        stdout.flush()


__all__ = ["WorkerError", "search_parts", "serve", "shutdown"]

if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
