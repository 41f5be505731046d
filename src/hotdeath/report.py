"""Reports on simulation results: a terminal summary, plots, Markdown and HTML.

:func:`load_sets` reads one or more results files written by :mod:`hotdeath.simulate`
(one *set* each, labelled by the parameters that tell the sets apart, so two files that
differ in one rule option are labelled by that option).  :func:`summary_tables` gives
Rich tables for the terminal; :func:`write_report` writes PNG plots (matplotlib, Agg
backend), ``report.md`` and ``report.html`` into a folder.

Win rates come with 95% Wilson score intervals (:func:`wilson`).  Games stopped at the
move cap (``unfinished``) are counted and shown but left out of every statistic.
"""

from __future__ import annotations

import html
import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.table import Table

from hotdeath.cards import card_name, parse_card
from hotdeath.errors import HotDeathError
from hotdeath.simulate import BLUNDERS, blunder_rates, read_results
from hotdeath.variants import get_variant

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

HEADLINE_EVENTS: tuple[tuple[str, str], ...] = (
    ("mad_plays", "M.A.D. plays"),
    ("combo_1000", "1000-point combinations scored"),
    ("all_bastards", "hands ended by all four bastard cards"),
    ("draw_69", "Mystery Draws of 69 (Draw-69)"),
    ("ejections", "ejections"),
    ("uno_calls", "Uno calls"),
    ("uno_catches", "Uno catches"),
    ("reshuffles", "reshuffles of the discard pile"),
    ("blocked", "blocked hands"),
)
"""Per-game counts a report shows, with their labels (other counts come from ``events``)."""

_FROM_EVENTS = {"uno_calls": "uno", "uno_catches": "catch", "reshuffles": "reshuffle",
                "blocked": "blocked"}


