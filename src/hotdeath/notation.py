"""Position notation (our FEN, as JSON) and game records.

A *position* is a whole state as JSON: :func:`to_position` / :func:`from_position`.
Hand-made positions may leave most fields out (see ``docs/notation.md``): the draw pile
defaults to the rest of the deck shuffled from ``seed``, the colour to the top card's,
the phase to ``response`` when an attack is given, and so on.  Every card must be in
exactly one place; a position that uses a card more often than the deck holds it is
refused with a :class:`~hotdeath.errors.PositionError`.

A *record* is variant + options + players + seed + actions (and the deal scheme the game
was dealt with: absent in records made before scheme 2, which replay with the old one);
:func:`replay` rebuilds the identical state.

>>> import hotdeath
>>> g = hotdeath.new_game("standard", players=2, seed=1)
>>> g2 = from_position(to_position(g))
>>> to_position(g2) == to_position(g)
True
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from hotdeath.actions import Action
from hotdeath.cards import COLOR_NAMES, FACE_COLOR, IS_WILD, NO_COLOR, card_code, parse_card
from hotdeath.cards import parse_color as _parse_color
from hotdeath.errors import HotDeathError, NotationError, PositionError
from hotdeath.events import Event
from hotdeath.jsontext import check_depth, loads_bounded
from hotdeath.options import non_defaults
from hotdeath.pending import from_json as pending_from_json
from hotdeath.pending import legacy as legacy_pending
from hotdeath.results import legacy_hand
from hotdeath.rng import DEAL_SCHEMES, Rng
from hotdeath.state import (
    CHOOSE_COLOR,
    CHOOSE_VICTIM,
    DEAL,
    GAME_OVER,
    PHASE_NAMES,
    RESPONSE,
    TURN,
    GameState,
)

POSITION_FORMAT: Final = "hotdeath-position/2"
"""The position format written; :data:`READ_FORMATS` are read."""
READ_FORMATS: Final = ("hotdeath-position/1", POSITION_FORMAT)
"""Version 1 kept pending state in ``attack`` / ``pot`` / ``wd4``; version 2 in ``pending``
(version 1's fields are still read, see :func:`hotdeath.pending.legacy`)."""
RECORD_FORMAT: Final = "hotdeath-record/1"

_KNOWN_KEYS: Final = frozenset({
    "format", "variant", "preset", "options", "players", "seed", "deal_scheme", "rng", "hand",
    "dealer",
    "hand_size", "phase", "turn", "direction", "color", "drew", "drawn", "hands", "draw",
    "discard", "top", "active", "revealed", "out_order", "uno_open", "scores", "winners",
    "pending", "attack", "sixty_nine_window", "infections", "up_pending", "pot", "wd4",
    "top_player", "turns", "hand_winner", "comment", "last_hand", "idle", "declined",
    "pair_on_top", "left", "buried", "stack", "turn_up", "repeats",
})


def _json_input(data: object) -> object:
    """JSON text parsed, or a loaded value checked, within the depth bound.

    The errors of :mod:`hotdeath.jsontext` become :class:`PositionError` with the same code.
    """
    try:
        if isinstance(data, (str, bytes, bytearray)):
            return loads_bounded(data)
        check_depth(data)
    except NotationError as e:
        raise PositionError(e.code, e.message) from None
    return data


def _codes(cards: Sequence[int]) -> list[str]:
    return [card_code(c) for c in cards]


def _deal_scheme(data: Mapping[str, Any], error: type[HotDeathError], code: str) -> int:
    """The ``deal_scheme`` of a position or record, checked; 1 where it names none.

    Positions and records written before deal scheme 2 name none, and their games go on
    with the one generator they were played with (see :data:`hotdeath.rng.DEAL_SCHEME`).
    """
    value = data.get("deal_scheme", 1)
    if value not in DEAL_SCHEMES or isinstance(value, bool) or not isinstance(value, int):
        raise error(code, "'deal_scheme' must be one of "
                    f"{', '.join(map(str, DEAL_SCHEMES))}")
    return value


def to_position(state: GameState) -> dict[str, Any]:
    """The whole state as a JSON-ready dict (see the schema ``data/position.schema.json``)."""
    d: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "variant": state.variant.name,
        "options": non_defaults(state.opts),
        "players": state.n,
        "seed": state.seed,
        "deal_scheme": state.deal_scheme,
        "rng": state.rng.state,
        "hand": state.hand_no,
        "dealer": state.dealer,
        "hand_size": state.hand_size,
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn,
        "direction": "cw" if state.direction == 1 else "ccw",
        "color": COLOR_NAMES[state.color] if state.color >= 0 else None,
        "drew": state.drew,
        "drawn": card_code(state.drawn) if state.drawn >= 0 else None,
        "hands": [_codes(h) for h in state.hands],
        "draw": _codes(state.draw_pile[::-1]),
        "discard": _codes(state.discard),
        "active": state.active[:],
        "revealed": [_codes(r) for r in state.revealed],
        "out_order": state.out_order[:],
        "uno_open": state.uno_open[:],
        "scores": state.scores[:],
        "winners": state.winners[:],
        "idle": state.idle,
    }
    if state.last_hand is not None:
        d["last_hand"] = state.last_hand.to_json()
    if state.stack is not None:
        d["stack"] = _codes(state.stack)
    if state._dry_seen and state._dry_hand == state.hand_no:
        d["repeats"] = dict(sorted(state._dry_seen.items()))
    d.update(state.position_extra())
    pending = state.pending()
    if pending is not None:
        d["pending"] = pending.to_json()
    return d


