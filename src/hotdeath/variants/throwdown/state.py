"""The throw grammar (TD-2) and the Throwdown state: plays, the draw pot, Uno calls, leaving."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import lru_cache
from itertools import groupby, pairwise, product
from typing import TYPE_CHECKING, Any, Final

from hotdeath import actions as A
from hotdeath.actions import Action, make
from hotdeath.cards import (
    COLOR_NAMES,
    COLORS,
    DRAW_TWO,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    IS_WILD,
    NO_COLOR,
    NUM_FACES,
    NUMBER,
    REVERSE,
    SKIP,
    WD4,
    W,
    card_name,
    standard_deck,
)
from hotdeath.errors import OptionError, PositionError
from hotdeath.pending import Pending, Pot
from hotdeath.results import GameResult, HandResult, standings
from hotdeath.rng import DEAL_SCHEME
from hotdeath.state import DEAL, GAME_OVER, NOBODY, RESPONSE, TURN
from hotdeath.variants.base import VariantState
from hotdeath.variants.throwdown.options import ThrowdownOptions

if TYPE_CHECKING:
    from hotdeath.variants.variant import Variant

# --------------------------------------------------------------------------- values and links

V33: Final = 10
"""Value of a threes-unit (two or more 3s in a row)."""
VSKIP: Final = 11
VREV: Final = 12
VD2: Final = 13
VW: Final = 14
VWD4: Final = 15
_NV: Final = 16


def _value(f: int) -> int:
    k = FACE_KIND[f]
    if k == NUMBER and 0 <= FACE_NUMBER[f] <= 9:
        return FACE_NUMBER[f]
    return {SKIP: VSKIP, REVERSE: VREV, DRAW_TWO: VD2}.get(
        k, VW if f == W else VWD4 if f == WD4 else -1
    )


VAL: Final[tuple[int, ...]] = tuple(_value(f) for f in range(NUM_FACES))
"""Value of each face in regular play (-1 for cards outside the standard deck)."""

_LINKED: Final = frozenset({(3, V33), (6, 9), (6, V33), (8, V33)})
LINK: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(a == b or (min(a, b), max(a, b)) in _LINKED for b in range(_NV)) for a in range(_NV)
)
"""``LINK[a][b]``: a unit of value ``b`` may directly follow one of value ``a`` (TD-2.3)."""

THREES_UNIT: Final = 2
"""The fewest 3s in a row that form a threes-unit (TD-2.1)."""
_THREES: Final = (3, V33)


def _in_play_links() -> dict[int, tuple[int, ...]]:
    """For each unit value, the other values a unit of it may stand next to in a play.

    These are the links of :data:`LINK` between different values, less those between a 3
    and a threes-unit: 3s next to each other form one unit (TD-2.1), so such units never
    stand side by side.
    """
    vals = [v for v in range(_NV) if v not in (VW, VWD4)]
    return {v: tuple(w for w in vals if w != v and LINK[v][w]
                     and not (v in _THREES and w in _THREES)) for v in vals}


def _chain_path() -> tuple[int, ...]:
    """The values whose units chain into longer plays, in path order, from :data:`LINK`.

    The links between different values make one path, 9 — 6 — 33 — 8 (TD-2.3), read here
    from its higher end; every other value links only to itself.
    """
    nbr = _in_play_links()
    ends = [v for v, ws in nbr.items() if len(ws) == 1]
    if len(ends) != 2 or any(len(ws) > 2 for ws in nbr.values()):
        raise AssertionError("the links of TD-2.3 are no longer one path")
    path = [max(ends)]
    while len(path) == 1 or len(nbr[path[-1]]) == 2:
        path.append(next(w for w in nbr[path[-1]] if w not in path))
    return tuple(path)


_PATH_VALUE: Final = _chain_path()
"""The chain's unit values by path index (9, 6, 33, 8)."""
_PATH: Final = tuple(3 if v == V33 else v for v in _PATH_VALUE)
"""The face value of the cards of each path index (9, 6, 3, 8)."""
_WEIGHT: Final = tuple(THREES_UNIT if v == V33 else 1 for v in _PATH_VALUE)
"""Cards in one unit of each path index."""
_GROUP_VALUES: Final = tuple(v for v, ws in _in_play_links().items()
                             if not ws and v not in _THREES)
"""Values outside the chain whose cards go together (0, 1, 2, 4, 5, 7, Skip, Reverse,
Draw Two): each of their units links only to its own value."""


def _walk(points: list[int]) -> tuple[int, ...]:
    seq: list[int] = [points[0]]
    for p in points[1:]:
        cur = seq[-1]
        step = 1 if p > cur else -1
        while cur != p:
            cur += step
            seq.append(cur)
    return tuple(seq)


Route = tuple[tuple[int, ...], tuple[int, ...]]
"""A walk on the path: (visits per path index, the indices in order)."""


def _routes() -> dict[tuple[int, int, int, int], tuple[Route, ...]]:
    """Minimal walks covering ``lo..hi`` from ``s`` to ``e``: (visits per index, sequence)."""
    out: dict[tuple[int, int, int, int], tuple[Route, ...]] = {}
    for lo in range(4):
        for hi in range(lo, 4):
            for s in range(lo, hi + 1):
                for e in range(lo, hi + 1):
                    found: list[Route] = []
                    for pts in ([s, lo, hi, e], [s, hi, lo, e]):
                        seq = _walk(pts)
                        visits = tuple(seq.count(i) for i in range(4))
                        if not any(all(v[i] <= visits[i] for i in range(4)) for v, _ in found):
                            found = [(v, q) for v, q in found
                                     if not all(visits[i] <= v[i] for i in range(4))]
                            found.append((visits, seq))
                    out[(lo, hi, s, e)] = tuple(found)
    return out


_ROUTES: Final = _routes()

# Throwdown families (TD-4.2) by level
F_DRAW: Final = 0
F_SKIP: Final = 1
F_REV: Final = 2
F_ZERO: Final = 3
FAMILY_NAMES: Final = ("draw", "skip", "reverse", "zero")


def _family(f: int, level: int) -> int:
    v = VAL[f]
    if v in (VD2, 2, 5) or (v == 4 and level == 4):
        return F_DRAW
    return {VSKIP: F_SKIP, VREV: F_REV, 0: F_ZERO}.get(v, -1)


FAM: Final[dict[int, tuple[int, ...]]] = {
    lv: tuple(_family(f, lv) for f in range(NUM_FACES)) for lv in (2, 4)
}
"""Throwdown family of each face at level 2 and level 4 (-1: not a Throwdown card)."""
_TWO_VALUED: Final = tuple(VAL[f] in (VD2, 2, 5) for f in range(NUM_FACES))
_DRAW_TYPE: Final = tuple(
    0 if VAL[f] == VD2 else 1 if VAL[f] == 2 else 2 if VAL[f] == 5 else 3
    for f in range(NUM_FACES)
)

# kind of the top card in a Throwdown (TD-4.3)
K_DRAW: Final = 0
K_SKIP: Final = 1
K_REV: Final = 2
K_WILD: Final = 3
K_NONE: Final = 4


def _top_kind(f: int) -> int:
    v = VAL[f]
    if v in (VD2, 2, 5, 4, VWD4):
        return K_DRAW
    return {VSKIP: K_SKIP, VREV: K_REV, VW: K_WILD}.get(v, K_NONE)


def _unit_words(v: int) -> str:
    """A unit value for people: "a 7", "a pair of 3s", "a Skip"."""
    if v == V33:
        return "a pair of 3s"
    if 0 <= v <= 9:
        return f"an {v}" if v == 8 else f"a {v}"
    return {VSKIP: "a Skip", VREV: "a Reverse", VD2: "a Draw Two", VW: "a Wild"}.get(
        v, "a Wild Draw Four")


# faces by value and by colour: _FACE_OF[value][colour] (numbers and actions only)
_FACE_OF: Final[dict[int, tuple[int, ...]]] = {
    v: tuple(next(f for f in range(NUM_FACES) if VAL[f] == v and FACE_COLOR[f] == c)
             for c in COLORS)
    for v in (*range(10), VSKIP, VREV, VD2)
}

_DIRECTION_ACTIONS: Final = (make(A.DIRECTION, n=1), make(A.DIRECTION, n=-1))
_OTHERS: Final = tuple(tuple(tuple(x for x in range(n) if x != s) for s in range(n))
                       for n in range(17))
"""``_OTHERS[players][seat]``: the other seats, in order."""

_CATCH: Final = tuple(make(A.CATCH, target=s) for s in range(16))
_UNO_AT: Final = tuple(make(A.UNO, target=s) for s in range(16))
_WRONG_CALLS: Final = tuple(tuple((A.UNO_ACTION, *(_CATCH[x] for x in others))
                                  for others in by_seat) for by_seat in _OTHERS)
"""``_WRONG_CALLS[players][seat]``: Uno and a catch of every other seat, in window order."""
_LEAVE: Final = make(A.LEAVE)
_DECLINE: Final = make(A.DECLINE)

Items = tuple[tuple[int, int], ...]
"""A multiset of cards as ((face, count), …) in ascending face order."""

# --------------------------------------------------------------------------- enumeration


