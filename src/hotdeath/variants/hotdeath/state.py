"""The Hot Death state: turns, the attack state machine (HD-4), windows, positions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from hotdeath import actions as A
from hotdeath.actions import Action, make, play
from hotdeath.cards import (
    BASTARDS,
    BB,
    BS,
    COLORS,
    DB,
    DOUBLE_SKIP,
    DRAW_TWO,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    GLAS,
    HOLY,
    HOS,
    HOT,
    HOT_DEATH,
    IS_WILD,
    LOI,
    M5,
    MADC,
    MYS,
    NUM_FACES,
    NUMBER,
    QUIT,
    RET,
    REVERSE,
    REVERSE_SKIP,
    SKIP,
    SN,
    SPREADER,
    VIR,
    WD4,
    WILD,
    card_code,
    hotdeath_deck,
    hotdeath_double_deck,
    parse_card,
)
from hotdeath.errors import NotationError, OptionError, PositionError
from hotdeath.pending import Context, DrawAttack, Ejection, Pending, Pot, Reveal
from hotdeath.results import HandResult, SeatScore
from hotdeath.rng import DEAL_SCHEME, DEALER_STREAM
from hotdeath.state import CHOOSE_COLOR, CHOOSE_VICTIM, DEAL, GAME_OVER, NOBODY, RESPONSE, TURN
from hotdeath.variants.base import VariantState
from hotdeath.variants.hotdeath.card_table import (
    _NUMS,
    DEFENCES,
    DRAW_COUNT,
    MATCH,
    PRIV,
    blast_skips,
    rule_of,
)
from hotdeath.variants.hotdeath.options import HotDeathOptions
from hotdeath.variants.hotdeath.scoring import hand_values, score_lines

if TYPE_CHECKING:
    from hotdeath.variants.variant import Variant

# Attack kinds and families (HD-4.1)
NO_ATTACK: Final = 0
DRAW_ATTACK: Final = 1
EJECT_ATTACK: Final = 2
REVEAL_ATTACK: Final = 3
ATTACK_NAMES: Final = ("none", "draw", "eject", "reveal")
WILD_DRAW: Final = 0
DRAW_TWO_FAMILY: Final = 1
MYSTERY: Final = 2
FAMILY_NAMES: Final = ("wild_draw", "draw_two", "mystery")
DEALER_FIRST: Final = -2
"""Glasnost anchor of an up-card under ``first_player=dealer``: the dealer plays first."""
_STACK_WILDS: Final = frozenset((WD4, HOT, DB, HOS))
_DEFENCES: Final = DEFENCES
_DRAW_COUNT: Final = DRAW_COUNT
_PLAYS: Final = tuple(
    tuple(play(f, c) for c in COLORS) if IS_WILD[f] else (play(f),) for f in range(NUM_FACES)
)
_PLAYS_UNO: Final = tuple(
    tuple(play(f, c, uno=True) for c in COLORS) if IS_WILD[f] else (play(f, uno=True),)
    for f in range(NUM_FACES)
)
_PLAYS_BOTH: Final = tuple(_PLAYS[f] + _PLAYS_UNO[f] for f in range(NUM_FACES))
"""Each face's plays followed by its Uno-call plays (a hand of two cards)."""
_MATCHING: Final = tuple(
    frozenset(f for f in range(NUM_FACES) if MATCH[k][f]) for k in range(NUM_FACES + 4)
)
"""The faces playable on each table key without the 69 privilege (``MATCH`` as sets)."""
_PRIVILEGED: Final = tuple(
    frozenset(f for f in range(NUM_FACES) if PRIV[k][f]) for k in range(NUM_FACES + 4)
)
"""The faces playable on each table key only by the 69's holder (``PRIV`` as sets)."""
_EXTRA: Final = tuple(_PRIVILEGED[k] | {SN, BB} for k in range(NUM_FACES + 4))
"""The faces whose legality on each key needs more than the match table: the privileged
ones, the 69 itself (it grants the privilege) and Big Brother."""
_CANDIDATES: Final = tuple(_MATCHING[k] | _EXTRA[k] for k in range(NUM_FACES + 4))
"""Every face that may be playable on each table key, whatever else the hand holds."""
_DIRECTED: Final = frozenset((GLAS, MADC))
"""Cards whose plays may name a victim (``_expand``)."""
_SPECIAL: Final = tuple(_EXTRA[k] | _DIRECTED for k in range(NUM_FACES + 4))
"""The faces that send a turn list on each table key to the general builder."""
_DRAW: Final = A.DRAW_ACTION
_PLAY_KIND: Final = A.PLAY
_ACCEPT_KIND: Final = A.ACCEPT
_DRAW_KIND: Final = A.DRAW
_BASTARD_SET: Final = frozenset(BASTARDS)
_NO_TURN_EFFECT: Final = frozenset((HOLY, RET, VIR, LOI, BS, SN, M5, BB))
"""Special cards that, played in a turn, only hand the turn on (their effect is elsewhere)."""
_PASS_KIND: Final = A.PASS
_PASS: Final = A.PASS_ACTION
_DRAW_ONLY: Final = (_DRAW,)
_PASS_ONLY: Final = (_PASS,)
_THEN: Final = tuple(
    (tuple((*p, _DRAW) for p in table), tuple((*p, _PASS) for p in table))
    for table in (_PLAYS, _PLAYS_BOTH)
)
"""``_THEN[uno][drew][f]``: the turn list of a hand whose one playable face is ``f``, whole
and prebuilt (its plays, with their Uno-call twins when ``uno``, then draw, or pass after a
draw): the most common turn costs no list."""
_DEAL_ACTIONS: Final = tuple(make(A.DEAL, n=k) for k in range(31))
_COLOR_ACTIONS: Final = tuple(make(A.COLOR, color=c) for c in COLORS)
_CATCHES: Final = tuple(make(A.CATCH, target=x) for x in range(10))
"""``catch x`` of every seat ``x`` (10 players at most)."""


