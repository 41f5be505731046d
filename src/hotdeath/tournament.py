"""Tournaments: every table of entrants plays the same deals; standings, ratings, a crosstable.

A tournament is a list of entrants (bot specs) and a table size ``players``.  Every
combination of ``players`` distinct entrants is a *table*; each table plays ``games``
games of one :class:`~hotdeath.simulate.SimConfig` (the table's entrants in line-up
order, rotated one seat per game, so a table's games give every entrant every seat).
All tables share the master seed, so they play **the same deals** (common random
numbers), hand after hand: every hand's deal follows from the game's seed and the hand's
number, and each seat gets the same cards whoever deals, whatever was played before (deal
scheme 2, docs/architecture.md "Duplicate deals"; a Hot Death dealer's deal size is the one
choice that changes a deal).  Differences between tables come from the entrants, not from
the cards.

Results live in a folder: ``tournament.json`` (the parameters and the tables) and one
results file per table (``table-01.jsonl`` …, the format of ``hotdeath simulate``), so a
tournament resumes like a simulation, runs on the process pool or Ray, and every table
can also be read by ``hotdeath report``.

Analysis
    :func:`standings` counts games and wins per entrant (95% Wilson intervals) and fits
    **ratings** from pairwise results: in every finished game each winner beats every
    other seat at the table (``by="hands"``: each hand's winner beats every other seat),
    and a Bradley–Terry model is fitted to those comparisons by maximum likelihood
    (``choix``'s iterative Luce spectral ranking, lightly regularised so that an
    entrant who never loses gets a finite rating); ``by="points"``, where points decide
    the game (Hot Death: the lowest total wins), in each hand a seat beats every seat that
    scored worse.  Ratings are on the Elo scale, mean
    1500: a difference of 400 means 10:1 odds in a comparison.  Their 95% intervals come
    from a bootstrap over the deals (all tables' games of one deal resampled together).
    :func:`crosstable` gives each entrant's share of the comparisons it had with each other
    entrant.  :func:`points_per_hand` is the paired per-hand measure of such games (the
    points a seat takes in a hand against the others at its table, on the same deal), and
    :func:`agreement` sets the ratings from games and from points side by side.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from hotdeath import __version__
from hotdeath.errors import HotDeathError
from hotdeath.options import OptionValue
from hotdeath.report import wilson
from hotdeath.simulate import MAX_MOVES, SimConfig, read_results, run_simulation
from hotdeath.variants import DEFAULT_VARIANT

FORMAT: Final = "hotdeath-tournament/1"
"""The ``format`` of ``tournament.json``."""

MANIFEST: Final = "tournament.json"
ELO: Final = 400.0 / math.log(10.0)
"""Elo points per unit of Bradley–Terry log-strength."""
ALPHA: Final = 0.1
"""Regularisation of the Bradley–Terry fit (a weak prior towards equal strengths)."""
BY: Final = ("games", "hands", "points")
"""What ratings are fitted from: whole games, hands won, or each hand's points (the games
that points decide: who took fewer, or more, than whom in the same hand)."""
MAX_TABLES: Final = 500


class TournamentError(HotDeathError):
    """A tournament that cannot be run or read (its ``code`` says why)."""


@dataclass(frozen=True)
class TournamentConfig:
    """What a tournament plays: the entrants, the table size, the rules, games per table.

    Build one with :meth:`make`, which validates everything (every table's
    :class:`~hotdeath.simulate.SimConfig` included) before anything is played.
    """

    variant: str
    players: int
    entrants: tuple[str, ...]
    games: int
    seed: int = 0
    preset: str = ""
    options: tuple[tuple[str, OptionValue], ...] = ()
    max_moves: int = MAX_MOVES

    @classmethod
    def make(
        cls,
        entrants: Sequence[str],
        variant: str = DEFAULT_VARIANT,
        players: int | None = None,
        games: int = 100,
        seed: int = 0,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        max_moves: int = MAX_MOVES,
    ) -> TournamentConfig:
        """A validated tournament.

        Raises :class:`TournamentError` with ``too_few_entrants`` (fewer than two, or
        fewer than the seats), ``duplicate_entrant``, ``too_many_tables`` or ``bad_games``;
        a bad variant, option, player count or bot spec raises the error
        :meth:`SimConfig.make` raises.
        """
        names = tuple(s.strip() for s in entrants)
        if len(names) < 2:
            raise TournamentError("too_few_entrants",
                                  f"a tournament needs at least two entrants, not {len(names)}")
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise TournamentError("duplicate_entrant",
                                      f"{name!r} is entered twice; give each entrant once")
            seen.add(name)
        if not isinstance(games, int) or games < 1:
            raise TournamentError("bad_games", f"games per table must be ≥ 1, not {games!r}")
        first = SimConfig.make(variant, players, names[:1], seed, preset, options,
                               max_moves=max_moves)
        if first.players > len(names):
            raise TournamentError(
                "too_few_entrants",
                f"{first.players} seats need at least {first.players} entrants "
                f"(a table seats distinct entrants), not {len(names)}",
            )
        if math.comb(len(names), first.players) > MAX_TABLES:
            raise TournamentError(
                "too_many_tables",
                f"{len(names)} entrants at {first.players} seats make "
                f"{math.comb(len(names), first.players)} tables (at most {MAX_TABLES})",
            )
        config = cls(first.variant, first.players, names, games, seed, first.preset,
                     first.options, max_moves)
        for table in config.tables():
            config.table_config(table)  # validates every entrant's spec
        return config

    def tables(self) -> list[tuple[str, ...]]:
        """Every table: each combination of ``players`` entrants, in entrant order."""
        return list(itertools.combinations(self.entrants, self.players))

    def table_config(self, table: Sequence[str]) -> SimConfig:
        """The simulation one table plays (same seed for every table: the same deals)."""
        return SimConfig.make(self.variant, self.players, list(table), self.seed,
                              self.preset, dict(self.options), True, self.max_moves)

    def params(self) -> dict[str, Any]:
        """The parameters ``tournament.json`` records (and a resume compares)."""
        return {
            "variant": self.variant,
            "players": self.players,
            "entrants": list(self.entrants),
            "games": self.games,
            "seed": self.seed,
            "preset": self.preset,
            "options": dict(self.options),
            "max_moves": self.max_moves,
        }

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> TournamentConfig:
        """The tournament ``params`` describe (validated again)."""
        try:
            return cls.make(list(params["entrants"]), params["variant"],
                            int(params["players"]), int(params["games"]),
                            int(params["seed"]), params.get("preset") or None,
                            dict(params.get("options", {})),
                            int(params.get("max_moves", MAX_MOVES)))
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, HotDeathError):
                raise
            raise TournamentError("bad_tournament", f"malformed tournament file: {e}") from e


def table_file(number: int) -> str:
    """The results file name of table ``number`` (counted from 1)."""
    return f"table-{number:02d}.jsonl"


def _manifest(config: TournamentConfig) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": __version__,
        "params": config.params(),
        "tables": [{"file": table_file(i), "entrants": list(t)}
                   for i, t in enumerate(config.tables(), start=1)],
    }


def _read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TournamentError("no_tournament",
                              f"{str(folder)!r} holds no tournament ({MANIFEST} missing)") from None
    except (OSError, ValueError) as e:
        raise TournamentError("bad_tournament", f"cannot read {str(path)!r}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TournamentError("bad_tournament",
                              f"{str(path)!r} is not a {FORMAT} file")
    return data


def run_tournament(
    config: TournamentConfig,
    folder: str | Path,
    workers: int | None = None,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Play every game of every table not yet in ``folder``; return the games played.

    ``folder`` is created if needed.  If it already holds a tournament with other
    parameters it is refused (``resume_mismatch``) before anything is written; only the
    number of games per table may change (a larger number extends every table).
    ``progress(done, total)`` counts games over all tables (finished ones included).
    ``workers``, ``backend`` and ``address`` are those of
    :func:`~hotdeath.simulate.run_simulation`.
    """
    out = Path(folder)
    if (out / MANIFEST).exists():
        old = _read_manifest(out).get("params", {})
        new = config.params()
        diffs = [k for k in sorted(set(old) | set(new))
                 if k != "games" and old.get(k) != new.get(k)]
        if diffs:
            raise TournamentError(
                "resume_mismatch",
                f"{str(out)!r} holds a tournament with other parameters "
                f"({', '.join(diffs)}): use another folder or the same parameters",
            )
    try:  # (re)written: a rerun with more or fewer games per table changes only that
        out.mkdir(parents=True, exist_ok=True)
        (out / MANIFEST).write_text(json.dumps(_manifest(config), indent=2) + "\n",
                                    encoding="utf-8")
    except OSError as e:
        raise TournamentError("file_error",
                              f"cannot write to {str(out)!r}: {e.strerror or e}") from None
    tables = config.tables()
    total = len(tables) * config.games
    played = 0
    for i, table in enumerate(tables):
        before = i * config.games

        def note(done: int, _total: int, before: int = before) -> None:
            if progress is not None:
                progress(before + done, total)

        summary = run_simulation(config.table_config(table), config.games,
                                 out / table_file(i + 1), workers, backend, address, note)
        played += summary.played
    return played


