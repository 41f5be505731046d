"""The coach: a hint for a seat's decision and a review of a hand, from that seat's view.

:func:`hint` answers "what would a strong player do?": it searches the seat's
:class:`~hotdeath.view.View` with the ``ismcts`` bot (whose determinisations are dealt
from the view alone: :class:`~hotdeath.bots.ismcts.Sampler`) within a time or iteration
budget and returns the best moves, each with its estimated chance to win the hand and a
one-line reason in words.  Nothing but the view reaches the search, so a hint can never
use a card the seat cannot know; :func:`view_digest` names the exact input (a test
re-deals the hidden cards of a position and checks that it, and the hint, are unchanged).

:func:`review` replays a game record and, for each decision of the seats asked about in
one hand, asks the same search what it thought best from that seat's view at that moment
and what the move played cost (in estimated chance to win the hand); the two or three
costliest moves are the hand's mistakes, each with the rule of the card behind it.

Words name cards through a name theme (:func:`hotdeath.cards.card_name`) and seats by the
names given; no card code or option id reaches a person.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots.heuristic import HeuristicBot, _Table
from hotdeath.bots.ismcts import SURE_Z, IsmctsBot, Sampler, _searched
from hotdeath.cards import (
    BB,
    COLOR_NAMES,
    FACE_COLOR,
    FACE_KIND,
    HOLY,
    IS_WILD,
    M5,
    NUMBER,
    QUIT,
    RET,
    VIR,
    WD4,
    card_name,
)
from hotdeath.errors import HotDeathError
from hotdeath.events import Event
from hotdeath.pending import DrawAttack, Ejection, Pot
from hotdeath.state import GameState
from hotdeath.variants.base import VariantKit
from hotdeath.view import View
from hotdeath.words import describe_action, plural

TOP: Final = 3
"""How many moves a hint shows."""
HINT_SECONDS: Final = 1.0
"""The default thinking time of a hint."""
MISTAKES: Final = 3
"""How many of a hand's costliest moves a review names."""
MISTAKE_COST: Final = 0.05
"""The least cost (in chance to win the hand) that a review calls a mistake."""
SEARCH: dict[str, Any] = {"pick": "sure"}
"""The settings of the coach's search (:class:`~hotdeath.bots.ismcts.IsmctsBot` keywords
other than the budget): the expert heuristic's move unless the search is sure of a better
one, so that near-equal moves resolve the same way at any budget."""
SHRINK: Final = 4
"""A review values each move as if it had this many more tries at the position's mean."""

_ATTACKS: Final = frozenset({"attack", "stack", "throwdown"})
"""Events of a play that set an attack on a seat (its ``target``, ``n`` cards)."""


class CoachError(HotDeathError):
    """A hint or review that cannot be given (no seat, no decision, a bad record)."""


def _rule_of(variant: str, face: int) -> str:
    """The rule id of what ``face`` does in ``variant`` ('' when the kit knows none)."""
    from hotdeath.variants import get_variant

    try:
        return get_variant(variant).kit.card_rule(face)
    except (HotDeathError, KeyError, ValueError):
        return ""


