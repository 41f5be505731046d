"""Words for people: actions, pending attacks and results, in a name theme.

One renderer for every front end: ``hotdeath replay``, both terminal games and the server
(which sends the words to the browser, so the page builds none of its own).  Seat names
come from the caller (``names[seat]``; ``P0`` … without them); card names from a name theme
(:func:`hotdeath.cards.card_name`).  Results are rendered from the common shape of
:mod:`hotdeath.results` only: nothing here knows which variant made them.

>>> from hotdeath.results import HandResult
>>> hand_headline(HandResult(hand=2, end="out", rule="STD-9.1", winners=(1,)), ["Ann", "Bo"])
'Hand 2: Bo went out and wins the hand.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import COLOR_LETTERS, COLOR_NAMES, GLAS, card_name, parse_card
from hotdeath.pending import Context, DrawAttack, Ejection, Pending, Pot, Reveal
from hotdeath.pending import from_json as pending_from_json
from hotdeath.results import END_CODES, GameResult, HandResult, ResultExtra, ScoreLine

REASONS: Final[dict[str, str]] = {
    "went_out": "went out",
    "last_standing": "last player standing",
    "all_bastards": "held all four bastard cards",
    "cards": "cards in hand",
    "cards_in_hand": "cards in hand",
    "combo_1000": "the 1000-point combination",
    "sixty_nine": "{card}: the hand counts 69",
    "magic_red_5": "{card} takes 5 off",
    "retaliation": "{card} doubles",
    "holy_defender": "{card} halves",
    "big_brother": "{card}: the highest hand's points",
    "virus": "{card} infections",
    "opponent_cards": "{seat}'s cards",
    "cards_to_winner": "cards count for {seat}",
    "partner_won": "partner {seat} went out",
}
"""Each reason key of a score line in words (``{card}``, ``{seat}``: the line's)."""

END_WORDS: Final[dict[str, str]] = dict(END_CODES)
"""Each end code in words."""


def _who(seat: int | None, names: Sequence[str] | None) -> str:
    if seat is None or seat < 0:
        return "nobody"
    if names is not None and seat < len(names):
        return names[seat]
    return f"P{seat}"


def _join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards`` (``many`` for an irregular plural).

    >>> plural(1, "card"), plural(0, "card"), plural(3, "party", "parties")
    ('1 card', '0 cards', '3 parties')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"


# ------------------------------------------------------------------ actions


def describe_action(action: Action, names: Sequence[str] | None = None,
                    theme: str = "family") -> str:
    """An action in words, as a button or a log would say it.

    Cards take their names from ``theme``, seats from ``names``.

    >>> describe_action(Action.parse("catch 1"), ["Ann", "Bo"])
    'catch Bo: no Uno call'
    """
    a = action
    k = a.kind
    if a.cards:
        cards = " + ".join(card_name(c, theme) for c in a.cards)  # a throw: cards together
        words = ("jump in with " if k == A.JUMP else "play ") + cards
        if a.color >= 0:
            words += f", naming {COLOR_NAMES[a.color]}"
        if a.target >= 0:
            words += f", at {_who(a.target, names)}"
        if a.uno:
            words += ", calling Uno"
        return words
    if k == A.DRAW:
        return "draw a card"
    if k == A.PASS:
        return "pass (end the turn)"
    if k == A.ACCEPT:
        return "accept the attack (take the cards)"
    if k == A.CATCH:
        return f"catch {_who(a.target, names)}: no Uno call"
    if k == A.CHALLENGE:
        if a.target >= 0:  # Hot Death: a 6 on a 9 (or 9 on 6) that only a 69 allows
            return (f"challenge {_who(a.target, names)}'s 6/9 play (only the 69 allows "
                    "it: shown, the challenger draws, HD-3.11.1)")
        return "challenge the Wild Draw Four"
    if k == A.QUESTION:
        return "question the Wild Draw Four"
    if k == A.UNO:
        return f"call Uno on {_who(a.target, names)}" if a.target >= 0 else "call Uno"
    if k == A.DEAL:
        return f"deal {plural(a.n, 'card')} to each player"
    if k == A.COLOR:  # with its letter: readable without colour vision
        return f"name {COLOR_NAMES[a.color]} ({COLOR_LETTERS[a.color]})"
    if k == A.VICTIM:
        return f"choose {_who(a.target, names)}"
    if k == A.DIRECTION:
        return "play clockwise" if a.n == 1 else "play counter-clockwise"
    if k == A.DECLINE:
        return "refuse to be called back"
    if k == A.LEAVE:
        return "leave the table"
    return str(a)


_WD4: Final = parse_card("WD4")


def button_label(action: Action, names: Sequence[str] | None = None,
                 theme: str = "family", owed: int = 0) -> str:
    """An action as its button says it: short, capitalised; ``owed`` the cards an accept takes.

    Actions with no short form of their own are :func:`describe_action`'s words.

    >>> button_label(Action.parse("accept"), owed=4)
    'Accept: draw 4'
    >>> button_label(Action.parse("catch 1"), ["Ann", "Bo"])
    'Catch Bo: one card, no Uno!'
    >>> button_label(Action.parse("question"), theme="family")
    'Question the Wild Draw Four'
    """
    a = action
    k = a.kind
    if k == A.DRAW:
        return "Draw a card"
    if k == A.PASS:
        return "Pass"
    if k == A.ACCEPT:
        return f"Accept: draw {owed}" if owed else "Accept"
    if k == A.UNO:
        return f"Uno! {_who(a.target, names)} draws" if a.target >= 0 else "Call Uno!"
    if k == A.CATCH:
        return f"Catch {_who(a.target, names)}: one card, no Uno!"
    if k == A.CHALLENGE:
        if a.target >= 0:
            return f"Challenge {_who(a.target, names)}"
        return f"Challenge the {card_name(_WD4, theme)}"
    if k == A.QUESTION:
        return f"Question the {card_name(_WD4, theme)}"
    if k == A.LEAVE:
        return "Leave the table…"
    if k == A.DECLINE:
        return "Stay out"
    words = describe_action(a, names, theme)
    return words[:1].upper() + words[1:]


# ------------------------------------------------------------------ pending attacks


_FAMILY_WORDS: Final[dict[str, str]] = {
    "wild_draw": "a draw-wild attack",
    "draw_two": "a Draw Two attack",
    "mystery": "a Mystery Draw attack",
}
"""Each Hot Death draw-attack family (HD-4.1: what may answer it) in words."""


@dataclass(frozen=True, slots=True)
class PendingWords:
    """What a game waits for (a view's ``attack``) in words, in pieces a front end lays out.

    ``text`` is the sentence (``Bo must answer: draw 4 cards``); ``lead`` the sentence up to
    the count and ``count`` the cards at stake (None: nothing to draw), for a page that
    shows the count apart; ``title`` names what is pending (``Attack``, ``Throwdown
    pot``); ``details`` are the facts beside it (the card and who sent it, a level, a lock,
    whether it may be challenged).  ``str()`` is the sentence with its details.
    """

    title: str
    text: str
    lead: str
    count: int | None
    details: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.text} ({', '.join(self.details)})" if self.details else self.text

    def to_json(self) -> dict[str, Any]:
        """The JSON the server sends with a state (the page words nothing itself)."""
        return {"title": self.title, "text": self.text, "lead": self.lead,
                "count": self.count, "details": list(self.details)}


