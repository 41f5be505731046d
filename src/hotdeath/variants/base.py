"""The variant contract: what a game provides to the engine and to the front ends.

Three names make the contract, and the rest of the code reaches a variant only through them
(never through ``getattr`` on a variant or a state, nor a variant's name):

* :class:`~hotdeath.variants.variant.Variant` (in :mod:`hotdeath.variants.variant`, also
  ``hotdeath.Variant``), the registry entry: name, titles, options class, presets, player
  range, the goal, the state class and the kit;
* :class:`VariantState`, the abstract base of every variant's state: the rules hooks the
  engine calls (``start``, ``_turn_actions``, ``_apply`` …) and the typed facts the view,
  the position notation and search read (``pending``, ``hidden_cards`` …);
* :class:`VariantKit`, what front ends and tools need to know about the variant (the RL
  action space, the card values of the heuristic, help texts, the words for a dealer's
  choice), plain data and pure functions.

``mypy --strict`` checks every variant against these declarations: a state class that leaves
an abstract hook out cannot be instantiated, and a hook with the wrong signature is a type
error.  ``docs/architecture.md`` ("The variant contract") shows a variant built on them.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from hotdeath.actions import Action
from hotdeath.cards import (
    DOUBLE_SKIP,
    DRAW_TWO,
    FACE_KIND,
    FACE_NUMBER,
    IS_WILD,
    NUMBER,
    REVERSE_SKIP,
    SPREADER,
    WD4,
    standard_deck,
)
from hotdeath.state import GameState
from hotdeath.typevars import OptionsT

if TYPE_CHECKING:
    from hotdeath.view import View


class Goal(NamedTuple):
    """How a game is won under a variant and its options, as its rulebook says.

    ``rule`` is the rule id; ``lowest_wins`` tells which way totals count (None: no points
    decide, the first player out wins); ``text`` says it in words for people.
    """

    rule: str
    lowest_wins: bool | None
    text: str


class VariantState(GameState[OptionsT], metaclass=ABCMeta):
    """The abstract base of every variant's state: the hooks a variant must or may provide.

    Generic over the variant's options class: ``class MyState(VariantState[MyOptions])``
    makes ``self.opts`` a ``MyOptions``, so that ``mypy`` checks every option the rules read.

    Abstract (each variant writes its own): :meth:`check_options`, :meth:`start`,
    :meth:`_turn_actions`, :meth:`_main_actions` and :meth:`_apply`, and the attribute
    ``deck`` (set in ``__init__``).

    Typed hooks with a default that fits a variant without the feature, declared on
    :class:`~hotdeath.state.GameState` so that every front end holding a state reaches them
    (override what the variant has): the out-of-turn windows (``_has_windows``,
    ``_window_actions``), ``_canonical`` (other spellings of a listed play),
    ``_clone_extra``, ``pending`` / ``load_pending`` / ``pending_context`` (what the game
    waits for, as a :mod:`hotdeath.pending` value), ``infection_counts``, ``window_seat``,
    ``position_extra`` / ``load_position_extra`` (the position notation), ``hidden_cards``
    (what a seat cannot see, for determinisation), ``play_extensions`` / ``is_legal_play``
    (plays built card by card), ``_reshuffle_rule``, ``team_of``, the results
    (``last_hand``: the last :class:`~hotdeath.results.HandResult`; ``game_result()``), and
    ``next_game_dealer()``: the seat that deals the next game at the same table once this
    one is over (None: the variant's rule for a first game; front ends pass it on as the
    ``dealer`` of ``new_game``).
    """

    # ------------------------------------------------------------------ rules (abstract)

    @staticmethod
    @abstractmethod
    def check_options(players: int, opts: Any) -> None:  # (static: no type parameter)
        """Reject (:class:`~hotdeath.errors.OptionError`) options that cannot seat ``players``."""

    @abstractmethod
    def start(self, dealer: int | None) -> None:
        """Start the game: choose the first dealer (``None``: by the rules) and deal."""

    @abstractmethod
    def _turn_actions(self, seat: int) -> Sequence[Action]:
        """The legal actions of ``seat`` in a normal turn (phase ``TURN``).

        A list, or a tuple (a prebuilt one costs nothing: ``legal_actions`` returns tuples).
        """

    @abstractmethod
    def _main_actions(self, seat: int) -> Sequence[Action]:
        """The legal actions of the seat to act in any other phase."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Carry out a legal ``action`` of ``seat`` (the rules of the variant)."""


