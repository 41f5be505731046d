"""The cards and the games' data: card art, every card face, variants and bots, card rules."""

from __future__ import annotations

import functools
import importlib
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from hotdeath.bots import bot_catalog
from hotdeath.cards import (
    COLOR_LETTERS,
    COLOR_NAMES,
    FACE_CODE,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    KIND_IDS,
    NO_COLOR,
    NUM_FACES,
    THEMES,
    card_name,
)
from hotdeath.events import SCORE_LABELS
from hotdeath.options import OPTION_GROUPS
from hotdeath.server.driver import BREATHER_SECONDS
from hotdeath.server.protocol import ApiError
from hotdeath.server.routes.deps import Svc, theme_arg, variant_name
from hotdeath.server.rules_pages import card_help
from hotdeath.server.seating import (
    DEFAULT_BOT,
    DEFAULT_TAKEOVER,
    bot_levels,
    bot_menu,
    busy_words,
    server_bot,
)
from hotdeath.variants import DEFAULT_VARIANT

router = APIRouter()


@functools.cache
def cards_json() -> dict[str, Any]:
    """Every card face with its colour, kind and names in every theme, for the pages.

    ``order`` sorts a hand: by colour (red, yellow, green, blue, then wilds), then by face.
    The pages take card names and score words from here, never from a copy of their own.

    >>> data = cards_json()
    >>> [c for c in data["cards"] if c["code"] == "RET"][0]["names"]
    {'family': 'Retaliation', 'original': 'Fuck You'}
    """
    def rank(face: int) -> tuple[int, int]:
        color = FACE_COLOR[face]
        return (len(COLOR_NAMES) if color == NO_COLOR else color, face)

    order = {face: i for i, face in enumerate(sorted(range(NUM_FACES), key=rank))}
    return {
        "colors": [
            {"name": name, "letter": letter} for name, letter in zip(COLOR_NAMES, COLOR_LETTERS,
                                                                     strict=True)
        ],
        "themes": list(THEMES),
        "cards": [
            {
                "code": FACE_CODE[face],
                "color": None if FACE_COLOR[face] == NO_COLOR else COLOR_NAMES[FACE_COLOR[face]],
                "kind": KIND_IDS[FACE_KIND[face]],
                "number": FACE_NUMBER[face] if FACE_NUMBER[face] >= 0 else None,
                "order": order[face],
                "names": {theme: card_name(face, theme) for theme in THEMES},
            }
            for face in range(NUM_FACES)
        ],
        "score_labels": dict(SCORE_LABELS),
    }



@router.get("/cards/{code}.svg", tags=["cards"])
def card_svg(code: str, theme: str = "family") -> Response:
    """One card (or ``back``) as SVG, drawn from the card data."""
    try:
        art: Any = importlib.import_module("hotdeath.cardart")
        svg = str(art.card_svg(code, theme))
    except (ImportError, AttributeError):
        raise ApiError(404, "unknown_card", "card art is not installed") from None
    except (ValueError, KeyError) as e:
        raise ApiError(404, "unknown_card", str(e)) from None
    return Response(
        svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"}
    )


@router.get("/api/cards", tags=["cards"])
async def cards(response: Response) -> dict[str, Any]:
    """Every card face: code, colour, kind, number, sort order, names in each theme.

    Also the colours with their letters and the words of each score step.
    """
    response.headers["Cache-Control"] = "public, max-age=3600"
    return cards_json()


@router.get("/api/variants", tags=["lobby"])
async def variants(svc: Svc) -> dict[str, Any]:
    """Every variant with its presets and options, every bot, the name themes."""
    import hotdeath

    hub = svc.hub
    return {
        "variants": [v.to_json() for v in hotdeath.all_variants()],
        "default_variant": DEFAULT_VARIANT,
        "bots": [
            {
                "name": b.name,
                "description": b.description,
                "params": [
                    {"name": p.name, "type": p.kind.__name__, "default": p.default,
                     "help": p.help, "choices": list(p.choices)}
                    for p in b.params
                ],
                "budget": b.budget,
                "levels": bot_levels(b, hub.max_bot_seconds),
            }
            for b in bot_catalog()
            if server_bot(b)
        ],
        "bot_menu": bot_menu(hub.max_bot_seconds,
                             busy_words(hub.searching_seats(), hub.max_master_seats)),
        "master_seats": {"max": hub.max_master_seats, "playing": hub.searching_seats()},
        "themes": list(THEMES),
        "option_groups": dict(OPTION_GROUPS),
        "max_bot_seconds": hub.max_bot_seconds,
        "defaults": {"bot": DEFAULT_BOT, "bot_delay": hub.bot_delay,
                     "breather": BREATHER_SECONDS,
                     "takeover_timeout": DEFAULT_TAKEOVER, "theme": "family"},
    }


@router.get("/api/rules/{variant}", tags=["cards"])
async def card_rules(variant: str, response: Response, theme: str = "family") -> dict[str, Any]:
    """What each card of the variant does: name, rule id, title and text, in ``theme``."""
    help_ = card_help(variant_name(variant), theme_arg(theme))
    response.headers["Cache-Control"] = "public, max-age=3600"
    return help_