@lru_cache(maxsize=8192)
def _subsets(counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every sub-multiset (count vector) of a multiset given by its counts, empty included."""
    out: list[tuple[int, ...]] = [()]
    for c in counts:
        out = [(*v, k) for v in out for k in range(c + 1)]
    return tuple(out)


def _expand(faces: tuple[int, ...], vec: tuple[int, ...]) -> list[int]:
    out: list[int] = []
    for f, k in zip(faces, vec, strict=True):
        if k:
            out += [f] * k
    return out


def _ordered(first: int, cards: list[int], last: int) -> tuple[int, ...]:
    """``first``, the other cards ascending, ``last`` (``cards`` holds all of them)."""
    rest = cards[:]
    rest.remove(last)
    if not rest:
        return (last,)
    rest.remove(first)
    return (first, *rest, last)


class _TooMany(Exception):
    """More plays than the listing limit (see :data:`MAX_LISTED_PLAYS`)."""


class _Sink:
    """Collects canonical plays, at most ``limit`` of them (0: no limit)."""

    __slots__ = ("limit", "seqs")

    def __init__(self, limit: int = 0) -> None:
        self.limit = limit
        self.seqs: list[tuple[int, ...]] = []

    def full(self) -> None:
        """Raise :class:`_TooMany` when more plays than the limit are collected."""
        if 0 < self.limit < len(self.seqs):
            raise _TooMany


# which sub-multisets an enumeration visits
ALL: Final = 0
"""Every sub-multiset: the complete listing."""
SMALL: Final = 1
"""Plays of one or two cards (part of the reduced listing)."""
FULL: Final = 2
"""Maximal plays: all the cards of a value, an action type, a family or a chain stretch."""
EXACT: Final = 3
"""Only plays of the whole given multiset (to find the canonical order of one play)."""


def _vectors(counts: tuple[int, ...], mode: int) -> Iterable[tuple[int, ...]]:
    """The sub-multisets (count vectors) an enumeration in ``mode`` visits (lazily)."""
    if mode >= FULL:
        return (counts,)
    n = len(counts)
    if mode == SMALL:
        unit = [tuple(int(j == i) for j in range(n)) for i in range(n)]
        out = list(unit)
        for i in range(n):
            if counts[i] >= 2:
                out.append(tuple(2 * x for x in unit[i]))
            for j in range(i + 1, n):
                out.append(tuple(a + b for a, b in zip(unit[i], unit[j], strict=True)))
        return out
    if n <= 4:
        return _subsets(counts)
    return product(*(range(c + 1) for c in counts))


def _group_plays(
    faces: tuple[int, ...], vectors: Iterable[tuple[int, ...]], any_first: bool, cc: int,
    sink: _Sink,
) -> None:
    """Plays of cards of one value, action type or Throwdown family, in any order.

    The first card must match: with ``any_first`` every card may start, else only a card of
    the current colour.  The canonical order is the smallest valid first card, the others
    ascending, then the last card.
    """
    seqs = sink.seqs
    nf = len(faces)
    is_cc = [FACE_COLOR[f] == cc for f in faces]
    rng = range(nf)
    for vec in vectors:
        nz = [i for i in rng if vec[i]]
        if not nz:
            continue
        if len(nz) == 1 and vec[nz[0]] == 1:
            i = nz[0]
            if any_first or is_cc[i]:
                seqs.append((faces[i],))
                sink.full()
            continue
        if any_first:
            lasts = nz
        else:
            in_cc = sum(vec[i] for i in nz if is_cc[i])
            if not in_cc:
                continue
            lasts = [i for i in nz if in_cc - is_cc[i] > 0]
        cards = _expand(faces, vec)
        cc_first = [faces[i] for i in nz if is_cc[i]]
        for i in lasts:
            last = faces[i]
            if any_first:
                first = cards[0] if cards[0] != last or vec[i] > 1 else cards[1]
            else:
                first = cc_first[0] if cc_first[0] != last or vec[i] > 1 else cc_first[1]
            seqs.append(_ordered(first, cards, last))
        sink.full()


_NP: Final = len(_PATH)
_Blocks = tuple[tuple[int, int], ...]
"""A chain walk as blocks: (path index, cards laid there besides the first and last)."""
_Seg = tuple[int, int, int, int]
"""Cards of one block of a walk: (position of its index among those present, 0 for all of
that index's cards, 1 for the start's cards less the first, 2 for the end's cards less the
last (and the first, on a walk that ends where it starts), from, to)."""
_Start = tuple[int, int, _Blocks, tuple[_Seg, ...], bool, tuple[int, ...] | None]
"""A feasible start of a chain walk: (start index, its position among the indices present,
the walk's blocks, their cards, whether it stays on one index, and for a walk from one end
of its stretch to the other the positions of the indices between, else None)."""
_Ends = tuple[tuple[int, int, tuple[_Start, ...]], ...]
"""For each end index of a chain: (end index, its position, its feasible starts in the
order tried)."""


def _blocks(t: tuple[int, ...], visits: tuple[int, ...], seq: tuple[int, ...]) -> _Blocks:
    """The blocks of a walk ``seq`` (the canonical order, TD-2.5).

    A unit at each later visit of an index, the extra cards at its first visit.
    """
    seen = [0] * _NP
    out: list[tuple[int, int]] = []
    end = len(seq) - 1
    for pos, i in enumerate(seq):
        size = t[i] - _WEIGHT[i] * (visits[i] - 1) if seen[i] == 0 else _WEIGHT[i]
        seen[i] += 1
        out.append((i, size - (pos == 0) - (pos == end)))
    return tuple(out)


@lru_cache(maxsize=8192)
def _chain_routes(t: tuple[int, ...]) -> tuple[tuple[int, ...], int, _Ends] | None:
    """The path indices of ``t`` present, their card total and the feasible walks, or None.

    ``t`` counts the cards of each path index.  For each end index, the starts from which
    a walk along 9 — 6 — 33 — 8 (TD-2.3) uses exactly these cards, each with the blocks of
    the first such walk; None when there is none (no card, a gap such as 9 and 8 alone, or
    3s fewer than a unit).
    """
    present = tuple(i for i in range(_NP) if t[i])
    if not present or any(t[i] < _WEIGHT[i] for i in present):
        return None
    lo, hi = present[0], present[-1]
    if hi - lo + 1 != len(present):
        return None
    feas: list[tuple[int, int, tuple[_Start, ...]]] = []
    for e in present:
        starts: list[_Start] = []
        for s in present:
            for visits, seq in _ROUTES[(lo, hi, s, e)]:
                if all(t[i] >= _WEIGHT[i] * visits[i] for i in present):
                    blocks = _blocks(t, visits, seq)
                    at = [0] * _NP
                    segs: list[_Seg] = []
                    for i, need in blocks:
                        if need:
                            kind = 2 if i == e else 1 if i == s else 0
                            segs.append((present.index(i), kind, at[i], at[i] + need))
                            at[i] += need
                    once = s != e and all(v <= 1 for v in visits)
                    between = tuple(present.index(i) for i in seq[1:-1]) if once else None
                    starts.append((s, present.index(s), blocks, tuple(segs), len(blocks) == 1,
                                   between))
                    break
        if starts:
            feas.append((e, present.index(e), tuple(starts)))
    return (present, sum(t), tuple(feas)) if feas else None


_Sub = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...],
             tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...],
             tuple[tuple[tuple[int, ...], ...], ...]]
"""A sub-multiset of one value's cards: (count vector, the cards ascending, for each colour
the index of its face when held or -1, for each face index the cards less one of that face,
the (index, face) of each face held, for each of those the cards ending on it (the others
ascending, then that face), and for each two face indices the cards less one of each)."""


@lru_cache(maxsize=8192)
def _subs(faces: tuple[int, ...], counts: tuple[int, ...]) -> tuple[tuple[_Sub, ...], ...]:
    """The sub-multisets of one value's cards by size.

    ``[k]`` holds the k-card ones, in :func:`_subsets` order.
    """
    by: list[list[_Sub]] = [[] for _ in range(sum(counts) + 1)]
    for v in _subsets(counts):
        cards = _expand(faces, v)
        held = tuple(next((j for j, f in enumerate(faces) if v[j] and FACE_COLOR[f] == c), -1)
                     for c in COLORS)
        minus: list[tuple[int, ...]] = []
        for j, f in enumerate(faces):
            less = cards[:]
            if v[j]:
                less.remove(f)
            minus.append(tuple(less))
        lasts = tuple((j, f) for j, f in enumerate(faces) if v[j])
        tails = tuple((*minus[j], f) for j, f in lasts)
        minus2: list[tuple[tuple[int, ...], ...]] = []
        for j in range(len(faces)):
            row = []
            for g in faces:
                less = list(minus[j])
                if g in less:
                    less.remove(g)
                row.append(tuple(less))
            minus2.append(tuple(row))
        by[sum(v)].append((v, tuple(cards), held, tuple(minus), lasts, tails, tuple(minus2)))
    return tuple(tuple(x) for x in by)


@lru_cache(maxsize=4096)
def _subs_in_order(faces: tuple[int, ...], counts: tuple[int, ...]) -> tuple[_Sub, ...]:
    """The non-empty sub-multisets of :func:`_subs`, in :func:`_subsets` order."""
    by_vec = {sub[0]: sub for size in _subs(faces, counts) for sub in size}
    return tuple(by_vec[v] for v in _subsets(counts) if any(v))


def _value_plays(faces: tuple[int, ...], counts: tuple[int, ...], any_first: bool,
                 cc: int) -> list[tuple[int, ...]]:
    """:func:`_group_plays` of every sub-multiset of one value's cards (at most 4 faces).

    The cards of one value differ only by colour, so at most one face has the colour.
    With ``any_first`` each play is the smallest card, the others ascending, the last
    card: the sub-multiset less the last card, then the last (its ``tails``).  Otherwise
    the colour's card starts, unless it is the last card and the only one of its face.
    """
    out: list[tuple[int, ...]] = []
    for sub in _subs_in_order(faces, counts):
        if any_first:
            out += sub[5]
            continue
        m = sub[2][cc] if cc >= 0 else -1
        if m < 0:
            continue
        cards = sub[1]
        if len(cards) == 1:
            out.append(cards)
            continue
        first = (faces[m],)
        vec = sub[0]
        minus2 = sub[6]
        for j, last in sub[4]:
            if j != m or vec[m] > 1:
                out.append(first + minus2[j][m] + (last,))
    return out


_Groups = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
"""The hand's chain cards: (faces, counts) for each path index."""
_WALKABLE_MAX: Final = 512
"""Chains with more card counts than this are walked lazily (the limit may stop them)."""


def _bound(tops: tuple[int, ...]) -> int:
    """How many card counts up to ``tops`` there are."""
    b = 1
    for h in tops:
        b *= h + 1
    return b


_Walk = tuple[tuple[int, ...], tuple[tuple[int, ...], int, _Ends]]


@lru_cache(maxsize=4096)
def _walkable(tops: tuple[int, ...]) -> tuple[_Walk, ...]:
    """The card counts up to ``tops`` that have a walk, ascending, with their routes.

    Such counts cover a stretch of path indices, each with at least a unit; each comes
    with its :func:`_chain_routes`.
    """
    counts: list[tuple[int, ...]] = []
    for lo in range(_NP):
        for hi in range(lo, _NP):
            if all(tops[i] >= _WEIGHT[i] for i in range(lo, hi + 1)):
                counts += product(*(range(_WEIGHT[i], tops[i] + 1) if lo <= i <= hi else (0,)
                                    for i in range(_NP)))
    counts.sort()
    out = []
    for t in counts:
        routes = _chain_routes(t)
        if routes is not None:
            out.append((t, routes))
    return tuple(out)


def _lazy_walks(tops: tuple[int, ...]) -> Iterator[_Walk]:
    """:func:`_walkable` one at a time (a generator, also when compiled)."""
    for t in product(*(range(h + 1) for h in tops)):
        routes = _chain_routes(t)
        if routes is not None:
            yield t, routes


def _chain_plays(groups: _Groups, link_top: tuple[bool, ...], cc: int, sink: _Sink,
                 mode: int) -> None:
    """Plays along the path 9 — 6 — 33 — 8 (TD-2.3, TD-2.5), single-value ones included.

    ``groups[i]`` is (faces, counts) of the hand's cards of path index ``i``;
    ``link_top[i]`` says whether that value links to the top card.  ``mode`` (``ALL``,
    ``SMALL``, ``FULL``, ``EXACT``) chooses the card counts visited: all, at most two
    cards, all the cards of each stretch of present values, or every card given.  For each
    multiset with a walk and each card it may end on, the first start (in path order) whose
    first card links to the top or has the colour (TD-2.4) gives the one canonical order:
    the first card, the blocks along the walk (ascending within each), the last card.
    """
    subs = [_subs(faces, counts) for faces, counts in groups]
    tops = tuple(len(x) - 1 for x in subs)
    opens = [bool(tops[i]) and (link_top[i] or (cc >= 0 and any(
        FACE_COLOR[f] == cc for f in groups[i][0]))) for i in range(_NP)]
    if not any(opens):
        return  # no card may start a chain play
    walks: Iterable[_Walk]
    if mode == ALL and _bound(tops) <= _WALKABLE_MAX:
        walks = _walkable(tops)
    elif mode == ALL:  # lazily: the listing limit may stop it early
        walks = _lazy_walks(tops)
    else:
        if mode == SMALL:
            t_iter: Iterable[tuple[int, ...]] = (
                t for t in product(*(range(min(h, 2) + 1) for h in tops)) if sum(t) <= 2)
        elif mode == EXACT:
            t_iter = [tops]
        else:
            t_iter = [tuple(tops[i] if lo <= i <= hi else 0 for i in range(_NP))
                      for lo in range(_NP) for hi in range(lo, _NP)
                      if all(tops[i] for i in range(lo, hi + 1))]
        walks = [(t, r) for t in t_iter if (r := _chain_routes(t)) is not None]
    seqs = sink.seqs
    limit = sink.limit
    no_colour = cc < 0
    for t, (present, size, feas) in walks:
        for i in present:
            if opens[i]:
                break
        else:
            continue  # none of these values may start a play
        if size == 1:  # one card, which must link to the top or have the colour
            e = present[0]
            ok = link_top[e]
            for sub in subs[e][1]:
                if ok or (not no_colour and sub[2][cc] >= 0):
                    seqs.append(sub[1])
            continue
        for combo in product(*(subs[i][t[i]] for i in present)):
            for e, pe, starts in feas:
                sub_e = combo[pe]
                for n, (s, ps, _, segs, single, between) in enumerate(starts):
                    if link_top[s]:  # the smallest card starts
                        if single:
                            seqs += sub_e[5]
                        elif between is not None:  # s's cards, those between, e's cards
                            head = combo[ps][1]
                            for x in between:
                                head += combo[x][1]
                            seqs += [head + tail for tail in sub_e[5]]
                        elif s == e:  # the end's cards less the last: the first of them starts
                            _chain_by_recipe(seqs, sub_e, sub_e[3], (), (0, 1),
                                             _recipe(combo, segs, (), 1))
                        else:
                            pool_s = combo[ps][1]
                            _chain_by_recipe(seqs, sub_e, sub_e[3], (pool_s[0],), None,
                                             _recipe(combo, segs, pool_s[1:], 0))
                        break
                    if no_colour:
                        continue
                    sub_s = combo[ps]
                    m = sub_s[2][cc]
                    if m < 0:
                        continue
                    # a card of the current colour starts
                    first = groups[s][0][m]
                    if between is not None:
                        head = (first, *sub_s[3][m])
                        for x in between:
                            head += combo[x][1]
                        seqs += [head + tail for tail in sub_e[5]]
                        break
                    if s != e:
                        _chain_by_recipe(seqs, sub_e, sub_e[3], (first,), None,
                                         _recipe(combo, segs, sub_s[3][m], 0))
                        break
                    # on one index: the colour's card starts unless it is the last card
                    vec_e = sub_e[0]
                    head, pieces = _recipe(combo, segs, (), 0)
                    head = (first, *head)
                    minus2 = sub_e[6]
                    for j, last in sub_e[4]:
                        if m != j or vec_e[j] > 1:
                            rest = minus2[j][m]
                            out = head
                            for a, b, fixed in pieces:
                                out = out + rest[a:b] + fixed
                            seqs.append((*out, last))
                        else:
                            seq = _chain_later(combo, present, starts[n + 1:], e, j, last,
                                               link_top, cc, groups)
                            if seq is not None:
                                seqs.append(seq)
                    break
            if 0 < limit < len(seqs):
                raise _TooMany
    if 0 < limit < len(seqs):
        raise _TooMany


