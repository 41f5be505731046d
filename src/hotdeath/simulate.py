"""Simulations: many bot games from one master seed, as JSON lines, on every core.

A simulation is a plain function over the bot interface: :func:`play_one` plays game
number ``index`` of a :class:`SimConfig` and returns its record; :func:`run_simulation`
plays every game not yet in a results file, in a process pool (or on Ray), and appends
one JSON line per finished game.  The command line (``hotdeath simulate``) is a thin
adapter around it.

Reproducibility
    Game ``index`` depends only on the configuration and ``index``: its seed is
    :func:`game_seed` ``(seed, index)`` and its seating :func:`seating` ``(config,
    index)``.  So the results are the same whatever the number of workers or the backend;
    only the order of the lines may differ (sort them by ``index``).

Fair seating
    ``bots`` is a line-up, repeated to fill the seats (``["heuristic", "random"]`` at
    four seats is heuristic, random, heuristic, random).  With ``rotate`` (the default)
    game ``index`` shifts the line-up by ``index`` seats: over any ``players``
    consecutive games every bot of the line-up sits in every seat once.

Results file
    The first line is a header (``{"type": "header", "format": "hotdeath-sim/1",
    "params": {...}}``); every other line is one game (``{"type": "game", "index": ...}``,
    see :func:`play_one`).  Running again with the same parameters resumes: finished
    indices are skipped.  Different parameters are refused (``resume_mismatch``); the
    number of games is not a parameter, so a rerun with a larger ``games`` extends a run.

This module imports only the standard library (Ray only when that backend is used).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from hotdeath import __version__
from hotdeath.bots import Bot, bot_fits, make_bot, parse_spec
from hotdeath.bots.arena import next_bot_move, seat_rngs
from hotdeath.cards import FACE_CODE, MYS
from hotdeath.errors import HotDeathError
from hotdeath.events import Event
from hotdeath.options import OptionValue, non_defaults
from hotdeath.state import TURN, GameState
from hotdeath.variants import DEFAULT_VARIANT, get_variant

FORMAT: Final = "hotdeath-sim/1"
"""The ``format`` of a results file's header line."""

MAX_MOVES: Final = 20_000
"""Default cap on the moves of one game (typical games take a few hundred).

Weak bots can keep a game going for ever: two random players holding the whole deck
between them pass draw attacks back and forth.  Such a game is stopped and recorded
as ``unfinished`` (no winners; reports leave it out of win rates and say so).
"""

SPECIAL_FACE: Final = 64
"""Face ids from here on (wilds and the Hot Death specials) have their plays counted."""

ATTACK_KINDS: Final = frozenset({"attack", "stack", "throwdown"})
"""Events whose ``n`` is the size of a pending (possibly stacked) draw."""


