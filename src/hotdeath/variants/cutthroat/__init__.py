"""Cutthroat Uno (seed 003): Standard Uno with a meaner first card and no scoring (CT-…).

Cutthroat is "Standard except what the seed changes" (uno-variants.md §2), so
:class:`CutthroatState` is a :class:`~hotdeath.variants.standard.StandardState` that
overrides only:

* the first card (CT-2): a Wild Draw Four is not redrawn; the player on the dealer's left
  draws four (and loses his turn) and the dealer names any colour;
* the turn draw (CT-3.3): draw until a match, then keep it and pass (or may / must play
  it, ``draw_until_match_then``); nobody may draw while holding a playable card (CT-3.2);
* the Wild's colour must change (CT-4.4, ``wild_color_must_change``);
* the Wild Draw Four answer (CT-5): the victim may *question* it (a public truth reveal,
  nothing else changes), or the Standard challenge applies, or nothing (``wd4_challenge``);
* the end (CT-7): a game is one hand, nobody scores, the first player out wins (his team
  under ``partners_victory=team``).

Events cite Cutthroat rule ids; where Cutthroat plays exactly as Standard (the official
challenge) they cite the STD rule.
"""

from __future__ import annotations

from typing import Final

from hotdeath.variants.base import Goal, VariantKit
from hotdeath.variants.cutthroat.state import (
    _RULES,
    PRESET_DESCRIPTIONS,
    PRESET_WORDS,
    PRESETS,
    CutthroatOptions,
    CutthroatState,
)
from hotdeath.variants.standard import card_sub
from hotdeath.variants.variant import Variant


def _card_rule(face: int) -> str:
    return _RULES.get(card_sub(face)) or "STD-" + card_sub(face)


KIT: Final = VariantKit(
    card_rule=_card_rule,
    help_rules=("CT-3.2", "CT-3.3", "CT-5.2", "CT-6.1", "CT-7.1"),
    challengeable_wd4=True,
)
"""What the front ends know of Cutthroat (see :class:`~hotdeath.variants.base.VariantKit`)."""


def _goal(o: CutthroatOptions) -> Goal:
    """CT-7.1: one hand, no scoring."""
    who = "team of the player" if o.partners and o.partners_victory == "team" else "player"
    return Goal("CT-7.1", None, f"The game is one hand and nobody scores: the {who} who goes "
                "out first wins.")


CUTTHROAT: Final = Variant(
    name="cutthroat",
    title="Cutthroat Uno",
    description="Standard Uno played mean: draw until a match and keep it, a Wild must "
                "change the colour, illegal Wild Draw Fours are only questioned, and the "
                "first player out wins the game (no scoring)",
    options_cls=CutthroatOptions,
    state_cls=CutthroatState,
    presets=PRESETS,
    preset_descriptions=PRESET_DESCRIPTIONS,
    preset_words=PRESET_WORDS,
    aliases=("ct",),
    min_players=2,
    max_players=15,
    default_players=4,
    rule_prefix="CT",
    goal_of=_goal,
    kit=KIT,
)


__all__ = [
    "CUTTHROAT",
    "KIT",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "PRESET_WORDS",
    "CutthroatOptions",
    "CutthroatState",
]
