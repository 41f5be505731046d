"""The ``heuristic`` bot: a rule-of-thumb player with a skill and an aggression level.

It scores every legal action from what its view shows (its hand, hand sizes, scores, the
pending attack, revealed cards) and plays the best one.  The Hot Death sense follows the
strategy facts of the rules analysis (``rules/hot-death.md`` §6) in its own way:

* **Shedding.**  Playing beats drawing; going out beats everything; cards of the colour it
  holds most of are played first and a wild names that colour.  When an opponent is close
  to going out it dumps its most expensive cards first (card points of the variant).
* **Wilds.**  A strong or expert bot keeps wilds and Hot Death's draw cards for later
  (defence by stacking, or to go out) while nobody is close to going out.
* **Hot Death cards.**  The Big Brother goes as soon as it may (holding it scores the
  highest hand at the table); the Holy Defender and the Magic Red 5 are kept (they halve
  the hand / cancel a Hot Death) unless they take it out; the Quitter is held for a
  player close to going out, except that the Quitter and the Retaliation are never kept
  together (1000 points); the 69 is kept while the rest of the hand is worth more than 69;
  M.A.D. is played when its own hand is cheap and the victim dangerous.
* **Attacks.**  Under attack it compares what accepting costs (cards to draw, more when
  its hand is small; an ejection costs its hand's points) with what each answer costs
  (the Retaliation and a stacked wild cost little, the Holy Defender is spent on big
  attacks and ejections, the Magic Red 5 always cancels a Hot Death).
* **Aggression** (1–5) sets how hard it goes after others: attack cards played on a
  dangerous next player, and the victim of a Glasnost, a M.A.D., a 7 swap or a
  Throwdown Uno call.  At 1 it spares the opponents (the least threatening seat); at 5 it
  goes after the leader (the best game score) ahead of the player closest to going out.
* **Skill.**  ``weak`` plays a random reasonable move now and then, forgets Uno a third
  of the time and misses catches; ``strong`` plays the full scoring; ``expert`` also
  balances its colours, estimates Wild Draw Four challenges from the unseen cards and
  chooses the deal size from its standing.

Out of turn it calls its own Uno, catches a player who forgot, jumps in with an identical
card, and never challenges a 69 play (the engine only allows honest 69 plays).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots import BotParam, register_bot
from hotdeath.cards import (
    BB,
    BS,
    COLORS,
    DOUBLE_SKIP,
    DRAW_TWO,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    GLAS,
    HOLY,
    IS_WILD,
    LOI,
    M5,
    MADC,
    MYS,
    NO_COLOR,
    NUMBER,
    QUIT,
    RET,
    REVERSE,
    REVERSE_SKIP,
    SKIP,
    SN,
    SPREADER,
    VIR,
    WD4,
    WILD,
)
from hotdeath.pending import DrawAttack, Ejection, Pot, Reveal
from hotdeath.variants import get_variant
from hotdeath.view import View

SKILLS: Final = ("weak", "strong", "expert")
"""The skill levels, weakest first."""

# how much the scorer likes an attack of n cards landing on a seat: per card drawn
_PER_CARD: Final = 3.0
BLUFF_RATE: Final = 0.05
"""How often the expert assumes a player who holds the colour in play plays a Wild Draw
Four anyway (a bluff).  The heuristic's own players almost never bluff; people do now and
then.  With 0.05 an expert challenges a sender of about ten cards or more."""
_LOST_CHALLENGE: Final = 2
"""The cards a lost Wild Draw Four challenge adds to the draw (STD-6.4)."""


def card_points(face: int, variant: str) -> int:
    """What ``face`` costs its holder at the end of a hand in ``variant`` (approximate).

    The values are the variant's own (its kit's ``card_points``): Hot Death's follow rule
    HD-1.4 with the hand-dependent cards at typical values, the others the standard ones.

    >>> from hotdeath.cards import parse_card
    >>> card_points(parse_card("HOT"), "hotdeath"), card_points(parse_card("R7"), "standard")
    (100, 7)
    """
    return get_variant(variant).kit.card_points(face)


def hand_points(hand: Sequence[int], variant: str) -> int:
    """An estimate of what ``hand`` scores against its holder (hand-wide cards included)."""
    return get_variant(variant).kit.points_of(hand)


_LOWEST_WINS: dict[tuple[str, str], bool | None] = {}


def _lowest_wins(view: View) -> bool | None:
    """Whether the lowest total wins the view's game (None: no points decide it)."""
    options = view.options
    key = (view.variant, repr(sorted(options.items())) if options else "")
    if key in _LOWEST_WINS:
        return _LOWEST_WINS[key]
    variant = get_variant(view.variant)
    low = variant.goal(variant.resolve_options(None, view.options)).lowest_wins
    if len(_LOWEST_WINS) < 256:
        _LOWEST_WINS[key] = low
    return low