_DIGEST: Final = re.compile(r"[0-9a-f]{16}")
MAX_REPEATS: Final = 100_000
"""The most positions a position's ``repeats`` may count (a hand's distinct positions
after draws from empty piles: far fewer in any real game)."""


def _repeats(value: object) -> dict[str, int]:
    """The ``repeats`` of a position, checked.

    How often each position (by its digest) came round this hand after a draw that found
    both piles empty (STD-0.4; the third time blocks the hand).
    """
    if not isinstance(value, Mapping) or len(value) > MAX_REPEATS:
        raise PositionError("bad_position", "'repeats' must be an object of at most "
                            f"{MAX_REPEATS} position digests and their counts")
    out: dict[str, int] = {}
    for key, count in value.items():
        if not isinstance(key, str) or not _DIGEST.fullmatch(key):
            raise PositionError("bad_position", f"'repeats': {key!r} is not a position digest "
                                "(16 hexadecimal digits)")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise PositionError("bad_position", f"'repeats': the count of {key} must be a "
                                "positive integer")
        out[key] = count
    return out


def dumps(state: GameState) -> str:
    """The position as compact JSON text."""
    return json.dumps(to_position(state), separators=(",", ":"))


def _card_list(value: object, what: str) -> list[int]:
    if not isinstance(value, list):
        raise PositionError("bad_position", f"{what} must be a list of card codes")
    out = []
    for v in value:
        if not isinstance(v, str):
            raise PositionError("bad_position", f"{what}: {v!r} is not a card code")
        try:
            out.append(parse_card(v))
        except NotationError as e:
            raise PositionError("bad_position", f"{what}: {e.message}") from None
    return out


