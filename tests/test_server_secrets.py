"""No output of ``hotdeath serve`` contains the database password.

Before, the start line printed the URL as given (password included), and so did the
error for a refused password.  The server runs here as a real subprocess on a PostgreSQL
database with a password: started with the flag, from ``HOTDEATH_DATABASE_URL``, and
with a wrong password.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from hotdeath.server.redact import RedactingFormatter, mask_url, redact
from tests.pgcluster import Cluster, free_port
from tests.support import ceiling

ROOT = Path(__file__).resolve().parent.parent


def _serve(url: str | None, env_url: str | None, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("HOTDEATH_DATABASE_URL", None)
    if env_url is not None:
        env["HOTDEATH_DATABASE_URL"] = env_url
    cmd = [sys.executable, "-m", "hotdeath.cli", "serve", "--port", str(port)]
    if url is not None:
        cmd += ["--database-url", url]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)


def _run_briefly(proc: subprocess.Popen[bytes], port: int) -> str:
    """Wait for the server, use it a little (including a refused request), stop it."""
    try:
        deadline = time.monotonic() + ceiling(60)
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants",
                                            timeout=2):
                    break
            except OSError:
                time.sleep(0.1)
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables", data=b'{"variant": "standard"}',
            headers={"Content-Type": "application/json"}, method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 201
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    return out.decode()


def test_serve_never_prints_the_password(pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    secret = pg_cluster.password
    assert secret in url
    port = free_port()
    out = _run_briefly(_serve(url, None, port), port)
    assert "open http://" in out and "database: postgresql+psycopg://hotdeath:***@" in out
    assert secret not in out, out
    port = free_port()  # the URL from the environment, not the command line
    out = _run_briefly(_serve(None, url, port), port)
    assert "database: postgresql+psycopg://hotdeath:***@" in out and secret not in out, out


def test_a_refused_password_is_not_printed_either(pg_cluster: Cluster) -> None:
    wrong = "wrong-" + pg_cluster.password[::-1]
    url = pg_cluster.url(password=wrong)
    proc = _serve(url, None, free_port())
    out, _ = proc.communicate(timeout=60)
    text = out.decode()
    assert proc.returncode == 2, text
    assert "database_error" in text and "***" in text and "password" in text
    assert wrong not in text and pg_cluster.password not in text, text


def test_log_lines_and_tracebacks_are_redacted() -> None:
    RedactingFormatter.register("hunter2")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter("%(message)s"))
    logger = logging.getLogger("hotdeath.test.redact")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise RuntimeError("could not connect to postgresql://ann:hunter2@db/x")
        except RuntimeError:
            logger.exception("failed with %s", "hunter2")
    finally:
        logger.removeHandler(handler)
    assert "hunter2" not in stream.getvalue() and "***" in stream.getvalue()
    assert redact("postgresql://u:pw@h/db", ()) == "postgresql://u:***@h/db"
    assert mask_url("postgresql://u:p%40ss@h/db") == "postgresql://u:***@h/db"
