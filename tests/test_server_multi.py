"""Several ``hotdeath serve`` processes on one PostgreSQL database (docs/architecture.md).

Real subprocesses on free loopback ports, each with its own ``--public-url`` and a lease
of two seconds (``--lease-seconds``) so that a takeover takes seconds, not ten.
A table created through one process is played through another's address; the owner is
killed (SIGKILL) mid-hand and the other serves the table within the lease time with every
acknowledged action and the bots' moves of an undisturbed game; processes racing for the
same tables never both apply actions to one.  Without PostgreSQL these skip (and fail in
CI, like every PostgreSQL test: tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import hotdeath
from hotdeath.actions import Action
from hotdeath.bots import make_bot
from hotdeath.bots.arena import next_bot_move
from hotdeath.server.commitment import install
from hotdeath.server.driver import decision_rngs
from hotdeath.server.hub import Hub
from hotdeath.server.leases import Claim, Leases
from hotdeath.server.store import Store
from tests.pgcluster import free_port
from tests.support import ceiling, stored_rows
from tests.test_browser import Server, browser  # noqa: F401 (the Chromium fixture)

ROOT = Path(__file__).resolve().parent.parent
LEASE = 3.0
"""The lease time of the processes here (seconds): short for quick takeovers, long enough
that a live process's event loop, stalled by a busy machine, does not lose its tables (at
2 s, three test workers on two cores once let a process's heartbeat lapse while four
threads hammered it: both survivors then played the same tables for a moment, their
second writes refused by the action log's key)."""


class Proc(Server):
    """A ``hotdeath serve`` process sharing the database ``url`` (given in its environment,
    as docs/deploy.md does), with its own public address and a short lease."""

    def __init__(self, url: str, folder: Path, name: str) -> None:
        super().__init__(folder / f"{name}.db", free_port(), url)

    def command(self) -> list[str]:
        return [sys.executable, "-m", "hotdeath.cli", "serve", "--port", str(self.port),
                "--public-url", self.base, "--lease-seconds", str(LEASE),
                "--bot-delay", "0.02"]

    def environment(self) -> dict[str, str] | None:
        return {**os.environ, "HOTDEATH_DATABASE_URL": self.url}

    def pause(self) -> None:
        """Stall the process (SIGSTOP): its sockets stay open, and nothing answers."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a stalled process go on (SIGCONT)."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None:
            self.resume()  # a stalled process would not stop
        super().stop()

    def errors(self) -> list[str]:
        """Logged errors (a failed write, a traceback): none may appear.

        A relay to a killed process is a warning, expected until the lease runs out.
        """
        return [line for line in self.log.read_text().splitlines()
                if "ERROR" in line or "Traceback" in line or "could not be saved" in line]


@pytest.fixture
def procs(pg_url: str, tmp_path: Path) -> Any:
    """``procs("a", "b")``: processes of that name on the test's database, started at once."""
    started: list[Proc] = []

    def start(*names: str) -> list[Proc]:
        ps = [Proc(pg_url, tmp_path, name).launch() for name in names]
        started.extend(ps)
        return [p.wait() for p in ps]

    yield start
    for p in started:
        p.stop()


def _owner_url(url: str, table_id: str) -> str | None:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            return c.execute(sa.text(
                "SELECT s.url FROM leases l JOIN servers s ON s.id = l.server_id "
                "WHERE l.table_id = :t"), {"t": table_id}).scalar()
    finally:
        engine.dispose()


def _renewed_after(url: str, p: Proc, other: Proc) -> None:
    """Wait until ``p`` renewed its heartbeat after ``other`` started (it knows it then)."""
    engine = sa.create_engine(url)
    deadline = time.monotonic() + ceiling(30)
    try:
        while True:
            with engine.connect() as c:
                if c.execute(sa.text(
                        "SELECT p.heartbeat_at > o.started_at FROM servers p, servers o "
                        "WHERE p.url = :p AND o.url = :o"),
                        {"p": p.base, "o": other.base}).scalar():
                    return
            assert time.monotonic() < deadline, f"{p.base} does not renew"
            time.sleep(0.1)
    finally:
        engine.dispose()


def _table(p: Proc, bots: dict[int, str], seats: int = 4) -> dict[str, Any]:
    made: dict[str, Any] = p.api("/api/tables", {
        "variant": "hotdeath", "seats": seats, "bots": {str(k): v for k, v in bots.items()},
        "bot_delay": 0.02, "takeover_timeout": None})
    return made


