"""Check a deployment of several server processes behind a reverse proxy (docs/deploy.md).

    python scripts/deploy_check.py PROXY_URL WORK_FOLDER

Creates a table (one person, three bots) through the proxy, plays the person's seat over
the proxy's WebSocket, kills (SIGKILL) the process that plays the table (its pid in
``WORK_FOLDER/serve-PORT.pid``, its port from the table's lease in the database of
``HOTDEATH_DATABASE_URL``), then keeps playing through the proxy until another process
serves the table, and checks that every acknowledged move is in the record.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from websockets.sync.client import connect


def api(base: str, path: str, body: dict[str, Any] | None = None,
        token: str | None = None) -> Any:
    """One REST call; the answer's JSON."""
    headers = {"Content-Type": "application/json", **({"X-Token": token} if token else {})}
    req = urllib.request.Request(base + path, headers=headers,
                                 data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def owner(table_id: str) -> str:
    """The public address of the process whose lease holds ``table_id``."""
    engine = sa.create_engine(os.environ["HOTDEATH_DATABASE_URL"])
    try:
        with engine.connect() as c:
            return str(c.execute(sa.text(
                "SELECT s.url FROM leases l JOIN servers s ON s.id = l.server_id "
                "WHERE l.table_id = :t"), {"t": table_id}).scalar())
    finally:
        engine.dispose()


def play(ws: Any, states: list[dict[str, Any]], until: int, timeout: float) -> None:
    """Read states (playing seat 0's first legal action) until version ``until``."""
    deadline = time.monotonic() + timeout
    while not states or states[-1]["version"] < until:
        msg = json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic())))
        if msg["type"] != "state":
            continue
        states.append(msg)
        view = msg["view"]
        if view["legal_actions"] and view["current_player"] == 0:
            ws.send(json.dumps({"type": "action", "action": view["legal_actions"][0],
                                "version": msg["version"], "id": f"v{msg['version']}"}))


def main() -> None:
    """Run the check; exit status 1 if the game did not survive."""
    base, work = sys.argv[1].rstrip("/"), Path(sys.argv[2])
    made = api(base, "/api/tables", {"variant": "hotdeath", "seats": 4,
                                     "bots": {"1": "basic", "2": "basic", "3": "basic"},
                                     "bot_delay": 0.05, "takeover_timeout": None})
    table_id = made["table_id"]
    joined = api(base, f"/api/tables/{table_id}/join", {"name": "Ann", "seat": 0})
    api(base, f"/api/tables/{table_id}/start", {}, token=made["host_token"])
    ws_url = "ws" + base[len("http"):] + f"/ws/{table_id}"
    hello = json.dumps({"type": "hello", "token": joined["token"]})
    states: list[dict[str, Any]] = []
    with connect(ws_url) as ws:
        ws.send(hello)
        play(ws, states, 10, 30)
    acknowledged = states[-1]["version"]
    played_by = owner(table_id)
    port = played_by.rsplit(":", 1)[1]
    os.kill(int((work / f"serve-{port}.pid").read_text()), signal.SIGKILL)
    killed = time.monotonic()
    while True:
        if time.monotonic() - killed > 60:
            sys.exit(f"table {table_id}: nobody served it again within 60 s")
        with contextlib.suppress(Exception), connect(ws_url, open_timeout=5) as ws:
            ws.send(hello)
            play(ws, states, acknowledged + 10, 20)
            break
        time.sleep(0.3)
    back = time.monotonic() - killed
    now_by = owner(table_id)
    engine = sa.create_engine(os.environ["HOTDEATH_DATABASE_URL"])
    with engine.connect() as c:
        stored = c.execute(sa.text("SELECT count(*) FROM actions WHERE game_id = :g"),
                           {"g": states[-1]["game_id"]}).scalar() or 0
    engine.dispose()
    print(f"table {table_id}: played through the proxy to version {acknowledged} on "
          f"{played_by}; that process killed; {now_by} served it again after {back:.1f} s; "
          f"version now {states[-1]['version']}, {stored} actions stored")
    if now_by == played_by or stored < states[-1]["version"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