def view_digest(view: View) -> str:
    """A digest of everything a hint is computed from: the seat's view, nothing more."""
    text = json.dumps(view.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Move:
    """One move of a hint: what it is, its estimated value and why."""

    action: Action
    words: str
    """The move in words (cards in the theme, seats by name)."""
    value: float | None
    """Estimated chance to win the hand after it (0–1; None: not searched, the only move)."""
    visits: int
    """Sampled deals the search tried it in."""
    reason: str
    """One line in words: what the move does for the seat."""
    rule: str = ""
    """The rule id of the card the move plays ('' for none)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the action in notation for the client, words for people)."""
        return {
            "action": str(self.action), "words": self.words,
            "value": None if self.value is None else round(self.value, 3),
            "visits": self.visits, "reason": self.reason, "rule": self.rule,
        }


def percent(value: float | None) -> str:
    """A value as people read it: ``42%`` (``—`` when there is none).

    >>> percent(0.4249), percent(None)
    ('42%', '—')
    """
    return "—" if value is None else f"{round(100 * value)}%"


@dataclass(frozen=True, slots=True)
class Hint:
    """The coach's answer for one decision of one seat."""

    seat: int
    hand_no: int
    moves: tuple[Move, ...]
    """The best moves, best first (at most :data:`TOP`)."""
    iterations: int
    """Search iterations run (0: no search was needed)."""
    seconds: float
    """Wall time the hint took."""
    digest: str
    """:func:`view_digest` of the view it was computed from."""
    why: str = ""
    """Why the coach's move is not the one with the highest figure shown, in words ('' when
    it is): the search is not sure that the other move is better (``pick=sure``)."""

    @property
    def best(self) -> Move:
        """The move the coach would play."""
        return self.moves[0]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "seat": self.seat, "hand_no": self.hand_no,
            "moves": [m.to_json() for m in self.moves],
            "iterations": self.iterations, "seconds": round(self.seconds, 3),
            "why": self.why,
        }

    def lines(self) -> list[str]:
        """The hint in words, one line per move (best first); :attr:`why` goes beside them."""
        out = []
        for i, m in enumerate(self.moves):
            lead = "Best:" if i == 0 else f"{i + 1}."
            chance = "" if m.value is None else f" (wins the hand {percent(m.value)})"
            out.append(f"{lead} {m.words}{chance} — {m.reason}")
        return out


# ------------------------------------------------------------------ reasons