def _check_identical(url: str, game_id: str, people: set[int]) -> int:
    """Replay the stored record: every bot's move is the one an undisturbed server makes.

    The bots' generators are a function of (seed, version); a game that changed process
    continues exactly when each stored bot action is what :func:`next_bot_move` gives
    on the record before it.  Returns the number of stored actions.
    """
    store = Store(url)
    try:
        found = store.load_game(game_id)
    finally:
        store.close()
    assert found is not None
    row, actions, _deals = found
    seed = int(row["seed"])
    state = hotdeath.new_game(row["variant"], row["players"], seed, row["preset"],
                              row["options"])
    install(state)
    bots = {int(s): make_bot(spec) for s, spec in dict(row["bots"]).items()}
    for version, (seat, text) in enumerate(actions):
        action = Action.parse(text)
        if seat not in people:
            expected = next_bot_move(state, bots, decision_rngs(seed, version, row["players"]))
            assert expected == (seat, action), (version, expected, seat, text)
        state.apply_action(action, seat)
    return len(actions)


class Client:
    """A person's WebSocket at a table (sync client), playing the first legal action."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        self.ws_url = base.replace("http", "ws", 1) + f"/ws/{table_id}"
        self.token = token
        self.states: list[dict[str, Any]] = []
        self.ws: Any = None

    def connect(self) -> None:
        from websockets.sync.client import connect

        self.ws = connect(self.ws_url, open_timeout=5).__enter__()  # closed by close()
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))

    def version(self) -> int:
        return int(self.states[-1]["version"]) if self.states else -1

    def play_until(self, version: int, timeout: float = 20) -> None:
        """Read the states (acting on our turns) until the game reaches ``version``."""
        deadline = time.monotonic() + ceiling(timeout)
        n = 0
        while self.version() < version:
            assert time.monotonic() < deadline, f"stuck at version {self.version()}"
            msg = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if msg["type"] != "state":
                continue
            self.states.append(msg)
            view = msg["view"]
            if msg["results"] and view.get("phase") == "game_over":
                return
            if view["legal_actions"] and view["current_player"] == 0:
                n += 1
                self.ws.send(json.dumps({"type": "action", "action": view["legal_actions"][0],
                                         "version": msg["version"], "id": f"m{version}-{n}"}))

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):  # already closed by the server
                self.ws.close()
            self.ws = None


def test_the_owner_killed_mid_hand_another_process_plays_on_identically(
    procs: Any, pg_url: str
) -> None:
    """Created through A, joined, started and played through B; A killed mid-hand."""
    a, b = procs("a", "b")
    made = _table(a, {1: "basic", 2: "basic", 3: "basic"})
    table_id = made["table_id"]
    joined = b.api(f"/api/tables/{table_id}/join", {"name": "Ann", "seat": 0})
    b.api(f"/api/tables/{table_id}/start", {}, token=made["host_token"])
    assert _owner_url(pg_url, table_id) == a.base  # the creator plays it; B forwarded
    assert b.api(f"/api/tables/{table_id}")["status"] == "playing"
    listed = a.api("/api/tables", {"variant": "standard", "seats": 2, "public": True})
    lobby = b.api("/api/tables")["tables"]  # the lobby reads the database, any process
    assert [t["table_id"] for t in lobby] == [listed["table_id"]]
    assert lobby == a.api("/api/tables")["tables"]
    ann = Client(b.base, table_id, joined["token"])  # through B, relayed to A
    ann.connect()
    ann.play_until(8)
    acknowledged = ann.version()
    seen = {s["version"]: s["last_action"] for s in ann.states if s["last_action"]}
    game_id = ann.states[-1]["game_id"]

    a.kill()
    killed = time.monotonic()
    back = None
    while back is None:  # the relay closed: reconnect as the page does
        assert time.monotonic() - killed < ceiling(LEASE + 10), "nobody took the table over"
        try:
            ann.play_until(acknowledged + 1, timeout=0.5)
            back = time.monotonic() - killed
        except Exception:
            ann.close()
            time.sleep(0.1)
            with contextlib.suppress(Exception):  # nobody serves it yet: try again
                ann.connect()
    # B plays it now, taken over once A's lease ran out (not before)
    assert _owner_url(pg_url, table_id) == b.base
    assert back < ceiling(LEASE + 8), back
    ann.play_until(acknowledged + 8)
    ann.close()
    # every acknowledged action is in the record, in its place
    store = Store(pg_url)
    try:
        found = store.load_game(game_id)
    finally:
        store.close()
    assert found is not None
    actions = found[1]
    assert len(actions) >= ann.version() > acknowledged
    for version, last in seen.items():
        assert (last["seat"], last["action"]) == tuple(actions[version - 1])
    _check_identical(pg_url, game_id, {0})
    assert not b.errors()


def test_processes_racing_for_tables_never_both_play_one(procs: Any, pg_url: str) -> None:
    """Two survivors take over the bots' games of a killed third at the same moment."""
    a, b, c = procs("a", "b", "c")
    tables = []
    for _ in range(4):
        made = _table(c, {0: "basic", 1: "random", 2: "basic", 3: "random"})
        c.api(f"/api/tables/{made['table_id']}/start", {}, token=made["host_token"])
        tables.append(made["table_id"])
    for t in tables:  # C's bots have made a few moves: the survivors take over games under way
        _wait_for_actions(pg_url, t, 3)
    c.kill()
    stop = threading.Event()

    def ask(p: Proc) -> None:  # each survivor is asked for every table, over and over
        while not stop.is_set():
            for t in tables:
                with contextlib.suppress(urllib.error.HTTPError, OSError):
                    p.api(f"/api/tables/{t}")

    before = {t: _check_identical(pg_url, _games_of(pg_url, t)[-1], set()) for t in tables}
    askers = [threading.Thread(target=ask, args=(p,)) for p in (a, b, a, b)]
    for th in askers:
        th.start()
    deadline = time.monotonic() + ceiling(LEASE + 15)
    owners: dict[str, str | None] = {}
    while time.monotonic() < deadline:  # until the survivors hold every table
        owners = {t: _owner_url(pg_url, t) for t in tables}
        if set(owners.values()) <= {a.base, b.base}:
            break
        time.sleep(0.1)
    assert set(owners.values()) <= {a.base, b.base}, owners
    for t in tables:  # the bots play on where they were taken over, both survivors asked
        _wait_for_actions(pg_url, t, before[t] + 3)
    stop.set()
    for th in askers:
        th.join()
    a.stop()
    b.stop()
    # two processes applying actions to one table would both write its next action's
    # (game, index) key: the second write fails, and its process logs it
    assert not a.errors() and not b.errors(), a.errors() + b.errors()
    for t in tables:  # each game went on (bots play on) exactly as it would have
        assert _check_identical(pg_url, _games_of(pg_url, t)[-1], set()) > before[t]