# ------------------------------------------------------------------ analysis


@dataclass(frozen=True)
class Standing:
    """One entrant's results: games, wins, rating (Elo scale) with 95% intervals."""

    entrant: str
    games: int
    wins: int
    comparisons: int
    rating: float
    rating_ci: tuple[float, float]

    @property
    def rate(self) -> float:
        """Share of its finished games the entrant won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def rate_ci(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`rate`."""
        return wilson(self.wins, self.games)


@dataclass
class TournamentResult:
    """A tournament's parameters and the records of its finished games, per table."""

    config: TournamentConfig
    folder: Path
    tables: list[tuple[tuple[str, ...], list[dict[str, Any]]]]

    @property
    def games(self) -> list[dict[str, Any]]:
        """Every game record of every table."""
        return [g for _, games in self.tables for g in games]

    @property
    def unfinished(self) -> int:
        """Games stopped at the move cap (left out of every figure)."""
        return sum(1 for g in self.games if g.get("unfinished"))


def load_tournament(folder: str | Path) -> TournamentResult:
    """Read the tournament in ``folder`` (the tables played so far)."""
    out = Path(folder)
    data = _read_manifest(out)
    config = TournamentConfig.from_params(data.get("params", {}))
    tables: list[tuple[tuple[str, ...], list[dict[str, Any]]]] = []
    for i, table in enumerate(config.tables(), start=1):
        path = out / table_file(i)
        games = read_results(path).games if path.exists() else []
        tables.append((table, sorted(games, key=lambda g: int(g["index"]))[: config.games]))
    return TournamentResult(config, out, tables)


