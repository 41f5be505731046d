"""The pages: the lobby, a table, a replay, and the rules of each game."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse, Response

from hotdeath.server.routes.deps import STATIC, Svc, error, theme_arg, variant_name
from hotdeath.server.rules_pages import rules_page
from hotdeath.variants import DEFAULT_VARIANT

router = APIRouter()


def page(name: str) -> Response:
    """A page of the UI (``no_page``, 404, if it is not installed)."""
    path = STATIC / name
    if not path.is_file():
        return error(404, "no_page", f"the page {name} is not installed")
    return FileResponse(path, media_type="text/html")


@router.get("/", include_in_schema=False)
def lobby_page() -> Response:
    """The lobby."""
    return page("index.html")


@router.get("/t/{table_id}", include_in_schema=False)
def table_page(table_id: str) -> Response:
    """A table (the page reads the table id from its address)."""
    return page("table.html")


@router.get("/t/{table_id}/screen", include_in_schema=False)
def screen_page(table_id: str) -> Response:
    """A table's screen for a TV or a laptop (the same page code, a spectator's view)."""
    return page("screen.html")


@router.get("/replay/{game_id}", include_in_schema=False)
def replay_page(game_id: str) -> Response:
    """A game's replay (the page reads the game id from its address)."""
    return page("replay.html")


@router.get("/rules/", include_in_schema=False)
async def rules_default() -> Response:
    """The lobby's Rules link before a game is chosen: the default game's rules."""
    return RedirectResponse(f"/rules/{DEFAULT_VARIANT}", status_code=307)


@router.get("/rules/{variant}", include_in_schema=False)
async def rules(svc: Svc, variant: str, table: str | None = None,
                theme: str | None = None) -> Response:
    """The rules of a variant, from the rulebook; ``table`` marks that table's rules."""
    name = variant_name(variant)
    summary = None
    if table is not None:
        room = await svc.hub.room(table)
        summary = room.summary()
        name = room.variant
    chosen = theme_arg(theme) if theme else summary["theme"] if summary else "family"
    return Response(rules_page(name, chosen, summary), media_type="text/html")