def _wait_for_actions(url: str, table_id: str, count: int) -> None:
    """Wait until the table's latest game has at least ``count`` actions stored."""
    deadline = time.monotonic() + ceiling(LEASE + 30)
    while True:
        games = _games_of(url, table_id)
        store = Store(url)
        try:
            found = store.load_game(games[-1]) if games else None
        finally:
            store.close()
        stored = len(found[1]) if found is not None else 0
        if stored >= count:
            return
        assert time.monotonic() < deadline, f"{table_id}: {stored} actions stored, not {count}"
        time.sleep(0.1)


def _games_of(url: str, table_id: str) -> list[str]:
    store = Store(url)
    try:
        return store.table_games(table_id)
    finally:
        store.close()


def test_writes_queued_behind_a_lost_lease_are_refused_as_moved_not_failed(
    pg_url: str,
) -> None:
    """A table taken over while its writes were queued: each of them is a move away.

    The first refused write raises :class:`LeaseLost`; the ones queued behind it must too
    (the table is dropped here, no error), not ``SaveRefused``, a failed write that the
    table logs as an error and backs off from (seen under load: a survivor whose heartbeat
    lapsed while it played a taken-over table logged "could not be saved").
    """
    from hotdeath.server.store import LeaseLost

    store = Store(pg_url)
    try:
        mine, other = (Leases(store.engine, f"http://{n}", LEASE) for n in ("mine", "other"))
        mine.register()
        other.register()
        store.server_id = mine.server_id
        store.create_table(
            {"id": "moved", "name": "t", "variant": "hotdeath", "preset": "standard",
             "options": {}, "players": 2, "theme": "family", "bot_delay": 0.0,
             "takeover_timeout": None, "takeover_bot": "basic", "host_token_hash": "x",
             "status": "playing", "game_id": None},
            [{"seat": 0}, {"seat": 1}]).result()
        with store.engine.begin() as c:  # the other process took it over meanwhile
            c.execute(sa.text("UPDATE leases SET server_id = :s WHERE table_id = 'moved'"),
                      {"s": other.server_id})
        queued = [store.record_action("moved", "g", i, 0, "draw") for i in (1, 2, 3)]
        for fut in queued:
            with pytest.raises(LeaseLost):
                fut.result()
        assert store.fenced == 3 and store.failures == 0
    finally:
        store.close()