def comparisons(result: TournamentResult, by: str = "games") -> list[list[tuple[int, int]]]:
    """The pairwise results of each finished game, as (winner, loser) entrant indices.

    ``by="games"``: each winner of the game beats every non-winner at its table;
    ``by="hands"``: each hand's winner beats every other seat; ``by="points"``: in each
    hand, a seat beats every seat that scored worse in that hand (more points where the
    lowest total wins, fewer where the highest does; equal scores compare neither way).
    Unfinished games give none.
    """
    return [pairs for _, pairs in _comparisons(result, by)]


def _comparisons(result: TournamentResult, by: str) -> list[tuple[int, list[tuple[int, int]]]]:
    """:func:`comparisons` with each finished game's index (its deal) beside its pairs."""
    if by not in BY:
        raise TournamentError("bad_by", f"by must be one of {', '.join(BY)}, not {by!r}")
    sign = _points_sign(result) if by == "points" else 0
    index = {e: i for i, e in enumerate(result.config.entrants)}
    out: list[tuple[int, list[tuple[int, int]]]] = []
    for g in result.games:
        if g.get("unfinished"):
            continue
        seats = [index[b] for b in g["bots"]]
        pairs: list[tuple[int, int]] = []
        if by == "games":
            winners = set(g["winners"])
            for w in winners:
                pairs += [(seats[w], seats[s]) for s in range(len(seats)) if s not in winners]
        elif by == "hands":
            for w in g["hand_winners"]:
                if w >= 0:
                    pairs += [(seats[w], seats[s]) for s in range(len(seats)) if s != w]
        else:
            for row in _hand_points(g):
                for a in range(len(seats)):
                    pairs += [(seats[a], seats[b]) for b in range(len(seats))
                              if sign * (row[a] - row[b]) > 0]
        out.append((int(g["index"]), pairs))
    return out


