"""The options and presets of Hot Death (HD-3.12)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from hotdeath.options import OptionValue, option, reduce_options


@dataclass(frozen=True, slots=True)
class HotDeathOptions:
    """Every option of rules HD-3.12 (defaults = the canonical ruleset)."""

    deck: str = option("single_108", "Which deck: the 108-card Hot Death deck or the two-deck "
                       "216-card game", "HD-1.3", ("single_108", "double_216"),
        title="Deck",
        sentence="Which deck the game is played with.",
        group="table",
        labels={
            "single_108": "The 108-card Hot Death deck",
            "double_216": "Two decks, 216 cards",
        },
    )
    min_deal: int = option(5, "Smallest hand size the dealer may choose", "HD-3.2", (1, 30),
        title="Smallest deal",
        sentence="The fewest cards each the dealer may deal.",
        group="deal",
    )
    max_deal: int = option(15, "Largest hand size the dealer may choose", "HD-3.2", (1, 30),
        title="Largest deal",
        sentence="The most cards each the dealer may deal.",
        group="deal",
    )
    first_player: str = option("left_of_dealer", "Who plays first: the player to the dealer's "
                               "left, or the dealer", "HD-3.2", ("left_of_dealer", "dealer"),
        title="Who plays first",
        sentence="Who plays the first card of a hand.",
        group="deal",
        labels={
            "left_of_dealer": "The player to the dealer's left",
            "dealer": "The dealer",
        },
    )
    up_card_rule: str = option("dealer_takes_attacks", "The first card turned up: the dealer "
                               "takes its attacks, or its effects are ignored", "HD-3.3",
                               ("dealer_takes_attacks", "ignore"),
        title="The first card turned up",
        sentence="What an attack card turned up at the start does.",
        group="deal",
        labels={
            "dealer_takes_attacks": "The dealer takes its attack",
            "ignore": "Its effect is ignored",
        },
    )
    after_draw_play: str = option("drawn_card_only", "After a turn draw: only the drawn card may "
                                  "be played, or any legal card", "HD-3.4",
                                  ("drawn_card_only", "any_legal_card"),
        title="Playing after a draw",
        sentence="Which card may be played after drawing on one's turn.",
        group="play",
        labels={
            "drawn_card_only": "Only the card just drawn",
            "any_legal_card": "Any playable card",
        },
    )
    draw_rule: str = option("draw_one", "A turn draw takes one card, or draws until a playable "
                            "card turns up", "HD-3.4", ("draw_one", "draw_until_playable"),
        title="How many cards a draw takes",
        sentence="A turn draw takes one card, or keeps drawing until a playable card turns up.",
        group="play",
        labels={
            "draw_one": "One card",
            "draw_until_playable": "Until a playable card turns up",
        },
    )
    uno_rule: str = option("catch", "Uno must be called and can be caught, or there is no Uno "
                           "call", "HD-3.11", ("catch", "off"),
        title="Calling Uno",
        sentence="Whether a player must call Uno and can be caught.",
        group="uno",
        labels={
            "catch": "Call it or be caught",
            "off": "No Uno call",
        },
    )
    uno_penalty_cards: int = option(2, "Cards drawn when caught without an Uno call",
                                    "HD-3.11", (0, 10),
        title="Caught without Uno",
        sentence="Cards a player draws when caught without calling Uno.",
        group="uno",
    )
    draw_two_defensible: bool = option(True, "Retaliation, Holy Defender and Virus answer a "
                                       "Draw Two", "HD-2.3.6",
        title="Defending a Draw Two",
        sentence="Retaliation, Holy Defender and Virus can answer a Draw Two.",
        group="cards",
    )
    stack_draw_twos: bool = option(False, "A Draw Two victim may stack a Draw Two or Spreader",
                                   "HD-2.3.6",
        title="Stacking Draw Twos",
        sentence="A Draw Two victim may pass it on with a Draw Two or a Spreader.",
        group="cards",
    )
    stack_after_deflection: bool = option(False, "Stacking is still allowed after a Holy "
                                          "Defender or Retaliation", "HD-4.3.1",
        title="Stacking after a deflection",
        sentence="Stacking is still allowed after a Holy Defender or Retaliation.",
        group="cards",
    )
    magic5_effect: str = option("cancel_all", "Magic Red 5 cancels the whole stacked draw, or "
                                "only the Hot Death's 8", "HD-2.3.10",
                                ("cancel_all", "cancel_hot_death_only"),
        title="What the Magic Red 5 cancels",
        sentence="How much of a stacked draw the Magic Red 5 cancels.",
        group="cards",
        labels={
            "cancel_all": "The whole draw",
            "cancel_hot_death_only": "Only the Hot Death's 8 cards",
        },
    )
    magic5_requires_hot_death_on_top: bool = option(False, "Magic Red 5 answers only when the "
                                                    "Hot Death is the discard top",
                                                    "HD-2.3.10",
        title="Magic Red 5 needs the Hot Death",
        sentence="The Magic Red 5 answers only when the Hot Death is on top of the pile.",
        group="cards",
    )
    mystery_defensible: bool = option(True, "Retaliation, Holy Defender and Virus answer a "
                                      "Mystery Draw", "HD-2.3.13",
        title="Defending a Mystery Draw",
        sentence="Retaliation, Holy Defender and Virus can answer a Mystery Draw.",
        group="cards",
    )
    virus_odd_split: str = option("sender_extra", "Who takes the odd card when a Virus splits "
                                  "an odd draw", "HD-2.3.21",
                                  ("sender_extra", "both_round_up", "victim_extra"),
        title="Virus and an odd draw",
        sentence="Who takes the odd card when a Virus splits an odd number of cards.",
        group="cards",
        labels={
            "sender_extra": "The sender",
            "both_round_up": "Both round up",
            "victim_extra": "The victim",
        },
    )
    redirect_sender: str = option("last_redirector", "Whom Retaliation and Virus hit after a "
                                  "redirect: the last redirector or the original attacker",
                                  "HD-4.3", ("last_redirector", "original_attacker"),
        title="Whom a redirect hits",
        sentence="Whom Retaliation and Virus hit after an attack was redirected.",
        group="cards",
        labels={
            "last_redirector": "The last player who redirected it",
            "original_attacker": "The player who started the attack",
        },
    )
    irish_scope: str = option("all_punishment_draws", "Which draws Luck o' the Irish reduces",
                              "HD-2.3.17", ("all_punishment_draws", "attack_draws_only"),
        title="Luck o' the Irish",
        sentence="Which draws Luck o' the Irish makes smaller.",
        group="cards",
        labels={
            "all_punishment_draws": "Every penalty draw",
            "attack_draws_only": "Only attack draws",
        },
    )
    sixty_nine_proof: str = option("challenge", "How a 6-on-9 / 9-on-6 play with the 69 is "
                                   "proved: challenge, shown at once, or not at all",
                                   "HD-3.11.1", ("challenge", "reveal_on_use", "none"),
        title="Proving the 69",
        sentence="How a 6 on a 9 (or a 9 on a 6) played with the 69 is proved.",
        group="cards",
        labels={
            "challenge": "Others may challenge it",
            "reveal_on_use": "It is shown at once",
            "none": "It is not proved",
        },
    )
    sixty_nine_challenge_penalty: int = option(2, "Cards a failed 69 challenger draws",
                                               "HD-3.11.1", (0, 10),
        title="A failed 69 challenge",
        sentence="Cards a player draws after challenging a 69 play wrongly.",
        group="cards",
    )
    shitter_last_card_needs_match: bool = option(False, "Big Brother as the last card must "
                                                 "match colour or number", "HD-2.3.24",
        title="Big Brother as the last card",
        sentence="Big Brother played as one's last card must match the colour or number.",
        group="cards",
    )
    glasnost_response: str = option("victim_any_seat", "Who may answer a Glasnost: the victim "
                                    "wherever he sits, or only the next player", "HD-4.6",
                                    ("victim_any_seat", "next_player_only"),
        title="Answering a Glasnost",
        sentence="Who may answer a Glasnost.",
        group="cards",
        labels={
            "victim_any_seat": "Its victim, wherever they sit",
            "next_player_only": "Only the next player",
        },
    )
    quitter_with_two_active: str = option("no_effect", "The Quitter with two active players: no "
                                          "effect, or its player wins the hand", "HD-2.3.15",
                                          ("no_effect", "player_wins"),
        title="The Quitter with two players",
        sentence="What the Quitter does when only two players are left.",
        group="cards",
        labels={
            "no_effect": "Nothing",
            "player_wins": "Its player wins the hand",
        },
    )
    mad_min_active_players: int = option(4, "Active players needed for M.A.D. to take effect",
                                         "HD-2.3.16", (2, 10),
        title="Players for M.A.D.",
        sentence="How many players must still be in for M.A.D. to work.",
        group="cards",
    )
    delayed_blast_min_active_for_skip: int = option(3, "Active players needed for the "
                                                    "Delayed Blast's skip (at least 3: the "
                                                    "skip never brings the attack back onto "
                                                    "its own player)", "HD-2.3.11", (3, 10),
        title="Players for the Delayed Blast skip",
        sentence="How many players must still be in for the Delayed Blast to skip (at least 3).",
        group="cards",
    )
    all_bastards_effect: str = option("hand_ends_zero", "Holding all four bastard cards ends "
                                      "the hand (scoring 0) or wins the game", "HD-3.7.1",
                                      ("hand_ends_zero", "wins_game"),
        title="All four bastard cards",
        sentence="What holding all four bastard cards does.",
        group="score",
        labels={
            "hand_ends_zero": "The hand ends and scores 0",
            "wins_game": "Its holder wins the game",
        },
    )
    combo_1000_cards: str = option("quitter_fuck_you", "Cards of the 1000 combination",
                                   "HD-3.7.3", ("quitter_fuck_you", "quitter_fuck_you_shitter"),
        title="The 1000 combination",
        sentence="Which cards make the 1000 combination.",
        group="score",
        labels={
            "quitter_fuck_you": "The Quitter and Retaliation",
            "quitter_fuck_you_shitter": "The Quitter, Retaliation and Big Brother",
        },
    )
    combo_1000_scoring: str = option("exact", "How the 1000 combination scores", "HD-3.7.3",
                                     ("exact", "pair_worth_1000", "app"),
        title="Scoring the 1000 combination",
        sentence="How the 1000 combination is scored.",
        group="score",
        labels={
            "exact": "Exactly 1000",
            "pair_worth_1000": "The pair is worth 1000",
            "app": "As the Android app counts it",
        },
    )
    sixty_nine_modifiers: bool = option(True, "Magic Red 5, Retaliation and Holy Defender "
                                        "modify the 69's hand value", "HD-2.3.20",
        title="The 69 and the modifiers",
        sentence="Magic Red 5, Retaliation and Holy Defender change the 69's hand value.",
        group="score",
    )
    mystery_number_mode: str = option("printed", "Which number the Mystery Draw's value uses",
                                      "HD-2.3.13", ("printed", "app", "points_000"),
        title="The Mystery Draw's value",
        sentence="Which number the Mystery Draw is worth.",
        group="score",
        labels={
            "printed": "The printed number",
            "app": "As the Android app counts it",
            "points_000": "The points of the original fan page",
        },
    )
    blue_shield_floor_zero: bool = option(False, "The Blue Shield's value is never below 0",
                                          "HD-2.3.19",
        title="Blue Shield never below 0",
        sentence="The Blue Shield's value never goes below 0.",
        group="score",
    )
    halving_rounding: str = option("up", "How the Holy Defender rounds a halved score",
                                   "HD-2.3.22", ("up", "down"),
        title="Rounding a halved score",
        sentence="How the Holy Defender rounds a score it halves.",
        group="score",
        labels={
            "up": "Up",
            "down": "Down",
        },
    )
    spreader_value: str = option("per_opponent", "Spreader value: 20 per opponent, or a fixed "
                                 "60", "HD-2.3.7", ("per_opponent", "fixed_60"),
        title="The Spreader's value",
        sentence="What the Spreader is worth in a hand.",
        group="score",
        labels={
            "per_opponent": "20 for each opponent",
            "fixed_60": "Always 60",
        },
    )
    mad_points: int = option(100, "Points of a M.A.D. left in hand", "HD-1.4", (0, 1000),
        title="M.A.D. points",
        sentence="Points of a M.A.D. left in a hand.",
        group="score",
    )
    plain_wild_points: int = option(50, "Points of a plain Wild (two-deck game)", "HD-1.4",
                                    (0, 1000),
        title="Plain Wild points",
        sentence="Points of a plain Wild left in a hand (two-deck game).",
        group="score",
    )
    game_end_score: int = option(1000, "The game ends when a total reaches this",
                                 "HD-3.8", (1, 100000),
        title="Points to end the game",
        sentence="The game ends when a total reaches this many points.",
        group="score",
    )
    tie_break: str = option("shared", "Equal lowest totals: a shared win, or the first seat",
                            "HD-3.8", ("shared", "seat_order"),
        title="Equal lowest totals",
        sentence="Who wins when the lowest totals are equal.",
        group="score",
        labels={
            "shared": "They share the win",
            "seat_order": "The first of them by seat",
        },
    )

    def __reduce__(self) -> tuple[Any, tuple[type[Any], dict[str, OptionValue]]]:
        """Pickled as its option values (:func:`~hotdeath.options.reduce_options`)."""
        return reduce_options(self)


PRESETS: Final[dict[str, dict[str, Any]]] = {
    "canonical": {},
    "source_000": {
        "first_player": "dealer", "draw_two_defensible": False, "mystery_defensible": False,
        "stack_after_deflection": True, "quitter_with_two_active": "player_wins",
        "mad_min_active_players": 2, "mad_points": 75, "plain_wild_points": 40,
        "sixty_nine_proof": "reveal_on_use", "combo_1000_scoring": "pair_worth_1000",
        "mystery_number_mode": "points_000", "blue_shield_floor_zero": False,
        "magic5_requires_hot_death_on_top": True,
    },
    "app_compat": {
        "up_card_rule": "ignore", "after_draw_play": "any_legal_card", "uno_rule": "off",
        "draw_two_defensible": False, "irish_scope": "attack_draws_only",
        "virus_odd_split": "both_round_up", "magic5_requires_hot_death_on_top": True,
        "glasnost_response": "next_player_only", "sixty_nine_proof": "none",
        "combo_1000_scoring": "app", "mystery_number_mode": "app",
        "blue_shield_floor_zero": True, "spreader_value": "fixed_60", "tie_break": "seat_order",
    },
    "homepage_001": {
        "draw_rule": "draw_until_playable", "draw_two_defensible": False,
        "stack_draw_twos": True, "all_bastards_effect": "wins_game",
        "sixty_nine_proof": "challenge", "combo_1000_cards": "quitter_fuck_you",
    },
}
PRESET_WORDS: Final = {
    "canonical": (
        "Hot Death as we play it",
        "The project's reading of the Hot Death rules, with every gap filled and "
        "explained in the rulebook.",
    ),
    "source_000": (
        "The original fan page (000)",
        "The rules as the first Hot Death fan page reads them.",
    ),
    "app_compat": (
        "As the Android app plays",
        "The rule choices of the Hot Death Android app (without its bugs).",
    ),
    "homepage_001": (
        "The Hot Death Uno Homepage (001)",
        "Where the Hot Death Uno Homepage reads the rules differently.",
    ),
}
"""Each preset for people: a name they understand and one plain sentence."""

PRESET_DESCRIPTIONS: Final = {
    "canonical": "The project's ruling: source 002 where it speaks, gaps filled from 001, "
                 "000 and the app",
    "source_000": "The readings of the fan page (seed 000)",
    "app_compat": "The Android app's rule choices (its bugs excluded); the app seats four "
                  "players, the preset plays at any table size",
    "homepage_001": "The readings where the Hot Death Uno Homepage (seed 001) differs",
}