class SimulationError(HotDeathError):
    """A simulation that cannot run as asked (a bad bot, a results file that differs)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.code, self.message))


@dataclass(frozen=True)
class SimConfig:
    """What to simulate (everything but the number of games and how to run them).

    Build one with :meth:`make`, which validates every field and normalises names, so two
    configurations that mean the same game compare equal.
    """

    variant: str
    players: int
    bots: tuple[str, ...]
    seed: int = 0
    preset: str = ""
    options: tuple[tuple[str, OptionValue], ...] = ()
    rotate: bool = True
    max_moves: int = MAX_MOVES
    _opts: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def make(
        cls,
        variant: str = DEFAULT_VARIANT,
        players: int | None = None,
        bots: Sequence[str] = ("basic",),
        seed: int = 0,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        rotate: bool = True,
        max_moves: int = MAX_MOVES,
    ) -> SimConfig:
        """A validated configuration.

        Raises :class:`~hotdeath.errors.OptionError` for a bad variant, preset, option or
        player count and :class:`SimulationError` (``bad_bot``) for a bad bot spec or
        (``bad_seed``) a negative seed.
        """
        v = get_variant(variant)
        preset_name = preset or v.default_preset
        opts = v.resolve_options(preset_name, options)
        n = v.default_players if players is None else players
        v.check_players(n, opts)
        if not bots:
            raise SimulationError("bad_bot", "give at least one bot spec")
        for spec in bots:
            try:
                parse_spec(spec)
                bot = make_bot(spec)  # a factory may check more (an outside bot's command)
            except ValueError as e:
                raise SimulationError("bad_bot", f"bot spec {spec!r}: {e}") from None
            if not bot_fits(spec, v.name, n):
                raise SimulationError("bad_bot", f"bot {spec!r} does not play {v.name} at "
                                      f"{n} players")
            close = getattr(bot, "close", None)
            if close is not None:
                close()
        if not isinstance(seed, int) or seed < 0:
            raise SimulationError("bad_seed", f"the seed must be an integer ≥ 0, not {seed!r}")
        if not isinstance(max_moves, int) or max_moves < 1:
            raise SimulationError("bad_max_moves", f"max_moves must be ≥ 1, not {max_moves!r}")
        given = dict(options or {})
        specs = {s.name: s for s in v.option_specs()}
        typed = tuple(sorted((k, specs[k].coerce(val)) for k, val in given.items()))
        return cls(
            v.name, n, tuple(s.strip() for s in bots), seed, preset_name, typed, rotate,
            max_moves, opts,
        )

    @property
    def lineup(self) -> list[str]:
        """The bot spec of each seat before rotation (``bots`` repeated to fill the seats)."""
        return [self.bots[s % len(self.bots)] for s in range(self.players)]

    def params(self) -> dict[str, Any]:
        """The parameters a results file's header records (and a resume compares)."""
        opts = self._opts
        if opts is None:
            opts = get_variant(self.variant).resolve_options(self.preset, dict(self.options))
        return {
            "variant": self.variant,
            "players": self.players,
            "preset": self.preset,
            "options": dict(self.options),
            "effective_options": non_defaults(opts),
            "bots": list(self.bots),
            "seed": self.seed,
            "rotate": self.rotate,
            "max_moves": self.max_moves,
        }

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> SimConfig:
        """The configuration a header's ``params`` describe (validated again)."""
        try:
            return cls.make(
                params["variant"], int(params["players"]), list(params["bots"]),
                int(params["seed"]), params.get("preset") or None, dict(params["options"]),
                bool(params.get("rotate", True)), int(params.get("max_moves", MAX_MOVES)),
            )
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, HotDeathError):
                raise
            raise SimulationError("bad_results", f"malformed simulation parameters: {e}") from e


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a simulation with master seed ``master``.

    A hash of both numbers (BLAKE2b, 63 bits), so neighbouring games share nothing and the
    value is the same on every platform.

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    digest = hashlib.blake2b(f"{master}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def seating(config: SimConfig, index: int) -> list[str]:
    """The bot spec in each seat of game ``index`` (the line-up rotated by ``index``)."""
    lineup = config.lineup
    if not config.rotate:
        return lineup
    n = config.players
    shift = index % n
    return [lineup[(s + shift) % n] for s in range(n)]


# ------------------------------------------------------------------ one game


class _Tally:
    """Counts what happened in one game, from its events."""

    def __init__(self, n: int) -> None:
        self.kinds: Counter[str] = Counter()
        self.rules: Counter[str] = Counter()
        self.plays: Counter[str] = Counter()
        self.turns: list[int] = []
        self.turns_now = 0
        self.hand_winners: list[int] = []
        self.dealers: list[int] = []
        self.combo_1000 = 0
        self.all_bastards = 0
        self.draw_69 = 0
        self.largest_stack = 0
        self.largest_draw = 0
        self.failed_challenges = 0
        self.dry_hands = 0
        self.dry_now = False
        self.hands_won = [0] * n
        self.n = n
        self.hand_points: list[list[int]] = []

    def add(self, events: Iterable[Event]) -> None:
        for e in events:
            k = e.kind
            self.kinds[k] += 1
            self.rules[e.rule] += 1
            if k == "play":
                for c in e.cards:
                    if c >= SPECIAL_FACE:
                        self.plays[FACE_CODE[c]] += 1
            elif k in ATTACK_KINDS:
                if e.n > self.largest_stack:
                    self.largest_stack = e.n
                if k == "attack" and e.n == 69 and e.cards == (MYS,):
                    self.draw_69 += 1
            elif k == "draw":
                if e.n > self.largest_draw:
                    self.largest_draw = e.n
            elif k == "deal":
                self.dealers.append(e.seat)
            elif k == "challenge_result" and not e.n:
                self.failed_challenges += 1
            elif k == "forgiven":
                self.dry_now = True
            elif k == "hand_end":
                self.hand_winners.append(e.seat)
                if e.seat >= 0:
                    self.hands_won[e.seat] += 1
                self.turns.append(self.turns_now)
                self.turns_now = 0
                self.dry_hands += self.dry_now
                self.dry_now = False
                self.hand_points.append([0] * self.n)
            elif k == "score":
                if self.hand_points and 0 <= e.seat < self.n:
                    self.hand_points[-1][e.seat] = e.n
                for label, _ in e.info:
                    if label == "combo_1000":
                        self.combo_1000 += 1
                    elif label == "all_bastards":
                        self.all_bastards += 1


def _bots_for(
    specs: Sequence[str], cache: dict[tuple[int, str], Bot] | None
) -> list[Bot]:
    """One bot per seat: fresh, except bots with a ``new_game`` hook, kept in ``cache``."""
    out: list[Bot] = []
    for seat, spec in enumerate(specs):
        key = (seat, spec)
        bot = cache.get(key) if cache is not None else None
        if bot is None:
            bot = make_bot(spec)
            if cache is not None and hasattr(bot, "new_game"):
                cache[key] = bot
        out.append(bot)
    return out


def play_one(
    config: SimConfig, index: int, cache: dict[tuple[int, str], Bot] | None = None
) -> dict[str, Any]:
    """Play game ``index`` of ``config`` to its end and return its record.

    The record (one JSON line of a results file) holds: ``index``, ``seed``, ``bots``
    (the spec in each seat), ``scores``, ``winners``, ``hands`` (hands played),
    ``hand_winners`` and ``dealers`` (per hand; -1: no winner), ``hand_points`` (per
    finished hand, the points each seat scored in it: 0 for all in a game no points
    decide), ``hands_won`` (per seat),
    ``turns`` (turns taken in each finished hand: a turn starts when a seat acts on a
    normal turn without having drawn yet), ``moves`` (every action, windows included),
    ``unfinished`` (stopped at ``max_moves``, without winners), ``events``
    and ``rules`` (event counts by kind and by rule id), ``plays`` (plays of wilds and Hot
    Death specials by card code), ``mad_plays``, ``combo_1000`` (scores with the 1000
    combination), ``all_bastards`` (hands ended by all four bastard cards),
    ``largest_stack`` (the largest pending draw), ``largest_draw`` (most cards drawn at
    once), ``draw_69`` (Mystery Draws of 69), ``ejections``, ``failed_challenges``
    (Wild Draw Four challenges that found the play legal), ``dry_hands`` (finished hands
    in which a draw found both piles empty and was forgiven), and ``bot_errors`` (per
    seat, for outside bots that broke the protocol).

    ``cache`` keeps bots that have a ``new_game`` hook (outside bots: one process per
    seat) from one game to the next.
    """
    seed = game_seed(config.seed, index)
    specs = seating(config, index)
    variant = get_variant(config.variant)
    state = variant.new_game(config.players, seed, config.preset, dict(config.options))
    bots = _bots_for(specs, cache)
    rngs = seat_rngs(seed, config.players)
    for seat, bot in enumerate(bots):
        hook = getattr(bot, "new_game", None)
        if hook is not None:
            hook(state.view(seat), rngs[seat].getrandbits(63))
    errors_before = [len(getattr(b, "errors", ())) for b in bots]
    observers = [(s, b) for s, b in enumerate(bots) if getattr(b, "wants_events", False)]
    tally = _Tally(config.players)
    tally.add(state.opening_events)
    table = dict(enumerate(bots))
    moves = 0
    while moves < config.max_moves:
        move = next_bot_move(state, table, rngs)
        if move is None:  # every seat has a bot, so only at the end of the game
            break
        seat, action = move
        if seat == state.turn and state.phase == TURN and not state.drew:
            tally.turns_now += 1
        events = state.apply_action(action, seat)
        tally.add(events)
        for s, b in observers:
            b.observe([e.for_seat(s) for e in events])  # type: ignore[attr-defined]
        moves += 1
    for seat, bot in enumerate(bots):
        hook = getattr(bot, "game_over", None)
        if hook is not None:
            hook(state.view(seat))
    bot_errors = {
        str(s): len(getattr(b, "errors", ())) - errors_before[s]
        for s, b in enumerate(bots)
        if len(getattr(b, "errors", ())) > errors_before[s]
    }
    return _record(index, seed, specs, state, tally, moves, bot_errors)


def _record(
    index: int,
    seed: int,
    specs: Sequence[str],
    state: GameState,
    t: _Tally,
    moves: int,
    bot_errors: Mapping[str, int],
) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "type": "game",
        "index": index,
        "seed": seed,
        "bots": list(specs),
        "scores": list(state.scores),
        "winners": list(state.winners),
        "hands": len(t.hand_winners),
        "hand_winners": t.hand_winners,
        "dealers": t.dealers,
        "hands_won": t.hands_won,
        "turns": t.turns,
        "moves": moves,
        "unfinished": not state.is_terminal(),
        "mad_plays": t.plays.get("MAD", 0),
        "combo_1000": t.combo_1000,
        "all_bastards": t.all_bastards,
        "largest_stack": t.largest_stack,
        "largest_draw": t.largest_draw,
        "draw_69": t.draw_69,
        "ejections": t.kinds.get("eject", 0),
        "failed_challenges": t.failed_challenges,
        "dry_hands": t.dry_hands,
        "hand_points": t.hand_points,
        "events": dict(sorted(t.kinds.items())),
        "rules": dict(sorted(t.rules.items())),
        "plays": dict(sorted(t.plays.items())),
    }
    if bot_errors:
        rec["bot_errors"] = dict(bot_errors)
    return rec


