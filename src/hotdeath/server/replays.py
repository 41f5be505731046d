"""Replays served cheaply and in bounded pieces: checkpoints per game, pages of steps.

``GET /api/games/{id}/replay`` once rebuilt the whole game and sent every step on every
request (a 79,070-step game: 174 MB in 10.9 s, serialised on the event loop).  Now:

* a game is replayed **once** into checkpoints (a clone of the state every
  :data:`CHECKPOINT_EVERY` actions), kept in an LRU of :data:`CACHE_GAMES` games; a
  running game's checkpoints grow with it (its record only ever gains actions);
* a request gets one **page**: the steps from ``start``, at most ``count``
  (:data:`MAX_PAGE_STEPS`) and about :data:`MAX_PAGE_BYTES` of JSON, rebuilt from the
  nearest checkpoint and serialised off the event loop (``next`` says where the next page
  starts);
* pages are built in :data:`REPLAY_WORKERS` worker **processes** shared by every client
  (:class:`ReplayWorkers`; a game always goes to the same one, which reads the record
  itself and holds its checkpoints), so the server's event loop only passes the finished
  text on: a page build is pure Python, and in a thread of the server's process it would
  hold the GIL the loop needs (another table's ping p99 with four readers of a
  50,000-step game: 78–344 ms in threads, 11 ms in processes; the run log in
  benchmarks/results/, §9).
  The server's own ``__main__`` must be guarded (``if __name__ == "__main__"``): a worker
  is started with ``spawn``, which imports it;
* one client address may have :data:`PER_ADDRESS` requests under way (more:
  ``rate_limited``).

What a page shows is as before: a finished game everything (hands included), a running
one only what the caller's seat (or a spectator) may see.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import secrets
import signal
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Final

import sqlalchemy as sa

from hotdeath.actions import Action
from hotdeath.cards import card_code
from hotdeath.events import Event
from hotdeath.server.store import DealRow, GameRows, deal_scheme_of, read_game_since
from hotdeath.state import GameState
from hotdeath.words import pending_words

CHECKPOINT_EVERY: Final = 500
"""Actions between two checkpoints: a page is rebuilt from at most this many actions."""
CACHE_GAMES: Final = 16
"""Games whose checkpoints stay in memory (least recently used ones are dropped)."""
MAX_PAGE_STEPS: Final = 200
"""The most steps a page holds (and the default ``count``)."""
MAX_PAGE_BYTES: Final = 1_500_000
"""A page stops after the step that passes this much JSON (at least one step)."""
REPLAY_WORKERS: Final = 2
"""Processes that build pages, for every client together (others wait their turn)."""
WATCH_SECONDS: Final = 1.0
"""How often a worker checks that the server that started it still runs."""
PER_ADDRESS: Final = 2
"""Replay requests one client address may have under way at once."""


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass
class _Game:
    """One game's checkpoints: ``points[k]`` is the state after ``k * CHECKPOINT_EVERY``."""

    points: list[GameState] = field(default_factory=list)
    built: int = 0
    """Actions replayed into :attr:`tip` so far."""
    tip: GameState | None = None
    """The state after :attr:`built` actions (extended when the record grows)."""
    final: dict[str, Any] | None = None
    """A finished game's record (built once)."""
    actions: list[tuple[int, str]] = field(default_factory=list)
    """The game's actions read so far (a page reads only the newer ones)."""
    rows: tuple[dict[str, Any], dict[int, DealRow]] | None = None
    """The game's row and deals as last read."""
    lock: threading.Lock = field(default_factory=threading.Lock)


