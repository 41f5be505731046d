"""The options and presets of Uno Throwdown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from hotdeath.options import OptionValue, option, reduce_options

# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class ThrowdownOptions:
    """The Throwdown column of the option registry (uno-variants §4).

    Options marked "(fixed)" are declared with their one allowed value.
    """

    dealer_selection: str = option("given", "First dealer: the given seat (0 unless chosen; "
                                   "later games are dealt by the previous winner), or the "
                                   "highest number drawn deals", "TD-1.3",
                                   ("given", "draw_high"),
        title="Who deals first",
        sentence="Who deals the first game (later games: the previous winner).",
        group="deal",
        labels={
            "given": "The host's chosen seat",
            "draw_high": "Everyone draws a card; the highest number deals",
        },
    )
    max_players: int = option(10, "Most players allowed at the table", "TD-1.2", (2, 10),
        title="Most players",
        sentence="The most players this game allows at one table.",
        group="table",
    )
    decks: int = option(2, "Number of 108-card decks shuffled together", "TD-1.1", (1, 2),
        title="Decks",
        sentence="How many 108-card decks are shuffled together.",
        group="table",
    )
    initial_direction: int = option(0, "Direction of play: 0 the dealer chooses it after the "
                                    "deal (a 'direction' action), 1 clockwise, -1 "
                                    "counter-clockwise", "TD-1.5", (0, 1, -1), choice=True,
        title="Direction of play",
        sentence="Which way play goes.",
        group="deal",
        labels={
            0: "The dealer chooses after the deal",
            1: "Clockwise",
            -1: "Counter-clockwise",
        },
    )
    wild_color_must_change: bool = option(False, "A Wild must name a colour other than the "
                                          "current one", "TD-2.8",
        title="A Wild changes the colour",
        sentence="A Wild must name a colour other than the current one.",
        group="cards",
    )
    wd4_color_must_change: bool = option(False, "A Wild Draw Four must name a colour other "
                                         "than the current one", "TD-2.8",
        title="A Wild Draw Four changes the colour",
        sentence="A Wild Draw Four must name a colour other than the current one.",
        group="cards",
    )
    voluntary_draw: bool = option(False, "A player may draw (or take the pot) while able to "
                                  "play (or defend)", "TD-3.1",
        title="Draw while able to play",
        sentence="A player may draw, or take the pot, while able to play or defend.",
        group="play",
    )
    two_player_reverse_as_skip: bool = option(False, "With two players left, each Reverse in "
                                              "regular play also acts as a Skip", "TD-3.4",
        title="Two-player Reverse",
        sentence="With two players left, every Reverse also works as a Skip.",
        group="play",
    )
    uno_catch_penalty: int = option(4, "Cards drawn when caught without an Uno call",
                                    "TD-5.4", (0, 10),
        title="Caught without Uno",
        sentence="Cards a player draws when caught without calling Uno.",
        group="uno",
    )
    false_uno_call_penalty: int = option(2, "Cards the caller draws for an erroneous Uno call "
                                         "or catch (0: such calls are refused)", "TD-5.5",
                                         (0, 10),
        title="Wrong Uno call or catch",
        sentence="Cards the caller draws for a wrong Uno call or catch (0: such a call is "
            "refused).",
        group="uno",
    )
    uno_force_draw: int = option(2, "Cards an opponent named in one's own Uno call draws "
                                 "(0: no forced draw)", "TD-5.2", (0, 10),
        title="Uno makes someone draw",
        sentence="Cards an opponent you name in your own Uno call draws (0: nobody draws).",
        group="uno",
    )
    uno_force_window: str = option("same_turn", "When the forced draw may be named: until "
                                   "another player discards, or also on the holder's later "
                                   "turns", "TD-5.2", ("same_turn", "any_own_turn"),
        title="When to name who draws",
        sentence="How long after calling Uno you may name the opponent who draws.",
        group="uno",
        labels={
            "same_turn": "Until someone else discards",
            "any_own_turn": "Also on your later turns",
        },
    )
    scoring: str = option("none", "No scoring: a winner and a loser (fixed)", "TD-6.3",
                          ("none",),
        title="Scoring",
        sentence="Nobody scores points: there is a winner and a loser.",
        group="score",
        labels={
            "none": "No points",
        },
    )
    rounds: int = option(1, "A match is one game (fixed)", "TD-6.2", (1,), choice=True,
        title="Games in a match",
        sentence="A match is one game.",
        group="score",
    )
    multi_play_same_color: bool = option(True, "A play may hold the same card twice (e.g. two "
                                         "red 7s); off: every card of a play differs",
                                         "TD-2.7",
        title="The same card twice",
        sentence="One throw may hold the same card twice, such as two red 7s.",
        group="play",
    )
    top_three_pair_equivalence: bool = option(False, "A top 3 that ended a threes-unit counts "
                                              "as 33 for the next play", "TD-2.4",
        title="A top 3 counts as 33",
        sentence="A 3 on top that ended a throw of threes counts as 33 for the next throw.",
        group="play",
    )
    regular_wd4_restriction: str = option("no_other_move", "Wild Draw Four in regular play: "
                                          "only without a non-wild play, only without a card "
                                          "of the current colour, or always",
                                          "TD-2.8",
                                          ("no_other_move", "no_current_color", "none"),
        title="When a Wild Draw Four may be played",
        sentence="When a Wild Draw Four may be played outside a defence.",
        group="cards",
        labels={
            "no_other_move": "Only without any other play",
            "no_current_color": "Only without a card of the current colour",
            "none": "Always",
        },
    )
    throwdown_match: str = option("color_or_kind", "First card of a defence: current colour "
                                  "or the top card's kind, or any Throwdown card", "TD-4.4",
                                  ("color_or_kind", "kind_free"),
        title="Starting a defence",
        sentence="What the first card of a defence must match.",
        group="cards",
        labels={
            "color_or_kind": "The current colour or the top card's kind",
            "kind_free": "Any defence card",
        },
    )
    level2_mix_draw_family: bool = option(True, "At level 2, 2s, 5s and Draw Twos may share a "
                                          "defence", "TD-4.5",
        title="Mixing at level 2",
        sentence="At level 2, 2s, 5s and Draw Twos may defend together.",
        group="cards",
    )
    level4_draw_rule: str = option("even", "At level 4 the 2-valued cards come in an even "
                                   "number, or at least two", "TD-4.6",
                                   ("even", "at_least_two"),
        title="Twos at level 4",
        sentence="How many 2-valued cards a level 4 defence holds.",
        group="cards",
        labels={
            "even": "An even number",
            "at_least_two": "At least two",
        },
    )
    level4_mix_fours: bool = option(True, "At level 4, 4s may share a defence with 2-valued "
                                    "cards", "TD-4.6",
        title="Fours at level 4",
        sentence="At level 4, 4s may defend together with 2-valued cards.",
        group="cards",
    )
    pot_drawer_loses_turn: bool = option(True, "The player who draws the pot also loses the "
                                         "turn", "TD-4.8",
        title="Taking the pot loses the turn",
        sentence="The player who draws the pot also loses the turn.",
        group="cards",
    )
    play_on_after_first_out: bool = option(True, "Play on after the first player goes out, "
                                           "until one player holds cards (the loser)",
                                           "TD-6.3",
        title="Play on to a loser",
        sentence="After the first player goes out the others play on until one still holds cards: "
            "the loser.",
        group="score",
    )
    extended_play: bool = option(True, "Players who went out may be called back in by an Uno "
                                 "forced draw", "TD-6.4",
        title="Calling players back",
        sentence="Players who went out may be called back in by an Uno forced draw.",
        group="score",
    )
    callback_decline: str = option("winner_only", "Who may refuse to be called back: the "
                                   "winner only, or any player who went out", "TD-6.4",
                                   ("winner_only", "any_out_player"),
        title="Refusing a call-back",
        sentence="Who may refuse to be called back into the game.",
        group="score",
        labels={
            "winner_only": "Only the winner",
            "any_out_player": "Anyone who went out",
        },
    )
    max_turns: int = option(0, "Stop the game, with no loser, after this many turn actions "
                            "(0: no limit)", "TD-6.4", (0, 1000000),
        title="Turn limit",
        sentence="The game stops, with no loser, after this many turns (0: no limit).",
        group="table",
    )
    shortfall: str = option("forgive", "Cards owed when both piles are empty are forgiven",
                            "TD-3.2", ("forgive",),
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
    "seed_004": {},
    "one_deck": {"decks": 1},
}
PRESET_WORDS: Final = {
    "seed_004": (
        "Throwdown as written",
        "Two decks, the dealer picks the direction, and the game goes on until one player "
        "is left holding cards.",
    ),
    "one_deck": (
        "Throwdown with one deck",
        "The same rules with a single 108-card deck.",
    ),
}
"""Each preset for people: a name they understand and one plain sentence."""

PRESET_DESCRIPTIONS: Final = {
    "seed_004": "The Throwdown house rules as read by the rules contract: two decks, the "
                "dealer picks the direction, play on with call-backs",
    "one_deck": "The same rules with a single 108-card deck",
}