class ReportError(HotDeathError):
    """Results that cannot be reported on (no games, unreadable files)."""


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (``(0, 1)`` when n is 0).

    >>> lo, hi = wilson(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class ResultSet:
    """One results file: its label, parameters and finished games (sorted by index)."""

    label: str
    path: Path
    params: dict[str, Any]
    games: list[dict[str, Any]]
    unfinished: int = 0
    unfinished_games: list[dict[str, Any]] = field(default_factory=list)
    """The records of the games stopped at the move cap (left out of :attr:`games`)."""

    @property
    def players(self) -> int:
        """Seats at each table."""
        return int(self.params.get("players", 0))


@dataclass
class BotStat:
    """How one bot spec did in a set: seat-games played and won, with the 95% interval."""

    bot: str
    played: int
    wins: float
    scores: list[int] = field(default_factory=list)
    hands_won: int = 0
    hands_seen: int = 0

    @property
    def rate(self) -> float:
        """Share of its seat-games won (a shared win counts as a fraction)."""
        return self.wins / self.played if self.played else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`rate`."""
        return wilson(self.wins, self.played)


def _fmt_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _lowest_wins_titles(sets: Sequence[ResultSet]) -> list[str]:
    """The titles of the sets' games in which the lowest total wins (their goal says)."""
    titles: list[str] = []
    for s in sets:
        try:
            variant = get_variant(str(s.params.get("variant")))
            opts = variant.resolve_options(s.params.get("preset"), s.params.get("options"))
        except HotDeathError:
            continue
        if variant.goal(opts).lowest_wins and variant.title not in titles:
            titles.append(variant.title)
    return titles


def describe_params(params: dict[str, Any]) -> str:
    """The parameters of a set in one line (variant, preset, options, players, bots)."""
    opts = params.get("options") or {}
    text = f"{params.get('variant')} ({params.get('preset')})"
    if opts:
        text += ", " + ", ".join(f"{k}={_fmt_value(v)}" for k, v in opts.items())
    text += f", {params.get('players')} players, bots " + " / ".join(params.get("bots", []))
    return text


def _default(params: dict[str, Any], name: str) -> object:
    """The default value of option ``name`` in the variant of ``params``."""
    try:
        specs = get_variant(str(params.get("variant"))).option_specs()
    except HotDeathError:
        return "default"
    return next((sp.default for sp in specs if sp.name == name), "default")


def _labels(params: Sequence[dict[str, Any]], paths: Sequence[Path]) -> list[str]:
    """Label each set by what tells it apart from the others."""
    if len(params) == 1:
        return [describe_params(params[0])]
    labels: list[list[str]] = [[] for _ in params]
    keys = ["variant", "preset", "players", "bots", "rotate", "max_moves", "seed"]
    for key in keys:
        values = [p.get(key) for p in params]
        if any(v != values[0] for v in values):
            for i, v in enumerate(values):
                shown = " / ".join(v) if isinstance(v, list) else _fmt_value(v)
                labels[i].append(f"{key} {shown}")
    opt_keys: list[str] = []
    for p in params:
        for k in p.get("effective_options", {}):
            if k not in opt_keys:
                opt_keys.append(k)
    for k in opt_keys:
        values = [p.get("effective_options", {}).get(k, _default(p, k)) for p in params]
        if any(v != values[0] for v in values):
            for i, v in enumerate(values):
                labels[i].append(f"{k}={_fmt_value(v)}")
    out = [", ".join(parts) for parts in labels]
    if len(set(out)) < len(out):
        out = [f"{o} ({path.name})" if o else path.name for o, path in zip(out, paths, strict=True)]
    return out


def load_sets(paths: Iterable[str | Path]) -> list[ResultSet]:
    """Read results files into labelled sets (``SimulationError`` for a bad file)."""
    read = [read_results(p) for p in paths]
    if not read:
        raise ReportError("no_results", "give at least one results file")
    labels = _labels([r.params for r in read], [r.path for r in read])
    sets: list[ResultSet] = []
    for label, r in zip(labels, read, strict=True):
        finished = [g for g in r.games if not g.get("unfinished")]
        stopped = [g for g in r.games if g.get("unfinished")]
        sets.append(ResultSet(label, r.path, r.params, finished, len(stopped), stopped))
    return sets


# ------------------------------------------------------------------ statistics


def bot_stats(rs: ResultSet) -> list[BotStat]:
    """Per bot spec (in line-up order): seat-games, wins, final scores, hands won."""
    order = list(dict.fromkeys(rs.params.get("bots", [])))
    stats: dict[str, BotStat] = {b: BotStat(b, 0, 0.0) for b in order}
    for g in rs.games:
        winners = g["winners"]
        share = 1.0 / len(winners) if winners else 0.0
        hands = int(g["hands"])
        for seat, bot in enumerate(g["bots"]):
            st = stats.setdefault(bot, BotStat(bot, 0, 0.0))
            st.played += 1
            if seat in winners:
                st.wins += share
            st.scores.append(int(g["scores"][seat]))
            st.hands_won += int(g["hands_won"][seat])
            st.hands_seen += hands
    return list(stats.values())


def seat_stats(rs: ResultSet) -> list[tuple[int, float, float]]:
    """Per seat: games, wins (shared wins as fractions), share of the hands won."""
    n = rs.players
    wins = [0.0] * n
    hands_won = [0] * n
    hands = 0
    for g in rs.games:
        winners = g["winners"]
        for w in winners:
            wins[w] += 1.0 / len(winners)
        for s in range(n):
            hands_won[s] += int(g["hands_won"][s])
        hands += int(g["hands"])
    return [(len(rs.games), round(wins[s], 6), hands_won[s] / hands if hands else 0.0)
            for s in range(n)]


def position_stats(rs: ResultSet) -> list[tuple[int, int]]:
    """Hands won by seat position after the dealer (1: the dealer's next seat … n: dealer).

    Returns ``(hands won, hands)`` per position.
    """
    n = rs.players
    won = [0] * n
    total = 0
    for g in rs.games:
        for dealer, winner in zip(g["dealers"], g["hand_winners"], strict=False):
            total += 1
            if winner >= 0 and dealer >= 0:
                pos = (winner - dealer - 1) % n
                won[pos] += 1
    return [(won[p], total) for p in range(n)]


def event_count(g: dict[str, Any], key: str) -> int:
    """A per-game count by report key (a record field or an event kind)."""
    if key in _FROM_EVENTS:
        return int(g.get("events", {}).get(_FROM_EVENTS[key], 0))
    return int(g.get(key, 0))


def event_rates(rs: ResultSet) -> list[tuple[str, float, float, float]]:
    """Per headline event: label, mean per game, per 100 hands, share of games with one."""
    games = rs.games
    hands = sum(int(g["hands"]) for g in games)
    out: list[tuple[str, float, float, float]] = []
    for key, label in HEADLINE_EVENTS:
        counts = [event_count(g, key) for g in games]
        total = sum(counts)
        out.append((
            label,
            total / len(games) if games else 0.0,
            100 * total / hands if hands else 0.0,
            sum(1 for c in counts if c) / len(games) if games else 0.0,
        ))
    return out


def stack_stats(rs: ResultSet) -> tuple[float, int]:
    """Mean and largest of each game's largest stacked draw."""
    values = [int(g.get("largest_stack", 0)) for g in rs.games]
    return (statistics.fmean(values) if values else 0.0, max(values, default=0))


def play_rates(rs: ResultSet, theme: str) -> list[tuple[str, float]]:
    """Plays per game of each wild and Hot Death special, by card name, most played first."""
    total: Counter[str] = Counter()
    for g in rs.games:
        total.update(g.get("plays", {}))
    n = len(rs.games) or 1
    rows = [(card_name(parse_card(code), theme), count / n) for code, count in total.items()]
    return sorted(rows, key=lambda r: (-r[1], r[0]))


def spread(values: Sequence[float]) -> tuple[float, float, float, float]:
    """Mean, median, 90th percentile and maximum (zeros when empty)."""
    if not values:
        return 0.0, 0.0, 0.0, 0.0
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]
    return statistics.fmean(ordered), statistics.median(ordered), p90, ordered[-1]