def pending_words(pending: Pending | Mapping[str, Any] | None,
                  names: Sequence[str] | None = None, theme: str = "family", *,
                  you: int | None = None, challengeable: bool = False) -> PendingWords | None:
    """A pending attack or pot (a :mod:`hotdeath.pending` value or its JSON) in words.

    The one renderer of what is pending, for the command line, both terminal games and the
    page (through the server).  ``you`` is the seat reading it (its name becomes "You");
    ``challengeable`` adds that its victim may challenge it.  None when nothing is pending.

    >>> from hotdeath.cards import parse_card
    >>> pot = Pot(victim=1, sender=0, count=4, last_card=parse_card("WD4"))
    >>> str(pending_words(pot, ["Ann", "Bo"], challengeable=True))
    'Bo must answer: draw 4 cards (Wild Draw Four from Ann, may be challenged)'
    >>> pending_words(pot.to_json(), ["Ann", "Bo"], you=1).lead
    'You must answer: draw'
    """
    if not pending:
        return None
    value = pending if not isinstance(pending, Mapping) else pending_from_json(
        pending, Context(turn=-1, top=-1))

    def who(seat: int, start: bool = False) -> str:
        if seat == you and seat >= 0:
            return "You" if start else "you"
        return _who(seat, names)

    victim = who(value.victim, start=True)
    count: int | None = None
    if isinstance(value, Ejection):
        lead = text = f"{victim} must answer an ejection"
        title = "Ejection"
    elif isinstance(value, Reveal):
        lead = text = f"{victim} must answer a {card_name(GLAS, theme)} reveal"
        title = f"{card_name(GLAS, theme)} reveal"
    else:
        count = value.count
        lead = f"{victim} must answer: draw"
        text = f"{lead} {plural(count, 'card')}"
        title = "Throwdown pot" if isinstance(value, Pot) and value.level is not None else (
            "Attack")
    sender = value.sender
    card = card_name(value.last_card, theme) if value.last_card >= 0 else ""
    source = f"from {who(sender)}" if sender >= 0 else "from the first card turned up"
    details = [f"{card} {source}" if card else source]
    attacker = sender if isinstance(value, Pot) else value.attacker
    if attacker != sender and attacker >= 0:
        details.append(f"last added by {who(attacker)}")
    if isinstance(value, DrawAttack):
        details.append(_FAMILY_WORDS.get(value.family, value.family.replace("_", " ")))
        if value.locked:
            details.append("it can only be accepted")
    if isinstance(value, Pot) and value.level is not None:
        details.append(f"level {value.level}")
    if not isinstance(value, Pot) and value.redirected:
        details.append("sent on")
    if isinstance(value, Ejection) and value.two_active:
        details.append("two players left")
    if challengeable:
        details.append("may be challenged")
    return PendingWords(title, text, lead, count, tuple(details))


