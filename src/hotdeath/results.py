"""How a hand and a game ended, in one shape for every variant.

A variant builds a :class:`HandResult` when a hand ends (``state.last_hand``) and a
:class:`GameResult` once the game is over (``state.game_result()``).  Front ends (the
browser's score and game-over dialogs, both terminal games, ``hotdeath replay``) render
these values only, without knowing which variant made them: the winner(s), the order in
which players went out, the loser where the variant has one, per seat the points with
their reasons (:class:`ScoreLine`), the totals, and ``extras``, whose keys the variant
declares in ``Variant.result_extras`` (:class:`ResultExtra`: a key, a label for people and
the kind of value, so a front end can show an extra it has never heard of).

Each value has one JSON form (``to_json`` / ``from_json``, which round-trip); cards are
written as card codes.  Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from hotdeath.cards import card_code, parse_card
from hotdeath.errors import NotationError

ExtraKind = Literal["seat", "seats", "per_seat", "number", "text"]
"""How an extra's value reads: one seat (or null), a list of seats, one integer per seat,
an integer, a short text key."""

EXTRA_KINDS: Final[tuple[str, ...]] = ("seat", "seats", "per_seat", "number", "text")

END_CODES: Final[dict[str, str]] = {
    "out": "a player went out",
    "last_standing": "one player was left in the hand",
    "all_bastards": "a player held all four bastard cards",
    "quitter": "the Quitter ended the hand",
    "blocked": "nobody could play or draw any more",
    "max_turns": "the turn limit was reached",
    "left": "players left the table",
    "last_holder": "one player was left holding cards",
    "target": "a total reached the target score",
    "rounds": "the set number of hands was played",
    "one_hand": "the game is one hand",
}
"""Every end code a variant may use, with its meaning in words (``describe`` uses them)."""


def _seat_json(seat: int | None) -> int | None:
    return None if seat is None or seat < 0 else seat


@dataclass(frozen=True, slots=True)
class ResultExtra:
    """A variant's declaration of one ``extras`` key of its results.

    ``label`` is what a person reads ("Virus infections"); ``kind`` says how the value
    reads (see :data:`ExtraKind`); ``where`` says whether the key appears in hand results,
    game results or both.
    """

    key: str
    label: str
    kind: ExtraKind
    where: Literal["hand", "game", "both"] = "both"

    def to_json(self) -> dict[str, str]:
        """A JSON-ready dict (``/api/variants`` and the table's description send it)."""
        return {"key": self.key, "label": self.label, "kind": self.kind, "where": self.where}


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One reason for points.

    ``rule`` is the rule id, ``points`` what the reason adds (may be negative or 0),
    ``words`` a short reason key (``cards``, ``retaliation``, ``opponent_cards`` …, see
    ``hotdeath.words.REASONS``), ``card`` the card it is about and ``seat`` the seat it is
    about, if any.
    """

    rule: str
    points: int
    words: str
    card: int | None = None
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``card`` as its code)."""
        d: dict[str, Any] = {"rule": self.rule, "points": self.points, "words": self.words}
        if self.card is not None:
            d["card"] = card_code(self.card)
        if self.seat is not None:
            d["seat"] = self.seat
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ScoreLine:
        """The line back from :meth:`to_json`."""
        card = d.get("card")
        seat = d.get("seat")
        return cls(str(d["rule"]), _int(d["points"]), str(d["words"]),
                   None if card is None else parse_card(str(card)),
                   None if seat is None else _int(seat))


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's part of a scored hand: its points with their reasons and its total.

    ``cards`` are the cards it still held when the hand ended (public at the end).
    The points are the sum of the lines' points.
    """

    seat: int
    points: int
    lines: tuple[ScoreLine, ...]
    total: int
    cards: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"seat": self.seat, "points": self.points,
                "lines": [x.to_json() for x in self.lines], "total": self.total,
                "cards": [card_code(c) for c in self.cards]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SeatScore:
        """The seat's score back from :meth:`to_json`."""
        return cls(_int(d["seat"]), _int(d["points"]),
                   tuple(ScoreLine.from_json(x) for x in d.get("lines", ())),
                   _int(d.get("total", 0)),
                   tuple(parse_card(str(c)) for c in d.get("cards", ())))


def _int(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise NotationError("bad_result", f"expected an integer, got {v!r}")
    return v


def _seats(v: object) -> tuple[int, ...]:
    if not isinstance(v, (list, tuple)):
        raise NotationError("bad_result", f"expected a list of seats, got {v!r}")
    return tuple(_int(x) for x in v)


def _opt_seat(v: object) -> int | None:
    return None if v is None else _int(v)


def _extras_json(extras: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in extras.items()}


def _extras_from(v: object) -> dict[str, Any]:
    if v is None:
        return {}
    if not isinstance(v, Mapping):
        raise NotationError("bad_result", "'extras' must be an object")
    return {str(k): tuple(x) if isinstance(x, list) else x for k, x in v.items()}


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand ended.

    ``end`` is the end code (see :data:`END_CODES`) and ``rule`` the rule that ended it;
    ``winners`` is empty when nobody won (a blocked Hot Death hand, a stopped game) and
    holds a team under partners; ``out_order`` lists the seats in the order they went
    out; ``loser`` is set where the variant has one (Throwdown); ``seats`` is empty when
    the variant does not score hands, else one :class:`SeatScore` per seat in seat order.
    """

    hand: int
    end: str
    rule: str
    winners: tuple[int, ...]
    out_order: tuple[int, ...] = ()
    loser: int | None = None
    seats: tuple[SeatScore, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> int:
        """The first winner (the seat that won the hand), or -1 when nobody won."""
        return self.winners[0] if self.winners else -1

    @property
    def scored(self) -> bool:
        """Whether the hand was scored (per-seat points exist)."""
        return bool(self.seats)

    def points(self) -> list[int]:
        """Each seat's points of this hand (empty when the hand was not scored)."""
        return [s.points for s in self.seats]

    def to_json(self) -> dict[str, Any]:
        """The one JSON form (``"type": "hand_result"``)."""
        return {"type": "hand_result", "hand": self.hand, "end": self.end,
                "rule": self.rule, "winners": list(self.winners),
                "out_order": list(self.out_order), "loser": _seat_json(self.loser),
                "seats": [s.to_json() for s in self.seats],
                "extras": _extras_json(self.extras)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> HandResult:
        """The result back from :meth:`to_json` (``NotationError`` on a bad shape)."""
        if not isinstance(d, Mapping):
            raise NotationError("bad_result", "a hand result must be an object")
        try:
            return cls(
                hand=_int(d["hand"]), end=str(d["end"]), rule=str(d["rule"]),
                winners=_seats(d.get("winners", [])), out_order=_seats(d.get("out_order", [])),
                loser=_opt_seat(d.get("loser")),
                seats=tuple(SeatScore.from_json(s) for s in d.get("seats", ())),
                extras=_extras_from(d.get("extras")),
            )
        except KeyError as e:
            raise NotationError("bad_result", f"a hand result needs {e}") from None


@dataclass(frozen=True, slots=True)
class GameResult:
    """How the game ended.

    ``hands`` is the number of hands played; ``end`` / ``rule`` say why it ended;
    ``winners`` is empty when nobody won; ``totals`` are the seats' game totals (all 0
    where the variant does not score); ``lowest_wins`` says which way totals count (None:
    points decide nothing, as in the variant's goal); ``standings`` lists every seat once,
    best first, as the variant's goal orders them; ``last_hand`` is the final hand's result.
    """

    hands: int
    end: str
    rule: str
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    lowest_wins: bool | None
    standings: tuple[int, ...]
    out_order: tuple[int, ...] = ()
    loser: int | None = None
    last_hand: HandResult | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)

    @property
    def scored(self) -> bool:
        """Whether totals decide anything in this game."""
        return self.lowest_wins is not None

    def to_json(self) -> dict[str, Any]:
        """The one JSON form (``"type": "game_result"``)."""
        return {"type": "game_result", "hands": self.hands, "end": self.end,
                "rule": self.rule, "winners": list(self.winners), "totals": list(self.totals),
                "lowest_wins": self.lowest_wins, "standings": list(self.standings),
                "out_order": list(self.out_order), "loser": _seat_json(self.loser),
                "last_hand": None if self.last_hand is None else self.last_hand.to_json(),
                "extras": _extras_json(self.extras)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GameResult:
        """The result back from :meth:`to_json` (``NotationError`` on a bad shape)."""
        if not isinstance(d, Mapping):
            raise NotationError("bad_result", "a game result must be an object")
        try:
            low = d.get("lowest_wins")
            last = d.get("last_hand")
            return cls(
                hands=_int(d["hands"]), end=str(d["end"]), rule=str(d["rule"]),
                winners=_seats(d.get("winners", [])), totals=_seats(d.get("totals", [])),
                lowest_wins=None if low is None else bool(low),
                standings=_seats(d.get("standings", [])),
                out_order=_seats(d.get("out_order", [])), loser=_opt_seat(d.get("loser")),
                last_hand=None if last is None else HandResult.from_json(last),
                extras=_extras_from(d.get("extras")),
            )
        except KeyError as e:
            raise NotationError("bad_result", f"a game result needs {e}") from None


def standings(winners: Sequence[int], totals: Sequence[int], lowest_wins: bool | None,
              tail: Sequence[int] = ()) -> tuple[int, ...]:
    """Every seat once, best first.

    The winners come first, then the others by total as the goal counts (seat order on ties
    and when points decide nothing), ``tail`` (e.g. a loser) last.
    """
    won = list(dict.fromkeys(winners))
    rest = [s for s in range(len(totals)) if s not in won and s not in tail]
    if lowest_wins is not None:
        rest.sort(key=lambda s: (totals[s] if lowest_wins else -totals[s], s))
    return tuple(won + rest + [s for s in tail if s not in won])


def legacy_hand(d: Mapping[str, Any], players: int, rule: str = "?") -> HandResult:
    """A :class:`HandResult` from a position's ``last_hand``, old forms included.

    Positions written before the common shape held ``hand``, ``winner``, ``seats`` (with
    ``points``, ``total`` and Hot Death's ``steps``), Cutthroat's ``winning_team`` or
    Throwdown's ``loser``, ``out_order``, ``left`` and ``end``.

    Reasons are kept where the old form had them (Hot Death's steps, as running values,
    become lines of the points each step added); the old form held no rule ids, so every
    line and the end cite ``rule`` (the loader passes the variant's goal rule).  Positions
    written now always hold the common shape.
    """
    if d.get("type") == "hand_result":
        return HandResult.from_json(d)
    hand = _int(d.get("hand", 0))
    winner = d.get("winner")
    team = d.get("winning_team")
    winners: tuple[int, ...]
    if isinstance(team, list):
        winners = _seats(team)
        if isinstance(winner, int) and winner in winners:
            winners = (winner, *[s for s in winners if s != winner])
    elif isinstance(winner, int) and not isinstance(winner, bool) and 0 <= winner < players:
        winners = (winner,)
    else:
        winners = ()
    seats: list[SeatScore] = []
    for row in d.get("seats") or ():
        lines: list[ScoreLine] = []
        prev = 0
        for step in row.get("steps") or ():
            label, value = str(step[0]), _int(step[1])
            if label == "virus":
                lines.append(ScoreLine(rule, value, label))
            else:
                key = "went_out" if label == "winner" else label
                lines.append(ScoreLine(rule, value - prev, key))
                prev = value
        if not lines and row.get("points"):
            lines.append(ScoreLine(rule, _int(row["points"]), "cards_in_hand"))
        seats.append(SeatScore(_int(row["seat"]), _int(row.get("points", 0)), tuple(lines),
                               _int(row.get("total", 0))))
    end = str(d.get("end") or ("out" if winners else "blocked"))
    end = {"first_out": "out"}.get(end, end)
    extras: dict[str, Any] = {}
    if d.get("left"):
        extras["left"] = _seats(d["left"])
    return HandResult(hand=hand, end=end, rule=rule, winners=winners,
                      out_order=_seats(d.get("out_order") or []),
                      loser=_opt_seat(d.get("loser")), seats=tuple(seats), extras=extras)


__all__ = [
    "END_CODES",
    "EXTRA_KINDS",
    "ExtraKind",
    "GameResult",
    "HandResult",
    "ResultExtra",
    "ScoreLine",
    "SeatScore",
    "legacy_hand",
    "standings",
]
