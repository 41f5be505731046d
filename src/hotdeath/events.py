"""Events: what an applied action made happen, and the rule that made it happen.

An :class:`Event` is a small immutable value.  ``cards`` may be secret: when ``hidden``
is true only ``seat`` (and ``target``, for a private show of hand) may see them, and
:meth:`Event.for_seat` strips them for everyone else.  :func:`describe` renders an event
in words for a log, with card names from a name theme.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from hotdeath.cards import COLOR_NAMES, card_name

Info = tuple[tuple[str, int], ...]


class Event(NamedTuple):
    """Something that happened, with the id of the rule (see ``hotdeath.rulebook``).

    A named tuple: cheap to build on the hot path, immutable, compared by value.
    """

    kind: str
    seat: int
    rule: str
    cards: tuple[int, ...] = ()
    n: int = 0
    target: int = -1
    color: int = -1
    hidden: bool = False
    info: Info = ()

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event's cards."""
        return not self.hidden or (seat is not None and seat in (self.seat, self.target))

    def for_seat(self, seat: int | None) -> Event:
        """The event as ``seat`` may see it (secret cards removed for others)."""
        if self.visible_to(seat):
            return self
        return self._replace(cards=())

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (card codes, colour names)."""
        from hotdeath.cards import card_code

        d: dict[str, object] = {"kind": self.kind, "seat": self.seat, "rule": self.rule}
        if self.cards:
            d["cards"] = [card_code(c) for c in self.cards]
        if self.n:
            d["n"] = self.n
        if self.target >= 0:
            d["target"] = self.target
        if self.color >= 0:
            d["color"] = COLOR_NAMES[self.color]
        if self.hidden:
            d["hidden"] = True
        if self.info:
            d["info"] = [[k, v] for k, v in self.info]
        return d


def _cards(cards: Sequence[int], theme: str) -> str:
    return ", ".join(card_name(c, theme) for c in cards)


def _who(seat: int, names: Sequence[str] | None) -> str:
    if seat < 0:
        return "nobody"
    if names is not None and seat < len(names):
        return names[seat]
    return f"P{seat}"


SCORE_LABELS: dict[str, str] = {
    "winner": "won the hand",
    "last_standing": "last player standing",
    "all_bastards": "all four bastard cards",
    "cards": "cards",
    "combo_1000": "Quitter + Retaliation",
    "sixty_nine": "the 69",
    "magic_red_5": "Magic Red 5",
    "retaliation": "Retaliation doubles",
    "holy_defender": "Holy Defender halves",
    "big_brother": "Big Brother takes the highest hand",
    "virus": "Virus infections",
    "team": "points of the opposing team",
    "opponents": "points in the opponents' hands",
}
"""What each step of a ``score`` event's info means, in words (the server sends it)."""