def hands_per_game(rs: ResultSet) -> list[int]:
    """Hands played in each game."""
    return [int(g["hands"]) for g in rs.games]


def turns_per_hand(rs: ResultSet) -> list[int]:
    """Turns taken in each finished hand."""
    return [int(t) for g in rs.games for t in g["turns"]]


# ------------------------------------------------------------------ tables


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(lo_hi: tuple[float, float]) -> str:
    return f"{100 * lo_hi[0]:.1f}–{100 * lo_hi[1]:.1f}%"


@dataclass
class Section:
    """One part of a report: a heading, a note, a table and optionally a plot."""

    title: str
    note: str
    header: list[str]
    rows: list[list[str]]
    image: str | None = None


def sections(sets: Sequence[ResultSet], theme: str = "family") -> list[Section]:
    """The report's content, shared by the terminal, Markdown and HTML renderings."""
    out: list[Section] = []
    out.append(Section(
        "Result sets", "Each set is one results file; games stopped at the move cap are "
        "counted as unfinished and left out of every statistic.",
        ["set", "file", "parameters", "finished games", "unfinished"],
        [[s.label, s.path.name, describe_params(s.params), str(len(s.games)),
          str(s.unfinished)] for s in sets],
    ))
    rows: list[list[str]] = []
    for s in sets:
        fair = 1 / s.players if s.players else 0.0
        for b in bot_stats(s):
            rows.append([s.label, b.bot, str(b.played), f"{b.wins:g}", _pct(b.rate),
                         _ci(b.interval), _pct(fair),
                         _pct(b.hands_won / b.hands_seen if b.hands_seen else 0.0)])
    out.append(Section(
        "Wins per bot", "A bot's seat-games are the games it played times the seats it "
        "held; a shared win counts as a fraction. 95% Wilson intervals; the fair share is "
        "1 ÷ the number of seats; the last column is the share of the hands it won.",
        ["set", "bot", "seat-games", "wins", "win rate", "95% CI", "fair share",
         "hands won"], rows, "wins.png"))
    rows = []
    for s in sets:
        for b in bot_stats(s):
            mean, median, p90, top = spread(b.scores)
            rows.append([s.label, b.bot, f"{mean:.0f}", f"{median:.0f}", f"{p90:.0f}",
                         f"{top:.0f}", f"{min(b.scores, default=0)}"])
    low = _lowest_wins_titles(sets)
    lowest = f" (in {' and '.join(low)} the lowest total wins)" if low else ""
    out.append(Section(
        "Final scores", f"Each seat's total at the end of the game, per bot{lowest}.",
        ["set", "bot", "mean", "median", "90th pct", "max", "min"],
        rows, "scores.png"))
    rows = []
    for s in sets:
        h = spread(hands_per_game(s))
        t = spread(turns_per_hand(s))
        rows.append([s.label, f"{h[0]:.2f}", f"{h[1]:.0f}", f"{h[2]:.0f}", f"{h[3]:.0f}",
                     f"{t[0]:.1f}", f"{t[1]:.0f}", f"{t[2]:.0f}", f"{t[3]:.0f}"])
    out.append(Section(
        "Game and hand length", "Hands per game, and turns per hand (a turn: one seat's go, "
        "drawing and then playing included).",
        ["set", "hands: mean", "median", "90th pct", "max", "turns: mean", "median",
         "90th pct", "max"], rows, "length.png"))
    rows = []
    for s in sets:
        fair = 1 / s.players if s.players else 0.0
        positions = position_stats(s)
        for seat, (games, wins, hand_share) in enumerate(seat_stats(s)):
            won, total = positions[seat]
            rows.append([s.label, f"P{seat}", _pct(wins / games if games else 0.0),
                         _ci(wilson(wins, games)), _pct(hand_share), f"{seat + 1}",
                         _pct(won / total if total else 0.0), _ci(wilson(won, total)),
                         _pct(fair)])
    out.append(Section(
        "Seat advantage", "Games won by seat (bots rotate round the table unless the run "
        "used fixed seats), and hands won by position after the dealer (1: the seat after "
        "the dealer; the last position is the dealer).",
        ["set", "seat", "games won", "95% CI", "hands won", "position after dealer",
         "hands won", "95% CI", "fair share"], rows, "seats.png"))
    rows = []
    for s in sets:
        for label, per_game, per_100, share in event_rates(s):
            rows.append([s.label, label, f"{per_game:.3f}", f"{per_100:.2f}", _pct(share)])
        mean, top = stack_stats(s)
        rows.append([s.label, "largest stacked draw, cards (mean of each game's largest)",
                     f"{mean:.1f}", "", ""])
        rows.append([s.label, "largest stacked draw, cards (largest of all games)",
                     f"{top}", "", ""])
    out.append(Section(
        "Event frequencies", "How often things happen: per game, per 100 hands, and the "
        "share of games in which it happened at least once.",
        ["set", "event", "per game", "per 100 hands", "games with one"], rows, "events.png"))
    rows = []
    for s in sets:
        rates = blunder_rates(s.games + s.unfinished_games)
        for blunder in BLUNDERS:
            count, total = rates[blunder.key]
            rows.append([s.label, blunder.label, str(count), f"{total} {blunder.out_of}",
                         _pct(count / total) if total else "—",
                         _ci(wilson(count, total)) if total else "—"])
    out.append(Section(
        "Mistakes", "Mistakes and signs of a hand that will not end, each out of what it "
        "could have happened in (unfinished games included), with 95% Wilson intervals.",
        ["set", "what", "count", "out of", "rate", "95% CI"], rows))
    rows = [[s.label, name, f"{rate:.2f}"] for s in sets for name, rate in play_rates(s, theme)]
    out.append(Section(
        "Special cards played", "Plays per game of each wild and Hot Death special card.",
        ["set", "card", "plays per game"], rows))
    left_out = unfinished_note(sets)
    if left_out:
        for sec in out[1:]:
            if sec.title not in _WITH_UNFINISHED:
                sec.note = f"{sec.note} {left_out}"
    return out


