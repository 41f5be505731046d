"""Standard (official Mattel, classic 108-card) Uno and its popular house rules (STD-…).

Covers the first card (STD-3), turns and the single draw (STD-4), the card effects
(STD-5), the Wild Draw Four challenge (STD-6), two-player rules (STD-7), the Uno call and
catch (STD-8), going out and scoring to 500 (STD-9), partners (STD-11) and the house
rules of STD-12 (stacking, 7-0, jump-in, draw to match, force play), each an option.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

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
from hotdeath.options import option
from hotdeath.pending import Pending, Pot
from hotdeath.state import CHOOSE_COLOR, GAME_OVER, NOBODY, RESPONSE, TURN
from hotdeath.variants.base import Goal, Variant, VariantKit, VariantState

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class StandardOptions:
    """The Standard column of the option registry (uno-variants §4)."""

    dealer_selection: str = option("given", "Dealer: the given seat (0 unless chosen) deals "
                                   "every hand; draw_high: the highest number drawn deals, "
                                   "with a new draw before every hand; rotate_left: the deal "
                                   "passes left after each hand",
                                   "STD-2.1", ("given", "draw_high", "rotate_left"),
        title="Who deals",
        sentence="Who deals each hand.",
        group="deal",
        labels={
            "given": "The same player deals every hand",
            "draw_high": "Everyone draws a card before each hand; the highest number deals",
            "rotate_left": "The deal passes to the left after each hand",
        },
    )
    max_players: int = option(10, "Most players allowed at the table", "STD-1.1", (2, 15),
        title="Most players",
        sentence="The most players this game allows at one table.",
        group="table",
    )
    decks: int = option(1, "Number of 108-card decks", "STD-1.1", (1, 2),
        title="Decks",
        sentence="How many 108-card decks are shuffled together.",
        group="table",
    )
    initial_direction: int = option(1, "Direction of play at the start of a hand "
                                    "(1 clockwise, -1 counter-clockwise)", "STD-2.2", (1, -1),
                                    choice=True,
        title="First direction",
        sentence="Which way play goes at the start of a hand.",
        group="deal",
        labels={
            1: "Clockwise",
            -1: "Counter-clockwise",
        },
    )
    first_card_wild: str = option("first_player_names", "A Wild turned up first: the first "
                                  "player names the colour, or it is returned and redrawn",
                                  "STD-3", ("first_player_names", "redraw"),
        title="A Wild turned up first",
        sentence="What happens when the first card turned up is a Wild.",
        group="deal",
        labels={
            "first_player_names": "The first player names the colour",
            "redraw": "It goes back and another card is turned up",
        },
    )
    first_card_reverse: str = option("dealer_first", "A Reverse turned up first: the dealer "
                                     "plays first, or the player to his right",
                                     "STD-3", ("dealer_first", "dealer_right_first"),
        title="A Reverse turned up first",
        sentence="Who starts when the first card turned up is a Reverse.",
        group="deal",
        labels={
            "dealer_first": "The dealer starts",
            "dealer_right_first": "The player to the dealer's right starts",
        },
    )
    first_card_draw_two_loses_turn: bool = option(True, "A Draw Two turned up first also "
                                                  "skips its victim", "STD-3",
        title="A Draw Two turned up first skips",
        sentence="When the first card turned up is a Draw Two, its victim draws two and also "
            "loses the turn.",
        group="deal",
    )
    wild_draw_four_rule: str = option("challenge", "Wild Draw Four legality: bluff and "
                                      "challenge, strictly enforced, or always free",
                                      "STD-6.2", ("challenge", "strict", "free"),
        title="Wild Draw Four bluffing",
        sentence="Whether a Wild Draw Four may be played while holding a card of the current "
            "colour.",
        group="cards",
        labels={
            "challenge": "Bluffing allowed, and the victim may challenge",
            "strict": "Never: an illegal one is refused",
            "free": "Always allowed, no challenge",
        },
    )
    wd4_guilty_challenger_turn: str = option("plays", "After a successful challenge the "
                                             "challenger plays, or is skipped", "STD-6.5",
                                             ("plays", "skipped"),
        title="After a won challenge",
        sentence="What the challenger does after catching a bluffed Wild Draw Four.",
        group="cards",
        labels={
            "plays": "The challenger plays on",
            "skipped": "The challenger is skipped",
        },
    )
    wild_color_must_change: bool = option(False, "A Wild must name a colour other than the "
                                          "current one", "STD-5.5",
        title="A Wild changes the colour",
        sentence="A Wild must name a colour other than the current one.",
        group="cards",
    )
    wd4_color_must_change: bool = option(False, "A Wild Draw Four must name a colour other "
                                         "than the current one", "STD-5.6",
        title="A Wild Draw Four changes the colour",
        sentence="A Wild Draw Four must name a colour other than the current one.",
        group="cards",
    )
    may_draw_with_playable: bool = option(True, "A player may draw while holding a playable "
                                          "card", "STD-4",
        title="Draw while able to play",
        sentence="A player may draw a card even when holding one that could be played.",
        group="play",
    )
    drawn_card_play: str = option("may", "A playable drawn card may be played, or must be "
                                  "(Force Play)", "STD-4", ("may", "must"),
        title="Playing a drawn card",
        sentence="Whether a playable card just drawn may or must be played.",
        group="play",
        labels={
            "may": "May be played",
            "must": "Must be played (Force Play)",
        },
    )
    draw_rule: str = option("one", "Draw one card, or draw until a playable card turns up",
                            "STD-12.4", ("one", "until_playable"),
        title="How many cards a draw takes",
        sentence="A turn draw takes one card, or keeps drawing until a playable card turns up.",
        group="play",
        labels={
            "one": "One card",
            "until_playable": "Until a playable card turns up",
        },
    )
    stacking: str = option("none", "Draw Two / Wild Draw Four stacking: none, equal cards, "
                           "or equal-or-greater", "STD-12.1", ("none", "flat", "escalating"),
        title="Stacking draw cards",
        sentence="Whether a Draw Two or Wild Draw Four may be answered with another one, passing "
            "the draw on.",
        group="cards",
        labels={
            "none": "No stacking",
            "flat": "The same card stacks",
            "escalating": "The same card or a bigger one stacks",
        },
    )
    seven_o: bool = option(False, "7-0: a 7 swaps hands with a chosen player, a 0 passes every "
                           "hand on", "STD-12.2",
        title="Sevens and zeros (7-0)",
        sentence="A 7 swaps hands with a chosen player and a 0 passes every hand along.",
        group="cards",
    )
    jump_in: bool = option(False, "A card identical to the top may be played out of turn",
                           "STD-12.3",
        title="Jump in",
        sentence="A card identical to the top card may be played out of turn.",
        group="play",
    )
    two_player_rules: bool = option(True, "With two players a Reverse acts as a Skip",
                                    "STD-7.0",
        title="Two-player Reverse",
        sentence="With two players a Reverse works as a Skip.",
        group="play",
    )
    partners: bool = option(False, "Partners sit opposite each other and win together",
                            "STD-11.1",
        title="Partners",
        sentence="Partners sit opposite each other and win together.",
        group="table",
    )
    partners_victory: str = option("team", "With partners: the team wins, or only the "
                                   "player who went out", "STD-11.3", ("team", "individual"),
        title="Who wins with partners",
        sentence="With partners, whether the whole team wins or only the player who went out.",
        group="table",
        labels={
            "team": "The team",
            "individual": "Only the player who went out",
        },
    )
    uno_catch_penalty: int = option(2, "Cards drawn when caught without an Uno call",
                                    "STD-8.1", (0, 10),
        title="Caught without Uno",
        sentence="Cards a player draws when caught without calling Uno.",
        group="uno",
    )
    false_uno_call_penalty: int = option(0, "Cards drawn for a false Uno call or catch "
                                         "(0: such calls are refused)", "STD-8.4", (0, 10),
        title="Wrong Uno call or catch",
        sentence="Cards drawn for calling Uno or catching someone wrongly (0: such a call is "
            "refused).",
        group="uno",
    )
    scoring: str = option("winner_takes", "The hand's winner scores the others' cards, or "
                          "everyone scores their own (lowest wins)", "STD-9.3",
                          ("winner_takes", "penalty_points"),
        title="Scoring",
        sentence="Who scores at the end of a hand.",
        group="score",
        labels={
            "winner_takes": "The winner scores the cards left in the others' hands",
            "penalty_points": "Everyone scores their own cards; the lowest total wins",
        },
    )
    target_score: int = option(500, "The game ends when a total reaches this", "STD-9.4",
                               (1, 100000),
        title="Points to end the game",
        sentence="The game ends when a total reaches this many points.",
        group="score",
    )
    rounds: int = option(0, "Number of hands in a game (0: until a total reaches "
                         "target_score)", "STD-9.4", (0, 1000),
        title="Hands in a game",
        sentence="How many hands a game lasts (0: until a total reaches the points to end the "
            "game).",
        group="score",
    )
    max_turns: int = option(0, "Stop the game after this many turn actions (0: no limit)",
                            "STD-9.4", (0, 1000000),
        title="Turn limit",
        sentence="The game stops after this many turns (0: no limit).",
        group="table",
    )
    shortfall: str = option("forgive", "Cards owed when both piles are empty are forgiven",
                            "STD-0.4", ("forgive",),
        title="Empty piles",
        sentence="Cards owed when the draw pile and the discard pile are both empty are forgiven.",
        group="play",
        labels={
            "forgive": "Forgiven",
        },
    )


PRESETS: Final[dict[str, dict[str, Any]]] = {
    "official": {},
    "house": {"stacking": "flat", "seven_o": True, "jump_in": True},
    "no_bluffing": {"wild_draw_four_rule": "strict"},
}
PRESET_WORDS: Final = {
    "official": (
        "Official rules",
        "The classic rules from the box, no house rules.",
    ),
    "house": (
        "Party rules",
        "Official rules plus three favourites: stacking draw cards, sevens and zeros, and "
        "jumping in.",
    ),
    "no_bluffing": (
        "Official rules, no bluffing",
        "Official rules, but a Wild Draw Four that breaks the rule is refused.",
    ),
}
"""Each preset for people: a name they understand and one plain sentence."""

PRESET_DESCRIPTIONS: Final = {
    "official": "The classic Mattel rules, no house rules",
    "house": "Popular house rules: flat stacking, 7-0 and jump-in",
    "no_bluffing": "Official rules, but an illegal Wild Draw Four is refused",
}

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
_MATCHING: Final = tuple(frozenset(f for f in range(NUM_FACES) if row[f]) for row in MATCH)
"""The faces playable on each key, as sets (a hand with none is found at C speed)."""
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


class StandardState(VariantState):
    """A game of standard Uno (hands to ``target_score``)."""

    rule_prefix = "STD"

    def __init__(self, variant: Variant, opts: Any, players: int, seed: int) -> None:
        super().__init__(variant, opts, players, seed)
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

    _rids: ClassVar[dict[str, str]] = {}

    def r(self, sub: str) -> str:
        """Rule id in this game's rulebook (``sub`` is the part after the prefix)."""
        key = self.rule_prefix + sub
        rid = self._rids.get(key)
        if rid is None:
            rid = self._rids[key] = f"{self.rule_prefix}-{sub}"
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
        n = self.n
        self.hand_no += 1
        pile = self.deck[:]
        self.rng.shuffle(pile)
        self.draw_pile = pile
        self.discard = []
        # seven rounds of one card each from the top of the pile (its end), starting
        # left of the dealer: the k-th card dealt goes to the k-th seat after the dealer
        dealt = pile[-7 * n:]
        del pile[-7 * n:]
        dealt.reverse()
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(self.dealer + 1 + i) % n] = dealt[i::n]
        self.hands = hands
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
        self._give_turn(first)

    def _give_turn(self, seat: int) -> None:
        self.phase = TURN
        self.turn = seat
        self.drew = False
        self.drawn = -1

    # ------------------------------------------------------------------ legality

    def _key(self) -> int:
        top = self.discard[-1]
        return NUM_FACES + self.color if IS_WILD[top] else top

    def is_playable(self, seat: int, f: int) -> bool:
        """Whether ``seat`` may play ``f`` now in a normal turn (STD-4, STD-6.1)."""
        top = self.discard[-1]
        key = NUM_FACES + self.color if IS_WILD[top] else top  # _key(), inlined
        return MATCH[key][f] and not (f == WD4 and self._wd4_refused(seat))

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
            return [play(f, target=t, uno=uno) for t in range(self.n) if t != seat]
        return list(_PLAYS_UNO[f] if uno else _PLAYS[f])

    def _main_actions(self, seat: int) -> list[Action]:
        ph = self.phase
        if ph == TURN:
            return self._turn_actions(seat)
        if ph == RESPONSE:
            return self._response_actions(seat)
        if ph == CHOOSE_COLOR:
            return list(_COLOR_ACTIONS)
        return []

    def _turn_actions(self, seat: int) -> list[Action]:
        """An ordinary turn (STD-4): the playable faces' plays in face order, then ``draw``.

        After a draw: the drawn card's plays and ``pass`` (no ``pass`` when a playable drawn
        card must be played).  Without colour limits or 7-0 and with two cards or more in
        hand a face's plays come from the precomputed tables (with two cards, each play also
        with an Uno call); otherwise :meth:`_expand` builds them.
        """
        hand = self.hands[seat]
        plain = self._plain and len(hand) > 1
        plays = _PLAYS if len(hand) > 2 else _PLAYS_BOTH
        acts: list[Action]
        if self.drew:
            f = self.drawn
            if f >= 0 and f in hand and self.is_playable(seat, f):
                acts = list(plays[f]) if plain else self._face_plays(seat, f, hand)
                if not self._must_play:
                    acts.append(PASS_ACTION)
                return acts
            return [PASS_ACTION]
        top = self.discard[-1]
        key = NUM_FACES + self.color if IS_WILD[top] else top
        if _MATCHING[key].isdisjoint(hand):
            return [DRAW_ACTION]  # nothing playable: draw (STD-4)
        m = MATCH[key]
        faces = []
        for f in hand:  # a hand is short: a list beats a set here
            if m[f] and f not in faces:
                faces.append(f)
        if len(faces) > 1:
            faces.sort()
        if WD4 in faces and self._wd4_refused(seat):
            faces.remove(WD4)
        acts = []
        if plain:
            for f in faces:
                acts += plays[f]
        else:
            for f in faces:
                acts += self._face_plays(seat, f, hand)
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
            acts += [make(A.CATCH, target=x) for x in range(self.n) if x != seat]
        else:
            acts += [make(A.CATCH, target=x) for x in self.uno_open if x != seat]
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
        else:
            targets = [-1]
        acts = [make(A.JUMP, (top,), target=t) for t in targets]
        if len(self.hands[seat]) == 2:
            acts += [make(A.JUMP, (top,), target=t, uno=True) for t in targets]
        return acts

    # ------------------------------------------------------------------ apply

    def _apply(self, seat: int, action: Action) -> None:
        k = action.kind
        if k <= ACCEPT or k in (CHALLENGE, JUMP, QUESTION):  # a turn action (STD-8.3)
            if self.uno_open:
                self.uno_open = [h for h in self.uno_open if h == seat]
            self.turns += 1
        if k in (PLAY, JUMP):
            self._play(seat, action)
        elif k == DRAW:
            had_play = self._lc[0].kind == PLAY  # step checked the action against _lc
            hand = self.hands[seat]
            before = len(hand)
            self._turn_draw(seat)
            f = self.drawn
            if f < 0 or not self.is_playable(seat, f):
                # the drawn card cannot be played: the turn ends at once (STD-4)
                if self._events is not None:
                    self.emit("pass", seat, self.r("4"))
                if self._blocked_after_draw(had_play, len(hand) - before):
                    self._blocked()
                    return
                self._next(self.next_seat(seat))
        elif k == A.PASS:
            if self._events is not None:
                self.emit("pass", seat, self.r("4"))
            self._next(self.next_seat(seat))
        elif k == A.ACCEPT:
            v = seat
            self.emit("accept", v, self.r("5.6" if self.pot_top == WD4 else "5.4"))
            self.draw_cards(v, self.pot, self.r("12.1") if self.opts.stacking != "none"
                            else self.r("5.6"))
            self.pot = 0
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
            self._give_turn(seat)
        mt = self._max_turns
        if mt and self.turns >= mt and self.phase != GAME_OVER:
            self._stop_game()

    def _turn_draw(self, p: int) -> None:
        """A turn draw: one card (STD-4), or until a playable one (STD-12.4)."""
        self.drew = True
        self.drawn = -1
        if self._draw_one:
            if self.draw_cards(p, 1, self.r("4") if self._events is not None else ""):
                self.drawn = self.hands[p][-1]
            return
        rule = self.r("12.4")
        while self.draw_cards(p, 1, rule):
            f = self.hands[p][-1]
            self.drawn = f
            if self.is_playable(p, f):
                break

    def _play(self, p: int, action: Action) -> None:
        """A card played: in turn (STD-5), jumped in (STD-12.3) or stacked (STD-12.1)."""
        f = action.cards[0]
        hand = self.hands[p]
        c = self.color
        honest = f != WD4 or self._wd4_honest(p)  # STD-6.1, on the hand that played it
        hand.remove(f)
        self.discard.append(f)
        self.top_player = p
        self.idle = 0
        self.color = action.color if IS_WILD[f] else FACE_COLOR[f]
        events = self._events is not None
        if events:
            rule = self.r("12.3") if action.kind == JUMP else self._card_rule(f)
            self.emit("play", p, rule, (f,), color=action.color, target=action.target)
        left = len(hand)
        if left < 2:
            if not left:
                self.out_order.append(p)
            elif action.uno:
                self.emit("uno", p, self.r("8.1"))
            else:
                self.uno_open.append(p)
        if self.phase == RESPONSE:
            self._stack(p, f, honest)
            return
        nxt = self.next_seat
        k = FACE_KIND[f]
        if k == NUMBER:
            if left:
                if self._sevens and FACE_NUMBER[f] in (0, 7):
                    self._seven_o(p, f, action.target)
                self._give_turn(nxt(p))  # nobody is out: the hand goes on
            else:
                self._next(nxt(p))
        elif k == SKIP:
            s = nxt(p)
            if events:
                self.emit("skip", s, self.r("5.2"))
            self._next(nxt(s))
        elif k == REVERSE:
            self.direction = -self.direction
            if events:
                self.emit("reverse", p, self.r("5.3"))
            if self.n == 2 and self._two_player:
                if events:
                    self.emit("skip", nxt(p), self.r("7.1"))
                self._next(p)
            else:
                self._next(nxt(p))
        elif k == DRAW_TWO:
            self._draw_attack(p, f, 2, not left)
        elif f == WD4:
            self.wd4_player = p
            self.wd4_legal = honest or c < 0
            self._draw_attack(p, f, 4, not left)
        else:
            self._next(nxt(p))

    def _blocked(self) -> None:
        """Nobody can play or draw any more: the fewest points in hand win (a ruling)."""
        self.emit("blocked", self.turn, self.r("0.4"))
        order = [(self.turn + self.direction * i) % self.n for i in range(self.n)]
        winner = min(order, key=lambda s: sum(map(_POINTS.__getitem__, self.hands[s])))
        self._hand_over(winner)

    def _card_rule(self, f: int) -> str:
        """The rule a play of ``f`` cites: the variant's kit says (the help cites the same)."""
        return self.variant.kit.card_rule(f)

    def _draw_attack(self, p: int, f: int, count: int, out: bool) -> None:
        v = self.next_seat(p)
        self.pot = count
        self.pot_top = f
        self.pot_victim = v
        o = self.opts
        decide = not out and (o.stacking != "none" or self._wd4_challengeable())
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
            self.draw_cards(v, count, self.r("9.2" if out else ("5.6" if f == WD4 else "5.4")))
            self.emit("skip", v, self.r("5.4"))
        self.pot = 0
        self._next(self.next_seat(v))

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
                self._next(self.next_seat(c))
        else:
            self.draw_cards(c, pot + 2, self.r("6.4"))
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
        if self.out_order:
            self._hand_over(self.out_order[0])
            return
        self.phase = TURN  # _give_turn, inlined
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

    def _hand_over(self, winner: int) -> None:
        o = self.opts
        n = self.n
        events = self._events is not None
        self.hand_winner = winner
        self.uno_open = []
        if events:
            self.emit("hand_end", winner, self.r("9.1"))
        pts = [sum(map(_POINTS.__getitem__, h)) for h in self.hands]
        seats: list[dict[str, int]] = []
        result: dict[str, Any] = {"hand": self.hand_no, "winner": winner, "seats": seats}
        if o.scoring == "winner_takes":
            team = self.team_of(winner)
            gains = [0] * n
            gains[winner] = sum(pts[s] for s in range(n) if s not in team)
            label = "team" if len(team) > 1 else "opponents"
        else:
            gains = pts[:]
            label = "cards"
        scores = self.scores
        for s in range(n):
            scores[s] += gains[s]
            seats.append({"seat": s, "hand_value": pts[s], "points": gains[s],
                          "total": scores[s]})
            if events:
                self.emit("score", s, self.r("9.3"), tuple(self.hands[s]), n=gains[s],
                          info=((label, gains[s]),) if gains[s] else ())
        self.last_hand = result
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
)
