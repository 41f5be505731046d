"""What each Hot Death card is: its rule, what it may be played on (HD-2.3, HD-3.5)."""

from __future__ import annotations

from typing import Final

from hotdeath.cards import (
    BB,
    BS,
    DB,
    DELAYED_BLAST,
    DOUBLE_SKIP,
    DRAW_TWO,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    GLAS,
    GLASNOST,
    HARVESTER,
    HOLY,
    HOS,
    HOT,
    HOT_DEATH,
    IS_WILD,
    LOI,
    M5,
    MAD,
    MADC,
    MYSTERY_DRAW,
    NUM_FACES,
    NUMBER,
    QUIT,
    QUITTER,
    RET,
    REVERSE,
    REVERSE_SKIP,
    SKIP,
    SN,
    SPREADER,
    VIR,
    WD4,
    WILD,
    WILD_DRAW_FOUR,
)

CARD_RULE: Final = {
    NUMBER: "HD-2.3.1", SKIP: "HD-2.3.2", DOUBLE_SKIP: "HD-2.3.3", REVERSE: "HD-2.3.4",
    REVERSE_SKIP: "HD-2.3.5", DRAW_TWO: "HD-2.3.6", SPREADER: "HD-2.3.7", WILD: "HD-2.3.8",
    WILD_DRAW_FOUR: "HD-2.3.9", HOT_DEATH: "HD-2.3.10", DELAYED_BLAST: "HD-2.3.11",
    HARVESTER: "HD-2.3.12", MYSTERY_DRAW: "HD-2.3.13", GLASNOST: "HD-2.3.14",
    QUITTER: "HD-2.3.15", MAD: "HD-2.3.16",
}
"""Rule id of each card kind's own rule (special number cards: see ``FACE_RULE``)."""
FACE_RULE: Final = {
    LOI: "HD-2.3.17", M5: "HD-2.3.18", BS: "HD-2.3.19", SN: "HD-2.3.20", VIR: "HD-2.3.21",
    HOLY: "HD-2.3.22", RET: "HD-2.3.23", BB: "HD-2.3.24", GLAS: "HD-2.3.14",
    QUIT: "HD-2.3.15", MADC: "HD-2.3.16",
}


DRAW_COUNT: Final = {WD4: 4, HOT: 8, DB: 4, HOS: 4}
"""Cards each wild draw card adds to a draw attack (HD-2.3.9 to HD-2.3.12); a Draw Two and
a Spreader add two, a Mystery Draw the number on the card under it (HD-2.3.13)."""
DEFENCES: Final = frozenset((RET, HOLY, VIR))
"""The answers to any attack its victim may answer (HD-4.3): Retaliation, Holy Defender, Virus."""
ANSWERS: Final = (HOLY, M5, RET, VIR)
"""The cards a player holds back to answer attacks, in the order the coach names them: the
defences and the Magic Red 5, which cancels a Hot Death (HD-2.3.18)."""


def blast_skips(face: int, active: int, min_active: int) -> bool:
    """Whether playing ``face`` skips the next player, its attack landing on the one after.

    HD-2.3.11: the Delayed Blast does, when at least ``min_active`` players are active
    (``delayed_blast_min_active_for_skip``).  The engine and the bots' reading of a view
    both ask this.

    >>> blast_skips(DB, 4, 3), blast_skips(DB, 2, 3), blast_skips(HOT, 4, 3)
    (True, False, False)
    """
    return face == DB and active >= min_active


def rule_of(face: int) -> str:
    """The rulebook id of a card's own rule."""
    return FACE_RULE.get(face) or CARD_RULE.get(FACE_KIND[face], "HD-2.3.1")

# ------------------------------------------------------------------ match tables (HD-3.5)

_NUMS: Final = tuple(
    frozenset((6, 9)) if FACE_NUMBER[f] == 69 else
    (frozenset((FACE_NUMBER[f],)) if FACE_NUMBER[f] >= 0 else frozenset())
    for f in range(NUM_FACES)
)
_FAMILY: Final = {
    DRAW_TWO: 1, SPREADER: 1, SKIP: 2, DOUBLE_SKIP: 2, REVERSE: 3, REVERSE_SKIP: 3,
}


def _base_match(key: int, f: int) -> bool:
    """Legality of ``f`` on table key ``key`` without the 69 privilege (HD-3.5 rules 2–7)."""
    if f == BB:
        return False
    if f == M5 or IS_WILD[f]:
        return True
    if key >= NUM_FACES:  # a wild on top: only its named colour
        return FACE_COLOR[f] == key - NUM_FACES
    top = key
    if FACE_COLOR[f] == FACE_COLOR[top]:
        return True
    if _NUMS[f] & _NUMS[top]:
        return True
    kf, kt = FACE_KIND[f], FACE_KIND[top]
    return kf in _FAMILY and _FAMILY[kf] == _FAMILY.get(kt)


def _privilege(key: int, f: int) -> bool:
    """A 6 on a 9 or a 9 on a 6 (HD-3.5 rule 8: only for the 69's holder)."""
    if key >= NUM_FACES or f == SN:
        return False
    nf, nt = FACE_NUMBER[f], FACE_NUMBER[key]
    return (nf == 6 and nt == 9) or (nf == 9 and nt == 6)


MATCH: Final = tuple(
    tuple(_base_match(k, f) for f in range(NUM_FACES)) for k in range(NUM_FACES + 4)
)
PRIV: Final = tuple(
    tuple(_privilege(k, f) and not MATCH[k][f] for f in range(NUM_FACES))
    for k in range(NUM_FACES + 4)
)