def _points_sign(result: TournamentResult) -> int:
    """+1 where the highest total wins the variant's game, -1 where the lowest does.

    Raises :class:`TournamentError` (``bad_by``) for a game no points decide.
    """
    from hotdeath.variants import get_variant

    cfg = result.config
    variant = get_variant(cfg.variant)
    lowest = variant.goal(variant.resolve_options(cfg.preset, dict(cfg.options))).lowest_wins
    if lowest is None:
        raise TournamentError("bad_by", f"no points decide a game of {cfg.variant}: rate it "
                              "by games")
    return -1 if lowest else 1


def _hand_points(game: Mapping[str, Any]) -> list[list[int]]:
    """The points each seat scored in each finished hand of a game record."""
    rows = game.get("hand_points")
    if not isinstance(rows, list):
        raise TournamentError("no_points", "these results hold no points per hand (played "
                              "before they were recorded): play the tournament again")
    return [[int(x) for x in row] for row in rows]


@dataclass(frozen=True)
class PointsStanding:
    """An entrant's points a hand against the table, with a 95% interval."""

    entrant: str
    hands: int
    mean: float
    """The mean over its seat-hands of the others' mean points less its own (where the
    lowest total wins; its own less the others' where the highest does): above 0, it took
    less of the hand's damage (or more of its gains) than the seats it played against."""
    ci: tuple[float, float]


def points_per_hand(result: TournamentResult, bootstrap: int = 200,
                    seed: int = 0) -> list[PointsStanding]:
    """Every entrant's points a hand against the table, best first (a paired measure).

    Each hand scores each seat against the others at its table on the same deal; the 95%
    interval is a bootstrap over the deals (every table's games of a deal resampled
    together), or ±1.96 standard errors with ``bootstrap`` 0.
    """
    import numpy as np

    sign = _points_sign(result)
    cfg = result.config
    n = len(cfg.entrants)
    index = {e: i for i, e in enumerate(cfg.entrants)}
    deals: dict[int, int] = {}
    rows: list[tuple[int, int, float]] = []  # (deal, entrant, measure)
    for g in result.games:
        if g.get("unfinished"):
            continue
        deal = deals.setdefault(int(g["index"]), len(deals))
        seats = [index[b] for b in g["bots"]]
        for row in _hand_points(g):
            k = len(row)
            if k < 2:
                continue
            total = sum(row)
            for s in range(k):
                others = (total - row[s]) / (k - 1)
                rows.append((deal, seats[s], sign * (row[s] - others)))
    if not rows:
        return [PointsStanding(e, 0, 0.0, (0.0, 0.0)) for e in cfg.entrants]
    deal_of = np.array([r[0] for r in rows])
    who = np.array([r[1] for r in rows])
    value = np.array([r[2] for r in rows], dtype=float)
    count = np.bincount(who, minlength=n).astype(float)
    means = np.bincount(who, weights=value, minlength=n) / np.maximum(count, 1)
    if bootstrap > 0:
        rng = np.random.default_rng(seed)
        k = len(deals)
        samples = []
        for _ in range(bootstrap):
            w = rng.multinomial(k, [1 / k] * k).astype(float)[deal_of]
            c = np.bincount(who, weights=w, minlength=n)
            samples.append(np.bincount(who, weights=w * value, minlength=n) / np.maximum(c, 1))
        lo = np.percentile(samples, 2.5, axis=0)
        hi = np.percentile(samples, 97.5, axis=0)
    else:
        sq = np.bincount(who, weights=value * value, minlength=n) / np.maximum(count, 1)
        se = np.sqrt(np.maximum(sq - means * means, 0.0) / np.maximum(count, 1))
        lo, hi = means - 1.96 * se, means + 1.96 * se
    out = [PointsStanding(e, int(count[i]), float(means[i]), (float(lo[i]), float(hi[i])))
           for i, e in enumerate(cfg.entrants)]
    return sorted(out, key=lambda p: (-p.mean, p.entrant))


