"""The rulebook: every rule of the four games, in plain words, with a stable id.

This is a pure data module.  The engine cites rules by id (``HD-2.3.10``, ``STD-6.4``,
``CT-3.3``, ``TD-4.6``); the ids follow the section numbers of the rules contract
(``hot-death.md`` for Hot Death, ``uno-variants.md`` for the other three games), and
``scripts/gen_rulebook.py`` renders the rules as Markdown under ``docs/rules/``.

Card names follow the family theme (Retaliation, Big Brother, Virus); each card's own rule
mentions its original name once.

>>> get_rule("HD-2.3.10").title
'Hot Death'
>>> [rule.id for rule in rules_for("standard")][:3]
['STD-0.4', 'STD-0.5', 'STD-1.1']
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = [
    "AUDITS",
    "GAMES",
    "RULES",
    "RULE_ID_PATTERN",
    "SECTIONS",
    "SOURCE_TAGS",
    "Audit",
    "Rule",
    "Section",
    "audits_for",
    "get_rule",
    "rules_for",
    "section_of",
]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the rulebook.

    Attributes:
        id: Stable id, e.g. ``"HD-2.3.10"``; the number is the contract's section number.
        game: ``"hotdeath"``, ``"standard"``, ``"cutthroat"`` or ``"throwdown"``.
        title: Short title, e.g. ``"Hot Death"``.
        text: The rule in plain words (one paragraph).
        sources: Where the rule comes from (keys of :data:`SOURCE_TAGS`).
        options: Names of the engine options that change this rule.

    """

    id: str
    game: str
    title: str
    text: str
    sources: tuple[str, ...]
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Section:
    """A section heading of the rules contract that groups rules in the documents.

    Attributes:
        game: The game the section belongs to.
        prefix: Id prefix of the section's rules (``"HD-2.3"`` holds ``"HD-2.3.1"`` etc.).
        title: The heading, numbered as in the contract.

    """

    game: str
    prefix: str
    title: str

    def contains(self, rule_id: str) -> bool:
        """Whether the rule with this id belongs to the section."""
        return rule_id == self.prefix or rule_id.startswith(self.prefix + ".")


@dataclass(frozen=True, slots=True)
class Audit:
    """An audit of one game's engine against its rules contract, rendered after its rules.

    Attributes:
        game: The game audited.
        date: The day of the audit (ISO 8601).
        summary: What was checked, in a sentence or two.
        findings: One entry per divergence fixed or ruling made, each citing its rules.

    """

    game: str
    date: str
    summary: str
    findings: tuple[str, ...]


RULE_ID_PATTERN: Final = re.compile(r"^(HD|STD|CT|TD)-[0-9]+(\.[0-9]+)*(\.T[0-9])?$")
"""Every rule id matches this pattern."""

GAMES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "hotdeath": "Hot Death Uno",
        "standard": "Standard Uno",
        "cutthroat": "Cutthroat Uno",
        "throwdown": "Uno Throwdown",
    }
)
"""The games, in document order, with their display names."""

_PREFIX_GAME: Final[Mapping[str, str]] = MappingProxyType(
    {"HD": "hotdeath", "STD": "standard", "CT": "cutthroat", "TD": "throwdown"}
)

SOURCE_TAGS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "seed 000": "the fan page “Hot Death Uno … What is it?” (seeds/000)",
        "seed 001": "the “Hot Death Uno Homepage” (seeds/001)",
        "seed 002": "the page “About HOT DEATH” (seeds/002)",
        "seed 003": "the “Cutthroat Uno” rules sheet (seeds/003)",
        "seed 004": "the “Uno Throwdown” official house rules (seeds/004)",
        "app": "the Android Hot Death Uno app (jpriebe/hotdeath), used for facts only",
        "official": "the official Mattel Uno rules and statements",
        "ruling": "no source settles the point; this is the project's ruling",
    }
)
"""Every source tag a rule may cite, with what it stands for."""

S000: Final = "seed 000"
S001: Final = "seed 001"
S002: Final = "seed 002"
S003: Final = "seed 003"
S004: Final = "seed 004"
APP: Final = "app"
OFFICIAL: Final = "official"
RULING: Final = "ruling"

SECTIONS: Final[tuple[Section, ...]] = (
    Section("hotdeath", "HD-1", "1. Deck composition"),
    Section("hotdeath", "HD-2.3", "2.3 Card by card"),
    Section("hotdeath", "HD-3", "3. The canonical ruleset"),
    Section("hotdeath", "HD-4", "4. Attacks and how they are answered"),
    Section("standard", "STD-0", "0. Shared model (all three Uno games)"),
    Section("standard", "STD-1", "1. Components, players, objective"),
    Section("standard", "STD-2", "2. Dealer and deal"),
    Section("standard", "STD-3", "3. The first card"),
    Section("standard", "STD-4", "4. A turn"),
    Section("standard", "STD-5", "5. Card effects"),
    Section("standard", "STD-6", "6. Wild Draw Four legality and the challenge"),
    Section("standard", "STD-7", "7. Two-player rules"),
    Section("standard", "STD-8", "8. Calling Uno"),
    Section("standard", "STD-9", "9. Going out, scoring, end of game"),
    Section("standard", "STD-10", "10. Reshuffling and illegal actions"),
    Section("standard", "STD-11", "11. Partners"),
    Section("standard", "STD-12", "12. Popular house rules"),
    Section("cutthroat", "CT-1", "1. Components, players, dealer, deal"),
    Section("cutthroat", "CT-2", "2. The first card"),
    Section("cutthroat", "CT-3", "3. A turn"),
    Section("cutthroat", "CT-4", "4. Card effects"),
    Section("cutthroat", "CT-5", "5. The illegal Wild Draw Four"),
    Section("cutthroat", "CT-6", "6. Calling Uno"),
    Section("cutthroat", "CT-7", "7. Going out: one hand, no scoring"),
    Section("cutthroat", "CT-8", "8. Two players"),
    Section("cutthroat", "CT-9", "9. Partners and larger tables"),
    Section("throwdown", "TD-1", "1. Setup"),
    Section("throwdown", "TD-2", "2. Regular play: which plays are legal"),
    Section("throwdown", "TD-3", "3. Regular play: a turn and its effects"),
    Section("throwdown", "TD-4", "4. The Throwdown (the draw pot)"),
    Section("throwdown", "TD-5", "5. Calling Uno"),
    Section("throwdown", "TD-6", "6. Going out, end of game, extended play, leaving"),
)
"""The contract's section headings, in document order, used to group the rules."""


def _r(
    rule_id: str,
    title: str,
    text: str,
    sources: tuple[str, ...],
    options: tuple[str, ...] = (),
) -> Rule:
    """Build a rule; the game follows from the id, the text is whitespace-normalised."""
    game = _PREFIX_GAME[rule_id.split("-", 1)[0]]
    return Rule(rule_id, game, title, " ".join(text.split()), sources, options)


# =========================================================================== Hot Death

