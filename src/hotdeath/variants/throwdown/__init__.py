"""Uno Throwdown (seed 004): multi-card throws, the Throwdown draw pot, its own Uno (TD-…).

A *play* is an ordered sequence of cards laid in one turn (TD-2); the engine takes the
whole play at once and validates it atomically.  :meth:`ThrowdownState.legal_actions`
lists **one canonical action per distinct outcome**: two orders of the same cards that
end on the same card (and name the same colour) have the same effect, so only one of them
is listed; :meth:`ThrowdownState._canonical` accepts every other valid order of a listed
play.  The canonical order puts the first card first (a card of the current colour when the
start needs one), the other cards in ascending face order, block by block along the chain
of links, and the chosen last card last.

The number links of TD-2.3 (the table ``LINK``, the one statement of TD-2.3 that the check
of a play and the enumeration share) form the path ``9 — 6 — 33 — 8`` (``33`` is a run of
two or more 3s) plus self links; every other number and every action type links only to
itself.  The path, its order and which values stand alone are derived from ``LINK``.  A
chain play is therefore a walk along that path, each visit one block of equal values, and
whether a multiset of cards can be ordered into a walk from value *s* to value *e* depends
only on how many cards of each value it has (``_ROUTES``, ``_chain_routes``).  The
enumeration runs over value counts first and expands to cards only for feasible ones, with
memoised sub-multisets, and builds the plays of one multiset for all its possible last
cards at once.  A listing is the concatenation of independent parts (each value outside the
chain, the lone 3s, the chain; in a Throwdown each family), each memoised on just the cards
and facts it depends on (``_regular_by_parts``, ``_defence_plays``); a part of one card is
decided on the spot.
Big hands allow astronomically many distinct plays; above :data:`MAX_LISTED_PLAYS` the list
is reduced (every play of one or two cards and every maximal play), every legal play is
still accepted, and :meth:`ThrowdownState.play_extensions` builds any throw card by card.

The Throwdown itself (TD-4) is phase ``response``: the pot, its level (2 or 4) and the
defender (the seat to act).  A defender without a legal defence draws the pot at once (no
decision point); only a position can hold such a pot, and its defender's one answer is then
``accept`` (docs/notation.md).  The dealer's choice of direction (TD-1.5) is phase
``deal``.  Uno calls (TD-5, call-backs TD-6.4 included) and declining a call-back are
out-of-turn window actions; so is leaving the table (TD-6.6) for any player holding cards
who is not to act (the player to act lists it with his turn actions).  ``out_order``
records every exit (TD-6.4: a called-back player who goes out again is listed again);
``left`` lists the seats that left the table.
"""

from __future__ import annotations

from typing import Final

from hotdeath.cards import DRAW_TWO, FACE_KIND, NUMBER, REVERSE, SKIP, WILD, WILD_DRAW_FOUR
from hotdeath.results import ResultExtra
from hotdeath.variants.base import Goal, VariantKit
from hotdeath.variants.throwdown.options import (
    PRESET_DESCRIPTIONS,
    PRESET_WORDS,
    PRESETS,
    ThrowdownOptions,
)
from hotdeath.variants.throwdown.state import (
    ALL,
    EXACT,
    F_DRAW,
    F_REV,
    F_SKIP,
    F_ZERO,
    FAM,
    FAMILY_NAMES,
    FULL,
    K_DRAW,
    K_NONE,
    K_REV,
    K_SKIP,
    K_WILD,
    LINK,
    MAX_LISTED_PLAYS,
    SMALL,
    V33,
    VAL,
    VD2,
    VREV,
    VSKIP,
    VW,
    VWD4,
    Items,
    Route,
    ThrowdownState,
    canonical_order,
    defence_plays,
    regular_plays,
)
from hotdeath.variants.variant import Variant

_CARD_RULES: Final = {NUMBER: "TD-2.2", SKIP: "TD-3.3", REVERSE: "TD-3.3", DRAW_TWO: "TD-4.1",
                      WILD: "TD-2.8", WILD_DRAW_FOUR: "TD-4.1"}


def _card_rule(face: int) -> str:
    return _CARD_RULES.get(FACE_KIND[face], "TD-2.2")


KIT: Final = VariantKit(
    throws=True,
    card_rule=_card_rule,
    help_rules=("TD-2.1", "TD-2.3", "TD-4.2", "TD-4.8", "TD-5.1", "TD-6.3"),
    challengeable_wd4=True,
    dealer_choice="the direction of play",
    inactive_word="left the table",
)
"""What the front ends know of Throwdown (see :class:`~hotdeath.variants.base.VariantKit`)."""


def _goal(_o: ThrowdownOptions) -> Goal:
    """TD-6.2: the first player out wins."""
    return Goal("TD-6.2", None, "Nobody scores: the first player to go out wins the game.")


THROWDOWN: Final = Variant(
    name="throwdown",
    title="Uno Throwdown",
    description="Throw down several linked cards at once (6=9, 33=6, 33=8), stack draw "
                "cards in a Throwdown draw pot, call Uno to make others draw",
    options_cls=ThrowdownOptions,
    state_cls=ThrowdownState,
    presets=PRESETS,
    preset_descriptions=PRESET_DESCRIPTIONS,
    preset_words=PRESET_WORDS,
    aliases=("td",),
    min_players=2,
    max_players=10,
    default_players=4,
    rule_prefix="TD",
    goal_of=_goal,
    kit=KIT,
    result_extras=(ResultExtra("left", "Left the table", "seats"),),
)


__all__ = [
    "ALL",
    "EXACT",
    "FAM",
    "FAMILY_NAMES",
    "FULL",
    "F_DRAW",
    "F_REV",
    "F_SKIP",
    "F_ZERO",
    "KIT",
    "K_DRAW",
    "K_NONE",
    "K_REV",
    "K_SKIP",
    "K_WILD",
    "LINK",
    "MAX_LISTED_PLAYS",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "PRESET_WORDS",
    "SMALL",
    "THROWDOWN",
    "V33",
    "VAL",
    "VD2",
    "VREV",
    "VSKIP",
    "VW",
    "VWD4",
    "Items",
    "Route",
    "ThrowdownOptions",
    "ThrowdownState",
    "canonical_order",
    "defence_plays",
    "regular_plays",
]