@dataclass(frozen=True)
class Agreement:
    """Ratings from whole games beside ratings from each hand's points.

    Where points decide the game, the per-hand measure uses every hand (far more
    comparisons than games) and should order the entrants as whole games do; ``tau``
    (Kendall's rank correlation of the two orders, 1 when they agree) and the pairs each
    order puts the other way round show whether it does.
    """

    by_games: list[Standing]
    by_points: list[Standing]
    tau: float
    discordant: list[tuple[str, str]]
    """Pairs of entrants the two orders put the other way round (games' order first)."""
    tied: int = 0
    """Pairs that one of the two ratings cannot tell apart (equal ratings)."""

    def words(self) -> str:
        """How far the two orders agree, in words."""
        said = f"Kendall's τ of the two orders {self.tau:.2f}"
        if self.discordant:
            return said + " (they differ on " + ", ".join(
                f"{a} and {b}" for a, b in self.discordant) + ")"
        if self.tied:
            return said + (f" (no pair the other way round; {self.tied} "
                           f"{'pair' if self.tied == 1 else 'pairs'} tied in one of them)")
        return said + " (the same order)"


def agreement(result: TournamentResult, bootstrap: int = 200, seed: int = 0) -> Agreement:
    """Ratings by games and by points side by side, and how far their orders agree.

    Raises :class:`TournamentError` (``bad_by``) where no points decide the game.
    """
    games = standings(result, "games", bootstrap, seed)
    points = standings(result, "points", bootstrap, seed)
    rank_g = {s.entrant: s.rating for s in games}
    rank_p = {s.entrant: s.rating for s in points}
    names = [s.entrant for s in games]
    concordant = 0
    tied = 0
    discordant: list[tuple[str, str]] = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            dg = rank_g[a] - rank_g[b]
            dp = rank_p[a] - rank_p[b]
            if dg * dp > 0:
                concordant += 1
            elif dg * dp < 0:
                discordant.append((a, b))
            else:
                tied += 1
    pairs = len(names) * (len(names) - 1) // 2
    tau = (concordant - len(discordant)) / pairs if pairs else 1.0
    return Agreement(games, points, tau, discordant, tied)


def fit_ratings(n: int, games: Sequence[Sequence[tuple[int, int]]],
                weights: Sequence[float] | None = None) -> list[float]:
    """Bradley–Terry ratings (Elo scale, mean 1500) of ``n`` entrants from comparisons.

    ``games`` holds each game's (winner, loser) pairs; ``weights`` (default 1) counts a
    game that many times (the bootstrap's resampling).
    """
    import numpy as np

    fit = _Fitter(n, games)
    return fit(None if weights is None else np.asarray(weights, dtype=float))