# ------------------------------------------------------------------ mistakes


@dataclass(frozen=True, slots=True)
class Blunder:
    """A kind of mistake a simulation counts: how often it happened, out of what."""

    key: str
    label: str
    """What it is, in words."""
    out_of: str
    """What it is counted against, in words (the denominator)."""
    count: Callable[[Mapping[str, Any]], int]
    total: Callable[[Mapping[str, Any]], int]


def _ev(g: Mapping[str, Any], *kinds: str) -> int:
    events = g.get("events", {})
    return sum(int(events.get(k, 0)) for k in kinds)


BLUNDERS: Final = (
    Blunder("uno_caught", "own Uno calls missed (caught)", "episodes on one card",
            lambda g: _ev(g, "catch"), lambda g: _ev(g, "catch", "uno")),
    Blunder("false_calls", "erroneous Uno calls (a penalty)", "Uno calls and catches",
            lambda g: _ev(g, "false_call"), lambda g: _ev(g, "uno", "catch", "false_call")),
    Blunder("failed_challenges", "Wild Draw Four challenges lost", "challenges",
            lambda g: int(g.get("failed_challenges", 0)), lambda g: _ev(g, "challenge_result")),
    Blunder("dry_hands", "hands that ran the piles dry (draws forgiven)", "hands",
            lambda g: int(g.get("dry_hands", 0)), lambda g: int(g.get("hands", 0))),
    Blunder("blocked", "hands blocked", "hands",
            lambda g: _ev(g, "blocked"), lambda g: int(g.get("hands", 0))),
    Blunder("unfinished", "games stopped at the move cap", "games",
            lambda g: int(bool(g.get("unfinished"))), lambda g: 1),
    Blunder("left", "seats that left the game", "games",
            lambda g: _ev(g, "leave"), lambda g: 1),
)
"""What the mistake scan counts (:func:`blunder_rates`; ``benchmarks/blunders.py`` compares
the variants): a seat that forgets its own Uno and is caught, a call that costs a penalty, a
challenge that costs cards, and the signs of a hand that will not end (every card in the
hands, so that draws are forgiven; blocked hands; games at the move cap)."""


