"""Abuse limits, security headers and error shapes of the server.

Before: no body limit (a 200 MB POST was read before it was refused), no limit on new
tables or connections per address, the rate limit per connection only (10 connections of
one seat had 10 times the budget), ``rate_limited`` without the message id, no security
headers, and a too deeply nested body answered in FastAPI's ``{"detail": …}``.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hotdeath.server import create_app
from hotdeath.server.guard import CSP, Guard
from hotdeath.server.protocol import CLIENT_TYPES, Limits

with warnings.catch_warnings():  # starlette warns about its httpx transport on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

FAST = (1e9, 1e9)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, rate_limit=FAST)) as c:
        yield c


def _table(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/tables", json={"variant": "standard", "seats": 2})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_every_page_and_answer_carries_the_security_headers(client: TestClient) -> None:
    t = _table(client)
    paths = ["/", f"/t/{t['table_id']}", "/replay/x", "/static/js/table.js",
             "/static/css/hotdeath.css", "/api/variants", "/api/cards", "/cards/R7.svg",
             f"/api/tables/{t['table_id']}", "/api/tables/nope", "/no/such/page"]
    for path in paths:
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP, path
        assert "frame-ancestors 'none'" in CSP and "script-src 'self';" in CSP
        assert "'unsafe-inline'" not in CSP
        assert r.headers["x-frame-options"] == "DENY", path
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
    docs = client.get("/docs")
    assert docs.status_code == 200 and "frame-ancestors 'none'" in docs.headers[
        "content-security-policy"]


def test_errors_are_always_in_our_shape(client: TestClient) -> None:
    deep = "[" * 5000 + "]" * 5000
    for method, path, body in (
        ("POST", "/api/tables", deep),
        ("POST", "/api/tables", "{not json"),
        ("GET", "/api/nothing", None),
        ("DELETE", "/api/variants", None),
    ):
        r = client.request(method, path, content=body,
                           headers={"Content-Type": "application/json"})
        data = r.json()
        assert set(data) == {"code", "message"}, (path, data)
        assert r.status_code >= 400 and data["code"], data
    assert client.get("/api/nothing").json()["code"] == "not_found"


def test_a_body_over_the_limit_is_refused_before_it_is_read() -> None:
    """A 200 MB Content-Length: answered 413 without one call to receive()."""
    sent: list[dict[str, Any]] = []

    async def app(_scope: Any, _receive: Any, _send: Any) -> None:
        raise AssertionError("the application was called")

    async def receive() -> dict[str, Any]:
        raise AssertionError("the body was read")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/tables",
             "headers": [(b"content-length", str(200 * 1024 * 1024).encode())]}
    asyncio.run(Guard(app, 65536)(scope, receive, send))
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["code"] == "too_large"


def test_the_body_limit_holds_in_the_application(db_url: str) -> None:
    app = create_app(db_url, rate_limit=FAST, limits=Limits(max_body_bytes=2048))
    with TestClient(app) as client:
        big = json.dumps({"variant": "standard", "name": "x" * 4000})
        r = client.post("/api/tables", content=big, headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and r.json()["code"] == "too_large"
        assert client.app.state.hub.rooms == {}  # type: ignore[attr-defined]

        def chunks() -> Iterator[bytes]:  # no Content-Length: cut off while it is read
            for _ in range(10):
                yield b" " * 1000

        r = client.post("/api/tables", content=chunks(),
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_new_tables_per_address_are_limited(db_url: str) -> None:
    app = create_app(db_url, rate_limit=FAST, limits=Limits(tables_per_minute=3))
    with TestClient(app) as client:
        for _ in range(3):
            _table(client)
        r = client.post("/api/tables", json={"variant": "standard", "seats": 2})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
        assert len(client.app.state.hub.rooms) == 3  # type: ignore[attr-defined]


def test_connections_per_address_are_limited(db_url: str) -> None:
    app = create_app(db_url, rate_limit=FAST, limits=Limits(connections_per_address=2))
    with TestClient(app) as client:
        tid = _table(client)["table_id"]
        with client.websocket_connect(f"/ws/{tid}") as a, \
                client.websocket_connect(f"/ws/{tid}") as b:
            for ws in (a, b):
                ws.send_json({"type": "ping", "id": "p"})
                assert ws.receive_json()["type"] == "pong"
            with client.websocket_connect(f"/ws/{tid}") as c:
                refused = c.receive_json()
                assert refused["code"] == "too_many_connections", refused
        with client.websocket_connect(f"/ws/{tid}") as again:  # the others closed
            again.send_json({"type": "ping", "id": "q"})
            assert again.receive_json()["type"] == "pong"


def test_a_seat_has_one_budget_over_all_its_connections(db_url: str) -> None:
    app = create_app(db_url, rate_limit=FAST, limits=Limits(seat_rate=(4, 0.01)))
    with TestClient(app) as client:
        tid = _table(client)["table_id"]
        token = client.post(f"/api/tables/{tid}/join", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/ws/{tid}") as a, \
                client.websocket_connect(f"/ws/{tid}") as b:
            for ws in (a, b):
                ws.send_json({"type": "hello", "token": token})
                while ws.receive_json()["type"] != "welcome":
                    pass
            got = []
            for i in range(6):  # 4 pings over the two connections, then refusals
                ws = (a, b)[i % 2]
                ws.send_json({"type": "ping", "id": f"p{i}"})
                while (m := ws.receive_json())["type"] == "table":  # seats connecting
                    pass
                got.append(m)
            assert [g["type"] for g in got] == ["pong"] * 4 + ["error"] * 2, got
            assert [(g["code"], g["id"]) for g in got[4:]] == [("rate_limited", "p4"),
                                                                ("rate_limited", "p5")]


def test_rate_limited_carries_the_message_id(db_url: str) -> None:
    with TestClient(create_app(db_url, rate_limit=(1, 0.01))) as client:
        tid = _table(client)["table_id"]
        with client.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_json({"type": "ping", "id": "first"})
            assert ws.receive_json()["type"] == "pong"
            ws.send_json({"type": "action", "id": "act-2", "action": "draw", "version": 0})
            refused = ws.receive_json()
            assert (refused["code"], refused["id"]) == ("rate_limited", "act-2")


def test_a_deeply_nested_message_is_a_coded_error(client: TestClient) -> None:
    tid = _table(client)["table_id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_text("[" * 2000 + "]" * 2000)
        assert ws.receive_json()["code"] == "too_deep"
        ws.send_json({"type": "ping", "id": "still"})
        assert ws.receive_json() == {"type": "pong", "id": "still"}


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    | st.text(st.characters(categories=["Cs"]), min_size=1, max_size=2),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=4),
    max_leaves=12,
)
_MESSAGES = st.one_of(
    _JSON,
    st.fixed_dictionaries(
        {"type": st.sampled_from([*CLIENT_TYPES, "nope", ""])},
        optional={key: st.one_of(_JSON, st.sampled_from(["draw", "pass", "play R5", "1"]))
                  for key in ("id", "action", "token", "version", "text", "reaction",
                              "seat", "log")},
    ),
)


def test_any_json_on_the_socket_gets_coded_answers_and_the_socket_lives(
    tmp_path: Path,
) -> None:
    """Arbitrary JSON values as client messages (greeted, at a running table): every
    refusal is one of our coded errors, and the connection still answers a ping."""
    app = create_app(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}", bot_delay=0, rate_limit=FAST)
    with TestClient(app) as client:
        t = _table(client)
        me = client.post(f"/api/tables/{t['table_id']}/join", json={"name": "Ann"}).json()
        client.post(f"/api/tables/{t['table_id']}/bots", json={"seat": 1, "bot": "basic"},
                    headers={"X-Token": t["host_token"]})
        client.post(f"/api/tables/{t['table_id']}/start", headers={"X-Token": t["host_token"]})
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            ws.send_json({"type": "hello", "token": me["token"]})
            pings = iter(range(10**6))

            @settings(max_examples=150, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])
            @given(message=_MESSAGES)
            def send(message: Any) -> None:
                ws.send_text(json.dumps(message))
                mark = f"ping-{next(pings)}"
                ws.send_json({"type": "ping", "id": mark})
                while True:
                    reply = ws.receive_json()
                    if reply["type"] == "error":
                        assert set(reply) >= {"code", "message", "id"}, reply
                        assert isinstance(reply["code"], str) and reply["code"] != "server_error"
                    if reply == {"type": "pong", "id": mark}:
                        return

            send()


@pytest.mark.parametrize("message", [
    '{"type": "hello", "token": "\\ud800"}',
    '{"type": "hello", "token": "abc\\udfffdef"}',
    '{"type": "ping", "id": "\\udc00"}',
    '{"type": "chat", "text": "hi \\ud83d"}',
    '{"type": "action", "id": "a1", "version": 0, "action": "play \\ud800"}',
    '{"type": "ping", "\\ud800": 1}',
])
def test_a_lone_surrogate_is_a_coded_error_without_a_traceback(
    client: TestClient, caplog: pytest.LogCaptureFixture, message: str
) -> None:
    """Issue 23 N3: a ``hello`` whose token held a lone surrogate raised in ``token_hash``
    (a traceback per message); any text that is not Unicode is refused with a code."""
    tid = _table(client)["table_id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        if '"hello"' not in message:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "welcome"
        ws.send_text(message)
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "bad_json", refused
        assert "surrogate" in refused["message"] and refused["id"] is None
        ws.send_json({"type": "ping", "id": "still"})
        assert ws.receive_json() == {"type": "pong", "id": "still"}
    assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]