class _Fitter:
    """The comparisons of a tournament as arrays, fitted under any weighting of games."""

    def __init__(self, n: int, games: Sequence[Sequence[tuple[int, int]]]) -> None:
        import numpy as np

        self.n = n
        self.games = len(games)
        cells = [a * n + b for pairs in games for a, b in pairs]
        owner = [k for k, pairs in enumerate(games) for _ in pairs]
        self.cells = np.asarray(cells, dtype=np.int64)
        self.owner = np.asarray(owner, dtype=np.int64)

    def __call__(self, weights: Any = None) -> list[float]:
        import choix
        import numpy as np

        n = self.n
        w = None if weights is None else weights[self.owner]
        mat = np.bincount(self.cells, weights=w, minlength=n * n).reshape(n, n).astype(float)
        theta = choix.ilsr_pairwise_dense(mat, alpha=ALPHA)
        theta = theta - theta.mean()
        return [1500.0 + ELO * float(t) for t in theta]


def standings(result: TournamentResult, by: str = "games", bootstrap: int = 200,
              seed: int = 0) -> list[Standing]:
    """Every entrant's standing, best rating first.

    ``bootstrap`` resamplings of the games give the ratings' 95% intervals (0: none,
    the interval is the rating itself); ``seed`` makes them reproducible.
    """
    import numpy as np

    cfg = result.config
    n = len(cfg.entrants)
    indexed = _comparisons(result, by)
    comps = [pairs for _, pairs in indexed]
    played = [0] * n
    wins = [0] * n
    counted = [0] * n
    index = {e: i for i, e in enumerate(cfg.entrants)}
    for g in result.games:
        if g.get("unfinished"):
            continue
        for s, b in enumerate(g["bots"]):
            played[index[b]] += 1
            if s in g["winners"]:
                wins[index[b]] += 1
    for pairs in comps:
        for a, b in pairs:
            counted[a] += 1
            counted[b] += 1
    if not comps or not any(comps):
        ratings = [1500.0] * n
        cis = [(1500.0, 1500.0)] * n
    else:
        fit = _Fitter(n, comps)
        ratings = fit()
        if bootstrap > 0:
            # Resample deals, not games: every table played deal i, so the games of one
            # deal go in or out of a resample together (the pairing of common random
            # numbers is kept).
            deals = sorted({i for i, _ in indexed})
            where = {d: k for k, d in enumerate(deals)}
            of_game = np.array([where[i] for i, _ in indexed])
            rng = np.random.default_rng(seed)
            count = len(deals)
            samples = np.array([
                fit(rng.multinomial(count, [1 / count] * count).astype(float)[of_game])
                for _ in range(bootstrap)
            ])
            lo = np.percentile(samples, 2.5, axis=0)
            hi = np.percentile(samples, 97.5, axis=0)
            cis = [(float(a), float(b)) for a, b in zip(lo, hi, strict=True)]
        else:
            cis = [(r, r) for r in ratings]
    rows = [Standing(e, played[i], wins[i], counted[i], ratings[i], cis[i])
            for i, e in enumerate(cfg.entrants)]
    return sorted(rows, key=lambda s: (-s.rating, s.entrant))


def crosstable(result: TournamentResult, by: str = "games") -> list[list[tuple[int, int]]]:
    """``table[a][b]`` = (comparisons ``a`` won against ``b``, comparisons between them)."""
    n = len(result.config.entrants)
    won = [[0] * n for _ in range(n)]
    for pairs in comparisons(result, by):
        for a, b in pairs:
            won[a][b] += 1
    return [[(won[a][b], won[a][b] + won[b][a]) for b in range(n)] for a in range(n)]


def expected_score(rating_a: float, rating_b: float) -> float:
    """The chance the model gives ``a`` of winning a comparison with ``b``.

    >>> round(expected_score(1900, 1500), 3)
    0.909
    """
    return 1.0 / (1.0 + math.pow(10.0, (rating_b - rating_a) / 400.0))


# ------------------------------------------------------------------ output


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def points_decide(result: TournamentResult) -> bool:
    """Whether points decide the tournament's game (so it can be rated by points too)."""
    try:
        _points_sign(result)
    except TournamentError:
        return False
    return all(isinstance(g.get("hand_points"), list) for g in result.games)


