"""Cutthroat's options and state.

The options derive from standard's; the state is standard's engine with Cutthroat's first
card, turn draw and end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import DRAW_TWO, FACE_COLOR, FACE_KIND, REVERSE, SKIP, WD4, WILD
from hotdeath.errors import PositionError
from hotdeath.options import fixed, like, option
from hotdeath.results import HandResult
from hotdeath.rng import DEAL_SCHEME
from hotdeath.state import CHOOSE_COLOR, GAME_OVER, NOBODY, TURN
from hotdeath.variants.standard import StandardOptions, StandardState

if TYPE_CHECKING:
    from hotdeath.variants.variant import Variant


@dataclass(frozen=True, slots=True)
class CutthroatOptions(StandardOptions):
    """The Cutthroat column of the option registry (uno-variants §4).

    Cutthroat is standard Uno played mean, so its options are standard's (a subclass):
    every option of standard Uno is one of Cutthroat's, with standard's rule, default and
    words, unless declared again here (:func:`~hotdeath.options.like`: Cutthroat's rule id
    and only what Cutthroat changes: a default, the allowed values, the words).  A new
    option of standard Uno is thus Cutthroat's too without a change here, and the engine of
    :class:`StandardState` finds every option it reads.  Options marked "(fixed)" there are
    declared with their one allowed value.  The Standard settings that Cutthroat takes away
    from players are fixed settings (:func:`~hotdeath.options.fixed`: not options), and two
    follow from Cutthroat's own options (set in ``__post_init__``).
    """

    dealer_selection: str = like(StandardOptions, "dealer_selection", "CT-1.3",
        description=(
            'Dealer: whoever picks up the cards (the given seat, 0 unless chosen); draw_high:'
            ' the highest number drawn deals; rotate_left has nothing to rotate in a one-hand'
            ' game'
        ),
        sentence='Who deals the hand.',
        labels={
            "given": "Whoever picks up the cards",
            "draw_high": "Everyone draws a card; the highest number deals",
            "rotate_left": "The deal passes to the left (one hand: no change)",
        },
    )
    max_players: int = like(StandardOptions, "max_players", "CT-1.2")
    decks: int = like(StandardOptions, "decks", "CT-1.1")
    initial_direction: int = like(StandardOptions, "initial_direction", "CT-1.4",
        description='Direction of play at the start (1 clockwise, -1 counter-clockwise)',
        sentence='Which way play goes at the start.',
    )
    first_card_wild: str = like(StandardOptions, "first_card_wild", "CT-2",
        values=('first_player_names',),
        description=(
            'A Wild turned up first: the player left of the dealer names any colour, then '
            'plays (fixed)'
        ),
        sentence='The player left of the dealer names any colour, then plays.',
    )
    first_card_reverse: str = like(StandardOptions, "first_card_reverse", "CT-2",
        values=('dealer_first',),
        description=(
            'A Reverse turned up first: the dealer plays first, then play goes to his right '
            '(fixed)'
        ),
        sentence='The dealer plays first, then play goes to the right.',
    )
    first_card_draw_two_loses_turn: bool = like(
        StandardOptions, "first_card_draw_two_loses_turn", "CT-2",
        values=(True,),
        description=(
            'A Draw Two turned up first: the player left of the dealer draws two and the next'
            ' player goes (fixed)'
        ),
        title='A Draw Two turned up first',
        sentence='The player left of the dealer draws two and the next player goes.',
    )
    first_card_wd4_victim_loses_turn: bool = option(True, "A Wild Draw Four turned up first: "
                                                    "the player left of the dealer draws four "
                                                    "and also loses his turn", "CT-2",
        title="A Wild Draw Four turned up first skips",
        sentence="When the first card turned up is a Wild Draw Four, the player left of the "
            "dealer draws four and also loses the turn.",
        group="deal",
    )
    wd4_challenge: str = option("question", "Answer to a Wild Draw Four: question (its "
                                "legality is announced, nothing else changes), official "
                                "(the Standard 4/6 challenge) or none", "CT-5.2",
                                ("question", "official", "none"),
        title="Answering a Wild Draw Four",
        sentence="What its victim may do about a Wild Draw Four.",
        group="cards",
        labels={
            "question": "Question it: whether it was legal is told, nothing else changes",
            "official": "Challenge it as in official Uno (4 or 6 cards)",
            "none": "Nothing: just draw",
        },
    )
    wd4_guilty_challenger_turn: str = like(StandardOptions, "wd4_guilty_challenger_turn", "CT-5.2",
        description=(
            'With wd4_challenge=official, after a successful challenge the challenger plays, '
            'or is skipped'
        ),
        sentence='With the official challenge, what the challenger does after catching a bluff.',
    )
    wild_color_must_change: bool = like(StandardOptions, "wild_color_must_change", "CT-4.4",
        default=True,
        description='A Wild must name one of the three colours not in play',
        sentence='A Wild must name one of the three colours not in play.',
    )
    wd4_color_must_change: bool = like(StandardOptions, "wd4_color_must_change", "CT-4.3")
    may_draw_with_playable: bool = like(StandardOptions, "may_draw_with_playable", "CT-3.2",
        default=False,
    )
    draw_until_match_then: str = option("keep", "After drawing until a match: keep it and "
                                        "pass (\"shucks\"), or may play it, or must play it",
                                        "CT-3.3", ("keep", "may_play", "must_play"),
        title="After drawing to a match",
        sentence="What happens to the matching card a player drew up to.",
        group="play",
        labels={
            "keep": "Keep it and pass (“shucks”)",
            "may_play": "It may be played",
            "must_play": "It must be played",
        },
    )
    stacking: str = like(StandardOptions, "stacking", "CT-4.2",
        values=('none',),
        description='Draw cards cannot be stacked (fixed)',
        sentence='Draw cards cannot be stacked.',
    )
    two_player_rules: bool = like(StandardOptions, "two_player_rules", "CT-8.0")
    partners: bool = like(StandardOptions, "partners", "CT-9.1",
        description='Partners sit catty-corner (seat i with seat i + n/2)',
        sentence='Partners sit across the corner from each other and win together.',
    )
    partners_victory: str = like(StandardOptions, "partners_victory", "CT-9.3",
        description='With partners: the team of the player who goes out wins, or only that player',
        sentence=(
            'With partners, whether the team of the player who went out wins or only that '
            'player.'
        ),
    )
    uno_catch_penalty: int = like(StandardOptions, "uno_catch_penalty", "CT-6.1")
    false_uno_call_penalty: int = like(StandardOptions, "false_uno_call_penalty", "CT-6.3")
    scoring: str = like(StandardOptions, "scoring", "CT-7.1",
        default='none',
        values=('none',),
        description='No scoring: the first player out wins (fixed)',
        sentence='Nobody scores points: the first player out wins.',
        labels={'none': 'No points'},
    )
    rounds: int = option(1, "A game is exactly one hand (fixed)", "CT-7.2", (1,), choice=True,
        title="Hands in a game",
        sentence="A game is exactly one hand.",
        group="score",
    )
    max_turns: int = like(StandardOptions, "max_turns", "CT-7.1",
        description='Stop the game, with no winner, after this many turn actions (0: no limit)',
        sentence='The game stops, with no winner, after this many turns (0: no limit).',
    )
    shortfall: str = like(StandardOptions, "shortfall", "CT-7.4")

    # Standard settings that Cutthroat fixes or derives (not options; see the docstring)
    seven_o: bool = fixed(False)
    """No 7-0 house rule in Cutthroat."""
    jump_in: bool = fixed(False)
    """No jump-in in Cutthroat."""
    draw_rule: str = fixed("until_playable")
    """Draw until a match (CT-3.3, CT-3.4)."""
    target_score: int = fixed(0)
    """No target: a game is one hand (CT-7.2) and nobody scores (CT-7.1)."""
    drawn_card_play: str = fixed("may")
    """The Standard setting for a playable drawn card (CT-3.3): from
    ``draw_until_match_then``."""
    wild_draw_four_rule: str = fixed("challenge")
    """The Standard setting: an illegal WD4 is always accepted (CT-5.1): from
    ``wd4_challenge``."""

    def __post_init__(self) -> None:
        """Set the two Standard settings that follow from Cutthroat's options."""
        object.__setattr__(self, "drawn_card_play",
                           "must" if self.draw_until_match_then == "must_play" else "may")
        object.__setattr__(self, "wild_draw_four_rule",
                           "free" if self.wd4_challenge == "none" else "challenge")


