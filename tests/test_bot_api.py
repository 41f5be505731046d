"""The bot interface: specs, the catalog and the arena that runs bots at a table."""

from __future__ import annotations

from functools import partial

import pytest

import hotdeath
from hotdeath.actions import Action
from hotdeath.bots import bot_catalog, make_bot, parse_spec
from hotdeath.bots.arena import play_game, seat_rngs


def _log(moves: list[str], seat: int, action: Action) -> None:
    moves.append(f"{seat}:{action}")


def test_catalog_lists_the_built_in_bots() -> None:
    names = [b.name for b in bot_catalog()]
    assert names[:2] == ["random", "basic"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("genius", "unknown bot 'genius'"),
        ("random:3", "takes no more values"),
        ("basic:depth=2", "has no parameter 'depth'"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_spec(spec)


@pytest.mark.parametrize("variant", ["standard", "hotdeath", "cutthroat", "throwdown"])
def test_arena_plays_whole_games_the_same_way_from_a_seed(variant: str) -> None:
    finals = []
    for _ in range(2):
        g = hotdeath.new_game(variant, players=3, seed=11)
        moves: list[str] = []
        bots = [make_bot("basic"), make_bot("random"), make_bot("basic")]
        play_game(g, bots, on_move=partial(_log, moves))
        assert g.is_terminal()
        finals.append((moves, g.scores))
    assert finals[0] == finals[1]
    assert len(finals[0][0]) > 10


def test_seat_generators_differ_per_seat_and_repeat_per_seed() -> None:
    a = [r.random() for r in seat_rngs(5, 4)]
    b = [r.random() for r in seat_rngs(5, 4)]
    assert a == b
    assert len(set(a)) == 4