def blunder_rates(games: Iterable[Mapping[str, Any]]) -> dict[str, tuple[int, int]]:
    """Each of :data:`BLUNDERS` over game records: ``key -> (count, out of)``.

    >>> cfg = SimConfig.make("throwdown", players=4, bots=["heuristic"], seed=5)
    >>> caught, episodes = blunder_rates(simulate(cfg, 2))["uno_caught"]
    >>> episodes > 0 and caught <= episodes // 10
    True
    """
    records = list(games)
    return {b.key: (sum(b.count(g) for g in records), sum(b.total(g) for g in records))
            for b in BLUNDERS}


# ------------------------------------------------------------------ results files


def header(config: SimConfig) -> dict[str, Any]:
    """The header line of a results file for ``config``."""
    return {"type": "header", "format": FORMAT, "version": __version__,
            "params": config.params()}


@dataclass
class Results:
    """A results file read back: its header's parameters and its game records."""

    path: Path
    params: dict[str, Any]
    games: list[dict[str, Any]]


def read_results(path: str | Path, repair: bool = False) -> Results:
    """Read a results file (``SimulationError`` with code ``bad_results`` if it is not one).

    A last line cut short (the run was killed while writing it) is ignored; with
    ``repair`` it is also cut off the file so that appending can go on.  Game records are
    returned sorted by index, each index once.
    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise SimulationError("file_error", f"cannot read {str(p)!r}: {e.strerror or e}") from None
    if raw and not raw.endswith(b"\n"):
        cut = raw.rfind(b"\n") + 1
        raw = raw[:cut]
        if repair:
            with p.open("r+b") as f:
                f.truncate(cut)
    lines = raw.decode("utf-8", errors="replace").splitlines()
    if not lines:
        raise SimulationError("bad_results", f"{str(p)!r} is empty: not a results file")
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SimulationError("bad_results", f"{str(p)!r} is not a simulation results file "
                              f"(its first line is not a {FORMAT} header)")
    games: dict[int, dict[str, Any]] = {}
    for no, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            index = int(rec["index"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise SimulationError("bad_results", f"{str(p)!r} line {no} is not a game "
                                  "record") from None
        games[index] = rec
    params = head.get("params")
    if not isinstance(params, dict):
        raise SimulationError("bad_results", f"{str(p)!r} has a header without parameters")
    return Results(p, params, [games[i] for i in sorted(games)])


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    keys = [k for k in new if k != "effective_options"] + [k for k in old if k not in new]
    return [f"{k}: file has {old.get(k)!r}, now {new.get(k)!r}"
            for k in keys if old.get(k) != new.get(k)]


# ------------------------------------------------------------------ running many games


_WORKER: dict[str, Any] = {}


def _init_worker(params: dict[str, Any]) -> None:
    """Pool initialiser: keep the configuration and a bot cache in the worker process.

    The configuration comes as its ``params`` (plain data, as Ray's workers get it) and is
    rebuilt here.  A failure is kept for the first task to raise in the parent: a pool
    whose initialiser raises starts new workers without end, and the run would hang.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _WORKER["cache"] = {}
    try:
        _WORKER["config"] = SimConfig.from_params(params)
    except Exception as e:
        _WORKER["error"] = SimulationError(
            "worker_failed", f"a worker process could not start: {type(e).__name__}: {e}")


def _play_many(
    config: SimConfig, indices: Iterable[int], cache: dict[tuple[int, str], Bot]
) -> list[dict[str, Any]]:
    """Play games ``indices``; any failure becomes a picklable :class:`SimulationError`."""
    out: list[dict[str, Any]] = []
    for i in indices:
        try:
            out.append(play_one(config, i, cache))
        except SimulationError:
            raise
        except Exception as e:
            raise SimulationError(
                "game_failed",
                f"game {i} (seed {game_seed(config.seed, i)}) failed: {type(e).__name__}: {e}",
            ) from None
    return out


def _run_chunk(indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play the games ``indices`` in a pool worker."""
    error = _WORKER.get("error")
    if error is not None:
        raise error
    return _play_many(_WORKER["config"], indices, _WORKER["cache"])


def _chunks(todo: Sequence[int], size: int, workers: int = 1) -> list[list[int]]:
    """Split ``todo`` into tasks of ``size`` games, shrinking towards the end.

    Games differ a lot in length, so the last tasks get smaller (a quarter of what is left
    per worker, down to one game): no worker is left with a long task while the others
    idle at the end of the run.
    """
    out: list[list[int]] = []
    i, n = 0, len(todo)
    while i < n:
        k = max(1, min(size, (n - i) // (workers * 4)))
        out.append(list(todo[i:i + k]))
        i += k
    return out


def default_chunk(todo: int, workers: int) -> int:
    """Games per task: large enough to hide the pool's overhead, small enough to stream.

    About sixteen tasks per worker, from 1 to 32 games each.
    """
    return max(1, min(32, todo // (workers * 16) or 1))


def _close_bots(cache: Mapping[tuple[int, str], Bot]) -> None:
    for bot in cache.values():
        close = getattr(bot, "close", None)
        if close is not None:
            close()


def _inline(config: SimConfig, todo: Sequence[int]) -> Iterator[list[dict[str, Any]]]:
    cache: dict[tuple[int, str], Bot] = {}
    try:
        for i in todo:
            yield _play_many(config, (i,), cache)
    finally:
        _close_bots(cache)


def _pool(
    config: SimConfig, todo: Sequence[int], workers: int, chunk: int
) -> Iterator[list[dict[str, Any]]]:
    import multiprocessing

    # forkserver, not fork: a fork of a process running threads (a server, JAX once
    # imported) can deadlock in the child; the fork server is a fresh single-threaded one
    ctx = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
    pool = ctx.Pool(workers, initializer=_init_worker, initargs=(config.params(),))
    try:
        yield from pool.imap_unordered(_run_chunk, _chunks(todo, chunk, workers))
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _ray_chunk(params: dict[str, Any], indices: list[int]) -> list[dict[str, Any]]:
    """Play the games ``indices`` on a Ray worker (configuration rebuilt from ``params``)."""
    config = SimConfig.from_params(params)
    cache: dict[tuple[int, str], Bot] = {}
    try:
        return _play_many(config, indices, cache)
    finally:
        _close_bots(cache)


def _ray(
    config: SimConfig, todo: Sequence[int], address: str | None, chunk: int
) -> Iterator[list[dict[str, Any]]]:
    try:
        import ray
    except ImportError:
        raise SimulationError(
            "ray_missing",
            "the Ray backend needs Ray: pip install 'hotdeath[ray]'",
        ) from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    task = ray.remote(_ray_chunk)
    params = config.params()
    pending = [task.remote(params, c) for c in _chunks(todo, chunk)]
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref)


@dataclass(frozen=True)
class RunSummary:
    """What :func:`run_simulation` did."""

    path: Path
    games: int
    skipped: int
    played: int


def run_simulation(
    config: SimConfig,
    games: int,
    out: str | Path,
    workers: int | None = None,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    chunk: int | None = None,
) -> RunSummary:
    """Play games ``0 .. games-1`` of ``config``, appending each record to ``out``.

    Games already in ``out`` are skipped (resume); a file written with other parameters
    is refused with ``resume_mismatch`` before anything is written.  ``workers`` (default:
    every core) processes play in parallel (``1``: in this process); ``backend="ray"``
    runs the games as Ray tasks instead (``address``: a cluster to join, default a local
    Ray).  ``progress(done, total)`` is called as games finish (done counts skipped games
    too).  If interrupted (``KeyboardInterrupt``), every record written so far stays.
    """
    if not isinstance(games, int) or games < 0:
        raise SimulationError("bad_games", f"the number of games must be ≥ 0, not {games!r}")
    if backend not in ("process", "ray"):
        raise SimulationError("bad_backend", f"unknown backend {backend!r} (process, ray)")
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    if n_workers < 1:
        raise SimulationError("bad_workers", f"workers must be ≥ 1, not {n_workers}")
    path = Path(out)
    head = header(config)
    done: set[int] = set()
    if path.exists() and path.stat().st_size > 0:
        old = read_results(path, repair=True)
        diffs = _differences(old.params, head["params"])
        if diffs:
            raise SimulationError(
                "resume_mismatch",
                f"{str(path)!r} holds a simulation with other parameters ("
                + "; ".join(diffs) + "): use another --out file or the same parameters",
            )
        done = {int(g["index"]) for g in old.games}
        new_file = False
    else:
        new_file = True
    todo = [i for i in range(games) if i not in done]
    skipped = games - len(todo)
    if progress is not None:
        progress(skipped, games)
    played = 0
    try:
        f = path.open("a", encoding="utf-8")
    except OSError as e:
        raise SimulationError("file_error", f"cannot write {str(path)!r}: "
                              f"{e.strerror or e}") from None
    with f:
        if new_file:
            f.write(json.dumps(head, ensure_ascii=False) + "\n")
            f.flush()
        if not todo:
            return RunSummary(path, games, skipped, 0)
        size = chunk or default_chunk(len(todo), n_workers)
        if backend == "ray":
            batches = _ray(config, todo, address, size)
        elif n_workers == 1 or len(todo) == 1:
            batches = _inline(config, todo)
        else:
            batches = _pool(config, todo, min(n_workers, len(todo)), size)
        try:
            for batch in batches:
                f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in batch))
                f.flush()
                played += len(batch)
                if progress is not None:
                    progress(skipped + played, games)
        finally:
            close = getattr(batches, "close", None)
            if close is not None:
                close()
    return RunSummary(path, games, skipped, played)


def simulate(config: SimConfig, games: int) -> list[dict[str, Any]]:
    """Play ``games`` games of ``config`` in this process and return their records.

    >>> cfg = SimConfig.make("standard", players=2, bots=["basic", "random"], seed=3)
    >>> [r["index"] for r in simulate(cfg, 2)]
    [0, 1]
    """
    return [r for batch in _inline(config, range(games)) for r in batch]