class _Table:
    """What the bot works out from a view once per decision."""

    def __init__(self, view: View, aggression: int) -> None:
        self.view = view
        self.me = view.seat if view.seat is not None else 0
        self.hand: tuple[int, ...] = view.hand or ()
        self.variant = view.variant
        self.kit = get_variant(view.variant).kit
        self.lowest_wins = _lowest_wins(view)
        by_color = [0, 0, 0, 0]
        for f in self.hand:
            c = FACE_COLOR[f]
            if c >= 0 and not IS_WILD[f]:
                by_color[c] += 1
        self.by_color = by_color
        """Non-wild cards of each colour in the hand (by colour index)."""
        self.opponents = [
            s.seat for s in view.seats
            if s.seat != self.me and s.active and s.hand_size > 0
        ]
        sizes = [view.seats[s].hand_size for s in self.opponents]
        self.min_opp = min(sizes) if sizes else 99
        self.danger = self.min_opp <= 2
        self.aggression = aggression
        self.lead_weight = (0.0, 0.1, 0.2, 0.6, 2.0)[aggression - 1]
        self.next_seat = view.next_seat(self.me)
        self._hand_value = -1
        self.uno_plays = any(a.uno for a in view.legal_actions)
        self.forget_uno = False

    @property
    def hand_value(self) -> int:
        """What the hand would cost at the end of the hand (worked out when first asked)."""
        if self._hand_value < 0:
            self._hand_value = self.kit.points_of(self.hand)
        return self._hand_value

    def draw_victim(self, face: int) -> int:
        """The seat a draw card ``face`` played now would attack (the variant says)."""
        hook = self.kit.draw_victim
        return hook(self.view, face, self.me) if hook is not None else self.next_seat

    def leadership(self, seat: int) -> float:
        """0..1: how well ``seat`` stands in the game (1: the leader)."""
        v = self.view
        scores = [s.score for s in v.seats]
        lo, hi = min(scores), max(scores)
        if hi == lo or self.lowest_wins is None:  # no points decide the game
            return 0.5
        x = (scores[seat] - lo) / (hi - lo)
        return 1.0 - x if self.lowest_wins else x

    def threat(self, seat: int) -> float:
        """How dangerous ``seat`` is now: closeness to going out plus game lead."""
        size = self.view.seats[seat].hand_size
        close = 1.0 / max(size, 1)
        return close + self.lead_weight * self.leadership(seat)

    def victim(self, seats: Sequence[int]) -> int:
        """The seat to hit among ``seats``, per aggression (1: the least threatening)."""
        if self.aggression <= 1:
            return min(seats, key=lambda s: (self.threat(s), s))
        return max(seats, key=lambda s: (self.threat(s), -s))

    def attack_factor(self, seat: int) -> float:
        """Multiplier of the value of hurting ``seat`` (aggression and threat)."""
        base = 0.4 + 0.2 * self.aggression
        return base * (0.5 + self.threat(seat))

    def best_color(self, rest: Sequence[int]) -> int:
        """The colour ``rest`` holds most of (ties: red, yellow, green, blue)."""
        counts = Counter(FACE_COLOR[f] for f in rest if not IS_WILD[f])
        if not counts:
            return COLORS[0]
        return max(COLORS, key=lambda c: (counts.get(c, 0), -c))


