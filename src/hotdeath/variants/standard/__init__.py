"""Standard (official Mattel, classic 108-card) Uno and its popular house rules (STD-…).

Covers the first card (STD-3), turns and the single draw (STD-4), the card effects
(STD-5), the Wild Draw Four challenge (STD-6), two-player rules (STD-7), the Uno call and
catch (STD-8), going out and scoring to 500 (STD-9), partners (STD-11) and the house
rules of STD-12 (stacking, 7-0, jump-in, draw to match, force play), each an option.
"""

from __future__ import annotations

from typing import Final

from hotdeath.cards import DRAW_TWO, FACE_KIND, FACE_NUMBER, NUM_FACES, NUMBER, REVERSE, SKIP, WILD
from hotdeath.results import ResultExtra
from hotdeath.variants.base import Goal, VariantKit
from hotdeath.variants.standard.options import (
    PRESET_DESCRIPTIONS,
    PRESET_WORDS,
    PRESETS,
    StandardOptions,
)
from hotdeath.variants.standard.state import MATCH, StandardState, card_points
from hotdeath.variants.variant import Variant


def card_sub(face: int) -> str:
    """The number, after the prefix, of the STD-5 rule that says what ``face`` does."""
    k = FACE_KIND[face]
    if k == NUMBER:
        return "5.1"
    return {SKIP: "5.2", REVERSE: "5.3", DRAW_TWO: "5.4", WILD: "5.5"}.get(k, "5.6")


def _card_rule(face: int) -> str:
    return "STD-" + card_sub(face)


KIT: Final = VariantKit(
    directed_faces=frozenset(f for f in range(NUM_FACES)
                             if FACE_KIND[f] == NUMBER and FACE_NUMBER[f] == 7),
    jump_swaps=True,
    card_rule=_card_rule,
    help_rules=("STD-4", "STD-8.1", "STD-9.3"),
    challengeable_wd4=True,
)
"""What the front ends know of standard Uno (see :class:`~hotdeath.variants.base.VariantKit`)."""


def _goal(o: StandardOptions) -> Goal:
    """STD-9.4 (STD-9.5 with penalty points, STD-11.3 with partners): who wins the game."""
    team = o.partners and o.partners_victory == "team"
    who = "team" if team else "player"
    if o.scoring == "penalty_points":
        hands = f" or after {o.rounds} hands" if o.rounds else ""
        return Goal("STD-9.5", True, "Every player scores the cards left in his own hand; the "
                    f"game ends when a total reaches {o.target_score}{hands}: the lowest "
                    "total wins, players tied for it sharing the win.")
    rule = "STD-11.3" if team else "STD-9.4"
    if o.rounds == 1:
        return Goal(rule, False, f"The game is one hand: the {who} who goes out wins it.")
    if o.rounds:
        return Goal(rule, False, f"The game ends after {o.rounds} hands, or when a total "
                    f"reaches {o.target_score}: the highest total wins.")
    return Goal(rule, False, f"The first {who} whose total reaches {o.target_score} wins "
                "the game.")


STANDARD: Final = Variant(
    name="standard",
    title="Uno (official rules)",
    description="The classic 108-card Mattel rules with every popular house rule as an option",
    options_cls=StandardOptions,
    state_cls=StandardState,
    presets=PRESETS,
    preset_descriptions=PRESET_DESCRIPTIONS,
    preset_words=PRESET_WORDS,
    aliases=("uno", "official"),
    min_players=2,
    max_players=15,
    default_players=4,
    rule_prefix="STD",
    goal_of=_goal,
    kit=KIT,
    result_extras=(ResultExtra("team_totals", "Team totals", "per_seat"),),
)


__all__ = [
    "KIT",
    "MATCH",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "PRESET_WORDS",
    "STANDARD",
    "StandardOptions",
    "StandardState",
    "card_points",
    "card_sub",
]