_HOTDEATH: Final[tuple[Rule, ...]] = (
    # ----------------------------------------------------------------- 1. Deck
    _r(
        "HD-1.1",
        "The ordinary Uno deck",
        """
        Hot Death is built by altering an ordinary 108-card Uno deck. That deck holds, in
        each of red, green, blue and yellow, a single 0, two copies of each number from 1 to
        9, and two each of Skip, Reverse and Draw Two, 25 cards per colour; four plain Wilds
        and four Wild Draw Fours complete it.
        """,
        (S003, APP),
    ),
    _r(
        "HD-1.2",
        "The single Hot Death deck (108 cards)",
        """
        The normal game uses 108 cards laid out as in the Android app, the only source that
        says which ordinary card each special card replaces. The four 0s are the bastard
        cards: red Holy Defender, green Quitter, blue Retaliation and yellow Big Brother, so
        there is no plain 0. From the pairs of numbers, one card each is replaced: yellow 1
        by M.A.D., red 2 by Glasnost, blue 2 by the Blue Shield, green 3 by the Virus, green
        4 by Luck o' the Irish, red 5 by the Magic Red 5 and yellow 6 by the 69. In every
        colour one of the two Draw Twos is a Spreader, one Skip a Double Skip and one Reverse
        a Reverse Skip; the four Wild Draw Fours stay, and the four plain Wilds become Hot
        Death, Delayed Blast, Harvester of Sorrows and Mystery Draw, so there is no plain
        Wild either. That gives 65 plain number cards (1–9 only), 11 special number cards,
        4 each of Draw Two, Spreader, Skip, Double Skip, Reverse and Reverse Skip, 4 Wild
        Draw Fours and 4 special wilds, and every named special card exists exactly once.
        The fan page hints that home-made decks also had plain Wilds but gives no count, so
        this layout is the default (option `deck`).
        """,
        (S000, S001, S002, APP),
        ("deck",),
    ),
    _r(
        "HD-1.3",
        "The two-deck game (216 cards)",
        """
        With `deck` set to `double_216` a second ordinary deck joins the Hot Death deck,
        itself altered so that in each colour one Draw Two, one Skip and one Reverse become
        a Spreader, a Double Skip and a Reverse Skip. Its 0s, numbers and four plain Wilds
        stay plain, so this game does have plain 0s and plain Wilds, while the named special
        cards are still unique. In all there are 4 plain 0s, 137 plain 1–9s, 11 special
        number cards, 8 each of Draw Two, Spreader, Skip, Double Skip, Reverse and Reverse
        Skip, 4 plain Wilds, 8 Wild Draw Fours and the 4 special wilds: 216 cards. No
        written source describes this game; it is the app's "Two decks" setting.
        """,
        (APP,),
        ("deck", "plain_wild_points"),
    ),
    _r(
        "HD-1.4",
        "Card point values",
        """
        Each card left in a hand at hand end is worth: a plain number its face value; Skip,
        Reverse and Draw Two 20; Double Skip and Reverse Skip 40; a Spreader 20 for each
        other player dealt into the hand; a plain Wild (two-deck game only) 50; Wild Draw
        Four 50; Hot Death and Delayed Blast 100; Harvester of Sorrows 0; Glasnost 75;
        Quitter 100; M.A.D. 100; Luck o' the Irish 75; Magic Red 5 −5; Virus 3, plus the
        infection penalty. A Mystery Draw is worth ten times the highest number in its
        owner's hand (10 if there is none), and the Blue Shield copies the highest value
        among his other cards. The 69, Retaliation, Holy Defender and Big Brother have no
        value of their own: the 69 makes the hand worth 69, Retaliation doubles the hand,
        the Holy Defender halves it and Big Brother takes the highest hand total at the
        table. Holding the Quitter and Retaliation together makes the hand worth 1000. The
        sources differ on a few values (the fan page has M.A.D. at 75 and a plain Wild at
        40; the app always counts a Spreader as 60); the card rules and HD-3.7.2 give the
        exact calculation.
        """,
        (S000, S001, S002, APP),
        (
            "spreader_value",
            "plain_wild_points",
            "mad_points",
            "mystery_number_mode",
            "blue_shield_floor_zero",
            "sixty_nine_modifiers",
            "halving_rounding",
            "combo_1000_cards",
            "combo_1000_scoring",
        ),
    ),
    # ----------------------------------------------------------------- 2.3 Cards
    _r(
        "HD-2.3.1",
        "Plain number cards",
        """
        Plain number cards carry a number in one of the four colours; in the single deck they
        run from 1 to 9 only, because every 0 is a bastard card. With no attack pending one may
        be played on a card of the same colour or the same number, and a player holding the 69
        may also put a 6 of any colour on a 9 of any colour, or a 9 on a 6 (HD-2.3.20). They
        have no effect when played and score their face value.
        """,
        (S000, S002, APP),
    ),
    _r(
        "HD-2.3.2",
        "Skip",
        """
        A Skip may be played on the current colour, on another Skip or on a Double Skip, but
        not on a Reverse Skip. The next active player loses his turn and the active player
        after him plays. With only two active players the player who laid it plays again.
        Nothing can answer a Skip, and it scores 20.
        """,
        (S000, S002, APP),
    ),
    _r(
        "HD-2.3.3",
        "Double Skip",
        """
        A Double Skip may be played on the current colour, on a Skip or on another Double
        Skip. The next two active players lose their turns. When only two or three players
        are active, skipping the others brings the turn straight back to the player who
        laid it, so he plays again. Nothing can answer it, and it scores 40. The fan page's
        card text says it skips one person, an evident slip: every other statement,
        including that page's own two-player notes, says two.
        """,
        (S000, S001, S002, APP),
    ),
    _r(
        "HD-2.3.4",
        "Reverse",
        """
        A Reverse may be played on the current colour, on another Reverse or on a Reverse
        Skip. It turns the direction of play around, and the next active player in the new
        direction plays. With two active players it works as a Skip: the player who laid it
        plays again. Nothing can answer it, and it scores 20.
        """,
        (S000, S002, APP),
    ),
    _r(
        "HD-2.3.5",
        "Reverse Skip",
        """
        A Reverse Skip may be played on the current colour, on a Reverse or on another
        Reverse Skip, but not on a Skip or Double Skip. It first turns the direction around
        and then skips the next active player in the new direction. With four players P0 to
        P3 going clockwise, P0's Reverse Skip makes play counter-clockwise, P3 is skipped and
        P2 plays; with three players P2 is skipped and P1 plays; with two, P0 plays again.
        Nothing can answer it, and it scores 40.
        """,
        (S000, S001, S002, APP),
    ),
    _r(
        "HD-2.3.6",
        "Draw Two",
        """
        A Draw Two may be played on the current colour, on another Draw Two or on a
        Spreader. It attacks the next active player, who must draw two cards and then loses
        his turn. By default, as on the About page, the victim may answer with Retaliation,
        the Holy Defender or the Virus (`draw_two_defensible`); the fan page and the app
        treat it as a tame card that nothing answers. Stacking a Draw Two or a Spreader on
        it is the homepage's optional house rule, off by default (`stack_draw_twos`), and a
        Spreader stacked that way only adds two like a Draw Two. A holder of Luck o' the
        Irish draws one card fewer unless `irish_scope` limits the Luck to draw-wild and
        Mystery Draw attacks. It scores 20.
        """,
        (S000, S001, S002, APP),
        ("draw_two_defensible", "stack_draw_twos", "stack_after_deflection", "irish_scope"),
    ),
    _r(
        "HD-2.3.7",
        "Spreader",
        """
        A Spreader may be played on the current colour, on a Draw Two or on another Spreader.
        Every other active player draws two cards, one after another in turn order starting with
        the next player; ejected players draw nothing. Whoever holds the Blue Shield is covered
        automatically: the Shield becomes known to all, the Spreader's player draws that
        player's two cards instead, and the Shield holder takes the next turn; with no Shield
        involved the Spreader's player gets a fresh turn, in which he may play or draw. Nothing
        else answers a Spreader, nothing can be stacked on it (it only joins a stack as a plain
        +2 under the Draw Two stacking house rule), and it works the same with two active
        players. By default Luck o' the Irish takes one card off each of these draws
        (`irish_scope`). At hand end it scores 20 for each other player dealt into the hand,
        ejected or not; the app always scores it 60 (`spreader_value`).
        """,
        (S000, S001, S002, APP, RULING),
        ("spreader_value", "irish_scope", "stack_draw_twos"),
    ),
    _r(
        "HD-2.3.8",
        "Wild",
        """
        Plain Wilds exist only in the two-deck game. A Wild can be laid at any moment, whatever
        the colour and whatever else its player holds, and its player names the colour to
        follow; it has no other effect. It scores 50 by default; the fan page valued it at 40
        (`plain_wild_points`).
        """,
        (S000, APP),
        ("deck", "plain_wild_points"),
    ),
    _r(
        "HD-2.3.9",
        "Wild Draw Four",
        """
        A Wild Draw Four may be played at any time, even by a player who holds the current
        colour: the ordinary Uno restriction does not apply in Hot Death. Its player names a
        colour, and the next active player must draw four cards and lose his turn. The
        victim may instead stack another draw-wild (Wild Draw Four, Hot Death, Delayed Blast
        or Harvester of Sorrows) or answer with Retaliation, the Holy Defender or the Virus
        (HD-4.3). It scores 50.
        """,
        (S000, S001, S002, APP),
    ),
    _r(
        "HD-2.3.10",
        "Hot Death",
        """
        Hot Death, the card the game is named after, is a wild that makes the next active
        player draw eight cards and lose his turn; its player names a colour. It stacks and
        is answered exactly like a Wild Draw Four, and in addition the Magic Red 5 wipes it
        out. When the most recent draw card added to a pending attack is a Hot Death, the
        victim may play the Magic Red 5 and the whole accumulated draw is cancelled,
        including the cards stacked before the Hot Death, even if a Holy Defender has since
        passed it on or Retaliation has turned it back (HD-4.3.5). Option `magic5_effect`
        can limit the cancellation to the Hot Death's own eight cards, and
        `magic5_requires_hot_death_on_top` requires the Hot Death to be the card directly
        underneath the Magic Red 5. The app labels the card a Draw Four although it draws
        eight. It scores 100.
        """,
        (S000, S001, S002, APP, RULING),
        ("magic5_effect", "magic5_requires_hot_death_on_top"),
    ),
    _r(
        "HD-2.3.11",
        "Delayed Blast",
        """
        Delayed Blast is a wild draw-four that first skips somebody: with three or more
        active players the next active player loses his turn and the one after him faces a
        four-card attack, while with two active players it is an ordinary Wild Draw Four on
        the opponent (`delayed_blast_min_active_for_skip`, which cannot be set below 3: with
        two active players the skip would bring the attack back onto the Delayed Blast's own
        player). It skips in the same way when it
        is stacked, and it stacks and is answered like a Wild Draw Four. If its victim
        answers with Retaliation, the attack goes straight back to the Delayed Blast's
        player even though a seat lies between them, and the skipped player still gets no
        turn out of it. It scores 100.
        """,
        (S000, S001, S002, APP),
        ("delayed_blast_min_active_for_skip",),
    ),
    _r(
        "HD-2.3.12",
        "Harvester of Sorrows",
        """
        Harvester of Sorrows is a wild draw-four: its player names a colour, and it may be
        played on a normal turn or stacked on any pending draw-wild attack. Once it is the
        latest card of an attack, the attack is locked: nothing can be stacked on it and no
        Retaliation, Holy Defender, Virus or Magic Red 5 may answer it, so the victim must
        draw everything accumulated and lose his turn. Luck o' the Irish still takes one
        card off, because it is not a defence. It scores 0.
        """,
        (S000, S001, S002, APP),
    ),
    _r(
        "HD-2.3.13",
        "Mystery Draw",
        """
        Mystery Draw is a wild whose draw depends on the card it covers, the top of the
        discard pile when it is played; its player names a colour. If that card carries a
        number of 1 or more, the next active player faces an attack of that many cards and
        loses his turn, and on the 69 the draw is 69. Special number cards count by their
        printed number (Magic Red 5 as 5, Glasnost and Blue Shield as 2, Virus as 3, Luck o'
        the Irish as 4, M.A.D. as 1); on a 0, which means on a bastard card, or on a card
        without a number it is just a plain Wild: nobody draws and nobody is skipped. It can
        never be stacked, nothing can be stacked on it, and it is never played as an answer
        to an attack. By default its victim may answer with Retaliation, the Holy Defender
        or the Virus (`mystery_defensible`); the fan page gives it no defence. At hand end it
        is worth ten times the highest printed number in its owner's hand, or 10 if that
        number is 0 or there is none (Magic Red 5 counting 5, Blue Shield 2; the rules do not
        settle whether a held 69 counts here), and `mystery_number_mode` selects the app's
        count (plain 1–9 plus Glasnost, Virus, Luck o' the Irish and M.A.D.) or the fan
        page's point-based count (a Magic Red 5 making it −50).
        """,
        (S000, S001, S002, APP),
        ("mystery_defensible", "mystery_number_mode", "irish_scope"),
    ),
    _r(
        "HD-2.3.14",
        "Glasnost",
        """
        Glasnost, the red 2, is played like a red 2. Its player picks any other active
        player, who must lay his whole current hand face up; those cards stay public while
        he keeps them, but cards he draws later stay hidden. The victim may answer with the
        Holy Defender (the reveal passes to the next active player in the current
        direction), Retaliation (the Glasnost's player is revealed instead and the direction
        turns) or the Virus (both hands are revealed). By default the victim may answer at
        once even if he is not the next player, and HD-4.6 says how the turn then continues;
        in the app only the next player can answer (`glasnost_response`). It scores 75.
        """,
        (S000, S001, S002, APP, RULING),
        ("glasnost_response",),
    ),
    _r(
        "HD-2.3.15",
        "Quitter",
        """
        The Quitter, the green 0 and a bastard card, is played like a green 0 and ejects the
        next active player from the hand (HD-3.9). It needs at least three active players;
        with two it does nothing by default, whereas under the fan page's two-player rule
        its player wins the hand outright (`quitter_with_two_active`, HD-3.10). The victim
        may answer with Retaliation (the Quitter's player is ejected instead and the
        direction turns), the Holy Defender (the next active player after the defender
        becomes the victim) or the Virus (the victim and the sender are both ejected). If a
        Virus answer leaves only one active player, the hand ends and that player wins it
        with 0 points. It scores 100, and held together with Retaliation at hand end it
        makes the 1000 combination (HD-3.7.3).
        """,
        (S000, S001, S002, APP),
        ("quitter_with_two_active", "combo_1000_cards", "combo_1000_scoring"),
    ),
    _r(
        "HD-2.3.16",
        "M.A.D.",
        """
        M.A.D. (Mutually Assured Destruction), the yellow 1, is played like a yellow 1. Its
        player ejects himself and one other active player of his choice, and nothing can
        answer it. By default it only works while at least four players are active
        (`mad_min_active_players`); with fewer it is played for no effect. The fan page sets
        no minimum, and in its two-player game a M.A.D. eliminates both players, leaving the
        hand without a winner. It scores 100 (75 on the fan page, `mad_points`).
        """,
        (S000, S001, S002, APP),
        ("mad_min_active_players", "mad_points"),
    ),
    _r(
        "HD-2.3.17",
        "Luck o' the Irish",
        """
        Luck o' the Irish, the green 4, is played like a green 4, but it does its work while
        kept: its owner draws one card fewer on every punishment draw, never below zero.
        Punishment draws are the forced ones: Draw Two and draw-wild attacks, a Mystery
        Draw, each Spreader draw (including the Spreader player's extra two for a Blue
        Shield), each Virus share, and the penalties for a missed Uno call and a failed 69
        challenge. The one card a player draws on his own turn is never reduced. The card
        need not be shown or played to work, and it becomes public knowledge the first time
        it saves a card. With `irish_scope` set to `attack_draws_only` (the app) it only
        reduces draw-wild and Mystery Draw attacks, including Virus shares of them. It
        scores 75.
        """,
        (S000, S001, S002, APP),
        ("irish_scope",),
    ),
    _r(
        "HD-2.3.18",
        "Magic Red 5",
        """
        The Magic Red 5 can go on top of any card at all, regardless of colour or number, and it
        turns the colour to red. On a normal turn it has no effect. As an answer it counters
        only a Hot Death attack, which it cancels (HD-4.3.5); it is no defence against anything
        else. It scores −5, counts as a 5 for a Mystery Draw and as −5 for the Blue Shield, and
        Big Brother may be played on it.
        """,
        (S000, S001, S002, APP),
        ("magic5_effect", "magic5_requires_hot_death_on_top"),
    ),
    _r(
        "HD-2.3.19",
        "Blue Shield",
        """
        The Blue Shield, the blue 2 (the fan page's “Penn State 2”), is played like a blue
        2, and while held it protects its owner against Spreaders and nothing else
        (HD-2.3.7); the protection is automatic and makes the card public. At hand end it is
        worth as much as the highest-valued other card in its owner's hand, with Spreaders
        and a Mystery Draw at their computed values, Big Brother and the Harvester at 0 and
        the Magic Red 5 at −5; Retaliation, the Holy Defender and the 69 have no value of
        their own and do not count. With no other valued card it is worth 0, and it can be
        negative, which is how the fan page's lowest possible hand of −120 comes about. The
        app never lets it fall below 0 and ignores the Magic Red 5
        (`blue_shield_floor_zero`).
        """,
        (S000, S001, S002, APP, RULING),
        ("blue_shield_floor_zero",),
    ),
    _r(
        "HD-2.3.20",
        "69",
        """
        The 69 is a yellow card that may be played on any yellow card, any 6 or any 9, and any 6
        or 9 may be played on it. While he holds it, its owner may lay a 6 on a 9, or a 9 on a
        6, in any colours; another player may challenge such a play (HD-3.11.1). At hand end the
        holder's hand is worth 69, then 5 less if he also holds the Magic Red 5, doubled by
        Retaliation and halved by the Holy Defender; Big Brother still overrides it, and any
        Virus penalty is added on top. With `sixty_nine_modifiers` off, the strict reading of
        the About page, the hand is simply 69. The 1000 combination beats it (HD-3.7.3), and a
        Mystery Draw played on it makes the victim draw 69 cards.
        """,
        (S000, S001, S002, APP, RULING),
        ("sixty_nine_proof", "sixty_nine_challenge_penalty", "sixty_nine_modifiers"),
    ),
    _r(
        "HD-2.3.21",
        "Virus",
        """
        The Virus (originally called “AIDS”), the green 3, is played like a green 3 on a
        normal turn, or at any time as an answer to an attack it can answer (HD-4.3.4). It
        makes the attack's sender share the victim's fate: a draw is split between the two,
        an ejection ejects both, a reveal reveals both. On an odd count the sender draws the
        larger half by default (7 becomes 4 for the sender and 3 for the Virus player),
        whereas in the app both draw the rounded-up half (`virus_odd_split`). After a Holy
        Defender or Retaliation, the sender is whoever last passed the attack on
        (`redirect_sender`). The Virus ends the attack, so nothing can be stacked on it. It
        scores 3, and a player caught holding it at hand end is infected (HD-3.7.4).
        """,
        (S000, S001, S002, APP, RULING),
        ("virus_odd_split", "redirect_sender", "irish_scope"),
    ),
    _r(
        "HD-2.3.22",
        "Holy Defender",
        """
        The Holy Defender, the red 0 and a bastard card, is played like a red 0 on a normal
        turn, or as an answer to any attack that can be answered: the attack passes to the
        next active player after the defender in the current direction, and the defender
        himself is passed over (HD-4.3.3). With two active players it hands the attack
        straight back to the sender. By default nothing may be stacked on an attack once a
        Holy Defender has been played on it (`stack_after_deflection`). Big Brother may be
        played on it. At hand end it halves its holder's score, rounding up
        (`halving_rounding`), which is bad news for a negative score.
        """,
        (S000, S001, S002, APP),
        ("stack_after_deflection", "halving_rounding"),
    ),
    _r(
        "HD-2.3.23",
        "Retaliation",
        """
        Retaliation (originally called “Fuck You”), the blue 0 and a bastard card, is played
        like a blue 0 on a normal turn, or as an answer that sends an attack back to the
        player who sent it and turns the direction of play around (HD-4.3.2). Against a
        Quitter the Quitter's player is ejected, against a Glasnost the Glasnost's player is
        revealed, and against a Delayed Blast the attack returns to its player although a
        seat lies between them. By default nothing may be stacked on an attack after a
        Retaliation (`stack_after_deflection`). At hand end it doubles its holder's score,
        but held together with the Quitter the hand is worth 1000 instead (HD-3.7.3).
        """,
        (S000, S001, S002, APP),
        ("redirect_sender", "stack_after_deflection", "combo_1000_cards", "combo_1000_scoring"),
    ),
    _r(
        "HD-2.3.24",
        "Big Brother",
        """
        Big Brother (originally called “Shitter”), the yellow 0 and a bastard card, can only be
        played in three situations: on top of the Holy Defender, on top of the Magic Red 5, or
        when it is the only card left in its player's hand. In those situations it needs no
        colour or number match (with `shitter_last_card_needs_match` on, the last-card play
        needs an ordinary match); otherwise it cannot be played at all, and it never answers an
        attack. It counts 0 at hand end, but once every hand has been valued its holder's hand
        takes the highest value at the table, counting every player dealt in, ejected players,
        the winner's 0 and his own included. So if his own hand is already the highest it
        changes nothing. Virus penalties play no part in the comparison.
        """,
        (S000, S001, S002, APP, RULING),
        ("shitter_last_card_needs_match",),
    ),
    # ----------------------------------------------------------------- 3. Ruleset
    _r(
        "HD-3.1",
        "Players and deck",
        """
        Hot Death is played by 2 to 10 players (the About page suggests 3 to 5, and the app
        always seats 4). A deal is refused if the deck cannot supply it: the number of
        players times the hand size, plus one card to turn up, may not exceed the deck, which
        has 108 cards, or 216 in the two-deck game.
        """,
        (S000, S002, APP, RULING),
        ("deck",),
    ),
    _r(
        "HD-3.2",
        "Dealing, dealer and first player",
        """
        The first dealer is chosen at random, and afterwards the winner of each hand deals the
        next. The dealer decides how many cards each player gets, anything from 5 to 15
        (`min_deal`, `max_deal`), and deals them one at a time starting with the player on his
        left; the next card is turned face up to start the discard pile (HD-3.3). Play starts
        clockwise with the player on the dealer's left, or with the dealer himself under
        `first_player` = `dealer` (the fan page). If a hand ends without a winner, the player
        who scored least in it deals next, ties being settled at random. When the draw pile runs
        out, the discards below the top card are shuffled and become the new draw pile; if a
        forced draw still cannot be completed because no cards are left anywhere, the rest of it
        is forgiven.
        """,
        (S000, S001, S002, APP, RULING),
        ("min_deal", "max_deal", "first_player"),
    ),
    _r(
        "HD-3.3",
        "The up-card",
        """
        By default (`up_card_rule` = `dealer_takes_attacks`) the card turned up after the deal
        counts as played by nobody against the dealer; it is settled first, and the first normal
        turn then goes to the next active player after the dealer in the resulting direction. A
        Draw Two, Wild Draw Four, Hot Death, Delayed Blast (which skips nobody here) or
        Harvester is a draw attack on the dealer, and a Quitter an ejection attack on him if at
        least three players are active; he answers like any victim, so a stack or a Holy
        Defender passes it to the next player, who then loses his turn as its victim,
        Retaliation cancels it (there is no sender) but still turns the direction, a Virus
        leaves him only his own share while the other share goes to nobody, and a Magic Red 5
        cancels a Hot Death. A Spreader up-card is a two-card attack on the dealer alone that
        only the Blue Shield answers, so nobody else draws. For a Glasnost the dealer picks the
        victim, who may answer (Retaliation cancels it and turns the direction, a Virus reveals
        only the victim), and for a M.A.D. the dealer picks one player, who alone is ejected if
        enough players are active. For a wild up-card the dealer names the colour; a Mystery
        Draw has nothing under it and is a plain Wild, and numbers, Skips, Reverses and the
        passive special cards do nothing. When the dealer starts play (`first_player` =
        `dealer`), answering an up-card attack counts as his first turn, and if the up-card
        attacks nobody he just opens play. With `up_card_rule` = `ignore` (the app) further
        cards are turned onto a wild up-card until a non-wild shows, and no up-card has any
        effect.
        """,
        (S000, APP, RULING),
        ("up_card_rule", "first_player", "mad_min_active_players", "virus_odd_split"),
    ),
    _r(
        "HD-3.4",
        "A normal turn",
        """
        With no attack pending, the player whose turn it is must either play one legal card
        (HD-3.5) or draw one card, and he may draw even while holding a playable card. After
        drawing he may play the card he just drew if it is legal, or pass; he may not draw a
        second card, and he may not pass without having drawn. This turn draw is not a
        punishment, so Luck o' the Irish does not reduce it. Someone under attack cannot draw
        for his turn; his only choices are to answer the attack or to accept it (HD-4.3). With
        `after_draw_play` = `any_legal_card` (the app) any legal card may be played after the
        draw, and with `draw_rule` = `draw_until_playable` (one reading of the homepage) the
        player keeps drawing until he has a playable card. When the draw leaves him nothing he
        may play, his turn ends at once (there is no choice left to make).
        """,
        (S000, S001, S002, APP),
        ("after_draw_play", "draw_rule"),
    ),
    _r(
        "HD-3.5",
        "Which cards may be played",
        """
        With no attack pending a card may be played when any one of these holds: it is a wild;
        it is the Magic Red 5; it has the current colour (the named colour after a wild,
        otherwise the top card's colour); it shows the same number as the top card, special
        number cards counting by their printed number and the 69 counting as both 6 and 9; it is
        the same action as the top card or from the same family (Skip with Double Skip, Reverse
        with Reverse Skip, Draw Two with Spreader, but never Skip with Reverse Skip); it is the
        69 played on a 6 or a 9; or its player holds the 69 and lays a 6 on a 9 (or a 9 on a 6).
        Big Brother is the exception to all of this: it is legal only in its three situations
        (HD-2.3.24). Nothing matches a wild by number, so after a wild only the named colour,
        another wild, the Magic Red 5 or Big Brother (as a last card) can follow. A special
        number card with no effect of its own (Holy Defender, Retaliation, Virus, Luck o' the
        Irish, Blue Shield, 69, or a Magic Red 5 not answering a Hot Death) is played as an
        ordinary coloured number card. Apart from answers to an attack, nobody plays out of
        turn.
        """,
        (S000, S001, S002, APP, RULING),
        ("shitter_last_card_needs_match",),
    ),
    _r(
        "HD-3.6",
        "What plays do",
        """
        Skip, Double Skip, Reverse and Reverse Skip only change who plays next, and nobody
        can answer them; the Spreader and M.A.D. also take effect at once (HD-4.4). Draw
        Two, Wild Draw Four, Hot Death, Delayed Blast, Harvester of Sorrows, a Mystery Draw
        on a number, the Quitter and Glasnost create an attack that its victim may answer
        (HD-4.2, HD-4.3). Special number cards without an effect of their own, and a plain
        Wild, only change the colour or number in play.
        """,
        (S002, APP),
    ),
    _r(
        "HD-3.7",
        "End of hand and scoring",
        """
        After every completed action that leaves no attack, colour choice or victim choice
        open, the hand-end checks run (HD-3.7.1). When the hand ends, every player's hand is
        valued (HD-3.7.2), and that value plus any infection penalty (HD-3.7.4) is added to
        his running total; the winner of the hand adds 0. Ejected players are valued like
        everyone else. The winner of the hand deals the next one. Points are bad: the game
        ends once someone reaches 1000, and the lowest total wins (HD-3.8).
        """,
        (S000, S001, S002, APP),
    ),
    _r(
        "HD-3.7.1",
        "Hand-end checks",
        """
        The checks run in this order. First, if one player has collected all four bastard cards
        (the Quitter, Big Brother, Retaliation and the Holy Defender), the hand ends and he is
        its winner with 0 points: he deals next, pays no Virus penalty and is not newly
        infected; if another player emptied his hand at the same moment, that player wins the
        hand and the bastard holder still scores 0, and with `all_bastards_effect` = `wins_game`
        (the homepage) the bastard holder wins the whole game. Second, if exactly one active
        player is left, the hand ends and he wins it with 0 points whatever he holds. Third, if
        no active player is left (possible only under the fan page's two-player options), the
        hand ends without a winner. Fourth, if a player has no cards, the hand ends, and of the
        players whose hands are still empty the one who emptied his first wins. Because the
        checks wait until no attack is pending, a player who goes out on an attack card has not
        won until the attack is settled, and Retaliation or a Virus can still give him cards.
        Our ruling for a blocked hand: when every active player in turn has been unable to
        play and the draw came up empty (all other cards are in hands), no card can move
        again, so the hand ends without a winner and everyone scores his hand.
        """,
        (S000, S001, S002, APP, RULING),
        ("all_bastards_effect", "quitter_with_two_active", "mad_min_active_players"),
    ),
    _r(
        "HD-3.7.2",
        "Hand value",
        """
        The winner of the hand scores 0, whatever he holds, and so does a holder of all four
        bastard cards who lost the hand to a player going out at the same moment. By default any
        other hand holding the 1000 combination is worth 1000 and goes straight to the Big
        Brother step (HD-3.7.3). Otherwise add up the valued cards, which are all cards except
        Retaliation, the Holy Defender and the 69, at the values of HD-1.4, working out
        Spreaders and a Mystery Draw before the Blue Shield. If the 69 is held, that total is
        replaced by 69, minus 5 if the Magic Red 5 is also held. Then Retaliation doubles the
        value and the Holy Defender halves it, rounding up. When every player's value is known,
        a Big Brother holder's value becomes the highest value at the table (HD-2.3.24).
        Infection penalties are added after all of this and are never doubled, halved or
        compared (HD-3.7.4).
        """,
        (S000, S001, S002, APP, RULING),
        (
            "spreader_value",
            "mystery_number_mode",
            "blue_shield_floor_zero",
            "sixty_nine_modifiers",
            "halving_rounding",
            "combo_1000_cards",
            "combo_1000_scoring",
            "mad_points",
            "plain_wild_points",
        ),
    ),
    _r(
        "HD-3.7.3",
        "The 1000 combination",
        """
        A hand still holding the Quitter and Retaliation at hand end is worth exactly 1000,
        whatever else it contains: Retaliation does not double it, the Holy Defender does not
        halve it, the Magic Red 5 does not reduce it and the 69 does not replace it; only Big
        Brother can still change it, and only upwards. Option `combo_1000_cards` can require
        Big Brother as a third card, the version in the homepage's Retaliation text and in
        the app before version 1.0.2. With `combo_1000_scoring` = `pair_worth_1000` (the fan
        page) the pair counts 1000 and the rest of the hand is added (the 69 still setting
        the rest to 69, the Magic Red 5 still −5), with no doubling but with the Holy
        Defender halving the total. With `app`, the other cards (apart from the Quitter,
        Retaliation and Big Brother) are added to 1000, a held 69 then resets the whole
        value to 69, the Magic Red 5 takes off 5 and the Holy Defender halves, but nothing
        doubles. A player holding all four bastard cards never gets this far, because his
        hand ends with 0 (HD-3.7.1).
        """,
        (S000, S001, S002, APP, RULING),
        ("combo_1000_cards", "combo_1000_scoring"),
    ),
    _r(
        "HD-3.7.4",
        "Infection",
        """
        A player other than the hand's winner who holds the Virus at hand end is infected
        once more, and infections last for the rest of the game. In every hand he does not
        win from then on, the hand of infection included, he adds 10 points per infection to
        his total on top of his hand value. This penalty is never doubled, halved or
        replaced by the 69, and it plays no part in Big Brother's comparison. The Virus card
        itself still counts 3 in the hand value.
        """,
        (S000, S001, S002, APP),
    ),
    _r(
        "HD-3.8",
        "End of the game",
        """
        After each hand is scored, the game ends if any player's total has reached 1000 or
        more (`game_end_score`). The player with the lowest total then wins; players tied
        for the lowest total share the win, or with `tie_break` = `seat_order` (the app)
        the first of them in seat order wins. Under `all_bastards_effect` = `wins_game` the
        game can also end earlier (HD-3.7.1).
        """,
        (S000, S001, S002, APP, RULING),
        ("game_end_score", "tie_break", "all_bastards_effect"),
    ),
    _r(
        "HD-3.9",
        "Ejection",
        """
        An ejected player puts his hand face down in front of him and keeps it; it is not
        shuffled back into the deck, and any of its cards that a Glasnost had made public are
        hidden again. For the rest of the hand he takes no turns, is passed over in turn order,
        draws nothing from Spreaders, cannot be picked as a Glasnost or M.A.D. victim and cannot
        catch a missed Uno call or challenge a 69 play. At hand end his cards are scored as
        usual. An ejection that would leave fewer than two players active does not happen, the
        card being played for nothing, which is why the Quitter needs three active players and,
        by default, M.A.D. four; the one exception is a Virus answer to a Quitter, after which a
        single remaining player wins the hand with 0 points, and the fan page's two-player
        options (HD-3.10) may also leave one player or none. Nobody comes back into a hand once
        ejected.
        """,
        (S000, S002, APP, RULING),
        ("mad_min_active_players", "quitter_with_two_active"),
    ),
    _r(
        "HD-3.10",
        "Two active players",
        """
        These rules apply whenever exactly two players are active, in a two-player game or
        after ejections. A Reverse, Double Skip or Reverse Skip works as a Skip, so its
        player plays again, and a Delayed Blast skips nobody. The Quitter and M.A.D. have no
        effect, while the Spreader and the Blue Shield work as usual. A Holy Defender hands
        an attack back to the only opponent without turning the direction, and Retaliation
        returns it (turning the direction changes nothing). Under the fan page's two-player
        rules (preset `source_000`) a Quitter wins the hand for its player unless the victim
        answers: a Virus eliminates both players, leaving the hand without a winner, while
        Retaliation or a Holy Defender turns it round so that the answering player wins. In
        that preset a M.A.D. also eliminates both players and the hand has no winner.
        """,
        (S000, S001, S002, APP, RULING),
        ("quitter_with_two_active", "mad_min_active_players", "delayed_blast_min_active_for_skip"),
    ),
    _r(
        "HD-3.11",
        "Calling Uno",
        """
        A player whose hand goes down to one card, by a normal play or by an answer to an
        attack, must call Uno. Until he does, any other active player may catch him, and the
        chance to catch him ends as soon as anybody plays or draws the next card. A player
        who is caught draws two cards (`uno_penalty_cards`), one fewer with Luck o' the
        Irish, and the turn order does not change. Calling Uno before being caught makes him
        safe, and a catch of a player who is not liable has no effect. With `uno_rule` =
        `off` (the app) there is no Uno call at all.
        """,
        (S000, S002, APP, RULING),
        ("uno_rule", "uno_penalty_cards", "irish_scope"),
    ),
    _r(
        "HD-3.11.1",
        "Challenging a 69 play",
        """
        When the 69's owner puts a 6 on a 9 (or a 9 on a 6) that only his 69 makes legal, any
        other active player may challenge the play before the next card is played or drawn.
        Since the engine lets only the real holder make such a play, the challenge always fails:
        the 69 becomes public and the challenger draws two cards
        (`sixty_nine_challenge_penalty`), a punishment draw that Luck o' the Irish reduces. With
        `sixty_nine_proof` = `reveal_on_use` (the fan page) the 69 is shown automatically at
        every such play instead, and with `none` (the About page and the app) no proof is
        involved. The sources never say what happens to a bluffer, so bluffing is not possible.
        """,
        (S000, S001, RULING),
        ("sixty_nine_proof", "sixty_nine_challenge_penalty", "irish_scope"),
    ),
    _r(
        "HD-3.11.2",
        "What becomes public",
        """
        A Glasnost victim's hand as it is when the reveal takes effect becomes public; each
        of those cards stays public while he holds it, his later draws stay hidden, and his
        hand is turned face down again if he is ejected. The Blue Shield becomes public when
        it protects against a Spreader, Luck o' the Irish the first time it reduces a draw,
        and the 69 when a challenge against its holder fails or, under `sixty_nine_proof` =
        `reveal_on_use`, whenever its privilege is used. Ejected players' hands are face
        down. Everything else in a player's hand stays hidden.
        """,
        (S000, S001, S002, APP, RULING),
        ("sixty_nine_proof", "glasnost_response"),
    ),
    _r(
        "HD-3.12",
        "Options",
        """
        Where the sources disagree or say nothing, these rules state the canonical choice,
        and each alternative is available as a named engine option whose default gives the
        canonical game. Every rule lists the options that change it. The options cover the
        deck and deal (`deck`, `min_deal`, `max_deal`, `first_player`, `up_card_rule`), the
        turn (`after_draw_play`, `draw_rule`, `uno_rule`, `uno_penalty_cards`), attacks and
        answers (`draw_two_defensible`, `stack_draw_twos`, `stack_after_deflection`,
        `magic5_effect`, `magic5_requires_hot_death_on_top`, `mystery_defensible`,
        `virus_odd_split`, `redirect_sender`, `irish_scope`, `glasnost_response`), the
        special cards (`sixty_nine_proof`, `sixty_nine_challenge_penalty`,
        `shitter_last_card_needs_match`, `quitter_with_two_active`,
        `mad_min_active_players`, `delayed_blast_min_active_for_skip`), and scoring and the
        end of the game (`all_bastards_effect`, `combo_1000_cards`, `combo_1000_scoring`,
        `sixty_nine_modifiers`, `mystery_number_mode`, `blue_shield_floor_zero`,
        `halving_rounding`, `spreader_value`, `mad_points`, `plain_wild_points`,
        `game_end_score`, `tie_break`).
        """,
        (RULING,),
        (
            "deck",
            "min_deal",
            "max_deal",
            "first_player",
            "up_card_rule",
            "after_draw_play",
            "draw_rule",
            "uno_rule",
            "uno_penalty_cards",
            "draw_two_defensible",
            "stack_draw_twos",
            "stack_after_deflection",
            "magic5_effect",
            "magic5_requires_hot_death_on_top",
            "mystery_defensible",
            "virus_odd_split",
            "redirect_sender",
            "irish_scope",
            "sixty_nine_proof",
            "sixty_nine_challenge_penalty",
            "shitter_last_card_needs_match",
            "glasnost_response",
            "quitter_with_two_active",
            "mad_min_active_players",
            "delayed_blast_min_active_for_skip",
            "all_bastards_effect",
            "combo_1000_cards",
            "combo_1000_scoring",
            "sixty_nine_modifiers",
            "mystery_number_mode",
            "blue_shield_floor_zero",
            "halving_rounding",
            "spreader_value",
            "mad_points",
            "plain_wild_points",
            "game_end_score",
            "tie_break",
        ),
    ),
    _r(
        "HD-3.13",
        "Presets",
        """
        Besides the canonical defaults (`canonical`) there are three ready-made option sets.
        `source_000` plays the fan page: the dealer starts, Draw Two and Mystery Draw cannot
        be answered, stacking is allowed after a deflection, a two-player Quitter wins and
        M.A.D. needs only two active players, M.A.D. scores 75 and a plain Wild 40, the 69
        is shown whenever its privilege is used, the Quitter and Retaliation pair counts
        1000 plus the rest of the hand, the Mystery Draw counts card points, the Blue Shield
        may go negative, and the Magic Red 5 must sit directly on the Hot Death.
        `homepage_001` plays the homepage: draw until playable, Draw Two unanswerable but
        stackable with Draw Twos and Spreaders, all four bastard cards win the game, a 69
        play may be challenged, and the two-card 1000 combination. `app_compat` plays the
        app's rules without its bugs: up-cards ignored, any legal card after a draw, no Uno
        call, Draw Two unanswerable, Luck o' the Irish only against draw-wild and Mystery
        Draw attacks, Virus halves rounded up, the Magic Red 5 only directly on the Hot
        Death, Glasnost answerable only by the next player, no 69 proof, the app's scoring
        of the 1000 combination, Mystery Draw and Blue Shield, Spreaders worth 60, and ties
        broken by seat. The app always seats four players, and its fixed 60 for a Spreader
        equals the other sources' 20 per opponent at that size; the player count is not an
        option, so the preset sets only these rules and plays at any table size from 2 to
        10, the Spreader still worth 60.
        """,
        (S000, S001, APP),
        (
            "first_player",
            "draw_two_defensible",
            "mystery_defensible",
            "stack_after_deflection",
            "quitter_with_two_active",
            "mad_min_active_players",
            "mad_points",
            "plain_wild_points",
            "sixty_nine_proof",
            "combo_1000_cards",
            "combo_1000_scoring",
            "mystery_number_mode",
            "blue_shield_floor_zero",
            "magic5_requires_hot_death_on_top",
            "draw_rule",
            "stack_draw_twos",
            "all_bastards_effect",
            "up_card_rule",
            "after_draw_play",
            "uno_rule",
            "irish_scope",
            "virus_odd_split",
            "glasnost_response",
            "spreader_value",
            "tie_break",
        ),
    ),
    # ----------------------------------------------------------------- 4. Attacks
    _r(
        "HD-4.1",
        "What an attack is",
        """
        An attack is a hostile effect waiting for its victim's answer: a draw (a number of
        cards), an ejection (the Quitter) or a reveal (Glasnost). It has a victim, the
        player who must answer now; a sender, the player who last sent it to the victim by
        playing, stacking or passing it on (nobody for an up-card); and an attacker, the
        player who last added to it. A draw attack also remembers its count, the latest
        draw card added to it (which decides whether a Magic Red 5 may answer), whether a
        Harvester has locked it, and whether a Holy Defender or Retaliation has been played
        on it. The Spreader and M.A.D. act at once and are not attacks.
        """,
        (S000, S001, S002, APP, RULING),
        ("redirect_sender",),
    ),
    _r(
        "HD-4.2",
        "Cards that create an attack",
        """
        A Draw Two makes a two-card draw attack on the next active player, a Wild Draw Four
        or Harvester a four-card one (locked for the Harvester, HD-2.3.12), a Hot Death an
        eight-card one, and a Mystery Draw played on a number n an n-card one. A Delayed
        Blast makes a four-card attack on the second active player after its player when
        three or more are active, the player in between losing his turn, and on the next
        player otherwise. A Quitter makes an ejection attack on the next active player if at
        least three are active, and a Glasnost a reveal attack on any other active player
        its player chooses. The player of the card is the attack's sender and attacker, the
        victim must answer it (HD-4.3) before anything else happens, and an up-card attack
        targets the dealer instead (HD-3.3).
        """,
        (S000, S001, S002, APP),
        ("delayed_blast_min_active_for_skip", "quitter_with_two_active"),
    ),
    _r(
        "HD-4.3",
        "Answering an attack",
        """
        While an attack is pending only its victim may make a move (Uno calls and 69 challenges
        aside), and he may not take a turn draw. He stacks a draw card (HD-4.3.1), plays
        Retaliation (HD-4.3.2), the Holy Defender (HD-4.3.3), the Virus (HD-4.3.4) or the Magic
        Red 5 (HD-4.3.5) where allowed, or accepts (HD-4.3.6). A draw-wild attack allows all of
        these, the Magic Red 5 only against a Hot Death, unless a Harvester has locked it; a
        Draw Two or Mystery Draw attack can be answered by Retaliation, the Holy Defender or the
        Virus only with `draw_two_defensible` or `mystery_defensible` on; a Quitter or Glasnost
        attack can be answered by Retaliation, the Holy Defender or the Virus. An answering card
        needs no colour or number match, but it goes on the discard pile and sets the colour:
        red for a Holy Defender or Magic Red 5, blue for Retaliation, green for the Virus, and
        the stacker's choice for a stacked wild. An answer may empty the player's hand or leave
        him one card, so going out and calling Uno apply to answers too.
        """,
        (S000, S001, S002, APP, RULING),
        (
            "draw_two_defensible",
            "mystery_defensible",
            "stack_draw_twos",
            "stack_after_deflection",
        ),
    ),
    _r(
        "HD-4.3.1",
        "Stacking",
        """
        The victim of a draw-wild attack may stack another Wild Draw Four, Hot Death,
        Delayed Blast or Harvester of Sorrows and name a colour: its cards (4, 8, 4 or 4)
        are added to the count, he becomes the sender and attacker, and the next active
        player becomes the victim, or for a Delayed Blast with three or more active the
        player after him. No stacking is possible once a Harvester has locked the attack,
        and by default none after a Holy Defender or Retaliation has been played on it
        (`stack_after_deflection`, which the fan page allows). A Mystery Draw is never
        stacked and nothing is stacked on one. Under the Draw Two stacking house rule
        (`stack_draw_twos`) the victim of a Draw Two may stack a Draw Two or a Spreader,
        each adding 2, with the same deflection restriction; draw-wilds and Draw Twos never
        stack on each other.
        """,
        (S000, S001, S002, APP, RULING),
        ("stack_after_deflection", "stack_draw_twos", "delayed_blast_min_active_for_skip"),
    ),
    _r(
        "HD-4.3.2",
        "Answering with Retaliation",
        """
        Retaliation turns the attack back on the player who sent it to the victim and turns
        the direction of play around, and the Retaliation's player becomes the new sender.
        After a Holy Defender the sender is the defender who passed the attack on, not the
        original attacker (`redirect_sender` = `original_attacker` targets the player who
        last added to it instead, unless that is the Retaliation's player himself, who then
        turns it on the player who sent it to him). If the new victim is not adjacent, the
        turn jumps straight to him and the players in between do not play. The new victim
        may answer in turn, though by default he may not stack. If the attack came from
        nobody (an up-card), Retaliation cancels it and play continues with the next active
        player after the Retaliation's player in the new direction.
        """,
        (S000, S001, S002, APP, RULING),
        ("redirect_sender", "stack_after_deflection"),
    ),
    _r(
        "HD-4.3.3",
        "Answering with the Holy Defender",
        """
        A Holy Defender passes the attack unchanged to the next active player after the
        defender in the current direction, and the defender becomes its sender. The
        direction does not change, and the new victim answers in turn. With two active
        players the new victim is the previous sender.
        """,
        (S000, S001, S002, APP),
        ("stack_after_deflection",),
    ),
    _r(
        "HD-4.3.4",
        "Answering with the Virus",
        """
        A Virus settles the attack at once by sharing it between the Virus player and the
        target, who is the attack's sender (with `redirect_sender` = `original_attacker`,
        the player who last added to it, unless that is the Virus player himself: then the
        sender). A draw is split: by default the target draws the
        larger half and the Virus player the smaller; `both_round_up` makes each draw half
        rounded up, and `victim_extra` gives the larger half to the Virus player; each share
        is then one card smaller for a holder of Luck o' the Irish. An ejection ejects both
        players, after which the hand-end checks run and a single remaining player wins
        with 0 points; a reveal reveals both hands. If the attack came from nobody (an
        up-card), only the Virus player suffers and the other share is dropped. The turn
        then passes to the next active player after the Virus player; for a reveal see
        HD-4.6.
        """,
        (S000, S001, S002, APP, RULING),
        ("virus_odd_split", "redirect_sender", "irish_scope"),
    ),
    _r(
        "HD-4.3.5",
        "Answering with the Magic Red 5",
        """
        The Magic Red 5 may answer a draw attack whose latest added draw card is a Hot
        Death, even if that Hot Death has since been passed on or turned back. By default it
        cancels the whole attack and nobody draws; with `magic5_effect` =
        `cancel_hot_death_only` only the Hot Death's eight cards are removed and the victim
        draws whatever remains. With `magic5_requires_hot_death_on_top` on it is allowed only
        while the Hot Death is the top card of the discard pile, as the fan page words it
        and as the app behaves. The turn then passes to the next active player after the
        Magic Red 5's player.
        """,
        (S000, S001, S002, APP, RULING),
        ("magic5_effect", "magic5_requires_hot_death_on_top"),
    ),
    _r(
        "HD-4.3.6",
        "Accepting an attack",
        """
        A victim who cannot or will not answer accepts the attack. For a draw he draws the
        count, one card fewer with Luck o' the Irish (never below zero), and loses his turn;
        for an ejection he is ejected; for a reveal his current hand is revealed. After a
        draw or an ejection the turn passes to the next active player after him; after a
        reveal see HD-4.6.
        """,
        (S000, S001, S002, APP),
        ("irish_scope",),
    ),
    _r(
        "HD-4.4",
        "Effects nobody can answer",
        """
        Some plays act at once and give nobody a chance to answer. Skip, Double Skip,
        Reverse and Reverse Skip work as in HD-2.3.2 to HD-2.3.5. A Spreader makes each
        other active player draw two in turn order from the next player, the Blue Shield
        holder's two going to the Spreader's player, and then the Blue Shield holder, or
        else the Spreader's player, takes a fresh turn. A M.A.D. with enough active players
        ejects its player and one chosen victim, and after the hand-end checks the turn
        passes to the next active player after the M.A.D.'s player. With too few active
        players a M.A.D. or Quitter does nothing and the turn passes on, except under the
        fan page's two-player Quitter rule (HD-3.10). Number cards, a plain Wild, a Magic
        Red 5 with no Hot Death pending and a Mystery Draw that draws nothing pass the turn
        to the next active player.
        """,
        (S000, S001, S002, APP, RULING),
        ("mad_min_active_players", "quitter_with_two_active", "irish_scope"),
    ),
    _r(
        "HD-4.5",
        "Turn order",
        """
        Rules HD-4.5.T1 to HD-4.5.T5 decide who acts next in every situation. Play starts
        clockwise, and “the next player” after a seat always means the next active player
        in the current direction, counted from that seat even if its player has been
        ejected.
        """,
        (S000, S002, APP, RULING),
    ),
    _r(
        "HD-4.5.T1",
        "After an ordinary play",
        """
        When a play creates no attack, the turn passes to the next active player after the
        one who played, once any skips and direction changes have been applied.
        """,
        (S000, S002, APP),
    ),
    _r(
        "HD-4.5.T2",
        "During an attack",
        """
        While a draw or ejection attack is pending the turn belongs to its current victim,
        and the players passed over take no turn. Seats are jumped over only when a Delayed
        Blast has skipped someone, or when Retaliation sends an attack back to a sender who
        is not adjacent. For example, with P0 to P3 clockwise, P0 plays a Delayed Blast
        (P1 is skipped) and P2 answers with Retaliation: play turns counter-clockwise, the
        turn jumps to P0, who faces the four cards, and if he accepts, P3 plays next.
        """,
        (S000, APP, RULING),
    ),
    _r(
        "HD-4.5.T3",
        "When an attack ends",
        """
        An accepted draw or ejection passes the turn to the next active player after the
        victim; after a Virus or a Magic Red 5 the turn passes to the next active player
        after the player who answered. The direction is whatever it has become, counting
        every Retaliation played on the attack.
        """,
        (S000, S002, APP, RULING),
    ),
    _r(
        "HD-4.5.T4",
        "Reveal attacks",
        """
        A Glasnost's reveal attack follows its own turn rule, HD-4.6.
        """,
        (RULING,),
        ("glasnost_response",),
    ),
    _r(
        "HD-4.5.T5",
        "Checks before the next turn",
        """
        Once an attack, or any other action, is complete, the hand-end checks (HD-3.7.1)
        run before anybody receives the next turn.
        """,
        (S002, APP),
    ),
    _r(
        "HD-4.6",
        "The Glasnost window",
        """
        No source says when a Glasnost victim who is not the next player may answer, so by
        default (`glasnost_response` = `victim_any_seat`) the chosen victim may answer at
        once wherever he sits, and so may each new victim the reveal is passed or turned to.
        An answer counts as its player's turn only if he is the next active player after
        the turn holder, who starts as the Glasnost's player and becomes each player whose
        answer counted as his turn; any other answer is out of turn and neither costs nor
        earns a turn. A Holy Defender passes the reveal to the next active player after the
        defender, Retaliation turns it on its sender and turns the direction, a Virus
        reveals both players, and accepting reveals the victim. Once the reveal is settled,
        the turn goes to the next active player after the turn holder in the current
        direction, so a Glasnost aimed across the table skips nobody. With
        `next_player_only` (the app) a victim who is not the next player is revealed at once
        without a chance to answer, and a victim who is the next player answers as his
        turn; for a Glasnost turned up as the first card the next player is the one who
        opens play (HD-3.3), so with `first_player` = `dealer` its victim never answers.
        """,
        (S000, APP, RULING),
        ("glasnost_response", "first_player"),
    ),
    _r(
        "HD-4.7",
        "Worked examples",
        """
        With P0 to P3 seated clockwise and P0 starting each chain: Wild Draw Four, P1
        stacks a Wild Draw Four, P2 stacks Hot Death and P3 accepts, so P3 draws 16 and P0
        plays next. Wild Draw Four and P1 stacks the Harvester: P2 must draw 8 and P3 plays
        next. Wild Draw Four and P1 answers with Retaliation: play turns counter-clockwise
        and P0 faces the 4 cards (he may answer with the Holy Defender or the Virus but may
        not stack), and if he accepts P3 plays next. Wild Draw Four, P1 Holy Defender, P2
        Retaliation: the attack goes back to P1, who passed it on, play is counter-clockwise,
        and if P1 accepts P0 plays next. Wild Draw Four, P1 Hot Death, P2 Magic Red 5: all
        12 cards are cancelled and P3 plays next, whereas after Hot Death and a stacked Wild
        Draw Four the Magic Red 5 may not answer, because the latest draw card is no longer
        the Hot Death. Mystery Draw on a 7 and P1 answers with the Virus: P0 draws 4, P1
        draws 3 and P2 plays next. Quitter, P1 Holy Defender, P2 Virus: P2 and P1 are both
        ejected and P3 plays next.
        """,
        (APP, RULING),
        ("stack_after_deflection", "redirect_sender", "magic5_effect", "virus_odd_split"),
    ),
)