def test_claims_race_one_winner_per_table_and_takeover_only_after_the_lease(
    pg_url: str,
) -> None:
    """Leases in threads: many claims at once give each table exactly one holder."""
    store = Store(pg_url)
    try:
        ids = []
        for i in range(8):
            tid = f"race{i}"
            ids.append(tid)
            store.create_table(
                {"id": tid, "name": "t", "variant": "hotdeath", "preset": "standard",
                 "options": {}, "players": 2, "theme": "family", "bot_delay": 0.0,
                 "takeover_timeout": None, "takeover_bot": "basic",
                 "host_token_hash": "x", "status": "playing", "game_id": None},
                [{"seat": 0}, {"seat": 1}]).result()
        sides = [Leases(store.engine, f"http://side{n}", seconds=2.0) for n in range(4)]
        for side in sides:
            side.register()
        won: dict[str, list[int]] = {t: [] for t in ids}
        barrier = threading.Barrier(len(sides))

        def claim(n: int) -> None:
            barrier.wait()
            for t in ids:
                got = sides[n].claim(t)
                while got is Claim.BUSY:
                    got = sides[n].claim(t)
                if got is Claim.HERE:
                    won[t].append(n)

        threads = [threading.Thread(target=claim, args=(n,)) for n in range(len(sides))]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert all(len(w) == 1 for w in won.values()), won
        first = {t: w[0] for t, w in won.items()}
        # the holders stay alive: nobody else may take a table
        for side in sides:
            side.heartbeat()
        for n, side in enumerate(sides):
            for t in ids:
                got = side.claim(t)
                assert (got is Claim.HERE) == (first[t] == n), (t, n, got)
        # side 0 stops renewing: after the lease time its tables go, once each
        time.sleep(2.3)
        for side in sides[1:]:
            side.heartbeat()
        lost = [t for t in ids if first[t] == 0]
        taken = [x for side in sides[1:] for x in side.adopt(50)]
        assert sorted(taken) == sorted(lost)
        assert sides[0].heartbeat().held == set()  # back: it holds nothing now
    finally:
        store.close()




@contextlib.asynccontextmanager
async def _two_leased_hubs(pg_url: str) -> AsyncIterator[tuple[list[Store], Hub, Hub]]:
    """Two hubs on one PostgreSQL database with leases of ``LEASE`` seconds, restored.

    Yields their stores and the two hubs; closes them all on the way out.
    """
    stores = [Store(pg_url), Store(pg_url)]
    hubs = [Hub(st, bot_delay=0.02, leases=Leases(st.engine, f"http://hub{i}", LEASE))
            for i, st in enumerate(stores)]
    try:
        for hub in hubs:
            hub.restore()
        yield stores, hubs[0], hubs[1]
    finally:
        for hub in hubs:
            await hub.close()
        for st in stores:
            st.close()


@pytest.mark.asyncio
async def test_a_resumed_owner_asking_about_a_lost_table_drops_it_in_its_renewal(
    pg_url: str,
) -> None:
    """``still_held`` past the lease renews first, and that renewal drops the lost table.

    A process resumed after its lease ran out checks a table (a failed write does):
    every connection's sender waits for the same renewal before it sends anything queued.
    When the check took the table out of ``held`` before renewing, the renewal had
    nothing to drop, the senders found their connections open and sent a stale message,
    and the table was dropped only after (a hog run: a ``table`` message before the 1012).
    """
    async with _two_leased_hubs(pg_url) as (stores, a, b):
        room, _host = a.create_table("hotdeath", None, {}, 2, {}, "family", 0.02, None,
                                     None, None)  # people only: A writes nothing more
        await asyncio.wrap_future(room.writes.last_write or stores[0].barrier())
        table_id = room.table_id
        assert a.keeper is not None and a.keeper._task is not None
        a.keeper._task.cancel()  # A stalls: no renewal, and its lease time has run out
        a.keeper.valid_until = time.monotonic() - 1
        with stores[0].engine.begin() as c:
            c.execute(sa.text("UPDATE servers SET heartbeat_at = '1970-01-01' WHERE id = :i"),
                      {"i": a.keeper.leases.server_id})
        assert await b.load(table_id) is not None  # B takes it over meanwhile
        keeper = a.keeper
        seen: list[bool] = []

        async def sender() -> None:  # what a connection's sender does when A resumes
            await asyncio.sleep(0)
            await keeper.confirm()
            seen.append(table_id in a.rooms)  # still there: what it holds goes out

        task = asyncio.get_running_loop().create_task(sender())
        assert await keeper.still_held(table_id) is False
        await task
        assert seen == [False]
        assert table_id not in a.rooms and table_id in b.rooms