PRESETS: Final[dict[str, dict[str, Any]]] = {
    "seed_003": {},
    "official_challenge": {"wd4_challenge": "official"},
}
PRESET_WORDS: Final = {
    "seed_003": (
        "Cutthroat as written",
        "Draw until a match and keep it, question a doubtful Wild Draw Four, one hand a "
        "game.",
    ),
    "official_challenge": (
        "Cutthroat with the official challenge",
        "Cutthroat, but a doubtful Wild Draw Four can be challenged as in official Uno.",
    ),
}
"""Each preset for people: a name they understand and one plain sentence."""

PRESET_DESCRIPTIONS: Final = {
    "seed_003": "The Cutthroat sheet as read by the rules contract: draw until a match and "
                "keep it, question an illegal Wild Draw Four, one hand per game",
    "official_challenge": "Cutthroat, but an illegal Wild Draw Four meets the official "
                          "Standard challenge (4 or 6 cards)",
}

# Standard rule numbers (the ``sub`` of StandardState.r) and the Cutthroat rule each
# becomes; where Cutthroat plays as Standard the STD rule is cited.
_RULES: Final[dict[str, str]] = {
    "2.1": "CT-1.3",
    "2.2": "CT-1.4",
    "3": "CT-2",
    "4": "CT-3.3",
    "5.1": "CT-3.1",
    "5.2": "CT-4.1",
    "5.3": "CT-4.1",
    "5.4": "CT-4.1",
    "5.5": "CT-4.4",
    "5.6": "CT-4.3",
    "6.4": "STD-6.4",
    "7.1": "CT-8.1",
    "7.2": "CT-8.2",
    "7.3": "CT-8.3",
    "8.1": "CT-6.1",
    "8.4": "CT-6.3",
    "9.1": "CT-7.1",
    "9.2": "CT-7.3",
    "9.3": "CT-7.1",
    "9.4": "CT-7.1",
    "12.1": "CT-4.2",
    "12.4": "CT-3.3",
}