# =========================================================================== Standard

_STANDARD: Final[tuple[Rule, ...]] = (
    _r(
        "STD-0.4",
        "Empty draw pile",
        """
        Whenever a draw is due but no cards remain in the draw pile, the discards under the top
        card are shuffled and turned face down as the new draw pile, and any colour named on a
        reshuffled wild is forgotten. If both piles are still empty because all the other cards
        are in players' hands, whatever is still owed is forgiven: a penalty or forced draw
        simply delivers fewer cards, and a draw-until loop stops, ending the player's turn if he
        still cannot play. This holds in Standard, Cutthroat and Throwdown alike (`shortfall`,
        whose only value is `forgive`). Our ruling for a blocked hand: when every player in turn
        has been unable to play and found nothing to draw, the hand ends and the player with
        the fewest points in hand wins it (ties: the first in turn order).
        """,
        (OFFICIAL, RULING),
        ("shortfall",),
    ),
    _r(
        "STD-0.5",
        "How Uno calls work",
        """
        An Uno episode begins when a player's own play takes his hand from two or more cards
        down to exactly one (or when the 7-0 house rule hands him a one-card hand), and it
        ends when his hand size changes. During the episode the holder may declare Uno and
        the other players may catch him. Calls interrupt play: any player may make one at
        any decision point, and they are handled strictly in the order they arrive, so two
        calls can never tie. The windows and penalties differ by game: STD-8 for Standard,
        CT-6 for Cutthroat and TD-5 for Throwdown.
        """,
        (OFFICIAL, RULING),
    ),
    _r(
        "STD-1.1",
        "Deck and players",
        """
        Standard Uno uses one 108-card deck: in each of red, yellow, green and blue a 0, two
        of every number from 1 to 9 and two each of Skip, Reverse and Draw Two (25 per
        colour), plus four Wilds and four Wild Draw Fours. Two to ten people can play
        (`max_players`). This is the classic edition; the newer 112-card edition with Wild
        Shuffle Hands and blank cards is not modelled.
        """,
        (OFFICIAL,),
        ("max_players",),
    ),
    _r(
        "STD-1.2",
        "Objective",
        """
        Each hand is won by the first player to get rid of all his cards, who scores the
        cards still held by his opponents. Hands are played until someone's total reaches
        500, and that player wins the game.
        """,
        (OFFICIAL,),
        ("target_score", "scoring"),
    ),
    _r(
        "STD-2.1",
        "Choosing the dealer",
        """
        By default the dealer is simply given and deals every hand, which is also the
        setting used in tests (`dealer_selection` = `given`). With `draw_high` everyone
        turns over a card and the highest number wins the deal (an action card counts as
        zero), players who tie drawing again. With `rotate_left` the deal passes to the left
        for each later hand. The official rules do not say who deals the later hands, so our
        ruling is that with `draw_high` the draw is repeated before every hand: the official
        set-up, which every hand repeats (shuffle, deal seven, turn up the first card),
        begins with this draw, no official text passes the deal on, and passing to the left
        is what `rotate_left` is for.
        """,
        (OFFICIAL, RULING),
        ("dealer_selection",),
    ),
    _r(
        "STD-2.2",
        "The deal",
        """
        After shuffling, the dealer deals seven cards to each player, one at a time, starting
        with the player on his left and going clockwise. The undealt cards form the face-down
        draw pile, whose first card is flipped over to begin the discard pile.
        """,
        (OFFICIAL, RULING),
    ),
    _r(
        "STD-3",
        "The first card",
        """
        The card turned up acts as if it had been played just before the first player, by
        nobody, so it cannot be challenged. A number does nothing, and the player on the
        dealer's left starts. A Skip makes that player miss his turn, so the player after
        him starts. A Reverse makes play counter-clockwise and the dealer plays first; with
        `first_card_reverse` = `dealer_right_first` the player on the dealer's right starts
        instead. A Draw Two makes the player on the dealer's left draw two and lose his turn
        (with `first_card_draw_two_loses_turn` off he draws and then plays). A Wild lets the
        player on the dealer's left name any colour and then take a normal turn, and with
        `first_card_wild` = `redraw` it is put back like a Wild Draw Four. A Wild Draw Four
        goes back into the deck, which is reshuffled before a new card is turned, as often
        as needed; with two players a Reverse up-card acts as a Skip, so the dealer starts
        either way.
        """,
        (OFFICIAL, RULING),
        ("first_card_wild", "first_card_reverse", "first_card_draw_two_loses_turn"),
    ),
    _r(
        "STD-4",
        "A turn",
        """
        On his turn a player does exactly one thing: he plays one card that matches the top of
        the discard pile, or he draws the top card of the draw pile. A card matches if it has
        the current colour (the named colour when a wild is on top), if it shows the same number
        or action symbol as the top card, or if it is a Wild; a coloured card never matches a
        wild by symbol, and the Wild Draw Four follows STD-6. A Wild is always allowed, even
        when its player could play something else, and its player names any of the four colours,
        the current one included; a wild played as a last card needs no colour. A player may
        draw even when he could play (`may_draw_with_playable`). If the drawn card is playable
        he may play it at once, but no other card, and otherwise his turn ends; with
        `drawn_card_play` = `must` a playable drawn card has to be played. Illegal actions are
        simply refused and cost nothing.
        """,
        (OFFICIAL, RULING),
        ("may_draw_with_playable", "drawn_card_play", "draw_rule"),
    ),
    _r(
        "STD-5.1",
        "Number cards",
        """
        A number card, 0 to 9, is played on its colour or on the same number and has no
        effect.
        """,
        (OFFICIAL,),
    ),
    _r(
        "STD-5.2",
        "Skip",
        """
        A Skip is played on its colour or on another Skip, and the next player loses his
        turn.
        """,
        (OFFICIAL,),
        ("two_player_rules",),
    ),
    _r(
        "STD-5.3",
        "Reverse",
        """
        A Reverse is played on its colour or on another Reverse and turns the direction of
        play around. With two players it works as a Skip (STD-7.1).
        """,
        (OFFICIAL,),
        ("two_player_rules",),
    ),
    _r(
        "STD-5.4",
        "Draw Two",
        """
        A Draw Two is played on its colour or on another Draw Two, and the next player draws
        two cards and loses his turn. There is no stacking: the victim cannot pass the draw
        on with a Draw Two or a Wild Draw Four and must take the cards. The official Uno
        account confirmed this publicly in 2019. Stacking is only available as a house rule
        (STD-12.1).
        """,
        (OFFICIAL,),
        ("stacking",),
    ),
    _r(
        "STD-5.5",
        "Wild",
        """
        A Wild lets its player name the colour the next player must match; it has no other
        effect.
        """,
        (OFFICIAL,),
    ),
    _r(
        "STD-5.6",
        "Wild Draw Four",
        """
        A Wild Draw Four lets its player name a colour, and the next player draws four cards
        and loses his turn. STD-6 says when it may be played and how a bluff is challenged.
        """,
        (OFFICIAL,),
        ("wild_draw_four_rule",),
    ),
    _r(
        "STD-6.1",
        "When a Wild Draw Four is legal",
        """
        A Wild Draw Four is legal only when its player holds no card of the current colour,
        which is the named colour if a wild is on top. Cards of other colours that match the
        top card's number or symbol do not count against him, and neither do Wilds or other
        Wild Draw Fours, since wilds have no colour.
        """,
        (OFFICIAL, RULING),
    ),
    _r(
        "STD-6.2",
        "How the rule is enforced",
        """
        Under the official rule (`wild_draw_four_rule` = `challenge`) anybody may play a
        Wild Draw Four, bluffs included: the engine records at that moment whether the play
        was legal, and only a challenge can punish a bluff. With `strict`, the No Bluffing
        house rule, an illegal Wild Draw Four is refused. With `free` it may always be played
        and cannot be challenged.
        """,
        (OFFICIAL, RULING),
        ("wild_draw_four_rule",),
    ),
    _r(
        "STD-6.3",
        "Who may challenge",
        """
        Only the player who has to draw the four cards may challenge, and he must decide
        between challenging and accepting before he draws.
        """,
        (OFFICIAL,),
        ("wild_draw_four_rule",),
    ),
    _r(
        "STD-6.4",
        "Settling a challenge",
        """
        The challenged player shows his hand to the challenger alone. If the Wild Draw Four
        was illegal, its player draws the four cards and the challenger draws nothing. If it
        was legal, the challenger draws six cards, the four plus two more, and loses his
        turn.
        """,
        (OFFICIAL,),
    ),
    _r(
        "STD-6.5",
        "After a successful challenge",
        """
        When a challenge succeeds, the Wild Draw Four stays on the pile with the colour its
        player named, and the challenger is not skipped: he takes a normal turn. With
        `wd4_guilty_challenger_turn` = `skipped` he loses that turn instead. Taking the card
        back and playing again, as some households do, is not supported.
        """,
        (RULING,),
        ("wd4_guilty_challenger_turn",),
    ),
    _r(
        "STD-6.6",
        "Legality is judged at the moment of play",
        """
        Whether a Wild Draw Four was legal depends on the hand its player held when he
        played it. Cards he receives afterwards, for example from an Uno penalty before the
        challenge is decided, do not change the verdict.
        """,
        (RULING,),
    ),
    _r(
        "STD-6.7",
        "A Wild Draw Four as the last card",
        """
        A Wild Draw Four that is its player's last card cannot be a bluff, because he had no
        other card. There is therefore nothing to challenge: the next player simply draws four,
        and the hand is over.
        """,
        (RULING,),
    ),
    _r(
        "STD-7.0",
        "When the two-player rules apply",
        """
        With exactly two players, rules STD-7.1 to STD-7.4 apply automatically
        (`two_player_rules`).
        """,
        (OFFICIAL,),
        ("two_player_rules",),
    ),
    _r(
        "STD-7.1",
        "Two players: Reverse",
        """
        A Reverse acts as a Skip, so its player plays again at once.
        """,
        (OFFICIAL,),
        ("two_player_rules",),
    ),
    _r(
        "STD-7.2",
        "Two players: Skip",
        """
        A player who plays a Skip plays again at once.
        """,
        (OFFICIAL,),
        ("two_player_rules",),
    ),
    _r(
        "STD-7.3",
        "Two players: draw cards",
        """
        After a Draw Two or a Wild Draw Four, once the opponent has drawn, play comes back
        to the player who played it. This is what STD-5.4 gives anyway with two players; the
        official two-player text spells it out.
        """,
        (OFFICIAL,),
        ("two_player_rules",),
    ),
    _r(
        "STD-7.4",
        "Two players: the extra turn",
        """
        Playing again means taking a full normal turn: the player may play any legal card,
        or draw as in STD-4.
        """,
        (RULING,),
        ("two_player_rules",),
    ),
    _r(
        "STD-8.1",
        "Calling Uno",
        """
        A player who plays his next-to-last card must call Uno, either along with the play
        or by declaring it before anybody catches him. If he forgets and another player
        catches him in time, he draws two cards (`uno_catch_penalty`).
        """,
        (OFFICIAL,),
        ("uno_catch_penalty",),
    ),
    _r(
        "STD-8.2",
        "When a player can be caught",
        """
        A catch is too early until the holder's second-to-last card is down. Someone who forgot
        but corrects himself before any other player calls it is safe. Nobody can be caught once
        the next player has begun his turn, which means he has drawn from the draw pile or taken
        a card from his hand to play it.
        """,
        (OFFICIAL,),
    ),
    _r(
        "STD-8.3",
        "The catch window",
        """
        The window opens when the holder's play leaves him one card. It closes at the first
        of three events: the holder declares Uno, which keeps him safe for the rest of the
        episode; a valid catch, after which he draws two and the episode ends; or a turn
        action (play, draw, challenge, accept, pass or jump-in) by any other player. Draws
        the engine makes automatically, such as a Draw Two victim's two cards or the four
        of a Wild Draw Four, do not close it. Once it has closed without a catch he can no
        longer be caught in that episode.
        """,
        (OFFICIAL, RULING),
    ),
    _r(
        "STD-8.4",
        "Invalid calls",
        """
        A catch on a player who cannot be caught, or a declaration by a player who does not
        hold exactly one card, is refused and has no effect, because the official rules set
        no penalty for it (`false_uno_call_penalty` = 0).
        """,
        (RULING,),
        ("false_uno_call_penalty",),
    ),
    _r(
        "STD-8.5",
        "Going out without calling",
        """
        A player need not have called Uno in order to go out.
        """,
        (OFFICIAL, RULING),
    ),
    _r(
        "STD-9.1",
        "End of a hand",
        """
        A hand is over as soon as someone plays his final card.
        """,
        (OFFICIAL,),
    ),
    _r(
        "STD-9.2",
        "Going out on a draw card",
        """
        When the winning card is a Draw Two or a Wild Draw Four, the next player still draws two
        or four cards, and they count in the score; going out on an action card is allowed. A
        Wild Draw Four played as the last card cannot be challenged (STD-6.7).
        """,
        (OFFICIAL,),
    ),
    _r(
        "STD-9.3",
        "Scoring",
        """
        The winner of the hand scores the total of the cards left in all his opponents'
        hands, counted after any draw from STD-9.2: number cards at face value, Draw Two,
        Reverse and Skip at 20 each, and Wild and Wild Draw Four at 50 each.
        """,
        (OFFICIAL,),
        ("scoring",),
    ),
    _r(
        "STD-9.4",
        "Winning the game",
        """
        The first player whose total reaches 500 or more after a hand wins the game
        (`target_score`); otherwise a new hand is dealt. Only the winner of a hand scores, so
        there can be no tie. A game stopped by `max_turns` (a safety valve for simulations)
        does not score the hand in progress: the best total wins, and when every total is
        equal nobody wins, as a stopped Cutthroat or Throwdown game has no result.
        """,
        (OFFICIAL, RULING),
        ("target_score", "rounds", "max_turns"),
    ),
    _r(
        "STD-9.5",
        "Penalty-point scoring",
        """
        With `scoring` = `penalty_points`, a well-known variant that is not in the classic
        rules, each player instead adds the value of his own remaining cards to his own
        total. The game ends when anyone reaches the target score, and the lowest total wins,
        players tied for the lowest total sharing the win.
        """,
        (OFFICIAL, RULING),
        ("scoring", "target_score"),
    ),
    _r(
        "STD-10.1",
        "Reshuffling",
        """
        When the draw pile is used up, the discards under the top card are shuffled into a
        new draw pile and play goes on (STD-0.4).
        """,
        (OFFICIAL,),
        ("shortfall",),
    ),
    _r(
        "STD-10.2",
        "Illegal actions",
        """
        The engine refuses illegal plays instead of punishing them; the table-top penalty
        for a misplay, taking the card back and drawing two, is not used.
        """,
        (OFFICIAL, RULING),
    ),
    _r(
        "STD-11.1",
        "Partners",
        """
        With `partners` on, four players play as two teams, partners sitting opposite each
        other: P0 with P2 against P1 with P3.
        """,
        (OFFICIAL,),
        ("partners",),
    ),
    _r(
        "STD-11.2",
        "Playing with partners",
        """
        Play does not change: each player has his own hand and his own turn, and every effect
        targets a seat, not a team.
        """,
        (OFFICIAL,),
        ("partners",),
    ),
    _r(
        "STD-11.3",
        "Partners scoring",
        """
        When either partner goes out, his team wins the hand and scores the cards left in
        the two opponents' hands; the partner's own remaining cards are not counted. A team
        wins the game when its total reaches 500.
        """,
        (OFFICIAL, RULING),
        ("partners", "target_score"),
    ),
    _r(
        "STD-11.4",
        "Larger partner games",
        """
        With 6, 8 or 10 players, teams of two sit alternately: with n players, seat i's
        partner is seat i + n/2.
        """,
        (RULING,),
        ("partners",),
    ),
    _r(
        "STD-12.1",
        "House rule: stacking",
        """
        With `stacking` on, a Draw Two or Wild Draw Four victim may answer with a draw card of
        his own instead of drawing; the penalties add up and pass on, and the first player
        unable or unwilling to add to it takes all of the cards and loses his turn. `flat`
        allows only equal cards (Draw Two on Draw Two, Wild Draw Four on Wild Draw Four);
        `escalating` also allows a Wild Draw Four on a Draw Two, but never a Draw Two on a Wild
        Draw Four. A card used to stack has to be playable on the top card in the usual way (a
        Draw Two needs its colour or the Draw Two symbol; a wild always fits). A player facing a
        total topped by a Wild Draw Four may challenge that card instead: if it was illegal its
        player draws the whole total and the challenger then takes a normal turn, otherwise the
        challenger draws the total plus two and loses his turn.
        """,
        (OFFICIAL, RULING),
        ("stacking",),
    ),
    _r(
        "STD-12.2",
        "House rule: 7-0",
        """
        With `seven_o` on, a player who plays a 7 must swap hands with another player of his
        choice, and when a 0 is played every hand moves one seat along in the direction of play.
        A player who ends up with a single card after such a swap has to call Uno like anyone
        else; for him this starts a new Uno episode. If the 7 or 0 was its player's last card,
        the hand ends first and nothing is swapped.
        """,
        (OFFICIAL, RULING),
        ("seven_o",),
    ),
    _r(
        "STD-12.3",
        "House rule: jump-in",
        """
        With `jump_in` on, a player may play, out of turn, a card exactly like the top card
        (same colour and same number or symbol; wilds never qualify), and play carries on from
        his seat. The chance comes once the last card's effects, automatic draws included, are
        complete, and lasts until somebody takes the next turn action. Nobody may jump in on his
        own card, and when several players claim together, the one nearest in turn order to the
        player due to move gets it. A jump-in is a play like any other: a 7 under 7-0 names the
        player to swap with (STD-12.2), and a jump-in that leaves one card may carry the Uno
        call (STD-8.1).
        """,
        (OFFICIAL, RULING),
        ("jump_in",),
    ),
    _r(
        "STD-12.4",
        "House rules: draw to match and force play",
        """
        With `draw_rule` = `until_playable`, a player who draws keeps drawing until he draws a
        playable card. Under force play (`drawn_card_play` = `must`) a drawn card that can be
        played has to be played.
        """,
        (OFFICIAL,),
        ("draw_rule", "drawn_card_play"),
    ),
)

