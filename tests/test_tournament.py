"""``hotdeath tournament``: round robins of bots on the same deals, with ratings."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from hotdeath.cli import app
from hotdeath.errors import OptionError
from hotdeath.simulate import SimulationError, read_results
from hotdeath.tournament import (
    MANIFEST,
    TournamentConfig,
    TournamentError,
    TournamentResult,
    agreement,
    comparisons,
    crosstable,
    expected_score,
    fit_ratings,
    load_tournament,
    markdown,
    points_decide,
    points_per_hand,
    run_tournament,
    standings,
    table_file,
    write_outputs,
)

ENV: dict[str, str | None] = {"COLUMNS": "120", "NO_COLOR": "1", "FORCE_COLOR": None,
                              "TTY_COMPATIBLE": None, "TTY_INTERACTIVE": None}
ENTRANTS = ["random", "basic", "heuristic:strong"]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env=ENV)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> TournamentResult:
    """Three bots heads-up in standard Uno, 6 games per table (about 1 s)."""
    folder = tmp_path_factory.mktemp("tour")
    cfg = TournamentConfig.make(ENTRANTS, "standard", 2, games=6, seed=11)
    assert run_tournament(cfg, folder, workers=1) == 18
    return load_tournament(folder)


# ------------------------------------------------------------------ configuration


def test_tables_are_every_combination_of_distinct_entrants() -> None:
    cfg = TournamentConfig.make(["random", "basic", "heuristic", "heuristic:weak"],
                                "hotdeath", 3, games=3)
    assert cfg.tables() == [
        ("random", "basic", "heuristic"), ("random", "basic", "heuristic:weak"),
        ("random", "heuristic", "heuristic:weak"), ("basic", "heuristic", "heuristic:weak"),
    ]
    assert cfg.table_config(cfg.tables()[0]).bots == ("random", "basic", "heuristic")


@pytest.mark.parametrize(
    ("entrants", "players", "games", "code"),
    [
        (["random"], 2, 10, "too_few_entrants"),
        (["random", "basic"], 3, 10, "too_few_entrants"),
        (["random", "basic", "random"], 2, 10, "duplicate_entrant"),
        (["random", "basic"], 2, 0, "bad_games"),
    ],
)
def test_bad_tournaments_are_refused_with_a_code(
    entrants: list[str], players: int, games: int, code: str
) -> None:
    with pytest.raises(TournamentError) as e:
        TournamentConfig.make(entrants, "standard", players, games=games)
    assert e.value.code == code


def test_bad_specs_and_options_are_refused_before_playing(tmp_path: Path) -> None:
    with pytest.raises(SimulationError) as e:
        TournamentConfig.make(["random", "nosuchbot"], "standard", 2)
    assert e.value.code == "bad_bot"
    with pytest.raises(OptionError):
        TournamentConfig.make(["random", "basic"], "standard", 2, options={"nope": 1})
    with pytest.raises(TournamentError) as t:
        TournamentConfig.make([f"heuristic:aggression={a}" for a in range(1, 6)]
                              + ["random", "basic", "heuristic:weak", "heuristic:expert",
                                 "ismcts:iterations=5", "ismcts:iterations=6",
                                 "ismcts:iterations=7", "ismcts:iterations=8"],
                              "standard", 7)
    assert t.value.code == "too_many_tables"
    assert not list(tmp_path.iterdir())


# ------------------------------------------------------------------ playing


def test_every_table_plays_the_same_deals_with_rotated_seats(small: TournamentResult) -> None:
    assert [t for t, _ in small.tables] == small.config.tables()
    seeds = [[g["seed"] for g in games] for _, games in small.tables]
    assert all(len(s) == 6 for s in seeds)
    assert seeds[0] == seeds[1] == seeds[2]  # common random numbers across tables
    for table, games in small.tables:
        seats = Counter((s, b) for g in games for s, b in enumerate(g["bots"]))
        assert {b for _, b in seats} == set(table)
        assert set(seats.values()) == {3}  # each entrant in each seat equally often


def test_files_are_simulation_results_and_a_manifest(small: TournamentResult) -> None:
    manifest = json.loads((small.folder / MANIFEST).read_text())
    assert manifest["params"]["entrants"] == ENTRANTS
    assert [t["file"] for t in manifest["tables"]] == [table_file(i) for i in (1, 2, 3)]
    res = read_results(small.folder / table_file(2))
    assert res.params["bots"] == ["random", "heuristic:strong"]
    assert res.params["seed"] == 11


def test_a_rerun_resumes_and_extends_but_refuses_other_parameters(tmp_path: Path) -> None:
    cfg = TournamentConfig.make(["random", "basic"], "standard", 2, games=2, seed=5)
    assert run_tournament(cfg, tmp_path, workers=1) == 2
    assert run_tournament(cfg, tmp_path, workers=1) == 0
    more = TournamentConfig.make(["random", "basic"], "standard", 2, games=4, seed=5)
    assert run_tournament(more, tmp_path, workers=1) == 2
    assert len(load_tournament(tmp_path).games) == 4
    before = (tmp_path / MANIFEST).read_text()
    other = TournamentConfig.make(["random", "basic"], "standard", 2, games=4, seed=6)
    with pytest.raises(TournamentError) as e:
        run_tournament(other, tmp_path, workers=1)
    assert e.value.code == "resume_mismatch" and "seed" in e.value.message
    assert (tmp_path / MANIFEST).read_text() == before


def test_the_same_seed_gives_the_same_tournament_on_any_number_of_workers(
    tmp_path: Path,
) -> None:
    cfg = TournamentConfig.make(["random", "basic", "heuristic:weak"], "standard", 2,
                                games=4, seed=2)
    run_tournament(cfg, tmp_path / "one", workers=1)
    run_tournament(cfg, tmp_path / "two", workers=2)
    one, two = load_tournament(tmp_path / "one"), load_tournament(tmp_path / "two")
    assert one.tables == two.tables


def test_reading_a_folder_without_a_tournament_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(TournamentError) as e:
        load_tournament(tmp_path)
    assert e.value.code == "no_tournament"
    (tmp_path / MANIFEST).write_text("{not json")
    with pytest.raises(TournamentError) as e:
        load_tournament(tmp_path)
    assert e.value.code == "bad_tournament"


# ------------------------------------------------------------------ analysis


def _result(entrants: list[str], records: list[dict[str, Any]]) -> TournamentResult:
    cfg = TournamentConfig.make(entrants, "standard", 2, games=len(records))
    return TournamentResult(cfg, Path("."), [((entrants[0], entrants[1]), records)])


def _game(bots: list[str], winner: int, hands: list[int] | None = None,
          unfinished: bool = False, index: int = 0) -> dict[str, Any]:
    return {"index": index, "bots": bots, "winners": [] if unfinished else [winner],
            "hand_winners": hands if hands is not None else [winner],
            "unfinished": unfinished}


def test_ratings_recover_a_known_odds_ratio() -> None:
    # basic beats random in 75 of 100 games: odds 3:1, 400*log10(3) = 191 Elo apart.
    recs = [_game(["basic", "random"], 0 if i < 75 else 1, index=i) for i in range(100)]
    res = _result(["basic", "random"], recs)
    rows = standings(res, bootstrap=50, seed=1)
    assert [r.entrant for r in rows] == ["basic", "random"]
    gap = rows[0].rating - rows[1].rating
    assert 170 < gap <= 400 * math.log10(3) + 0.5  # the prior pulls slightly towards 0
    assert math.isclose((rows[0].rating + rows[1].rating) / 2, 1500)
    assert math.isclose(expected_score(rows[0].rating, rows[1].rating), 0.75, abs_tol=0.02)
    for r in rows:
        assert r.rating_ci[0] <= r.rating <= r.rating_ci[1]
        assert r.rating_ci[1] - r.rating_ci[0] > 20  # a real interval, not a point
    assert (rows[0].games, rows[0].wins, rows[0].comparisons) == (100, 75, 100)


def test_the_bootstrap_resamples_deals_not_games() -> None:
    # Two tables played the same 40 deals; on each deal one result repeats at both tables.
    # Resampling deals keeps those pairs together; the interval must still be a real one.
    recs = [_game(["basic", "random"], 0 if i % 4 else 1, index=i) for i in range(40)]
    res = _result(["basic", "random"], recs + [dict(g) for g in recs])
    one_deal = _result(["basic", "random"], [dict(g, index=0) for g in recs + recs])
    rows = standings(res, bootstrap=60, seed=2)
    assert rows[0].rating_ci[1] - rows[0].rating_ci[0] > 20
    flat = standings(one_deal, bootstrap=60, seed=2)  # a single deal: nothing to resample
    assert flat[0].rating_ci[0] == pytest.approx(flat[0].rating_ci[1])


def test_an_entrant_that_never_loses_gets_a_finite_rating() -> None:
    recs = [_game(["basic", "random"], 0) for _ in range(30)]
    rows = standings(_result(["basic", "random"], recs), bootstrap=0)
    assert all(math.isfinite(r.rating) for r in rows)
    assert rows[0].entrant == "basic" and rows[0].rating > 1800
    assert rows[0].rating_ci == (rows[0].rating, rows[0].rating)


def test_unfinished_games_count_nowhere() -> None:
    recs = [_game(["basic", "random"], 0), _game(["basic", "random"], 0, unfinished=True)]
    res = _result(["basic", "random"], recs)
    assert res.unfinished == 1
    assert comparisons(res) == [[(0, 1)]]
    assert {r.entrant: r.games for r in standings(res, bootstrap=0)} == {"basic": 1,
                                                                         "random": 1}


def test_hands_give_one_comparison_per_hand_and_other_seat() -> None:
    recs = [_game(["random", "basic"], 1, hands=[1, 0, 1, -1])]
    res = _result(["basic", "random"], recs)
    # seat 1 is basic (entrant 0), seat 0 random (entrant 1); -1: a hand without winner
    assert comparisons(res, "hands") == [[(0, 1), (1, 0), (0, 1)]]
    assert crosstable(res, "hands") == [[(0, 0), (2, 3)], [(1, 3), (0, 0)]]
    with pytest.raises(TournamentError) as e:
        comparisons(res, "turns")
    assert e.value.code == "bad_by"


def _hd_result(entrants: list[str], records: list[dict[str, Any]]) -> TournamentResult:
    cfg = TournamentConfig.make(entrants, "hotdeath", 2, games=len(records))
    return TournamentResult(cfg, Path("."), [((entrants[0], entrants[1]), records)])


def test_points_compare_the_seats_of_each_hand_by_what_wins_the_game() -> None:
    # Hot Death: the lowest total wins, so the seat that took fewer points beats the other
    rec = {**_game(["random", "basic"], 1), "hand_points": [[40, 10], [0, 75], [20, 20]]}
    res = _hd_result(["basic", "random"], [rec])
    assert points_decide(res)
    # hand 1: basic (seat 1) took fewer; hand 2: random did; hand 3: a tie, no comparison
    assert comparisons(res, "points") == [[(0, 1), (1, 0)]]
    table = {p.entrant: p for p in points_per_hand(res, bootstrap=0)}
    # basic: (40 - 10) + (0 - 75) + 0 over 3 hands; random the opposite
    assert table["basic"].mean == pytest.approx(-15.0)
    assert table["random"].mean == pytest.approx(15.0)
    assert table["basic"].hands == 3
    # standard Uno: the highest total wins, so it is the other way round
    std = _result(["basic", "random"], [{**rec}])
    assert comparisons(std, "points") == [[(1, 0), (0, 1)]]
    # a game no points decide cannot be rated by them
    cut = TournamentResult(TournamentConfig.make(["basic", "random"], "cutthroat", 2, games=1),
                           Path("."), [(("basic", "random"), [rec])])
    assert not points_decide(cut)
    with pytest.raises(TournamentError) as e:
        comparisons(cut, "points")
    assert e.value.code == "bad_by"
    old = _hd_result(["basic", "random"], [_game(["random", "basic"], 1)])
    with pytest.raises(TournamentError) as e:
        points_per_hand(old)
    assert e.value.code == "no_points"


def test_points_per_hand_agree_with_games_in_a_played_hot_death_tournament(
        tmp_path: Path) -> None:
    cfg = TournamentConfig.make(["random", "heuristic:expert"], "hotdeath", 2, games=8, seed=4)
    run_tournament(cfg, tmp_path, workers=1)
    res = load_tournament(tmp_path)
    for g in res.games:  # the record's points a hand add up to the game's totals
        if not g.get("unfinished"):
            sums = [sum(row[s] for row in g["hand_points"]) for s in range(2)]
            assert sums == g["scores"]
    points = points_per_hand(res, bootstrap=50, seed=1)
    assert points[0].entrant == "heuristic:expert"
    assert points[0].ci[0] > 0 > points[1].ci[1]  # clearly better than the table
    agree = agreement(res, bootstrap=50, seed=1)
    assert agree.tau == 1.0 and agree.discordant == []
    assert [s.entrant for s in agree.by_games] == [s.entrant for s in agree.by_points]
    rows = standings(res, "points", bootstrap=20)
    text = markdown(res, rows, "points", points, agree)
    assert "Points a hand against the table" in text and "Kendall's τ" in text
    written = write_outputs(res, rows, "points", bootstrap=20)
    data = json.loads(next(p for p in written if p.suffix == ".json").read_text())
    assert data["agreement"]["tau"] == 1.0
    assert {p["entrant"] for p in data["points_per_hand"]} == set(cfg.entrants)


def test_fit_ratings_weights_count_games() -> None:
    games = [[(0, 1)], [(1, 0)]]
    even = fit_ratings(2, games)
    assert math.isclose(even[0], even[1], abs_tol=1e-6)
    tilted = fit_ratings(2, games, [3.0, 1.0])
    assert tilted[0] - tilted[1] > 100
    # a weight of 3 is the same as the game played three times
    assert tilted == pytest.approx(fit_ratings(2, [games[0]] * 3 + [games[1]]))


def test_standings_and_crosstable_of_a_played_tournament(small: TournamentResult) -> None:
    rows = standings(small, bootstrap=30)
    assert sorted(r.entrant for r in rows) == sorted(ENTRANTS)
    assert all(r.games == 12 for r in rows)  # two tables of 6 each
    assert sum(r.wins for r in rows) == 18  # one winner per heads-up game
    assert rows[-1].entrant == "random"  # never better than the rule bots
    table = crosstable(small)
    n = len(ENTRANTS)
    for a in range(n):
        for b in range(n):
            w, t = table[a][b]
            assert t == (0 if a == b else 6)
            assert w + table[b][a][0] == t
    ratings = [r.rating for r in rows]
    assert ratings == sorted(ratings, reverse=True)


def test_outputs_are_written_and_name_every_entrant(small: TournamentResult) -> None:
    rows = standings(small, bootstrap=20)
    paths = write_outputs(small, rows)
    assert [p.name for p in paths] == ["standings.md", "standings.json", "ratings.png",
                                       "crosstable.png"]
    for p in paths[2:]:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 10_000
    md = markdown(small, rows)
    for e in ENTRANTS:
        assert f"`{e}`" in md
    data = json.loads(paths[1].read_text())
    assert [s["entrant"] for s in data["standings"]] == [r.entrant for r in rows]
    assert data["finished_games"] == 18


# ------------------------------------------------------------------ command line


def test_the_command_plays_rates_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["tournament", "-b", "random", "-b", "basic", "-V", "standard", "-n", "2", "-g", "4",
            "--seed", "3", "--out", str(out), "-w", "1", "--bootstrap", "20"]
    r = invoke(*args, "--quiet")
    assert r.exit_code == 0, r.output
    assert "Standings (standard, 2 seats, ratings from games)" in r.stdout
    assert "#1 basic" in r.stdout or "#1 random" in r.stdout
    assert (out / "ratings.png").exists() and (out / "table-01.jsonl").exists()
    again = invoke(*args, "--quiet")
    assert again.exit_code == 0 and again.stdout == r.stdout  # resumed: nothing new


def test_the_command_reports_errors_with_their_code(tmp_path: Path) -> None:
    r = invoke("tournament", "-b", "random", "-b", "random", "--variant", "standard", "--out",
               str(tmp_path / "t"))
    assert r.exit_code == 2
    assert "duplicate_entrant" in r.stderr
    assert not (tmp_path / "t").exists()