def describe_pending(pending: Pending | Mapping[str, Any] | None,
                     names: Sequence[str] | None = None, theme: str = "family") -> str:
    """A pending attack or pot in one sentence (:func:`pending_words`); empty when none.

    >>> describe_pending({"type": "draw", "count": 4, "victim": 1}, ["Ann", "Bo"])
    'Bo must answer: draw 4 cards'
    >>> describe_pending({"type": "reveal", "victim": 0}, ["Ann", "Bo"], "original")
    'Ann must answer a Glasnost reveal'
    """
    words = pending_words(pending, names, theme)
    return "" if words is None else words.text


# ------------------------------------------------------------------ results


def describe_line(line: ScoreLine, names: Sequence[str] | None = None,
                  theme: str = "family") -> str:
    """One score line in words with its points: ``Retaliation doubles +5``.

    >>> describe_line(ScoreLine("STD-9.3", 14, "opponent_cards", seat=1), ["Ann", "Bo"])
    "Bo's cards +14"
    """
    template = REASONS.get(line.words, line.words.replace("_", " "))
    text = template.format(card=card_name(line.card, theme) if line.card is not None else "",
                           seat=_who(line.seat, names)).strip()
    if line.points > 0:
        return f"{text} +{line.points}"
    if line.points < 0:
        return f"{text} −{-line.points}"
    return text


def hand_headline(res: HandResult, names: Sequence[str] | None = None) -> str:
    """How the hand ended, in one sentence."""
    who = _join([_who(s, names) for s in res.winners])
    head = f"Hand {res.hand}"
    if res.end == "out" and res.winners:
        verb = "wins" if len(res.winners) == 1 else "win"
        first = _who(res.winners[0], names)
        if len(res.winners) > 1:
            return f"{head}: {first} went out; {who} {verb} the hand."
        return f"{head}: {first} went out and {verb} the hand."
    why = END_WORDS.get(res.end, res.end.replace("_", " "))
    if res.winners:
        verb = "wins" if len(res.winners) == 1 else "win"
        return f"{head}: {why}; {who} {verb} the hand."
    return f"{head}: {why}; nobody wins the hand."


def game_headline(res: GameResult, names: Sequence[str] | None = None) -> str:
    """Who won the game, and why it ended."""
    why = END_WORDS.get(res.end, res.end.replace("_", " "))
    if not res.winners:
        return f"Nobody wins the game ({why})."
    who = _join([_who(s, names) for s in res.winners])
    verb = "wins" if len(res.winners) == 1 else "win"
    return f"{who} {verb} the game ({why})."


def extra_words(extra: ResultExtra, value: Any, names: Sequence[str] | None = None) -> str:
    """One declared extra of a result in words (``Left the table: Ann``); empty if unset."""
    if value is None or value == () or value == []:
        return ""
    if extra.kind == "seat":
        return f"{extra.label}: {_who(int(value), names)}"
    if extra.kind == "seats":
        return f"{extra.label}: {_join([_who(int(s), names) for s in value])}"
    if extra.kind == "per_seat":
        if not any(value):
            return ""
        return f"{extra.label}: " + ", ".join(
            f"{_who(s, names)} {v}" for s, v in enumerate(value) if v)
    return f"{extra.label}: {value}"


