"""The lobby's list of open tables and the tables' REST API (create, join, seats, start)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field

from hotdeath.server.room import Room
from hotdeath.server.routes.deps import Svc, committed
from hotdeath.server.seating import DEFAULT_BOT, DEFAULT_TAKEOVER, check_turn_timer
from hotdeath.variants import DEFAULT_VARIANT
from hotdeath.words import house_rules

router = APIRouter()

Token = Annotated[str | None, Header()]
"""The ``X-Token`` header: the host token (or a seat's, where a route says so)."""


class CreateTable(BaseModel):
    """A new table."""

    variant: str = Field(DEFAULT_VARIANT, description="variant name or alias")
    preset: str | None = Field(None, description="preset name (default: the variant's first)")
    options: dict[str, bool | int | str] = Field(
        default_factory=dict, description="option overrides"
    )
    seats: int = Field(4, ge=2, le=10, description="number of seats, 2–10")
    bots: dict[int, str] = Field(default_factory=dict, description="seat → bot spec")
    theme: str = Field("family", description="card-name theme: family or original")
    bot_delay: float | None = Field(None, ge=0, le=10, description="seconds before a bot moves")
    takeover_timeout: float | None = Field(
        DEFAULT_TAKEOVER, ge=0, le=3600,
        description="seconds before a bot plays a disconnected person's seat (null: never)",
    )
    takeover_bot: str = Field(DEFAULT_BOT, description="bot spec for disconnected people")
    name: str | None = Field(None, description="the table's name, at most 80 characters")
    turn_timer: float | None = Field(
        None, description="seconds a person has for a move, 15–120 (null: no timer)"
    )
    public: bool = Field(False, description="list the table in the lobby's open tables")
    breather: float = Field(
        0, ge=0, le=120,
        description="seconds of pause after a hand until every person is ready (0: none)",
    )
    hints: bool | None = Field(
        None, description="people may ask the coach for hints (null: on when a seat is a bot)"
    )


class JoinTable(BaseModel):
    """Take a seat."""

    name: str = Field(..., description="display name, 1–40 characters (docs/protocol.md, "
                      "Security: the input policy)")
    seat: int | None = Field(None, description="the seat (default: the first open one)")


class TableSettings(BaseModel):
    """Settings the host may change at any time (each one optional)."""

    bot_delay: float | None = Field(None, ge=0, le=10, description="seconds before a bot moves")
    turn_timer: float | None = Field(
        None, description="seconds a person has for a move, 15–120 (null: no timer)"
    )
    public: bool | None = Field(None, description="list the table in the lobby")
    hints: bool | None = Field(
        None, description="people may ask the coach for hints (null: on when a seat is a bot)"
    )


class SetBot(BaseModel):
    """Put a bot in a seat."""

    seat: int
    bot: str = Field(DEFAULT_BOT, description="bot spec, e.g. basic or random")


def open_table_json(row: dict[str, Any]) -> dict[str, Any]:
    """One public table for the lobby's list: names for people, never ids or specs."""
    from hotdeath.variants import get_variant

    v = get_variant(row["variant"])
    rules = house_rules(v.name, row["preset"], row["options"], row["theme"])
    return {
        "table_id": row["id"], "name": row["name"], "variant": v.name,
        "variant_title": v.title, "preset_title": v.preset_title(row["preset"]),
        "players": row["players"], "seats_free": int(row["free"]),
        "turn_timer": row["turn_timer"],
        "house_rules": [h["text"] for h in rules],
        "link": f"/t/{row['id']}",
    }




def links(room: Room) -> dict[str, Any]:
    """The links of a new table: one per open seat, one for spectators."""
    return {
        "seat_links": {
            str(s.seat): f"/t/{room.table_id}?seat={s.seat}"
            for s in room.seats if s.kind == "open"
        },
        "spectator_link": f"/t/{room.table_id}?spectate=1",
    }


@router.post("/api/tables", status_code=201, tags=["tables"])
async def create_table(svc: Svc, req: CreateTable, request: Request) -> dict[str, Any]:
    """Create a table; the answer carries the host token (keep it) and the links."""
    svc.per_address.create_table(request.client.host if request.client else "?")
    code = await svc.hub.free_code()
    room, host = svc.hub.create_table(
        req.variant, req.preset, req.options, req.seats, req.bots, req.theme,
        req.bot_delay, req.takeover_timeout, req.takeover_bot, req.name,
        req.turn_timer, req.public, req.breather, req.hints, code,
    )
    await committed(room, request)
    return {"table_id": room.table_id, "host_token": host, "table": room.summary(),
            **links(room)}


@router.get("/api/tables/{table_id}", tags=["tables"])
async def get_table(svc: Svc, table_id: str) -> dict[str, Any]:
    """The public summary of a table (no tokens, no cards)."""
    return (await svc.hub.room(table_id)).summary()


@router.patch("/api/tables/{table_id}", tags=["tables"])
async def change_table(
    svc: Svc, table_id: str, req: TableSettings, request: Request, x_token: Token = None
) -> dict[str, Any]:
    """Host: change the table's settings (the bots' delay), at any time."""
    room = await svc.hub.room(table_id)
    room.require_host(x_token)
    given = req.model_fields_set
    if "turn_timer" in given:
        check_turn_timer(req.turn_timer)  # a bad value changes nothing, not even the delay
    if "bot_delay" in given and req.bot_delay is not None:
        room.seating.set_bot_delay(req.bot_delay)
        await committed(room, request)  # each write is answered for before the next one
    room.seating.set_settings(
        turn_timer=req.turn_timer if "turn_timer" in given else ...,
        public=req.public if "public" in given and req.public is not None else ...,
        hints=req.hints if "hints" in given else ...,
    )
    await committed(room, request)
    return room.summary()


@router.delete("/api/tables/{table_id}/seats/{seat}", tags=["tables"])
async def remove_player(svc: Svc, table_id: str, seat: int, request: Request,
                        x_token: Token = None) -> dict[str, Any]:
    """Host: remove a person from the table; a bot takes the seat (also mid-game)."""
    room = await svc.hub.room(table_id)
    room.require_host(x_token)
    room.seating.remove_player(seat)
    await committed(room, request)
    return room.summary()


@router.get("/api/tables", tags=["lobby"])
async def open_tables(svc: Svc) -> dict[str, Any]:
    """The public tables waiting for players: variant, open seats, house rules."""
    rows = await asyncio.wrap_future(svc.store.open_tables())
    return {"tables": [open_table_json(r) for r in rows]}


@router.post("/api/tables/{table_id}/join", tags=["tables"])
async def join(svc: Svc, table_id: str, req: JoinTable, request: Request) -> dict[str, Any]:
    """Take a seat: the answer's token is the only way back into it."""
    room = await svc.hub.room(table_id)
    seat, token = room.seating.join(req.name, req.seat)
    await committed(room, request)
    return {"seat": seat, "token": token, "table": room.summary()}


@router.post("/api/tables/{table_id}/bots", tags=["tables"])
async def add_bot(svc: Svc, table_id: str, req: SetBot, request: Request,
                  x_token: Token = None) -> dict[str, Any]:
    """Host: put a bot in an open seat (or change a bot)."""
    room = await svc.hub.room(table_id)
    room.require_host(x_token)
    room.seating.set_bot(req.seat, req.bot)
    await committed(room, request)
    return room.summary()


@router.delete("/api/tables/{table_id}/bots/{seat}", tags=["tables"])
async def remove_bot(svc: Svc, table_id: str, seat: int, request: Request,
                     x_token: Token = None) -> dict[str, Any]:
    """Host: make a bot's seat open again."""
    room = await svc.hub.room(table_id)
    room.require_host(x_token)
    room.seating.set_bot(seat, None)
    await committed(room, request)
    return room.summary()


@router.post("/api/tables/{table_id}/start", tags=["tables"])
async def start(svc: Svc, table_id: str, request: Request, x_token: Token = None
                ) -> dict[str, Any]:
    """Host: start the game (every seat needs a person or a bot)."""
    room = await svc.hub.room(table_id)
    room.require_host(x_token)
    room.start()
    await committed(room, request)
    return room.summary()


@router.post("/api/tables/{table_id}/rematch", tags=["tables"])
async def rematch(svc: Svc, table_id: str, request: Request, x_token: Token = None
                  ) -> dict[str, Any]:
    """Host: a new game at the table once the game is over."""
    room = await svc.hub.room(table_id)
    room.require_host(x_token)
    room.rematch()
    await committed(room, request)
    return room.summary()
