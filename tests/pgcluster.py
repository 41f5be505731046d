"""A throwaway PostgreSQL cluster for the tests: initdb and pg_ctl under a temporary folder.

:class:`Cluster` starts a server on a free loopback port with password authentication
(so the tests can check that a password never shows), runs it as the ``postgres`` user
when the tests run as root (initdb refuses root), and removes everything when stopped.
:func:`find_bindir` finds the server programs: ``HOTDEATH_PG_BINDIR``, then ``initdb`` on
the ``PATH``, then Debian's ``/usr/lib/postgresql/<version>/bin``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

USER = "hotdeath"
"""The cluster's superuser (the tests connect as it, with :attr:`Cluster.password`)."""


def find_bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, or None if PostgreSQL is not installed."""
    env = os.environ.get("HOTDEATH_PG_BINDIR")
    candidates = [Path(env)] if env else []
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = sorted(
            (p for p in debian.iterdir() if p.name.isdigit()), key=lambda p: int(p.name),
            reverse=True,
        )
        candidates += [p / "bin" for p in versions]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def stop_orphans(bindir: Path) -> list[Path]:
    """Stop the clusters of test processes that died without stopping them (killed runs).

    Each cluster's folder names the test process that owns it (``owner``); a folder whose
    owner is gone is stopped and removed.  Returns the folders removed.
    """
    gone = []
    for folder in Path(tempfile.gettempdir()).glob("hotdeath-pg-*"):
        try:
            owner = int((folder / "owner").read_text())
        except (OSError, ValueError):
            continue
        try:
            os.kill(owner, 0)
            continue  # its test process still runs
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        data = folder / "data"
        if data.is_dir():
            user = "postgres" if os.geteuid() == 0 else None
            subprocess.run([str(bindir / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate"],
                           capture_output=True, user=user, check=False)
        shutil.rmtree(folder, ignore_errors=True)
        gone.append(folder)
    return gone


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """A PostgreSQL server of its own, in a temporary folder, on a loopback port."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.password = secrets.token_urlsafe(18)
        self.folder = Path(tempfile.mkdtemp(prefix="hotdeath-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self._user: str | None = None
        if os.geteuid() == 0:  # initdb refuses to run as root
            self._user = "postgres"
            shutil.chown(self.folder, user="postgres")
        self._databases = 0

    def _run(self, *args: str | Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(a) for a in args], check=True, capture_output=True, text=True,
            user=self._user, **kwargs,
        )

    def start(self) -> None:
        """initdb, then pg_ctl start on a free port (a few tries if a port is taken)."""
        (self.folder / "owner").write_text(str(os.getpid()))
        pwfile = self.folder / "pw"
        pwfile.write_text(self.password + "\n")
        if self._user is not None:
            shutil.chown(pwfile, user=self._user)
        self._run(
            self.bindir / "initdb", "-D", str(self.data), "-U", USER, "--pwfile", str(pwfile),
            "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8",
            "--no-locale", "--no-sync",
        )
        pwfile.unlink()
        last: subprocess.CalledProcessError | None = None
        for _ in range(5):
            self.port = free_port()
            options = (
                f"-p {self.port} -c listen_addresses=127.0.0.1 "
                f"-c unix_socket_directories={self.folder} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            )
            try:
                self._run(
                    self.bindir / "pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data),
                    "-l", str(self.folder / "server.log"), "-o", options,
                )
                return
            except subprocess.CalledProcessError as e:
                last = e
        raise RuntimeError(f"PostgreSQL did not start: {last and last.stderr}\n"
                           f"{self.log_tail()}")

    def log_tail(self) -> str:
        """The end of the server's log (for a failure message)."""
        path = self.folder / "server.log"
        return path.read_text()[-2000:] if path.is_file() else ""

    def url(self, database: str = "postgres", password: str | None = None) -> str:
        """The SQLAlchemy URL of ``database`` (``password``: another one, to be refused)."""
        pw = self.password if password is None else password
        return f"postgresql+psycopg://{USER}:{pw}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """An empty database of its own: a new schema, first on the URL's search path.

        (A schema is made in milliseconds; ``CREATE DATABASE`` copies a template.)
        """
        import psycopg

        self._databases += 1
        name = f"t{self._databases}_{secrets.token_hex(4)}"
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=USER, password=self.password,
            dbname="postgres", autocommit=True,
        ) as c:
            c.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.url()}?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        if self.data.is_dir():
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run(self.bindir / "pg_ctl", "stop", "-D", str(self.data),
                          "-m", "immediate", "-w")
        shutil.rmtree(self.folder, ignore_errors=True)