class CutthroatState(StandardState[CutthroatOptions]):
    """A game of Cutthroat Uno: one hand, won by the first player out."""

    rule_prefix = "CT"

    def __init__(self, variant: Variant[CutthroatOptions], opts: CutthroatOptions,
                 players: int, seed: int, deal_scheme: int = DEAL_SCHEME) -> None:
        super().__init__(variant, opts, players, seed, deal_scheme)
        self._keep = opts.draw_until_match_then == "keep"

    def r(self, sub: str) -> str:
        """The Cutthroat rule that replaces Standard rule ``sub`` (see ``_RULES``)."""
        return _RULES.get(sub) or f"STD-{sub}"

    def _reshuffle_rule(self) -> str:
        return "CT-7.4"

    # ------------------------------------------------------------------ first card

    def start_hand(self) -> None:
        """The first card turned up and its effect (CT-2), after the deal."""
        if not self.draw_pile:
            raise PositionError("bad_position", "the draw pile is empty: no first card to turn")
        self._first_card()

    def _first_card(self) -> None:
        """CT-2: the first card turned up; nothing is redrawn."""
        rule = "CT-2"
        top = self.draw_pile.pop()
        self.discard.append(top)
        self.emit("up_card", -1, rule, (top,))
        d = self.dealer
        nxt = self.next_seat
        self.color = FACE_COLOR[top]
        k = FACE_KIND[top]
        first = nxt(d)
        if top == WD4:
            # the player left of the dealer draws four; the dealer names any colour
            self.draw_cards(first, 4, rule)
            if self.opts.first_card_wd4_victim_loses_turn:
                self.emit("skip", first, rule)
            self.phase = CHOOSE_COLOR
            self.turn = d
            return
        if k == WILD:  # the player left of the dealer names any colour, then plays
            self.phase = CHOOSE_COLOR
            self.turn = first
            return
        if k == SKIP:
            self.emit("skip", first, rule)
            first = nxt(first)
        elif k == REVERSE:  # the dealer plays first, then play goes to his right
            self.direction = -self.direction
            self.emit("reverse", -1, rule)
            first = d
        elif k == DRAW_TWO:
            self.draw_cards(first, 2, rule)
            self.emit("skip", first, rule)
            first = nxt(first)
        self._next(first)

    # ------------------------------------------------------------------ legality

    def _turn_actions(self, seat: int) -> Sequence[Action]:
        if self.drew and self._keep:
            return [A.PASS_ACTION]  # CT-3.3: only a hand-made position gets here
        return super()._turn_actions(seat)

    def _response_actions(self, seat: int) -> list[Action]:
        """CT-5.2: the victim of a Wild Draw Four may question it (or challenge it)."""
        if self.pot_top == WD4:
            mode = self.opts.wd4_challenge
            if mode == "question":
                return [A.QUESTION_ACTION, A.ACCEPT_ACTION]
            if mode == "official":
                return [A.CHALLENGE_ACTION, A.ACCEPT_ACTION]
        return [A.ACCEPT_ACTION]

    # ------------------------------------------------------------------ apply

    def _apply(self, seat: int, action: Action) -> None:
        k = action.kind
        if k == A.COLOR and self.discard[-1] == WD4:
            # CT-2: the dealer has named the colour of a first-card Wild Draw Four
            self.color = action.color
            self.emit("color", seat, "CT-2", color=action.color)
            victim = self.next_seat(seat)
            lose = self.opts.first_card_wd4_victim_loses_turn
            self._next(self.next_seat(victim) if lose else victim)
            return
        super()._apply(seat, action)
        if (k == A.DRAW and self._keep and self.drew and self.turn == seat
                and self.phase == TURN):
            # CT-3.3 "shucks": the matching card stays in the hand and play moves on
            self.emit("pass", seat, "CT-3.3")
            self._next(self.next_seat(seat))

    def _question(self, v: int) -> None:  # a turn action of the victim (StandardState._apply)
        """CT-5.2: the legality of the Wild Draw Four is announced; the victim still draws."""
        w = self.wd4_player
        self.emit("question", v, "CT-5.2", n=1 if self.wd4_legal else 0, target=w)
        self.draw_cards(v, self.pot, "CT-4.3")
        self.pot = 0
        self._victim_skipped(v, "5.6")  # CT-4.3; with two players CT-8.3
        self._next(self.next_seat(v))

    # ------------------------------------------------------------------ the end

    def _hand_over(self, winner: int, end: str = "out") -> None:
        """CT-7.1: the first player out wins the game (with his team, CT-9.3)."""
        self.hand_winner = winner
        self.uno_open = []
        self.emit("hand_end", winner, "CT-7.1")
        team = self.team_of(winner)
        if len(team) > 1:
            self.emit("team_win", winner, "CT-9.3", target=team[0] if team[1] == winner
                      else team[1])
        # the player who went out first, then his partner: the standings' order too
        self.winners = [winner, *[t for t in team if t != winner]]
        self.last_hand = HandResult(hand=self.hand_no, end=end,
                                    rule="CT-7.1" if end == "out" else "STD-0.4",
                                    winners=tuple(self.winners),
                                    out_order=tuple(self.out_order))
        self.phase = GAME_OVER
        self.drew = False
        self.drawn = -1
        for w in self.winners:
            self.emit("game_end", w, "CT-7.1")

    def _stop_game(self) -> None:
        """``max_turns`` reached: the game stops and nobody wins (there are no scores)."""
        self.emit("hand_end", NOBODY, "CT-7.1")
        self.last_hand = HandResult(hand=self.hand_no, end="max_turns", rule="CT-7.1",
                                    winners=(), out_order=tuple(self.out_order))
        self.winners = []
        self.phase = GAME_OVER
        self.drew = False
        self.drawn = -1

    def game_end(self) -> tuple[str, str]:
        """The game is its one hand (CT-7.1): it ended as the hand did."""
        last = self.last_hand
        return (last.end, last.rule) if last is not None else ("out", "CT-7.1")

    def game_extras(self) -> dict[str, Any]:
        """No team totals: Cutthroat does not score."""
        return {}
