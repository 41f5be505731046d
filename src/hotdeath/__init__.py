"""hotdeath: an exact rules engine for Hot Death Uno, standard Uno and their house rules.

The core imports only the standard library.  A game is a state that changes only through
its actions, each of them legal now and answered with the events it caused:

>>> import hotdeath
>>> game = hotdeath.new_game("standard", players=2, seed=1)
>>> game.current_player()
0
>>> [str(a) for a in game.legal_actions()]
['play G3', 'play G7', 'draw']
>>> [hotdeath.describe(e) for e in game.apply_action("play G7")]
['P0 plays Green 7  [STD-5.1]']
>>> game.current_player()
1

The position notation and the views come with the package:

>>> position = hotdeath.notation.to_position(game)
>>> position["variant"], position["turn"]
('standard', 1)
>>> hotdeath.notation.to_position(hotdeath.notation.from_position(position)) == position
True
>>> game.view(1).seat
1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hotdeath import notation, view
from hotdeath.actions import Action
from hotdeath.errors import (
    GameOverError,
    HotDeathError,
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    WrongSeatError,
)
from hotdeath.events import Event, describe
from hotdeath.rng import DEAL_SCHEME
from hotdeath.state import TERMINAL, GameState
from hotdeath.variants import DEFAULT_VARIANT, Variant, all_variants, get_variant

__version__ = "0.1.0"
PROGRAM: Final = __name__
"""The program's name (command, data folder, server title): the package's."""


def core() -> str:
    """Which engine core this installation runs: ``"compiled"`` (mypyc) or ``"pure"``.

    ``HOTDEATH_COMPILE=1 pip install .`` installs the compiled core where a C compiler is
    present (docs/performance.md); ``hotdeath --version`` says which one runs.

    >>> core() in ("compiled", "pure")
    True
    """
    from hotdeath import state

    return "pure" if (state.__file__ or "").endswith(".py") else "compiled"


def core_description() -> str:
    """:func:`core` in words, for version lines and benchmark headers."""
    return "compiled core (mypyc)" if core() == "compiled" else "pure-Python core"


def new_game(
    variant: str = DEFAULT_VARIANT,
    players: int | None = None,
    seed: int = 0,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    dealer: int | None = None,
    deal_scheme: int = DEAL_SCHEME,
) -> GameState:
    """Start a game of ``variant`` (a registry name or alias) from ``seed``.

    ``preset`` names a preset of the variant (default: its first), ``options`` override
    single options; both are validated with errors naming the option and its values.
    Every hand's deal follows from ``seed`` and the hand's number alone
    (``deal_scheme``, :data:`hotdeath.rng.DEAL_SCHEME`; 1 replays games recorded before it).
    """
    return get_variant(variant).new_game(players, seed, preset, options, dealer, deal_scheme)


__all__ = [
    "TERMINAL",
    "Action",
    "Event",
    "GameOverError",
    "GameState",
    "HotDeathError",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "PositionError",
    "Variant",
    "WrongSeatError",
    "__version__",
    "all_variants",
    "core",
    "core_description",
    "describe",
    "get_variant",
    "new_game",
    "notation",
    "view",
]