# =========================================================================== Cutthroat

_CUTTHROAT: Final[tuple[Rule, ...]] = (
    _r(
        "CT-1.1",
        "Deck",
        """
        Cutthroat uses the ordinary 108-card Uno deck (STD-1.1). Whatever the Cutthroat
        sheet does not change follows Standard Uno, except that nobody scores points (CT-7).
        """,
        (S003, OFFICIAL),
    ),
    _r(
        "CT-1.2",
        "Players",
        """
        The Cutthroat sheet declares the number of players irrelevant; the engine allows 2
        to 10 (`max_players`), although at seven cards each the deck could serve 15.
        """,
        (S003, RULING),
        ("max_players",),
    ),
    _r(
        "CT-1.3",
        "Dealer",
        """
        Whoever picks up the cards and starts dealing is the dealer, so the engine is told who
        deals in each game (`dealer_selection` = `given`; seat P0 unless stated).
        """,
        (S003, RULING),
        ("dealer_selection",),
    ),
    _r(
        "CT-1.4",
        "The deal",
        """
        Everyone is dealt seven cards. The remaining cards are stacked face down, and the first
        of them is flipped face up as the start of the discard pile.
        """,
        (S003,),
    ),
    _r(
        "CT-2",
        "The first card",
        """
        A number card turned up has no effect, and the player on the dealer's left starts. A
        Wild Draw Four makes the player on the dealer's left draw four and lose his turn
        (`first_card_wd4_victim_loses_turn`), the dealer names any of the four colours, and
        nobody can question the card, since nobody played it; the player after the victim
        starts. A Wild lets the player on the dealer's left name any of the four colours (no
        colour is in play yet) and then take his turn. A Draw Two makes the player on the
        dealer's left draw two, and the player after him starts. A Reverse means the dealer
        plays first and play then moves to his right. A Skip means the player on the
        dealer's left misses out and the player after him starts. With two players a
        Reverse up-card works out like a Skip: the dealer plays first.
        """,
        (S003, RULING),
        ("first_card_wd4_victim_loses_turn",),
    ),
    _r(
        "CT-3.1",
        "Matching",
        """
        A card must match the top of the discard pile by colour or by number, and also by
        action symbol (Skip on Skip and so on) as in Standard Uno, since the sheet only
        shortens the official wording. One card is played per turn.
        """,
        (S003, OFFICIAL, RULING),
    ),
    _r(
        "CT-3.2",
        "Play if you can",
        """
        Whoever can play must play; he may draw only when nothing in his hand can be played
        (`may_draw_with_playable` off). A Wild is always playable, so its holder never draws. A
        Wild Draw Four counts as playable too: it could only be illegal if he held a card of the
        current colour, and that card would itself be playable.
        """,
        (S003, RULING),
        ("may_draw_with_playable",),
    ),
    _r(
        "CT-3.3",
        "Draw until you match",
        """
        A player with nothing to play draws one card at a time until he draws one that could be
        played on the current top card, a Wild or Wild Draw Four included. By default he keeps
        that card and play passes to the next player (`draw_until_match_then` = `keep`): the
        sheet's “shucks” replaces the official “great” and reads as a shrug: tough luck, the
        card stays in the hand. With `may_play` he may play it if he wishes, and with
        `must_play` he has to. If the draw pile runs out it is rebuilt (STD-0.4), and if no card
        can be drawn at all he stops and the turn passes.
        """,
        (S003, OFFICIAL, RULING),
        ("draw_until_match_then",),
    ),
    _r(
        "CT-3.4",
        "No single-card draw",
        """
        Cutthroat has no option to draw a single card: drawing until a match is the only way
        to draw.
        """,
        (S003, RULING),
    ),
    _r(
        "CT-4.1",
        "Skip, Reverse and Draw Two",
        """
        A Skip makes the next player lose his turn. A Reverse turns the direction of play
        around; the engine keeps track of the direction, so nobody pays for forgetting it. A
        Draw Two makes the next player draw two cards and forfeit his turn.
        """,
        (S003,),
    ),
    _r(
        "CT-4.2",
        "No stacking",
        """
        Draw cards cannot be stacked: as in Standard Uno, the victim takes his cards.
        """,
        (S003, OFFICIAL),
        ("stacking",),
    ),
    _r(
        "CT-4.3",
        "Wild Draw Four",
        """
        The player of a Wild Draw Four names the next colour, which may be any of the four
        (`wd4_color_must_change` off), and the next player draws four cards and forfeits his
        turn.
        """,
        (S003, RULING),
        ("wd4_color_must_change",),
    ),
    _r(
        "CT-4.4",
        "Wild",
        """
        A Wild may be played on any card, but its player must name one of the three colours
        that are not in play (`wild_color_must_change`), so naming the current colour is
        refused. For example, a Wild played on a Wild that named green must name red, yellow
        or blue. The sheet's note about the honour system is flavour: the engine enforces
        the rule.
        """,
        (S003, RULING),
        ("wild_color_must_change",),
    ),
    _r(
        "CT-5.1",
        "Illegal Wild Draw Fours are part of the game",
        """
        A Wild Draw Four is legal by the Standard test (no card of the current colour,
        STD-6.1), but in Cutthroat a player may play one illegally on purpose. The engine
        always accepts it and records whether it was legal. The sheet's advice to do this
        only in special situations, such as when the next player is on Uno or has annoyed
        you, is not enforced.
        """,
        (S003, RULING),
        ("wd4_challenge",),
    ),
    _r(
        "CT-5.2",
        "Questioning a Wild Draw Four",
        """
        The sheet sets no card penalty for an illegal Wild Draw Four; it only says that its
        player may be questioned. By default (`wd4_challenge` = `question`) the victim may
        question the card before drawing: the engine announces publicly whether it was
        legal, and nothing else changes, since the victim still draws four and loses his
        turn either way. With `official` the full Standard challenge applies (STD-6.3 to
        STD-6.6), and with `none` the victim simply draws. Only the victim may question.
        """,
        (S003, OFFICIAL, RULING),
        ("wd4_challenge", "wd4_guilty_challenger_turn"),
    ),
    _r(
        "CT-5.3",
        "Wild Draw Fours that cannot be questioned",
        """
        A Wild Draw Four turned up as the first card cannot be questioned, and neither can
        one played as a last card, which is always legal (STD-6.7).
        """,
        (S003, RULING),
        ("wd4_challenge",),
    ),
    _r(
        "CT-6.1",
        "Calling Uno",
        """
        A player left with one card must call Uno; if he fails to and another player catches
        him, he draws two cards (`uno_catch_penalty`). The sheet's joke about the others
        insisting he was a split second late is read as the ordinary Standard catch.
        """,
        (S003, RULING),
        ("uno_catch_penalty",),
    ),
    _r(
        "CT-6.2",
        "When a player can be caught",
        """
        The timing is exactly Standard's: a player who catches himself first is safe,
        nobody can be caught before his second-to-last card reaches the pile, and nobody can
        be caught once the next player has begun his turn. The engine uses the Standard
        catch window (STD-8.3); the sheet's party vote is flavour.
        """,
        (S003, OFFICIAL),
    ),
    _r(
        "CT-6.3",
        "False calls",
        """
        A mistaken Uno call or catch costs nothing (`false_uno_call_penalty` = 0), as in
        Standard Uno.
        """,
        (RULING,),
        ("false_uno_call_penalty",),
    ),
    _r(
        "CT-7.1",
        "One hand, no scoring",
        """
        A Cutthroat game is a single hand: the first player to empty his hand wins at once.
        Nobody scores points, so there is no target score and there are no rounds. The
        result is the winner's seat, plus the winning team in partners mode.
        """,
        (S003,),
        ("scoring", "rounds"),
    ),
    _r(
        "CT-7.2",
        "Playing again",
        """
        Players may start another, independent game as often as they like. Nothing carries
        over except what they choose to pass in, such as the dealer, and `rounds` is always
        1.
        """,
        (S003, RULING),
        ("rounds",),
    ),
    _r(
        "CT-7.3",
        "Going out on a draw card",
        """
        If the winning card is a Draw Two or a Wild Draw Four, the next player still draws
        two or four cards. The draw is made for the record only and cannot change the
        result, and a last-card Wild Draw Four cannot be questioned.
        """,
        (S003, RULING),
    ),
    _r(
        "CT-7.4",
        "Running out of cards",
        """
        If nobody has gone out by the time the draw pile is used up, the discards are
        reshuffled and play continues (STD-0.4).
        """,
        (S003,),
        ("shortfall",),
    ),
    _r(
        "CT-8.0",
        "When the two-player rules apply",
        """
        With exactly two players, rules CT-8.1 to CT-8.4 apply automatically
        (`two_player_rules`).
        """,
        (S003,),
        ("two_player_rules",),
    ),
    _r(
        "CT-8.1",
        "Two players: Reverse",
        """
        A Reverse acts as a Skip, and its player may immediately play again.
        """,
        (S003,),
        ("two_player_rules",),
    ),
    _r(
        "CT-8.2",
        "Two players: Skip",
        """
        A player who plays a Skip may immediately play again.
        """,
        (S003,),
        ("two_player_rules",),
    ),
    _r(
        "CT-8.3",
        "Two players: draw cards",
        """
        After a Draw Two, once the opponent has drawn his two cards, play returns to the
        player who played it, and the same goes for a Wild Draw Four. Under `wd4_challenge`
        = `official`, a successful challenge lets the challenger play (STD-6.5), while a
        failed one makes him draw six and play returns to the player of the Wild Draw Four.
        """,
        (S003, OFFICIAL),
        ("two_player_rules", "wd4_challenge", "wd4_guilty_challenger_turn"),
    ),
    _r(
        "CT-8.4",
        "Two players: the extra turn",
        """
        Playing again means a full Cutthroat turn: a player who can play must play, and one
        who cannot draws until he finds a match, keeps it, and play passes to the opponent.
        The sheet says the game is best with three or more players, preferably four, but
        that is only advice.
        """,
        (S003, RULING),
        ("two_player_rules", "draw_until_match_then"),
    ),
    _r(
        "CT-9.1",
        "Partners",
        """
        With `partners` on, four players form two teams, partners sitting diagonally
        opposite each other (“catty corner”): P0 with P2 against P1 with P3.
        """,
        (S003,),
        ("partners",),
    ),
    _r(
        "CT-9.2",
        "Playing with partners",
        """
        Each player still has his own hand and turn, and effects hit seats, not teams.
        Partners may talk openly, suggest cards and discuss how to hit an opponent, without
        any penalty.
        """,
        (S003, OFFICIAL),
        ("partners",),
    ),
    _r(
        "CT-9.3",
        "Who wins a partners game",
        """
        By default (`partners_victory` = `team`) a team wins when either partner goes out. The
        sheet also speaks of betraying your partner to keep him from reaching Uno, which only
        makes sense if partners compete, and `individual` serves that reading: victory belongs
        to the player who goes out, not to his team. The result always records the individual
        winner, and the winning team as well when teams win.
        """,
        (S003, OFFICIAL, RULING),
        ("partners", "partners_victory"),
    ),
    _r(
        "CT-9.4",
        "No team points",
        """
        Since nobody scores, partners have no team point total.
        """,
        (S003,),
    ),
    _r(
        "CT-9.5",
        "Larger tables",
        """
        Partners mode works with 4, 6, 8 or 10 players, the teams of two being given as
        input; by default seat i's partner is seat i + n/2, which for four players is the
        diagonal seat. Without partners mode, anything from 2 to 10 players play each for
        himself.
        """,
        (S003, RULING),
        ("partners", "max_players"),
    ),
)

