"""A small, portable, serialisable random number generator (SplitMix64).

The whole state is one 64-bit integer, so a position can carry it in JSON and a clone
copies it for free.  The same seed gives the same numbers on every platform and Python
version.

A game's deals come from streams derived from its seed (:func:`stream_seed`): one per hand
and purpose, so what was played before never changes a later deal (deal scheme 2, see
``docs/architecture.md`` "Duplicate deals").

>>> r = Rng(42); a = [r.below(10) for _ in range(5)]
>>> r2 = Rng(42); a == [r2.below(10) for _ in range(5)]
True
"""

from __future__ import annotations

from _random import Random  # the C Mersenne Twister of ``random.Random``, same sequence
from functools import partial
from itertools import repeat, starmap
from typing import Final

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_NO_ARGS: Final[tuple[()]] = ()
_COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled (mypyc): the shuffle then keeps its native key function,
which is cheaper there than the chain of C callables that is cheaper in CPython."""


DEAL_SCHEME: Final = 2
"""The deal scheme of new games: every hand's deal (and its later reshuffles) from a stream
of (seed, hand), the dealer's draw from one of its own; each seat's cards fixed whoever deals.
Scheme 1, the scheme of records and positions that name none: one generator for the whole
game, read in play order, the hands dealt from the dealer's left."""
DEAL_SCHEMES: Final = (1, DEAL_SCHEME)
"""Every deal scheme the engine plays (old records keep theirs)."""
DEAL_STREAM: Final = 1
"""Purpose of the stream that shuffles a hand's deck and then serves the hand's reshuffles."""
DEALER_STREAM: Final = 2
"""Purpose of the stream that chooses a hand's dealer (a draw for high card, a tie broken)."""
_PURPOSE: Final = 0xD1B54A32D192ED03


def _mix(z: int) -> int:
    """SplitMix64's output function: a bijection of 64-bit integers that spreads every bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def stream_seed(seed: int, hand: int, purpose: int) -> int:
    """The generator state that starts ``purpose``'s stream in hand ``hand`` of ``seed``'s game.

    A function of those three numbers alone: a later hand's deal never depends on how many
    numbers the hands before it used.

    >>> a, b = stream_seed(7, 2, DEAL_STREAM), stream_seed(7, 3, DEAL_STREAM)
    >>> a == stream_seed(7, 2, DEAL_STREAM) and a != b
    True
    """
    return _mix((_mix(seed & _MASK) + hand * _GAMMA + purpose * _PURPOSE) & _MASK)


class Rng:
    """SplitMix64; ``state`` is a plain int."""

    __slots__ = ("shuffles", "state")

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK
        self.shuffles: list[list[int]] | None = None
        """While a list: a copy of every list :meth:`shuffle` shuffled, in order (the server's
        deal commitments read the deal's deck from it); None, the default: nothing kept.
        A recorder built in, not a subclass: the compiled core's class takes none."""

    def next64(self) -> int:
        """Next 64-bit output."""
        s = (self.state + _GAMMA) & _MASK
        self.state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (n ≥ 1)."""
        return (self.next64() * n) >> 64

    def shuffle(self, cards: list[int]) -> None:
        """Shuffle in place: sort by keys from a Mersenne Twister seeded with ``next64()``.

        Uniform (ties between 53-bit keys are negligible), reproducible on every Python
        (``random.Random(int)`` and ``random()`` are stable across versions), and about
        three times faster than a Fisher–Yates loop in Python; the state stays one int.
        The key of each card is the generator's next ``random()``, in the order of the
        list; in CPython a chain of C callables draws it (``next`` of a ``starmap`` of
        ``random``: no Python call per card), compiled a native function (the same keys,
        so the same order: ``tests/test_core.py`` checks it on both cores).
        """
        key = Random(self.next64()).random
        if _COMPILED:
            cards.sort(key=lambda _card: key())
        else:
            cards.sort(key=partial(next, starmap(key, repeat(_NO_ARGS))))
        if self.shuffles is not None:
            self.shuffles.append(cards[:])
