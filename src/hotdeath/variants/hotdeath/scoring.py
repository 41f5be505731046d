"""Hand values at the end of a hand (HD-3.7.2) and the bots' typical values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from hotdeath.cards import (
    BB,
    BS,
    DB,
    DOUBLE_SKIP,
    DRAW_TWO,
    FACE_KIND,
    FACE_NUMBER,
    GLAS,
    HOLY,
    HOS,
    HOT,
    LOI,
    M5,
    MADC,
    MYS,
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
    W,
)
from hotdeath.results import ScoreLine
from hotdeath.variants.base import standard_points
from hotdeath.variants.hotdeath.card_table import rule_of

if TYPE_CHECKING:
    from hotdeath.variants.hotdeath.options import HotDeathOptions


# ------------------------------------------------------------------ scoring (HD-3.7.2)

def _printed_number(face: int) -> int:
    """The number a Mystery Draw reads on ``face`` (the 69 as 9; -1 for a card without one)."""
    return 9 if face == SN else FACE_NUMBER[face]


def _mystery_value(hand: Sequence[int], mode: str) -> int:
    """The Mystery Draw's value by the highest number in ``hand`` (modes printed and app)."""
    if mode == "app":
        nums = [FACE_NUMBER[f] for f in hand
                if FACE_NUMBER[f] >= 1 and f not in (M5, BS, SN)]
        return 10 * max(nums) if nums else 10
    best = -1
    best_face = -1
    for f in hand:
        num = _printed_number(f)
        if num > best or (num == best and best_face == M5):
            best, best_face = num, f
    return 10 * best if best >= 1 else 10


def _mystery_points_000(hand: Sequence[int], points: dict[int, int]) -> int:
    """The Mystery Draw's value under ``points_000`` (a ruling on source 000, HD-2.3.13).

    10 × the points of the card with the highest printed number, or 10 without one.
    ``points`` holds each valued card's points; among cards sharing the highest number the
    one worth most counts (as a plain 5 beats the Magic Red 5 in the printed count).
    """
    best = 0
    best_points = 0
    for f in hand:
        num = _printed_number(f)
        if num < 1 or num < best:
            continue
        p = points.get(f, num)  # the 69 holds no points of its own: it counts its number
        if num > best or p > best_points:
            best, best_points = num, p
    return 10 * best_points if best else 10


def _card_points(face: int, opts: HotDeathOptions, dealt: int) -> int:
    """The points of a valued card of fixed value (HD-1.4).

    Every valued card but the Mystery Draw and the Blue Shield, which depend on the hand.
    """
    k = FACE_KIND[face]
    if k == NUMBER:
        return FACE_NUMBER[face]
    if k in (SKIP, REVERSE, DRAW_TWO):
        return 20
    if k in (DOUBLE_SKIP, REVERSE_SKIP):
        return 40
    if k == SPREADER:
        return 60 if opts.spreader_value == "fixed_60" else 20 * (dealt - 1)
    if k == WILD:
        return opts.plain_wild_points
    if face == WD4:
        return 50
    if face in (HOT, DB, QUIT):
        return 100
    if face in (HOS, BB):
        return 0
    if face in (GLAS, LOI):
        return 75
    if face == MADC:
        return opts.mad_points
    if face == VIR:
        return 3
    if face == M5:
        return -5
    raise AssertionError(f"no value for {face}")  # pragma: no cover


def card_values(hand: Sequence[int], opts: HotDeathOptions, dealt: int) -> list[int]:
    """Value of each *valued* card of ``hand`` (Retaliation, Holy Defender, 69 excluded).

    The cards of fixed value first, then the Mystery Draw, then the Blue Shield, which is
    worth the highest of the others (HD-2.3.19).  Under ``points_000`` a Mystery Draw whose
    highest number card is a Blue Shield reads the shield's value among the other cards
    (the Mystery itself left out, or each would be worth the other).
    """
    vals: list[int] = []
    bs = 0
    mystery = 0
    for f in hand:
        if f in (RET, HOLY, SN):
            continue
        if f == BS:
            bs += 1
        elif f == MYS:
            mystery += 1
        else:
            vals.append(_card_points(f, opts, dealt))
    if mystery:
        mode = opts.mystery_number_mode
        if mode == "points_000":
            points = {f: _card_points(f, opts, dealt) for f in hand
                      if _printed_number(f) >= 1 and f not in (BS, SN)}
            if bs:
                points[BS] = _shield(vals, opts)
            v = _mystery_points_000(hand, points)
        else:
            v = _mystery_value(hand, mode)
        vals += [v] * mystery
    if bs:
        vals += [_shield(vals, opts)] * bs
    return vals


def _shield(vals: Sequence[int], opts: HotDeathOptions) -> int:
    """The Blue Shield's value: the highest of the other valued cards (HD-2.3.19)."""
    shield = max(vals) if vals else 0
    return max(shield, 0) if opts.blue_shield_floor_zero else shield


