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

def _mystery_value(hand: Sequence[int], mode: str) -> int:
    if mode == "app":
        nums = [FACE_NUMBER[f] for f in hand
                if FACE_NUMBER[f] >= 1 and f not in (M5, BS, SN)]
        return 10 * max(nums) if nums else 10
    best = -1
    best_face = -1
    for f in hand:
        num = 9 if f == SN else FACE_NUMBER[f]
        if num > best or (num == best and best_face == M5):
            best, best_face = num, f
    if best < 1:
        return 10
    if mode == "points_000" and best_face == M5:
        return -50
    return 10 * best


def card_values(hand: Sequence[int], opts: HotDeathOptions, dealt: int) -> list[int]:
    """Value of each *valued* card of ``hand`` (Retaliation, Holy Defender, 69 excluded)."""
    vals: list[int] = []
    bs = 0
    for f in hand:
        if f in (RET, HOLY, SN):
            continue
        k = FACE_KIND[f]
        if f == BS:
            bs += 1
            continue
        if k == NUMBER:
            v = FACE_NUMBER[f]
        elif k in (SKIP, REVERSE, DRAW_TWO):
            v = 20
        elif k in (DOUBLE_SKIP, REVERSE_SKIP):
            v = 40
        elif k == SPREADER:
            v = 60 if opts.spreader_value == "fixed_60" else 20 * (dealt - 1)
        elif k == WILD:
            v = opts.plain_wild_points
        elif f in (WD4,):
            v = 50
        elif f in (HOT, DB, QUIT):
            v = 100
        elif f in (HOS, BB):
            v = 0
        elif f in (GLAS, LOI):
            v = 75
        elif f == MADC:
            v = opts.mad_points
        elif f == VIR:
            v = 3
        elif f == M5:
            v = -5
        elif f == MYS:
            v = _mystery_value(hand, opts.mystery_number_mode)
        else:  # pragma: no cover
            raise AssertionError(f"no value for {f}")
        vals.append(v)
    if bs:
        shield = max(vals) if vals else 0
        if opts.blue_shield_floor_zero:
            shield = max(shield, 0)
        vals += [shield] * bs
    return vals


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
