"""The game state shared by every variant, in OpenSpiel's vocabulary.

A :class:`GameState` is a whole game (hands to the target score).  It changes only
through :meth:`GameState.apply_action` (which returns events) or :meth:`GameState.step`
(the same without events, for fast simulation).  Both check the seat and the action
first and leave the state unchanged on error.

Out-of-turn actions are explicit *windows*: :meth:`legal_actions` for a seat that is not
the current player lists what it may do out of turn (call Uno, catch, challenge a 69
play, jump in), and :meth:`actors` lists every seat that may act now.  The game stays
sequential: ignoring the windows never blocks the current player.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, NoReturn, Self

from hotdeath.actions import PLAY as PLAY_KIND
from hotdeath.actions import Action
from hotdeath.cards import FACE_KIND, FACE_NUMBER, NO_COLOR, NUMBER, WILD_DRAW_FOUR
from hotdeath.errors import GameOverError, IllegalActionError, PositionError, WrongSeatError
from hotdeath.events import Event
from hotdeath.pending import Context, Pending
from hotdeath.results import GameResult, HandResult, standings
from hotdeath.rng import DEAL_SCHEME, DEAL_STREAM, DEALER_STREAM, Rng, stream_seed
from hotdeath.typevars import OptionsT

if TYPE_CHECKING:
    from hotdeath.variants import Variant
    from hotdeath.view import View

# Phases
DEAL: Final = 0
"""The dealer chooses the hand size (Hot Death)."""
TURN: Final = 1
"""A normal turn."""
RESPONSE: Final = 2
"""The victim of an attack answers it."""
CHOOSE_COLOR: Final = 3
"""A colour must be named (a wild turned up as the first card)."""
CHOOSE_VICTIM: Final = 4
"""A victim must be chosen (a directed card turned up as the first card)."""
GAME_OVER: Final = 5
"""The game has ended."""
PHASE_NAMES: Final = ("deal", "turn", "response", "choose_color", "choose_victim", "game_over")

TERMINAL: Final = -4
"""``current_player()`` once the game is over (as in OpenSpiel)."""
NOBODY: Final = -1
"""No seat: the sender of an up-card attack, a hand without a winner."""


_new_event: Final[Callable[[type[Event], tuple[Any, ...]], Event]] = tuple.__new__
"""Builds an :class:`Event` from its fields at C speed (see :meth:`GameState.emit`)."""


def _standard_draw_count(face: int) -> int:
    """Cards a standard drawing card makes draw: 4 for a Wild Draw Four, else 2."""
    return 4 if FACE_KIND[face] == WILD_DRAW_FOUR else 2


def _ring_of(active: tuple[bool, ...]) -> tuple[tuple[int, ...], ...]:
    """The next-seat table of the seats' pattern ``active`` (see ``GameState._ring``).

    For each direction ``d`` (1 clockwise, -1 counter-clockwise) and seat ``s`` the first
    active seat after ``s`` going ``d``, or ``s`` itself when no other seat is active;
    index 0 (no direction) is the seat itself.
    """
    n = len(active)
    rows: list[tuple[int, ...]] = [tuple(range(n))]
    for d in (1, -1):
        row: list[int] = []
        for seat in range(n):
            nxt = seat
            s = seat
            for _ in range(n):
                s = (s + d) % n
                if active[s]:
                    nxt = s
                    break
            row.append(nxt)
        rows.append(tuple(row))
    return (rows[0], rows[1], rows[2])  # ring[-1] is the counter-clockwise row


_RINGS: Final[dict[tuple[bool, ...], tuple[tuple[tuple[int, ...], ...], int]]] = {}
"""The next-seat tables built so far and their numbers of active seats, by pattern of active
seats (``_ring_of``)."""
_RINGS_MAX: Final = 4096
"""How many patterns ``_RINGS`` keeps (beyond that a table is built for each change)."""


_SLOTS: Final = (
    "variant",
    "opts",
    "n",
    "seed",
    "deal_scheme",
    "rng",
    "scores",
    "hand_no",
    "dealer",
    "phase",
    "turn",
    "direction",
    "hands",
    "draw_pile",
    "discard",
    "color",
    "drew",
    "drawn",
    "active",
    "n_active",
    "out_order",
    "uno_open",
    "revealed",
    "hand_size",
    "winners",
    "_last_hand",
    "_hand_later",
    "history",
    "init_params",
    "idle",
    "opening_events",
    "_events",
    "_ver",
    "_lc_ver",
    "_lc_seat",
    "_lc",
    "_windows",
    "_drawn_hook",
    "_ring",
    "_dry",
)
"""The fields every state keeps in slots (see :class:`GameState`)."""


class GameState(Generic[OptionsT]):
    """Base class of every variant's state: seats, piles, draws, windows, history.

    Generic over the variant's options class (``opts``; see :mod:`hotdeath.typevars`): a
    variant's state is a ``GameState[ItsOptions]``; code holding any state writes
    ``GameState``.
    """

    # The shared fields live in slots: a state has more attributes than an instance
    # dictionary keeps in its fast shared-key form, and these are read on every move.
    # Variants keep their own fields in the instance dictionary.
    __slots__ = (*_SLOTS, "__dict__")

    variant: Variant[OptionsT]
    opts: OptionsT

    def __init__(self, variant: Variant[OptionsT], opts: OptionsT, players: int,
                 seed: int, deal_scheme: int = DEAL_SCHEME) -> None:
        self.variant = variant
        self.opts = opts
        self.n = players
        self.seed = seed
        self.deal_scheme = deal_scheme
        """How deals follow from the seed (:data:`hotdeath.rng.DEAL_SCHEME`; 1: the scheme of
        games recorded before it, one generator for the whole game)."""
        self.rng = Rng(seed)
        self.scores: list[int] = [0] * players
        self.hand_no = 0
        self.dealer = 0
        self.phase = TURN
        self.turn = 0
        self.direction = 1
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = []  # top of the pile is the END of the list
        self.discard: list[int] = []
        self.color = NO_COLOR
        self.drew = False
        self.drawn = -1
        self.active: list[bool] = [True] * players
        self.n_active = players
        self._ring: tuple[tuple[int, ...], ...] = ()
        """``_ring[d][s]``: the next active seat after ``s`` in direction ``d`` (see
        :meth:`_seats_changed`, which owns it; ``d`` 1 or -1, ``0`` the seat itself)."""
        self._seats_changed()
        self.out_order: list[int] = []
        self.uno_open: list[int] = []
        self.revealed: list[list[int]] = [[] for _ in range(players)]
        self.hand_size = 7
        self.winners: list[int] = []
        self._last_hand: HandResult | None = None
        self._hand_later: tuple[Callable[..., HandResult], tuple[Any, ...]] | None = None
        """How to build ``last_hand`` when it is first read, or None (see ``last_hand``)."""
        self.history: list[tuple[int, Action]] = []
        self.init_params: dict[str, Any] = {}
        self.idle = 0
        """Turns in a row that ended with nobody able to play or draw (blocked hand)."""
        self.stack: list[int] | None = None
        """The top of the deck for the next deal (first card dealt first), or None."""
        self.opening_events: list[Event] = []
        """Events of the game's start (first dealer, deal, first card), before any action."""
        self._events: list[Event] | None = None
        self._ver = 0
        self._lc_ver = -1
        self._lc_seat = -1
        self._lc: tuple[Action, ...] = ()
        self._windows = True
        """False when no window can be open now (``_has_windows`` is then not asked): fixed
        by the options, or kept by a variant as its windows open and shut (Hot Death)."""
        self._drawn_hook = bool(self.drawn_watch)
        """Whether the variant watches the cards drawn (``drawn_watch``; else draws skip it)."""
        self._dry = False
        """A draw of the action being applied came up short: both piles were empty."""
        self._dry_seen: dict[str, int] = {}
        """How often each position came round after such a draw, this hand, by a digest of
        the position (see :meth:`_repeats_dry`; ``repeats`` in the position notation)."""
        self._dry_hand = -1

    # ------------------------------------------------------------------ public API

    def num_players(self) -> int:
        """Number of seats."""
        return self.n

    @property
    def last_hand(self) -> HandResult | None:
        """The result of the last hand that ended (see :mod:`hotdeath.results`), or None.

        A variant may leave it to be built when it is first read
        (:meth:`_hand_result_later`): simulations that never read it do not pay for it.
        """
        later = self._hand_later
        if later is not None:
            self._hand_later = None
            build, args = later
            self._last_hand = build(*args)
        return self._last_hand

    @last_hand.setter
    def last_hand(self, value: HandResult | None) -> None:
        self._hand_later = None
        self._last_hand = value

    def _hand_result_later(self, build: Callable[..., HandResult], args: tuple[Any, ...]) -> None:
        """Set ``last_hand`` to ``build(*args)``, built when first read.

        ``args`` must be values that nothing changes afterwards (tuples, snapshots): the
        result is the one of the moment the hand ended, whenever it is built.
        """
        self._hand_later = (build, args)

    def current_player(self) -> int:
        """The seat whose decision the game waits for, or ``TERMINAL``."""
        return TERMINAL if self.phase == GAME_OVER else self.turn

    def current_hand(self) -> int:
        """The number of the hand being played (1 for the first; the last one at the end).

        ``hand_no`` counts the hands dealt so far; a variant whose dealer chooses the deal
        before dealing says here that the hand being chosen is already the next one.
        """
        return self.hand_no

    def is_terminal(self) -> bool:
        """Whether the game (all hands to the target score) is over."""
        return self.phase == GAME_OVER

    def is_chance_node(self) -> bool:
        """Always false: shuffles come from the state's seeded generator."""
        return False

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Legal actions of ``seat`` (default: the current player), windows included.

        For a seat that is not the current player this lists only its out-of-turn
        actions (often none).  A tuple, cached until the state changes: nothing its caller
        does to it can change the state (``list(...)`` gives a list to change).
        """
        if seat is None:
            seat = self.turn
        if self._lc_ver == self._ver and self._lc_seat == seat:
            return self._lc
        acts: Sequence[Action]
        if self.phase == TURN and seat == self.turn:  # the common case, tested first
            acts = self._turn_actions(seat)
        elif self.phase == GAME_OVER or not 0 <= seat < self.n:
            return ()
        else:
            acts = () if seat != self.turn else self._main_actions(seat)
        out: tuple[Action, ...]
        if self.uno_open or (self._windows and self._has_windows()):
            window = self._window_actions(seat)
            out = (*acts, *window) if window else tuple(acts)
        else:
            out = tuple(acts)  # no copy when the variant gave a tuple (a prebuilt list)
        self._lc_ver = self._ver
        self._lc_seat = seat
        self._lc = out
        return out

    def actors(self) -> list[int]:
        """Every seat that may act now: the current player first, then window holders."""
        if self.phase == GAME_OVER:
            return []
        out = [self.turn]
        if self.uno_open or (self._windows and self._has_windows()):
            out += [
                s for s in range(self.n) if s != self.turn and self._window_actions(s)
            ]
        return out

    def apply_action(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Apply ``action`` for ``seat`` (default: the current player); return the events.

        Raises :class:`~hotdeath.errors.IllegalActionError` (or its subclasses
        ``WrongSeatError``, ``GameOverError``) and leaves the state unchanged when the
        action is not legal for that seat now.  The same code as :meth:`step`, with an
        event list set as the sink of :meth:`emit`.
        """
        events: list[Event] = []
        self._events = events
        try:
            self.step(action, seat)
        finally:
            self._events = None
        return events

    def step(self, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` like :meth:`apply_action` but build no events.

        The one apply path of every variant: the seat and legality checks, then the
        variant's ``_apply`` (its rules, which end the action: windows, hand end, turn).
        Events are built only when :meth:`apply_action` has set a sink.
        """
        if seat is None:
            seat = self.turn
        if self._lc_ver == self._ver and self._lc_seat == seat:
            legal = self._lc
        else:
            legal = self.legal_actions(seat)
        if action not in legal:
            action = self._checked(action, seat, legal)
        self.history.append((seat, action))
        self._apply(seat, action)
        if self._dry:  # a draw found both piles empty: a circle of play may have closed
            self._dry = False
            if self._repeats_dry():
                self._end_blocked(seat)
        self._ver += 1  # invalidates the cached legal actions

    def _checked(self, action: Action | str, seat: int, legal: tuple[Action, ...]) -> Action:
        """The listed action that ``action`` (text, or another spelling) stands for.

        Raises the coded error when there is none (the state is untouched).
        """
        if isinstance(action, str):
            action = Action.parse(action)
            if action in legal:
                return action
        if self.phase == GAME_OVER:
            raise GameOverError("game_over", "the game is over")
        canonical = self._canonical(seat, action) if legal else None
        if canonical is None:
            self._reject(action, seat, legal)
        return canonical

    def _reject(self, action: Action, seat: int, legal: tuple[Action, ...]) -> NoReturn:
        if not 0 <= seat < self.n:
            raise WrongSeatError("wrong_seat", f"there is no seat {seat}")
        if not legal:
            raise WrongSeatError(
                "wrong_seat", f"P{seat} may not act now (P{self.turn} is to act)"
            )
        shown = ", ".join(str(a) for a in legal[:12]) + (" …" if len(legal) > 12 else "")
        raise IllegalActionError(
            "illegal_action", f"'{action}' is not legal for P{seat} now (legal: {shown})"
        )

    def returns(self) -> list[float]:
        """1.0 for each winner of the game and 0.0 for everyone else (0s until the end)."""
        return [1.0 if s in self.winners else 0.0 for s in range(self.n)]

    def clone(self) -> Self:
        """An independent copy (copies only the mutable parts)."""
        cls = type(self)
        names: tuple[str, ...] | None = getattr(cls, "__mypyc_attrs__", None)
        if names is None:
            new = cls.__new__(cls)
            new.__dict__.update(self.__dict__)
            # the slots that are not copied below (spelt out: a loop of setattr is slower)
            new.variant = self.variant
            new.opts = self.opts
            new.n = self.n
            new.seed = self.seed
            new.deal_scheme = self.deal_scheme
            new.hand_no = self.hand_no
            new.dealer = self.dealer
            new.phase = self.phase
            new.turn = self.turn
            new.direction = self.direction
            new.color = self.color
            new.drew = self.drew
            new.drawn = self.drawn
            new.n_active = self.n_active
            new.hand_size = self.hand_size
            new._last_hand = self._last_hand
            new._hand_later = self._hand_later  # its arguments are snapshots: shared
            new.init_params = self.init_params
            new.idle = self.idle
            new.opening_events = self.opening_events
            new._ver = self._ver
            new._lc_seat = self._lc_seat
            new._lc = self._lc
            new._windows = self._windows
            new._drawn_hook = self._drawn_hook
            new._ring = self._ring
        else:  # compiled with mypyc: native classes have no __dict__
            new = cls(self.variant, self.opts, self.n, self.seed, self.deal_scheme)
            for name in names:
                if hasattr(self, name):
                    setattr(new, name, getattr(self, name))
        new.rng = Rng(self.rng.state)
        new.scores = self.scores[:]
        new.hands = [h[:] for h in self.hands]
        new.draw_pile = self.draw_pile[:]
        new.discard = self.discard[:]
        new.active = self.active[:]
        new.out_order = self.out_order[:]
        new.uno_open = self.uno_open[:]
        new.revealed = [r[:] for r in self.revealed]
        new.winners = self.winners[:]
        new.history = self.history[:]
        new._dry = False
        new._dry_seen = dict(self._dry_seen)
        new._lc_ver = -1
        new._events = None
        self._clone_extra(new)
        return new

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (``None``: a spectator).  See :mod:`hotdeath.view`."""
        from hotdeath.view import build_view

        return build_view(self, seat)

    @property
    def top(self) -> int:
        """The discard-pile top card (face id), or -1 when the pile is empty."""
        return self.discard[-1] if self.discard else -1

    def describe_state(self) -> str:
        """A one-line summary for logs and errors."""
        from hotdeath.cards import COLOR_NAMES, card_code

        top = card_code(self.top) if self.discard else "-"
        col = COLOR_NAMES[self.color] if self.color >= 0 else "-"
        return (
            f"{self.variant.name} hand {self.hand_no} {PHASE_NAMES[self.phase]} "
            f"P{self.turn} to act, top {top} ({col}), "
            f"{'clockwise' if self.direction == 1 else 'counter-clockwise'}"
        )

    def pending(self) -> Pending | None:
        """What the game waits for an answer to (an attack, a pot), or None.

        The full value, hidden facts included (a Wild Draw Four's legality): views show
        ``pending().public()``.  See :mod:`hotdeath.pending`.
        """
        return None

    def load_pending(self, value: Pending | None) -> None:
        """Set what is pending from a value (positions); refuse one that cannot be.

        Raises :class:`~hotdeath.errors.PositionError` (``bad_position``) for a value this
        game has no use for or that does not fit the state; a variant with pending
        values overrides this.
        """
        if value is not None:
            raise PositionError(
                "bad_position", f"{self.variant.name} has no pending {type(value).__name__}"
            )

    def _stream(self, hand: int, purpose: int) -> None:
        """Start the generator on ``purpose``'s stream of hand ``hand`` (deal scheme 2).

        Under scheme 1 (older records) the one generator of the game simply goes on.
        """
        if self.deal_scheme != 1:
            self.rng.state = stream_seed(self.seed, hand, purpose)

    def _deal_pile(self, k: int) -> list[int]:
        """The deck for a deal of ``k`` cards each, its top at the end (dealt from the end).

        Shuffled; a stacked deck (``stack``, once) puts its cards on top in its order,
        the rest of the deck shuffled under them.  Under deal scheme 2 the shuffle is the
        hand's own stream (:func:`hotdeath.rng.stream_seed`), and the cards dealt are laid so
        that dealing from the dealer's left gives the j-th card of the shuffled deck to seat
        ``j % players``: each seat's cards are the same whoever deals, and a deal of fewer
        cards gives each seat the first ones of a larger deal (:meth:`_seat_order`).
        """
        pile = self.deck[:]
        stack = self.stack
        if stack is not None:
            self.stack = None
            for c in stack:
                pile.remove(c)
            self.rng.shuffle(pile)
            pile += stack[::-1]
            return pile
        self._stream(self.hand_no, DEAL_STREAM)
        self.rng.shuffle(pile)
        if self.deal_scheme != 1:
            self._seat_order(pile, k)
        return pile

    def _seat_order(self, pile: list[int], k: int) -> None:
        """Lay the top ``k * players`` cards of ``pile`` so no seat's cards depend on the dealer.

        Dealt from his left, the card a seat gets in round ``i`` is the
        ``i * players + seat``-th card of the shuffle (counted from the top).  The server's
        deck commitment is of the deck as laid (the order dealt from): the shuffle's record
        (``Rng.shuffles``) is replaced by it.
        """
        n = self.n
        shift = (self.dealer + 1) % n
        if shift:
            size = len(pile)
            top = pile[size - k * n:][::-1]  # the cards dealt, the first dealt first
            for j in range(k * n):
                block = j - j % n
                pile[size - 1 - j] = top[block + (j + shift) % n]
        shuffles = self.rng.shuffles
        if shuffles:
            shuffles[-1] = pile[:]

    def _deal_hands(self, pile: list[int], k: int) -> list[list[int]]:
        """``k`` cards to each seat from the top of ``pile`` (its end), taken off it.

        One card at a time in rounds starting left of the dealer: the j-th card dealt goes
        to the j-th seat after the dealer.
        """
        n = self.n
        cut = len(pile) - k * n
        dealt = pile[cut:]
        del pile[cut:]
        dealt.reverse()
        hands: list[list[int]] = [[]] * n  # every seat's entry is replaced below
        d = self.dealer
        for i in range(n):
            hands[(d + 1 + i) % n] = dealt[i::n]
        return hands

    def start_hand(self) -> None:
        """The start-of-hand procedure after the deal (the first card and its rules).

        The position notation runs it for a position whose first card is still to be
        turned up (``turn_up``); a variant without one refuses such positions.
        """
        raise PositionError(
            "bad_position", f"{self.variant.name} has no start-of-hand procedure to run"
        )

    def may_end_without_winner(self) -> bool:
        """Whether this game can be over with nobody winning it (a position check)."""
        return False

    def check_position(self) -> None:
        """Refuse a loaded position that this variant cannot reach.

        Raises :class:`~hotdeath.errors.PositionError`; the common checks are the position
        loader's (:func:`hotdeath.notation.from_position`).
        """

    def pending_context(self) -> Context:
        """What the defaults of a hand-made pending value depend on (see ``pending``)."""
        n = self.n
        return Context(
            turn=self.turn, top=self.discard[-1] if self.discard else -1,
            before=lambda s: self.next_seat(s, -self.direction) if 0 <= s < n else NOBODY,
            draw_count=_standard_draw_count,
        )

    # ------------------------------------------------------------------ hooks
    # The variant contract (hotdeath.variants.base.VariantState): the rules hooks below and
    # the typed facts a variant may provide; each default fits a variant without the feature.

    deck: list[int]
    """Every card of the game under its options (face ids); each variant sets it."""

    def infection_counts(self) -> list[int]:
        """Per seat, the marks a seat carries from hand to hand (Hot Death's Virus); zeros."""
        return [0] * self.n

    def window_seat(self) -> int:
        """The seat whose special play may still be challenged out of turn, or ``NOBODY``."""
        return NOBODY

    def position_extra(self) -> dict[str, Any]:
        """The variant's own fields of a position (:func:`hotdeath.notation.to_position`)."""
        return {}

    def load_position_extra(self, data: Mapping[str, Any]) -> None:
        """Restore the fields :meth:`position_extra` wrote (raise a coded error if bad)."""

    def hidden_cards(self, seat: int | None) -> list[int]:
        """The cards ``seat`` cannot see (others' unrevealed hand cards, the draw pile).

        Search uses it to know what a determinisation may reshuffle; ``None`` is a
        spectator, who sees no hand.
        """
        out: list[int] = []
        for s in range(self.n):
            if s == seat:
                continue
            shown = list(self.revealed[s]) if self.active[s] else []
            for c in self.hands[s]:
                if c in shown:
                    shown.remove(c)
                else:
                    out.append(c)
        return out + self.draw_pile[::-1]

    def play_extensions(self, seat: int, prefix: tuple[int, ...] | list[int]) -> list[int]:
        """Cards that may follow ``prefix`` in a play built card by card (none by default)."""
        return []

    def is_legal_play(self, seat: int, cards: tuple[int, ...] | list[int]) -> bool:
        """Whether ``cards`` in this order are a complete legal play of ``seat`` now."""
        return any(a.kind == PLAY_KIND and list(a.cards) == list(cards)
                   for a in self.legal_actions(seat))

    def why_not_play(self, seat: int, cards: tuple[int, ...] | list[int]
                     ) -> tuple[str, str] | None:
        """Why no order of ``cards`` is a legal play of ``seat`` now, or None if one is.

        The reason is ``(rule id, words)``: the rule that refuses the selection and a
        sentence for people (the rule id may be empty where no one rule says it).  For
        interfaces where a player picks several cards before playing them; variants with
        plays built card by card name the rule.  By default: whether a listed play holds
        exactly these cards.
        """
        key = sorted(cards)
        if any(a.kind == PLAY_KIND and sorted(a.cards) == key
               for a in self.legal_actions(seat)):
            return None
        return "", "these cards are not a play you can make now"



    def _main_actions(self, seat: int) -> Sequence[Action]:
        raise NotImplementedError

    def _turn_actions(self, seat: int) -> Sequence[Action]:
        raise NotImplementedError

    def _has_windows(self) -> bool:
        return False

    def _canonical(self, seat: int, action: Action) -> Action | None:
        """The listed legal action that ``action`` is another spelling of, or None.

        Variants with multi-card plays list one canonical order per play and accept any
        other legal order through this hook; the others accept only listed actions.
        """
        return None

    def _window_actions(self, seat: int) -> list[Action]:
        return []

    def _apply(self, seat: int, action: Action) -> None:
        raise NotImplementedError

    def _clone_extra(self, new: Any) -> None:
        """Copy variant-specific mutable fields into ``new``."""

    # ------------------------------------------------------------------ helpers

    def emit(
        self,
        kind: str,
        seat: int,
        rule: str,
        cards: tuple[int, ...] = (),
        n: int = 0,
        target: int = -1,
        color: int = -1,
        hidden: bool = False,
        info: tuple[tuple[str, int], ...] = (),
    ) -> None:
        """Record an event (only when events are being collected)."""
        ev = self._events
        if ev is not None:  # (tuple.__new__: the named tuple's own __new__ is Python code)
            ev.append(_new_event(Event, (kind, seat, rule, cards, n, target, color, hidden,
                                         info)))

    def next_seat(self, seat: int, direction: int | None = None) -> int:
        """The next active seat after ``seat`` (which may itself be inactive).

        Read from the table :meth:`_seats_changed` keeps (hot paths read ``_ring`` too).
        """
        return self._ring[self.direction if direction is None else direction][seat]

    def _seats_changed(self) -> None:
        """Recount the active seats after ``active`` changed (every change calls this).

        Sets ``n_active`` and the next-seat table ``_ring`` of the seats' pattern (see
        :func:`_ring_of`; each pattern's table is built once and shared).
        """
        key = tuple(self.active)
        known = _RINGS.get(key)
        if known is None:
            known = (_ring_of(key), sum(key))
            if len(_RINGS) < _RINGS_MAX:
                _RINGS[key] = known
        self._ring, self.n_active = known

    def buried_cards(self) -> int:
        """How many cards at the bottom of the discard pile lie face down (0 by default).

        Nobody sees them: views show the pile above them and only their number (Throwdown,
        TD-6.6: the hand of a player who leaves goes under the pile).  A reshuffle takes them
        into the draw pile with the rest.
        """
        return 0

    def _refill(self, rule: str) -> bool:
        """Shuffle the discard pile (all but its top) into a new draw pile."""
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        pile = self.discard
        self.rng.shuffle(pile)
        self.draw_pile = pile
        self.discard = [top]
        if self._events is not None:
            self.emit("reshuffle", -1, rule, n=len(pile))
        return True

    def draw_cards(self, seat: int, count: int, rule: str) -> int:
        """``seat`` draws ``count`` cards (reshuffling as needed); returns how many.

        Events: a ``draw`` of the cards drawn (none when no card could be drawn) and, when
        both piles ran out first, a ``forgiven`` of the cards still owed.
        """
        pile = self.draw_pile
        got: list[int]
        if count == 1 and pile:  # the common case first
            got = [pile.pop()]
        elif count <= 0:
            return 0
        elif count <= len(pile):  # every card from the top (the end) of the pile at once
            got = pile[-count:]
            del pile[-count:]
            got.reverse()
        else:
            got = []
            for _ in range(count):
                if not pile:
                    if not self._refill(self._reshuffle_rule()):
                        break
                    pile = self.draw_pile
                got.append(pile.pop())
        drawn = len(got)
        if drawn:
            hand = self.hands[seat]
            if not hand:
                self._back_in(seat)
            hand += got
            if seat in self.uno_open:
                self.uno_open.remove(seat)
            if self._drawn_hook and not self.drawn_watch.isdisjoint(got):
                self._on_drawn(seat, got)
        if drawn < count:
            self._dry = True
        if self._events is not None:
            if drawn:  # a draw that found both piles empty is only the forgiven event
                self.emit("draw", seat, rule, tuple(got), drawn, hidden=True)
            if drawn < count:
                self.emit("forgiven", seat, self._shortfall_rule(rule), n=count - drawn)
        return drawn

    def _repeats_dry(self) -> bool:
        """Count the position after a draw that found both piles empty; True the third time.

        Every card is then in a hand or on the pile, and play can go round a circle for
        ever (two players trading Spreaders and Draw Twos, cards coming back through the
        reshuffles): the same position a third time in a hand makes the hand *blocked*
        (STD-0.4 / HD-3.7.1 / TD-3.2; a ruling, like chess's threefold repetition). The
        position is everything a position records but the generator and the order of the
        cards in the piles (the top card apart), with the player to act in an ordinary turn
        and nothing pending.
        """
        from hotdeath.notation import to_position  # notation imports this module

        if self.phase != TURN or self.pending() is not None:
            return False
        if self._dry_hand != self.hand_no:
            self._dry_seen.clear()
            self._dry_hand = self.hand_no
        pos = to_position(self)
        # not what is never the same twice (rng, turns …), nor deal_scheme (the same all game:
        # the digests of positions written before it stay those of their repeats)
        for name in ("rng", "deal_scheme", "idle", "history", "turns", "repeats"):
            pos.pop(name, None)
        pos["draw"] = sorted(pos["draw"])
        pos["discard"] = sorted(pos["discard"][:-1]) + pos["discard"][-1:]  # the top apart
        text = json.dumps(pos, sort_keys=True, separators=(",", ":"))
        key = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
        seen = self._dry_seen.get(key, 0) + 1
        self._dry_seen[key] = seen
        return seen >= 3

    def _end_blocked(self, seat: int) -> None:
        """End the hand as blocked (the variant's ruling); ``seat`` is the one who acted."""
        raise NotImplementedError(f"{type(self).__name__} has no blocked-hand ruling")

    def _blocked_after_draw(self, had_play: bool, got: int) -> bool:
        """Count a turn in which the player could neither play nor draw a card.

        When every active player in turn has been in that state, no card can ever move
        again: the hand is *blocked* (a ruling: STD-0.4 / HD-3.7.1).
        """
        if had_play or got:
            self.idle = 0
            return False
        self.idle += 1
        return self.idle >= self.n_active

    drawn_watch: ClassVar[frozenset[int]] = frozenset()
    """The faces whose drawing calls :meth:`_on_drawn` (none by default)."""

    def _on_drawn(self, seat: int, cards: list[int]) -> None:
        """Hook after ``seat`` drew ``cards``, one of them or more in ``drawn_watch``."""

    def _back_in(self, seat: int) -> None:
        """Hook: ``seat``, whose hand was empty, has just drawn cards.

        By default the seat is no longer out: ``out_order`` lists the seats out *now* (Hot
        Death: a Retaliation that sends a draw back to a player who went out).  A variant
        whose ``out_order`` is a record of every exit (Throwdown, TD-6.4) keeps it.
        """
        if seat in self.out_order:
            self.out_order.remove(seat)

    def _draw_high(self, full: list[int]) -> int:
        """Who deals first: each contender turns a card of ``full``; the highest number wins.

        Ties redraw among the tied; the cards come from a shuffled copy (the game's own piles
        are untouched).
        """
        self._stream(self.hand_no + 1, DEALER_STREAM)
        deck = full[:]
        self.rng.shuffle(deck)
        contenders = list(range(self.n))
        while True:
            values: dict[int, int] = {}
            for s in contenders:
                if not deck:
                    deck = full[:]
                    self.rng.shuffle(deck)
                f = deck.pop()
                values[s] = FACE_NUMBER[f] if FACE_KIND[f] == NUMBER else 0
            best = max(values.values())
            contenders = [s for s in contenders if values[s] == best]
            if len(contenders) == 1:
                return contenders[0]

    def _reshuffle_rule(self) -> str:
        """The rule a reshuffle of the discard pile cites (STD-0.4 by default)."""
        return "STD-0.4"

    def _shortfall_rule(self, rule: str) -> str:
        """The rule that forgives what a draw for ``rule`` still owes, both piles empty.

        The variant's ``shortfall``; by default its reshuffle rule.
        """
        return self._reshuffle_rule()

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats of ``seat``'s team (just itself without partners)."""
        return (seat,)

    # ------------------------------------------------------------------ results

    def game_result(self) -> GameResult | None:
        """How the game ended (None while it goes on), in the common shape.

        Built from the winners, the totals, the last hand's result and the variant's goal;
        a variant says why its game ended through :meth:`game_end` and adds its declared
        extras through :meth:`game_extras`.
        """
        if self.phase != GAME_OVER:
            return None
        goal = self.variant.goal(self.opts)
        last = self.last_hand
        end, rule = self.game_end()
        loser = last.loser if last is not None else None
        totals = tuple(self.standing_totals())
        return GameResult(
            hands=self.current_hand(), end=end, rule=rule, winners=tuple(self.winners),
            totals=tuple(self.scores), lowest_wins=goal.lowest_wins,
            standings=standings(self.winners, totals, goal.lowest_wins,
                                () if loser is None else (loser,)),
            out_order=last.out_order if last is not None else (),
            loser=loser, last_hand=last, extras=self.game_extras(),
        )

    def next_game_dealer(self) -> int | None:
        """The seat that deals the next game at the same table, as the variant's rules say.

        A front end starting another game after this one passes it to ``new_game`` as the
        dealer.  ``None``: the rules give the next game no dealer of its own (it starts as a
        first game does), and always while this game is still going on.  The default fits a
        variant whose games pass nothing on; Throwdown's winner deals the next game (TD-1.6).
        """
        return None

    def game_end(self) -> tuple[str, str]:
        """Why the game ended: an end code (``hotdeath.results.END_CODES``) and its rule."""
        return ("target", self.variant.goal(self.opts).rule)

    def game_extras(self) -> dict[str, Any]:
        """The variant's declared extras of its game result (none by default)."""
        return {}

    def standing_totals(self) -> list[int]:
        """The totals the standings are ordered by (a team's total under partners)."""
        return self.scores[:]