# =========================================================================== Throwdown

_THROWDOWN: Final[tuple[Rule, ...]] = (
    _r(
        "TD-1.1",
        "Decks",
        """
        Throwdown is best played with two ordinary Uno decks shuffled together (216 cards),
        which is the default, but one deck also works (`decks`). Anything the Throwdown rules
        do not change follows Standard Uno: the cards, matching by colour or by number or
        type, and reshuffling.
        """,
        (S004,),
        ("decks",),
    ),
    _r(
        "TD-1.2",
        "Players",
        """
        The Throwdown rules give no player count; the engine allows 2 to 10 players
        (`max_players`).
        """,
        (RULING,),
        ("max_players",),
    ),
    _r(
        "TD-1.3",
        "Dealer and deal",
        """
        The winner of the previous game deals, and for the first game the dealer is simply
        given. The loser of the previous game shuffles, which makes no difference in the
        engine. Each player is dealt seven cards.
        """,
        (S004,),
        ("dealer_selection",),
    ),
    _r(
        "TD-1.4",
        "The first card",
        """
        The dealer turns up the top card of the draw pile. If it is a special card (Skip,
        Reverse, Draw Two, Wild or Wild Draw Four) it stays in the discard pile and more
        cards are turned onto it until a number card from 0 to 9 shows. None of the turned
        cards has any effect, and the number card sets the colour. A 2, 5, 0 or 4 turned up
        is an ordinary number here and never starts a Throwdown.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-1.5",
        "Direction and first player",
        """
        The dealer decides whether play goes clockwise or counter-clockwise
        (`initial_direction`), and the player next to the dealer in that direction plays
        first.
        """,
        (S004, RULING),
        ("initial_direction",),
    ),
    _r(
        "TD-1.6",
        "The next dealer",
        """
        The winner of a game deals the next one, even if he was called back into play after
        winning (TD-6.4).
        """,
        (S004,),
        ("extended_play",),
    ),
    _r(
        "TD-2.1",
        "Plays and units",
        """
        A play is one or more cards from the player's hand, put down in a chosen order during
        one turn so that the final card finishes on top; the engine judges the whole play in one
        go. Going through it from the start, two or more 3s next to each other form a single
        unit, a threes-unit written 33; any other card is its own unit, and a 3 on its own is
        simply the number 3.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-2.2",
        "Unit values",
        """
        A number card's value is its number, a threes-unit's value is 33, and Skips, Reverses,
        Draw Twos, Wilds and Wild Draw Fours have their type as their value. Outside a Throwdown
        the 2s, 5s and 4s have no drawing or reversing powers and count only as numbers.
        """,
        (S004,),
    ),
    _r(
        "TD-2.3",
        "Which units may follow each other",
        """
        One unit may directly follow another only if they have the same value (the same
        number, action or wild type), if one is a 3 and the other a threes-unit, if they are
        a 6 and a 9, or if one is a threes-unit and the other a 6 or an 8. These links work
        both ways but do not chain: 9 and 8, 8 and 6, a threes-unit and a 9, a single 3 and
        a 6 or 8, a number and an action card, and two different actions such as Skip and
        Reverse never link.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-2.4",
        "The first unit of a play",
        """
        The first card of a play must either have the current colour or link to the top card of
        the discard pile as in TD-2.3. The top card counts as itself: a lone 3 showing on the
        pile is judged as a 3, even when it was the last of a run of threes, unless
        `top_three_pair_equivalence` is on, in which case a play that ended with a threes-unit
        leaves 33 as the value on top. A wild on top links only to the same kind of wild;
        otherwise it is matched by its named colour.
        """,
        (S004, RULING),
        ("top_three_pair_equivalence",),
    ),
    _r(
        "TD-2.5",
        "The rest of a play",
        """
        Every later unit must link to the unit before it. For example, on a blue 7 a player
        may lay a blue 9, a yellow 6, a green 3 and a yellow 3, then a red 8: the 9 matches
        by colour, then 9 links to 6, 6 to the threes-unit and the threes-unit to 8. A 9
        followed by an 8 and then a 6 is illegal.
        """,
        (S004,),
    ),
    _r(
        "TD-2.6",
        "One kind per play",
        """
        Because of these links, a play of several cards is either all number cards chained
        by links, or all Skips, all Reverses, all Draw Twos, all Wilds or all Wild Draw
        Fours. Mixing a Skip with a Reverse, or a 2 with a Draw Two, is illegal in regular
        play.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-2.7",
        "Duplicates",
        """
        Cards of the same number or type may be played together whatever their colours,
        identical cards included, such as two red 7s (a single deck has two of each number
        from 1 to 9 in every colour). So a player may lay every card of one number or type at
        once (`multi_play_same_color`).
        """,
        (S004, RULING),
        ("multi_play_same_color",),
    ),
    _r(
        "TD-2.8",
        "Wilds only as a last resort",
        """
        Wilds may only be played when nothing else in the hand can be played, and by default the
        same goes for the Wild Draw Four in regular play (`regular_wd4_restriction`;
        `no_current_color` applies the Standard legality strictly instead, and `none` lifts the
        restriction). A wild play names one colour, any of the four including the current one,
        and wilds of the same type can go down together, with a single colour named for them
        all.
        """,
        (S004, RULING),
        ("regular_wd4_restriction",),
    ),
    _r(
        "TD-2.9",
        "No going out on a wild",
        """
        A play that would empty the player's hand may not end with a Wild or Wild Draw Four.
        Since wilds cannot be mixed with other cards, a wild that is a player's last card
        cannot be played at all. This holds in regular play and in a Throwdown alike.
        """,
        (S004,),
    ),
    _r(
        "TD-3.1",
        "Play if you can",
        """
        A player who has a legal play must make one; he may not choose to draw instead
        (`voluntary_draw` off).
        """,
        (S004, RULING),
        ("voluntary_draw",),
    ),
    _r(
        "TD-3.2",
        "Draw until you can play",
        """
        A player with no legal play draws one card at a time and checks his whole hand after
        each card, the wild rules TD-2.8 and TD-2.9 included; as soon as he has a legal play he
        stops and must make one, which need not use the drawn card. For example, a drawn 3 can
        join a 3 already held to make a threes-unit. Someone holding nothing but a Wild draws a
        card, and if that card cannot be played the Wild has become legal (it is no longer his
        last card, and it is his only move), so he must play it. If no card can be drawn
        (STD-0.4), his turn ends.
        """,
        (S004, RULING),
        ("shortfall",),
    ),
    _r(
        "TD-3.3",
        "What a play does",
        """
        Effects apply once all the cards of a play are down; the last card is the new top
        card and sets the colour (the named colour for wilds). Numbers have no effect, and
        the next player plays. Each Skip skips one active player, counting around the table
        as often as needed, and if the count comes back to the player who laid them he takes
        a new turn. Each Reverse turns the direction, so an even number leaves it as it was,
        and the next player in the resulting direction plays, which after an odd number is
        the previous player. Wilds name a colour, and the next player plays. Draw Twos start
        a Throwdown at level 2 with 2 cards per Draw Two in the pot, Wild Draw Fours start
        one at level 4 with 4 per card, and the next player must defend.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-3.4",
        "No two-player rules",
        """
        Throwdown has no special rules for two players: with two, a Reverse passes play to
        the opponent, just as it passes play to the previous player at a larger table
        (`two_player_reverse_as_skip` off).
        """,
        (S004, RULING),
        ("two_player_reverse_as_skip",),
    ),
    _r(
        "TD-3.5",
        "When a turn ends",
        """
        A turn lasts until the following player puts down a card. This only fixes how long he
        may use his Uno forced draw (TD-5.2); it does not let him add cards to a play already
        made, because a play is complete once it has been laid.
        """,
        (S004, RULING),
        ("uno_force_window",),
    ),
    _r(
        "TD-4.1",
        "Starting a Throwdown",
        """
        A Throwdown starts when Draw Twos (level 2, two cards each) or Wild Draw Fours
        (level 4, four cards each) are played in regular play. Nobody draws yet: the cards
        go into a draw pot, and the next player must defend against it. The table-pounding
        battle cry is tradition, not a rule.
        """,
        (S004,),
    ),
    _r(
        "TD-4.2",
        "Throwdown cards",
        """
        During a Throwdown only Throwdown cards may be played: draw cards (Draw Two, any 2, any
        5, and at level 4 also any 4), Skips, Reverses and 0s. The remaining numbers (1, 3, 6,
        7, 8, 9, and 4 while at level 2) are barred, and wilds only as a last resort (TD-4.7).
        """,
        (S004,),
    ),
    _r(
        "TD-4.3",
        "What the top card counts as",
        """
        During a Throwdown a Draw Two, 2, 5, 4 or Wild Draw Four on top counts as a draw
        card, a Skip as a Skip and a Reverse as a Reverse. A Wild on top counts as a Wild,
        which can only be answered in its named colour or with another wild.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-4.4",
        "The first card of a defence",
        """
        By default (`throwdown_match` = `color_or_kind`) the first card of a defence has to be a
        card allowed at the current level that either shares the current colour or is of the
        same kind as the top card, all draw cards (Draw Two, 2, 5, and 4 at level 4) being one
        kind. So once a Wild has called yellow, the next defender needs a yellow Throwdown card
        (Draw Two, 2, 5, Reverse, Skip or 0) or a wild. With `kind_free` any Throwdown card of
        the level may start a defence, except that a Wild on top still demands its named colour
        or a wild, and a Wild Draw Four on top demands its named colour or a draw card.
        """,
        (S004, RULING),
        ("throwdown_match",),
    ),
    _r(
        "TD-4.5",
        "The rest of a defence",
        """
        Every later card of a defence must belong to the same family as the first: draw cards
        mix freely in any order at both levels, but Skips, Reverses and 0s can only be combined
        with more of the same, and no two families are ever combined. With
        `level2_mix_draw_family` off, a draw defence at level 2 must use a single card type,
        though level 4 still allows any mixture.
        """,
        (S004, RULING),
        ("level2_mix_draw_family",),
    ),
    _r(
        "TD-4.6",
        "What each defence does",
        """
        A draw defence at level 2 may not contain 4s; it adds 2 to the pot per card, turns
        the direction once for each 5, and passes the pot to the next player in the
        resulting direction. At level 4, by default (`level4_draw_rule` = `even`) the
        2-valued cards (Draw Two, 2, 5) must come in an even number, each adding 2, while
        each 4 adds 4, at least one card in all; 5s still turn the direction, so a pair of
        them cancels out. With `at_least_two` any number of 2-valued cards from two upwards
        is allowed, a single 2-valued card being illegal at level 4 in both modes, and with
        `level4_mix_fours` off 4s may not share a defence with 2-valued cards. Skips leave
        the pot and the direction alone and pass the pot to the next player: the defender's
        own turn is what is skipped, and several Skips do no more than one. Reverses leave
        the pot alone and turn the direction once per card, the pot going to the next player
        in the new direction. 0s flush the pot: nobody draws, the Throwdown ends, and the
        next player resumes regular play, matching the last 0 by its colour or as a 0. A
        defender with no legal defence draws the whole pot (TD-4.8).
        """,
        (S004, RULING),
        ("level4_draw_rule", "level4_mix_fours"),
    ),
    _r(
        "TD-4.7",
        "Wilds in a Throwdown",
        """
        Only a defender with no other legal defence may play wilds, and a wild may not empty
        his hand. A Wild adds nothing and names the colour the next defender must answer
        in; a Wild Draw Four adds 4, names a colour and raises the Throwdown to level 4. A
        wild may be answered with another wild. Once reached, level 4 lasts until the
        Throwdown ends, and Skips, Reverses, Wilds and 0s work there just as before.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-4.8",
        "Drawing the pot",
        """
        A defender who cannot defend draws every card in the pot (fewer if the cards run out,
        STD-0.4); the pot is emptied and the Throwdown ends. By default he also loses his turn
        (`pot_drawer_loses_turn`), and regular play resumes with the next player. The top card
        and the colour stay as they were and normal matching is back in force, so a 2, 5 or 4
        showing counts only as a number, a Draw Two or Wild Draw Four on top is matched by
        colour or symbol, and a matching Draw Two starts a new Throwdown.
        """,
        (S004, RULING),
        ("pot_drawer_loses_turn", "shortfall"),
    ),
    _r(
        "TD-4.9",
        "Defend if you can",
        """
        A defender who has any legal defence, a last-resort wild included, must play one: he
        cannot choose to take the pot (`voluntary_draw` off).
        """,
        (S004, RULING),
        ("voluntary_draw",),
    ),
    _r(
        "TD-4.10",
        "Round and round",
        """
        A Throwdown may go round the table any number of times, and the player who started
        it may end up having to defend against it.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-5.1",
        "When Uno may be called",
        """
        Uno may be called once a player holds a single card, and not before his
        second-to-last card is on the pile; one multi-card play can take a hand from many
        cards down to one. A player who calls his own Uno without holding exactly one card
        makes an erroneous call (TD-5.5).
        """,
        (S004, RULING),
    ),
    _r(
        "TD-5.2",
        "Calling your own Uno and the forced draw",
        """
        A player who calls his own Uno may name any other player, even one who is on Uno
        himself, to draw two cards from the draw pile (`uno_force_draw`); with extended play he
        may also name a player who has gone out and has not declined (TD-6.4). These cards never
        go into a pot. He may force the draw from the moment his play leaves him one card until
        some other player next discards; players who merely draw, a defender taking the pot
        included, do not close this window. With `uno_force_window` = `any_own_turn` he may also
        force the draw on his later turns in the same episode. Only one call of his own is
        allowed per episode, and a repeat is refused without penalty.
        """,
        (S004, RULING),
        ("uno_force_draw", "uno_force_window", "extended_play"),
    ),
    _r(
        "TD-5.3",
        "Calling your own Uno late",
        """
        Once that window has closed, the player may still call his own Uno at any time while he
        holds one card, but without a forced draw; naming a target then makes the whole call
        invalid. Once he has called, nobody can catch him until his hand size changes.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-5.4",
        "Catching a player",
        """
        If a player holding one card has not called his own Uno, any other player may call
        it on him at any moment, on his turn or not, and he then draws four cards
        (`uno_catch_penalty`), which ends the episode. Unlike in Standard Uno the chance
        never closes, and players who have already gone out may catch too. Once caught he
        holds five cards, so he can no longer call his own Uno.
        """,
        (S004, RULING),
        ("uno_catch_penalty",),
    ),
    _r(
        "TD-5.5",
        "Erroneous calls",
        """
        A call is erroneous when the player called on, or the player calling his own Uno,
        does not hold exactly one card, for example when catching a player who holds two
        cards or none; the caller draws two cards (`false_uno_call_penalty`). A redundant
        call, such as catching a one-card player who has already called or calling your own
        Uno twice, is simply refused without penalty.
        """,
        (S004, RULING),
        ("false_uno_call_penalty",),
    ),
    _r(
        "TD-5.6",
        "Going out without calling",
        """
        A player may go out without having called Uno.
        """,
        (RULING,),
    ),
    _r(
        "TD-5.7",
        "Simultaneous calls",
        """
        The Throwdown rules let the table settle calls made at the same moment and, with two
        players, have nobody draw when such a tie cannot be settled. The engine handles calls
        strictly one after another (STD-0.5), so ties never arise and this rule is not
        modelled.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-5.8",
        "Uno penalty sizes",
        """
        Throwdown's Uno penalties differ from Standard's: a forced draw is two cards, being
        caught costs four, and an erroneous call costs the caller two.
        """,
        (S004,),
        ("uno_force_draw", "uno_catch_penalty", "false_uno_call_penalty"),
    ),
    _r(
        "TD-6.1",
        "Going out",
        """
        A player is out once a legal play leaves him without cards, in regular play or during a
        Throwdown, but never on a wild (TD-2.9).
        """,
        (S004,),
    ),
    _r(
        "TD-6.2",
        "The winner",
        """
        The first player to go out wins the game and deals the next one.
        """,
        (S004,),
    ),
    _r(
        "TD-6.3",
        "Playing on",
        """
        By default (`play_on_after_first_out`) the game goes on after the first player goes
        out: players who go out leave the turn order, play continues with whoever the last
        card makes next, and a Throwdown in progress carries on with its pot. Play stops
        once just one player has cards left (not counting a winner who was called back,
        TD-6.4), and he is the loser, which is how the rules' “last person to go out” is
        read. With the option off, the first player out ends the game at once, a pending pot
        is thrown away, and nobody is the loser. The result lists the winner, the order in
        which players went out and the loser.
        """,
        (S004, RULING),
        ("play_on_after_first_out",),
    ),
    _r(
        "TD-6.4",
        "Extended play",
        """
        With `extended_play` on, a player on Uno who calls his own Uno may name a player who
        has gone out as the target of his forced draw; that player draws two cards and
        rejoins at his own seat. A winner who is called back stays the winner and still
        deals next, and each exit is recorded again. Our ruling for a case the rules leave
        open: a called-back winner plays on but can never be the loser, so his cards do not
        count towards the end of the game, which comes as soon as only one player besides
        him holds cards; that player is the loser even if the winner still holds cards. The
        rules say a called-back player “has still won the game”, so nobody is both winner
        and loser, and the loser is still the last of the others left holding cards, found
        at the moment he would be found had the winner never come back. The winner may, at
        any time after going out, refuse to be called back, after which nobody can target
        him; `callback_decline` = `any_out_player` gives every player who has gone out that
        right. Because this can go on all night, `max_turns` can stop a game, which then has
        no loser.
        """,
        (S004, RULING),
        ("extended_play", "callback_decline", "max_turns"),
    ),
    _r(
        "TD-6.5",
        "Two players left",
        """
        When only two players are still in the game, the first of them to go out ends it,
        and the other is the loser.
        """,
        (S004, RULING),
        ("play_on_after_first_out",),
    ),
    _r(
        "TD-6.6",
        "Leaving the table",
        """
        A player who leaves the table has his cards put at the bottom of the discard pile
        and is removed from the turn order; he neither wins nor loses. Someone who takes over
        his seat simply keeps his hand and place. Any player still holding cards may leave
        at any time once play has begun, on his turn or out of turn (“if, during the game, a
        player leaves the table for any reason”); a defender who leaves passes the pot on to
        the next player, as if he had redirected it. If at most one player then still holds
        cards (besides a called-back winner, TD-6.4), the game ends: that player is the loser
        if somebody has already gone out, and otherwise he is the winner and there is no
        loser.
        """,
        (S004, RULING),
    ),
    _r(
        "TD-6.7",
        "Teasing",
        """
        The optional teasing of players who ask for rule clarifications or misplay is table
        culture and has no effect on the rules.
        """,
        (S004,),
    ),
)