class ReplayCache:
    """Checkpoints of recently replayed games, and the pages built from them."""

    def __init__(self, games: int = CACHE_GAMES) -> None:
        self.games = games
        self._entries: OrderedDict[str, _Game] = OrderedDict()
        self._lock = threading.Lock()
        self.builds = 0
        """Actions applied to build checkpoints (a game's are applied once)."""

    def _entry(self, game_id: str) -> _Game:
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None:
                entry = self._entries[game_id] = _Game()
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.games:
                self._entries.popitem(last=False)
            return entry

    def _extend(self, entry: _Game, row: dict[str, Any], actions: list[tuple[int, str]]) -> None:
        """Replay the actions not yet in ``entry`` (checkpoints on the way)."""
        if entry.tip is None:
            import hotdeath

            entry.tip = hotdeath.new_game(row["variant"], row["players"], int(row["seed"]),
                                          row["preset"], row["options"], row.get("dealer"),
                                          deal_scheme_of(row))
            entry.points = [entry.tip.clone()]
        state = entry.tip
        for seat, text in actions[entry.built:]:
            state.step(Action.parse(text), seat)
            entry.built += 1
            self.builds += 1
            if entry.built % CHECKPOINT_EVERY == 0:
                entry.points.append(state.clone())

    def read(
        self, read: Callable[[str, int], GameRows | None], game_id: str, key: str | None = None,
        need: int | None = None,
    ) -> GameRows | None:
        """The game's rows, reading only the actions this cache does not hold yet.

        ``read(game_id, known)`` reads the rows after ``known`` actions
        (:func:`~hotdeath.server.store.read_game_since`); ``key`` names the game in this
        cache (default: its id).  Nothing is read for a finished game read before (its
        rows no longer change), nor when ``need`` actions are held already.
        """
        entry = self._entry(key or game_id)
        with entry.lock:
            known = len(entry.actions)
            if entry.rows is not None and (
                entry.rows[0]["status"] == "finished" or (need is not None and known >= need)
            ):
                return entry.rows[0], list(entry.actions), entry.rows[1]
            loaded = read(game_id, known)
            if loaded is None:
                return None
            row, newer, deals = loaded
            entry.actions.extend(newer)
            entry.rows = row, deals
            return row, list(entry.actions), deals

    def page(
        self, row: dict[str, Any], actions: list[tuple[int, str]], seat: int | None,
        full: bool, theme: str, start: int, count: int, key: str | None = None,
    ) -> tuple[list[str], int | None, dict[str, Any] | None]:
        """Steps ``start``… (at most ``count``) as JSON texts, and where the next page starts.

        Also the finished game's record (None for a running one).  Step 0 is the opening;
        step *k* follows the *k*-th action.  ``key`` names the game in this cache (default:
        its id).
        """
        from hotdeath.notation import record
        from hotdeath.server.messages import event_json, rule_at_table

        entry = self._entry(key or str(row["id"]))
        total = len(actions) + 1
        with entry.lock:
            self._extend(entry, row, actions)
            if full and entry.final is None:
                assert entry.tip is not None
                entry.final = record(entry.tip)
            point = max(0, start - 1) // CHECKPOINT_EVERY
            state = entry.points[min(point, len(entry.points) - 1)].clone()
            final = entry.final if full else None
        done = (min(point, len(entry.points) - 1)) * CHECKPOINT_EVERY
        for s, text in actions[done:max(0, start - 1)]:
            state.step(Action.parse(text), s)
        names: list[str] = list(row["names"])
        said: dict[str, tuple[str, str]] = {}

        def rules(rule_id: str) -> tuple[str, str]:
            """A rule's words at this game's table, as the live events had them."""
            got = said.get(rule_id)
            if got is None:
                got = said[rule_id] = rule_at_table(rule_id, str(row["variant"]),
                                                    str(row["preset"]), dict(row["options"]),
                                                    theme)
            return got

        def step(index: int, s: int | None, text: str | None, events: list[Event]) -> str:
            view = state.view(None if full else seat)
            attack = pending_words(view.attack, names, theme)
            out: dict[str, Any] = {
                "index": index, "seat": s, "action": text,
                "events": [
                    event_json(e, e.seat if full else seat, index, names, theme, rules)
                    for e in events
                ],
                "view": view.to_json(),
                "attack_words": None if attack is None else attack.to_json(),
            }
            if full:
                out["hands"] = [[card_code(c) for c in h] for h in state.hands]
            return _dumps(out)

        texts: list[str] = []
        size = 0
        index = start
        end = min(total, start + max(1, count))
        if index == 0:
            texts.append(step(0, None, None, list(state.opening_events)))
            size += len(texts[-1])
            index = 1
        while index < end and (size < MAX_PAGE_BYTES or not texts):
            s, text = actions[index - 1]
            events = state.apply_action(Action.parse(text), s)
            texts.append(step(index, s, text, events))
            size += len(texts[-1])
            index += 1
        return texts, (index if index < total else None), final


# ---------------------------------------------------------------- the worker processes

_cache = ReplayCache()
"""A worker process's checkpoints (keyed by the app's key and the game id)."""
_engines: dict[str, sa.Engine] = {}


def used_hints(row: dict[str, Any]) -> list[list[int]]:
    """The hints people used in a game (its row): ``[seat, count]`` pairs."""
    return [[int(h[0]), int(h[1])] for h in row.get("hints") or []]


def _worker_start() -> None:
    """A worker ignores Ctrl-C (the server stops it) and ends when the server has gone.

    A terminal's SIGINT reaches both; a server killed outright (SIGKILL) cannot stop its
    workers, so each watches for that itself.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="hotdeath-replay-watch", daemon=True).start()


def _reader(url: str) -> Callable[[str, int], GameRows | None]:
    """Reads of the database at ``url`` with this process's engine.

    No pooled connection outlives a read, so a database the server has closed is not held
    open.
    """
    engine = _engines.get(url)
    if engine is None:
        engine = _engines[url] = sa.create_engine(url, poolclass=sa.pool.NullPool)
    return lambda game_id, known: read_game_since(engine, game_id, known)


def _worker_head(
    key: str, url: str, game_id: str
) -> tuple[dict[str, Any], int, dict[int, DealRow]] | None:
    """In a worker: the game's row, its number of actions and its deals (None: no game)."""
    loaded = _cache.read(_reader(url), game_id, f"{key}/{game_id}")
    if loaded is None:
        return None
    row, actions, deals = loaded
    return row, len(actions), deals