def markdown(result: TournamentResult, rows: Sequence[Standing], by: str = "games",
             points: Sequence[PointsStanding] = (), agree: Agreement | None = None) -> str:
    """The standings and the crosstable as a Markdown document.

    ``points`` adds each entrant's points a hand against the table, ``agree`` the ratings
    from games and from points side by side (:func:`agreement`).
    """
    cfg = result.config
    finished = len(result.games) - result.unfinished
    lines = [
        f"# Tournament: {cfg.variant}, {cfg.players} players",
        "",
        f"Entrants: {', '.join(f'`{e}`' for e in cfg.entrants)}. "
        f"{len(cfg.tables())} tables × {cfg.games} games, seed {cfg.seed}, preset "
        f"`{cfg.preset}`" + (f", options {dict(cfg.options)}" if cfg.options else "") + ". "
        f"{finished} finished games"
        + (f" ({result.unfinished} unfinished, left out)" if result.unfinished else "")
        + f". Ratings from {by}: Bradley–Terry, Elo scale (mean 1500), 95% bootstrap intervals.",
        "",
        "| # | entrant | games | wins | win rate (95% CI) | rating (95% CI) |",
        "|---|---|---|---|---|---|",
    ]
    for i, s in enumerate(rows, start=1):
        lo, hi = s.rate_ci
        lines.append(
            f"| {i} | `{s.entrant}` | {s.games} | {s.wins} | {_pct(s.rate)} "
            f"({_pct(lo)}–{_pct(hi)}) | {s.rating:.0f} ({s.rating_ci[0]:.0f}–"
            f"{s.rating_ci[1]:.0f}) |"
        )
    order = [cfg.entrants.index(s.entrant) for s in rows]
    table = crosstable(result, by)
    lines += ["", f"Crosstable: the row entrant's share of its {by}-comparisons with the "
                  "column entrant.", "",
              "| | " + " | ".join(f"`{cfg.entrants[b]}`" for b in order) + " |",
              "|---|" + "---|" * len(order)]
    for a in order:
        cells = []
        for b in order:
            w, t = table[a][b]
            cells.append("—" if a == b else f"{_pct(w / t)} of {t}" if t else "·")
        lines.append(f"| `{cfg.entrants[a]}` | " + " | ".join(cells) + " |")
    if points:
        lines += ["", "Points a hand against the table: in each hand, the mean points of the "
                  "other seats at the table less the entrant's own (the lowest total wins; "
                  "the other way round where the highest does), over every hand it played; "
                  "above 0 is better than the table. 95% bootstrap intervals over the deals.",
                  "", "| # | entrant | hands | points a hand (95% CI) |", "|---|---|---|---|"]
        for i, p in enumerate(points, start=1):
            lines.append(f"| {i} | `{p.entrant}` | {p.hands} | {p.mean:+.1f} "
                         f"({p.ci[0]:+.1f} to {p.ci[1]:+.1f}) |")
    if agree is not None:
        lines += ["", "Games and points: the ratings from whole games beside those from each "
                  "hand's points (Bradley–Terry, 95% bootstrap intervals); "
                  f"{agree.words()} (1: the same order).",
                  "", "| entrant | rating from games (95% CI) | rating from points (95% CI) |",
                  "|---|---|---|"]
        by_points = {s.entrant: s for s in agree.by_points}
        for g in agree.by_games:
            q = by_points[g.entrant]
            lines.append(f"| `{g.entrant}` | {g.rating:.0f} ({g.rating_ci[0]:.0f}–"
                         f"{g.rating_ci[1]:.0f}) | {q.rating:.0f} ({q.rating_ci[0]:.0f}–"
                         f"{q.rating_ci[1]:.0f}) |")
    return "\n".join(lines) + "\n"


