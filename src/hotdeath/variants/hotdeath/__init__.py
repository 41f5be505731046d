"""Hot Death Uno: every card and rule of the rulebook (HD-…), every option and preset.

The attack/defence state machine follows rules HD-4.2 to HD-4.6: an attack (a draw, an
ejection or a Glasnost reveal) waits in the state with its victim, sender, attacker and
latest draw card; the victim answers (stack, Retaliation, Holy Defender, Virus, Magic
Red 5) or accepts.  Scoring (HD-3.7) is :func:`hand_values`, a pure function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from hotdeath.cards import (
    DRAW_TWO,
    FACE_KIND,
    GLAS,
    MADC,
    SPREADER,
    card_code,
    hotdeath_double_deck,
)
from hotdeath.results import ResultExtra
from hotdeath.variants.base import Goal, VariantKit
from hotdeath.variants.hotdeath.card_table import (
    ANSWERS,
    CARD_RULE,
    DEFENCES,
    DRAW_COUNT,
    FACE_RULE,
    MATCH,
    PRIV,
    blast_skips,
    rule_of,
)
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


def draw_count(face: int) -> int:
    """Cards a played card adds to a draw attack.

    :data:`DRAW_COUNT` for the wild draw cards, two for a Draw Two or a Spreader, 0 for
    the rest (the Mystery Draw included: its number is the card's under it).
    """
    n = DRAW_COUNT.get(face)
    if n is not None:
        return n
    return 2 if FACE_KIND[face] in (DRAW_TWO, SPREADER) else 0


def draw_victim(view: View, face: int, seat: int) -> int:
    """The seat a draw card ``face`` played by ``seat`` attacks, from a view (HD-4.2).

    The next active player, or the one after him when the Delayed Blast skips
    (:func:`blast_skips` under the view's options: the engine's own test).
    """
    opts = HOTDEATH.resolve_options(None, view.options)
    active = sum(1 for s in view.seats if s.active)
    victim = view.next_seat(seat)
    if blast_skips(face, active, opts.delayed_blast_min_active_for_skip):
        victim = view.next_seat(victim)
    return victim


KIT: Final = VariantKit(
    faces=tuple(sorted(set(hotdeath_double_deck()))),
    directed_faces=frozenset((GLAS, MADC)),
    chooses_deal=True,
    card_rule=rule_of,
    help_rules=("HD-3.4", "HD-3.5", "HD-4.3", "HD-3.11", "HD-3.7"),
    card_points=typical_points,
    hand_points=typical_hand_points,
    points_reward=True,
    draw_count=draw_count,
    answers=ANSWERS,
    draw_victim=draw_victim,
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
    "ANSWERS",
    "ATTACK_NAMES",
    "CARD_RULE",
    "DEALER_FIRST",
    "DEFENCES",
    "DRAW_ATTACK",
    "DRAW_COUNT",
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
    "blast_skips",
    "card_values",
    "draw_count",
    "draw_victim",
    "hand_values",
    "rule_of",
    "typical_hand_points",
    "typical_points",
]
