"""The container and the public deployment (Dockerfile, compose.yaml, deploy/, docs/deploy.md).

No container engine runs in the test environment, so what the image runs is tested here
directly: the entrypoint script serves the game and the image's health-check command
tells a live server from a dead one; the Dockerfile and the compose file are read and
checked for what the deployment relies on (PostgreSQL, two processes with their own
public addresses, Caddy with the Caddyfile, a non-root user, the health check, the
volume); and Caddy with ``deploy/Caddyfile`` is put in front of two real server
processes on PostgreSQL: WebSockets pass, each table's requests reach the process its id
hashes to, and a killed process's tables are served by the other.  Building the image
needs a container engine and its base image, which the test environment lacks: it is
built and run by hand (``docker build``, or podman as docs/deploy.md says).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import yaml

from hotdeath.server.health import check
from tests import support
from tests.pgcluster import free_port
from tests.support import ceiling
from tests.test_browser import Server
from tests.test_server_multi import Proc

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 60.0
"""Seconds any wait below may take on a busy machine before the test fails."""


def _get(url: str, timeout: float = 5) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            body = r.read()
            return r.status, json.loads(body) if "json" in r.headers["content-type"] else body
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def _until(what: str, probe: Any) -> Any:
    """Call ``probe`` until it returns something true; fail after :data:`DEADLINE`."""
    deadline = time.monotonic() + ceiling(DEADLINE)
    while True:
        try:
            got = probe()
        except OSError:
            got = None
        if got:
            return got
        assert time.monotonic() < deadline, f"waited {DEADLINE:.0f} s for {what}"
        time.sleep(0.1)


# ------------------------------------------------------------------ the image's commands


class EntrypointServer(Server):
    """The image's entrypoint (``deploy/entrypoint.sh``) run here, as the image runs it."""

    def command(self) -> list[str]:
        return ["sh", str(ROOT / "deploy" / "entrypoint.sh")]

    def environment(self) -> dict[str, str] | None:
        bindir = str(Path(sys.executable).parent)
        return {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
                "HOTDEATH_PORT": str(self.port), "HOTDEATH_DATABASE_URL": self.url}


def test_the_entrypoint_serves_the_game_and_the_health_check_tells_live_from_dead(
    tmp_path: Path,
) -> None:
    health = [sys.executable, "-m", "hotdeath.server.health"]
    server = EntrypointServer(tmp_path / "data" / "hotdeath.sqlite3")
    server.db.parent.mkdir()
    env = server.environment()
    server.start()
    try:
        status, page = _get(f"{server.base}/")
        assert status == 200 and b"<title>Hot Death" in page
        status, body = _get(f"{server.base}/healthz")
        assert status == 200 and body["status"] == "ok"
        # the image's HEALTHCHECK command, with the port from the environment as there
        ran = subprocess.run(health, env=env, capture_output=True, text=True, timeout=30,
                             check=False)
        assert ran.returncode == 0, ran.stderr
        assert ran.stdout.startswith("ok: hotdeath")
        assert f"127.0.0.1:{server.port}/healthz" in ran.stdout
        log = server.log.read_text()
        assert "serving in a container on port" in log
        assert "0.0.0.0" not in log.split("open http://", 1)[-1].split()[0]
    finally:
        server.stop()
    assert server.db.is_file()  # the database lives where HOTDEATH_DATABASE_URL says
    ran = subprocess.run(health, env=env, capture_output=True, text=True, timeout=30,
                         check=False)
    # one line saying why: nothing answers there now (or, on a busy machine, another
    # program took the port, and it is no hotdeath server)
    assert ran.returncode == 1 and ran.stderr.count("\n") == 1, ran.stderr
    assert ran.stderr.startswith(("no answer from", "unhealthy", "not a hotdeath")), ran.stderr


