"""Hot Death Uno: every card and rule of the rulebook (HD-…), every option and preset.

The attack/defence state machine follows rules HD-4.2 to HD-4.6: an attack (a draw, an
ejection or a Glasnost reveal) waits in the state with its victim, sender, attacker and
latest draw card; the victim answers (stack, Retaliation, Holy Defender, Virus, Magic
Red 5) or accepts.  Scoring (HD-3.7) is :func:`hand_values`, a pure function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from hotdeath.cards import GLAS, MADC, card_code, hotdeath_double_deck
from hotdeath.results import ResultExtra
from hotdeath.variants.base import Goal, VariantKit
from hotdeath.variants.hotdeath.card_table import CARD_RULE, FACE_RULE, MATCH, PRIV, rule_of
from hotdeath.variants.hotdeath.options import (
    PRESET_DESCRIPTIONS,
    PRESET_WORDS,
    PRESETS,
    HotDeathOptions,
)
from hotdeath.variants.hotdeath.scoring import (
    card_values,
    hand_values,
    typical_hand_points,
    typical_points,
)
from hotdeath.variants.hotdeath.state import (
    ATTACK_NAMES,
    DEALER_FIRST,
    DRAW_ATTACK,
    DRAW_TWO_FAMILY,
    EJECT_ATTACK,
    FAMILY_NAMES,
    MYSTERY,
    NO_ATTACK,
    REVEAL_ATTACK,
    WILD_DRAW,
    HotDeathState,
)
from hotdeath.variants.variant import Variant

if TYPE_CHECKING:
    from hotdeath.view import View


def _attack_position(view: View) -> dict[str, Any]:
    """The Hot Death facts of a view as position fields (search's deals).

    The attack is the view's pending value, which search writes itself.
    """
    d: dict[str, Any] = {"infections": [s.infections for s in view.seats]}
    if view.sixty_nine_window >= 0:
        d["sixty_nine_window"] = view.sixty_nine_window
    if view.phase in ("choose_color", "choose_victim") and view.discard:
        d["up_pending"] = card_code(view.discard[-1])
    return d


KIT: Final = VariantKit(
    faces=tuple(sorted(set(hotdeath_double_deck()))),
    directed_faces=frozenset((GLAS, MADC)),
    chooses_deal=True,
    card_rule=rule_of,
    help_rules=("HD-3.4", "HD-3.5", "HD-4.3", "HD-3.11", "HD-3.7"),
    card_points=typical_points,
    hand_points=typical_hand_points,
    points_reward=True,
    position_from_view=_attack_position,
)
"""What the front ends know of Hot Death (see :class:`~hotdeath.variants.base.VariantKit`)."""


def _goal(o: HotDeathOptions) -> Goal:
    """HD-3.8: points are bad; at the end score the lowest total wins."""
    ties = ("players tied for it share the win" if o.tie_break == "shared"
            else "of players tied for it the first in seat order wins")
    early = (" A player who holds all four bastard cards at the end of a hand wins the game "
             "at once." if o.all_bastards_effect == "wins_game" else "")
    return Goal("HD-3.8", True, f"The game ends when a total reaches {o.game_end_score}: "
                f"the lowest total wins; {ties}.{early}")


HOTDEATH: Final = Variant(
    name="hotdeath",
    title="Hot Death Uno",
    description="Uno with some twenty extra cards, stacking draw attacks, chains of defences, "
                "ejections and scoring to 1000 where the lowest total wins",
    options_cls=HotDeathOptions,
    state_cls=HotDeathState,
    presets=PRESETS,
    preset_descriptions=PRESET_DESCRIPTIONS,
    preset_words=PRESET_WORDS,
    aliases=("hot_death", "hd"),
    min_players=2,
    max_players=10,
    default_players=4,
    rule_prefix="HD",
    goal_of=_goal,
    kit=KIT,
    result_extras=(
        ResultExtra("bastard", "Held all four bastard cards", "seat", "hand"),
        ResultExtra("infections", "Virus infections", "per_seat"),
    ),
)


__all__ = [
    "ATTACK_NAMES",
    "CARD_RULE",
    "DEALER_FIRST",
    "DRAW_ATTACK",
    "DRAW_TWO_FAMILY",
    "EJECT_ATTACK",
    "FACE_RULE",
    "FAMILY_NAMES",
    "HOTDEATH",
    "KIT",
    "MATCH",
    "MYSTERY",
    "NO_ATTACK",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "PRESET_WORDS",
    "PRIV",
    "REVEAL_ATTACK",
    "WILD_DRAW",
    "HotDeathOptions",
    "HotDeathState",
    "card_values",
    "hand_values",
    "rule_of",
    "typical_hand_points",
    "typical_points",
]