def describe(
    event: Event,
    theme: str = "family",
    names: Sequence[str] | None = None,
    viewer: int | None = None,
) -> str:
    """Render ``event`` in plain words (as ``viewer`` may see it), ending with the rule id."""
    e = event.for_seat(viewer)
    who = _who(e.seat, names)
    tgt = _who(e.target, names)
    col = COLOR_NAMES[e.color] if e.color >= 0 else ""
    cards = _cards(e.cards, theme)
    k = e.kind
    text: str
    if k == "dealer":
        text = f"{who} deals first"
        if e.n > 1:  # a new draw for the deal of a later hand (n: that hand's number)
            text = f"{who} wins the draw for the deal of hand {e.n}"
    elif k == "deal":
        text = f"{who} deals {e.n} cards to each player"
    elif k == "up_card":
        text = f"the first card turned up is {cards}"
    elif k == "color":
        text = f"{who} names {col}"
    elif k == "play":
        text = f"{who} plays {cards}"
        if col:
            text += f" and names {col}"
        if e.target >= 0:
            text += f", choosing {tgt}"
    elif k == "draw":
        text = f"{who} draws {e.n} card{'s' if e.n != 1 else ''}"
        if e.cards:
            text += f" ({cards})"
    elif k == "pass":
        text = f"{who} passes"
    elif k == "skip":
        text = f"{who} is skipped"
    elif k == "reverse":
        text = "the direction of play reverses"
    elif k == "attack":
        text = f"{tgt} must answer: draw {e.n}" if e.n else f"{tgt} must answer the attack"
    elif k == "eject_attack":
        text = f"{tgt} must answer an ejection"
    elif k == "reveal_attack":
        text = f"{tgt} must answer a Glasnost reveal"
    elif k == "stack":
        text = f"{who} stacks: {tgt} now faces {e.n}"
    elif k == "redirect":
        text = f"{who} passes the attack on to {tgt}"
    elif k == "retaliate":
        text = f"{who} sends the attack back to {tgt}"
    elif k == "cancel":
        text = f"{who} cancels the attack"
    elif k == "virus":
        text = f"{who} shares the attack with {tgt}"
    elif k == "accept":
        text = f"{who} accepts"
    elif k == "reveal":
        text = f"{who} shows their hand: {cards}" if cards else f"{who} shows their hand"
        if e.hidden and e.target >= 0:
            text = f"{who} shows their hand to {tgt}" + (f": {cards}" if cards else "")
    elif k == "eject":
        text = f"{who} is ejected from the hand"
    elif k == "shield":
        text = f"{who} shows the Blue Shield: {tgt} draws instead"
    elif k == "irish":
        text = f"{who} shows Luck o' the Irish and draws one card fewer"
    elif k == "uno":
        text = f"{who} calls Uno"
        if e.target >= 0:
            text += f" and makes {tgt} draw"
    elif k == "catch":
        text = f"{who} catches {tgt} without an Uno call"
    elif k == "challenge":
        text = f"{who} challenges {tgt}"
    elif k == "challenge_result":
        text = f"the challenge against {who} {'succeeds' if e.n else 'fails'}"
    elif k == "question":
        text = f"{who} questions {tgt}'s Wild Draw Four: it was {'legal' if e.n else 'illegal'}"
    elif k == "sixty_nine":
        text = f"{who} shows the 69"
    elif k == "swap":
        text = f"{who} swaps hands with {tgt}"
    elif k == "rotate":
        text = "every hand passes one seat on"
    elif k == "no_effect":
        text = f"{cards} has no effect"
    elif k == "out":
        text = f"{who} has no cards left"
    elif k == "hand_end":
        text = f"the hand ends: {who} wins it" if e.seat >= 0 else "the hand ends with no winner"
    elif k == "score":
        steps = " → ".join(
            f"{SCORE_LABELS.get(lbl, lbl)} +{v}" if lbl == "virus"
            else f"{SCORE_LABELS.get(lbl, lbl)}: {v}"
            for lbl, v in e.info
        )
        text = f"{who} scores {e.n}" + (f" [{steps}]" if steps else "")
    elif k == "game_end":
        text = f"the game ends: {who} wins"
    elif k == "team_win":
        text = f"{who}'s team wins"
    elif k == "blocked":
        text = "nobody can play or draw any more: the hand is blocked"
    elif k == "reshuffle":
        text = f"the discard pile is shuffled into a new draw pile ({e.n} cards)"
    elif k == "forgiven":
        text = f"{who} cannot draw {e.n} more card{'s' if e.n != 1 else ''}: no cards left"
    elif k == "direction":
        text = f"{who} chooses {'clockwise' if e.n == 1 else 'counter-clockwise'} play"
    elif k == "throwdown":
        text = f"Throwdown! {tgt} must answer a draw pot of {e.n}"
    elif k == "take_pot":
        text = f"{who} draws the Throwdown pot of {e.n}"
    elif k == "false_call":
        text = f"{who} calls Uno wrongly" + (f" on {tgt}" if e.target >= 0 else "")
    elif k == "rejoin":
        text = f"{who} holds cards again and is back in the game"
    elif k == "decline":
        text = f"{who} refuses to be called back"
    elif k == "leave":
        text = f"{who} leaves the table"
    elif k == "loser":
        text = f"{who} is the loser"
    else:
        text = f"{k} ({who})"
    return f"{text}  [{e.rule}]"