def test_an_owner_stopped_inside_a_transaction_loses_its_table_all_the_same(
    pg_url: str,
) -> None:
    """An owner stopped between two statements of a write still loses its table.

    Its write had locked the table's lease row (``FOR SHARE``, the write's lease check)
    and the others' adoption skips locked rows: a process stopped there (SIGSTOP, a paused
    VM) kept its table for as long as it stayed stopped (seen under load: nobody took a
    stalled owner's table over in 33 s).  PostgreSQL now ends a session idle in a
    transaction for longer than the lease time, and its lock goes with it.
    """
    stores = [Store(pg_url), Store(pg_url)]
    stalled = None
    try:
        mine = Leases(stores[0].engine, "http://mine", seconds=1.0)
        other = Leases(stores[1].engine, "http://other", seconds=1.0)
        mine.register()
        other.register()
        stores[0].server_id = mine.server_id
        stores[0].create_table(
            {"id": "stalled", "name": "t", "variant": "hotdeath", "preset": "standard",
             "options": {}, "players": 2, "theme": "family", "bot_delay": 0.0,
             "takeover_timeout": None, "takeover_bot": "basic", "host_token_hash": "x",
             "status": "playing", "game_id": None},
            [{"seat": 0}, {"seat": 1}]).result()
        stalled = stores[0].engine.connect()
        stalled.begin()
        stalled.execute(sa.text(
            "SELECT server_id FROM leases WHERE table_id = 'stalled' FOR SHARE"))
        # the owner stops here: no commit, no heartbeat
        deadline = time.monotonic() + ceiling(15)
        taken: list[str] = []
        while not taken:
            assert time.monotonic() < deadline, "the stopped owner's table was never adopted"
            other.heartbeat()
            taken = other.adopt(10)
            if not taken:
                time.sleep(0.05)  # (polling the database for the adoption)
        assert taken == ["stalled"]
        assert stored_rows(pg_url, "SELECT server_id FROM leases WHERE table_id = 'stalled'"
                           ) == [(other.server_id,)]
        late = sa.text("UPDATE tables SET name = 'late' WHERE id = 'stalled'")
        with pytest.raises(sa.exc.DBAPIError):  # resumed: its session is gone, nothing made
            stalled.execute(late)
        with stores[1].engine.connect() as c:
            assert c.execute(sa.text("SELECT name FROM tables WHERE id = 'stalled'")
                             ).scalar_one() == "t"
    finally:
        if stalled is not None:
            with contextlib.suppress(Exception):
                stalled.close()
        for st in stores:
            st.close()