def test_the_health_check_loads_no_web_stack_and_warns_of_nothing() -> None:
    # run every 30 s in the container: the standard library and the core only, and no
    # warning (runpy warns of a module the package imported before running it)
    probe = ("import runpy, sys; sys.argv = ['health', 'http://127.0.0.1:1/healthz']\n"
             "try:\n    runpy.run_module('hotdeath.server.health', run_name='__main__')\n"
             "except SystemExit as e:\n"
             "    heavy = sorted({m.split('.')[0] for m in sys.modules}\n"
             "                   & {'fastapi', 'starlette', 'sqlalchemy', 'uvicorn'})\n"
             "    print(e.code, heavy)\n")
    ran = subprocess.run([sys.executable, "-W", "error", "-c", probe], capture_output=True,
                         text=True, timeout=60, check=False)
    assert ran.stdout.strip() == "1 []", (ran.stdout, ran.stderr)
    assert ran.stderr.startswith("no answer from") and ran.stderr.count("\n") == 1, ran.stderr


def test_the_entrypoint_runs_other_commands_as_given(tmp_path: Path) -> None:
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    ran = subprocess.run(["sh", str(ROOT / "deploy" / "entrypoint.sh"), "hotdeath",
                          "--version"], env=env, capture_output=True, text=True, timeout=60,
                         check=False)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("hotdeath ")


def test_the_entrypoint_says_when_the_volume_is_not_writable() -> None:
    # root may write anywhere: it runs as nobody then, as the image runs as its own user
    as_user = {"user": 65534, "cwd": "/"} if os.geteuid() == 0 else {}
    with tempfile.TemporaryDirectory() as top:  # a folder nobody may reach
        Path(top).chmod(0o755)
        locked = Path(top) / "locked"
        locked.mkdir(mode=0o555)
        env = {**os.environ, "HOTDEATH_DATABASE_URL": f"sqlite:///{locked}/hotdeath.sqlite3"}
        ran = subprocess.run(  # type: ignore[call-overload]
            ["sh", "-s"], input=(ROOT / "deploy" / "entrypoint.sh").read_text(), env=env,
            capture_output=True, text=True, timeout=60, check=False, **as_user)
    assert ran.returncode == 1
    assert f"cannot write to {locked}" in ran.stderr and "chown" in ran.stderr


def test_the_health_check_of_a_server_that_answers_an_error_fails(tmp_path: Path) -> None:
    server = Server(tmp_path / "server.sqlite3")
    server.start()
    try:
        ok, line = check(f"{server.base}/no-such-page")
    finally:
        server.stop()
    assert not ok and line.startswith("unhealthy: 404")


# ------------------------------------------------------------------ the files