def standard_points(face: int) -> int:
    """A card's standard end-of-hand value (STD-9.3): its number, 50 a wild, 20 an action.

    The two-effect action cards count 40 and the Spreader 60 (their Hot Death values).
    """
    kind = FACE_KIND[face]
    if kind == NUMBER:
        return max(FACE_NUMBER[face], 0)
    if IS_WILD[face]:
        return 50
    if kind in (DOUBLE_SKIP, REVERSE_SKIP):
        return 40
    return 60 if kind == SPREADER else 20


def standard_draw_count(face: int) -> int:
    """Cards a played card adds to a draw (STD-5.1).

    Four for a Wild Draw Four, two for a Draw Two, none for the rest.
    """
    if face == WD4:
        return 4
    return 2 if FACE_KIND[face] == DRAW_TWO else 0


def _sum_points(kit: VariantKit, hand: Sequence[int]) -> int:
    return sum(kit.card_points(f) for f in hand)


@dataclass(frozen=True)
class VariantKit:
    """What front ends and tools know about a variant, declared by the variant itself.

    Pure data and pure functions, standard library only: the RL action space and
    observation pieces, the heuristic's card values, the help texts (rule ids per card and
    per topic) and a few words.  Nothing outside ``hotdeath.variants`` asks a variant's
    name to learn any of this.
    """

    faces: tuple[int, ...] = tuple(sorted(set(standard_deck())))
    """Every face that can occur under any preset or option, ascending (RL slots)."""
    directed_faces: frozenset[int] = frozenset()
    """Faces whose play names another seat (one RL play slot per other seat)."""
    chooses_deal: bool = False
    """Whether the dealer chooses the hand size (``deal N`` actions)."""
    jump_swaps: bool = False
    """Whether a jump-in may name a seat (a 7 under the 7-0 rule)."""
    throws: bool = False
    """Whether plays of several cards are built card by card (a throw)."""
    card_rule: Callable[[int], str] = field(default=lambda face: "STD-5.1")
    """The rule id of the rule that says what a card (face id) does."""
    help_rules: tuple[str, ...] = ()
    """The rule ids of the general topics the help screens list after the cards."""
    card_points: Callable[[int], int] = field(default=standard_points)
    """What a card (face id) costs its holder at the end of a hand (roughly, for bots)."""
    hand_points: Callable[[Sequence[int]], int] | None = None
    """What a hand costs its holder, hand-wide modifiers included (None: the card sum)."""
    points_reward: bool = False
    """Whether search rewards a losing seat a little for a cheap hand (points matter)."""
    challengeable_wd4: bool = False
    """Whether a Wild Draw Four played holding the current colour may be challenged."""
    dealer_choice: str | None = None
    """What the dealer chooses before the first play (words), if anything."""
    inactive_word: str = "ejected"
    """How the terminal tools describe a seat that no longer plays in the hand."""
    draw_count: Callable[[int], int] = field(default=standard_draw_count)
    """Cards a played card (face id) adds to a draw attack (0: it draws nothing), the
    variant's own table: bots and the coach read it, never a copy of it."""
    answers: tuple[int, ...] = ()
    """Cards worth holding back to answer attacks (Hot Death's defences), in the order the
    coach names them."""
    draw_victim: Callable[[View, int, int], int] | None = None
    """The seat a draw card ``face`` played by ``seat`` attacks, from what a view shows
    (``draw_victim(view, face, seat)``; None: the next active seat)."""
    position_from_view: Callable[[View], dict[str, Any]] = field(default=lambda view: {})
    """The variant's position fields (notation) that a :class:`~hotdeath.view.View` shows.

    Search builds a determinisation as a position: the common fields come from the view,
    these from the variant (its marks; what is pending comes from ``View.attack``).
    """

    def points_of(self, hand: Sequence[int]) -> int:
        """What ``hand`` costs its holder (:attr:`hand_points`, or the sum of card points)."""
        if self.hand_points is not None:
            return self.hand_points(hand)
        return _sum_points(self, hand)
