"""Views: the one projection of a state that bots, UIs, servers and RL code see.

:func:`build_view` (``state.view(seat)``) returns what ``seat`` may know: its own hand,
every public card (the discard pile above any face-down cards under it, cards revealed
by Glasnost, a shown Blue Shield, Luck o' the Irish or 69), hand sizes, the pending attack,
scores and its own legal actions.  ``seat=None`` is a spectator: no hand at all.  Nothing
else about the hidden cards leaves the core.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hotdeath.actions import Action
from hotdeath.cards import COLOR_NAMES, card_code
from hotdeath.options import non_defaults
from hotdeath.pending import Pending
from hotdeath.results import GameResult, HandResult
from hotdeath.state import PHASE_NAMES

if TYPE_CHECKING:
    from hotdeath.state import GameState


@dataclass(frozen=True, slots=True)
class SeatView:
    """Public facts about one seat."""

    seat: int
    hand_size: int
    active: bool
    revealed: tuple[int, ...]
    score: int
    infections: int = 0
    uno_catchable: bool = False


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat (or a spectator, ``seat=None``) may know now."""

    variant: str
    options: dict[str, Any]
    seat: int | None
    players: int
    hand: tuple[int, ...] | None
    seats: tuple[SeatView, ...]
    discard: tuple[int, ...]
    draw_pile_size: int
    color: int
    direction: int
    phase: str
    current_player: int
    dealer: int
    hand_no: int
    """The hand being played (1 for the first), also while Hot Death's dealer chooses its
    size; the last hand once the game is over (``GameState.current_hand``)."""
    hand_size: int
    drew: bool
    drawn: int
    attack: Pending | None
    """What is pending (an attack, a pot), as every seat may know it (``public()``)."""
    sixty_nine_window: int
    winners: tuple[int, ...]
    last_hand: HandResult | None
    """The result of the last hand that ended (``hotdeath.results``)."""
    legal_actions: tuple[Action, ...] = field(default=())
    buried: int = 0
    """Cards lying face down at the bottom of the discard pile, under ``discard`` (Throwdown:
    the hands of players who left the table, TD-6.6): only their number is public."""
    game_result: GameResult | None = None
    """How the game ended, once it is over (``state.game_result()``)."""

    @property
    def top(self) -> int:
        """The discard-pile top (face id) or -1."""
        return self.discard[-1] if self.discard else -1

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The active seat ``steps`` places after ``seat`` in the direction of play.

        ``seat`` itself when no other seat is active.
        """
        n = self.players
        s = seat
        for _ in range(steps):
            for _ in range(n):
                s = (s + self.direction) % n
                if self.seats[s].active:
                    break
            else:
                return seat
        return s

    def known_cards(self) -> list[int]:
        """Every card this viewer can see: own hand, public cards, the discard pile."""
        out = list(self.hand or ())
        for s in self.seats:
            if s.seat != self.seat:
                out += s.revealed
        return out + list(self.discard)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict with card codes and colour names."""
        return {
            "variant": self.variant,
            "options": self.options,
            "seat": self.seat,
            "players": self.players,
            "hand": None if self.hand is None else [card_code(c) for c in self.hand],
            "seats": [
                {
                    "seat": s.seat,
                    "hand_size": s.hand_size,
                    "active": s.active,
                    "revealed": [card_code(c) for c in s.revealed],
                    "score": s.score,
                    "infections": s.infections,
                    "uno_catchable": s.uno_catchable,
                }
                for s in self.seats
            ],
            "top": card_code(self.top) if self.top >= 0 else None,
            "discard": [card_code(c) for c in self.discard],
            "draw_pile_size": self.draw_pile_size,
            "color": COLOR_NAMES[self.color] if self.color >= 0 else None,
            "direction": "cw" if self.direction == 1 else "ccw",
            "phase": self.phase,
            "current_player": self.current_player,
            "dealer": self.dealer,
            "hand_no": self.hand_no,
            "hand_size": self.hand_size,
            "drew": self.drew,
            "drawn": card_code(self.drawn) if self.drawn >= 0 else None,
            "attack": self.attack.to_json() if self.attack is not None else None,
            "sixty_nine_window": self.sixty_nine_window if self.sixty_nine_window >= 0 else None,
            "winners": list(self.winners),
            "last_hand": None if self.last_hand is None else self.last_hand.to_json(),
            "game_result": None if self.game_result is None else self.game_result.to_json(),
            "legal_actions": [str(a) for a in self.legal_actions],
            "buried": self.buried,
        }


def build_view(state: GameState, seat: int | None) -> View:
    """The view of ``state`` for ``seat`` (None: spectator)."""
    if seat is not None and not 0 <= seat < state.n:
        raise ValueError(f"there is no seat {seat}")
    infections = state.infection_counts()
    pending = state.pending()
    attack = pending.public() if pending is not None else None
    seats = tuple(
        SeatView(
            seat=s,
            hand_size=len(state.hands[s]),
            active=state.active[s],
            revealed=tuple(state.revealed[s]) if state.active[s] else (),
            score=state.scores[s],
            infections=infections[s],
            uno_catchable=s in state.uno_open,
        )
        for s in range(state.n)
    )
    own = seat is not None
    buried = state.buried_cards()
    return View(
        variant=state.variant.name,
        options=non_defaults(state.opts),
        seat=seat,
        players=state.n,
        hand=tuple(state.hands[seat]) if seat is not None else None,
        seats=seats,
        discard=tuple(state.discard[buried:]) if buried else tuple(state.discard),
        draw_pile_size=len(state.draw_pile),
        color=state.color,
        direction=state.direction,
        phase=PHASE_NAMES[state.phase],
        current_player=state.current_player(),
        dealer=state.dealer,
        hand_no=state.current_hand(),
        hand_size=state.hand_size,
        drew=state.drew,
        drawn=state.drawn if own and state.turn == seat and state.drew else -1,
        attack=attack,
        sixty_nine_window=state.window_seat(),
        winners=tuple(state.winners),
        last_hand=state.last_hand,
        legal_actions=tuple(state.legal_actions(seat)) if seat is not None else (),
        buried=buried,
        game_result=state.game_result(),
    )