def _int(d: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise PositionError("bad_position", f"{key!r} must be an integer from {lo} to {hi}")
    return v


def _seat_list(value: object, n: int, what: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in value
    ):
        raise PositionError("bad_position", f"{what} must be a list of seats 0..{n - 1}")
    return list(value)


def from_position(data: Mapping[str, Any] | str) -> GameState:
    """Build a state from a (possibly partial, hand-made) position.

    Raises :class:`PositionError` for malformed or inconsistent positions and
    :class:`~hotdeath.errors.OptionError` for bad variants or options.
    """
    from hotdeath.variants import get_variant

    loaded = _json_input(data)
    if not isinstance(loaded, Mapping):
        raise PositionError("bad_position", "a position is a JSON object")
    data = loaded
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise PositionError("bad_position", f"unknown position field(s): {', '.join(unknown)}")
    if data.get("format", POSITION_FORMAT) not in READ_FORMATS:
        raise PositionError(
            "bad_format", f"format must be {' or '.join(map(repr, READ_FORMATS))} "
            "(this version of hotdeath reads no other)"
        )
    if "variant" not in data:
        raise PositionError("bad_position", "a position needs a 'variant'")
    variant = get_variant(str(data["variant"]))
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise PositionError("bad_position", "'options' must be an object")
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise PositionError("bad_position", "'preset' must be a preset's name")
    opts = variant.resolve_options(preset, options)
    hands_raw = data.get("hands")
    players = data.get("players", len(hands_raw) if isinstance(hands_raw, list) else None)
    if players is None:
        raise PositionError("bad_position", "give 'players' or 'hands'")
    if not isinstance(players, int) or isinstance(players, bool):
        raise PositionError("bad_position", "'players' must be an integer")
    variant.check_players(players, opts)
    n = players
    seed = _int(data, "seed", 0, 0, 2**64 - 1)
    state = variant.state_cls(variant, opts, n, seed)
    state.deal_scheme = _deal_scheme(data, PositionError, "bad_position")
    state.rng = Rng(_int(data, "rng", seed, 0, 2**64 - 1))
    phase_name = data.get("phase")
    pending_json = data.get("pending")
    if pending_json is not None and any(data.get(k) for k in ("attack", "pot", "wd4")):
        raise PositionError("bad_position", "give 'pending' or the old 'attack' / 'pot' / "
                            "'wd4' fields, not both")
    if pending_json is None:
        pending_json = legacy_pending(data)
    turn_up = data.get("turn_up", False)
    if not isinstance(turn_up, bool):
        raise PositionError("bad_position", "'turn_up' must be true or false")
    if turn_up and (pending_json is not None or phase_name not in (None, "turn")
                    or "discard" in data or "top" in data):
        raise PositionError("bad_position", "'turn_up' is a hand just dealt: no discard pile, "
                            "nothing pending, no phase but 'turn'")
    if phase_name is None:
        phase_name = "response" if pending_json is not None else "turn"
    if phase_name not in PHASE_NAMES:
        raise PositionError(
            "bad_position", f"phase must be one of {', '.join(PHASE_NAMES)}"
        )
    state.phase = PHASE_NAMES.index(phase_name)
    if hands_raw is None:
        hands_raw = [[] for _ in range(n)]
    if not isinstance(hands_raw, list) or len(hands_raw) != n:
        raise PositionError("bad_position", f"'hands' must hold {n} lists")
    state.hands = [_card_list(h, f"hands[{i}]") for i, h in enumerate(hands_raw)]
    if "discard" in data:
        state.discard = _card_list(data["discard"], "discard")
    elif "top" in data:
        state.discard = _card_list([data["top"]], "top")
    else:
        state.discard = []
    if not state.discard and phase_name not in ("deal", "game_over") and not turn_up:
        raise PositionError("bad_position", "give the discard pile ('discard' or 'top')")
    deck = state.deck
    used = Counter(c for h in state.hands for c in h) + Counter(state.discard)
    if "draw" in data:
        state.draw_pile = _card_list(data["draw"], "draw")[::-1]
        used += Counter(state.draw_pile)
    available = Counter(deck)
    over = {c: k for c, k in used.items() if k > available[c]}
    if over:
        names = ", ".join(f"{card_code(c)} x{k} (deck has {available[c]})" for c, k in over.items())
        raise PositionError("too_many_cards", f"more cards than the deck holds: {names}")
    if "draw" not in data:
        rest = available - used
        pile = []
        for c in deck:
            if rest[c] > 0:
                rest[c] -= 1
                pile.append(c)
        Rng(seed ^ 0x5EED).shuffle(pile)
        state.draw_pile = pile
    state.hand_no = _int(data, "hand", 0 if phase_name == "deal" else 1, 0, 10**6)
    state.hand_size = _int(data, "hand_size", max(len(h) for h in state.hands) or 7, 0, 216)
    turn_default = 0
    direction = data.get("direction", "cw")
    state.direction = {"cw": 1, "ccw": -1}.get(direction, 0) if isinstance(direction, str) else 0
    if state.direction == 0:
        raise PositionError("bad_position", "direction must be 'cw' or 'ccw'")
    state.turn = _int(data, "turn", turn_default, 0, n - 1)
    state.dealer = _int(data, "dealer", (state.turn - state.direction) % n, 0, n - 1)
    top = state.discard[-1] if state.discard else -1
    color = data.get("color")
    if color is None:
        if top >= 0 and IS_WILD[top] and phase_name not in ("choose_color", "deal"):
            raise PositionError("bad_position", "the top card is a wild: give its 'color'")
        state.color = FACE_COLOR[top] if top >= 0 else NO_COLOR
    else:
        try:
            state.color = _parse_color(str(color))
        except NotationError as e:
            raise PositionError("bad_position", e.message) from None
    drew = data.get("drew", False)
    if not isinstance(drew, bool):
        raise PositionError("bad_position", "'drew' must be true or false")
    state.drew = drew
    drawn = data.get("drawn")
    if drawn is not None and not isinstance(drawn, str):
        raise PositionError("bad_position", "'drawn' must be a card code or null")
    state.drawn = _card_list([drawn], "drawn")[0] if drawn is not None else -1
    if state.drawn >= 0 and state.drawn not in state.hands[state.turn]:
        raise PositionError("bad_position", "'drawn' must be a card in the current hand")
    active = data.get("active", [True] * n)
    if not isinstance(active, list) or len(active) != n or not all(
        isinstance(a, bool) for a in active
    ):
        raise PositionError("bad_position", f"'active' must be {n} booleans")
    state.active = list(active)
    state._seats_changed()
    revealed = data.get("revealed", [[] for _ in range(n)])
    if not isinstance(revealed, list) or len(revealed) != n:
        raise PositionError("bad_position", f"'revealed' must hold {n} lists")
    state.revealed = [_card_list(r, f"revealed[{i}]") for i, r in enumerate(revealed)]
    for i, r in enumerate(state.revealed):
        if Counter(r) - Counter(state.hands[i]):
            raise PositionError("bad_position", f"revealed[{i}] holds cards not in hands[{i}]")
    default_out = [] if phase_name == "deal" else [s for s in range(n) if not state.hands[s]]
    state.out_order = _seat_list(data.get("out_order", default_out), n, "out_order")
    state.uno_open = _seat_list(data.get("uno_open", []), n, "uno_open")
    scores = data.get("scores", [0] * n)
    if not isinstance(scores, list) or len(scores) != n or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in scores
    ):
        raise PositionError("bad_position", f"'scores' must be {n} integers")
    state.scores = list(scores)
    state.winners = _seat_list(data.get("winners", []), n, "winners")
    state.idle = _int(data, "idle", 0, 0, n)
    state._dry_seen = _repeats(data.get("repeats", {}))
    state._dry_hand = state.hand_no
    last = data.get("last_hand")
    try:
        goal_rule = variant.goal(state.opts).rule
        state.last_hand = legacy_hand(last, n, goal_rule) if isinstance(last, Mapping) else None
    except (HotDeathError, KeyError, TypeError, ValueError, IndexError) as e:
        raise PositionError("bad_position", f"bad 'last_hand': {e}") from None
    pending = None
    if pending_json is not None:
        pending = pending_from_json(pending_json, state.pending_context())
        if "turn" not in data:
            state.turn = pending.victim
    try:
        state.load_position_extra(data)
    except HotDeathError:
        raise
    except (AttributeError, KeyError, TypeError, ValueError, OverflowError) as bad:
        # (a name of its own: under the compiled core a variable keeps one type per function)
        raise PositionError("bad_position", f"bad field: {bad}") from None
    if (pending is None) != (state.phase != RESPONSE):
        raise PositionError(
            "bad_position", "phase 'response' needs a pending attack or pot, and a pending "
            "value needs phase 'response'"
        )
    if pending is not None and pending.victim != state.turn:
        raise PositionError("bad_position", "the victim of what is pending is the seat to act")
    state.load_pending(pending)
    if "stack" in data:
        stack = _card_list(data["stack"], "stack")
        if Counter(stack) - Counter(deck):
            raise PositionError("bad_position", "'stack' holds cards of the deck, each at most "
                                "as often as the deck does")
        state.stack = stack
    if turn_up:
        opening: list[Event] = []
        state._events = opening
        try:
            state.start_hand()
        finally:
            state._events = None
        state.opening_events = opening
    _check_position(state)
    return state


