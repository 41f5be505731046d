"""The WebSocket of a table (``/ws/{table_id}``): one connection, its messages in and out.

Each message is checked (:func:`~hotdeath.server.protocol.parse_message`) and rate-limited
(the connection's bucket and its seat's), then handled by the table's room; what the room
sends is queued on the connection (:class:`~hotdeath.server.connections.Conn`) and written
to the socket by a task of its own.
"""

from __future__ import annotations

import asyncio
import json
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hotdeath.server.connections import Conn
from hotdeath.server.protocol import ApiError, ProtocolError, message_id, parse_message
from hotdeath.server.routes.deps import Svc

log = logging.getLogger("hotdeath.server")

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def play(svc: Svc, ws: WebSocket, table_id: str) -> None:
    """A table's WebSocket: the play protocol of docs/protocol.md."""
    address = ws.client.host if ws.client else "?"
    await ws.accept()
    if not svc.per_address.connect(address):
        await ws.send_text(json.dumps(
            {"type": "error", "code": "too_many_connections", "id": None,
             "message": f"at most {svc.limits.connections_per_address} connections from one "
                        "address"}
        ))
        await ws.close(code=4429)
        return
    try:
        await connection(svc, ws, table_id)
    finally:
        svc.per_address.disconnect(address)


async def connection(svc: Svc, ws: WebSocket, table_id: str) -> None:
    """Serve one connection of ``table_id``: its messages in, its outbox out."""
    try:
        room = await svc.hub.load(table_id)
    except ApiError as e:  # another process is taking the table: the client retries
        await ws.send_text(json.dumps({"type": "error", "code": e.code,
                                       "message": e.message, "id": None}))
        await ws.close(code=1013)
        return
    if room is None:
        await ws.send_text(json.dumps(
            {"type": "error", "code": "unknown_table",
             "message": f"there is no table {table_id!r}", "id": None}
        ))
        await ws.close(code=4404)
        return
    conn = Conn(*svc.rate_limit)
    keeper = svc.hub.keeper

    async def sender() -> None:
        while True:
            text = await conn.outbox.get()
            if keeper is not None and not keeper.fresh():  # stalled past the lease time:
                await keeper.confirm()  # the tables lost meanwhile are dropped first
                if conn.closed and text is not None:
                    continue  # its table was lost: what it was to be sent is out of date
            if text is None:
                if conn.close_code is not None:  # served elsewhere now: the client
                    await ws.close(code=conn.close_code)  # reconnects and finds it
                return
            await ws.send_text(text)

    task = asyncio.get_running_loop().create_task(sender())
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect" or conn.closed:
                break  # closed meanwhile (another process plays the table now)
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            if not conn.bucket.take() or not room.seat_bucket(conn.seat):
                conn.send_json(ProtocolError(
                    "rate_limited", "too many messages: slow down", message_id(data)
                ).to_json())
                continue
            try:
                msg = parse_message(data)
                if conn not in room.conns:  # not attached yet: the table may have been
                    fresh = await svc.hub.load(table_id)  # unloaded and loaded again
                    room = fresh if fresh is not None else room
                room.handle(conn, msg)
            except ProtocolError as e:
                conn.send_json(e.to_json())
            except Exception:  # a defect of ours: say so in our shape, keep the socket
                log.exception("table %s: a message could not be handled", table_id)
                conn.send_json(ProtocolError(
                    "server_error", "the server could not handle this message",
                    message_id(data)).to_json())
    except WebSocketDisconnect:
        pass
    finally:
        room.detach(conn)
        conn.close()
        try:
            await task
        except Exception:  # the socket may already be gone
            task.cancel()

