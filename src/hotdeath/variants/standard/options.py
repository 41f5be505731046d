"""The options and presets of standard Uno (the option registry, uno-variants §4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from hotdeath.options import OptionValue, option, reduce_options


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

    def __reduce__(self) -> tuple[Any, tuple[type[Any], dict[str, OptionValue]]]:
        """Pickled as its option values (:func:`~hotdeath.options.reduce_options`)."""
        return reduce_options(self)


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