_PLAYING: Final = frozenset({TURN, RESPONSE, CHOOSE_COLOR, CHOOSE_VICTIM})
"""The phases of a hand being played (not the deal, not the end of the game)."""


def _check_position(state: GameState) -> None:
    """Refuse a loaded position that no game can reach (issue 16's impossible positions).

    Winners exactly when the game is over (none only where the variant can end so), at
    least two active seats and an active seat to act while a hand is played, an active
    seat at the deal unless the last hand ended with nobody left in it, Uno windows
    only on one-card hands, the variant's own checks (``check_position``), and finally
    that someone has a legal action unless the game is over.
    """
    n = state.n
    phase = state.phase
    if phase == GAME_OVER:
        if not state.winners and not state.may_end_without_winner():
            raise PositionError("bad_position", "the game is over but nobody won it "
                                "('winners' is empty)")
    elif state.winners:
        raise PositionError("bad_position", "'winners' must be empty while the game runs")
    if len(set(state.winners)) != len(state.winners):
        raise PositionError("bad_position", "'winners' lists a seat twice")
    if phase in _PLAYING:
        if state.n_active < 2:
            raise PositionError("bad_position", "at least two seats must be active while a "
                                "hand is played")
        if not state.active[state.turn]:
            raise PositionError("bad_position", f"seat {state.turn} is to act but is not active")
    elif phase == DEAL and not any(state.active) and (
            state.last_hand is None or state.last_hand.winners):
        raise PositionError("bad_position", "every seat is inactive at the deal: only a hand "
                            "that ended with nobody left in it leaves that, and this "
                            "position's last hand did not")
    if len(set(state.uno_open)) != len(state.uno_open) or any(
        len(state.hands[s]) != 1 or not state.active[s] for s in state.uno_open
    ):
        raise PositionError("bad_position", "uno_open may list only active seats holding one "
                            "card, each once")
    state.check_position()
    if phase != GAME_OVER and not any(state.legal_actions(s) for s in range(n)):
        raise PositionError("bad_position", f"nobody can act in this position (phase "
                            f"{PHASE_NAMES[phase]!r}, seat {state.turn} to act)")
    state._ver += 1  # the lists built for the check are not kept (settings may change)