@dataclass(frozen=True, slots=True)
class Page:
    """A page built in a worker, as text: what the server's loop only passes on."""

    steps: str
    """The steps' JSON objects, comma-separated."""
    next: int | None
    record: str | None
    """A finished game's record as JSON (first page only), else None."""
    builds: int
    """Actions the worker applied to build checkpoints for this page."""
    pid: int
    """The process that built it."""


def _worker_page(
    key: str, url: str, game_id: str, actions: int, seat: int | None, full: bool,
    theme: str, start: int, count: int,
) -> Page | None:
    """In a worker: a page of the game's first ``actions`` actions (None: no game)."""
    name = f"{key}/{game_id}"
    loaded = _cache.read(_reader(url), game_id, name, actions)
    if loaded is None:
        return None
    row, known, _deals = loaded
    builds = _cache.builds
    texts, nxt, final = _cache.page(row, known[:actions], seat, full, theme, start, count,
                                    name)
    rec = None
    if start == 0 and final is not None:
        people = [s for s in range(int(row["players"])) if str(s) not in dict(row["bots"])]
        rec = _dumps({**final, "preset": row["preset"], "names": row["names"],
                      "people": people, "hints": used_hints(row)})
    return Page(",".join(texts), nxt, rec, _cache.builds - builds, os.getpid())


_pools: list[ProcessPoolExecutor | None] = [None] * REPLAY_WORKERS
_pools_lock = threading.Lock()
_servers = 0
"""How many servers' :class:`ReplayWorkers` are open: the last to close stops the workers."""


class ReplayWorkers:
    """One server's way to the replay worker processes.

    The workers are shared by every server in a process and started on first use, each
    with a cache of its own; a game always goes to the same worker, so its checkpoints are
    built once.
    """

    def __init__(self, url: str) -> None:
        self._open = False
        self.url = url
        self.key = secrets.token_hex(8)
        """This server's name in the workers' caches (two servers' games never mix)."""
        self.builds = 0
        """Actions the workers applied to build this server's checkpoints."""
        self.builders: set[int] = set()
        """The processes that built this server's pages."""

    def open(self) -> None:
        """Count this server among those using the workers (its start-up)."""
        global _servers
        with _pools_lock:
            if not self._open:
                self._open = True
                _servers += 1

    async def close(self) -> None:
        """Say this server is done with the workers; the last server to close stops them.

        Stopped here, each worker's queues and locks are released by the process that made
        them; left to the interpreter's exit (SIGTERM under a service manager) they were
        reported as leaked semaphores.  A later page starts a worker afresh.
        """
        global _servers
        with _pools_lock:
            if not self._open:
                return
            self._open = False
            _servers -= 1
            if _servers > 0:
                return
            pools = [p for p in _pools if p is not None]
            _pools[:] = [None] * REPLAY_WORKERS
        for pool in pools:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)

    @staticmethod
    def _pool(game_id: str, broken: ProcessPoolExecutor | None = None) -> ProcessPoolExecutor:
        """The game's worker (started now if need be; a new one in place of ``broken``)."""
        at = zlib.crc32(game_id.encode()) % REPLAY_WORKERS
        with _pools_lock:
            pool = _pools[at]
            if pool is None or pool is broken:
                pool = _pools[at] = ProcessPoolExecutor(
                    1, multiprocessing.get_context("spawn"), initializer=_worker_start
                )
            return pool

    async def _run(self, game_id: str, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        pool = self._pool(game_id)
        try:
            return await loop.run_in_executor(pool, fn, *args)
        except BrokenProcessPool:  # the worker died (killed, out of memory): a new one
            pool = self._pool(game_id, pool)
            return await loop.run_in_executor(pool, fn, *args)

    async def head(self, game_id: str) -> tuple[dict[str, Any], int, dict[int, DealRow]] | None:
        """The game's row, its number of actions and its deals (None: no such game)."""
        found: tuple[dict[str, Any], int, dict[int, DealRow]] | None = await self._run(
            game_id, _worker_head, self.key, self.url, game_id
        )
        return found

    async def page(
        self, game_id: str, actions: int, seat: int | None, full: bool, theme: str,
        start: int, count: int,
    ) -> Page | None:
        """A page of the game's first ``actions`` actions (see :meth:`ReplayCache.page`)."""
        page: Page | None = await self._run(
            game_id, _worker_page, self.key, self.url, game_id, actions, seat, full, theme,
            start, count,
        )
        if page is not None:
            self.builds += page.builds
            self.builders.add(page.pid)
        return page
