"""The heartbeat (issue 23, N2): every connection hears from its server every few seconds.

A table where nothing happens still sends each connection a ``heartbeat`` once it has
been sent nothing for :data:`~hotdeath.server.connections.HEARTBEAT` seconds, so a client
that hears nothing for longer knows its server stalled or is gone and connects again
(docs/protocol.md).  The stalled processes themselves: tests/test_server_multi.py.
"""

from __future__ import annotations

import warnings

import pytest

from hotdeath.server import create_app
from hotdeath.server.connections import HEARTBEAT, HEARTBEAT_TEXT, Conn, Pulse

pytestmark = pytest.mark.heartbeat  # the in-process servers beat here (tests/conftest.py)

with warnings.catch_warnings():  # starlette warns about its httpx transport on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_a_quiet_table_s_connection_hears_a_heartbeat(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        table = client.post("/api/tables", json={"variant": "standard", "seats": 2}).json()
        with client.websocket_connect(f"/ws/{table['table_id']}") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "welcome"
            assert ws.receive_json() == {"type": "heartbeat"}  # nothing else happens
            ws.send_json({"type": "ping", "id": "p"})
            assert ws.receive_json() == {"type": "pong", "id": "p"}
            assert ws.receive_json() == {"type": "heartbeat"}


def test_the_pulse_beats_only_connections_that_were_quiet() -> None:
    class Room:
        def __init__(self, conns: set[Conn]) -> None:
            self.conns = conns

    quiet, busy = Conn(), Conn()
    rooms = {"t": Room({quiet, busy})}
    pulse = Pulse(rooms)  # type: ignore[arg-type]
    now = quiet.sent_at
    busy.send("news")
    assert pulse.beat(now + HEARTBEAT / 2) == 0  # nobody quiet long enough yet
    busy.sent_at = now + HEARTBEAT  # busy was sent something since
    assert pulse.beat(now + HEARTBEAT + 0.1) == 1
    assert quiet.outbox.get_nowait() == HEARTBEAT_TEXT and quiet.outbox.empty()
    assert busy.outbox.get_nowait() == "news" and busy.outbox.empty()