# =========================================================================== index


def _index(rules: tuple[Rule, ...]) -> Mapping[str, Rule]:
    """Check the rules and index them by id, keeping document order."""
    index: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in index:
            raise ValueError(f"duplicate rule id {rule.id!r}")
        if not RULE_ID_PATTERN.match(rule.id):
            raise ValueError(f"malformed rule id {rule.id!r}")
        unknown = [tag for tag in rule.sources if tag not in SOURCE_TAGS]
        if unknown or not rule.sources:
            raise ValueError(f"rule {rule.id}: bad sources {rule.sources!r}")
        if not any(section.contains(rule.id) for section in SECTIONS):
            raise ValueError(f"rule {rule.id} belongs to no section")
        index[rule.id] = rule
    return MappingProxyType(index)


RULES: Final[Mapping[str, Rule]] = _index(_HOTDEATH + _STANDARD + _CUTTHROAT + _THROWDOWN)
"""Every rule by id, ordered as in the documents (Hot Death, Standard, Cutthroat, Throwdown)."""


AUDITS: Final[tuple[Audit, ...]] = (
    Audit(
        "hotdeath",
        "2026-11-29",
        """
        Every card, option, preset and row of the attack/defence state machine of the
        contract was checked against the engine by scenario, and by random games in which an
        independent model of HD-3.5 (which cards may be played), HD-4.3 (which answers are
        allowed), HD-4.2 to HD-4.6 (who acts next, and the attack's victim, sender and count),
        HD-3.7.1 (who wins the hand) and HD-3.7.2 (hand values, over random hands and option
        sets) was compared with the engine after every action; these found no divergence on
        the default rules. The findings below are holes in the contract under non-default
        options, closed by a ruling, and one divergence of the engine.
        """,
        (
            "Divergence fixed (HD-4.6, HD-3.3): with `glasnost_response` = `next_player_only`, "
            "a Glasnost turned up as the first card let its victim answer wherever he sat. Now, "
            "as for a played Glasnost, only the player who opens play may answer; any other "
            "victim is revealed at once, and with `first_player` = `dealer` (the dealer opens "
            "and cannot be the victim) the victim is always revealed at once.",
            "Ruling (HD-4.3.2, HD-4.3.4): with `redirect_sender` = `original_attacker` an "
            "attack that comes back to its original attacker (after Retaliation, or a Holy "
            "Defender with two active players) made his own Retaliation or Virus hit himself. "
            "Now it hits the player who sent the attack to him, as by default: answering an "
            "attack never targets the answering player.",
            "Ruling (HD-2.3.11): `delayed_blast_min_active_for_skip` took the value 2, with "
            "which a Delayed Blast between two active players skipped the opponent and "
            "attacked its own player. The option now starts at 3; a smaller value is refused "
            "with the error `bad_option_value`.",
            "Engine fix (HD-3.7.1): the count of turns in which nobody could play or draw, "
            "which ends a blocked hand, now starts afresh with every deal instead of carrying "
            "over from a blocked hand before.",
        ),
    ),
)
"""The audits of the engine against the rules contracts, in date order."""