_WITH_UNFINISHED = ("Result sets", "Mistakes")
"""Sections that count the unfinished games too (no "left out" note under them)."""


def unfinished_note(sets: Sequence[ResultSet]) -> str:
    """``"Left out: 15 unfinished games (move cap)."`` naming each set; ``""`` if none."""
    counts = [(s.label, s.unfinished) for s in sets if s.unfinished]
    if not counts:
        return ""
    if len(sets) == 1:
        n = counts[0][1]
        return f"Left out: {n} unfinished game{'' if n == 1 else 's'} (stopped at the move cap)."
    each = ", ".join(f"{n} of {label}" for label, n in counts)
    return f"Left out: unfinished games (stopped at the move cap), {each}."


def summary_tables(sets: Sequence[ResultSet], theme: str = "family") -> list[Table]:
    """Rich tables for the terminal: sets, wins per bot, length, headline events.

    A table whose statistics leave unfinished games out says so in its caption.  Beside
    each other, the sets' labels are never cut short (the other columns wrap instead).
    """
    wanted = {"Result sets", "Wins per bot", "Game and hand length", "Event frequencies",
              "Mistakes"}
    tables: list[Table] = []
    left_out = unfinished_note(sets)
    for sec in sections(sets, theme):
        if sec.title not in wanted:
            continue
        header, rows = sec.header, sec.rows
        if len(sets) == 1 and header[0] == "set":
            header, rows = header[1:], [r[1:] for r in rows]
        caption = left_out if left_out and sec.title not in _WITH_UNFINISHED else None
        table = Table(title=sec.title, title_justify="left", caption=caption,
                      caption_justify="left")
        for i, h in enumerate(header):
            whole = i == 0 and len(sets) > 1 and h == "set"
            table.add_column(h, justify="left" if i < 2 else "right",
                             min_width=max((len(r[0]) for r in rows), default=0) if whole
                             else None, overflow="fold")
        for r in rows:
            table.add_row(*r)
        tables.append(table)
    return tables