def _rest(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    out = list(hand)
    for c in cards:
        out.remove(c)
    return out


_SKILL_ERROR: Final = "skill must be one of weak, strong, expert"


class HeuristicBot:
    """A rule-of-thumb bot; see the module docstring for its strategy."""

    name = "heuristic"

    def __init__(self, skill: str = "strong", aggression: int = 3) -> None:
        if skill not in SKILLS:
            raise ValueError(f"{_SKILL_ERROR} (got {skill!r})")
        if not isinstance(aggression, int) or not 1 <= aggression <= 5:
            raise ValueError(f"aggression must be an integer from 1 to 5 (got {aggression!r})")
        self.skill = skill
        self.aggression = aggression
        self.level = SKILLS.index(skill)

    def __repr__(self) -> str:
        return f"HeuristicBot(skill={self.skill!r}, aggression={self.aggression})"

    # ------------------------------------------------------------------ entry point

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """The bot's action (``None``: let an out-of-turn window go by)."""
        acts = view.legal_actions
        if not acts or view.seat is None:
            return None
        table = _Table(view, self.aggression)
        table.forget_uno = self.level == 0 and rng.random() < 0.3
        window = self._window(table, acts, rng)
        if window is not None:
            return window
        if view.current_player != view.seat:
            return None
        main = [a for a in acts if not _is_window(a)]
        if not main:
            return None
        if len(main) == 1:
            return main[0]
        # a little noise breaks ties and the rare cycle of repeated positions
        noise = 8.0 if self.level == 0 else 2.0
        scored = [
            (self._score(table, a, rng) + noise * rng.random(), i, a)
            for i, a in enumerate(main)
        ]
        scored.sort(key=lambda t: (-t[0], t[1]))
        if self.level == 0 and rng.random() < 0.3:
            # a weak player's slip: any move that is not far worse than the best
            best = scored[0][0]
            near = [a for s, _, a in scored if s >= best - 40 and a.kind != A.LEAVE]
            return rng.choice(near) if near else scored[0][2]
        return scored[0][2]

    # ------------------------------------------------------------------ windows

    def _window(self, t: _Table, acts: Sequence[Action], rng: random.Random) -> Action | None:
        v = t.view
        own = v.seats[t.me]
        weak = self.level == 0
        for a in acts:
            if a.kind == A.UNO and a.target < 0 and own.uno_catchable:
                if weak and rng.random() < 0.3:
                    continue
                forced = [b for b in acts if b.kind == A.UNO and b.target >= 0]
                if forced and self.aggression >= 2:
                    return A.make(A.UNO, target=t.victim([b.target for b in forced]))
                return a
        for a in acts:
            if a.kind == A.CATCH and v.seats[a.target].uno_catchable:
                if weak and rng.random() < 0.5:
                    continue
                return a
        jumps = [a for a in acts if a.kind == A.JUMP]
        if jumps and (not weak or rng.random() < 0.5):
            # with the Uno call when it leaves one card; a 7 under 7-0 swaps with the
            # smallest other hand (STD-12.2, STD-12.3)
            return max(jumps, key=lambda a: (
                a.uno, -v.seats[a.target].hand_size if a.target >= 0 else 0, -a.target))
        return None

    # ------------------------------------------------------------------ scoring

    def _score(self, t: _Table, a: Action, rng: random.Random) -> float:
        v = t.view
        k = a.kind
        if k == A.PLAY:
            if v.phase == "response":
                return self._response_play(t, a)
            return self._play(t, a)
        if k == A.DRAW:
            return -12.0 - (8.0 if t.danger else 0.0) - (10.0 if len(t.hand) <= 2 else 0.0)
        if k == A.PASS:
            return -3.0
        if k == A.ACCEPT:
            return -self._accept_cost(t)
        if k == A.CHALLENGE:
            return self._challenge(t)
        if k == A.QUESTION:
            return 1.0 - self._accept_cost(t)
        if k == A.COLOR:
            return 10.0 * (t.by_color[a.color] if 0 <= a.color < 4 else 0) - a.color * 0.01
        if k == A.VICTIM:
            return self._aim(t, a)
        if k == A.DEAL:
            return self._deal(t, a.n)
        if k == A.DIRECTION:
            return -t.view.seats[(t.me + a.n) % v.players].hand_size * 0.1
        if k == A.LEAVE:
            return -1000.0
        return -50.0

    def _deal(self, t: _Table, n: int) -> float:
        """Deal size: about 7; an expert deals smaller when leading, bigger when behind."""
        want = 7.0
        if self.level >= 2:
            want += 8.0 * (0.5 - t.leadership(t.me))
        return -abs(n - want)

    def _color_term(self, t: _Table, a: Action, rest: list[int]) -> float:
        """How well the play leaves the colours for the next turns."""
        f = a.cards[-1]
        color = a.color if a.color != NO_COLOR else FACE_COLOR[f]
        if color == NO_COLOR:
            return 0.0
        # the colours left: the hand's counts less the cards played (no wild has a colour)
        counts = t.by_color[:]
        for g in a.cards:
            c = FACE_COLOR[g]
            if c >= 0 and not IS_WILD[g]:
                counts[c] -= 1
        score = 4.0 * counts[color]
        if self.level >= 2 and len(rest) > 1:
            before = t.by_color
            score += 1.5 * (max(before) - min(before) - (max(counts) - min(counts)))
        return score

    @staticmethod
    def _uno_term(t: _Table, a: Action, rest: list[int]) -> float:
        """Calling Uno with the next-to-last card (a weak bot sometimes forgets)."""
        if len(rest) != 1 or not t.uno_plays:
            return 0.0
        if t.forget_uno:
            return -60.0 if a.uno else 0.0
        return 60.0 if a.uno else -30.0

    def _play(self, t: _Table, a: Action) -> float:
        v = t.view
        hand = t.hand
        cards = a.cards
        rest = _rest(hand, cards)
        danger = t.danger or len(rest) <= 2
        score = 20.0 + 12.0 * (len(cards) - 1)
        if not rest:
            return 10_000.0
        score += self._uno_term(t, a, rest)
        pts = sum(t.kit.card_points(f) for f in cards)
        score += pts * (0.35 if t.danger else 0.06)
        score += self._color_term(t, a, rest)
        for f in cards:
            score += self._card_sense(t, a, f, rest, danger)
        if a.target >= 0 and FACE_KIND[cards[0]] == NUMBER and FACE_NUMBER[cards[0]] == 7:
            # 7-0: swap hands with the target
            score += 8.0 * (len(rest) - v.seats[a.target].hand_size)
        return score

    def _card_sense(
        self, t: _Table, a: Action, f: int, rest: list[int], danger: bool
    ) -> float:
        """Card-specific judgement for playing ``f`` in a normal turn."""
        v = t.view
        k = FACE_KIND[f]
        strong = self.level >= 1
        nxt = t.next_seat
        two = len(t.opponents) == 1
        s = 0.0
        if IS_WILD[f]:
            if strong and not danger and len(rest) > 2:
                s -= 18.0
            drawn = t.kit.draw_count(f)
            if drawn:
                s += _PER_CARD * drawn * t.attack_factor(t.draw_victim(f))
            elif k != WILD and f != MYS:
                s += _PER_CARD * 4 * t.attack_factor(nxt)
            if f == MYS and v.discard:
                num = FACE_NUMBER[v.top] if not IS_WILD[v.top] else -1
                if num >= 1:
                    s += _PER_CARD * min(num, 12) * t.attack_factor(nxt)
            if (f == WD4 and t.kit.challengeable_wd4 and strong
                    and any(FACE_COLOR[g] == v.color for g in rest)):
                s -= 40.0  # no bluffing: the current colour is in the hand
            return s
        if k == DRAW_TWO:
            s += _PER_CARD * 2 * t.attack_factor(nxt)
        elif k in (SKIP, DOUBLE_SKIP, REVERSE_SKIP) or (k == REVERSE and two):
            s += 8.0 * t.attack_factor(nxt) + (12.0 if two else 0.0)
        elif k == SPREADER:
            shielded = any(BS in v.seats[o].revealed for o in t.opponents)
            s += -5.0 if shielded else 10.0 * len(t.opponents) * t.attack_factor(nxt)
        # the cards of the Hot Death deck (no other deck holds them)
        if f == BB:
            s += 150.0
        elif f == HOLY:
            s -= 0.0 if danger and not strong else 30.0
        elif f == M5:
            s -= 25.0
        elif f == RET:
            s += 70.0 if QUIT in rest else (0.3 * t.hand_value if t.danger else -8.0)
        elif f == QUIT:
            if RET in rest:
                s += 60.0
            elif len(t.opponents) >= 2:
                s += -15.0 + 60.0 * t.attack_factor(nxt) * (
                    1.0 if v.seats[nxt].hand_size <= 2 else 0.2)
            else:
                s += 5.0
        elif f == SN:
            without = t.kit.points_of(rest)
            s += -30.0 if without > 69 else 10.0
        elif f == VIR:
            s -= 6.0
        elif f == GLAS:
            s += 4.0 + 4.0 * t.attack_factor(a.target) + self._aim(t, a)
        elif f == MADC and a.target >= 0:
            own = t.kit.points_of(rest)
            s += 60.0 if own < 10 else 35.0 if own < 20 else 0.0 if own < 50 else -40.0
            s += 25.0 * t.attack_factor(a.target) * (
                1.5 if v.seats[a.target].hand_size <= 2 else 0.3)
            if self.aggression <= 1:
                s -= 30.0
            s += self._aim(t, a)
        elif f == LOI:
            s -= 0.0 if t.danger else 5.0
        return s

    @staticmethod
    def _aim(t: _Table, a: Action) -> float:
        """A bonus for the victim that the aggression level picks."""
        if a.target < 0 or not t.opponents:
            return 0.0
        return 25.0 if a.target == t.victim(t.opponents) else 0.0

    # ------------------------------------------------------------------ attacks

    def _accept_cost(self, t: _Table) -> float:
        v = t.view
        at = v.attack
        size = len(t.hand)
        if isinstance(at, Ejection):
            return 40.0 + 0.6 * t.hand_value + (30.0 if size <= 3 else 0.0)
        if isinstance(at, Reveal):
            return 6.0
        count = at.count if at is not None else 0
        if LOI in t.hand:
            count = max(count - 1, 0)
        per = 6.0 + (6.0 if size <= 3 else 0.0) + (4.0 if t.danger else 0.0)
        return per * count

    def _response_play(self, t: _Table, a: Action) -> float:
        """An answer to an attack (stack, redirect, share, cancel): minus its cost."""
        v = t.view
        f = a.cards[0]
        rest = _rest(t.hand, a.cards)
        if not rest:
            return 10_000.0
        at = v.attack
        drawing = isinstance(at, (DrawAttack, Pot))
        count = at.count if isinstance(at, (DrawAttack, Pot)) else 0
        score = 0.0
        score += self._uno_term(t, a, rest)
        score += self._color_term(t, a, rest) * 0.5
        score += t.kit.card_points(f) * (0.3 if t.danger else 0.05)
        if f == M5:
            return score - 2.0
        if f == RET:
            back = at.sender if at is not None else -1
            hit = t.attack_factor(back) if back >= 0 else 0.5
            return score - 3.0 + (0.5 * count * hit if drawing else 0.0) + (
                20.0 if QUIT in rest else 0.0)
        if f == VIR:
            share = (count // 2) * (6.0 + (6.0 if len(t.hand) <= 3 else 0.0))
            if isinstance(at, Ejection):
                share = self._accept_cost(t) * 0.8
            return score - 8.0 - share
        if f == HOLY:
            return score - (32.0 if self.level >= 1 else 10.0)
        # a stacked card: dumps it and sends a bigger attack on
        n = t.kit.draw_count(f) or 2
        victim = t.draw_victim(f)
        keep = 12.0 if IS_WILD[f] and self.level >= 1 and not t.danger else 4.0
        return score - keep + 0.4 * (count + n) * t.attack_factor(victim)

    def _challenge(self, t: _Table) -> float:
        """A Wild Draw Four challenge: worth it only when the play was likely a bluff.

        A weak bot challenges on a whim; a strong one never (most Wild Draw Fours are
        honest: a lost challenge costs two more cards); an expert weighs the chance that
        the sender held the colour against how rarely a player who holds it plays the Wild
        Draw Four anyway (:data:`BLUFF_RATE`), and challenges when that beats the two
        extra cards of a lost challenge.
        """
        v = t.view
        at = v.attack
        sender = at.sender if at is not None else -1
        if sender < 0:
            return -100.0
        if self.level == 0:
            return -self._accept_cost(t) - 1.0
        prev = _previous_color(v)
        if self.level == 1 or prev == NO_COLOR:
            return -self._accept_cost(t) - 100.0
        known = Counter(v.known_cards())
        unseen_color = max(0, 25 - sum(c for f, c in known.items() if FACE_COLOR[f] == prev))
        unseen = max(1, 108 - sum(known.values()))
        p_card = unseen_color / unseen
        held = v.seats[sender].hand_size
        holds = 1.0 - (1.0 - p_card) ** held
        # Bayes: a player holding the colour plays the Wild Draw Four only now and then
        guilty = holds * BLUFF_RATE / (holds * BLUFF_RATE + (1.0 - holds))
        draw = at.count if isinstance(at, (DrawAttack, Pot)) and at.count else 4
        per = self._accept_cost(t) / draw if draw else 6.0
        # against accepting: `draw` cards saved when guilty, two more drawn otherwise
        gain = guilty * draw - (1.0 - guilty) * _LOST_CHALLENGE
        return -self._accept_cost(t) + per * gain


register_bot(
    "heuristic",
    "Rule-of-thumb player with Hot Death sense; skill weak/strong/expert, aggression 1-5.",
    (
        BotParam("skill", str, "strong", "weak, strong or expert", SKILLS),
        BotParam("aggression", int, 3,
                 "1 spares the opponents … 5 goes after the leader (1-5)"),
    ),
)(HeuristicBot)


def _previous_color(view: View) -> int:
    """The colour in play before the Wild Draw Four on top (-1 when unknown).

    That is the colour of the card under it, unless that card is a wild too.
    """
    if len(view.discard) < 2 or IS_WILD[view.discard[-2]]:
        return NO_COLOR
    return FACE_COLOR[view.discard[-2]]


def _is_window(a: Action) -> bool:
    """Whether ``a`` is an out-of-turn kind of action (a 69 challenge names its seat)."""
    return a.kind in _WINDOW_KINDS or (a.kind == A.CHALLENGE and a.target >= 0)


_WINDOW_KINDS: Final = frozenset({A.UNO, A.CATCH, A.JUMP, A.DECLINE})

__all__ = ["SKILLS", "HeuristicBot", "card_points", "hand_points"]
