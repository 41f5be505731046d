"""The standard Uno state: the deal, turns, card effects, the challenge, scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar

from hotdeath import actions as A
from hotdeath.actions import (
    ACCEPT,
    CHALLENGE,
    DRAW,
    DRAW_ACTION,
    JUMP,
    PASS_ACTION,
    PLAY,
    QUESTION,
    Action,
    make,
    play,
)
from hotdeath.cards import (
    COLORS,
    DRAW_TWO,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    IS_WILD,
    NUM_FACES,
    NUMBER,
    REVERSE,
    SKIP,
    WD4,
    WILD,
    W,
    card_code,
    standard_deck,
)
from hotdeath.errors import OptionError, PositionError
from hotdeath.pending import Pending, Pot
from hotdeath.results import HandResult, ScoreLine, SeatScore
from hotdeath.rng import DEAL_SCHEME
from hotdeath.state import CHOOSE_COLOR, GAME_OVER, NOBODY, PHASE_NAMES, RESPONSE, TURN
from hotdeath.variants.base import VariantState
from hotdeath.variants.standard.options import StandardOptions

if TYPE_CHECKING:
    from hotdeath.variants.variant import Variant

StandardOptionsT = TypeVar("StandardOptionsT", bound=StandardOptions)
"""The options of a game played by the standard engine: standard's, or a subclass of them
(Cutthroat's, the worked example's), whose ``self.opts`` then has that type."""

_PLAYS: Final = tuple(
    tuple(play(f, c) for c in COLORS) if IS_WILD[f] else (play(f),) for f in range(NUM_FACES)
)
_PLAYS_UNO: Final = tuple(
    tuple(play(f, c, uno=True) for c in COLORS) if IS_WILD[f] else (play(f, uno=True),)
    for f in range(NUM_FACES)
)
_PLAYS_BOTH: Final = tuple(a + b for a, b in zip(_PLAYS, _PLAYS_UNO, strict=True))
"""Each face's plays without, then with an Uno call (offered with two cards in hand)."""
_COLOR_ACTIONS: Final = tuple(make(A.COLOR, color=c) for c in COLORS)
_DRAW_ONLY: Final = (DRAW_ACTION,)
_PASS_ONLY: Final = (PASS_ACTION,)
_THEN: Final = tuple(
    (tuple((*p, DRAW_ACTION) for p in table), tuple((*p, PASS_ACTION) for p in table))
    for table in (_PLAYS, _PLAYS_BOTH)
)
"""``_THEN[uno][drew][f]``: a turn list whose one playable face is ``f``, whole and prebuilt
(its plays, with their Uno-call twins when ``uno``, then draw, or pass after a draw)."""
_CATCHES: Final = tuple(make(A.CATCH, target=x) for x in range(16))
"""``catch x`` of every seat ``x`` (15 players at most, STD-1.1)."""
_DECK: Final = tuple(standard_deck())


def _match(key: int, f: int) -> bool:
    if IS_WILD[f]:
        return True
    if key >= NUM_FACES:
        return FACE_COLOR[f] == key - NUM_FACES
    if FACE_COLOR[f] == FACE_COLOR[key]:
        return True
    kf = FACE_KIND[f]
    if kf != FACE_KIND[key]:
        return False
    return kf != NUMBER or FACE_NUMBER[f] == FACE_NUMBER[key]


MATCH: Final = tuple(
    tuple(_match(k, f) for f in range(NUM_FACES)) for k in range(NUM_FACES + 4)
)
"""``MATCH[key][face]``: whether ``face`` may be played on ``key`` (a face, or
``NUM_FACES + colour`` for a wild whose colour was named)."""
_OF_COLOR: Final = {
    c: frozenset(f for f in range(NUM_FACES) if FACE_COLOR[f] == c) for c in (-1, *COLORS)
}
"""The faces of each colour (``-1``: no colour, the wilds)."""


def card_points(face: int) -> int:
    """Standard scoring value of a card (STD-9.3)."""
    k = FACE_KIND[face]
    if k == NUMBER:
        return FACE_NUMBER[face]
    if IS_WILD[face]:
        return 50
    return 20


_POINTS: Final = tuple(card_points(f) for f in range(NUM_FACES))
"""Standard scoring value of every face (STD-9.3), for sums at C speed."""