def _halve(v: int, rounding: str) -> int:
    return -((-v) // 2) if rounding == "up" else v // 2


def hand_values(
    hands: Sequence[Sequence[int]],
    winner: int,
    bastard: int,
    active: Sequence[bool],
    opts: HotDeathOptions,
    dealt: int,
) -> list[tuple[int, tuple[tuple[str, int], ...]]]:
    """Hand value and its explanation for every seat (rule HD-3.7.2, in order).

    ``winner`` scores 0 (also as the last player standing); ``bastard`` is the holder of
    all four bastard cards (0), or -1.  Virus penalties are added by the caller.
    """
    out: list[tuple[int, tuple[tuple[str, int], ...]]] = []
    no_bb: set[int] = set()
    for s, hand in enumerate(hands):
        if s == bastard:
            out.append((0, (("all_bastards", 0),)))
            continue
        if s == winner:
            out.append((0, (("winner" if not hand else "last_standing", 0),)))
            continue
        has = set(hand)
        steps: list[tuple[str, int]] = []
        combo = QUIT in has and RET in has and (
            opts.combo_1000_cards == "quitter_fuck_you" or BB in has)
        vals = card_values(hand, opts, dealt)
        if combo:
            mode = opts.combo_1000_scoring
            if mode == "exact":
                out.append((1000, (("combo_1000", 1000),)))
                continue
            skip = {QUIT} if mode == "pair_worth_1000" else {QUIT, BB}
            rest = sum(card_values([f for f in hand if f not in skip], opts, dealt))
            if SN in has:
                rest = 69 + (-5 if M5 in has and opts.sixty_nine_modifiers else 0)
                v = rest if mode == "app" else 1000 + rest
                steps.append(("sixty_nine", v))
            else:
                v = 1000 + rest
                steps.append(("combo_1000", v))
            if mode == "app":
                no_bb.add(s)
            if HOLY in has:
                v = _halve(v, opts.halving_rounding)
                steps.append(("holy_defender", v))
            out.append((v, tuple(steps)))
            continue
        v = sum(vals)
        steps.append(("cards", v))
        modifiers = True
        if SN in has:
            v = 69
            steps.append(("sixty_nine", v))
            modifiers = opts.sixty_nine_modifiers
            if modifiers and M5 in has:
                v -= 5
                steps.append(("magic_red_5", v))
        if modifiers and RET in has:
            v *= 2
            steps.append(("retaliation", v))
        if modifiers and HOLY in has:
            v = _halve(v, opts.halving_rounding)
            steps.append(("holy_defender", v))
        out.append((v, tuple(steps)))
    for s, hand in enumerate(hands):
        if BB in hand and s != winner and s != bastard and s not in no_bb:
            best = max(v for v, _ in out)
            if best > out[s][0]:
                out[s] = (best, (*out[s][1], ("big_brother", best)))
    return out


_STEP_CARD: Final = {"sixty_nine": SN, "magic_red_5": M5, "retaliation": RET,
                     "holy_defender": HOLY, "big_brother": BB, "virus": VIR}
"""The card behind each scoring step of :func:`hand_values` (HD-3.7.2)."""


def score_lines(info: Sequence[tuple[str, int]]) -> tuple[ScoreLine, ...]:
    """The scoring steps of :func:`hand_values` (plus the Virus penalty) as score lines.

    A step holds the hand's value after it (the 69 sets it, Retaliation doubles it, Holy
    Defender halves it); a line holds the points the step added, so the lines add up to the
    seat's points.  A card's step cites the card's own rule, the others HD-3.7.2.
    """
    out: list[ScoreLine] = []
    value = 0
    for label, v in info:
        card = _STEP_CARD.get(label)
        rule = rule_of(card) if card is not None else "HD-3.7.2"
        if label == "virus":
            out.append(ScoreLine(rule, v, label, card))
            continue
        if label == "winner":
            label = "went_out"
        out.append(ScoreLine(rule, v - value, label, card))
        value = v
    return tuple(out)


_TYPICAL_VALUES: Final = {
    WD4: 50, HOT: 100, DB: 100, HOS: 0, MYS: 50, HOLY: 0, RET: 0, QUIT: 100, BB: 0,
    GLAS: 75, M5: -5, VIR: 3, LOI: 75, BS: 50, MADC: 100, SN: 0, W: 50,
}
"""HD-1.4 values with the hand-dependent cards (Mystery Draw, Blue Shield) at typical ones."""


def typical_points(face: int) -> int:
    """Roughly what ``face`` costs its holder at the end of a hand (HD-1.4, for bots)."""
    value = _TYPICAL_VALUES.get(face)
    return standard_points(face) if value is None else value


def typical_hand_points(hand: Sequence[int]) -> int:
    """Roughly what ``hand`` costs its holder, the hand-wide cards included (HD-3.7.2)."""
    v = sum(typical_points(f) for f in hand)
    if SN in hand:
        v = 69 - (5 if M5 in hand else 0)
    if QUIT in hand and RET in hand:
        v = 1000
    elif RET in hand:
        v *= 2
    if HOLY in hand:
        v = (v + 1) // 2
    return v
