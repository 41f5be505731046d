"""Deck commitments: prove after a hand that the deal was not changed during it.

At each deal the server publishes ``sha256(salt + ":" + " ".join(deck))`` where ``deck`` is
the freshly shuffled deck (card codes, in order; the engine deals from the end) and
``salt`` a random per-hand hex string; at the hand's end it reveals salt and deck.  Each
game also commits to its seed the same way and reveals it at the end, so the whole game
(every later reshuffle included) can be replayed and checked.

The engine shuffles with :meth:`hotdeath.rng.Rng.shuffle`; with its ``shuffles`` set to a
list (:func:`install`) the same generator (same numbers) also keeps a copy of each shuffled
list, so the server learns the deck order at deal time.  It is built into ``Rng``, not a
subclass: the compiled core's classes cannot be subclassed by interpreted code.

>>> d = deck_digest("00", ["R7", "G1"])
>>> verify({"salt": "00", "deck": ["R7", "G1"], "digest": d})
True
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from hotdeath.cards import card_code
from hotdeath.rng import Rng
from hotdeath.server.store import DealRow
from hotdeath.state import GameState


def new_salt() -> str:
    """A random 16-byte salt as 32 hex digits."""
    return secrets.token_hex(16)


def deck_digest(salt: str, deck: Sequence[str]) -> str:
    """``sha256(salt + ":" + " ".join(deck))`` as hex."""
    return hashlib.sha256(f"{salt}:{' '.join(deck)}".encode()).hexdigest()


def seed_digest(salt: str, seed: int) -> str:
    """``sha256(salt + ":" + str(seed))`` as hex."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def verify(reveal: Mapping[str, Any]) -> bool:
    """Whether a reveal's salt and deck hash to its digest."""
    return bool(deck_digest(str(reveal["salt"]), list(reveal["deck"])) == reveal["digest"])


def commit_deck(hand_no: int, deck: Sequence[int]) -> DealRow:
    """A new commitment (fresh salt) to a shuffled deck of face ids."""
    codes = tuple(card_code(c) for c in deck)
    salt = new_salt()
    return DealRow(hand_no, salt, deck_digest(salt, codes), codes)


def take_deal_shuffle(state: GameState) -> list[int] | None:
    """The deck order of the deal that just happened, and forget the recorded shuffles.

    The deal shuffles a copy of the whole deck (``state.deck``); other shuffles (a first
    card put back, the discard pile turned over, drawing for the first dealer before the
    deal) are of other sizes or come before it, so the last full-deck shuffle is the deal.
    """
    shuffles = state.rng.shuffles
    if shuffles is None:
        return None
    size = len(state.deck)
    found = None
    for cards in shuffles:
        if len(cards) == size:
            found = cards
    shuffles.clear()
    return found


def install(state: GameState) -> None:
    """Make ``state`` record its shuffles from now on (same random numbers as before)."""
    if state.rng.shuffles is None:
        state.rng.shuffles = []


def opening_deck(state: GameState, dealer: int | None = None) -> list[int] | None:
    """The deck order of a new game's first deal (None if the game starts before a deal).

    Variants deal the first hand while the game is created; this replays the start on a
    twin state with a recording generator (the same seed gives the same shuffles).
    """
    twin = state.variant.state_cls(state.variant, state.opts, state.n, state.seed)
    twin.deal_scheme = state.deal_scheme
    twin.rng = Rng(state.seed)
    twin.rng.shuffles = []
    twin.start(dealer)
    if twin.hand_no < 1:
        return None
    return take_deal_shuffle(twin)