def loads(text: str) -> GameState:
    """Parse position JSON text."""
    return from_position(text)


# ------------------------------------------------------------------ records


def record(state: GameState) -> dict[str, Any]:
    """The game's record: enough to replay it exactly (variant, options, seed, actions)."""
    params = state.init_params
    return {
        "format": RECORD_FORMAT,
        "variant": state.variant.name,
        "options": non_defaults(state.opts),
        "players": state.n,
        "seed": state.seed,
        "deal_scheme": state.deal_scheme,
        "dealer": params.get("dealer"),
        "actions": [[seat, str(a)] for seat, a in state.history],
    }


def replay(rec: Mapping[str, Any] | str, upto: int | None = None) -> GameState:
    """Rebuild a game from its record (the first ``upto`` actions, default all)."""
    from hotdeath.variants import get_variant

    loaded = _json_input(rec)
    if not isinstance(loaded, Mapping) or loaded.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise PositionError("bad_record", f"a record is a JSON object of format {RECORD_FORMAT}")
    rec = loaded
    name = rec.get("variant")
    if not isinstance(name, str):
        raise PositionError("bad_record", "a record needs a 'variant' name")
    seed = rec.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise PositionError("bad_record", "'seed' must be an integer from 0 to 2**64 - 1")
    options = rec.get("options") or {}
    if not isinstance(options, Mapping):
        raise PositionError("bad_record", "'options' must be an object")
    acts = rec.get("actions", [])
    if not isinstance(acts, list):
        raise PositionError("bad_record", "'actions' must be a list of [seat, \"action\"]")
    for key, kind in (("players", int), ("preset", str), ("dealer", int)):
        value = rec.get(key)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            what = "a name" if kind is str else "an integer"
            raise PositionError("bad_record", f"'{key}' must be {what}")
    deal_scheme = _deal_scheme(rec, PositionError, "bad_record")
    variant = get_variant(name)
    state = variant.new_game(
        rec.get("players"), seed, rec.get("preset"), options, rec.get("dealer"), deal_scheme,
    )
    for i, item in enumerate(acts[:upto] if upto is not None else acts):
        if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int)
                or isinstance(item[0], bool) or not isinstance(item[1], str)):
            raise PositionError(
                "bad_record", f"action {i + 1} must be [seat, \"action\"], got {item!r:.80}"
            )
        seat, text = item
        try:
            state.apply_action(Action.parse(text), seat)
        except HotDeathError as e:
            raise PositionError(
                "bad_record", f"action {i + 1} ({item!r:.80}) cannot be replayed: {e.message}"
            ) from None
    return state
