"""A small, portable, serialisable random number generator (SplitMix64).

The whole state is one 64-bit integer, so a position can carry it in JSON and a clone
copies it for free.  The same seed gives the same numbers on every platform and Python
version.

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