def _dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined, comments left out)."""
    text = (ROOT / "Dockerfile").read_text()
    text = re.sub(r"\\\n", " ", text)
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_the_image_serves_sqlite_in_a_volume_as_a_user_without_privileges() -> None:
    steps = _dockerfile()
    final = steps[max(i for i, (w, _) in enumerate(steps) if w == "FROM"):]
    words = dict(final)  # the last of each instruction in the final stage
    user = words["USER"].split(":")[0]
    assert user not in ("root", "0")
    assert re.search(rf"useradd .*--uid 10001 .*\b{user}\b", words["RUN"])
    env = words["ENV"]
    assert "HOTDEATH_DATABASE_URL=sqlite:////data/" in env
    assert json.loads(words["VOLUME"]) == ["/data"]
    assert "chown hotdeath:hotdeath /data" in words["RUN"]
    assert words["EXPOSE"] == "8000" and "HOTDEATH_PORT=8000" in env
    assert words["HEALTHCHECK"].endswith('CMD ["python3", "-m", "hotdeath.server.health"]')
    assert json.loads(words["ENTRYPOINT"]) == ["hotdeath-entrypoint"]
    assert json.loads(words["CMD"]) == ["serve"]
    assert ("COPY", "deploy/entrypoint.sh /usr/local/bin/hotdeath-entrypoint") in final
    assert os.access(ROOT / "deploy" / "entrypoint.sh", os.X_OK)
    # the build installs the package with the PostgreSQL driver (compose.yaml runs on it)
    assert any(w == "RUN" and '/opt/hotdeath/bin/pip install ".[postgres]"' in rest
               for w, rest in steps)


def test_every_file_the_image_copies_exists_and_passes_the_dockerignore() -> None:
    allowed = [line[1:].rstrip("/") for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.startswith("!")]
    copied = []
    for word, rest in _dockerfile():
        if word == "COPY" and not rest.startswith("--from"):
            copied += rest.split()[:-1]
    assert copied
    for source in copied:
        assert (ROOT / source).exists(), source
        assert any(source == a or source.startswith(f"{a}/") for a in allowed), source
    # a local virtualenv, databases and the git folder never reach the build
    rules = [line for line in (ROOT / ".dockerignore").read_text().splitlines()
             if line and not line.startswith("#")]
    assert rules[0] == "*" and ".venv" not in allowed


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def test_the_compose_file_runs_postgresql_two_processes_and_caddy() -> None:
    compose = _compose()
    services = compose["services"]
    assert set(services) == {"db", "hotdeath1", "hotdeath2", "caddy"}
    db = services["db"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in db["healthcheck"]["test"]
    urls = set()
    for name in ("hotdeath1", "hotdeath2"):
        s = services[name]
        assert s["build"] == "." and s["image"] == "hotdeath:latest"
        assert s["depends_on"] == {"db": {"condition": "service_healthy"}}
        env = s["environment"]
        assert env["HOTDEATH_DATABASE_URL"].startswith("postgresql+psycopg://hotdeath:")
        assert env["HOTDEATH_DATABASE_URL"].endswith("@db/hotdeath")
        # its own public address, where the other process reaches it on the network
        assert env["HOTDEATH_PUBLIC_URL"] == f"http://{name}:8000"
        urls.add(env["HOTDEATH_PUBLIC_URL"])
        assert "ports" not in s  # reached only through Caddy
        assert s["networks"] == ["backend"] and s["restart"] == "unless-stopped"
    assert len(urls) == 2
    caddy = services["caddy"]
    assert caddy["image"].startswith("caddy:")
    assert {"80:80", "443:443"} <= set(caddy["ports"])
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    assert caddy["environment"]["HOTDEATH_UPSTREAMS"].split() == ["hotdeath1:8000",
                                                                   "hotdeath2:8000"]
    named = {v.split(":")[0] for s in services.values() for v in s.get("volumes", [])
             if not v.startswith(".")}
    assert named == set(compose["volumes"])
    # every variable the file needs is required, with a message that says where to set it
    text = (ROOT / "compose.yaml").read_text()
    uses = re.findall(r"\$\{([A-Z_]+)([^}]*)\}", text)
    assert {name for name, _ in uses} == {"POSTGRES_PASSWORD", "HOTDEATH_SITE"}
    assert all(rest.startswith(":?set ") for _, rest in uses)


def test_the_caddyfile_proxies_to_the_compose_processes_and_hashes_tables() -> None:
    text = (ROOT / "deploy" / "Caddyfile").read_text()
    services = _compose()["services"]
    default = re.search(r"reverse_proxy \{\$HOTDEATH_UPSTREAMS:([^}]*)\}", text)
    assert default is not None
    assert default.group(1).split() == services["caddy"]["environment"][
        "HOTDEATH_UPSTREAMS"].split()
    assert "lb_policy header X-Hotdeath-Table" in text
    assert "health_uri /healthz" in text
    assert "header_up -X-Hotdeath-Forwarded" in text


# ------------------------------------------------------------------ Caddy in front


class Caddy:
    """``caddy run`` with deploy/Caddyfile (admin endpoint off, its files in a folder)."""

    def __init__(self, folder: Path, upstreams: list[str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        folder.mkdir()
        self.config = folder / "Caddyfile"
        self.config.write_text(f"{{\n\tadmin off\n}}\n"
                               f"import {ROOT / 'deploy' / 'Caddyfile'}\n")
        self.env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
                    "XDG_CONFIG_HOME": str(folder / "config"),
                    "HOTDEATH_SITE": self.base, "HOTDEATH_UPSTREAMS": " ".join(upstreams)}
        self.log = folder / "caddy.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                ["caddy", "run", "--config", str(self.config), "--adapter", "caddyfile"],
                stdout=log, stderr=subprocess.STDOUT, env=self.env)

        def up() -> bool:
            assert self.proc is not None and self.proc.poll() is None, self.log.read_text()
            return _get(f"{self.base}/healthz", 2)[0] == 200

        _until("Caddy", up)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)


def _owners(url: str, tables: list[str]) -> dict[str, str]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(sa.text(
                "SELECT l.table_id, s.url FROM leases l JOIN servers s ON s.id = l.server_id"
            )).all()
    finally:
        engine.dispose()
    return {t: u for t, u in rows if t in tables}


def test_caddy_in_front_of_two_processes_hashes_each_table_to_one_and_fails_over(
    pg_url: str, tmp_path: Path
) -> None:
    if shutil.which("caddy") is None:
        support.missing("caddy", "the test of deploy/Caddyfile in front of two processes")
    from hotdeath.server.hub import Hub
    from hotdeath.server.store import Store

    # sixteen tables in the database that no process plays yet (no lease)
    store = Store(pg_url)
    hub = Hub(store, bot_delay=0)
    tables = [hub.create_table("hotdeath", None, {}, 3, {1: "basic"}, "family", 0, None, None,
                               None)[0].table_id for _ in range(16)]
    store.flush()
    store.close()
    procs = [Proc(pg_url, tmp_path, name) for name in ("a", "b")]
    upstreams = [p.base.removeprefix("http://") for p in procs]
    owners = []
    caddy: Caddy | None = None
    try:
        for round_ in range(2):
            # the processes start afresh (the last ones gave their leases back), and so does
            # Caddy (it remembers a process it saw down); the first process asked for a
            # table takes it: the one its id hashes to
            for p in procs:
                p.launch()
            for p in procs:
                p.wait()
            caddy = Caddy(tmp_path / f"caddy{round_}", upstreams)
            caddy.start()
            front = caddy.base
            for t in tables:
                _until(f"table {t}",
                       lambda t=t, front=front: _get(f"{front}/api/tables/{t}")[0] == 200)
            owners.append(_owners(pg_url, tables))
            if round_ == 0:
                caddy.stop()
                for p in procs:
                    p.stop()
        assert caddy is not None
        assert set(owners[0]) == set(tables)
        assert owners[0] == owners[1]  # the same process each time: hashed, not random
        assert set(owners[0].values()) == {p.base for p in procs}  # spread over both
        # the page and the WebSocket pass the proxy
        t = tables[0]
        status, page = _get(f"{caddy.base}/t/{t}")
        assert status == 200 and b"table.js" in page
        from websockets.sync.client import connect

        with connect(f"{caddy.base.replace('http', 'ws', 1)}/ws/{t}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            welcome = json.loads(ws.recv(timeout=DEADLINE))
        assert welcome["type"] == "welcome" and welcome["table"]["table_id"] == t
        # a process killed: its tables are served through the proxy by the other one
        dead = procs[0]
        dead.kill()
        theirs = [t for t, u in owners[0].items() if u == dead.base]
        for t in theirs:
            _until(f"table {t} after the kill",
                   lambda t=t: _get(f"{caddy.base}/api/tables/{t}")[0] == 200)
        assert set(_owners(pg_url, theirs).values()) == {procs[1].base}
    finally:
        if caddy is not None:
            caddy.stop()
        for p in procs:
            p.stop()