_Piece = tuple[int, int, tuple[int, ...]]
"""Part of a chain play: the end's cards ``[from:to]`` (less the last), then fixed cards."""


def _recipe(combo: tuple[_Sub, ...], segs: tuple[_Seg, ...], rest_s: tuple[int, ...],
            shift: int) -> tuple[tuple[int, ...], list[_Piece]]:
    """A walk's blocks for one multiset: fixed cards, then pieces (see :data:`_Piece`).

    The fixed cards come before the first of the end index's; ``shift`` moves the end's
    ranges.
    """
    head: tuple[int, ...] = ()
    pieces: list[_Piece] = []
    for pos, kind, a, b in segs:
        if kind == 2:
            a += shift
            b += shift
            if pieces and not pieces[-1][2] and pieces[-1][1] == a:
                pieces[-1] = (pieces[-1][0], b, ())
            else:
                pieces.append((a, b, ()))
        else:
            cards = (rest_s if kind == 1 else combo[pos][1])[a:b]
            if pieces:
                x, y, fixed = pieces[-1]
                pieces[-1] = (x, y, fixed + cards)
            else:
                head += cards
    return head, pieces


def _chain_by_recipe(seqs: list[tuple[int, ...]], sub_e: _Sub,
                     rests: tuple[tuple[int, ...], ...], first: tuple[int, ...],
                     lead: tuple[int, int] | None,
                     recipe: tuple[tuple[int, ...], list[_Piece]]) -> None:
    """The chain plays of one multiset and walk, one for each card it may end on.

    Each is ``first``, the recipe's cards, the last card; ``rests[j]`` are the end's cards
    less face ``j`` (``lead``: a range of them that starts the play, before the recipe).
    """
    head, pieces = recipe
    head = first + head
    if lead is not None:
        a, b = lead
        if pieces and pieces[0][0] == b and not head:
            pieces = [(a, pieces[0][1], pieces[0][2]), *pieces[1:]]
        else:
            pieces = [(a, b, head), *pieces]
            head = ()
    tails = sub_e[5]
    if not pieces or (len(pieces) == 1 and pieces[0][0] == 0 and not pieces[0][2]
                      and pieces[0][1] == len(sub_e[1]) - 1):
        seqs += [head + tail for tail in tails] if head else tails
        return
    for j, last in sub_e[4]:
        rest = rests[j]
        out = head
        for a, b, fixed in pieces:
            out = out + rest[a:b] + fixed
        seqs.append((*out, last))


def _chain_later(combo: tuple[_Sub, ...], present: tuple[int, ...],
                 starts: tuple[_Start, ...], e: int, j: int, last: int,
                 link_top: tuple[bool, ...], cc: int, groups: _Groups) -> tuple[int, ...] | None:
    """The play ending on ``last`` from the first of ``starts`` whose first card is valid.

    Used when the last card, the colour's only one, could not also be the first.
    """
    for s, ps, blocks, _, _, _ in starts:
        sub_s = combo[ps]
        if link_top[s]:
            first = sub_s[1][0]
        else:
            m = sub_s[2][cc] if cc >= 0 else -1
            if m < 0:
                continue
            first = groups[s][0][m]
        return _chain_seq(combo, present, s, e, blocks, first, last)
    return None


def _chain_seq(combo: tuple[_Sub, ...], present: tuple[int, ...], s: int, e: int,
               blocks: _Blocks, first: int, last: int) -> tuple[int, ...]:
    """The canonical order of a chain play: ``first``, the blocks of the walk, ``last``."""
    left: list[tuple[int, ...]] = [()] * _NP
    for i, sub in zip(present, combo, strict=True):
        left[i] = sub[1]
    rest = list(left[e])
    rest.remove(last)
    left[e] = tuple(rest)
    rest = list(left[s])
    rest.remove(first)
    left[s] = tuple(rest)
    out = [first]
    at = [0] * _NP
    for i, need in blocks:
        if need:
            x = at[i]
            out += left[i][x:x + need]
            at[i] = x + need
    out.append(last)
    return tuple(out)


MAX_LISTED_PLAYS: Final = 1000
"""Above this many distinct plays, :meth:`ThrowdownState.legal_actions` lists a subset.

Big Throwdown hands allow astronomically many distinct plays (a 41-card hand rich in 9s,
6s, 3s and 8s has over a million), so the listing is complete only up to this size.
Beyond it the list holds every play of one or two cards, every maximal play (all the cards
of a value, an action type, a family or a stretch of the 9—6—33—8 chain, ending on each
possible card) and every wild play; every other legal play is still accepted.
"""


def _chain_groups(by_value: dict[int, list[tuple[int, int]]]) -> _Groups:
    return tuple((tuple(f for f, _ in by_value.get(v, ())),
                  tuple(k for _, k in by_value.get(v, ()))) for v in _PATH)


def _regular_run(hand: Items, top_value: int, cc: int, cap: bool, sink: _Sink,
                 mode: int) -> None:
    """The whole-hand enumeration of the regular plays in ``mode`` (see :func:`_vectors`)."""
    link = LINK[top_value]
    by_value: dict[int, list[tuple[int, int]]] = {}
    for f, k in hand:
        by_value.setdefault(VAL[f], []).append((f, 1 if cap else k))
    for v in _GROUP_VALUES:
        items = by_value.get(v)
        if items:
            _group_plays(tuple(f for f, _ in items), _vectors(tuple(k for _, k in items), mode),
                         link[v], cc, sink)
    threes = by_value.get(3, ())
    if mode < FULL or (mode == EXACT and len(by_value) == 1 and sum(k for _, k in threes) == 1):
        for f, _ in threes:
            if link[3] or FACE_COLOR[f] == cc:
                sink.seqs.append((f,))
        sink.full()
    if any(v in by_value for v in _PATH):
        _chain_plays(_chain_groups(by_value), tuple(link[v] for v in _PATH_VALUE), cc, sink,
                     mode)


def _listing(run: Any, limit: int, too_many: bool = False) -> tuple[tuple[int, ...], ...]:
    """Run an enumeration: completely when the plays are few, else the reduced listing.

    ``too_many``: the plays are already known to be more than ``limit`` (not counted again).
    """
    if not too_many:
        try:
            sink = _Sink(limit)
            run(sink, ALL)
            return tuple(sink.seqs)
        except _TooMany:
            pass
    seen: set[tuple[tuple[int, ...], int]] = set()
    out: list[tuple[int, ...]] = []
    for mode in (SMALL, FULL):
        sink = _Sink()
        run(sink, mode)
        for seq in sink.seqs:
            key = (tuple(sorted(seq)), seq[-1])
            if key not in seen:
                seen.add(key)
                out.append(seq)
    return tuple(out)


# ----------------------------------------------------------------- the listing by parts
#
# A hand's plays are the union of independent parts: the plays of each value (or action
# type) outside the chain, the lone 3s and the plays along the chain 9 — 6 — 33 — 8.  Each
# part depends only on the hand's cards of that part, whether it links to the top card and
# the current colour, so a part's listing is memoised on exactly those facts: when a hand
# changes by a card or two, or the top card changes, most parts are found again at once,
# and the few new ones are enumerated alone.  A part of one card is decided on the spot.
# The concatenation in the enumeration's own order is the complete listing (identical, card
# for card and in order, to what the whole-hand enumeration gives); when the parts together
# hold more than the listing limit, the whole-hand enumeration builds the reduced listing.

_tuple_new: Final = tuple.__new__


def _as_plays(seqs: Iterable[tuple[int, ...]]) -> tuple[Action, ...]:
    """``Action(PLAY, seq)`` for each card sequence, built as plain tuples.

    A listing can be long, and the named tuple's own constructor is several times slower.
    """
    play = A.PLAY
    return tuple([_tuple_new(Action, (play, q, NO_COLOR, -1, 0, False)) for q in seqs])


@lru_cache(maxsize=1024)
def _wild_play(face: int, count: int, color: int) -> Action:
    """The play of ``count`` wilds ``face`` naming ``color`` (one object each)."""
    return Action(A.PLAY, (face,) * count, color)


_PLAY1: Final = tuple(Action(A.PLAY, (f,)) for f in range(NUM_FACES))
"""The play of each single card."""
_PARTS: dict[tuple[Any, ...], tuple[Action, ...] | None] = {}
"""Memoised listings of parts (None: more plays than the limit)."""
_PARTS_HELD = [0]
_PARTS_MAX: Final = 200_000
"""Plays kept (all entries together) before the memo starts afresh (a bound on memory)."""
_KEPT_PLAYS: Final = 16
"""Parts of more plays than this are kept only among the last few (:data:`_RECENT`).

Big parts come from big hands, which seldom come back in another game; what does come
back is the same hand a moment later (a card drawn that the part does not use).  Keeping
them all would fill the memo with parts met once, and every object kept is one more for
the garbage collector to walk.
"""
_RECENT: dict[tuple[Any, ...], tuple[Action, ...] | None] = {}
"""The last parts of more than :data:`_KEPT_PLAYS` plays (and those over the limit)."""
_RECENT_MAX: Final = 64


def _remember(key: tuple[Any, ...], got: tuple[Action, ...] | None) -> None:
    if got is None or len(got) > _KEPT_PLAYS:
        if len(_RECENT) >= _RECENT_MAX:
            del _RECENT[next(iter(_RECENT))]
        _RECENT[key] = got
        return
    held = 1 + len(got)
    if _PARTS_HELD[0] + held > _PARTS_MAX:
        _PARTS.clear()
        _PARTS_HELD[0] = 0
    _PARTS_HELD[0] += held
    _PARTS[key] = got


def _recall(key: tuple[Any, ...]) -> tuple[Action, ...] | None:
    """A part's memoised listing, or :data:`_MISSING`."""
    got = _PARTS.get(key, _MISSING)
    return _RECENT.get(key, _MISSING) if got is _MISSING else got