# ------------------------------------------------------------------ plots


def _colors(n: int) -> list[str]:
    base = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
    return [base[i % len(base)] for i in range(n)]


def _errors(ys: Sequence[float], cis: Sequence[tuple[float, float]]) -> list[list[float]]:
    """Error bar lengths (below, above) of percentages ``ys`` with intervals ``cis``."""
    return [[max(0.0, y - 100 * lo) for y, (lo, _) in zip(ys, cis, strict=True)],
            [max(0.0, 100 * hi - y) for y, (_, hi) in zip(ys, cis, strict=True)]]


def plot_all(sets: Sequence[ResultSet], out_dir: Path, theme: str = "family") -> list[Path]:
    """Write the PNG plots into ``out_dir`` and return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = _colors(len(sets))
    paths: list[Path] = []
    width = 0.8 / len(sets)

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        path = out_dir / name
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)

    # Wins per bot, with 95% intervals and the fair share.
    bots = list(dict.fromkeys(b.bot for s in sets for b in bot_stats(s)))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(bots) + 2), 4.5))
    top_wins = 0.0
    for i, s in enumerate(sets):
        by = {b.bot: b for b in bot_stats(s)}
        xs: list[float] = []
        ys: list[float] = []
        errs: list[list[float]] = [[], []]
        for j, name in enumerate(bots):
            if name not in by:
                continue
            b = by[name]
            lo, hi = b.interval
            xs.append(j + (i - (len(sets) - 1) / 2) * width)
            ys.append(100 * b.rate)
            errs[0].append(max(0.0, 100 * (b.rate - lo)))
            errs[1].append(max(0.0, 100 * (hi - b.rate)))
        ax.bar(xs, ys, width, yerr=errs, capsize=4, color=colors[i], label=s.label)
        for x, y, e in zip(xs, ys, errs[1], strict=True):
            ax.text(x, y + e + 1, f"{y:.1f}%", ha="center", va="bottom", fontsize="small")
        top_wins = max([top_wins, *(y + e for y, e in zip(ys, errs[1], strict=True))])
    fairs = {s.players for s in sets}
    if len(fairs) == 1 and sets[0].players:
        ax.axhline(100 / sets[0].players, color="grey", linestyle="--", linewidth=1,
                   label=f"fair share (1 in {sets[0].players})")
    ax.set_xticks(range(len(bots)), bots)
    ax.set_ylabel("games won (% of seat-games)")
    ax.set_title("Wins per bot, with 95% Wilson intervals")
    ax.set_ylim(0, min(100.0, max(top_wins, 100 / max(1, sets[0].players)) * 1.4 + 2))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", loc="upper right")
    save(fig, "wins.png")

    # Final score distributions per bot.
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(bots) + 2), 4.5))
    for i, s in enumerate(sets):
        by = {b.bot: b for b in bot_stats(s)}
        data = [by[name].scores if name in by else [] for name in bots]
        pos = [j + (i - (len(sets) - 1) / 2) * width for j in range(len(bots))]
        keep = [(p, d) for p, d in zip(pos, data, strict=True) if d]
        if keep:
            bp = ax.boxplot([d for _, d in keep], positions=[p for p, _ in keep],
                            widths=width * 0.9, patch_artist=True, showfliers=True)
            for patch in bp["boxes"]:
                patch.set_facecolor(colors[i])
                patch.set_alpha(0.6)
            ax.plot([], [], color=colors[i], linewidth=8, alpha=0.6, label=s.label)
    ax.set_xticks(range(len(bots)), bots)
    ax.set_ylabel("final score (points)")
    ax.set_title("Final scores per bot (box: middle half; whiskers: 1.5 × IQR)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    save(fig, "scores.png")

    # Hands per game and turns per hand (a log scale: a few hands last thousands of turns).
    from matplotlib.ticker import MaxNLocator

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    top_turns = max((max(turns_per_hand(s), default=1) for s in sets), default=1)
    edges = [1.0]
    while edges[-1] <= top_turns:
        edges.append(edges[-1] * 1.25)
    for i, s in enumerate(sets):
        hands = hands_per_game(s)
        if hands:
            left.hist(hands, bins=[x - 0.5 for x in range(1, max(hands) + 2)],
                      histtype="step", linewidth=2, color=colors[i], label=s.label,
                      weights=[100 / len(hands)] * len(hands))
        turns = [max(1, t) for t in turns_per_hand(s)]
        if turns:
            right.hist(turns, bins=edges, histtype="step", linewidth=2, color=colors[i],
                       label=s.label, weights=[100 / len(turns)] * len(turns))
    left.xaxis.set_major_locator(MaxNLocator(integer=True))
    left.set_xlabel("hands in the game")
    left.set_ylabel("games (%)")
    left.set_title("Hands per game")
    right.set_xscale("log")
    right.set_xlabel("turns in the hand (log scale)")
    right.set_ylabel("hands (%)")
    right.set_title("Turns per hand")
    left.legend(fontsize="small")
    right.legend(fontsize="small")
    save(fig, "length.png")

    # Seat advantage: games won by seat, hands won by position after the dealer.
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    for i, s in enumerate(sets):
        n = s.players
        offs = (i - (len(sets) - 1) / 2) * width
        seats = seat_stats(s)
        ys = [100 * w / g if g else 0.0 for g, w, _ in seats]
        cis = [wilson(w, g) for g, w, _ in seats]
        left.bar([x + offs for x in range(n)], ys, width, color=colors[i], label=s.label,
                 yerr=_errors(ys, cis), capsize=3)
        by_pos = position_stats(s)
        ys2 = [100 * w / t if t else 0.0 for w, t in by_pos]
        cis2 = [wilson(w, t) for w, t in by_pos]
        right.bar([x + offs for x in range(n)], ys2, width, color=colors[i], label=s.label,
                  yerr=_errors(ys2, cis2), capsize=3)
    if len(fairs) == 1 and sets[0].players:
        n = sets[0].players
        for ax in (left, right):
            ax.axhline(100 / n, color="grey", linestyle="--", linewidth=1,
                       label=f"fair share (1 in {n})")
        left.set_xticks(range(n), [f"P{s}" for s in range(n)])
        right.set_xticks(range(n), [str(p + 1) if p + 1 < n else f"{n} (dealer)"
                                    for p in range(n)])
    for ax in (left, right):
        ax.set_ylim(0, ax.get_ylim()[1] * 1.3)
        ax.grid(axis="y", alpha=0.3)
    left.set_xlabel("seat")
    left.set_ylabel("games won (%)")
    left.set_title("Games won by seat (95% CI)")
    right.set_xlabel("position after the dealer")
    right.set_ylabel("hands won (%)")
    right.set_title("Hands won by position after the dealer (95% CI)")
    left.legend(fontsize="small")
    right.legend(fontsize="small")
    save(fig, "seats.png")

    # Event frequencies per game, and the largest stacked draw of each game.
    labels = [label for _, label in HEADLINE_EVENTS]
    fig, (ax, right) = plt.subplots(
        1, 2, figsize=(13, 0.32 * len(labels) * len(sets) + 2.5),
        gridspec_kw={"width_ratios": [3, 2]},
    )
    h = 0.8 / len(sets)
    for i, s in enumerate(sets):
        vals = [per_game for _, per_game, _, _ in event_rates(s)]
        ys = [j + (i - (len(sets) - 1) / 2) * h for j in range(len(labels))]
        bars = ax.barh(ys, vals, h, color=colors[i], label=s.label)
        ax.bar_label(bars, fmt="%.2f", fontsize="x-small", padding=2)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xscale("symlog", linthresh=0.1)
    ax.set_xlabel("times per game (mean; linear below 0.1, logarithmic above)")
    ax.set_title("Event frequencies per game")
    ax.margins(x=0.15)
    ax.legend(fontsize="small", loc="lower right")
    stacks = [[int(g.get("largest_stack", 0)) for g in s.games] for s in sets]
    top_stack = max((max(st, default=0) for st in stacks), default=0)
    shown = [i for i, st in enumerate(stacks) if st]
    if shown:
        right.hist([stacks[i] for i in shown], bins=range(0, top_stack + 3, 2),
                   color=[colors[i] for i in shown], label=[sets[i].label for i in shown],
                   weights=[[100 / len(stacks[i])] * len(stacks[i]) for i in shown])
    right.set_xlabel("cards (the game's largest pending draw)")
    right.set_ylabel("games (%, in 2-card bins)")
    right.set_title("Largest stacked draw in each game")
    right.legend(fontsize="small")
    save(fig, "events.png")
    return paths


# ------------------------------------------------------------------ documents


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(secs: Sequence[Section], title: str) -> str:
    """The report as Markdown (tables, with each plot under its section)."""
    lines = [f"# {title}", ""]
    for sec in secs:
        lines += [f"## {sec.title}", "", sec.note, ""]
        lines.append("| " + " | ".join(_md_cell(h) for h in sec.header) + " |")
        lines.append("|" + "|".join("---" for _ in sec.header) + "|")
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in sec.rows]
        lines.append("")
        if sec.image:
            lines += [f"![{sec.title}]({sec.image})", ""]
    return "\n".join(lines)


_CSS = """body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;
color:#222}table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #ccc;
padding:.25rem .5rem;text-align:right}th{background:#f3f3f3}td:first-child,td:nth-child(2),
th:first-child,th:nth-child(2){text-align:left}img{max-width:100%;border:1px solid #eee}
p.note{color:#555}"""


def render_html(secs: Sequence[Section], title: str) -> str:
    """The report as one standalone HTML page (plots linked from the same folder)."""
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{e(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{e(title)}</h1>"]
    for sec in secs:
        parts.append(f"<h2>{e(sec.title)}</h2><p class=\"note\">{e(sec.note)}</p>")
        parts.append("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in sec.header)
                     + "</tr></thead><tbody>")
        for row in sec.rows:
            parts.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>")
        parts.append("</tbody></table>")
        if sec.image:
            parts.append(f'<img src="{e(sec.image)}" alt="{e(sec.title)}">')
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(
    sets: Sequence[ResultSet], out_dir: str | Path, theme: str = "family"
) -> list[Path]:
    """Write the plots, ``report.md`` and ``report.html`` into ``out_dir``; return the paths.

    ``ReportError`` (``no_games``) when no set has a finished game.
    """
    if not any(s.games for s in sets):
        raise ReportError("no_games", "the results hold no finished game to report on")
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError("file_error", f"cannot create {str(folder)!r}: "
                          f"{e.strerror or e}") from None
    paths = plot_all(sets, folder, theme)
    secs = sections(sets, theme)
    title = ("Simulation report: " + " vs ".join(s.label for s in sets) if len(sets) > 1
             else f"Simulation report: {sets[0].label}")
    md = folder / "report.md"
    md.write_text(render_markdown(secs, title) + "\n", encoding="utf-8")
    page = folder / "report.html"
    page.write_text(render_html(secs, title) + "\n", encoding="utf-8")
    return [*paths, md, page]