def _who(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"P{seat}"


def _rest(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    out = list(hand)
    for c in cards:
        if c in out:
            out.remove(c)
    return out


def _cards(view: View, seat: int) -> str:
    return plural(view.seats[seat].hand_size, "card")


def _seats(seats: Sequence[int], names: Sequence[str] | None, view: View | None = None,
           draws: Sequence[int] | None = None) -> str:
    """Seats in words, ``P1 and P2``.

    Each with its hand size when ``view`` is given, and ``draw N`` after each when
    ``draws`` gives the cards each draws.
    """
    said = [_who(s, names) + (f" ({_cards(view, s)})" if view is not None else "")
            + (f" draw {draws[i]}" if draws is not None else "")
            for i, s in enumerate(seats)]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _kit(view: View) -> VariantKit:
    from hotdeath.variants import get_variant

    return get_variant(view.variant).kit


_DEALT: tuple[View, GameState | None] | None = None
"""The last view dealt for :func:`effects_of` and its deal (hints ask about a few moves of
one view in a row)."""


def effects_of(view: View, action: Action) -> list[Event]:
    """What the engine says ``action`` does from ``view``: the events of applying it.

    The action is applied with :meth:`~hotdeath.state.GameState.apply_action` to a deal
    consistent with the view (:class:`~hotdeath.bots.ismcts.Sampler`'s first deal of the
    unseen cards), so the words built from the events (who is attacked, with how many
    cards, who is skipped) follow the variant's rules and options, never a copy of them.
    Empty when the view cannot be dealt (a spectator's) or the action is not legal.
    """
    global _DEALT
    if view.seat is None:
        return []
    last = _DEALT
    if last is not None and last[0] is view:
        state = last[1]
    else:
        try:
            state = Sampler(view).template
        except (HotDeathError, ValueError):
            state = None
        _DEALT = (view, state)
    if state is None:
        return []
    try:
        return state.clone().apply_action(action, view.seat)
    except HotDeathError:
        return []


def reason(view: View, action: Action, names: Sequence[str] | None = None,
           theme: str = "family") -> str:
    """Why ``action`` is worth playing from ``view``, in one line of words.

    The words use only what the view shows (the seat's hand, hand sizes, the pending
    attack); cards are named in ``theme`` and cite the rule id of what they do.
    """
    me = view.seat if view.seat is not None else 0
    hand = list(view.hand or ())
    k = action.kind
    attack = view.attack
    count = attack.count if isinstance(attack, (DrawAttack, Pot)) else 0
    sender = attack.sender if attack is not None else -1
    parts: list[str] = []
    spent: set[int] = set(action.cards)
    if k == A.PLAY:
        f = action.cards[0]
        name = card_name(f, theme)
        rule = _rule_of(view.variant, f) if FACE_KIND[f] != NUMBER or IS_WILD[f] else ""
        cite = f" ({rule})" if rule else ""
        rest = _rest(hand, action.cards)
        if not rest:
            return f"goes out with the {name}{cite}: the hand ends and you win it"
        under_attack = attack is not None and attack.victim == me
        effects = effects_of(view, action)
        hit = next((e for e in effects if e.kind in _ATTACKS and e.target >= 0), None)
        # an attack nobody may answer is drawn at once (a Draw Two in standard Uno, a Spreader)
        drawers = [e for e in effects if e.kind == "draw" and e.seat != me and e.n]
        struck = {e.seat for e in drawers} | ({hit.target} if hit is not None else set())
        skipped = [e.seat for e in effects
                   if e.kind == "skip" and e.seat != me and e.seat not in struck]
        if under_attack and view.phase == "response":
            if f == HOLY:
                parts.append(f"the {name}{cite} stops the attack"
                             + (f" of {plural(count, 'card')}" if count else ""))
            elif f == M5:
                parts.append(f"the {name}{cite} answers the attack for only 5 points")
            elif f == RET:
                parts.append(f"the {name}{cite} turns the attack back on {_who(sender, names)}"
                             if sender >= 0 else f"the {name}{cite} turns the attack back")
            elif f == VIR:
                parts.append(f"the {name}{cite} shares the attack")
            elif hit is not None:
                parts.append(f"stacks the {name}{cite}: {_who(hit.target, names)} "
                             f"({_cards(view, hit.target)}) faces a bigger attack"
                             + (f" of {plural(hit.n, 'card')}" if hit.n else ""))
            else:
                parts.append(f"answers the attack with the {name}{cite}")
        elif f == BB:
            parts.append(f"gets rid of the {name}{cite} while you may: held at the end of "
                         "the hand it costs you dearly")
        elif hit is not None:
            verb = "face a pot of" if hit.kind == "throwdown" else "draw"
            parts.append(f"the {name}{cite} makes {_who(hit.target, names)} "
                         f"({_cards(view, hit.target)}) {verb} {hit.n}"
                         + (f", skipping {_seats(skipped, names)}" if skipped else ""))
        elif drawers and not under_attack:
            counts = {e.n for e in drawers}
            each = " each" if len(drawers) > 1 else ""
            said = (f"{_seats([e.seat for e in drawers], names, view)} draw {drawers[0].n}{each}"
                    if len(counts) == 1 else
                    _seats([e.seat for e in drawers], names, view, [e.n for e in drawers]))
            parts.append(f"the {name}{cite} makes {said}"
                         + (f", skipping {_seats(skipped, names)}" if skipped else ""))
        elif skipped:
            parts.append(f"the {name}{cite} skips {_seats(skipped, names, view)}")
        elif f == QUIT and RET in rest:
            parts.append(f"breaks up the {name} and {card_name(RET, theme)} pair{cite}")
        else:
            color = action.color if action.color >= 0 else FACE_COLOR[f]
            if color >= 0:
                left = sum(1 for g in rest if FACE_COLOR[g] == color and not IS_WILD[g])
                cname = COLOR_NAMES[color]
                if IS_WILD[f]:
                    parts.append(f"the {name}{cite} names {cname}: you keep "
                                 f"{plural(left, cname + ' card')}")
                elif left:
                    parts.append(f"plays the {name}{cite} and keeps {cname} going "
                                 f"({left} more in your hand)")
                else:
                    parts.append(f"sheds the {name}{cite}")
            else:
                parts.append(f"plays the {name}{cite}")
        if action.target >= 0 and not under_attack:
            parts.append(f"aimed at {_who(action.target, names)} ({_cards(view, action.target)})")
        if action.uno:
            parts.append("with the Uno call")
    elif k == A.DRAW:
        playable = [a for a in view.legal_actions if a.kind == A.PLAY]
        parts.append("no card you may play is worth spending now" if playable
                     else "you have no card you may play")
    elif k == A.PASS:
        parts.append("nothing is worth playing after the draw")
    elif k == A.ACCEPT:
        if isinstance(attack, Ejection):
            parts.append("leaving the hand costs less than the answers you hold")
        else:
            parts.append(f"taking {plural(count, 'card')} costs less than spending an answer"
                         if count else "taking the attack costs less than an answer")
    elif k in (A.CHALLENGE, A.QUESTION):
        parts.append(f"{_who(sender, names)} likely held a card of the colour: the "
                     f"{card_name(WD4, theme)} may not have been allowed"
                     f" ({_rule_of(view.variant, WD4)})")
    elif k == A.COLOR:
        held = sum(1 for g in hand if FACE_COLOR[g] == action.color and not IS_WILD[g])
        parts.append(f"you hold {plural(held, COLOR_NAMES[action.color] + ' card')}")
    elif k == A.VICTIM:
        parts.append(f"{_who(action.target, names)} is the danger ({_cards(view, action.target)})")
    elif k == A.DEAL:
        parts.append("a deal size that suits your standing in the game")
    else:
        parts.append("the move the search liked best")
    kept = [d for d in _kit(view).answers if d in hand and d not in spent]
    if kept and k in (A.PLAY, A.DRAW, A.ACCEPT) and not (
            k == A.PLAY and not _rest(hand, action.cards)):
        d = kept[0]
        rule = _rule_of(view.variant, d)
        parts.append(f"keeps your {card_name(d, theme)}{f' ({rule})' if rule else ''} for a "
                     "later attack")
    return "; ".join(parts)


# ------------------------------------------------------------------ hints


def _checked(view: View) -> int:
    if view.seat is None or view.hand is None:
        raise CoachError("no_seat", "a hint is for a seat: spectators get none")
    if view.phase == "game_over":
        raise CoachError("no_decision", "the game is over")
    if view.current_player != view.seat or not view.legal_actions:
        raise CoachError("no_decision", "a hint is for your own turn")
    return view.seat


def hint(
    view: View,
    seconds: float = HINT_SECONDS,
    iterations: int = 0,
    seed: int | None = None,
    names: Sequence[str] | None = None,
    theme: str = "family",
    top: int = TOP,
) -> Hint:
    """The coach's hint for the seat of ``view`` (its turn): the best ``top`` moves.

    ``iterations`` (> 0) fixes the search's work, with ``seed`` making it exact;
    otherwise it thinks for ``seconds``.  Raises :class:`CoachError` (``no_seat``,
    ``no_decision``) when the view has no decision to hint.
    """
    started = time.perf_counter()
    seat = _checked(view)
    digest = view_digest(view)
    acts = _searched(view.legal_actions) or list(view.legal_actions)
    rng = random.Random(seed)

    def move(a: Action, value: float | None, visits: int) -> Move:
        rule = ""
        if a.cards:
            f = a.cards[0]
            if FACE_KIND[f] != NUMBER or IS_WILD[f]:
                rule = _rule_of(view.variant, f)
        return Move(a, describe_action(a, names, theme), value, visits,
                    reason(view, a, names, theme), rule)

    moves: list[Move] = []
    done = 0
    why = ""
    if len(acts) == 1:
        moves.append(Move(acts[0], describe_action(acts[0], names, theme), None, 0,
                          "the only move you have"))
    elif view.phase == "deal":
        helper = HeuristicBot("expert")
        table = _Table(view, helper.aggression)
        ranked = sorted(acts, key=lambda a: -helper._score(table, a, rng))
        moves = [move(a, None, 0) for a in ranked[:top]]
    else:
        bot = IsmctsBot(iterations=iterations, seconds=seconds if seconds > 0 else HINT_SECONDS,
                        **SEARCH)
        try:
            stats = bot.analyse(view, acts, rng)
        except ValueError:
            stats = []
        done = bot.last_iterations
        if not stats:
            choice = HeuristicBot("expert").choose(view, rng) or acts[0]
            moves.append(move(choice, None, 0))
        else:
            moves = [move(a, value, visits) for a, visits, value in stats[:top]]
            why = _why(bot, moves)
    return Hint(seat, view.hand_no, tuple(moves), done, time.perf_counter() - started, digest,
                why)


def _points(value: float) -> int:
    """A value as the whole percentage points people read (:func:`percent`)."""
    return round(100 * value)


def _why(bot: IsmctsBot, moves: Sequence[Move]) -> str:
    """Why the coach names ``moves[0]`` when another shown move has a higher figure.

    '' when the first move's figure is the highest shown (as people read it, in whole
    points).  Otherwise the words say what the search measured (:func:`_doubt`), so the
    screen never shows a contradiction without its reason.
    """
    best = moves[0]
    if best.value is None:
        return ""
    shown = [m for m in moves[1:] if m.value is not None
             and _points(m.value) > _points(best.value)]
    if not shown:
        return ""
    rival = max(shown, key=lambda m: m.value or 0.0)
    assert rival.value is not None
    lead = _points(rival.value) - _points(best.value)
    return (f"Why not {rival.words}? It shows {lead} more "
            f"{'point' if lead == 1 else 'points'} of chance, but "
            f"{_doubt(bot, rival.action, best.action)}.")


def _doubt(bot: IsmctsBot, rival: Action, chosen: Action) -> str:
    """Why the search plays ``chosen`` although ``rival``'s mean is higher, in words.

    ``pick=sure`` keeps the expert player's move until another leads it by at least
    ``margin`` and :data:`~hotdeath.bots.ismcts.SURE_Z` standard errors; a move tried on
    few deals has a wide noise.
    """
    measured = bot.lead_over(rival, chosen)
    kept = bot.favourite == chosen
    tail = ("the coach keeps the move an expert player would make until the search is sure "
            "of a better one" if kept else "the coach plays the move the search is surest of")
    if measured is None:
        return f"it was tried on too few sampled deals to tell: {tail}"
    lead, se, tries = measured
    deals = plural(tries, "sampled deal")
    if lead < bot.margin or lead < SURE_Z * se:
        noise = max(1, round(100 * SURE_Z * se))
        return f"over {deals} that lead is within the noise (±{noise} points): {tail}"
    return (f"the search tried it on fewer deals ({deals}) than the move it weighed against "
            f"the expert player's: {tail}")


# ------------------------------------------------------------------ reviews


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a seat in a reviewed hand."""

    index: int
    """The action's place in the record (1 for the first action)."""
    seat: int
    played: Action
    played_words: str
    best: Move
    """What the search thought best from the seat's view at that moment."""
    played_value: float | None
    """The estimated chance to win the hand after the move played (None: not searched)."""
    rule: str = ""
    """The rule behind the decision ('' when none): of a card played, or the attack's."""
    why: str = ""
    """Why the coach's move differs although the move played shows at least its figure, in
    words ('' otherwise)."""

    @property
    def cost(self) -> float:
        """What the move played cost against the best, in chance to win the hand (≥ 0)."""
        if self.best.value is None or self.played_value is None:
            return 0.0
        return max(0.0, self.best.value - self.played_value)

    @property
    def agreed(self) -> bool:
        """Whether the seat played the search's move."""
        return self.played == self.best.action

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "index": self.index, "seat": self.seat, "played": str(self.played),
            "played_words": self.played_words, "best": self.best.to_json(),
            "played_value": None if self.played_value is None else round(self.played_value, 3),
            "cost": round(self.cost, 3), "agreed": self.agreed, "rule": self.rule,
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one hand for some seats: every decision and the biggest mistakes."""

    hand_no: int
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    seconds: float
    complete: bool
    """False when the budget ran out before every decision was searched."""

    @property
    def mistakes(self) -> list[Decision]:
        """The costliest moves (at most :data:`MISTAKES`, each costing ≥ :data:`MISTAKE_COST`)."""
        worst = sorted((d for d in self.decisions if d.cost >= MISTAKE_COST),
                       key=lambda d: (-d.cost, d.index))
        return worst[:MISTAKES]

    def to_json(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        """A JSON-ready dict with the review's lines in words."""
        return {
            "hand_no": self.hand_no, "seats": list(self.seats),
            "decisions": [d.to_json() for d in self.decisions],
            "mistakes": [d.index for d in self.mistakes],
            "seconds": round(self.seconds, 3), "complete": self.complete,
            "lines": self.lines(names),
        }

    def lines(self, names: Sequence[str] | None = None) -> list[str]:
        """The review in words: a summary, each decision, then the biggest mistakes."""
        who = ", ".join(_who(s, names) for s in self.seats)
        agreed = sum(1 for d in self.decisions if d.agreed)
        out = [f"Hand {self.hand_no}, {who}: {plural(len(self.decisions), 'decision')}, "
               f"{agreed} as the coach would have played"
               + ("" if self.complete else " (the time ran out: not every move was reviewed)")]
        for d in self.decisions:
            mark = "✓" if d.agreed else ("✗" if d.cost >= MISTAKE_COST else "·")
            line = f"{mark} {d.index}. {_who(d.seat, names)}: {d.played_words}"
            if not d.agreed:
                line += (f" — the coach: {d.best.words} ({percent(d.best.value)} against "
                         f"{percent(d.played_value)}")
                if d.why:
                    line += f": {d.why}"
                line += ")"
            out.append(line)
        worst = self.mistakes
        if worst:
            out.append("Biggest mistakes:")
            for d in worst:
                rule = f" [{d.rule}]" if d.rule else ""
                out.append(f"- {d.index}. {d.played_words} cost about {round(100 * d.cost)} "
                           f"points of chance to win the hand ({percent(d.best.value)} → "
                           f"{percent(d.played_value)}): better {d.best.words} — "
                           f"{d.best.reason}{rule}")
        else:
            out.append("No mistake worth naming.")
        return out


def _decision_rule(view: View, best: Action, played: Action) -> str:
    """The rule behind a decision ('' when none).

    The rule of the card the coach would play, else of the card played, else of the card
    of the attack being answered.
    """
    for a in (best, played):
        if a.cards:
            rule = _rule_of(view.variant, a.cards[0])
            if rule:
                return rule
    attack = view.attack
    card = getattr(attack, "last_card", -1) if attack is not None else -1
    if isinstance(card, int) and card >= 0:
        return _rule_of(view.variant, card)
    return ""


def hand_ranges(rec: Mapping[str, Any]) -> dict[int, tuple[int, int]]:
    """Each hand of a record: the (first, last) index of its actions (1-based)."""
    from hotdeath.notation import replay

    state = replay(rec, upto=0)
    ranges: dict[int, list[int]] = {}
    acts = rec.get("actions", [])
    for i, (seat, text) in enumerate(acts, start=1):
        hand = state.current_hand()
        ranges.setdefault(hand, [i, i])[1] = i
        state.step(Action.parse(text), seat)
    return {h: (a, b) for h, (a, b) in ranges.items()}


def review(
    rec: Mapping[str, Any],
    hand_no: int,
    seats: Sequence[int],
    seconds: float = 0.3,
    budget: float = 30.0,
    iterations: int = 0,
    seed: int = 0,
    names: Sequence[str] | None = None,
    theme: str = "family",
) -> Review:
    """Review hand ``hand_no`` of a game record for ``seats`` (the people).

    Each decision of those seats on their own turn (with more than one move worth
    searching) is searched from the seat's view at that moment for ``seconds`` (or
    ``iterations``), the whole review for at most about ``budget`` seconds; the moves
    played are valued by the same search (the coach's: :data:`SEARCH`).  Each decision's
    search is seeded from the record (:func:`decision_seed`: the record's seed, the action's
    place and the seat, mixed with ``seed``), so with ``iterations`` the same record gives
    the same review every time, whichever seats and hands are asked about.  Raises
    :class:`CoachError` (``bad_record``, ``no_hand``) for a record that cannot be replayed
    or a hand it does not hold.
    """
    from hotdeath.notation import replay

    started = time.perf_counter()
    try:
        ranges = hand_ranges(rec)
        state = replay(rec, upto=0)
    except HotDeathError as e:
        raise CoachError("bad_record", e.message) from None
    except (TypeError, ValueError) as e:
        raise CoachError("bad_record", f"malformed record: {e}") from None
    if hand_no not in ranges:
        have = ", ".join(str(h) for h in sorted(ranges)) or "none"
        raise CoachError("no_hand", f"the record has no hand {hand_no} (hands: {have})")
    first, last = ranges[hand_no]
    acts = rec["actions"]
    for seat, text in acts[:first - 1]:
        state.step(Action.parse(text), seat)
    wanted = set(seats)
    todo: list[tuple[int, int, Action, View]] = []
    for i in range(first, last + 1):
        seat, text = acts[i - 1]
        action = Action.parse(text)
        if seat in wanted and state.current_player() == seat:
            view = state.view(seat)
            if len(_searched(view.legal_actions)) > 1 and view.phase != "deal":
                todo.append((i, seat, action, view))
        state.step(action, seat)
    decisions: list[Decision] = []
    complete = True
    for n, (i, seat, action, view) in enumerate(todo):
        left = budget - (time.perf_counter() - started)
        if iterations <= 0 and left <= 0.02:
            complete = False
            break
        per = min(seconds, left / (len(todo) - n)) if iterations <= 0 else seconds
        acts_here = _searched(view.legal_actions)
        if action not in acts_here and action.kind == A.PLAY:
            acts_here = [*acts_here, action]  # a play without its Uno call is valued too
        bot = IsmctsBot(iterations=iterations, seconds=max(per, 0.01), **SEARCH)
        rng = random.Random(decision_seed(rec, i, seat, seed))
        try:
            stats = bot.analyse(view, acts_here, rng)
        except ValueError:
            continue
        if not stats:
            continue
        # each move's value shrunk toward the mean of the position by SHRINK visits' worth,
        # so that a move the search tried only a few times cannot make a big "mistake"
        tried = sum(n for _, n, _ in stats) or 1
        mean = sum(v * n for _, n, v in stats) / tried
        values = {a: (v * n + mean * SHRINK) / (n + SHRINK) for a, n, v in stats}
        a0, visits0, _ = stats[0]
        v0 = values[a0]
        best = Move(a0, describe_action(a0, names, theme), v0, visits0,
                    reason(view, a0, names, theme),
                    _rule_of(view.variant, a0.cards[0]) if a0.cards else "")
        played = values.get(action)
        why = (_doubt(bot, action, a0) if action != a0 and played is not None
               and _points(played) >= _points(v0) else "")
        decisions.append(Decision(i, seat, action, describe_action(action, names, theme),
                                  best, played, _decision_rule(view, a0, action), why))
    return Review(hand_no, tuple(sorted(wanted)), tuple(decisions),
                  time.perf_counter() - started, complete)


def decision_seed(rec: Mapping[str, Any], index: int, seat: int, salt: int = 0) -> int:
    """The seed of the coach's search of decision ``index`` (1-based) of ``seat`` in a record.

    A hash (BLAKE2b, 63 bits) of the record's seed, the decision's place and seat, and
    ``salt``: the same decision is searched with the same dice in every review of the
    record, whatever else the review covers.

    >>> rec = {"seed": 7}
    >>> decision_seed(rec, 3, 1) == decision_seed(rec, 3, 1) != decision_seed(rec, 4, 1)
    True
    """
    text = f"review:{rec.get('seed')}:{index}:{seat}:{salt}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def hints_used(hints: Sequence[Sequence[int]], players: int) -> list[int]:
    """How many hints each seat used, from a record's ``hints`` ([seat, action index] pairs).

    >>> hints_used([[0, 3], [0, 9], [2, 4]], 3)
    [2, 0, 1]
    """
    counts = Counter(int(h[0]) for h in hints if h and 0 <= int(h[0]) < players)
    return [counts.get(s, 0) for s in range(players)]


def hints_line(hints: Sequence[Sequence[int]], players: int,
               names: Sequence[str] | None = None) -> str:
    """Who used hints, in words ('' when nobody did).

    >>> hints_line([[0, 3], [0, 9], [2, 4]], 3, ["Ann", "Bo", "Cy"])
    'Ann used 2 hints; Cy used 1 hint.'
    """
    counts = hints_used(hints, players)
    said = [f"{_who(s, names)} used {plural(c, 'hint')}" for s, c in enumerate(counts) if c]
    return "; ".join(said) + "." if said else ""


__all__ = [
    "HINT_SECONDS",
    "MISTAKES",
    "MISTAKE_COST",
    "TOP",
    "CoachError",
    "Decision",
    "Hint",
    "Move",
    "Review",
    "decision_seed",
    "effects_of",
    "hand_ranges",
    "hint",
    "hints_line",
    "hints_used",
    "percent",
    "reason",
    "review",
    "view_digest",
]