def _hand_result(hand: int, end: str, rule: str, winner: int, team: tuple[int, ...],
                 out_order: tuple[int, ...], takes: bool, pts: tuple[int, ...],
                 gains: tuple[int, ...], totals: tuple[int, ...],
                 cards: tuple[tuple[int, ...], ...], r93: str, r113: str,
                 extras: dict[str, Any]) -> HandResult:
    """The result of a scored hand (STD-9.3), built when ``last_hand`` is first read.

    ``pts`` are the points each seat held, ``gains`` what each scored, ``totals`` the
    totals after the hand; ``takes`` is ``scoring=winner_takes`` (the winner, or his team,
    scores the others' cards).
    """
    n = len(pts)
    lines: list[tuple[ScoreLine, ...]]
    if takes:
        lines = [(ScoreLine(r113, 0, "partner_won", seat=winner),) if s in team
                 else (ScoreLine(r93, 0, "cards_to_winner", seat=winner),) for s in range(n)]
        lines[winner] = tuple(ScoreLine(r93, pts[s], "opponent_cards", seat=s)
                              for s in range(n) if s not in team) or (
            ScoreLine(r93, 0, "went_out"),)
    else:
        lines = [(ScoreLine(r93, pts[s], "cards_in_hand") if cards[s] or s != winner
                  else ScoreLine(r93, 0, "went_out"),) for s in range(n)]
    seats = tuple(SeatScore(s, gains[s], lines[s], totals[s], cards[s]) for s in range(n))
    return HandResult(hand=hand, end=end, rule=rule,
                      winners=(winner, *[t for t in team if t != winner]),
                      out_order=out_order, seats=seats, extras=extras)


