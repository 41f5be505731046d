"""A game's record afterwards: replays (page by page) and the coach's reviews of hands."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures.process import BrokenProcessPool
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import Response

from hotdeath.coach import CoachError, hints_line
from hotdeath.server.messages import reveal_json
from hotdeath.server.protocol import ApiError
from hotdeath.server.replays import MAX_PAGE_STEPS, used_hints
from hotdeath.server.routes.deps import Svc, under_way
from hotdeath.server.seating import token_hash
from hotdeath.server.store import deal_scheme_of

router = APIRouter()


@router.get("/api/games/{game_id}/replay", tags=["games"])
async def replay(
    svc: Svc, game_id: str, request: Request, x_token: Annotated[str | None, Header()] = None,
    start: Annotated[int, Query(ge=0, description="the first step of the page")] = 0,
    count: Annotated[int, Query(ge=1, le=MAX_PAGE_STEPS,
                                description="steps in the page, at most 200")
                     ] = MAX_PAGE_STEPS,
) -> Response:
    """A page of a game's steps: a finished game with everything, a running one seen.

    A running game is shown as the caller (its seat token) sees it.  ``next`` is the
    start of the next page (null: the last page).
    """
    with under_way(svc.replaying, request, "replays"):
        return await replay_steps(svc, game_id, x_token, start, count)


async def replay_steps(
    svc: Svc, game_id: str, x_token: str | None, start: int, count: int
) -> Response:
    """The replay page of ``game_id`` (:func:`replay`).

    The record is read and the page built in a worker process (a long game's actions
    are many rows, and a page is pure Python: in this process it would hold the GIL this
    loop needs), not through the store's queue: records only grow, and a page shows
    saved steps only.  It waits for the writes queued before it (a database server's
    writer thread may not have stored the game's last actions or its end yet when the
    table says so).
    """
    await asyncio.wrap_future(svc.store.barrier())
    head = await svc.replays.head(game_id) if len(game_id) <= 32 else None
    if head is None:
        raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
    row, actions, deals = head
    store = svc.store
    found = await asyncio.wrap_future(
        store.later(store.read_table_now, row["table_id"], lane=row["table_id"]))
    if found is None:
        raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
    table, seat_rows = found
    full = row["status"] == "finished"
    seat: int | None = None
    if not full and x_token is not None:
        h = token_hash(x_token)
        mine = [int(r["seat"]) for r in seat_rows if r["token_hash"] == h]
        if not mine:
            raise ApiError(403, "bad_token", "this token is not a seat's at this table")
        seat = mine[0]
    if start > actions:
        raise ApiError(400, "bad_range", f"this game has steps 0 to {actions}")
    page = await svc.replays.page(game_id, actions, seat, full, table["theme"], start, count)
    if page is None:
        raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
    out: dict[str, Any] = {
        "game_id": game_id, "table_id": row["table_id"], "status": row["status"],
        "variant": row["variant"], "preset": row["preset"], "options": row["options"],
        "players": row["players"], "names": row["names"], "theme": table["theme"],
        "seat": seat, "start": start, "total_steps": actions + 1, "next": page.next,
    }
    if full:  # the hints people used, told once the game is over
        used = used_hints(row)
        out["hints"] = used
        out["hints_line"] = hints_line(used, int(row["players"]), list(row["names"]))
    if full:
        out.update(seed=int(row["seed"]), seed_salt=row["seed_salt"],
                   dealer=row.get("dealer"), deal_scheme=deal_scheme_of(row),
                   commitments=[reveal_json(deals[h]) for h in sorted(deals)])
    head_text = json.dumps(out, separators=(",", ":"), ensure_ascii=False)[:-1]
    record = f',"record":{page.record}' if full and page.record is not None else ""
    body = f'{head_text}{record},"steps":[{page.steps}]}}'
    return Response(body, media_type="application/json")


@router.get("/api/games/{game_id}/review", tags=["games"])
async def review_hand(
    svc: Svc,
    game_id: str,
    request: Request,
    hand: Annotated[int, Query(ge=1, description="the hand to review (1 for the first)")],
    seat: Annotated[int | None, Query(ge=0, description="the seat to review")] = None,
    x_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The coach's review of a hand that is over, for one seat (docs/protocol.md).

    A running game's hands are reviewed only for the caller's own seat (its token); a
    finished game's for any seat.  Computed once in the review process, within a
    budget, and stored with the game.  One address may wait for :data:`PER_ADDRESS`
    reviews at once (429); a server computes or holds :data:`REVIEWS_WAITING` at once
    (503 ``coach_busy``).
    """
    with under_way(svc.reviewing, request, "reviews"):
        return await review_of(svc, game_id, hand, seat, x_token)


async def review_of(svc: Svc, game_id: str, hand: int, seat: int | None,
                    x_token: str | None) -> dict[str, Any]:
    """The review of ``hand`` for ``seat`` of ``game_id`` (:func:`review_hand`)."""
    if len(game_id) > 32:
        raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
    await asyncio.wrap_future(svc.store.barrier())
    loaded = await asyncio.wrap_future(svc.store.fetch_game(game_id))
    if loaded is None:
        raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
    row, actions, _deals = loaded
    store = svc.store
    found = await asyncio.wrap_future(
        store.later(store.read_table_now, row["table_id"], lane=row["table_id"]))
    if found is None:
        raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
    table, seat_rows = found
    mine: int | None = None
    if x_token is not None:
        h = token_hash(x_token)
        owned = [int(r["seat"]) for r in seat_rows if r["token_hash"] == h]
        if not owned:
            raise ApiError(403, "bad_token", "this token is not a seat's at this table")
        mine = owned[0]
    if row["status"] != "finished":
        if mine is None:
            raise ApiError(403, "bad_token", "a running game's hands are reviewed for "
                           "your own seat: send its token")
        if seat is not None and seat != mine:
            raise ApiError(403, "not_your_seat", f"you hold seat {mine}, not seat {seat}")
    target = seat if seat is not None else mine
    if target is None:
        raise ApiError(400, "bad_seat", "say which seat to review (?seat=)")
    if target >= int(row["players"]):
        raise ApiError(400, "bad_seat",
                       f"seat must be a number from 0 to {int(row['players']) - 1}")
    try:
        result = await asyncio.wrap_future(
            svc.hub.reviews.review(row, actions, hand, target, str(table["theme"])))
    except CoachError as e:
        status = {"no_hand": 404, "hand_not_over": 409, "coach_busy": 503}.get(e.code, 400)
        raise ApiError(status, e.code, e.message) from None
    except BrokenProcessPool:  # the next review starts a new process
        raise ApiError(503, "review_failed", "the coach stopped before the review was "
                       "done: ask again") from None
    return {"game_id": game_id, "hand": hand, "seat": target, "review": result}