def _hand_result(hand: int, end: str, rule: str, winner: int, out_order: tuple[int, ...],
                 gains: tuple[int, ...], infos: tuple[tuple[tuple[str, int], ...], ...],
                 totals: tuple[int, ...], cards: tuple[tuple[int, ...], ...],
                 extras: dict[str, Any]) -> HandResult:
    """The result of a scored hand (HD-3.7.2), built when ``last_hand`` is first read.

    ``gains`` are each seat's points, ``infos`` their scoring steps (``hand_values``, the
    Virus penalty last), ``totals`` the totals after the hand.
    """
    seats = tuple(SeatScore(s, gains[s], score_lines(infos[s]), totals[s], cards[s])
                  for s in range(len(gains)))
    return HandResult(hand=hand, end=end, rule=rule, winners=(winner,) if winner >= 0 else (),
                      out_order=out_order, seats=seats, extras=extras)


class HotDeathState(VariantState[HotDeathOptions]):
    """A game of Hot Death Uno (hands until a total reaches ``game_end_score``)."""

    def __init__(self, variant: Variant[HotDeathOptions], opts: HotDeathOptions, players: int,
                 seed: int, deal_scheme: int = DEAL_SCHEME) -> None:
        super().__init__(variant, opts, players, seed, deal_scheme)
        self.deck = hotdeath_deck() if opts.deck == "single_108" else hotdeath_double_deck()
        self.infections = [0] * players
        self.a_kind = NO_ATTACK
        self.a_family = WILD_DRAW
        self.a_count = 0
        self.a_victim = NOBODY
        self.a_sender = NOBODY
        self.a_attacker = NOBODY
        self.a_last = -1
        self.a_locked = False
        self.a_redirected = False
        self.a_anchor = NOBODY
        self.a_two = False
        self.sn_seat = NOBODY
        self._windows = False  # follows sn_seat (see _has_windows)
        self.up_pending = -1
        self.hand_winner = NOBODY
        self._chk_bastards = False
        self._game_winner = NOBODY
        self._uno_catch = opts.uno_rule == "catch"
        self._drawn_only = opts.after_draw_play == "drawn_card_only"
        self._draw_one = opts.draw_rule == "draw_one"
        self._db_skip = opts.delayed_blast_min_active_for_skip

    @staticmethod
    def check_options(players: int, opts: HotDeathOptions) -> None:
        """Reject impossible combinations (HD-3.1)."""
        size = 108 if opts.deck == "single_108" else 216
        if opts.min_deal > opts.max_deal:
            raise OptionError(
                "bad_option_combination",
                f"min_deal ({opts.min_deal}) is larger than max_deal ({opts.max_deal})",
            )
        if players * opts.min_deal + 1 > size:
            raise OptionError(
                "bad_option_combination",
                f"{players} players cannot be dealt {opts.min_deal} cards each from the "
                f"{size}-card deck (deck={opts.deck}, min_deal={opts.min_deal})",
            )

    def _clone_extra(self, new: Any) -> None:
        new.infections = self.infections[:]

    def _reshuffle_rule(self) -> str:
        return "HD-3.2"

    # ------------------------------------------------------------------ setup

    def start(self, dealer: int | None) -> None:
        """Choose the first dealer (random unless given); he then chooses the deal size."""
        if dealer is None:
            self._stream(1, DEALER_STREAM)
            dealer = self.rng.below(self.n)
        self.dealer = dealer
        self.emit("dealer", self.dealer, "HD-3.2")
        self.phase = DEAL
        self.turn = self.dealer

    def current_hand(self) -> int:
        """The hand being played, or the one the dealer is choosing the size of (HD-3.2)."""
        return self.hand_no + 1 if self.phase == DEAL else self.hand_no

    def deal_sizes(self) -> list[int]:
        """Hand sizes the dealer may choose now."""
        size = len(self.deck)
        return [
            k for k in range(self.opts.min_deal, self.opts.max_deal + 1)
            if self.n * k + 1 <= size
        ]

    def _deal(self, k: int) -> None:
        n = self.n
        self.hand_no += 1
        self.hand_size = k
        pile = self._deal_pile(k)
        self.draw_pile = pile
        self.discard = []
        self.hands = self._deal_hands(pile, k)
        self.active = [True] * n
        self._seats_changed()
        self.revealed = [[] for _ in range(n)]
        self.out_order = []
        self.uno_open = []
        self.sn_seat = NOBODY
        self._windows = False  # follows sn_seat (see _has_windows)
        self.direction = 1
        self.a_kind = NO_ATTACK
        self.hand_winner = NOBODY
        self.drew = False
        self.drawn = -1
        self.idle = 0
        self._chk_bastards = True
        self.emit("deal", self.dealer, "HD-3.2", n=k)
        self._turn_up()

    def start_hand(self) -> None:
        """The up-card and its effect on the dealer (HD-3.3), after the deal."""
        if not self.draw_pile:
            raise PositionError("bad_position", "the draw pile is empty: no up-card to turn")
        self._chk_bastards = True
        self._turn_up()

    def _turn_up(self) -> None:
        top = self.draw_pile.pop()
        self.discard.append(top)
        self.emit("up_card", -1, "HD-3.3", (top,))
        if self.opts.up_card_rule == "ignore":
            while IS_WILD[top] and self.draw_pile:
                top = self.draw_pile.pop()
                self.discard.append(top)
                self.emit("up_card", -1, "HD-3.3", (top,))
            self.color = FACE_COLOR[top]
            self._first_turn()
            return
        self.color = FACE_COLOR[top]
        if IS_WILD[top]:
            self.up_pending = top
            self.phase = CHOOSE_COLOR
            self.turn = self.dealer
            return
        self._up_effect(top)

    def _first_turn(self) -> None:
        first = self.dealer if self.opts.first_player == "dealer" else self.next_seat(self.dealer)
        self._end_action(first)

    def _up_effect(self, top: int) -> None:
        """The up-card's effect on the dealer (HD-3.3, ``dealer_takes_attacks``)."""
        d = self.dealer
        k = FACE_KIND[top]
        if top in _DRAW_COUNT:
            self._attack(DRAW_ATTACK, WILD_DRAW, _DRAW_COUNT[top], d, NOBODY, top)
        elif k == DRAW_TWO:
            self._attack(DRAW_ATTACK, DRAW_TWO_FAMILY, 2, d, NOBODY, top)
        elif k == SPREADER:
            if BS in self.hands[d]:
                self._make_public(d, BS)
                self.emit("shield", d, "HD-3.3", target=NOBODY)
                self._first_turn()
            else:  # like an accepted Draw Two on the dealer: he loses his turn
                self._punish(d, 2, "HD-3.3", False)
                self._end_action(self.next_seat(d))
        elif top == QUIT:
            if self.n_active >= 3:
                self._attack(EJECT_ATTACK, WILD_DRAW, 0, d, NOBODY, top)
            else:
                self.emit("no_effect", -1, "HD-2.3.15", (top,))
                self._first_turn()
        elif top == GLAS or (top == MADC and self.n_active >= self.opts.mad_min_active_players):
            self.up_pending = top
            self.phase = CHOOSE_VICTIM
            self.turn = d
        else:
            if top == MADC:
                self.emit("no_effect", -1, "HD-2.3.16", (top,))
            self._first_turn()

    # ------------------------------------------------------------------ legal actions

    def _key(self) -> int:
        top = self.discard[-1]
        return NUM_FACES + self.color if IS_WILD[top] else top

    def is_legal_card(self, seat: int, f: int) -> bool:
        """Whether ``seat`` may play ``f`` on the current top with no attack (HD-3.5)."""
        key = self._key()
        hand = self.hands[seat]
        if f == BB:
            return self._bb_ok(key, hand)
        return MATCH[key][f] or (PRIV[key][f] and SN in hand)

    def _bb_ok(self, key: int, hand: list[int]) -> bool:
        top = self.discard[-1]
        if top in (HOLY, M5):
            return True
        if len(hand) != 1:
            return False
        if not self.opts.shitter_last_card_needs_match:
            return True
        if key >= NUM_FACES:
            return key - NUM_FACES == FACE_COLOR[BB]
        return FACE_COLOR[key] == FACE_COLOR[BB] or 0 in _NUMS[key]

    def _expand(self, seat: int, f: int, uno: bool) -> Sequence[Action]:
        if f == GLAS or (f == MADC and self.n_active >= self.opts.mad_min_active_players):
            return [
                play(f, target=t, uno=uno) for t in range(self.n)
                if t != seat and self.active[t]
            ]
        return _PLAYS_UNO[f] if uno else _PLAYS[f]

    def _main_actions(self, seat: int) -> Sequence[Action]:
        ph = self.phase
        if ph == TURN:
            return self._turn_actions(seat)
        if ph == RESPONSE:
            return self._response_actions(seat)
        if ph == DEAL:
            return [_DEAL_ACTIONS[k] for k in self.deal_sizes()]
        if ph == CHOOSE_COLOR:
            return list(_COLOR_ACTIONS)
        if ph == CHOOSE_VICTIM:
            return [make(A.VICTIM, target=t) for t in range(self.n)
                    if t != seat and self.active[t]]
        return []

    def _turn_actions(self, seat: int) -> Sequence[Action]:
        """An ordinary turn (HD-3.4, HD-3.5): the playable cards' plays, then draw or pass.

        The playable faces come from the precomputed sets of the table key, in face order;
        a hand that may hold a privileged face, the 69 or Big Brother has them checked one by
        one, and directed cards are expanded by :meth:`_turn_list`.  A turn with one
        playable face (or none) gets its prebuilt tuple.
        """
        hand = self.hands[seat]
        top = self.discard[-1]
        key = NUM_FACES + self.color if IS_WILD[top] else top
        drew = self.drew
        if drew and self._drawn_only:
            f = self.drawn
            if f not in hand or not self._playable(key, f, hand):
                return _PASS_ONLY
            if f in _DIRECTED:
                return self._turn_list(seat, [f], hand, drew)
            sel = frozenset((f,))
        else:
            sel = _CANDIDATES[key].intersection(hand)
            if not sel:
                return _PASS_ONLY if drew else _DRAW_ONLY
            if not sel.isdisjoint(_SPECIAL[key]):
                cand = sel
                sel = _MATCHING[key].intersection(cand)
                if SN in cand:  # HD-3.5 rule 8
                    sel |= _PRIVILEGED[key].intersection(cand)
                if BB in cand and self._bb_ok(key, hand):
                    sel = sel.union((BB,))
                if not sel.isdisjoint(_DIRECTED):
                    return self._turn_list(seat, sorted(sel), hand, drew)
        uno = len(hand) == 2 and self._uno_catch
        if len(sel) == 1:
            for f in sel:
                return _THEN[uno][drew][f]
        plays = _PLAYS_BOTH if uno else _PLAYS
        acts: list[Action] = []
        for f in sorted(sel):
            acts += plays[f]
        acts.append(_PASS if drew else _DRAW)
        return acts

    def _turn_list(self, seat: int, faces: list[int], hand: list[int], drew: bool) -> list[Action]:
        """The turn list of the playable ``faces`` (in face order), directed cards expanded."""
        uno = len(hand) == 2 and self._uno_catch
        plays = _PLAYS_BOTH if uno else _PLAYS
        acts: list[Action] = []
        for f in faces:
            if f in _DIRECTED:
                acts += self._expand(seat, f, False)
                if uno:
                    acts += self._expand(seat, f, True)
            else:
                acts += plays[f]
        acts.append(_PASS if drew else _DRAW)
        return acts

    def _playable(self, key: int, f: int, hand: list[int]) -> bool:
        """Whether ``f`` of ``hand`` may be played on table key ``key`` (HD-3.5)."""
        return (MATCH[key][f] or (PRIV[key][f] and SN in hand)
                or (f == BB and self._bb_ok(key, hand)))

    def _can_stack(self) -> bool:
        return not self.a_redirected or self.opts.stack_after_deflection

    def _response_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        o = self.opts
        uno = len(hand) == 2 and o.uno_rule == "catch"
        cards: list[int] = []
        kind = self.a_kind
        defend = True
        if kind == DRAW_ATTACK:
            fam = self.a_family
            if fam == WILD_DRAW:
                defend = not self.a_locked
                if defend and self._can_stack():
                    cards += _STACK_WILDS.intersection(hand)
                if (defend and M5 in hand and FACE_KIND[self.a_last] == HOT_DEATH
                        and (not o.magic5_requires_hot_death_on_top
                             or self.discard[-1] == self.a_last)):
                    cards.append(M5)
            elif fam == DRAW_TWO_FAMILY:
                defend = o.draw_two_defensible
                if o.stack_draw_twos and self._can_stack():
                    cards += sorted({f for f in hand if FACE_KIND[f] in (DRAW_TWO, SPREADER)})
            else:
                defend = o.mystery_defensible
        if defend:
            cards += _DEFENCES.intersection(hand)
        if not cards:
            return [A.ACCEPT_ACTION]
        plays = _PLAYS_BOTH if uno else _PLAYS
        acts: list[Action] = []
        for f in sorted(cards):
            acts += plays[f]
        acts.append(A.ACCEPT_ACTION)
        return acts

    def _has_windows(self) -> bool:
        """The 69 window is open (HD-3.11.1); ``_windows`` follows it, set with ``sn_seat``."""
        return self.sn_seat >= 0

    def _window_actions(self, seat: int) -> list[Action]:
        acts: list[Action] = []
        if seat in self.uno_open:
            acts.append(A.UNO_ACTION)
        if self.active[seat]:
            for x in self.uno_open:
                if x != seat:
                    acts.append(_CATCHES[x])
            if self.sn_seat >= 0 and self.sn_seat != seat:
                acts.append(make(A.CHALLENGE, target=self.sn_seat))
        return acts

    # ------------------------------------------------------------------ apply

    def _apply(self, seat: int, action: Action) -> None:
        k = action.kind
        if k == _PLAY_KIND:
            if self.uno_open or self.sn_seat >= 0:
                self._close_windows()
            # A card played, in a turn (HD-3.4) or in answer to an attack (HD-4.3), is
            # written here rather than in a helper of its own: it is most of the decisions,
            # and a call less each counts.
            p = seat
            f = action.cards[0]
            under = self.discard[-1]
            key = NUM_FACES + self.color if IS_WILD[under] else under  # _key(), before the play
            self.idle = 0
            hand = self.hands[p]
            hand.remove(f)
            rev = self.revealed[p]
            if rev and f in rev:
                rev.remove(f)
            self.discard.append(f)
            self.color = action.color if IS_WILD[f] else FACE_COLOR[f]
            if self._events is not None:
                self.emit("play", p, rule_of(f), (f,), color=action.color, target=action.target)
            if not hand:
                self.out_order.append(p)
                self.emit("out", p, "HD-3.7.1")
            elif len(hand) == 1 and self._uno_catch:
                if action.uno:
                    self.emit("uno", p, "HD-3.11")
                else:
                    self.uno_open.append(p)
            if self.phase == RESPONSE:
                self._respond(p, f)
            else:  # its effect in a normal turn (HD-4.2 and HD-4.4)
                if f != BB and not MATCH[key][f]:  # played by the 69's privilege
                    self._privilege_used(p)
                kf = FACE_KIND[f]
                nxt = self._ring[self.direction]  # next_seat's table: nxt[p] is next_seat(p)
                events = self._events is not None
                if kf == NUMBER or f in _NO_TURN_EFFECT:
                    self._end_action(nxt[p])
                elif kf in (SKIP, DOUBLE_SKIP):
                    skips = 1 if kf == SKIP else min(2, self.n_active - 1)
                    s = p
                    for _ in range(skips):
                        s = nxt[s]
                        if events:
                            self.emit("skip", s, rule_of(f))
                    self._end_action(nxt[s])
                elif kf in (REVERSE, REVERSE_SKIP):
                    self.direction = -self.direction
                    nxt = self._ring[self.direction]
                    if events:
                        self.emit("reverse", p, rule_of(f))
                    if kf == REVERSE and self.n_active > 2:
                        self._end_action(nxt[p])
                    else:
                        s = nxt[p]
                        if events:
                            self.emit("skip", s, "HD-3.10" if self.n_active == 2 else rule_of(f))
                        self._end_action(nxt[s])
                elif kf == DRAW_TWO:
                    self._attack(DRAW_ATTACK, DRAW_TWO_FAMILY, 2, nxt[p], p, f)
                elif kf == SPREADER:
                    self._spreader(p)
                elif f in _DRAW_COUNT:
                    self._attack(DRAW_ATTACK, WILD_DRAW, _DRAW_COUNT[f], self._victim_of(f, p), p,
                                 f)
                elif f == MYS:
                    num = FACE_NUMBER[under] if not IS_WILD[under] else -1
                    if num >= 1:
                        self._attack(DRAW_ATTACK, MYSTERY, num, nxt[p], p, f)
                    else:
                        self._end_action(nxt[p])
                elif kf == WILD:
                    self._end_action(nxt[p])
                elif f == QUIT:
                    if self.n_active >= 3:
                        self._attack(EJECT_ATTACK, WILD_DRAW, 0, nxt[p], p, f)
                    elif self.opts.quitter_with_two_active == "player_wins":
                        self._attack(EJECT_ATTACK, WILD_DRAW, 0, nxt[p], p, f, two=True)
                    else:
                        self.emit("no_effect", p, "HD-2.3.15", (f,))
                        self._end_action(nxt[p])
                elif f == GLAS:
                    v = action.target
                    if self.opts.glasnost_response == "next_player_only" and v != nxt[p]:
                        self._reveal(v, "HD-4.6")
                        self._end_action(nxt[p])
                    else:
                        self._attack(REVEAL_ATTACK, WILD_DRAW, 0, v, p, f, anchor=p)
                elif f == MADC:
                    if action.target >= 0:
                        self._eject(p, "HD-2.3.16")
                        self._eject(action.target, "HD-2.3.16")
                    else:
                        self.emit("no_effect", p, "HD-2.3.16", (f,))
                    self._end_action(self.next_seat(p))  # seats may have left
                else:  # pragma: no cover - every kind is handled above
                    raise AssertionError(f"unhandled card {f}")
        elif k == _DRAW_KIND:
            if self.uno_open or self.sn_seat >= 0:
                self._close_windows()
            hand = self.hands[seat]  # draw_cards adds to this list
            self.drew = True  # a turn draw (HD-3.4): one card, or until a playable one
            if self._draw_one:
                got = self.draw_cards(seat, 1, "HD-3.4")
                self.drawn = hand[-1] if got else -1
            else:  # draw_until_playable
                self.drawn = -1
                got = 0
                while self.draw_cards(seat, 1, "HD-3.4"):
                    got += 1
                    f = hand[-1]
                    if self.is_legal_card(seat, f):
                        self.drawn = f
                        break
            if not self._can_play_after_draw(seat, hand):
                # nothing to play after the draw: the turn ends at once (HD-3.4)
                if self._events is not None:
                    self.emit("pass", seat, "HD-3.4")
                # (a card drawn with the idle count at 0 leaves nothing to count)
                if (self.idle or not got) and self._blocked_after_draw(
                        self._lc[0].kind == _PLAY_KIND, got):  # step checked it against _lc
                    self._end_blocked(seat)
                    return
                self._end_action(self._ring[self.direction][seat])  # next_seat(seat)
            else:
                self.idle = 0
                self._hand_over_check()  # the draw may complete the bastard cards (HD-3.7.1)
        elif k == _PASS_KIND:
            if self._events is not None:
                self.emit("pass", seat, "HD-3.4")
            self._end_action(self._ring[self.direction][seat])  # next_seat(seat)
        elif k == _ACCEPT_KIND:
            if self.a_kind == DRAW_ATTACK and (self.uno_open or self.sn_seat >= 0):
                self._close_windows()
            self._accept(seat)
        elif k == A.UNO:
            self.uno_open.remove(seat)
            self.emit("uno", seat, "HD-3.11")
        elif k == A.CATCH:
            x = action.target
            self.uno_open.remove(x)
            self.sn_seat = NOBODY
            self._windows = False  # follows sn_seat (see _has_windows)
            self.emit("catch", seat, "HD-3.11", target=x)
            self._punish(x, self.opts.uno_penalty_cards, "HD-3.11", False)
            self._check_after_window()
        elif k == A.CHALLENGE:
            x = self.sn_seat
            self.sn_seat = NOBODY
            self._windows = False  # follows sn_seat (see _has_windows)
            self.uno_open.clear()
            self.emit("challenge", seat, "HD-3.11.1", target=x)
            self._make_public(x, SN)
            self.emit("sixty_nine", x, "HD-3.11.1", (SN,))
            self._punish(seat, self.opts.sixty_nine_challenge_penalty, "HD-3.11.1", False)
            self._check_after_window()
        elif k == A.DEAL:
            self._deal(action.n)
        elif k == A.COLOR:
            self.color = action.color
            self.emit("color", seat, "HD-3.3", color=action.color)
            top = self.up_pending
            self.up_pending = -1
            self._up_effect(top)
        elif k == A.VICTIM:
            self._up_victim(action.target)

    def _can_play_after_draw(self, seat: int, hand: list[int]) -> bool:
        """Whether the turn list after ``seat``'s draw holds a play (HD-3.4).

        With ``drawn_card_only`` only the drawn card may be played; otherwise the whole
        turn list (:meth:`_turn_actions`) decides.
        """
        if self._drawn_only:
            f = self.drawn
            top = self.discard[-1]
            return f in hand and self._playable(NUM_FACES + self.color if IS_WILD[top] else top,
                                                f, hand)
        return len(self._turn_actions(seat)) > 1

    def _check_after_window(self) -> None:
        """Run the hand-end checks after a draw outside an attack (HD-3.7.1).

        A turn draw, a catch or a 69-challenge penalty can complete the bastard cards.
        """
        if self.phase == TURN:
            self._hand_over_check()

    def _close_windows(self) -> None:
        if self.uno_open:
            self.uno_open.clear()
        self.sn_seat = NOBODY
        self._windows = False  # follows sn_seat (see _has_windows)

    def _victim_of(self, f: int, p: int) -> int:
        """The victim of draw card ``f`` played by ``p`` (HD-4.2).

        The next player; with the Delayed Blast and enough active players the one after
        him (HD-2.3.11).
        """
        v = self.next_seat(p)
        if blast_skips(f, self.n_active, self._db_skip):
            self.emit("skip", v, "HD-2.3.11")
            v = self.next_seat(v)
        return v

    def _privilege_used(self, p: int) -> None:
        proof = self.opts.sixty_nine_proof
        if proof == "challenge":
            self.sn_seat = p
            self._windows = True  # follows sn_seat (see _has_windows)
        elif proof == "reveal_on_use":
            self._make_public(p, SN)
            self.emit("sixty_nine", p, "HD-3.11.1", (SN,))

    def _spreader(self, p: int) -> None:
        """Every other active player draws 2; the Blue Shield sends them back (HD-2.3.7)."""
        shield = NOBODY
        q = self.next_seat(p)
        while q != p:
            if BS in self.hands[q]:
                self._make_public(q, BS)
                self.emit("shield", q, "HD-2.3.19", target=p)
                self._punish(p, 2, "HD-2.3.7", False)
                shield = q
            else:
                self._punish(q, 2, "HD-2.3.7", False)
            q = self.next_seat(q)
        self._end_action(shield if shield >= 0 else p)

    # ------------------------------------------------------------------ attacks

    def _attack(
        self,
        kind: int,
        family: int,
        count: int,
        victim: int,
        sender: int,
        card: int,
        anchor: int = NOBODY,
        two: bool = False,
    ) -> None:
        self.a_kind = kind
        self.a_family = family
        self.a_count = count
        self.a_victim = victim
        self.a_sender = sender
        self.a_attacker = sender
        self.a_last = card
        self.a_locked = card == HOS
        self.a_redirected = False
        self.a_anchor = anchor
        self.a_two = two
        if self._events is not None:
            rule = "HD-3.3" if sender == NOBODY else "HD-4.2"
            name = ("attack", "attack", "eject_attack", "reveal_attack")[kind]
            self.emit(name, sender, rule, (card,), n=count, target=victim)
        self._await_response()

    def _await_response(self) -> None:
        """Give the victim the decision, or resolve at once if no answer exists."""
        o = self.opts
        if self.a_kind == DRAW_ATTACK:
            fam = self.a_family
            if fam == WILD_DRAW:
                decide = not self.a_locked
            elif fam == DRAW_TWO_FAMILY:
                decide = o.draw_two_defensible or (o.stack_draw_twos and self._can_stack())
            else:
                decide = o.mystery_defensible
            if not decide:
                self._accept(self.a_victim)
                return
        self.phase = RESPONSE
        self.turn = self.a_victim
        self.drew = False
        self.drawn = -1

    def _target(self, r: int) -> int:
        """Whom ``r``'s Retaliation or Virus hits (HD-4.3.2, HD-4.3.4).

        With ``original_attacker`` that is the player who last added to the attack, unless
        he is ``r`` himself (the attack came back to him): then, as by default, the player
        who sent it to him (audit ruling of 2026-11-29).
        """
        if self.opts.redirect_sender == "last_redirector" or self.a_attacker == r:
            return self.a_sender
        return self.a_attacker

    def _respond(self, r: int, f: int) -> None:
        """The victim has answered the pending attack with the card ``f`` (HD-4.3)."""
        nxt = self.next_seat
        reveal = self.a_kind == REVEAL_ATTACK
        if reveal and r == self._reveal_turn_seat():
            self.a_anchor = r  # his answer is his turn (HD-4.6 rule 2)
        if f in _STACK_WILDS or FACE_KIND[f] in (DRAW_TWO, SPREADER):
            self.a_count += _DRAW_COUNT.get(f, 2)
            self.a_last = f
            self.a_locked = f == HOS
            self.a_sender = self.a_attacker = r
            v = self._victim_of(f, r)
            self.a_victim = v
            self.emit("stack", r, "HD-4.3.1", (f,), n=self.a_count, target=v)
            self._await_response()
        elif f == RET:
            self.direction = -self.direction
            target = self._target(r)
            self.emit("reverse", r, "HD-4.3.2")
            if self.a_two:
                self._hand_over_to(r, "HD-2.3.15")
                return
            if target == NOBODY:
                self.emit("cancel", r, "HD-3.3")
                self._finish_attack(self._reveal_turn_seat() if reveal else nxt(r))
                return
            self.emit("retaliate", r, "HD-4.3.2", target=target)
            self.a_victim = target
            self.a_sender = r
            self.a_redirected = True
            self._await_response()
        elif f == HOLY:
            if self.a_two:
                self._hand_over_to(r, "HD-2.3.15")
                return
            v = nxt(r)
            self.emit("redirect", r, "HD-4.3.3", target=v)
            self.a_victim = v
            self.a_sender = r
            self.a_redirected = True
            self._await_response()
        elif f == VIR:
            self._virus(r)
        elif f == M5:
            self.emit("cancel", r, "HD-4.3.5")
            if self.opts.magic5_effect == "cancel_hot_death_only" and self.a_count > 8:
                rest = self.a_count - 8
                self._punish(r, rest, "HD-4.3.5", True)
            self._finish_attack(nxt(r))

    def _virus(self, r: int) -> None:
        target = self._target(r)
        self.emit("virus", r, "HD-4.3.4", target=target)
        kind = self.a_kind
        if kind == DRAW_ATTACK:
            c = self.a_count
            hi, lo = (c + 1) // 2, c // 2
            split = self.opts.virus_odd_split
            t_share, r_share = (hi, lo) if split == "sender_extra" else (
                (hi, hi) if split == "both_round_up" else (lo, hi))
            attack_draw = self.a_family != DRAW_TWO_FAMILY
            if target != NOBODY:
                self._punish(target, t_share, "HD-4.3.4", attack_draw)
            self._punish(r, r_share, "HD-4.3.4", attack_draw)
            self._finish_attack(self.next_seat(r))
        elif kind == EJECT_ATTACK:
            two = self.a_two
            self._eject(r, "HD-4.3.4")
            if target != NOBODY:
                self._eject(target, "HD-4.3.4")
            if two:
                self._hand_over_to(NOBODY, "HD-2.3.15")
                return
            self._finish_attack(self.next_seat(r))
        else:
            self._reveal(r, "HD-4.3.4")
            if target != NOBODY:
                self._reveal(target, "HD-4.3.4")
            self._finish_attack(self._reveal_turn_seat())

    def _reveal_turn_seat(self) -> int:
        """Who plays when the Glasnost window closes (HD-4.6 rule 4).

        The seat after the anchor; for a Glasnost turned up with ``first_player=dealer``
        (anchor ``DEALER_FIRST``) the dealer himself, unless he answered in the window.
        """
        if self.a_anchor == DEALER_FIRST:
            return self.dealer
        return self.next_seat(self.a_anchor)

    def _accept(self, r: int) -> None:
        """The victim takes the attack (HD-4.3.6)."""
        kind = self.a_kind
        if self._events is not None:
            self.emit("accept", r, "HD-4.3.6")
        if kind == DRAW_ATTACK:
            attack_draw = self.a_family != DRAW_TWO_FAMILY
            self._punish(r, self.a_count, "HD-4.3.6", attack_draw)
            self._finish_attack(self._ring[self.direction][r])  # next_seat(r)
        elif kind == EJECT_ATTACK:
            if self.a_two:
                self._hand_over_to(self.a_attacker, "HD-2.3.15")
                return
            self._eject(r, "HD-2.3.15")
            self._finish_attack(self.next_seat(r))
        else:
            self._reveal(r, "HD-2.3.14")
            self._finish_attack(self._reveal_turn_seat())

    def _finish_attack(self, next_seat: int) -> None:
        self.a_kind = NO_ATTACK
        self._end_action(next_seat)

    def _up_victim(self, v: int) -> None:
        top = self.up_pending
        self.up_pending = -1
        d = self.dealer
        if top == GLAS:
            anchor = DEALER_FIRST if self.opts.first_player == "dealer" else d
            first = d if anchor == DEALER_FIRST else self.next_seat(d)
            if self.opts.glasnost_response == "next_player_only" and v != first:
                # only the player who opens play may answer (HD-4.6, HD-3.3)
                self._reveal(v, "HD-4.6")
                self._first_turn()
                return
            self._attack(REVEAL_ATTACK, WILD_DRAW, 0, v, NOBODY, top, anchor=anchor)
        else:
            self.emit("play", d, "HD-3.3", (top,), target=v)
            self._eject(v, "HD-3.3")
            self._first_turn()

    # ------------------------------------------------------------------ effects

    def _punish(self, seat: int, count: int, rule: str, attack_draw: bool) -> None:
        """A punishment draw, one card fewer with Luck o' the Irish (HD-2.3.17)."""
        if (count > 0 and LOI in self.hands[seat]
                and (attack_draw or self.opts.irish_scope == "all_punishment_draws")):
            count -= 1
            self._make_public(seat, LOI)
            self.emit("irish", seat, "HD-2.3.17", (LOI,))
        self.draw_cards(seat, count, rule)

    drawn_watch: ClassVar[frozenset[int]] = _BASTARD_SET

    def _on_drawn(self, seat: int, cards: list[int]) -> None:
        """A bastard card was drawn: the hand-end check looks again (HD-3.7.1)."""
        self._chk_bastards = True

    def _make_public(self, seat: int, face: int) -> None:
        if face not in self.revealed[seat]:
            self.revealed[seat].append(face)

    def _reveal(self, seat: int, rule: str) -> None:
        self.revealed[seat] = self.hands[seat][:]
        self.emit("reveal", seat, rule, tuple(self.hands[seat]))

    def _eject(self, seat: int, rule: str) -> None:
        if not self.active[seat]:
            return
        self.active[seat] = False
        self._seats_changed()
        self.revealed[seat] = []
        if seat in self.uno_open:
            self.uno_open.remove(seat)
        self.emit("eject", seat, rule)

    # ------------------------------------------------------------------ hand end

    def _end_blocked(self, seat: int) -> None:
        """The hand is blocked: no winner, everyone scores his hand (HD-3.7.1, a ruling)."""
        self.emit("blocked", seat, "HD-3.7.1")
        self._hand_over(NOBODY, "HD-3.7.1", NOBODY, "blocked")

    def _end_action(self, next_seat: int) -> None:
        """T-5: run the hand-end checks, then give the turn (HD-4.5).

        The checks (:meth:`_hand_over_check`) can only end the hand after a bastard card
        came into play, with one active player left or with a player out.
        """
        if (self._chk_bastards or self.n_active <= 1 or self.out_order) \
                and self._hand_over_check():
            return
        self.phase = TURN
        self.turn = next_seat
        self.drew = False
        self.drawn = -1

    def _hand_over_check(self) -> bool:
        """The hand-end checks of rule HD-3.7.1, in order."""
        bastard = NOBODY
        if self._chk_bastards:
            self._chk_bastards = False
            for s in range(self.n):
                h = self.hands[s]
                if QUIT in h and RET in h and HOLY in h and BB in h:
                    bastard = s
        if bastard >= 0:
            winner = self.out_order[0] if self.out_order else bastard
            if self.opts.all_bastards_effect == "wins_game":
                self._game_winner = bastard
            self._hand_over(winner, "HD-3.7.1", bastard, "all_bastards")
            return True
        if self.n_active <= 1:
            alive = [s for s in range(self.n) if self.active[s]]
            self._hand_over(alive[0] if alive else NOBODY, "HD-3.7.1", NOBODY,
                            "last_standing")
            return True
        if self.out_order:
            self._hand_over(self.out_order[0], "HD-3.7.1", NOBODY, "out")
            return True
        return False

    def _hand_over_to(self, winner: int, rule: str) -> None:
        """The hand ends at once with ``winner`` (Quitter with two active players)."""
        self.a_kind = NO_ATTACK
        self._hand_over(winner, rule, NOBODY, "quitter")

    def _hand_over(self, winner: int, rule: str, bastard: int, end: str) -> None:
        self.a_kind = NO_ATTACK
        self.hand_winner = winner
        self.uno_open = []
        self.sn_seat = NOBODY
        self._windows = False  # follows sn_seat (see _has_windows)
        self.emit("hand_end", winner, rule)
        hands = self.hands
        cards = tuple(map(tuple, hands))
        vals = hand_values(hands, winner, bastard, self.active, self.opts, self.n)
        events = self._events is not None
        gains: list[int] = []
        infos: list[tuple[tuple[str, int], ...]] = []
        for s, (v, info) in enumerate(vals):
            penalty = 0
            # Every seat but the winner is infected and pays: the holder of all four
            # bastard cards is the winner, unless a player went out at the same moment;
            # then his hand is still worth 0, but the Virus counts (HD-3.7.4)
            if s != winner:
                self.infections[s] += hands[s].count(VIR)
                penalty = 10 * self.infections[s]
            total = v + penalty
            if penalty:
                info = (*info, ("virus", penalty))
            self.scores[s] += total
            gains.append(total)
            infos.append(info)
            if events:
                self.emit("score", s, "HD-3.7.2", cards[s], n=total, info=info)
        extras: dict[str, Any] = {"infections": tuple(self.infections)}
        if bastard >= 0:
            extras["bastard"] = bastard
        self._hand_result_later(_hand_result, (
            self.hand_no, end, rule, winner, tuple(self.out_order), tuple(gains), tuple(infos),
            tuple(self.scores), cards, extras))
        o = self.opts
        if self._game_winner >= 0:
            self._game_over([self._game_winner])
            return
        if max(self.scores) >= o.game_end_score:
            low = min(self.scores)
            tied = [s for s in range(self.n) if self.scores[s] == low]
            self._game_over(tied if o.tie_break == "shared" else tied[:1])
            return
        if winner >= 0:
            self.dealer = winner
        else:
            low = min(gains)
            tied = [s for s in range(self.n) if gains[s] == low]
            self._stream(self.hand_no + 1, DEALER_STREAM)
            self.dealer = tied[self.rng.below(len(tied))]
        self.phase = DEAL
        self.turn = self.dealer
        self.drew = False
        self.drawn = -1

    def game_end(self) -> tuple[str, str]:
        """A total reached the target (HD-3.8), or all four bastard cards won (HD-3.7.1)."""
        if self._game_winner >= 0:
            return ("all_bastards", "HD-3.7.1")
        return ("target", "HD-3.8")

    def game_extras(self) -> dict[str, Any]:
        """The Virus infections each seat carries (HD-2.3.21)."""
        return {"infections": tuple(self.infections)}

    def _game_over(self, winners: list[int]) -> None:
        self.winners = winners
        self.phase = GAME_OVER
        self.drew = False
        self.drawn = -1
        for w in winners:
            self.emit("game_end", w, "HD-3.8")

    # ------------------------------------------------------------------ position notation

    def position_extra(self) -> dict[str, Any]:
        """Hot Death fields of the position notation (the attack is ``pending``)."""
        from hotdeath.cards import card_code

        return {
            "infections": self.infections[:],
            "sixty_nine_window": self.sn_seat if self.sn_seat >= 0 else None,
            "up_pending": card_code(self.up_pending) if self.up_pending >= 0 else None,
            "hand_winner": self.hand_winner if self.hand_winner >= 0 else None,
        }

    def load_position_extra(self, d: Any) -> None:
        """Read the Hot Death fields of a position (see ``docs/notation.md``)."""
        n = self.n
        inf = d.get("infections", [0] * n)
        if not isinstance(inf, list) or len(inf) != n or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 1000 for x in inf
        ):
            raise PositionError("bad_position", f"'infections' must be {n} counts (0 or more)")
        self.infections = list(inf)
        sn = d.get("sixty_nine_window")
        if sn is not None and (not isinstance(sn, int) or isinstance(sn, bool)
                               or not 0 <= sn < n):
            raise PositionError("bad_position", f"sixty_nine_window: no seat {sn!r}")
        self.sn_seat = NOBODY if sn is None else sn
        self._windows = self.sn_seat >= 0
        up = d.get("up_pending")
        if up is not None and not isinstance(up, str):
            raise PositionError("bad_position", "'up_pending' must be a card code or null")
        try:
            self.up_pending = parse_card(up) if up else -1
        except NotationError as e:
            raise PositionError("bad_position", f"up_pending: {e.message}") from None
        hw = d.get("hand_winner")
        if hw is not None and (not isinstance(hw, int) or isinstance(hw, bool)
                               or not 0 <= hw < n):
            raise PositionError("bad_position", f"hand_winner: no seat {hw!r}")
        self.hand_winner = NOBODY if hw is None else hw
        self._chk_bastards = True

    def check_position(self) -> None:
        """The up-card choices, the deal and the 69 window (HD-3.2, HD-3.3, HD-3.11.1)."""
        ph = self.phase
        top = self.discard[-1] if self.discard else -1
        if ph in (CHOOSE_COLOR, CHOOSE_VICTIM):
            if self.up_pending < 0:
                self.up_pending = top  # a hand-made position may leave it out
            if self.up_pending != top:
                raise PositionError("bad_position", "up_pending must be the up-card (the top "
                                    "of the discard pile)")
            if ph == CHOOSE_COLOR and not IS_WILD[top]:
                raise PositionError("bad_position", "phase 'choose_color' needs a wild up-card")
            if ph == CHOOSE_VICTIM and top not in (GLAS, MADC):
                raise PositionError("bad_position", "phase 'choose_victim' needs a Glasnost "
                                    "or M.A.D. up-card")
            if self.turn != self.dealer:
                raise PositionError("bad_position", "the dealer makes the up-card's choice")
        elif self.up_pending >= 0:
            raise PositionError("bad_position", "up_pending is only for the up-card's choice "
                                "(phase choose_color or choose_victim)")
        if ph == DEAL and self.turn != self.dealer:
            raise PositionError("bad_position", "in phase 'deal' the dealer is to act")
        if self.sn_seat >= 0 and not self.active[self.sn_seat]:
            raise PositionError("bad_position", "sixty_nine_window: that seat is not active")

    # ------------------------------------------------------------------ pending

    def pending(self) -> Pending | None:
        """The attack waiting for its victim's answer (HD-4.2 to HD-4.6), or None."""
        k = self.a_kind
        if k == NO_ATTACK:
            return None
        if k == DRAW_ATTACK:
            return DrawAttack(
                self.a_victim, self.a_sender, self.a_count, FAMILY_NAMES[self.a_family],
                self.a_last, self.a_attacker, self.a_locked, self.a_redirected,
            )
        if k == EJECT_ATTACK:
            return Ejection(self.a_victim, self.a_sender, self.a_attacker,
                            self.a_redirected, self.a_two, self.a_last)
        return Reveal(self.a_victim, self.a_sender, self.a_attacker, self.a_redirected,
                      self.a_anchor, self.a_last)

    def load_pending(self, value: Pending | None) -> None:
        """Set the pending attack (positions); refuse one that cannot be (HD-4)."""
        if value is None:
            self.a_kind = NO_ATTACK
            return
        if isinstance(value, Pot):
            raise PositionError("bad_position", "Hot Death has attacks, not pots: use a "
                                "'draw' pending value")
        n = self.n
        v = value.victim
        if not 0 <= v < n or not self.active[v]:
            raise PositionError("bad_position", f"the attack's victim {v} is not an active seat")
        for what, s in (("sender", value.sender), ("attacker", value.attacker)):
            if not NOBODY <= s < n:
                raise PositionError("bad_position", f"the attack's {what} {s} is not a seat")
        self.a_victim = v
        self.a_sender = value.sender
        self.a_attacker = value.attacker
        self.a_redirected = value.redirected
        self.a_last = value.last_card
        self.a_two = False
        self.a_anchor = NOBODY
        self.a_locked = False
        self.a_count = 0
        self.a_family = WILD_DRAW
        if isinstance(value, DrawAttack):
            if not (value.last_card in _DRAW_COUNT or value.last_card == MYS
                    or FACE_KIND[value.last_card] in (DRAW_TWO, SPREADER)):
                raise PositionError("bad_position", "a draw attack's last card draws cards "
                                    f"(not {card_code(value.last_card)})")
            self.a_kind = DRAW_ATTACK
            self.a_family = FAMILY_NAMES.index(value.family)
            self.a_count = value.count
            self.a_locked = value.locked
        elif isinstance(value, Ejection):
            if value.two_active and self.n_active != 2:
                raise PositionError("bad_position", "two_active needs exactly two active seats")
            self.a_kind = EJECT_ATTACK
            self.a_two = value.two_active
        else:
            if not DEALER_FIRST <= value.anchor < n:
                raise PositionError("bad_position", f"the reveal's anchor {value.anchor} "
                                    "is not a seat")
            self.a_kind = REVEAL_ATTACK
            self.a_anchor = value.anchor

    def pending_context(self) -> Context:
        """Defaults of hand-made attacks: a drawing card's count (HD-2.3)."""
        return super().pending_context()._replace(
            draw_count=lambda f: _DRAW_COUNT.get(f, 2))

    def infection_counts(self) -> list[int]:
        """Per seat, the Virus infections carried from hand to hand (HD-2.3.21)."""
        return self.infections

    def window_seat(self) -> int:
        """The seat whose 69 play may still be challenged (HD-2.3.20), or ``NOBODY``."""
        return self.sn_seat