@dataclass(frozen=True, slots=True)
class SeatWords:
    """One seat's row of a result in words."""

    seat: int
    name: str
    points: int | None
    reasons: tuple[str, ...]
    total: int | None
    cards: str


@dataclass(frozen=True, slots=True)
class ResultWords:
    """A hand or game result in words, for any front end.

    A headline, notes (the order out, the loser, the declared extras), one row per seat
    and, for a game, the final standings (name and total, best first).
    """

    headline: str
    notes: tuple[str, ...]
    rows: tuple[SeatWords, ...]
    standings: tuple[tuple[str, int | None], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the server sends it with the result)."""
        return {"headline": self.headline, "notes": list(self.notes),
                "rows": [{"seat": r.seat, "name": r.name, "points": r.points,
                          "reasons": list(r.reasons), "total": r.total, "cards": r.cards}
                         for r in self.rows],
                "standings": [{"name": n, "total": t} for n, t in self.standings]}

    def lines(self, rows: bool = True) -> list[str]:
        """The result as plain text lines (``hotdeath replay`` prints them).

        ``rows=False`` leaves out the seats' rows (a game's last hand, already shown).
        """
        out = [self.headline, *self.notes]
        if rows and any(r.points is not None for r in self.rows):
            for r in self.rows:
                why = "; ".join(r.reasons) or "—"
                out.append(f"  {r.name}: {r.points} points ({why}), total {r.total}")
        if self.standings:
            out.append("Final standings: " + ", ".join(
                f"{i}. {n}" + ("" if t is None else f" {t}")
                for i, (n, t) in enumerate(self.standings, 1)))
        return out


def _notes(res: HandResult | GameResult, extras: Sequence[ResultExtra],
           names: Sequence[str] | None, where: str) -> list[str]:
    notes: list[str] = []
    if len(res.out_order) > 1 or (res.out_order and res.loser is not None):
        notes.append("Went out in this order: " + ", ".join(
            _who(s, names) for s in res.out_order))
    if res.loser is not None:
        notes.append(f"Loser: {_who(res.loser, names)}")
    for x in extras:
        if x.where in (where, "both") and x.key in res.extras:
            text = extra_words(x, res.extras[x.key], names)
            if text:
                notes.append(text)
    return notes


def describe_hand(res: HandResult, names: Sequence[str] | None = None,
                  theme: str = "family", extras: Sequence[ResultExtra] = ()) -> ResultWords:
    """A hand result in words (``extras``: the variant's ``result_extras``)."""
    rows = tuple(
        SeatWords(s.seat, _who(s.seat, names), s.points,
                  tuple(describe_line(x, names, theme) for x in s.lines), s.total,
                  ", ".join(card_name(c, theme) for c in s.cards))
        for s in res.seats)
    if not rows:
        notes = _notes(res, extras, names, "hand")
        return ResultWords(hand_headline(res, names),
                           (*notes, "No points are counted."), ())
    return ResultWords(hand_headline(res, names), tuple(_notes(res, extras, names, "hand")),
                       rows)


def describe_game(res: GameResult, names: Sequence[str] | None = None,
                  theme: str = "family", extras: Sequence[ResultExtra] = ()) -> ResultWords:
    """A game result in words.

    The headline, notes, the last hand's rows and the final standings as the variant's
    goal orders them.
    """
    rows: tuple[SeatWords, ...] = ()
    if res.last_hand is not None:
        rows = describe_hand(res.last_hand, names, theme).rows
    standing = tuple((_who(s, names), res.totals[s] if res.scored else None)
                     for s in res.standings)
    return ResultWords(game_headline(res, names), tuple(_notes(res, extras, names, "game")),
                       rows, standing)


def describe_result(res: HandResult | GameResult, names: Sequence[str] | None = None,
                    theme: str = "family", extras: Sequence[ResultExtra] = ()) -> ResultWords:
    """A hand or game result in words (see :func:`describe_hand`, :func:`describe_game`)."""
    if isinstance(res, GameResult):
        return describe_game(res, names, theme, extras)
    return describe_hand(res, names, theme, extras)


__all__ = [
    "END_WORDS",
    "REASONS",
    "ResultWords",
    "SeatWords",
    "describe_action",
    "describe_game",
    "describe_hand",
    "describe_line",
    "describe_pending",
    "describe_result",
    "extra_words",
    "game_headline",
    "hand_headline",
    "plural",
]


# --------------------------------------------------------------------------- rule text

_ORIGINAL_WORDS: Final = (("Retaliation", "Fuck You"), ("Big Brother", "Shitter"),
                          ("Virus", "AIDS"))
_ORIGINALLY: Final = re.compile(r"\s*\(originally(?: called)? “[^”]*”\)")

def themed(text: str, theme: str) -> str:
    """Rule text (written with the family names) in the name theme ``theme``.

    The rulebook tells each renamed card's first name once ("Retaliation (originally
    called …)"); people read the name of their theme only: the family theme never shows
    the original names (the strong language it is there to leave out).

    >>> themed("Retaliation (originally called “Fuck You”) doubles", "original")
    'Fuck You doubles'
    >>> themed("Retaliation (originally called “Fuck You”) doubles", "family")
    'Retaliation doubles'
    """
    text = _ORIGINALLY.sub("", text)
    if theme != "original":
        return text
    for family, original in _ORIGINAL_WORDS:
        text = text.replace(family, original)
    return text


_CODE = re.compile(r"`([A-Za-z0-9_.+-]+)`(?:\s*=\s*`([^`]+)`)?")


def for_people(text: str, game: str, theme: str = "family") -> str:
    """Rule text for people: option identifiers become their titles, in ``theme``.

    The rulebook names options as code (`` `stack_draw_twos` = `true` ``); a player reads
    the option's title and the value in words instead.

    >>> for_people("with `shitter_last_card_needs_match` on", "hotdeath")
    'with “Big Brother as the last card” on'
    >>> for_people("with `uno_rule` = `off`, nobody calls", "hotdeath", "original")
    'with “Calling Uno” set to “No Uno call”, nobody calls'
    """
    from hotdeath.variants import get_variant

    v = get_variant(game)
    specs = {s.name: s for s in v.option_specs()}
    values = {str(val): text for s in specs.values() for val, text in s.labels}
    values.update({p: v.preset_title(p) for p in v.presets})

    def swap(m: re.Match[str]) -> str:
        name, value = m.group(1), m.group(2)
        spec = specs.get(name)
        if spec is None:
            if value is None and name in values:
                return f"“{values[name]}”"
            return m.group(0).replace("`", "")
        title = spec.title or name
        if value is None:
            return f"“{title}”"
        try:
            words = spec.words(spec.coerce(value))
        except Exception:  # a value the option does not take: say it as written
            words = value
        return f"“{title}” set to “{words}”"

    return themed(_CODE.sub(swap, text), theme)


def at_table(rule_id: str, variant: str, preset: str, options: Mapping[str, Any],
             theme: str = "family") -> list[str]:
    """The values a table gives the options rule ``rule_id`` names, where its text differs.

    The rulebook's text describes each option's default ("until a total reaches 500");
    at a table whose preset or house rules set another value, this says the table's own
    (``["Title: value", …]``, in the table's name theme).

    >>> at_table("STD-9.4", "standard", "official", {"target_score": 60})
    ['Points to end the game: 60']
    >>> at_table("STD-9.4", "standard", "official", {})
    []
    """
    from hotdeath.options import as_dict
    from hotdeath.rulebook import RULES
    from hotdeath.variants import get_variant

    rule = RULES.get(rule_id)
    if rule is None or not rule.options:
        return []
    v = get_variant(variant)
    specs = {s.name: s for s in v.option_specs()}
    values = as_dict(v.resolve_options(preset, dict(options)))
    out = []
    for name in rule.options:
        spec = specs.get(name)
        if spec is None or values[name] == spec.default:
            continue
        out.append(f"{themed(spec.title or name, theme)}: "
                   f"{themed(spec.words(values[name]), theme)}")
    return out


def house_rules(
    variant: str, preset: str, options: Mapping[str, Any], theme: str = "family"
) -> list[dict[str, Any]]:
    """The options a table changes from its preset, in people's words (name theme ``theme``).

    >>> house_rules("standard", "official", {"seven_o": True})[0]["text"]
    'Sevens and zeros (7-0): yes'
    """
    from hotdeath.variants import get_variant

    v = get_variant(variant)
    out = []
    for spec in v.option_specs():
        if spec.name not in options:
            continue
        title = themed(spec.title or spec.name, theme)
        words = themed(spec.words(options[spec.name]), theme)
        out.append({"name": spec.name, "title": title, "value": words,
                    "sentence": themed(spec.sentence, theme), "rule": spec.rule,
                    "text": f"{title}: {words}"})
    return out