def _items_of(cards: list[int], cap: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(faces, counts) of sorted ``cards``; with ``cap`` each face counts once (TD-2.7)."""
    faces: list[int] = []
    counts: list[int] = []
    for f in cards:
        if faces and faces[-1] == f:
            if not cap:
                counts[-1] += 1
        else:
            faces.append(f)
            counts.append(1)
    return tuple(faces), tuple(counts)


_PART_OF: Final = tuple(0 if v in _GROUP_VALUES else 1 if v == 3 else 2 if v in _PATH else 3
                        for v in range(_NV))
"""How each face value enters the listing: 0 its own part (a value outside the chain), 1 the
lone 3s and the chain, 2 the chain, 3 not at all (wilds)."""


_VKEY: Final = tuple(VAL[f] * NUM_FACES + f for f in range(NUM_FACES))
"""A sort key of faces: by value, then by face (a hand sorted by it holds each value's cards
together, in the listing's order)."""
_AT: Final = tuple(_PATH.index(v) if v in _PATH else -1 for v in range(_NV))
"""The path index of each card value on the chain, or -1."""
_VALUE_OF: Final = VAL.__getitem__


def _stretches(units: int) -> tuple[tuple[int, int], ...]:
    """The stretches (lo, hi) of path indices whose bits are set, from the far end back."""
    out: list[tuple[int, int]] = []
    i = _NP - 1
    while i >= 0:
        if not units >> i & 1:
            i -= 1
            continue
        hi = i
        while i > 0 and units >> (i - 1) & 1:
            i -= 1
        out.append((i, hi))
        i -= 1
    return tuple(out)


_STRETCHES: Final = tuple(_stretches(u) for u in range(1 << _NP))
"""The stretches of each set of path indices holding a unit (a bit per index)."""


def _listing_rank(v: int) -> int:
    """Where a value's cards stand in a listing of single cards (see :data:`_SINGLE_KEY`)."""
    if _PART_OF[v] == 0:
        return _GROUP_VALUES.index(v)
    if v in _PATH:  # the lone 3s, then the chain from its far end back
        return len(_GROUP_VALUES) + (0 if v == 3 else _NP - _PATH.index(v))
    return 2 * _NV


_SINGLE_KEY: Final = tuple(_listing_rank(VAL[f]) * NUM_FACES + f for f in range(NUM_FACES))
"""A sort key of faces giving the listing's order when every value is held once: the values
outside the chain ascending, a lone 3, then the chain's stretches from the far end (8)."""
_SINGLES: Final = tuple(
    tuple(frozenset(f for f in range(NUM_FACES) if VAL[f] >= 0 and not IS_WILD[f]
                    and (LINK[tv][VAL[f]] or FACE_COLOR[f] == cc)) for cc in (*COLORS, -1))
    for tv in range(_NV))
"""``_SINGLES[top value][colour]``: the non-wild cards that may be played alone (TD-2.4)."""


def _linked_pair() -> tuple[int, int]:
    """The one pair of different values whose single cards link (9 and 6, from ``LINK``).

    The other links of TD-2.3 join a threes-unit, which takes two 3s.
    """
    pairs = [(v, w) for v, ws in _in_play_links().items() for w in ws
             if v < w and v not in _THREES and w not in _THREES]
    if len(pairs) != 1:
        raise AssertionError("the links of TD-2.3 no longer have one pair of single cards")
    return pairs[0]


_LINKED_PAIR: Final = _linked_pair()


def _regular_by_parts(hand: list[int], top_value: int, cc: int, cap: bool,
                      limit: int) -> list[Action] | None:
    """:func:`regular_plays` of the cards ``hand`` from memoised parts (a new list).

    Wilds are left out; None when the listing must be reduced.
    """
    values = {VAL[f] for f in hand}
    a, b = _LINKED_PAIR
    if len(values) == len(hand) and not (a in values and b in values):
        # every value held once and no two linked ones: the plays are single cards
        ok = _SINGLES[top_value][cc]
        singles = [_PLAY1[f] for f in sorted(hand, key=_SINGLE_KEY.__getitem__) if f in ok]
        return None if 0 < limit < len(singles) else singles
    link = LINK[top_value]
    out: list[Action] = []
    chain: list[list[int] | None] | None = None
    units = 0  # bit i: the chain's cards of path index i make at least one unit there
    for v, grp in groupby(sorted(hand, key=_VKEY.__getitem__), _VALUE_OF):
        part = _PART_OF[v]
        if part == 0:  # a value outside the chain: its own part (ascending values)
            g = tuple(grp)
            lk = link[v]
            if len(g) == 1:  # one card: it must link to the top or have the colour
                f = g[0]
                if lk or FACE_COLOR[f] == cc:
                    out.append(_PLAY1[f])
                continue
            key = (g, cap, lk, -1 if lk else cc)
            got = _PARTS.get(key)
            if got is None:
                got = _RECENT.get(key)
                if got is None:
                    faces, counts = _items_of(list(g), cap)
                    got = _as_plays(_value_plays(faces, counts, lk, cc))
                    _remember(key, got)
            out += got
        elif part < 3:
            if chain is None:
                chain = [None] * _NP
            held = list(grp)
            at = _AT[v]
            chain[at] = held
            w = _WEIGHT[at]
            if w == 1 or (len(set(held)) if cap else len(held)) >= w:
                units |= 1 << at
    if chain is None:
        return out
    threes = chain[_AT[3]]
    if threes is not None:  # lone 3s (TD-2.1)
        lk = link[3]
        prev = -1
        for f in threes:
            if f != prev and (lk or FACE_COLOR[f] == cc):
                out.append(_PLAY1[f])
            prev = f
    # the chain's cards fall into stretches of path indices, each holding at least a unit
    # (a lone 3 breaks the path); no play spans two stretches, and the listing takes the
    # stretches from the path's far end (8) back: each is a part of its own
    for lo, hi in _STRETCHES[units]:
        first_at = chain[lo]
        assert first_at is not None
        if lo == hi and len(first_at) == 1:  # one card (a unit of one)
            f = first_at[0]
            if link[_PATH_VALUE[lo]] or FACE_COLOR[f] == cc:
                out.append(_PLAY1[f])
        else:
            got = _chain_part(chain, lo, hi, link, cc, cap, limit)
            if got is None:
                return None
            out += got
    if 0 < limit < len(out):
        return None
    return out


def _chain_part(chain: list[list[int] | None], lo: int, hi: int, link: tuple[bool, ...],
                cc: int, cap: bool, limit: int) -> tuple[Action, ...] | None:
    """The chain plays of the stretch ``lo..hi`` of path indices, memoised; None: too many."""
    held = chain[lo]
    assert held is not None
    colour = cc >= 0 and _FACE_OF[_PATH[lo]][cc] in held
    if lo == hi:
        ckey: tuple[Any, ...] = (lo, tuple(held), cap, link[_PATH_VALUE[lo]],
                                 cc if colour else -1, limit)
    else:
        sets: list[tuple[int, ...]] = []
        links = 0
        for j in range(lo, hi + 1):
            h = chain[j]
            assert h is not None
            sets.append(tuple(h))
            links = 2 * links + link[_PATH_VALUE[j]]
            colour = colour or (cc >= 0 and _FACE_OF[_PATH[j]][cc] in h)
        ckey = (lo, tuple(sets), cap, links, cc if colour else -1, limit)
    got = _PARTS.get(ckey, _MISSING)
    if got is _MISSING:
        got = _RECENT.get(ckey, _MISSING)
        if got is _MISSING:
            groups = tuple(_items_of(chain[j] or [], cap) if lo <= j <= hi else ((), ())
                           for j in range(_NP))
            link_top = tuple(lo <= j <= hi and link[_PATH_VALUE[j]] for j in range(_NP))
            sink = _Sink(limit)
            got = None
            try:
                _chain_plays(groups, link_top, cc if colour else -1, sink, ALL)
                got = _as_plays(sink.seqs)
            except _TooMany:
                pass
            _remember(ckey, got)
    return got


_MISSING: Final[tuple[Action, ...]] = (A.DRAW_ACTION,)
"""A memo miss (never a listing of plays)."""


def regular_plays(hand: Items, top_value: int, cc: int, cap: bool,
                  limit: int = MAX_LISTED_PLAYS) -> tuple[Action, ...]:
    """The non-wild regular plays (TD-2) of a hand, one canonical order per outcome.

    ``hand`` holds the non-wild cards; ``top_value`` is the top card's value (TD-2.4), ``cc``
    the current colour, ``cap`` true when a play may not hold the same card twice (TD-2.7).
    All of them when there are at most ``limit`` (0: no limit), else the reduced listing
    of :data:`MAX_LISTED_PLAYS`.
    """
    return tuple(_regular_plays([f for f, k in hand for _ in range(k)], top_value, cc, cap,
                                limit))


def _regular_plays(hand: list[int], top_value: int, cc: int, cap: bool,
                   limit: int) -> list[Action]:
    """:func:`regular_plays` of the cards ``hand``, as a new list."""
    fast = _regular_by_parts(hand, top_value, cc, cap, limit)
    if fast is not None:
        return fast
    counts: dict[int, int] = {}
    for f in hand:
        if not IS_WILD[f]:
            counts[f] = counts.get(f, 0) + 1
    items = tuple(sorted(counts.items()))

    def run(sink: _Sink, mode: int) -> None:
        _regular_run(items, top_value, cc, cap, sink, mode)

    # the parts said: more than ``limit`` plays, the reduced listing
    return list(_as_plays(_listing(run, limit, too_many=True)))


def _opens_freely(top: int, fam: int, match: str) -> bool:
    """Whether a defence of family ``fam`` may start with a card of any colour (TD-4.3).

    By default (``color_or_kind``) only a card of the kind on top does (a draw card on a
    draw card, a Skip on a Skip, a Reverse on a Reverse); with ``kind_free`` any
    Throwdown card does, except on a wild, where only a draw card may answer a Wild Draw
    Four.  Otherwise the first card must have the current colour.
    """
    kind = _top_kind(top)
    if match == "kind_free":
        return (kind != K_WILD and top != WD4) or (top == WD4 and fam == F_DRAW)
    return (kind == K_DRAW and fam == F_DRAW) or (kind == K_SKIP and fam == F_SKIP) \
        or (kind == K_REV and fam == F_REV)


_FREE: dict[tuple[str, int], tuple[bool, ...]] = {}


def _free_families(top: int, match: str) -> tuple[bool, ...]:
    """:func:`_opens_freely` of each family (by its number) on ``top``, memoised."""
    got = _FREE.get((match, top))
    if got is None:
        got = tuple(_opens_freely(top, fam, match) for fam in range(len(FAMILY_NAMES)))
        _FREE[(match, top)] = got
    return got


def _defence_run(hand: Items, level: int, top: int, cc: int, match: str, mix2: bool,
                 rule4: str, mix4: bool, cap: bool, sink: _Sink, mode: int) -> None:
    fam_of = FAM[level]
    by_fam: dict[int, list[tuple[int, int]]] = {}
    for f, k in hand:
        fam = fam_of[f]
        if fam >= 0:
            by_fam.setdefault(fam, []).append((f, 1 if cap else k))
    for fam in (F_DRAW, F_SKIP, F_REV, F_ZERO):
        items = by_fam.get(fam)
        if not items:
            continue
        faces = tuple(f for f, _ in items)
        counts = tuple(k for _, k in items)
        any_first = _opens_freely(top, fam, match)
        vectors: Iterable[tuple[int, ...]] = _vectors(counts, mode)
        if fam == F_DRAW:
            if mode == FULL:
                vectors = _maximal_draws(faces, counts)
            vectors = filter(_draw_rule(faces, level, mix2, rule4, mix4), vectors)
        _group_plays(faces, vectors, any_first, cc, sink)


def _maximal_draws(faces: tuple[int, ...], counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Large draw defences: all the cards, all 2-valued or all 4s, each less one 2-valued."""
    twos = tuple(k if _TWO_VALUED[f] else 0 for f, k in zip(faces, counts, strict=True))
    fours = tuple(0 if _TWO_VALUED[f] else k for f, k in zip(faces, counts, strict=True))
    out = [counts, twos, fours]
    for base in (counts, twos):
        for i, f in enumerate(faces):
            if _TWO_VALUED[f] and base[i]:
                out.append(tuple(k - (j == i) for j, k in enumerate(base)))
    return tuple(dict.fromkeys(out))


def defence_plays(
    hand: Items, level: int, top: int, cc: int, match: str, mix2: bool, rule4: str,
    mix4: bool, cap: bool, limit: int = MAX_LISTED_PLAYS,
) -> tuple[Action, ...]:
    """The non-wild Throwdown defences (TD-4.2 to TD-4.6), one canonical order per outcome.

    All of them when there are at most ``limit``, else the reduced listing.
    """
    return tuple(_defence_plays([f for f, k in hand for _ in range(k)], level, top, cc, match,
                                mix2, rule4, mix4, cap, limit))


_FAMILIES: Final = (F_DRAW, F_SKIP, F_REV, F_ZERO)


def _defence_plays(hand: list[int], level: int, top: int, cc: int, match: str, mix2: bool,
                   rule4: str, mix4: bool, cap: bool, limit: int) -> list[Action]:
    """:func:`defence_plays` of the cards ``hand``, each family's part memoised (a new list).

    Like :func:`_regular_by_parts`, by family instead of by value.
    """
    fam_of = FAM[level]
    by_fam: dict[int, list[int]] = {}
    for f in hand:
        fam = fam_of[f]
        if fam >= 0:
            if fam in by_fam:
                by_fam[fam].append(f)
            else:
                by_fam[fam] = [f]
    out: list[Action] = []
    free_of = _free_families(top, match)
    for fam in _FAMILIES:
        g = by_fam.get(fam)
        if g is None:
            continue
        free = free_of[fam]
        if not free and not any(FACE_COLOR[f] == cc for f in g):
            continue  # nothing of this family can start a defence
        g.sort()
        rules = (level, mix2, rule4, mix4) if fam == F_DRAW else ()
        key = (2, tuple(g), cap, free, -1 if free else cc, rules, limit)
        got = _recall(key)
        if got is _MISSING:
            faces, counts = _items_of(g, cap)
            got = None
            if fam != F_DRAW:  # one value: Skips, Reverses or 0s
                seqs = _value_plays(faces, counts, free, cc)
                if not 0 < limit < len(seqs):
                    got = _as_plays(seqs)
            else:
                vectors = filter(_draw_rule(faces, level, mix2, rule4, mix4),
                                 _vectors(counts, ALL))
                sink = _Sink(limit)
                try:
                    _group_plays(faces, vectors, free, cc, sink)
                    got = _as_plays(sink.seqs)
                except _TooMany:
                    pass
            _remember(key, got)
        if got is None:
            break
        out += got
    else:
        if not 0 < limit < len(out):
            return out
    counts_: dict[int, int] = {}
    for f in hand:
        if not IS_WILD[f]:
            counts_[f] = counts_.get(f, 0) + 1
    items = tuple(sorted(counts_.items()))

    def run(sink: _Sink, mode: int) -> None:
        _defence_run(items, level, top, cc, match, mix2, rule4, mix4, cap, sink, mode)

    return list(_as_plays(_listing(run, limit, too_many=True)))


def canonical_order(
    state: ThrowdownState, cards: tuple[int, ...],
) -> tuple[int, ...] | None:
    """The canonical order of the non-wild play ``cards`` (any valid order) in ``state``."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    items = tuple(sorted(counts.items()))
    o = state.opts
    sink = _Sink()
    if state.phase == RESPONSE:
        _defence_run(items, state.level, state.discard[-1], state.color, o.throwdown_match,
                     o.level2_mix_draw_family, o.level4_draw_rule, o.level4_mix_fours, False,
                     sink, EXACT)
    else:
        _regular_run(items, state.top_value(), state.color, False, sink, EXACT)
    key = tuple(sorted(cards))
    return next((q for q in sink.seqs if q[-1] == cards[-1] and tuple(sorted(q)) == key), None)


def _draw_rule(faces: tuple[int, ...], level: int, mix2: bool, rule4: str,
               mix4: bool) -> Callable[[tuple[int, ...]], bool]:
    """The count rules of a draw defence (TD-4.5, TD-4.6): a test of count vectors.

    The vectors count the cards of each of ``faces``.  At level 2 one draw type unless
    they mix; at level 4 no lone (by the even rule, no odd number of) 2-valued cards, and
    4s beside them only if they mix.
    """
    twos = [i for i, f in enumerate(faces) if _TWO_VALUED[f]]
    fours = [i for i, f in enumerate(faces) if not _TWO_VALUED[f]]
    if level == 2:
        if mix2:
            return lambda v: True
        by_type: dict[int, list[int]] = {}
        for i, f in enumerate(faces):
            by_type.setdefault(_DRAW_TYPE[f], []).append(i)
        groups = list(by_type.values())
        return lambda v: sum(1 for g in groups if any(v[i] for i in g)) <= 1
    even = rule4 == "even"

    def ok(v: tuple[int, ...]) -> bool:
        n2 = 0
        for i in twos:
            n2 += v[i]
        if n2 == 1 or (even and n2 & 1):
            return False
        return mix4 or not n2 or not any(v[i] for i in fours)

    return ok


# --------------------------------------------------------------------------- the state


class ThrowdownState(VariantState[ThrowdownOptions]):
    """A game of Uno Throwdown (one game: a winner and, when play goes on, a loser)."""

    def __init__(self, variant: Variant[ThrowdownOptions], opts: ThrowdownOptions, players: int,
                 seed: int, deal_scheme: int = DEAL_SCHEME) -> None:
        super().__init__(variant, opts, players, seed, deal_scheme)
        self.deck = standard_deck() * opts.decks
        self.pot = 0
        self.level = 0
        self.top_player = NOBODY
        self.pair_on_top = False
        self.turns = 0
        self.winner = NOBODY
        self.declined: list[int] = []
        self.left: list[int] = []
        """Seats that left the table (TD-6.6), in the order they left."""
        self.buried = 0
        """Cards at the bottom of the discard pile that nobody sees: the hands of players who
        left (TD-6.6).  A reshuffle takes them into the draw pile."""
        self._canon_ver = -1
        self._canon: dict[tuple[tuple[int, ...], int, int], Action] = {}

    max_listed_plays: int = MAX_LISTED_PLAYS
    """Most distinct plays listed before the reduced listing (0: always list all)."""

    @staticmethod
    def check_options(players: int, opts: Any) -> None:
        """Reject impossible combinations (TD-1.2)."""
        if players > opts.max_players:
            raise OptionError(
                "bad_option_combination",
                f"{players} players is more than max_players={opts.max_players}",
            )

    def _clone_extra(self, new: Any) -> None:
        new.declined = self.declined[:]
        new.left = self.left[:]
        new._canon_ver = -1

    def _reshuffle_rule(self) -> str:
        return "TD-1.1"  # Standard's cards and reshuffling

    def _shortfall_rule(self, rule: str) -> str:
        """Owed cards are forgiven by TD-3.2 (``shortfall``), a pot's by TD-4.8."""
        return "TD-4.8" if rule == "TD-4.8" else "TD-3.2"

    def buried_cards(self) -> int:
        """The cards of players who left, face down under the discard pile (TD-6.6)."""
        return self.buried

    def _refill(self, rule: str) -> bool:
        if not super()._refill(rule):
            return False
        self.buried = 0
        return True

    def _back_in(self, seat: int) -> None:
        """A call-back (TD-6.4) keeps the exit in ``out_order``: it records every exit.

        Who is out *now* is a seat that is not active and did not leave (:meth:`_is_out`);
        ``_draw_back_in`` puts a player back in the turn order (a call-back, or the penalty
        of his own wrong call, TD-5.5).
        """

    # ------------------------------------------------------------------ setup

    def start(self, dealer: int | None) -> None:
        """Choose the dealer (TD-1.3), deal, turn up the first card, set the direction."""
        if dealer is None and self.opts.dealer_selection == "draw_high":
            self.dealer = self._draw_high(self.deck)
        else:
            self.dealer = 0 if dealer is None else dealer
        self.emit("dealer", self.dealer, "TD-1.3")
        self.hand_no = 1
        pile = self._deal_pile(7)
        self.draw_pile = pile
        self.discard = []
        self.hands = self._deal_hands(pile, 7)  # seven cards each, from the dealer's left
        self.hand_size = 7
        self.emit("deal", self.dealer, "TD-1.3", n=7)
        self.start_hand()

    def start_hand(self) -> None:
        """The first card (TD-1.4) and the direction (TD-1.5), after the deal."""
        pile = self.draw_pile
        if all(FACE_KIND[f] != NUMBER for f in pile):
            raise PositionError("bad_position", "the draw pile holds no number card to turn "
                                "up first (TD-1.4)")
        while True:  # TD-1.4: specials stay buried until a number card shows
            top = pile.pop()
            self.discard.append(top)
            self.emit("up_card", -1, "TD-1.4", (top,))
            if FACE_KIND[top] == NUMBER:
                break
        self.color = FACE_COLOR[top]
        d = self.opts.initial_direction
        if d == 0:
            self.phase = DEAL
            self.turn = self.dealer
            return
        self._set_direction(d)

    def _set_direction(self, d: int) -> None:
        self.direction = d
        self.emit("direction", self.dealer, "TD-1.5", n=d)
        self._give_turn(self.next_seat(self.dealer))

    def _give_turn(self, seat: int) -> None:
        self.phase = TURN
        self.turn = seat
        self.drew = False
        self.drawn = -1

    # ------------------------------------------------------------------ legality

    def _hand_items(self, seat: int, wild: bool = False) -> Items:
        counts: dict[int, int] = {}
        for f in self.hands[seat]:
            if wild or not IS_WILD[f]:
                counts[f] = counts.get(f, 0) + 1
        return tuple(sorted(counts.items()))

    def top_value(self) -> int:
        """Value of the top card for the next play (TD-2.4)."""
        top = self.discard[-1]
        v = VAL[top]
        if v == 3 and self.pair_on_top and self.opts.top_three_pair_equivalence:
            return V33
        return v

    def _nonwild_plays(self, seat: int) -> list[Action]:
        """The non-wild plays or defences of ``seat`` now, as a new list."""
        o = self.opts
        if self.phase == RESPONSE:
            return _defence_plays(
                self.hands[seat], self.level, self.discard[-1], self.color,
                o.throwdown_match, o.level2_mix_draw_family, o.level4_draw_rule,
                o.level4_mix_fours, not o.multi_play_same_color, self.max_listed_plays,
            )
        return _regular_plays(self.hands[seat], self.top_value(), self.color,
                              not o.multi_play_same_color, self.max_listed_plays)

    def _has_nonwild(self, seat: int) -> bool:
        """Whether ``seat`` has any non-wild play (or defence) now: a fast check."""
        hand = self.hands[seat]
        cc = self.color
        cap = not self.opts.multi_play_same_color
        if self.phase == RESPONSE:
            fam_of = FAM[self.level]
            top = self.discard[-1]
            match = self.opts.throwdown_match
            free = _free_families(top, match)
            for f in hand:
                fam = fam_of[f]
                if fam < 0 or not (FACE_COLOR[f] == cc or free[fam]):
                    continue
                # TD-4.5: at level 4 a 2-valued card needs a second one beside it
                if self.level == 4 and _TWO_VALUED[f]:
                    twos = [x for x in hand if _TWO_VALUED[x]]
                    if len(set(twos) if cap else twos) < 2:
                        continue
                return True
            return False
        link = LINK[self.top_value()]
        threes = 0
        for f in hand:
            v = VAL[f]
            if v < 0 or IS_WILD[f]:
                continue
            if FACE_COLOR[f] == cc or link[v]:
                return True
            if v == 3:
                threes += 1
        if threes >= 2 and link[V33]:
            if not cap:
                return True
            return len({f for f in hand if VAL[f] == 3}) >= 2
        return False

    def _has_play(self, seat: int) -> bool:
        """Whether ``seat`` has any legal play or defence now (TD-3.2, TD-4.8)."""
        if self._has_nonwild(seat):
            return True
        hand = self.hands[seat]
        return len(hand) >= 2 and (W in hand or WD4 in hand)

    def _drawn_makes_play(self, seat: int) -> bool:
        """:meth:`_has_play` in a turn, when ``seat`` had no play before the card drawn last.

        Cards drawn only add plays, so only the new card can make one: alone, as a second
        3 for a threes-unit, or as the second card beside a wild (a wild is played with
        another card left in hand, TD-2.8).
        """
        hand = self.hands[seat]
        c = hand[-1]
        if c in (W, WD4):
            return len(hand) >= 2
        if len(hand) == 2 and hand[0] in (W, WD4):
            return True
        v = VAL[c]
        if v < 0 or IS_WILD[c]:
            return False
        link = LINK[self.top_value()]
        if FACE_COLOR[c] == self.color or link[v]:
            return True
        if v != 3 or not link[V33]:
            return False
        threes = [f for f in hand if VAL[f] == 3]
        return len(set(threes) if not self.opts.multi_play_same_color else threes) >= 2

    def _wild_colors(self, f: int) -> tuple[int, ...]:
        o = self.opts
        must = o.wild_color_must_change if f == W else o.wd4_color_must_change
        if must and self.color >= 0:
            return tuple(c for c in COLORS if c != self.color)
        return COLORS

    def _wild_plays(self, seat: int, nonwild: bool) -> list[Action]:
        """Wild plays (TD-2.8, TD-2.9, TD-4.7), one per count and named colour."""
        hand = self.hands[seat]
        size = len(hand)
        acts: list[Action] = []
        for f in (W, WD4):
            count = hand.count(f)
            if not count or size < 2:
                continue
            if nonwild:
                if self.phase == RESPONSE or f == W:
                    continue
                rule = self.opts.regular_wd4_restriction
                if rule == "no_other_move":
                    continue
                if rule == "no_current_color" and any(
                    FACE_COLOR[x] == self.color for x in hand
                ):
                    continue
            top_k = min(count, size - 1) if self.opts.multi_play_same_color else 1
            colors = self._wild_colors(f)
            for k in range(1, top_k + 1):
                acts += [_wild_play(f, k, c) for c in colors]
        return acts

    def _turn_actions(self, seat: int) -> list[Action]:
        """:meth:`_main_actions` in phase ``turn`` (the common case, spelt out)."""
        o = self.opts
        hand = self.hands[seat]
        top = self.discard[-1]
        tv = VAL[top]
        if tv == 3 and self.pair_on_top and o.top_three_pair_equivalence:
            tv = V33  # TD-2.4, as top_value()
        acts = _regular_plays(hand, tv, self.color, not o.multi_play_same_color,
                              self.max_listed_plays)
        if W in hand or WD4 in hand:
            acts += self._wild_plays(seat, bool(acts))
        if not acts or (o.voluntary_draw and not self.drew):
            acts.append(A.DRAW_ACTION)
        acts.append(_LEAVE)  # TD-6.6: the player to act may leave instead
        return acts

    def _main_actions(self, seat: int) -> list[Action]:
        ph = self.phase
        if ph == DEAL:
            return list(_DIRECTION_ACTIONS)
        acts = self._nonwild_plays(seat)  # a new list: extended in place
        hand = self.hands[seat]
        if W in hand or WD4 in hand:
            acts += self._wild_plays(seat, bool(acts))
        if ph == RESPONSE:
            # without a defence the engine draws the pot at once (TD-4.8); a position may
            # still hold such a pot, whose defender then has accept as his only answer
            if not acts or self.opts.voluntary_draw:
                acts.append(A.ACCEPT_ACTION)
        elif not acts or (self.opts.voluntary_draw and not self.drew):
            acts.append(A.DRAW_ACTION)
        acts.append(_LEAVE)  # TD-6.6: the player to act may leave instead
        return acts

    def _is_left(self, seat: int) -> bool:
        return seat in self.left

    def _is_out(self, seat: int) -> bool:
        """Whether ``seat`` is out of the game now: went out and was not called back."""
        return not self.active[seat] and seat in self.out_order and seat not in self.left

    def _has_windows(self) -> bool:
        return self.phase == TURN or self.phase == RESPONSE

    def force_targets(self, seat: int) -> list[int]:
        """Seats ``seat`` may make draw with its own Uno call now (TD-5.2, TD-6.4)."""
        o = self.opts
        if seat not in self.uno_open or o.uno_force_draw <= 0:
            return []
        if self.top_player != seat and not (
            o.uno_force_window == "any_own_turn" and self.turn == seat
            and self.phase in (TURN, RESPONSE)
        ):
            return []
        out = []
        for t in range(self.n):
            if t == seat:
                continue
            if self.active[t] or (o.extended_play and self._is_out(t)
                                  and t not in self.declined):
                out.append(t)
        return out

    def _window_actions(self, seat: int) -> list[Action]:
        active = self.active
        holds = active[seat]
        hands = self.hands
        o = self.opts
        n = self.n
        left = self.left
        if (seat == self.turn and holds and not self.uno_open and not left
                and o.false_uno_call_penalty > 0):
            # the common case, spelt out (nobody left, no Uno to call): the calls at hand
            # are the wrong ones (TD-5.5), on each seat in the game not holding one card
            if self.n_active == n and 1 not in map(len, hands):
                return list(_WRONG_CALLS[n][seat])  # every seat holds cards, none one
            out_order = self.out_order
            calls = [_CATCH[x] for x in _OTHERS[n][seat]
                     if len(hands[x]) != 1 and (active[x] or x in out_order)]
            if len(hands[seat]) != 1:
                calls.insert(0, A.UNO_ACTION)
            return calls
        if left and seat in left:
            return []  # left the table
        # a player who is out calls too (TD-5.4), and wrongly at his cost (TD-5.5)
        wrong = o.false_uno_call_penalty > 0 and (holds or seat in self.out_order)
        acts: list[Action] = []
        if seat in self.uno_open:
            acts.append(A.UNO_ACTION)
            acts += [_UNO_AT[t] for t in self.force_targets(seat)]
        elif wrong and len(hands[seat]) != 1:
            acts.append(A.UNO_ACTION)
        uno_open = self.uno_open
        out_order = self.out_order
        for x in range(self.n):
            if x == seat:
                continue
            if x in uno_open or (wrong and len(hands[x]) != 1
                                 and (active[x] or (x in out_order and x not in left))):
                acts.append(_CATCH[x])
        if (not holds and o.extended_play and o.play_on_after_first_out
                and seat not in self.declined
                and (seat == self.winner or o.callback_decline == "any_out_player")):
            acts.append(_DECLINE)
        if holds and seat != self.turn:
            acts.append(_LEAVE)  # TD-6.6: a player may leave at any time
        return acts

    # ------------------------------------------------------------------ multi-card plays

    def _sequence_state(self, seat: int, cards: tuple[int, ...] | list[int]) -> tuple[bool, bool]:
        """(valid so far, complete) for the ordered ``cards`` as the start of a play.

        *Valid so far* means some legal play may still start with these cards in this
        order; *complete* that they are a legal play as they stand.  The hand, the wild
        rules (TD-2.8, TD-2.9, TD-4.7) and the counting rules are all checked.
        """
        if not cards or self.phase not in (TURN, RESPONSE) or seat != self.turn:
            return False, False
        hand = self.hands[seat]
        o = self.opts
        counts: dict[int, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        if any(hand.count(c) < k for c, k in counts.items()):
            return False, False
        if not o.multi_play_same_color and len(counts) < len(cards):
            return False, False
        first = cards[0]
        cc = self.color
        if IS_WILD[first]:
            if any(c != first for c in cards) or len(cards) >= len(hand):
                return False, False
            nonwild = bool(self._nonwild_plays(seat))
            ok = any(a.cards[0] == first for a in self._wild_plays(seat, nonwild))
            return ok, ok
        if any(IS_WILD[c] for c in cards):
            return False, False
        if self.phase == RESPONSE:
            return self._defence_state(cards, counts)
        link = LINK[self.top_value()]
        # units: runs of 3s; a trailing single 3 after other cards may still become 33
        units: list[int] = []
        i = 0
        m = len(cards)
        pending = False
        while i < m:
            v = VAL[cards[i]]
            if v == 3:
                j = i
                while j < m and VAL[cards[j]] == 3:
                    j += 1
                if j - i >= 2:
                    units.append(V33)
                elif m == 1:
                    units.append(3)
                elif j == m:
                    units.append(V33)
                    pending = True
                else:
                    return False, False  # a lone 3 inside a play links to nothing
                i = j
            else:
                units.append(v)
                i += 1
        if m == 1 and units[0] == 3:
            alone = FACE_COLOR[first] == cc or link[3]
            as_pair = FACE_COLOR[first] == cc or link[V33]
            return alone or as_pair, alone
        if not (FACE_COLOR[first] == cc or link[units[0]]):
            return False, False
        for a, b in pairwise(units):
            if not LINK[a][b]:
                return False, False
        return True, not pending

    def _defence_state(self, cards: tuple[int, ...] | list[int],
                       counts: dict[int, int]) -> tuple[bool, bool]:
        o = self.opts
        fam_of = FAM[self.level]
        fam = fam_of[cards[0]]
        if fam < 0 or any(fam_of[c] != fam for c in cards):
            return False, False
        first = cards[0]
        if not (_opens_freely(self.discard[-1], fam, o.throwdown_match)
                or FACE_COLOR[first] == self.color):
            return False, False
        if fam != F_DRAW:
            return True, True
        faces = tuple(sorted(counts))
        vec = tuple(counts[f] for f in faces)
        if _draw_rule(faces, self.level, o.level2_mix_draw_family, o.level4_draw_rule,
                      o.level4_mix_fours)(vec):
            return True, True
        if self.level == 2:
            return False, False
        n2 = sum(k for f, k in counts.items() if _TWO_VALUED[f])
        n4 = len(cards) - n2
        # an odd or lone 2-valued count may still be completed by more 2-valued cards
        return (o.level4_mix_fours or not n4), False

    def is_legal_play(self, seat: int, cards: tuple[int, ...] | list[int]) -> bool:
        """Whether ``seat`` may play ``cards`` in this order now (colour aside)."""
        return self._sequence_state(seat, cards)[1]

    def play_extensions(self, seat: int, prefix: tuple[int, ...] | list[int]) -> list[int]:
        """Cards (face ids, ascending) that may follow ``prefix`` toward a legal play.

        For interfaces that build a throw card by card: ``play_extensions(seat, [])`` are
        the cards a play may start with.
        """
        prefix = tuple(prefix)
        if prefix and not self._sequence_state(seat, prefix)[0]:
            return []
        if self.phase not in (TURN, RESPONSE) or seat != self.turn:
            return []
        memo: dict[tuple[tuple[int, ...], int], bool] = {}
        return [c for c in sorted(set(self.hands[seat]))
                if self._completable(seat, (*prefix, c), memo)]

    def why_not_play(self, seat: int, cards: tuple[int, ...] | list[int]
                     ) -> tuple[str, str] | None:
        """Why no order of the selected ``cards`` is a legal throw of ``seat`` now.

        ``(rule id, words)`` naming the first rule the selection breaks (TD-2.3 to TD-2.9
        in regular play, TD-4.2 to TD-4.7 in a Throwdown), or None when some order of
        these cards is a legal play.
        """
        cards = tuple(cards)
        if not cards:
            return "TD-2.1", "choose the cards of your play first"
        if self.phase not in (TURN, RESPONSE) or seat != self.turn:
            return "", "it is not your turn to play"
        hand = self.hands[seat]
        if any(hand.count(c) < cards.count(c) for c in set(cards)):
            return "", "these cards are not all in your hand"
        if not self.opts.multi_play_same_color and len(set(cards)) < len(cards):
            return "TD-2.7", "two identical cards may not go down together at this table"
        if self._some_order(seat, cards):
            return None
        if any(IS_WILD[c] for c in cards):
            return self._why_not_wild(seat, cards)
        if self.phase == RESPONSE:
            return self._why_not_defence(cards)
        return self._why_not_regular(cards)

    def _some_order(self, seat: int, cards: tuple[int, ...]) -> bool:
        """Whether some order of ``cards`` is a legal play.

        A search over orders that drops an order as soon as no legal play starts like it.
        """
        stack: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), tuple(sorted(cards)))]
        while stack:
            prefix, rest = stack.pop()
            if not rest:
                if self._sequence_state(seat, prefix)[1]:
                    return True
                continue
            tried: set[int] = set()
            for i, c in enumerate(rest):
                if c in tried:
                    continue
                tried.add(c)
                seq = (*prefix, c)
                if self._sequence_state(seat, seq)[0]:
                    stack.append((seq, rest[:i] + rest[i + 1:]))
        return False

    def _why_not_wild(self, seat: int, cards: tuple[int, ...]) -> tuple[str, str]:
        if len(set(cards)) > 1:
            return "TD-2.6", "wilds go down only with wilds of the same kind, never with " \
                "other cards"
        if len(cards) >= len(self.hands[seat]):
            return "TD-2.9", "a play that empties your hand may not end with a wild"
        if self.phase == RESPONSE:
            return "TD-4.7", "in a Throwdown a wild may be played only when you have no " \
                "other defence"
        if cards[0] == WD4 and self.opts.regular_wd4_restriction == "no_current_color":
            return "TD-2.8", "a Wild Draw Four may be played only when you hold no " \
                f"{COLOR_NAMES[self.color]} card"
        name = "a Wild Draw Four" if cards[0] == WD4 else "a Wild"
        return "TD-2.8", f"{name} may be played only when nothing else in your hand can be"

    def _why_not_defence(self, cards: tuple[int, ...]) -> tuple[str, str]:
        fam_of = FAM[self.level]
        barred = [c for c in cards if fam_of[c] < 0]
        if barred:
            fours = " (4s count only at level 4)" if VAL[barred[0]] == 4 else ""
            return "TD-4.2", "during a Throwdown only draw cards (Draw Two, 2, 5" \
                f"{', 4' if self.level == 4 else ''}), Skips, Reverses and 0s may be " \
                f"played, not {card_name(barred[0])}{fours}"
        fams = {fam_of[c] for c in cards}
        if len(fams) > 1:
            return "TD-4.5", "a defence is of one family: draw cards, Skips, Reverses or " \
                "0s, never mixed"
        fam = fams.pop()
        o = self.opts
        if not (_opens_freely(self.discard[-1], fam, o.throwdown_match)
                or any(FACE_COLOR[c] == self.color for c in cards)):
            return "TD-4.4", "the first card of a defence must be " \
                f"{COLOR_NAMES[self.color]} or of the kind of card on top " \
                f"({card_name(self.discard[-1])})"
        if fam == F_DRAW:
            twos = sum(1 for c in cards if _TWO_VALUED[c])
            n4 = len(cards) - twos
            if self.level == 2 and not o.level2_mix_draw_family \
                    and len({_DRAW_TYPE[c] for c in cards}) > 1:
                return "TD-4.5", "at this table a draw defence at level 2 uses one kind " \
                    "of card only"
            if self.level == 4 and twos == 1:
                return "TD-4.6", "at level 4 one Draw Two, 2 or 5 alone is not a defence: " \
                    "play two or more of them"
            if self.level == 4 and twos % 2 and o.level4_draw_rule == "even":
                return "TD-4.6", "at level 4 the Draw Twos, 2s and 5s must come in an " \
                    "even number"
            if self.level == 4 and twos and n4 and not o.level4_mix_fours:
                return "TD-4.6", "at this table 4s may not share a defence with Draw " \
                    "Twos, 2s and 5s"
        return "TD-4.4", "no order of these cards makes a defence now"

    def _why_not_regular(self, cards: tuple[int, ...]) -> tuple[str, str]:
        values = sorted({VAL[c] for c in cards})
        actions = [v for v in values if v in (VSKIP, VREV, VD2)]
        if actions and len(values) > 1:
            return "TD-2.6", "a play is either number cards linked together or cards of " \
                "one action (all Skips, all Reverses or all Draw Twos), never a mix"
        threes = sum(1 for c in cards if VAL[c] == 3)
        link = LINK[self.top_value()]
        opens = any(FACE_COLOR[c] == self.color or link[VAL[c]] for c in cards) \
            or (threes >= THREES_UNIT and link[V33])
        if not opens:
            return "TD-2.4", "the first card must be " \
                f"{COLOR_NAMES[self.color]} or link to the {card_name(self.discard[-1])} " \
                "on the pile, and none of these does"
        units = [V33 if v == 3 and threes >= THREES_UNIT else v for v in values]
        for v in units:
            if len(units) > 1 and not any(w != v and LINK[v][w] for w in units):
                return "TD-2.3", f"{_unit_words(v)} links to none of the other cards: " \
                    "cards link when they have the same value, are a 6 and a 9, or are " \
                    "a pair of 3s beside a 3, a 6 or an 8"
        return "TD-2.5", "no order of these cards links each card to the one before it " \
            "(a 9 and an 8, or an 8 and a 6, never link)"

    def _completable(self, seat: int, seq: tuple[int, ...],
                     memo: dict[tuple[tuple[int, ...], int], bool]) -> bool:
        ok, done = self._sequence_state(seat, seq)
        if not ok:
            return False
        if done:
            return True
        key = (tuple(sorted(seq)), seq[-1] if len(seq) > 1 else -2 - seq[0])
        if key in memo:
            return memo[key]
        memo[key] = False
        remaining = self.hands[seat][:]
        for c in seq:
            remaining.remove(c)
        result = any(self._completable(seat, (*seq, c), memo) for c in sorted(set(remaining)))
        memo[key] = result
        return result

    def _canonical(self, seat: int, action: Action) -> Action | None:
        if action.kind != A.PLAY or action.uno or action.target >= 0 or not action.cards:
            return None
        legal = self.legal_actions(seat)
        if self._canon_ver != self._ver:
            self._canon = {
                (tuple(sorted(a.cards)), a.cards[-1], a.color): a
                for a in legal if a.kind == A.PLAY
            }
            self._canon_ver = self._ver
        cards = action.cards
        if not self.is_legal_play(seat, cards):
            return None
        hit = self._canon.get((tuple(sorted(cards)), cards[-1], action.color))
        if hit is None and not IS_WILD[cards[0]] and action.color == NO_COLOR:
            # a play left out of a reduced listing (MAX_LISTED_PLAYS): still legal
            seq = canonical_order(self, cards)
            return None if seq is None else Action(A.PLAY, seq)
        return hit

    # ------------------------------------------------------------------ apply

    def _apply(self, seat: int, action: Action) -> None:
        k = action.kind
        if k == A.PLAY:
            self.turns += 1
            self.idle = 0
            if self.phase == RESPONSE:
                self._defend(seat, action)
            else:
                self._play(seat, action)
        elif k == A.DRAW:
            self.turns += 1
            self._turn_draw(seat)
        elif k == A.ACCEPT:
            self.turns += 1
            self._take_pot(seat)
        elif k == A.DIRECTION:
            self._set_direction(action.n)
        elif k == A.UNO:
            self._uno(seat, action.target)
        elif k == A.CATCH:
            self._catch(seat, action.target)
        elif k == A.DECLINE:
            self.declined.append(seat)
            self.emit("decline", seat, "TD-6.4")
        elif k == A.LEAVE:
            self._leave(seat)
        mt = self.opts.max_turns
        if mt and self.turns >= mt and self.phase != GAME_OVER:
            self._end("max_turns")

    def _lay(self, p: int, action: Action) -> bool:
        """Put the play on the pile; returns whether ``p`` went out (TD-6.1)."""
        cards = action.cards
        hand = self.hands[p]
        for c in cards:
            hand.remove(c)
        self.discard += cards
        last = cards[-1]
        self.color = action.color if IS_WILD[last] else FACE_COLOR[last]
        self.top_player = p
        self.pair_on_top = len(cards) >= 2 and VAL[last] == 3 and VAL[cards[-2]] == 3
        if self._events is not None:
            # the rule of what the play does: a Throwdown's answers (TD-4.6, wilds TD-4.7);
            # in regular play action cards and wilds (TD-3.3: the Wild Draw Fours start a
            # Throwdown as Draw Twos do), numbers the links that made them a play
            if self.phase == RESPONSE:
                rule = "TD-4.7" if IS_WILD[last] else "TD-4.6"
            elif IS_WILD[last] or VAL[last] >= VSKIP:
                rule = "TD-3.3"
            else:
                rule = "TD-2.5" if len(cards) > 1 else "TD-2.4"
            self.emit("play", p, rule, cards, n=len(cards), color=action.color)
        uno_open = self.uno_open
        if p in uno_open:
            uno_open.remove(p)
        left = len(hand)
        if left == 1:
            uno_open.append(p)
            return False
        if left:
            return False
        self.out_order.append(p)
        self.active[p] = False
        self._seats_changed()
        if self.winner < 0:
            self.winner = p
        self.emit("out", p, "TD-6.1")
        return True

    def _contenders(self) -> int:
        """Players holding cards who may still lose: the winner, even called back, may not.

        The game ends once at most one is left (TD-6.3, and TD-6.4's ruling for a called-back
        winner).
        """
        w = self.winner
        return self.n_active - (1 if w >= 0 and self.active[w] else 0)

    def _out_ends(self) -> bool:
        """After someone went out: end the game if it is over (TD-6.3, TD-6.4, TD-6.5)."""
        if not self.opts.play_on_after_first_out:
            self._end("out")
            return True
        if self._contenders() <= 1:
            self._end("last_holder")
            return True
        return False

    def _play(self, p: int, action: Action) -> None:
        """A regular play and its effects (TD-3.3)."""
        out = self._lay(p, action)
        cards = action.cards
        k = len(cards)
        v = VAL[cards[-1]]
        nxt = self.next_seat
        events = self._events is not None
        if v == VSKIP:
            s = p
            for _ in range(k):
                s = nxt(s)
                if events:
                    self.emit("skip", s, "TD-3.3")
            target = nxt(s)
        elif v == VREV:
            if k % 2:
                self.direction = -self.direction
            if events:
                self.emit("reverse", p, "TD-3.3", n=k)
            if self.opts.two_player_reverse_as_skip and self.n_active == 2:
                s = p
                for _ in range(k):
                    s = nxt(s)
                    if events:
                        self.emit("skip", s, "TD-3.4")
                target = nxt(s)
            else:
                target = nxt(p)
        elif v in (VD2, VWD4):
            if out and self._out_ends():
                return
            level = 4 if v == VWD4 else 2
            self.level = level
            self.pot = level * k
            d = nxt(p)
            self.emit("throwdown", p, "TD-4.1", n=self.pot, target=d,
                      info=(("level", level),))
            self._defender(d)
            return
        else:
            target = nxt(p)
        if out and self._out_ends():
            return
        self._give_turn(target)

    def _defender(self, d: int) -> None:
        """``d`` must answer the pot; without a legal defence he draws it at once (TD-4.8)."""
        self.phase = RESPONSE
        self.turn = d
        self.drew = False
        self.drawn = -1
        if not self._has_play(d):
            self._take_pot(d)

    def _take_pot(self, d: int) -> None:
        pot = self.pot
        self.emit("take_pot", d, "TD-4.8", n=pot)
        self.pot = 0
        self.level = 0
        self.phase = TURN
        self.draw_cards(d, pot, "TD-4.8")
        if self.opts.pot_drawer_loses_turn:
            self.emit("skip", d, "TD-4.8")
            self._give_turn(self.next_seat(d))
        else:
            self._give_turn(d)

    def _defend(self, d: int, action: Action) -> None:
        """A Throwdown defence and its outcome (TD-4.6, TD-4.7)."""
        out = self._lay(d, action)
        cards = action.cards
        last = cards[-1]
        stacked = False
        if IS_WILD[last]:
            if last == WD4:
                self.pot += 4 * len(cards)
                self.level = 4
                stacked = True
        else:
            fam = FAM[self.level][last]
            if fam == F_DRAW:
                n4 = sum(1 for c in cards if not _TWO_VALUED[c])
                self.pot += 2 * (len(cards) - n4) + 4 * n4
                fives = sum(1 for c in cards if VAL[c] == 5)
                if fives % 2:
                    self.direction = -self.direction
                if fives:
                    self.emit("reverse", d, "TD-4.6", n=fives)
                stacked = True
            elif fam == F_REV:
                if len(cards) % 2:
                    self.direction = -self.direction
                self.emit("reverse", d, "TD-4.6", n=len(cards))
            elif fam == F_ZERO:
                self.emit("cancel", d, "TD-4.6", n=self.pot)
                self.pot = 0
                self.level = 0
                if out and self._out_ends():
                    return
                self._give_turn(self.next_seat(d))
                return
        if out and self._out_ends():
            return
        nd = self.next_seat(d)
        if self._events is not None:
            rule = "TD-4.7" if IS_WILD[last] else "TD-4.6"
            self.emit("stack" if stacked else "redirect", d, rule, n=self.pot, target=nd,
                      info=(("level", self.level),))
        self._defender(nd)

    def _turn_draw(self, p: int) -> None:
        """Draw until a legal play exists, then play (TD-3.1, TD-3.2)."""
        self.drew = True
        had_play = self._has_play(p)
        got = 0
        while self.draw_cards(p, 1, "TD-3.2"):
            got += 1
            if had_play or self._drawn_makes_play(p):
                self.idle = 0
                return
        # nothing (more) to draw and nothing to play: the turn ends
        self.emit("pass", p, "TD-3.2")
        if self._blocked_after_draw(had_play, got):
            self._end_blocked(p)
            return
        self._give_turn(self.next_seat(p))

    # ------------------------------------------------------------------ Uno and the table

    def _uno(self, seat: int, target: int) -> None:
        if seat in self.uno_open:
            self.uno_open.remove(seat)
            self.emit("uno", seat, "TD-5.2" if target >= 0 else "TD-5.3", target=target)
            if target >= 0:
                self._draw_back_in(target, self.opts.uno_force_draw, "TD-5.2", "TD-6.4")
            return
        self.emit("false_call", seat, "TD-5.5")
        self._draw_back_in(seat, self.opts.false_uno_call_penalty, "TD-5.5", "TD-5.5")

    def _catch(self, seat: int, x: int) -> None:
        if x in self.uno_open:
            self.emit("catch", seat, "TD-5.4", target=x)
            self.uno_open.remove(x)
            self.draw_cards(x, self.opts.uno_catch_penalty, "TD-5.4")
            return
        self.emit("false_call", seat, "TD-5.5", target=x)
        self._draw_back_in(seat, self.opts.false_uno_call_penalty, "TD-5.5", "TD-5.5")

    def _draw_back_in(self, seat: int, count: int, rule: str, back_rule: str) -> None:
        """``seat`` draws ``count`` cards; a player who was out is back in play with them.

        Two ways back in: a call-back, the forced draw of an Uno holder's call (TD-6.4), and
        the penalty of a wrong call made by a player who is out (TD-5.5, a ruling).  He
        rejoins the turn order at his own seat; his exit stays in ``out_order`` and a winner
        stays the winner (TD-6.4).
        """
        back = not self.hands[seat]
        self.draw_cards(seat, count, rule)
        if back and self.hands[seat]:
            self.active[seat] = True
            self._seats_changed()
            self.emit("rejoin", seat, back_rule)

    def _leave(self, seat: int) -> None:
        """TD-6.6: the hand goes under the discard pile; the seat leaves the turn order."""
        hand = self.hands[seat]
        self.emit("leave", seat, "TD-6.6", n=len(hand))
        self.discard[:0] = hand  # face down, under the pile: only the count is public
        self.buried += len(hand)
        self.hands[seat] = []
        if seat in self.uno_open:
            self.uno_open.remove(seat)
        self.active[seat] = False
        self._seats_changed()
        self.left.append(seat)
        if self._contenders() <= 1:
            self._end("left")
            return
        if seat != self.turn:
            return  # out of turn: the turn order skips the seat from now on
        nd = self.next_seat(seat)
        if self.phase == RESPONSE:
            self.emit("redirect", seat, "TD-6.6", n=self.pot, target=nd)
            self._defender(nd)
        else:
            self._give_turn(nd)

    def _end_blocked(self, seat: int) -> None:
        """The game is blocked: it ends before anyone went out (TD-3.2, a ruling)."""
        self.emit("blocked", seat, "TD-3.2")
        self._end("blocked")

    def _end(self, reason: str) -> None:
        """The game is over (TD-6.2, TD-6.3, TD-6.4, TD-6.6)."""
        # the loser is the last player holding cards other than the winner, who may be
        # holding cards again after a call-back (TD-6.4)
        holders = [s for s in range(self.n) if self.active[s] and s != self.winner]
        loser: int | None = None
        if reason in ("last_holder", "left") and len(holders) == 1:
            if self.winner >= 0:
                loser = holders[0]
            else:
                self.winner = holders[0]
        self.pot = 0
        self.level = 0
        self.uno_open = []
        self.phase = GAME_OVER
        self.drew = False
        self.drawn = -1
        self.winners = [self.winner] if self.winner >= 0 else []
        left = tuple(self.left)
        rule = {"out": "TD-6.3", "last_holder": "TD-6.3", "left": "TD-6.6",
                "max_turns": "TD-6.4", "blocked": "TD-3.2"}[reason]
        self.last_hand = HandResult(
            hand=self.hand_no, end=reason, rule=rule, winners=tuple(self.winners),
            out_order=tuple(self.out_order), loser=loser,
            extras={"left": left} if left else {})
        self.emit("hand_end", self.winner, rule)
        if loser is not None:
            self.emit("loser", loser, rule)
        if self.winner >= 0:
            self.emit("game_end", self.winner, "TD-6.2")

    def game_end(self) -> tuple[str, str]:
        """The game is its one hand: it ended as the hand did (TD-6)."""
        last = self.last_hand
        return (last.end, last.rule) if last is not None else ("out", "TD-6.2")

    def game_extras(self) -> dict[str, Any]:
        """Who left the table (TD-6.6)."""
        return dict(self.last_hand.extras) if self.last_hand is not None else {}

    def game_result(self) -> GameResult | None:
        """The common game result; the standings follow the order out, the loser last."""
        res = super().game_result()
        if res is None:
            return None
        first = list(dict.fromkeys((*res.winners, *res.out_order)))
        tail = () if res.loser is None else (res.loser,)
        return replace(res, standings=standings(first, [0] * self.n, None, tail))

    def next_game_dealer(self) -> int | None:
        """The winner deals the next game (TD-1.3, TD-1.6, TD-6.2), once this one is over.

        The winner is the first player out, called back or not (TD-6.4), or the one left
        holding cards when leaving players ended the game before anyone went out (TD-6.6).
        A game without a winner (blocked, TD-3.2; stopped by ``max_turns`` before anyone
        went out, TD-6.4) gives no dealer: the next one starts as a first game (TD-1.3).
        """
        if self.phase != GAME_OVER or self.winner < 0:
            return None
        return self.winner

    # ------------------------------------------------------------------ position notation

    def position_extra(self) -> dict[str, Any]:
        """Throwdown fields of the position notation (the pot is ``pending``)."""
        return {
            "top_player": self.top_player if self.top_player >= 0 else None,
            "turns": self.turns,
            "hand_winner": self.winner if self.winner >= 0 else None,
            "declined": self.declined[:],
            "left": self.left[:],
            "buried": self.buried,
            "pair_on_top": self.pair_on_top,
        }

    def load_position_extra(self, d: Any) -> None:
        """Read the Throwdown fields of a position (see ``docs/notation.md``)."""
        n = self.n

        def seat_or_none(key: str) -> int:
            v = d.get(key)
            if v is None:
                return NOBODY
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
                raise PositionError("bad_position", f"{key!r} must be a seat or null")
            return v

        self.top_player = seat_or_none("top_player")
        self.winner = seat_or_none("hand_winner")
        if self.out_order:  # TD-6.2: the first player out is the winner
            if self.winner < 0:
                self.winner = self.out_order[0]  # a hand-made position may leave it out
            elif self.winner != self.out_order[0]:
                raise PositionError("bad_position", "hand_winner must be the first player "
                                    "in out_order (TD-6.2: the first out wins)")
        self.turns = int(d.get("turns", 0))
        declined = d.get("declined", [])
        if not isinstance(declined, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in declined
        ):
            raise PositionError("bad_position", f"'declined' must be a list of seats 0..{n - 1}")
        self.declined = list(declined)
        self.pair_on_top = bool(d.get("pair_on_top", False))
        dealing = self.phase == DEAL
        left = d.get("left")
        if left is None:  # hand-made positions: empty hands not listed in out_order
            left = [] if dealing else [s for s in range(n) if not self.hands[s]
                                       and s not in self.out_order]
        if not isinstance(left, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in left
        ) or len(set(left)) != len(left):
            raise PositionError("bad_position", f"'left' must be a list of distinct seats "
                                f"0..{n - 1}")
        if any(self.hands[s] for s in left):
            raise PositionError("bad_position", "a seat that left the table holds no cards")
        self.left = list(left)
        buried = d.get("buried", 0)
        if not isinstance(buried, int) or isinstance(buried, bool) or not (
            0 <= buried <= max(0, len(self.discard) - 1)
        ):
            raise PositionError("bad_position", "'buried' must be a count of cards under the "
                                "discard pile's top (at most the pile less its top)")
        self.buried = buried
        # who is still in the game: holders of cards (players out or gone have none)
        for s in range(n):
            if self.hands[s] and not self.active[s]:
                raise PositionError("bad_position", f"seat {s} holds cards but is not active")
            if not self.hands[s] and self.phase != DEAL:
                self.active[s] = False
        self._seats_changed()
        if self.phase == GAME_OVER:
            if not self.winners and self.winner >= 0:
                self.winners = [self.winner]
            return
        if self.phase == DEAL:
            if self.opts.initial_direction != 0:
                raise PositionError("bad_position", "phase 'deal' needs initial_direction=0")
            if "turn" not in d:
                self.turn = self.dealer
            elif self.turn != self.dealer:
                raise PositionError("bad_position", "in phase 'deal' the dealer is to act")
            return
        if self.phase not in (TURN, RESPONSE):
            raise PositionError("bad_position", "a Throwdown position is in phase deal, turn, "
                                "response or game_over")
        if self.discard and VAL[self.discard[-1]] < 0:
            raise PositionError("bad_position", "the top card is not a standard Uno card")
        if not self.active[self.turn]:
            raise PositionError("bad_position", f"seat {self.turn} to act holds no cards")
        if self.n_active < 2:
            raise PositionError("bad_position", "at least two players must hold cards")
        if self._contenders() < 2:
            raise PositionError("bad_position", "the game is over: only one player besides "
                                "the winner holds cards (TD-6.4)")
        if self.phase == TURN and self.drew and not self._has_play(self.turn):
            raise PositionError("bad_position", "'drew' is true but the player cannot play")
        if any(len(self.hands[s]) != 1 for s in self.uno_open):
            raise PositionError("bad_position", "uno_open may list only seats holding one card")

    def may_end_without_winner(self) -> bool:
        """A blocked or stopped game may end before anyone went out (TD-3.2, TD-6.4)."""
        return True

    # ------------------------------------------------------------------ pending

    def pending(self) -> Pending | None:
        """The Throwdown draw pot waiting for its defender (TD-4), or None."""
        if self.phase != RESPONSE:
            return None
        return Pot(self.turn, self.top_player, self.pot, self.discard[-1], self.level)

    def load_pending(self, value: Pending | None) -> None:
        """Set the draw pot (positions); refuse one that cannot be (TD-4)."""
        if value is None:
            self.pot = 0
            self.level = 0
            return
        if not isinstance(value, Pot) or value.wd4_legal is not None:
            raise PositionError("bad_position", "Throwdown has a draw pot (type 'pot') and "
                                "nothing else pending")
        top = self.discard[-1]
        if value.last_card != top:
            raise PositionError("bad_position", "the pot's last card is the top of the "
                                "discard pile")
        if not 0 <= value.victim < self.n or not self.active[value.victim]:
            raise PositionError("bad_position", f"the pot's defender {value.victim} is not a "
                                "seat holding cards")
        if value.sender >= self.n:
            raise PositionError("bad_position", f"the pot's sender {value.sender} is not a seat")
        if value.sender >= 0:
            if self.top_player not in (NOBODY, value.sender):
                raise PositionError("bad_position", "the pot's sender is the player of the "
                                    "top card (top_player)")
            self.top_player = value.sender
        level = value.level if value.level is not None else 4 if top == WD4 else 2
        if level not in (2, 4):
            raise PositionError("bad_position", "pot.level must be 2 or 4")
        self.level = level
        self.pot = value.count