class StandardState(VariantState[StandardOptionsT]):
    """A game of standard Uno (hands to ``target_score``).

    Generic over its options: ``StandardState[StandardOptions]`` is standard Uno, and a
    variant built on this engine subclasses ``StandardState[ItsOptions]`` with options that
    subclass :class:`StandardOptions` (Cutthroat).
    """

    rule_prefix = "STD"

    def __init__(self, variant: Variant[StandardOptionsT], opts: StandardOptionsT,
                 players: int, seed: int, deal_scheme: int = DEAL_SCHEME) -> None:
        super().__init__(variant, opts, players, seed, deal_scheme)
        self.deck = list(_DECK) * opts.decks
        self._plain = not (opts.wild_color_must_change or opts.wd4_color_must_change
                           or opts.seven_o)
        self._strict = opts.wild_draw_four_rule == "strict"
        self._challenge_rule = opts.wild_draw_four_rule == "challenge"
        self._may_draw = opts.may_draw_with_playable
        self._max_turns = opts.max_turns
        self._must_play = opts.drawn_card_play == "must"
        self._two_player = opts.two_player_rules
        self._draw_one = opts.draw_rule == "one"
        self._sevens = opts.seven_o
        self._stacking = opts.stacking != "none"
        self._windows = opts.false_uno_call_penalty > 0 or opts.jump_in
        self.pot = 0
        self.pot_top = -1
        self.pot_victim = NOBODY
        self.wd4_player = NOBODY
        self.wd4_legal = True
        self.top_player = NOBODY
        self.turns = 0
        self.hand_winner = NOBODY

    @staticmethod
    def check_options(players: int, opts: Any) -> None:
        """Reject impossible combinations (STD-1.1, STD-11)."""
        if players > opts.max_players:
            raise OptionError(
                "bad_option_combination",
                f"{players} players is more than max_players={opts.max_players}",
            )
        if players * 7 + 1 > 108 * opts.decks:
            raise OptionError(
                "bad_option_combination",
                f"{players} players cannot be dealt 7 cards from {opts.decks} deck(s)",
            )
        if opts.partners and players not in (4, 6, 8, 10):
            raise OptionError(
                "bad_option_combination",
                f"partners needs 4, 6, 8 or 10 players, not {players}",
            )

    _rids: ClassVar[dict[str, dict[str, str]]] = {}
    """Rule ids built so far, by rule prefix and then by ``sub`` (see :meth:`r`)."""

    def r(self, sub: str) -> str:
        """Rule id in this game's rulebook (``sub`` is the part after the prefix).

        Looked up by prefix, then by ``sub`` (a literal: its hash is kept), so no string
        is built after the first time.
        """
        ids = self._rids.get(self.rule_prefix)
        if ids is None:
            ids = self._rids[self.rule_prefix] = {}
        rid = ids.get(sub)
        if rid is None:
            rid = ids[sub] = f"{self.rule_prefix}-{sub}"
        return rid

    # ------------------------------------------------------------------ setup

    def start(self, dealer: int | None) -> None:
        """Choose the first dealer (STD-2.1) and deal the first hand."""
        if self.opts.dealer_selection == "draw_high":
            self.dealer = self._draw_high(self.deck) if dealer is None else dealer
        else:
            self.dealer = 0 if dealer is None else dealer
        self.emit("dealer", self.dealer, self.r("2.1"))
        self._deal()

    def _deal(self) -> None:
        self.hand_no += 1
        pile = self._deal_pile(7)
        self.draw_pile = pile
        self.discard = []
        self.hands = self._deal_hands(pile, 7)  # seven cards each (STD-2.2)
        self.hand_size = 7
        self.drew = False
        self.drawn = -1
        self.out_order = []
        self.uno_open = []
        self.direction = self.opts.initial_direction
        self.pot = 0
        self.top_player = NOBODY
        self.hand_winner = NOBODY
        self.emit("deal", self.dealer, self.r("2.2"), n=7)
        self._first_card()

    def start_hand(self) -> None:
        """The first card turned up and its effect (STD-3), after the deal."""
        redrawn = {WD4} | ({W} if self.opts.first_card_wild == "redraw" else set())
        if all(f in redrawn for f in self.draw_pile):
            raise PositionError("bad_position", "the draw pile holds no card that may be the "
                                "first card (STD-3)")
        self._first_card()

    def _first_card(self) -> None:
        """The first card turned up acts as if played before the first player (STD-3)."""
        o = self.opts
        rule = self.r("3")
        while True:
            top = self.draw_pile.pop()
            self.discard.append(top)
            self.emit("up_card", -1, rule, (top,))
            if top == WD4 or (top == W and o.first_card_wild == "redraw"):
                self.discard.pop()
                self.draw_pile.append(top)
                self.rng.shuffle(self.draw_pile)
                self.emit("reshuffle", -1, rule, n=len(self.draw_pile))
                continue
            break
        d = self.dealer
        nxt = self.next_seat
        self.color = FACE_COLOR[top]
        k = FACE_KIND[top]
        first = nxt(d)
        if k == WILD:
            self.phase = CHOOSE_COLOR
            self.turn = first
            return
        if k == SKIP:
            self.emit("skip", first, rule)
            first = nxt(first)
        elif k == REVERSE:
            self.direction = -self.direction
            self.emit("reverse", -1, rule)
            if self.n == 2 and o.two_player_rules:
                first = d
            else:
                first = d if o.first_card_reverse == "dealer_first" else nxt(d)
        elif k == DRAW_TWO:
            self.draw_cards(first, 2, rule)
            if o.first_card_draw_two_loses_turn:
                self.emit("skip", first, rule)
                first = nxt(first)
        self._next(first)


    # ------------------------------------------------------------------ legality

    def is_playable(self, seat: int, f: int) -> bool:
        """Whether ``seat`` may play ``f`` now in a normal turn (STD-4, STD-6.1).

        ``MATCH`` is keyed by the top card, or after a wild by the colour named
        (``NUM_FACES + colour``), as in :meth:`_turn_actions`.
        """
        top = self.discard[-1]
        return (MATCH[NUM_FACES + self.color if IS_WILD[top] else top][f]
                and not (f == WD4 and self._wd4_refused(seat)))

    def _wd4_refused(self, seat: int) -> bool:
        """STD-6.2 ``strict``: ``seat`` may not play a Wild Draw Four now (STD-6.1)."""
        return self._strict and not self._wd4_honest(seat)

    def _wd4_honest(self, seat: int) -> bool:
        """STD-6.1: no card of the current colour in hand."""
        return _OF_COLOR[self.color].isdisjoint(self.hands[seat])

    def _colors_for(self, f: int) -> Sequence[int]:
        o = self.opts
        must = o.wild_color_must_change if f == W else o.wd4_color_must_change
        if must and self.color >= 0:
            return [c for c in COLORS if c != self.color]
        return COLORS

    def _expand(self, seat: int, f: int, uno: bool) -> list[Action]:
        if IS_WILD[f]:
            cols = self._colors_for(f)
            acts = (list(_PLAYS_UNO[f] if uno else _PLAYS[f]) if len(cols) == 4
                    else [play(f, c, uno=uno) for c in cols])
            if len(self.hands[seat]) == 1:
                acts.append(play(f))  # STD-4: a wild played as the last card needs no colour
            return acts
        if self.opts.seven_o and FACE_KIND[f] == NUMBER and FACE_NUMBER[f] == 7:
            acts = [play(f, target=t, uno=uno) for t in range(self.n) if t != seat]
            if len(self.hands[seat]) == 1:
                # STD-12.2: a 7 played as the last card ends the hand before any swap, so it
                # needs nobody named (as a last-card wild needs no colour, STD-4)
                acts.append(play(f))
            return acts
        return list(_PLAYS_UNO[f] if uno else _PLAYS[f])

    def _main_actions(self, seat: int) -> Sequence[Action]:
        ph = self.phase
        if ph == TURN:
            return self._turn_actions(seat)
        if ph == RESPONSE:
            return self._response_actions(seat)
        if ph == CHOOSE_COLOR:
            return list(_COLOR_ACTIONS)
        return []

    def _turn_actions(self, seat: int) -> Sequence[Action]:
        """An ordinary turn (STD-4): the playable faces' plays in face order, then ``draw``.

        After a draw: the drawn card's plays and ``pass`` (no ``pass`` when a playable drawn
        card must be played).  Without colour limits or 7-0 and with two cards or more in
        hand a face's plays come from the precomputed tables (with two cards, each play also
        with an Uno call), a turn of one playable face (or none) a prebuilt tuple; otherwise
        :meth:`_expand` builds them.
        """
        hand = self.hands[seat]
        acts: list[Action]
        if self.drew:
            f = self.drawn
            if f >= 0 and f in hand and self.is_playable(seat, f):
                nh = len(hand)
                if self._plain and nh > 1:
                    if self._must_play:
                        return (_PLAYS if nh > 2 else _PLAYS_BOTH)[f]
                    return _THEN[nh == 2][1][f]
                acts = self._face_plays(seat, f, hand)
                if not self._must_play:
                    acts.append(PASS_ACTION)
                return acts
            return _PASS_ONLY
        top = self.discard[-1]
        key = NUM_FACES + self.color if IS_WILD[top] else top
        m = MATCH[key]
        faces = []
        for f in hand:  # a hand is short: a list beats a set here
            if m[f]:
                faces.append(f)
        if not faces:
            return _DRAW_ONLY  # nothing playable: draw (STD-4)
        nh = len(hand)
        plain = self._plain and nh > 1
        plays = _PLAYS if nh > 2 else _PLAYS_BOTH
        if len(faces) > 1:
            faces.sort()  # (a face held twice comes twice: its plays are listed once)
        if WD4 in faces and self._wd4_refused(seat):
            faces = [f for f in faces if f != WD4]
        if plain and self._may_draw and faces and faces[0] == faces[-1]:
            return _THEN[nh == 2][0][faces[0]]  # one playable face: prebuilt
        last = -1
        acts = []
        if plain:
            for f in faces:
                if f != last:
                    acts += plays[f]
                    last = f
        else:
            for f in faces:
                if f != last:
                    acts += self._face_plays(seat, f, hand)
                    last = f
        if self._may_draw or not acts:
            acts.append(DRAW_ACTION)
        return acts

    def _face_plays(self, seat: int, f: int, hand: list[int]) -> list[Action]:
        """Every play of face ``f``, built by :meth:`_expand` (Uno-call twins with two cards)."""
        acts = self._expand(seat, f, False)
        if len(hand) == 2:
            acts += self._expand(seat, f, True)
        return acts

    def _response_actions(self, seat: int) -> list[Action]:
        o = self.opts
        hand = self.hands[seat]
        acts: list[Action] = []
        if o.stacking != "none":
            top_kind = FACE_KIND[self.pot_top]
            cands: list[int] = []
            wd4_ok = not self._wd4_refused(seat) and (o.stacking == "escalating"
                                                      or self.pot_top == WD4)
            for f in sorted(set(hand)):
                if (FACE_KIND[f] == DRAW_TWO and top_kind == DRAW_TWO) or (f == WD4 and wd4_ok):
                    cands.append(f)
            uno = len(hand) == 2
            for f in cands:
                acts += self._expand(seat, f, False)
                if uno:
                    acts += self._expand(seat, f, True)
        if self._wd4_challengeable():
            acts.append(A.CHALLENGE_ACTION)
        acts.append(A.ACCEPT_ACTION)
        return acts

    def _has_windows(self) -> bool:
        o = self.opts
        return o.false_uno_call_penalty > 0 or (o.jump_in and self.phase == TURN and not self.drew)

    def _window_actions(self, seat: int) -> list[Action]:
        o = self.opts
        acts: list[Action] = []
        if seat in self.uno_open or o.false_uno_call_penalty > 0:
            acts.append(A.UNO_ACTION)
        if o.false_uno_call_penalty > 0:
            acts += [_CATCHES[x] for x in range(self.n) if x != seat]
        else:
            for x in self.uno_open:
                if x != seat:
                    acts.append(_CATCHES[x])
        if (o.jump_in and self.phase == TURN and not self.drew and seat != self.turn
                and seat != self.top_player):
            top = self.discard[-1]
            if not IS_WILD[top] and top in self.hands[seat]:
                acts += self._jumps(seat, top)
        return acts

    def _jumps(self, seat: int, top: int) -> list[Action]:
        """``seat``'s jump-in plays of the card ``top`` (STD-12.3).

        A jump-in is a play: it takes the same choices as a play of that card in turn, a
        seat to swap with for a 7 under 7-0 (STD-12.2) and the Uno call when it leaves one
        card (STD-8.1).
        """
        if self.opts.seven_o and FACE_KIND[top] == NUMBER and FACE_NUMBER[top] == 7:
            targets = [t for t in range(self.n) if t != seat]
            if len(self.hands[seat]) == 1:
                targets.append(-1)  # the last card: the hand ends, nothing is swapped
        else:
            targets = [-1]
        acts = [make(A.JUMP, (top,), target=t) for t in targets]
        if len(self.hands[seat]) == 2:
            acts += [make(A.JUMP, (top,), target=t, uno=True) for t in targets]
        return acts

    # ------------------------------------------------------------------ apply

    def _apply(self, seat: int, action: Action) -> None:
        """Apply a listed action of ``seat``: the rules of each kind, in one body.

        A card played (in turn STD-5, jumped in STD-12.3, stacked STD-12.1) and a turn draw
        (one card STD-4, or until a playable one STD-12.4) are written here rather than in
        helpers of their own: they are most of the decisions, and a call less each counts.
        """
        k = action.kind
        if k <= ACCEPT or k in (CHALLENGE, JUMP, QUESTION):  # a turn action
            if self.uno_open:  # closes the others' Uno windows (STD-8.3)
                self.uno_open = [seat] if seat in self.uno_open else []  # (each seat once)
            self.turns += 1
        if k in (PLAY, JUMP):
            p = seat
            f = action.cards[0]
            hand = self.hands[p]
            if f == WD4:  # STD-6.1, judged on the hand that played it, before the play
                honest = self._wd4_honest(p)
                wd4_legal = honest or self.color < 0
            else:
                honest = wd4_legal = True
            hand.remove(f)
            self.discard.append(f)
            self.top_player = p
            self.idle = 0
            self.color = action.color if IS_WILD[f] else FACE_COLOR[f]
            events = self._events is not None
            if events:
                rule = self.r("12.3") if k == JUMP else self._card_rule(f)
                self.emit("play", p, rule, (f,), color=action.color, target=action.target)
            left = len(hand)
            if left < 2:
                if not left:
                    self.out_order.append(p)
                elif action.uno:
                    self.emit("uno", p, self.r("8.1"))
                else:
                    self.uno_open.append(p)
            nxt = self._ring[self.direction]  # next_seat's table: nxt[p] is next_seat(p)
            kf = FACE_KIND[f]
            if kf == NUMBER:  # (never an answer to a pot: only drawing cards stack, STD-12.1)
                if left and self._sevens and FACE_NUMBER[f] in (0, 7):
                    self._seven_o(p, f, action.target)
                self._next(nxt[p])
            elif self.phase == RESPONSE:
                self._stack(p, f, honest)
            elif kf == SKIP:
                s = nxt[p]
                if events:  # with two players its player plays again (STD-7.2)
                    self.emit("skip", s, self.r("7.2" if self.n == 2 and self._two_player
                                                else "5.2"))
                self._next(nxt[s])
            elif kf == REVERSE:
                self.direction = -self.direction
                nxt = self._ring[self.direction]
                if events:
                    self.emit("reverse", p, self.r("5.3"))
                if self.n == 2 and self._two_player:
                    if events:
                        self.emit("skip", nxt[p], self.r("7.1"))
                    self._next(p)
                else:
                    self._next(nxt[p])
            elif kf == DRAW_TWO:
                self._draw_attack(p, f, 2, not left)
            elif f == WD4:
                self.wd4_player = p
                self.wd4_legal = wd4_legal
                self._draw_attack(p, f, 4, not left)
            else:
                self._next(nxt[p])
        elif k == DRAW:
            hand = self.hands[seat]  # draw_cards adds to this list
            self.drew = True
            self.drawn = -1
            if self._draw_one:  # one card (STD-4)
                got = self.draw_cards(seat, 1, self.r("4") if self._events is not None else "")
                if got:
                    self.drawn = hand[-1]
            else:  # until a playable one (STD-12.4)
                rule = self.r("12.4")
                got = 0
                while self.draw_cards(seat, 1, rule):
                    got += 1
                    f = hand[-1]
                    self.drawn = f
                    if self.is_playable(seat, f):
                        break
            f = self.drawn
            if f < 0 or not self.is_playable(seat, f):
                # the drawn card cannot be played: the turn ends at once (STD-4)
                if self._events is not None:
                    self.emit("pass", seat, self.r("4"))
                # (a card drawn with the idle count at 0 leaves nothing to count)
                if (self.idle or not got) and self._blocked_after_draw(
                        self._lc[0].kind == PLAY, got):  # step checked the action against _lc
                    self._end_blocked(seat)
                    return
                self._next(self._ring[self.direction][seat])  # next_seat's table
        elif k == A.PASS:
            if self._events is not None:
                self.emit("pass", seat, self.r("4"))
            self._next(self._ring[self.direction][seat])
        elif k == A.ACCEPT:
            v = seat
            card_rule = "5.6" if self.pot_top == WD4 else "5.4"
            self.emit("accept", v, self.r(card_rule))
            self.draw_cards(v, self.pot, self.r("12.1") if self.opts.stacking != "none"
                            else self.r("5.6"))
            self.pot = 0
            self._victim_skipped(v, card_rule)
            self._next(self.next_seat(v))
        elif k == A.CHALLENGE:
            self._challenge(seat)
        elif k == QUESTION:
            self._question(seat)
        elif k == A.UNO:
            if seat in self.uno_open:
                self.uno_open.remove(seat)
                self.emit("uno", seat, self.r("8.1"))
            elif len(self.hands[seat]) == 1:
                self.emit("uno", seat, self.r("8.1"))
            else:
                self.emit("uno", seat, self.r("8.4"))
                self.draw_cards(seat, self.opts.false_uno_call_penalty, self.r("8.4"))
        elif k == A.CATCH:
            x = action.target
            self.emit("catch", seat, self.r("8.1"), target=x)
            if x in self.uno_open:
                self.uno_open.remove(x)
                self.draw_cards(x, self.opts.uno_catch_penalty, self.r("8.1"))
            else:
                self.draw_cards(seat, self.opts.false_uno_call_penalty, self.r("8.4"))
        elif k == A.COLOR:
            self.color = action.color
            self.emit("color", seat, self.r("3"), color=action.color)
            self._next(seat)
        if self._max_turns and self.turns >= self._max_turns and self.phase != GAME_OVER:
            self._stop_game()

    def _end_blocked(self, seat: int) -> None:
        """The hand is blocked: the fewest points in hand win (STD-0.4, a ruling)."""
        self.emit("blocked", self.turn, self.r("0.4"))
        order = [(self.turn + self.direction * i) % self.n for i in range(self.n)]
        winner = min(order, key=lambda s: sum(map(_POINTS.__getitem__, self.hands[s])))
        self._hand_over(winner, "blocked")

    def _card_rule(self, f: int) -> str:
        """The rule a play of ``f`` cites: the variant's kit says (the help cites the same)."""
        return self.variant.kit.card_rule(f)

    def _draw_attack(self, p: int, f: int, count: int, out: bool) -> None:
        nxt = self._ring[self.direction]  # next_seat's table
        v = nxt[p]
        self.pot = count
        self.pot_top = f
        self.pot_victim = v
        decide = not out and (self._stacking or (self._challenge_rule
                                                 and self._wd4_challengeable()))
        if decide:
            self.emit("attack", p, self.r("5.6" if f == WD4 else "5.4"), (f,), n=count, target=v)
            self.phase = RESPONSE
            self.turn = v
            self.drew = False
            self.drawn = -1
            return
        if self._events is None:
            self.draw_cards(v, count, "")
        else:
            card_rule = "5.6" if f == WD4 else "5.4"
            self.draw_cards(v, count, self.r("9.2" if out else card_rule))
            self._victim_skipped(v, card_rule)
        self.pot = 0
        self._next(nxt[v])

    def _victim_skipped(self, v: int, card_rule: str) -> None:
        """The event of a draw's victim losing his turn (the card's rule, ``card_rule``).

        With two players it is STD-7.3's: play comes back to the player of the card.
        """
        if self._events is not None:
            self.emit("skip", v, self.r("7.3" if self.n == 2 and self._two_player
                                        else card_rule))

    def _stack(self, p: int, f: int, honest: bool) -> None:
        add = 4 if f == WD4 else 2
        self.pot += add
        self.pot_top = f
        if f == WD4:
            self.wd4_player = p
            self.wd4_legal = honest
        if not self.hands[p]:
            v = self.next_seat(p)
            self.draw_cards(v, self.pot, self.r("9.2"))
            self.pot = 0
            self._next(v)
            return
        v = self.next_seat(p)
        self.pot_victim = v
        self.emit("stack", p, self.r("12.1"), (f,), n=self.pot, target=v)
        self.turn = v

    def _challenge(self, c: int) -> None:
        """The Wild Draw Four challenge (STD-6.4, STD-12.1 with a pot)."""
        w = self.wd4_player
        self.emit("challenge", c, self.r("6.4"), target=w)
        self.emit("reveal", w, self.r("6.4"), tuple(self.hands[w]), target=c, hidden=True)
        guilty = not self.wd4_legal
        self.emit("challenge_result", w, self.r("6.4"), n=1 if guilty else 0)
        pot = self.pot
        self.pot = 0
        if guilty:
            self.draw_cards(w, pot, self.r("6.4"))
            if self.opts.wd4_guilty_challenger_turn == "plays":
                self._next(c)
            else:
                self.emit("skip", c, self.r("6.5"))
                self._next(self.next_seat(c))
        else:
            self.draw_cards(c, pot + 2, self.r("6.4"))
            self._victim_skipped(c, "6.4")  # he draws and loses his turn, as if accepting
            self._next(self.next_seat(c))

    def _question(self, v: int) -> None:
        """The victim questions a Wild Draw Four: a variant's rule (Cutthroat, CT-5.2).

        Standard Uno never lists the action, so it never arrives here.
        """
        raise NotImplementedError("standard Uno has no questioned Wild Draw Four")

    def _wd4_challengeable(self) -> bool:
        """STD-6.3: the pending draw is a Wild Draw Four and the challenge rule is on."""
        return self.pot_top == WD4 and self._challenge_rule

    def _seven_o(self, p: int, f: int, target: int) -> None:
        """STD-12.2: a 7 swaps hands with ``target``; a 0 passes every hand on."""
        h = self.hands
        if FACE_NUMBER[f] == 7:
            h[p], h[target] = h[target], h[p]
            self.emit("swap", p, self.r("12.2"), target=target)
            changed = [p, target]
        else:
            d = self.direction
            self.hands = [h[(s - d) % self.n] for s in range(self.n)]
            self.emit("rotate", p, self.r("12.2"))
            changed = list(range(self.n))
        self.uno_open = [s for s in self.uno_open if s not in changed]
        for s in changed:
            if len(self.hands[s]) == 1:
                self.uno_open.append(s)

    def _next(self, seat: int) -> None:
        """End the action: the hand is over if a player is out, else ``seat``'s turn.

        A player out ends the hand (STD-9.1); otherwise ``seat`` has an ordinary turn
        (STD-4).  Nobody is out while a hand is in play (positions too:
        :meth:`check_position`), so every turn handed on, the first of a hand included,
        comes through here.
        """
        if self.out_order:
            self._hand_over(self.out_order[0])
            return
        self.phase = TURN
        self.turn = seat
        self.drew = False
        self.drawn = -1

    # ------------------------------------------------------------------ scoring

    def team_of(self, seat: int) -> tuple[int, ...]:
        """Partners sit opposite (STD-11.4)."""
        if self.opts.partners and self.opts.partners_victory == "team":
            half = self.n // 2
            return (seat, (seat + half) % self.n) if seat < half else ((seat - half), seat)
        return (seat,)

    def _hand_over(self, winner: int, end: str = "out") -> None:
        """The hand is over (STD-9.1, or blocked STD-0.4): score it, then go on.

        The hand is scored (STD-9.3), then the game ends (STD-9.4) or the next hand is
        dealt (STD-2).  The result (``last_hand``, :func:`_hand_result`) is built when first read.
        """
        o = self.opts
        n = self.n
        events = self._events is not None
        self.hand_winner = winner
        self.uno_open = []
        rule = self.r("9.1") if end == "out" else self.r("0.4")
        if events:
            self.emit("hand_end", winner, rule)
        hands = self.hands
        pts = tuple([sum(map(_POINTS.__getitem__, h)) for h in hands])
        team = self.team_of(winner)
        takes = o.scoring == "winner_takes"
        if takes:
            got = 0
            for s in range(n):
                if s not in team:
                    got += pts[s]
            gains = [0] * n
            gains[winner] = got
        else:
            gains = list(pts)
        scores = self.scores
        for s in range(n):
            scores[s] += gains[s]
        cards = tuple(map(tuple, hands))
        r93 = self.r("9.3")
        if events:
            label = ("team" if len(team) > 1 else "opponents") if takes else "cards"
            for s in range(n):
                self.emit("score", s, r93, cards[s], n=gains[s],
                          info=((label, gains[s]),) if gains[s] else ())
        self._hand_result_later(_hand_result, (
            self.hand_no, end, rule, winner, team, tuple(self.out_order), takes, pts,
            tuple(gains), tuple(scores), cards, r93, self.r("11.3"), self._team_extras()))
        if o.rounds and self.hand_no >= o.rounds:
            self._finish()
            return
        if max(self.team_totals()) >= o.target_score:
            self._finish()
            return
        if o.dealer_selection == "rotate_left":
            self.dealer = (self.dealer + 1) % n
        elif o.dealer_selection == "draw_high":  # every hand's set-up starts with the draw
            self.dealer = self._draw_high(self.deck)
            self.emit("dealer", self.dealer, self.r("2.1"), n=self.hand_no + 1)
        self._deal()

    def team_totals(self) -> list[int]:
        """Each seat's total, counting a team's points together under partners."""
        if not (self.opts.partners and self.opts.partners_victory == "team"):
            return self.scores[:]  # every team is one seat (see team_of)
        return [sum(self.scores[t] for t in self.team_of(s)) for s in range(self.n)]

    def standing_totals(self) -> list[int]:
        """Totals as the goal counts them: a team's together under partners (STD-11.3)."""
        return self.team_totals()

    def _team_extras(self) -> dict[str, Any]:
        if not (self.opts.partners and self.opts.partners_victory == "team"):
            return {}
        return {"team_totals": tuple(self.team_totals())}

    def game_extras(self) -> dict[str, Any]:
        """The team totals under partners (STD-11.3)."""
        return self._team_extras()

    def game_end(self) -> tuple[str, str]:
        """The target score or the set number of hands (STD-9.4), or the turn limit."""
        o = self.opts
        if o.max_turns and self.turns >= o.max_turns:
            return ("max_turns", self.r("9.4"))
        if o.rounds and self.hand_no >= o.rounds and max(self.team_totals()) < o.target_score:
            return ("rounds", self.r("9.4"))
        return ("target", self.r("9.4"))

    def _finish(self, stopped: bool = False) -> None:
        totals = self.team_totals()
        if self.opts.scoring == "winner_takes":
            if self.opts.rounds == 1 and self.hand_winner >= 0:
                best = totals[self.hand_winner]
            else:
                best = max(totals)
        else:
            best = min(totals)
        winners = [s for s in range(self.n) if totals[s] == best]
        if stopped and len(winners) == self.n:
            winners = []  # STD-9.4: a game stopped with every total equal has no winner
        self.winners = winners
        self.phase = GAME_OVER
        self.drew = False
        self.drawn = -1
        if self._events is not None:
            for w in winners:
                self.emit("game_end", w, self.r("9.4"))

    def _stop_game(self) -> None:
        """``max_turns`` reached: the hand in progress is not scored (STD-9.4, a ruling)."""
        self.emit("hand_end", NOBODY, self.r("9.4"))
        self.last_hand = HandResult(hand=self.hand_no, end="max_turns", rule=self.r("9.4"),
                                    winners=(), out_order=tuple(self.out_order),
                                    extras=self._team_extras())
        self._finish(stopped=True)

    def position_extra(self) -> dict[str, Any]:
        """Standard fields of the position notation (the pot is ``pending``)."""
        return {
            "top_player": self.top_player if self.top_player >= 0 else None,
            "turns": self.turns,
        }

    def load_position_extra(self, d: Any) -> None:
        """Read the standard fields of a position."""
        tp = d.get("top_player")
        if tp is not None and (not isinstance(tp, int) or isinstance(tp, bool)
                               or not 0 <= tp < self.n):
            raise PositionError("bad_position", f"top_player: no seat {tp!r}")
        self.top_player = NOBODY if tp is None else tp
        turns = d.get("turns", 0)
        if not isinstance(turns, int) or isinstance(turns, bool) or not 0 <= turns <= 10**9:
            raise PositionError("bad_position", "'turns' must be a count of turn actions")
        self.turns = turns

    def may_end_without_winner(self) -> bool:
        """A game stopped by ``max_turns`` with every total equal has no winner (STD-9.4)."""
        return bool(self.opts.max_turns)

    def check_position(self) -> None:
        """A standard hand has no deal phase and no victim to choose (STD-2, STD-3)."""
        if self.phase not in (TURN, RESPONSE, CHOOSE_COLOR, GAME_OVER):
            raise PositionError("bad_position", f"a {self.variant.name} hand has no phase "
                                f"{PHASE_NAMES[self.phase]!r} (turn, response, choose_color "
                                "or game_over)")
        if self.phase == CHOOSE_COLOR and not IS_WILD[self.discard[-1]]:
            raise PositionError("bad_position", "phase 'choose_color' needs a wild on top")
        if self.phase != GAME_OVER and self.out_order:
            raise PositionError("bad_position", "nobody is out while a hand is played: it ends "
                                f"when a player goes out ({self.r('9.1')}); out_order and the "
                                "empty hands must be empty")

    # ------------------------------------------------------------------ pending

    def pending(self) -> Pending | None:
        """The draw pot waiting for its victim (STD-5.4, STD-5.6, STD-12.1), or None."""
        if self.phase != RESPONSE:
            return None
        legal = self.wd4_legal if self.pot_top == WD4 else None
        return Pot(self.turn, self.top_player, self.pot, self.pot_top, None, legal)

    def load_pending(self, value: Pending | None) -> None:
        """Set the pending pot (positions); refuse one that cannot be."""
        if value is None:
            self.pot = 0
            return
        if not isinstance(value, Pot) or value.level is not None:
            raise PositionError("bad_position", f"{self.variant.name} has a draw pot "
                                "(type 'pot', no level) and nothing else pending")
        f = value.last_card
        if FACE_KIND[f] not in (DRAW_TWO, FACE_KIND[WD4]):
            raise PositionError("bad_position", "a pot's last card is a Draw Two or a Wild "
                                f"Draw Four (not {card_code(f)})")
        v = value.victim
        if not 0 <= v < self.n:
            raise PositionError("bad_position", f"the pot's victim {v} is not a seat")
        sender = value.sender
        if sender >= 0:
            if sender >= self.n:
                raise PositionError("bad_position", f"the pot's sender {sender} is not a seat")
            if self.top_player not in (NOBODY, sender):
                raise PositionError("bad_position", "the pot's sender is the player of the top "
                                    "card (top_player)")
            self.top_player = sender
        self.pot = value.count
        self.pot_top = f
        self.pot_victim = v
        if f == WD4:
            w = sender if sender >= 0 else self.next_seat(v, -self.direction)
            if w == v:
                raise PositionError("bad_position", "the Wild Draw Four player cannot be its "
                                    "victim")
            self.wd4_player = w
            self.wd4_legal = True if value.wd4_legal is None else value.wd4_legal
        elif value.wd4_legal is not None:
            raise PositionError("bad_position", "wd4_legal needs a Wild Draw Four on top")