def test_a_second_server_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    """SQLite is for one process: the second ``serve`` says so instead of sharing it."""
    url = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    first = Proc(url, tmp_path, "first").launch().wait()
    try:
        second = subprocess.run(
            [sys.executable, "-m", "hotdeath.cli", "serve", "--port", str(free_port()),
             "--database-url", url], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        assert "database_in_use" in second.stderr and "PostgreSQL" in second.stderr
    finally:
        first.stop()
    assert first.proc is not None and first.proc.returncode is not None


@pytest.mark.asyncio
async def test_a_stalled_owner_cannot_write_a_table_taken_over_and_drops_it(
    pg_url: str, caplog: pytest.LogCaptureFixture,
) -> None:
    """Every write of a table checks its lease in its own transaction (a stalled owner).

    Hub A plays a table of bots; its heartbeat stops and is made to look run out while A
    plays on (as a process stalled past its lease); hub B takes the table over.  A's next
    write finds the lease row naming B and is refused before anything is written; A drops
    the table at once (its heartbeat is still stopped) and logs no error; B never meets a
    refused write.  The record is one game, every bot's move the one an undisturbed
    server makes.
    """
    async with _two_leased_hubs(pg_url) as (stores, a, b):
        room, _host = a.create_table("hotdeath", None, {}, 4, dict.fromkeys(range(4), "basic"),
                                     "family", 0.02, None, None, None)
        await asyncio.wrap_future(room.writes.last_write or stores[0].barrier())
        await asyncio.sleep(0)
        room.start()
        table_id = room.table_id
        assert room.run is not None
        game_id = room.run.game_id
        while room.run.version < 5:
            await asyncio.sleep(0.02)
        assert a.keeper is not None and a.keeper._task is not None
        a.keeper._task.cancel()  # A stops renewing, and plays on
        a.keeper.valid_until = float("inf")  # and believes its leases are fresh
        with stores[0].engine.begin() as c:
            c.execute(sa.text("UPDATE servers SET heartbeat_at = '1970-01-01' WHERE id = :i"),
                      {"i": a.keeper.leases.server_id})
        caplog.clear()
        taken = await b.load(table_id)  # B takes it over: A's lease looks run out
        assert taken is not None and b.keeper is not None and table_id in b.keeper.held
        deadline = time.monotonic() + ceiling(LEASE + 40)
        while table_id in a.rooms:  # A's next write is refused: A drops the table
            assert time.monotonic() < deadline, "A played on"
            await asyncio.sleep(0.02)
        assert stores[0].fenced >= 1 and table_id not in a.keeper.held
        version = taken.run.version if taken.run is not None else 0
        while taken.run is not None and taken.run.version < version + 5:
            assert time.monotonic() < deadline, "B does not play on"
            await asyncio.sleep(0.05)
        assert table_id in b.rooms
        assert stores[0].failures == stores[1].failures == 0  # no write reached the database
        errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
        assert not errors, errors
    _check_identical(pg_url, game_id, set())


@pytest.mark.asyncio
async def test_the_terminal_client_comes_back_by_itself_when_the_owner_is_killed(
    procs: Any, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hotdeath play --connect`` at B's address: A killed, the game goes on in it."""
    from hotdeath.tui.app import HotDeathApp
    from hotdeath.tui.remote import RemoteSession
    from tests.test_tui import SIZE

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    a, b = procs("a", "b")
    made = _table(a, {1: "basic", 2: "basic", 3: "basic"})
    table_id = made["table_id"]
    session = RemoteSession.connect(f"{b.base}/t/{table_id}", "Ann")
    a.api(f"/api/tables/{table_id}/start", {}, token=made["host_token"])
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        def stuck() -> str:
            return (f"waiting {session.waiting}, my turn {session.my_turn()}, screen "
                    f"{type(app.screen).__name__}, message {app.message.plain!r}, outbox "
                    f"{session.outbox}, connected {app._ws is not None}; B's log: "
                    f"{b.log.read_text()[-1500:]}")

        await _play_remote(app, pilot, session, 4, 30, stuck)
        a.kill()
        # B takes the table over once A's lease has run out (versions A made before its
        # end may still be on their way to the client then, so they prove nothing)
        deadline = time.monotonic() + ceiling(LEASE + 25)
        while _owner_url(pg_url, table_id) != b.base:
            assert time.monotonic() < deadline, f"B did not take the table over: {stuck()}"
            await pilot.pause(0.1)  # (polling the database)
        taken = session.version
        await _play_remote(app, pilot, session, taken + 4, 30, stuck)
        assert session.version >= taken + 4 or session.over()
    assert _owner_url(pg_url, table_id) == b.base
    _check_identical(pg_url, str(session.game_id), {0})


async def _play_remote(app: Any, pilot: Any, session: Any, version: int,
                       timeout: float, why: Callable[[], str] = str) -> None:
    """Play the terminal client's seat with its keys until the game reaches ``version``.

    ``why``: what to say beside the version when it is stuck (``timeout`` scaled by
    :func:`~tests.support.ceiling`).
    """
    from hotdeath import actions as A
    from hotdeath.tui.app import ChoiceScreen, ScoreScreen
    from tests.test_tui import check_hand_marks

    deadline = time.monotonic() + ceiling(timeout)
    while session.version < version and not session.over():
        assert time.monotonic() < deadline, f"stuck at version {session.version}: {why()}"
        await pilot.pause(0.02)
        if isinstance(app.screen, ScoreScreen | ChoiceScreen):
            await pilot.press("enter")
        elif session.my_turn() and not session.waiting:
            first = check_hand_marks(app)
            kinds = {x.kind for x in session.legal()}
            if first >= 0:
                await pilot.press("home", *["down"] * first, "enter")
            else:
                await pilot.press("d" if A.DRAW in kinds else "o", "enter")


STALL_ANSWERED = 10.0
"""Seconds within which the clients of a stalled owner are answered by the new owner."""


@pytest.mark.asyncio
async def test_a_stalled_owner_s_terminal_client_is_answered_by_the_new_owner(
    procs: Any, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hotdeath play --connect`` at A's own address; A stalls (SIGSTOP) mid-game.

    Its sockets stay open and say nothing: the client notices the silence (A sent a
    heartbeat every 2 s before), turns to B (the table's ``welcome`` named both
    processes), and B, which took the table over once A's lease ran out, answers it
    within 10 s of the stall; the game goes on there.
    """
    from hotdeath.tui.app import HotDeathApp
    from hotdeath.tui.remote import RemoteSession
    from tests.test_tui import SIZE

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    a, b = procs("a", "b")
    _renewed_after(pg_url, a, b)  # A knows B: its welcome names both
    made = _table(a, {1: "basic", 2: "basic", 3: "basic"})
    table_id = made["table_id"]
    session = RemoteSession.connect(f"{a.base}/t/{table_id}", "Ann")
    heard: list[tuple[float, str, str]] = []  # when, from which address, what
    handle = session.handle

    def recording(msg: dict[str, Any]) -> None:
        heard.append((time.monotonic(), session.base, str(msg.get("type"))))
        handle(msg)

    monkeypatch.setattr(session, "handle", recording)
    a.api(f"/api/tables/{table_id}/start", {}, token=made["host_token"])
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await _play_remote(app, pilot, session, 4, 30)
        assert sorted(session.servers) == sorted([a.base, b.base])
        deadline = time.monotonic() + ceiling(30)
        while not any(kind == "heartbeat" for _t, _base, kind in heard):  # Ann's turn: the
            assert time.monotonic() < deadline, "no heartbeat"  # table waits, A beats
            await pilot.pause(0.05)
        a.pause()
        stalled = time.monotonic()
        try:
            answer = None
            while answer is None:
                assert time.monotonic() - stalled < 60, f"nobody answers: {heard[-5:]}"
                await pilot.pause(0.05)
                answer = next((t for t, base, kind in heard
                               if t > stalled and base == b.base and kind == "state"), None)
            assert answer - stalled < STALL_ANSWERED, answer - stalled
            assert _owner_url(pg_url, table_id) == b.base
            acknowledged = session.version
            await _play_remote(app, pilot, session, acknowledged + 3, 30)
        finally:
            a.resume()
    _check_identical(pg_url, str(session.game_id), {0})
    assert not b.errors()


def test_a_resumed_owner_closes_a_lost_table_s_sockets_before_sending_anything(
    procs: Any, pg_url: str
) -> None:
    """A stalls past its lease; B adopts the table; A resumes (SIGCONT).

    A's client of that table, which kept its socket all along, gets nothing from A after
    the resume (no heartbeat, no state: A's memory of the table is out of date) but the
    close (1012) within seconds; a new connection through A's address reaches B.
    """
    from websockets.exceptions import ConnectionClosed

    a, b = procs("a", "b")
    made = _table(a, {1: "basic", 2: "basic", 3: "basic"})
    table_id = made["table_id"]
    joined = a.api(f"/api/tables/{table_id}/join", {"name": "Ann", "seat": 0})
    a.api(f"/api/tables/{table_id}/start", {}, token=made["host_token"])
    ann = Client(a.base, table_id, joined["token"])
    ann.connect()
    deadline = time.monotonic() + ceiling(30)
    while True:  # until the game waits for Ann (nobody plays her seat)
        assert time.monotonic() < deadline, "Ann's turn never came"
        msg = json.loads(ann.ws.recv(timeout=ceiling(10)))
        if msg["type"] == "state" and msg["view"]["current_player"] == 0 and (
                msg["view"]["legal_actions"]):
            break
    a.pause()
    try:
        before = []
        deadline = time.monotonic() + ceiling(LEASE + 30)
        while _owner_url(pg_url, table_id) != b.base:  # B adopts it: A's lease ran out
            assert time.monotonic() < deadline, "B did not take the table over"
            with contextlib.suppress(TimeoutError):
                before.append(ann.ws.recv(timeout=0.2))
    finally:
        a.resume()
    after: list[str] = []
    code = None
    deadline = time.monotonic() + ceiling(15)
    while code is None:
        assert time.monotonic() < deadline, f"A kept the socket open: {after}"
        try:
            after.append(ann.ws.recv(timeout=1))
        except TimeoutError:
            continue
        except ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd is not None else None
            break
    assert after == [] and code == 1012, (after, code)
    again = Client(a.base, table_id, joined["token"])  # through A: relayed to B
    again.connect()
    again.play_until(0, timeout=30)
    assert again.states[-1]["game_id"] == msg["game_id"]
    again.close()
    ann.close()
    assert not b.errors()


def _page_at_b_waiting(procs: Any, chromium: Any) -> tuple[Proc, Proc, str, Any]:
    """Processes A and B; a table of three bots A plays; Ann's page at B's address.

    Ann has played once and it is her turn again: the game waits for her, so the version
    stays put.  Returns A, B, the table and Ann's player.
    """
    from tests.test_browser import _play_moves, _player, _until_my_turn

    a, b = procs("a", "b")
    made = _table(a, {1: "basic", 2: "basic", 3: "basic"})
    table_id = made["table_id"]
    joined = a.api(f"/api/tables/{table_id}/join", {"name": "Ann", "seat": 0})
    a.api(f"/api/tables/{table_id}/start", {}, token=made["host_token"])
    ann = _player(chromium)
    ann.page.goto(f"{b.base}/t/{table_id}?token={joined['token']}")
    ann.page.wait_for_selector("body[data-connected='1']")
    _play_moves(ann, 1)
    _until_my_turn(ann)  # the game waits for Ann: the version stays put
    return a, b, table_id, ann


def test_the_page_comes_back_by_itself_when_the_owner_is_killed(
    procs: Any, pg_url: str, browser: Any  # noqa: F811 (the fixture imported above)
) -> None:
    """Chromium at B's address plays a table A owns; A is killed; the page reconnects.

    The last test of the module: Playwright's synchronous API holds an event loop until
    its module-scoped fixture closes, and the terminal client's test needs its own.
    """
    from tests.test_browser import _diagnose, _play_moves

    a, b, table_id, ann = _page_at_b_waiting(procs, browser)
    version = ann.version()
    a.kill()
    ann.page.wait_for_selector("#conn.offline")
    ann.page.wait_for_selector("body[data-connected='1']", timeout=ceiling(20) * 1000)
    ann.page.wait_for_selector(f"body[data-version='{version}']")
    assert _owner_url(pg_url, table_id) == b.base, _diagnose(ann)
    _play_moves(ann, 1)
    assert ann.version() > version
    ann.close()


def test_the_page_comes_back_by_itself_when_the_owner_stalls(
    procs: Any, pg_url: str, browser: Any  # noqa: F811 (the fixture imported above)
) -> None:
    """Chromium at B, relayed to the owner A; A stalls (SIGSTOP) while the game waits.

    B's relay hears nothing from A (no pong, no heartbeat) and closes the page's socket;
    the page reconnects to B, which took the table over once A's lease ran out: the page
    is answered by the new owner within 10 s of the stall and plays on.
    """
    from tests.test_browser import _diagnose, _play_moves

    a, b, table_id, ann = _page_at_b_waiting(procs, browser)
    version = ann.version()
    a.pause()
    stalled = time.monotonic()
    try:
        ann.page.wait_for_selector("#conn.offline", timeout=ceiling(30) * 1000)
        ann.page.wait_for_selector("body[data-connected='1']", timeout=ceiling(30) * 1000)
        ann.page.wait_for_selector(f"body[data-version='{version}']")
        back = time.monotonic() - stalled
        assert back < STALL_ANSWERED, (back, _diagnose(ann))
        assert _owner_url(pg_url, table_id) == b.base, _diagnose(ann)
        _play_moves(ann, 1)
        assert ann.version() > version
    finally:
        a.resume()
    ann.close()
