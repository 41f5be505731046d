"""Replays served cheaply and in bounded pieces: checkpoints per game, pages of steps.

``GET /api/games/{id}/replay`` once rebuilt the whole game and sent every step on every
request (a 79,070-step game: 174 MB in 10.9 s, serialised on the event loop).  Now:

* a game is replayed **once** into checkpoints (a clone of the state every
  :data:`CHECKPOINT_EVERY` actions), kept in an LRU of :data:`CACHE_GAMES` games; a
  running game's checkpoints grow with it (its record only ever gains actions);
* a request gets one **page**: the steps from ``start``, at most ``count``
  (:data:`MAX_PAGE_STEPS`) and about :data:`MAX_PAGE_BYTES` of JSON, rebuilt from the
  nearest checkpoint and serialised off the event loop (``next`` says where the next page
  starts);
* builds run in :data:`REPLAY_WORKERS` threads shared by every client, and one client
  address may have :data:`PER_ADDRESS` requests under way (more: ``rate_limited``).

What a page shows is as before: a finished game everything (hands included), a running
one only what the caller's seat (or a spectator) may see.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final

from hotdeath.actions import Action
from hotdeath.cards import card_code
from hotdeath.events import Event
from hotdeath.server.store import GameRows
from hotdeath.state import GameState

CHECKPOINT_EVERY: Final = 500
"""Actions between two checkpoints: a page is rebuilt from at most this many actions."""
CACHE_GAMES: Final = 16
"""Games whose checkpoints stay in memory (least recently used ones are dropped)."""
MAX_PAGE_STEPS: Final = 200
"""The most steps a page holds (and the default ``count``)."""
MAX_PAGE_BYTES: Final = 1_500_000
"""A page stops after the step that passes this much JSON (at least one step)."""
REPLAY_WORKERS: Final = 2
"""Threads that build pages, for every client together (others wait their turn)."""
PER_ADDRESS: Final = 2
"""Replay requests one client address may have under way at once."""


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass
class _Game:
    """One game's checkpoints: ``points[k]`` is the state after ``k * CHECKPOINT_EVERY``."""

    points: list[GameState] = field(default_factory=list)
    built: int = 0
    """Actions replayed into :attr:`tip` so far."""
    tip: GameState | None = None
    """The state after :attr:`built` actions (extended when the record grows)."""
    final: dict[str, Any] | None = None
    """A finished game's record (built once)."""
    actions: list[tuple[int, str]] = field(default_factory=list)
    """The game's actions read so far (a page reads only the newer ones)."""
    lock: threading.Lock = field(default_factory=threading.Lock)


class ReplayCache:
    """Checkpoints of recently replayed games, and the pages built from them."""

    def __init__(self, games: int = CACHE_GAMES) -> None:
        self.games = games
        self._entries: OrderedDict[str, _Game] = OrderedDict()
        self._lock = threading.Lock()
        self.builds = 0
        """Actions applied to build checkpoints (a game's are applied once)."""

    def _entry(self, game_id: str) -> _Game:
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None:
                entry = self._entries[game_id] = _Game()
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.games:
                self._entries.popitem(last=False)
            return entry

    def _extend(self, entry: _Game, row: dict[str, Any], actions: list[tuple[int, str]]) -> None:
        """Replay the actions not yet in ``entry`` (checkpoints on the way)."""
        if entry.tip is None:
            import hotdeath

            entry.tip = hotdeath.new_game(row["variant"], row["players"], int(row["seed"]),
                                          row["preset"], row["options"])
            entry.points = [entry.tip.clone()]
        state = entry.tip
        for seat, text in actions[entry.built:]:
            state.step(Action.parse(text), seat)
            entry.built += 1
            self.builds += 1
            if entry.built % CHECKPOINT_EVERY == 0:
                entry.points.append(state.clone())

    def read(self, store: Any, game_id: str) -> GameRows | None:
        """The game's rows, reading only the actions this cache does not hold yet."""
        entry = self._entry(game_id)
        with entry.lock:
            known = len(entry.actions)
            loaded = store.read_game_since(game_id, known)
            if loaded is None:
                return None
            row, newer, deals = loaded
            if len(entry.actions) == known:
                entry.actions.extend(newer)
            return row, list(entry.actions), deals

    def page(
        self, row: dict[str, Any], actions: list[tuple[int, str]], seat: int | None,
        full: bool, theme: str, start: int, count: int,
    ) -> tuple[list[str], int | None, dict[str, Any] | None]:
        """Steps ``start``… (at most ``count``) as JSON texts, and where the next page starts.

        Also the finished game's record (None for a running one).  Step 0 is the opening;
        step *k* follows the *k*-th action.
        """
        from hotdeath.notation import record
        from hotdeath.server.room import event_json

        entry = self._entry(str(row["id"]))
        total = len(actions) + 1
        with entry.lock:
            self._extend(entry, row, actions)
            if full and entry.final is None:
                assert entry.tip is not None
                entry.final = record(entry.tip)
            point = max(0, start - 1) // CHECKPOINT_EVERY
            state = entry.points[min(point, len(entry.points) - 1)].clone()
            final = entry.final if full else None
        done = (min(point, len(entry.points) - 1)) * CHECKPOINT_EVERY
        for s, text in actions[done:max(0, start - 1)]:
            state.step(Action.parse(text), s)
        names: list[str] = list(row["names"])

        def step(index: int, s: int | None, text: str | None, events: list[Event]) -> str:
            out: dict[str, Any] = {
                "index": index, "seat": s, "action": text,
                "events": [
                    event_json(e, e.seat if full else seat, index, names, theme) for e in events
                ],
                "view": state.view(None if full else seat).to_json(),
            }
            if full:
                out["hands"] = [[card_code(c) for c in h] for h in state.hands]
            return _dumps(out)

        texts: list[str] = []
        size = 0
        index = start
        end = min(total, start + max(1, count))
        if index == 0:
            texts.append(step(0, None, None, list(state.opening_events)))
            size += len(texts[-1])
            index = 1
        while index < end and (size < MAX_PAGE_BYTES or not texts):
            s, text = actions[index - 1]
            events = state.apply_action(Action.parse(text), s)
            texts.append(step(index, s, text, events))
            size += len(texts[-1])
            index += 1
        return texts, (index if index < total else None), final