def audits_for(game: str) -> list[Audit]:
    """Return the audits of one game, oldest first.

    Raises:
        ValueError: If ``game`` is not one of :data:`GAMES`.

    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    return [audit for audit in AUDITS if audit.game == game]


def get_rule(rule_id: str) -> Rule:
    """Return the rule with this id.

    Raises:
        KeyError: If there is no such rule; the message suggests close ids.

    """
    try:
        return RULES[rule_id]
    except KeyError:
        close = difflib.get_close_matches(rule_id, list(RULES), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(
            f"unknown rule id {rule_id!r}{hint} (ids look like 'HD-2.3.10', 'STD-6.4', "
            f"'CT-3.3' or 'TD-4.6'; the rulebook has {len(RULES)} rules)"
        ) from None


def rules_for(game: str) -> list[Rule]:
    """Return the rules of one game, in document order.

    Raises:
        ValueError: If ``game`` is not one of :data:`GAMES`.

    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    return [rule for rule in RULES.values() if rule.game == game]


def section_of(rule: Rule) -> Section:
    """Return the most specific contract section that the rule belongs to."""
    matches = [s for s in SECTIONS if s.game == rule.game and s.contains(rule.id)]
    if not matches:
        raise ValueError(f"rule {rule.id} belongs to no section")
    return max(matches, key=lambda section: len(section.prefix))
