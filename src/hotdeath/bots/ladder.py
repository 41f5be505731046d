"""The ladder: the bot levels a lobby offers, weakest first, each with its measured rating.

The ratings live in ``hotdeath/data/ladder.json``, written by ``scripts/ladder.py`` from
``hotdeath tournament`` results (and, for the searching levels, paired first hands against
the tournament's ``heuristic:expert``, fitted on the same scale): per variant, a
Bradley–Terry rating on the Elo scale with its 95% interval, and what it was rated by
(``points``: each hand's points, ``games``: whole games); a level that plays a variant
without a measurement there is listed as ``unrated`` in it, and the lobby does not offer
it for that variant.  docs/bots.md, "The ladder",
shows the tables and the commands.  The levels are in order of measured strength; a level
that measured no stronger than the one below it is left off (the file says why).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LADDER_FORMAT = "hotdeath-ladder/1"
"""The ``format`` of ``ladder.json``."""


@cache
def ladder() -> dict[str, Any]:
    """The ladder file's contents (``levels``, ``ratings``, ``dropped``, how it was made)."""
    text = (Path(__file__).resolve().parent.parent / "data" / "ladder.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    if data.get("format") != LADDER_FORMAT:
        raise ValueError(f"ladder.json is not {LADDER_FORMAT}")
    return data


def ladder_levels() -> list[str]:
    """The specs of the lobby's levels, weakest first by measured strength."""
    return [str(s) for s in ladder()["levels"]]


def level_rating(spec: str) -> dict[str, dict[str, Any]]:
    """The ratings of the level ``spec`` by variant (empty: not rated).

    ``{variant: {rating, low, high, by, players}}``: the rating and its 95% interval,
    whether it was rated by each hand's ``points`` or by ``games``, at how many players.

    >>> sorted(level_rating("heuristic:skill=expert"))[:1]
    ['cutthroat']
    """
    out: dict[str, dict[str, Any]] = {}
    for variant, table in ladder()["ratings"].items():
        entry = table["levels"].get(spec)
        if entry is not None:
            out[variant] = {"rating": round(entry["rating"]), "low": round(entry["low"]),
                            "high": round(entry["high"]), "by": table["by"],
                            "players": table["players"]}
    return out


__all__ = ["LADDER_FORMAT", "ladder", "ladder_levels", "level_rating"]