def plot(result: TournamentResult, rows: Sequence[Standing], by: str = "games") -> list[Path]:
    """Write ``ratings.png`` and ``crosstable.png`` into the tournament folder."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cfg = result.config
    out: list[Path] = []
    names = [s.entrant for s in rows][::-1]
    vals = [s.rating for s in rows][::-1]
    lows = [s.rating - s.rating_ci[0] for s in rows][::-1]
    highs = [s.rating_ci[1] - s.rating for s in rows][::-1]
    fig, ax = plt.subplots(figsize=(7.5, 1.0 + 0.55 * len(rows)))
    ax.barh(names, [v - 1500 for v in vals], left=1500, color="#1f77b4",
            xerr=[lows, highs], capsize=4, height=0.6)
    ax.axvline(1500, color="#555555", linewidth=0.8)
    ax.set_xlabel("rating (Elo scale, mean 1500; bars: 95% bootstrap interval)")
    ax.set_title(f"Tournament ratings: {cfg.variant}, {cfg.players} players, by {by}")
    fig.tight_layout()
    path = result.folder / "ratings.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    out.append(path)

    order = [cfg.entrants.index(s.entrant) for s in rows]
    table = crosstable(result, by)
    k = len(order)
    grid = [[math.nan] * k for _ in range(k)]
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            w, t = table[a][b]
            if a != b and t:
                grid[i][j] = 100.0 * w / t
    side = max(5.0, 1.1 * k + 3.0)
    fig, ax = plt.subplots(figsize=(side, side * 0.85), layout="constrained")
    # grey: the diagonal and pairs that never met
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#dddddd")
    im = ax.imshow(grid, cmap=cmap, vmin=0, vmax=100)
    labels = [cfg.entrants[a] for a in order]
    ax.set_xticks(range(k), labels, rotation=30, ha="right")
    ax.set_yticks(range(k), labels)
    for i in range(k):
        for j in range(k):
            if not math.isnan(grid[i][j]):
                ax.text(j, i, f"{grid[i][j]:.0f}%", ha="center", va="center",
                        color="white" if abs(grid[i][j] - 50) > 30 else "black", fontsize=9)
    ax.set_title(f"Row beats column (share of {by}-comparisons)")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="%")
    path = result.folder / "crosstable.png"
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    out.append(path)
    return out


def write_outputs(result: TournamentResult, rows: Sequence[Standing],
                  by: str = "games", bootstrap: int = 200, seed: int = 0) -> list[Path]:
    """Write ``standings.md``, ``standings.json`` and the two plots; return their paths.

    Where points decide the game, both also give each entrant's points a hand against
    the table and the agreement of the ratings from games and from points.
    """
    folder = result.folder
    points: list[PointsStanding] = []
    agree: Agreement | None = None
    if points_decide(result):
        points = points_per_hand(result, bootstrap, seed)
        agree = agreement(result, bootstrap, seed)
    md = folder / "standings.md"
    md.write_text(markdown(result, rows, by, points, agree), encoding="utf-8")
    js = folder / "standings.json"
    js.write_text(json.dumps({
        "params": result.config.params(),
        "by": by,
        "finished_games": len(result.games) - result.unfinished,
        "unfinished_games": result.unfinished,
        "standings": [
            {"entrant": s.entrant, "games": s.games, "wins": s.wins,
             "win_rate": round(s.rate, 4), "win_rate_ci": [round(x, 4) for x in s.rate_ci],
             "comparisons": s.comparisons, "rating": round(s.rating, 1),
             "rating_ci": [round(x, 1) for x in s.rating_ci]}
            for s in rows
        ],
        "points_per_hand": [
            {"entrant": p.entrant, "hands": p.hands, "mean": round(p.mean, 2),
             "ci": [round(x, 2) for x in p.ci]} for p in points
        ],
        "agreement": None if agree is None else {
            "tau": round(agree.tau, 3),
            "discordant": [list(pair) for pair in agree.discordant],
            "ratings": {g.entrant: {"games": round(g.rating, 1), "points": round(q.rating, 1)}
                        for g in agree.by_games
                        for q in agree.by_points if q.entrant == g.entrant},
        },
    }, indent=2) + "\n", encoding="utf-8")
    return [md, js, *plot(result, rows, by)]
