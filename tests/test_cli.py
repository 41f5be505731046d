"""Tests of the ``hotdeath`` command line (src/hotdeath/cli/) through Typer's CliRunner."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import hotdeath
from hotdeath import describe
from hotdeath.actions import Action
from hotdeath.cli import app
from hotdeath.notation import from_position, record, replay, to_position
from hotdeath.rulebook import get_rule
from hotdeath.state import GameState
from hotdeath.variants import all_variants
from tests.support import ceiling

# No colours, a fixed width: the output is plain text whatever the terminal says.
ENV: dict[str, str | None] = {
    "COLUMNS": "100",
    "NO_COLOR": "1",
    "FORCE_COLOR": None,
    "TTY_COMPATIBLE": None,
    "TTY_INTERACTIVE": None,
}

CHAIN: dict[str, Any] = {
    "variant": "hotdeath",
    "hands": [["R3", "HOLY", "B7"], ["RET", "G5", "Y2"], ["R9", "G8"], ["VIR", "Y8", "B4"]],
    "discard": ["R5", "HOT"],
    "color": "red",
    "attack": {"count": 8, "victim": 1, "sender": 0, "last_card": "HOT"},
    "draw": ["Y1", "B5", "G7", "R6", "B9", "Y4", "G2", "R8", "B3", "Y7"],
}
"""A Hot Death draw attack of 8 on P1 (the chain example of docs/notation.md)."""

UNO_WINDOW: dict[str, Any] = {
    "variant": "hotdeath",
    "hands": [["GLAS", "B7"], ["R4", "G5", "Y2"], ["R9", "G8", "B1"]],
    "discard": ["R5"],
}
"""P0 can play Glasnost down to one card without calling Uno."""


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin, env=ENV)


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def assert_error(result: Result, code: str) -> str:
    """An error: exit 2, one line on stderr ending with the code, nothing on stdout."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert lines[0].endswith(f"[{code}]"), lines[0]
    assert "Traceback" not in result.output
    return lines[0]


def play_short_game(variant: str, players: int, seed: int, **options: object) -> GameState:
    """A game to its end with a simple bot: the first play, else draw / pass / accept."""
    game = hotdeath.new_game(variant, players=players, seed=seed, options=options)
    for _ in range(5000):
        if game.is_terminal():
            break
        legal = game.legal_actions()
        plays = [a for a in legal if str(a).startswith(("play", "deal"))]
        game.apply_action(plays[0] if plays else legal[0])
    assert game.is_terminal()
    return game


# ------------------------------------------------------------------ basics


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    line = f"hotdeath {hotdeath.__version__}, {hotdeath.core_description()}"
    assert result.stdout.strip() == line
    assert ("compiled core (mypyc)" if hotdeath.core() == "compiled" else "pure-Python core") in (
        result.stdout
    )


def test_no_arguments_shows_help() -> None:
    result = invoke()
    for command in ("variants", "position", "replay", "new"):
        assert command in result.output


def test_module_entry_point_runs_main() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hotdeath.cli", "--version"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"hotdeath {hotdeath.__version__}, {hotdeath.core_description()}"


def test_core_does_not_import_the_cli() -> None:
    code = (
        "import sys, hotdeath, hotdeath.notation, hotdeath.view, hotdeath.rulebook;"
        "print(sorted(m for m in ('hotdeath.cli', 'typer', 'rich') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


# ------------------------------------------------------------------ variants


def test_variants_json_is_every_variant_to_json() -> None:
    result = invoke("variants", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == [v.to_json() for v in all_variants()]
    names = [v["name"] for v in data]
    assert "standard" in names
    assert "hotdeath" in names
    for v in data:
        for opt in v["options"]:
            assert {"name", "type", "default", "values", "description", "rule"} <= set(opt)


def wide(*args: str) -> str:
    """A command's output on a wide terminal (table cells unwrapped), spaces folded."""
    result = CliRunner().invoke(app, list(args), env={**ENV, "COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_variants_human_lists_presets_and_every_option_in_words() -> None:
    out = wide("variants")
    for variant in all_variants():
        assert f"{variant.name} — {variant.title}" in out
        for alias in variant.aliases:
            assert alias in out
        for preset in variant.presets:
            assert variant.preset_title(preset) in out
        assert f"{variant.preset_title(variant.default_preset)} (default)" in out
        for spec in variant.option_specs():
            assert f"rule {spec.rule}" in out
    # people read titles and words: no identifier, none of the original names' language
    for word in ("shitter", "fuck", "quitter_fuck_you", "draw_two_defensible", "seed_004"):
        assert word not in out.lower(), word


def test_variants_ids_show_the_notation() -> None:
    out = wide("variants", "--ids")
    for variant in all_variants():
        for preset in variant.presets:
            assert preset in out
        for spec in variant.option_specs():
            assert f"notation: {spec.name}=" in out, spec.name
    assert "stacking=flat" in out  # the house preset's options


def test_variants_human_shows_defaults_in_words() -> None:
    out = wide("variants")
    assert "default: yes, rule HD-2.3.6" in out  # draw_two_defensible
    assert "default: 1000, rule HD-3.8" in out  # game_end_score
    original = wide("variants", "--theme", "original")
    assert "Shitter" in original and "Big Brother" not in original


# ------------------------------------------------------------------ position


def test_position_apply_prints_events_with_rule_titles(tmp_path: Path) -> None:
    path = write(tmp_path, "chain.json", CHAIN)
    result = invoke("position", path, "--apply", "play RET", "--apply", "play HOLY",
                    "--apply", "play VIR")
    assert result.exit_code == 0, result.output
    out = result.stdout
    state = from_position(CHAIN)
    events = []
    for text in ("play RET", "play HOLY", "play VIR"):
        events += state.apply_action(text)
    for event in events:
        line = describe(event, "family", viewer=event.seat if event.seat >= 0 else None)
        assert f"{line} — {get_rule(event.rule).title}" in out
    assert "1. P1: play RET" in out
    assert "2. P0: play HOLY" in out
    assert "3. P3: play VIR" in out
    assert "P0 draws 4 cards (Yellow 1, Blue 5, Green 7, Red 6)  [HD-4.3.4]" in out
    assert "phase      turn: P2 to act" in out
    assert "direction  counter-clockwise" in out
    assert "top card   Virus, colour green" in out
    assert "P2 > 2 cards: Red 9, Green 8 · score 0" in out


def test_position_summary_shows_the_attack(tmp_path: Path) -> None:
    result = invoke("position", write(tmp_path, "chain.json", CHAIN))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "variant    hotdeath (Hot Death Uno), 4 players, options: defaults" in out
    assert "phase      response: P1 to act" in out
    # in the words every front end uses (hotdeath.words.pending_words)
    assert "attack     P1 must answer: draw 8 cards (Hot Death from P0, a draw-wild attack)" \
        in out
    assert "top card   Hot Death, colour red" in out
    assert "P1 > 3 cards: Retaliation, Green 5, Yellow 2 · score 0" in out
    assert "legal actions" not in out


def test_position_legal_lists_current_player_and_windows(tmp_path: Path) -> None:
    path = write(tmp_path, "uno.json", UNO_WINDOW)
    result = invoke("position", path, "--apply", "play GLAS @2", "--legal")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "has not called Uno" in out
    assert "  P2 (to act): accept, catch 0" in out
    assert "  P0 (out of turn): uno" in out
    assert "  P1 (out of turn): catch 0" in out


def test_position_seat_applies_out_of_turn_actions(tmp_path: Path) -> None:
    path = write(tmp_path, "uno.json", UNO_WINDOW)
    # --seat for the actions without a P<n>: prefix
    result = invoke("position", path, "--apply", "P0: play GLAS @2", "--apply", "catch 0",
                    "--seat", "1", "--legal")
    assert result.exit_code == 0, result.output
    assert "2. P1: catch 0" in result.stdout
    assert "P1 catches P0 without an Uno call  [HD-3.11]" in result.stdout
    assert "  P1 (out of turn): none" in result.stdout
    # --seat for every action
    result = invoke("position", path, "--seat", "0", "--apply", "play GLAS @2",
                    "--apply", "uno")
    assert result.exit_code == 0, result.output
    assert "2. P0: uno" in result.stdout
    assert "P0 calls Uno  [HD-3.11]" in result.stdout


def test_position_json_is_the_resulting_position(tmp_path: Path) -> None:
    path = write(tmp_path, "chain.json", CHAIN)
    result = invoke("position", path, "--apply", "play RET", "--apply", "accept", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    state = from_position(CHAIN)
    state.apply_action("play RET")
    state.apply_action("accept")
    assert data == to_position(state)
    assert to_position(from_position(data)) == data


def test_position_reads_standard_input() -> None:
    result = invoke("position", "-", "--apply", "play RET", "--json",
                    stdin=json.dumps(CHAIN))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["turn"] == 0


def test_position_theme_original(tmp_path: Path) -> None:
    path = write(tmp_path, "chain.json", CHAIN)
    result = invoke("position", path, "--apply", "play RET", "--theme", "original")
    assert result.exit_code == 0, result.output
    assert "P1 plays Fuck You  [HD-2.3.23]" in result.stdout
    result = invoke("position", path, "--apply", "play RET")
    assert "P1 plays Retaliation  [HD-2.3.23]" in result.stdout
    assert invoke("position", path, "--theme", "nope").exit_code == 2


def test_position_game_over_summary(tmp_path: Path) -> None:
    pos = {
        "variant": "standard", "options": {"target_score": 10},
        "hands": [["R7"], ["G5", "Y2", "WD4"]], "discard": ["R3"],
    }
    result = invoke("position", write(tmp_path, "end.json", pos), "--apply", "play R7",
                    "--legal")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "the hand ends: P0 wins it  [STD-9.1]" in out
    assert "P0 scores 57" in out
    assert "phase      game_over: the game has ended" in out
    assert "winners    P0" in out
    assert "legal actions: none (the game is over)" in out


# ------------------------------------------------------------------ position errors


def test_error_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    line = assert_error(invoke("position", str(path)), "bad_json")
    assert "bad.json" in line


def test_error_missing_file(tmp_path: Path) -> None:
    assert_error(invoke("position", str(tmp_path / "nope.json")), "file_error")
    assert_error(invoke("position", str(tmp_path)), "file_error")


def test_error_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert_error(invoke("position", str(path)), "bad_json")


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"variant": "nope", "top": "R5"}, "unknown_variant"),
        ({"variant": "hotdeath", "top": "R5", "options": {"stack_draw_twos": 3}},
         "bad_option_value"),
        ({"variant": "hotdeath", "top": "R5", "options": {"nope": 1}}, "unknown_option"),
        ({"variant": "hotdeath", "hands": [["R0"], []], "top": "R5"}, "too_many_cards"),
        ({"variant": "hotdeath", "hands": [[], []]}, "bad_position"),
        ({"variant": "hotdeath", "hands": [[], []], "top": "R5", "bogus": 1}, "bad_position"),
        ({"variant": "hotdeath", "hands": [[], []], "top": "XX"}, "bad_position"),
        ({"variant": "hotdeath", "hands": [[], []], "top": "R5", "attack": 5}, "bad_position"),
        ({"variant": "standard", "hands": [[], []], "top": "R5", "direction": [1]},
         "bad_position"),
        ([1, 2, 3], "bad_position"),
        ({"format": "hotdeath-record/1", "variant": "standard", "actions": []},
         "bad_position"),
    ],
)
def test_error_bad_positions(tmp_path: Path, data: object, code: str) -> None:
    assert_error(invoke("position", write(tmp_path, "p.json", data)), code)


def test_error_illegal_action_names_the_action_and_prints_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, "chain.json", CHAIN)
    result = invoke("position", path, "--apply", "play RET", "--apply", "play R3", "--legal")
    line = assert_error(result, "illegal_action")
    assert "--apply #2 'play R3'" in line
    assert "legal: play HOLY, accept" in line


def test_error_bad_action_syntax(tmp_path: Path) -> None:
    path = write(tmp_path, "chain.json", CHAIN)
    line = assert_error(invoke("position", path, "--apply", "plya RET"), "bad_syntax")
    assert "--apply #1" in line
    assert_error(invoke("position", path, "--apply", "play XYZ"), "bad_syntax")


def test_error_wrong_seat(tmp_path: Path) -> None:
    path = write(tmp_path, "chain.json", CHAIN)
    assert_error(invoke("position", path, "--seat", "2", "--apply", "accept"), "wrong_seat")
    assert_error(invoke("position", path, "--seat", "9", "--legal"), "wrong_seat")
    assert_error(invoke("position", path, "--apply", "P7: accept"), "wrong_seat")


def test_error_game_over(tmp_path: Path) -> None:
    pos = {"variant": "standard", "options": {"target_score": 10},
           "hands": [["R7"], ["G5", "Y2", "WD4"]], "discard": ["R3"]}
    result = invoke("position", write(tmp_path, "end.json", pos), "--apply", "play R7",
                    "--apply", "draw")
    assert_error(result, "game_over")


# ------------------------------------------------------------------ replay


def test_replay_standard_game(tmp_path: Path) -> None:
    game = play_short_game("standard", 2, 3, target_score=100)
    rec = record(game)
    path = write(tmp_path, "game.json", rec)
    result = invoke("replay", path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("standard (Uno (official rules)), 2 players, seed 3, options: "
                          "target_score=100")
    assert "── hand 1 ──" in out
    assert f"── hand {game.hand_no} ──" in out
    for i, (seat, action) in enumerate(game.history, start=1):
        assert f"{i:>4}. P{seat}: {action}\n" in out
    assert "scores" in out
    assert "totals: " in out
    assert "the game ends" in out
    winners = ", ".join(f"P{w}" for w in game.winners)
    scores = " · ".join(f"P{s} {t}" for s, t in enumerate(game.scores))
    assert out.rstrip().endswith(
        f"result: the game is over after {len(game.history)} actions; winner: {winners}; "
        f"scores: {scores}"
    )


def test_replay_hotdeath_upto_and_json(tmp_path: Path) -> None:
    game = hotdeath.new_game("hotdeath", players=3, seed=11)
    for _ in range(30):
        legal = game.legal_actions()
        plays = [a for a in legal if str(a).startswith(("play", "deal"))]
        game.apply_action(plays[0] if plays else legal[0])
    rec = record(game)
    path = write(tmp_path, "hd.json", rec)
    result = invoke("replay", path, "--upto", "10")
    assert result.exit_code == 0, result.output
    out = result.stdout
    lines = out.splitlines()
    dealer = rec["actions"][0][0]  # the first action is the dealer's deal
    assert lines[1] == f"   P{dealer} deals first and chooses the hand size"
    assert lines[2] == "── hand 1 ──"
    assert lines[3].startswith("   1. P")
    assert "deal" in lines[3]
    assert "result: 10 of 30 actions replayed; hand 1" in out
    assert "  11. " not in out
    result = invoke("replay", path, "--upto", "10", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == to_position(replay(rec, upto=10))
    result = invoke("replay", path, "--json")
    assert json.loads(result.stdout) == to_position(game)


def test_replay_errors(tmp_path: Path) -> None:
    rec = record(hotdeath.new_game("standard", players=2, seed=1))
    rec["actions"] = [[0, "play R99"]]
    line = assert_error(invoke("replay", write(tmp_path, "r.json", rec)), "bad_record")
    assert "action 1" in line
    rec["actions"] = [[0, "accept"]]
    assert_error(invoke("replay", write(tmp_path, "r.json", rec)), "bad_record")
    rec["actions"] = ["draw"]
    assert_error(invoke("replay", write(tmp_path, "r.json", rec)), "bad_record")
    rec["actions"] = []
    rec["variant"] = "nope"
    assert_error(invoke("replay", write(tmp_path, "r.json", rec)), "unknown_variant")
    rec["variant"] = "standard"
    rec["seed"] = "seven"
    assert_error(invoke("replay", write(tmp_path, "r.json", rec)), "bad_record")
    rec["seed"] = 1
    rec["options"] = 5
    assert_error(invoke("replay", write(tmp_path, "r.json", rec)), "bad_record")
    assert_error(invoke("replay", write(tmp_path, "r.json", {"format": "x"})), "bad_record")
    assert_error(invoke("replay", write(tmp_path, "r.json", [])), "bad_record")
    assert_error(invoke("replay", str(tmp_path / "missing.json")), "file_error")


# ------------------------------------------------------------------ new


def test_new_writes_the_starting_position(tmp_path: Path) -> None:
    result = invoke("new", "--variant", "standard", "--players", "3", "--seed", "5",
                    "--dealer", "1")
    assert result.exit_code == 0, result.output
    expected = to_position(hotdeath.new_game("standard", players=3, seed=5, dealer=1))
    assert json.loads(result.stdout) == expected
    out = tmp_path / "start.json"
    result = invoke("new", "-V", "hd", "-n", "3", "--seed", "2", "--preset", "app_compat",
                    "--option", "game_end_score=500", "-o", "stack_draw_twos=true",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["variant"] == "hotdeath"
    assert data["phase"] == "deal"
    assert data["options"]["game_end_score"] == 500
    assert data["options"]["stack_draw_twos"] is True
    assert data["options"]["uno_rule"] == "off"  # from the app_compat preset
    # the written file is a position the other commands read
    result = invoke("position", str(out), "--apply", "deal 5", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hand"] == 1


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--variant", "nope"], "unknown_variant"),
        (["-V", "hotdeath", "--preset", "nope"], "unknown_preset"),
        (["-V", "hotdeath", "--option", "nope=1"], "unknown_option"),
        (["-V", "hotdeath", "--option", "min_deal=99"], "bad_option_value"),
        (["-V", "hotdeath", "--option", "stack_draw_twos"], "bad_option_syntax"),
        (["-V", "hotdeath", "--option", "min_deal=12", "--option", "max_deal=6"],
         "bad_option_combination"),
        (["-V", "hotdeath", "--players", "1"], "bad_players"),
        (["--variant", "standard", "--players", "2", "--dealer", "5"], "bad_dealer"),
    ],
)
def test_new_errors(args: list[str], code: str) -> None:
    line = assert_error(invoke("new", *args), code)
    if code == "bad_option_value":
        assert "min_deal" in line
        assert "allowed" in line


def test_new_then_play_through_positions(tmp_path: Path) -> None:
    """Chaining: new → position --apply … --json → position, as the docs describe."""
    start = tmp_path / "p0.json"
    assert invoke("new", "--variant", "standard", "--players", "2", "--seed", "7",
                  "--out", str(start)).exit_code == 0
    state = from_position(json.loads(start.read_text(encoding="utf-8")))
    current = start
    for i in range(6):
        action = state.legal_actions()[0]
        result = invoke("position", str(current), "--apply", str(action), "--json")
        assert result.exit_code == 0, result.output
        state.apply_action(action)
        assert json.loads(result.stdout) == to_position(state)
        current = tmp_path / f"p{i + 1}.json"
        current.write_text(result.stdout, encoding="utf-8")
    assert Action.parse(str(action)) == action


def test_play_takes_its_seat_range_from_the_variant(tmp_path: Path) -> None:
    line = assert_error(invoke("play", "-V", "hotdeath", "-n", "11", "--plain"), "bad_players")
    assert "Hot Death Uno (hotdeath) takes 2 to 10 players, not 11" in line
    line = assert_error(invoke("play", "-V", "cutthroat", "-n", "16", "--plain"), "bad_players")
    assert "takes 2 to 15 players, not 16" in line
    assert_error(invoke("play", "-V", "ct", "-n", "1", "--plain"), "bad_players")
    line = assert_error(invoke("play", "-V", "ct", "-n", "12", "-o", "max_players=10",
                               "--plain"), "bad_players")
    assert "max_players=10" in line and "up to 15" in line
    # twelve seats of Cutthroat: the table limit (max_players, 10) is raised to match
    save = tmp_path / "twelve.json"
    done = invoke("play", "-V", "ct", "-n", "12", "--seed", "2", "--watch", "--delay", "0",
                  "--bot", "random", "--plain", "--save", str(save))
    assert done.exit_code == 0, done.output
    state = replay(json.loads(save.read_text(encoding="utf-8")))
    assert state.n == 12 and state.opts.max_players == 12 and state.is_terminal()


def test_error_action_with_a_superscript_digit_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"variant": "standard", "hands": [["R3", "R4"], ["G5"]],
                                "top": "R9"}), encoding="utf-8")
    line = assert_error(invoke("position", str(path), "--apply", "catch ²"), "bad_syntax")
    assert "catch ²" in line


def test_error_deeply_nested_json_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"variant": "standard", "hands": ' + "[" * 4000 + "]" * 4000 + "}",
                    encoding="utf-8")
    assert_error(invoke("position", str(path)), "json_too_deep")
    assert_error(invoke("replay", str(path)), "json_too_deep")


def test_report_and_tournament_without_the_report_extra_name_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec

    def without_matplotlib(name: str, *args: Any) -> Any:
        return None if name == "matplotlib" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_matplotlib)
    line = assert_error(invoke("tournament", "-b", "random", "-b", "basic", "--out",
                               str(tmp_path / "t")), "missing_extra")
    assert "matplotlib missing" in line and "-m pip install" in line and "[report]" in line
    assert sys.executable in line and not (tmp_path / "t").exists()
    line = assert_error(invoke("report", str(tmp_path / "none.jsonl"), "--out",
                               str(tmp_path / "r")), "missing_extra")
    assert "[report]" in line


def test_replay_reads_the_replay_pages_download(tmp_path: Path) -> None:
    """The browser's "Record (JSON)" download: the record under "record", beside the steps."""
    game = hotdeath.new_game("standard", players=2, seed=3)
    for _ in range(5):
        game.apply_action(game.legal_actions()[0])
    bare = invoke("replay", write(tmp_path, "bare.json", record(game)))
    download = {"game_id": "g1", "status": "finished", "steps": [{"index": 0}],
                "record": record(game)}
    wrapped = invoke("replay", write(tmp_path, "download.json", download))
    assert wrapped.exit_code == 0 and wrapped.stdout == bare.stdout
    assert "5 of 5 actions replayed" in wrapped.stdout
    running = {"game_id": "g2", "status": "playing", "steps": [{"index": 0}]}
    line = assert_error(invoke("replay", write(tmp_path, "running.json", running)),
                        "bad_record")
    assert "not over" in line and "no record" in line
    assert_error(invoke("replay", write(tmp_path, "empty.json", {})), "bad_record")


def test_serve_takes_the_next_free_port_when_its_port_is_taken() -> None:
    import socket

    from hotdeath.cli import free_port

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        got = free_port("127.0.0.1", port)
        assert got != port and port < got < port + 20
        with socket.create_server(("127.0.0.1", got)):  # and it is free
            pass


# ------------------------------------------------------------------ serve


def test_serve_help_reads_at_80_columns() -> None:
    import os
    import re

    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", "NO_COLOR": "1"}
    out = subprocess.run([sys.executable, "-m", "hotdeath.cli", "serve", "--help"], env=env,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out  # nothing cut off
    source = (Path(hotdeath.__file__).parent / "cli" / "serve.py").read_text()
    flags = re.findall(r'typer\.Option\(\s*"(--[a-z-]+)', source)
    assert len(flags) >= 15
    for flag in flags:
        assert flag.split("/")[0] in out, flag
    for panel in ("Where it listens", "Database", "Tables and bots", "Limits for each client",
                  "Several processes (PostgreSQL)"):
        assert panel in out


def test_serve_lan_prints_the_address_and_its_qr_code(tmp_path: Path) -> None:
    import re

    import segno

    from hotdeath.server.lan import lan_address
    from tests.pgcluster import free_port

    address = lan_address()
    if address is None:
        pytest.skip("this machine has no address in a local network")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hotdeath.cli", "serve", "--lan", "--port", str(port),
         "--database-url", f"sqlite:///{tmp_path / 'lan.sqlite3'}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # until the banner is out
            lines.append(line.rstrip("\n"))
            if line.startswith("hotdeath: database:"):
                break
        # and it listens there: a phone in the room gets the lobby
        deadline = time.monotonic() + ceiling(60)
        while True:
            try:
                with urllib.request.urlopen(f"http://{address}:{port}/", timeout=5) as r:
                    assert r.status == 200 and b"<title>Hot Death" in r.read()
                    break
            except OSError:
                assert time.monotonic() < deadline, "nothing listens at the address printed"
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(30)
        if proc.stdout is not None:
            proc.stdout.close()
    url = f"http://{address}:{port}/"
    assert lines[0].startswith(f"hotdeath: open {url} on any phone"), lines[:2]
    assert any("firewall" in line and f"{port}/tcp" in line for line in lines)
    block = [line for line in lines if line and re.fullmatch(r"[ █▀▄]+", line)]
    assert block
    # the printed code, read back: each character two modules (top, bottom), a space dark
    top_bottom = {" ": (1, 1), "▀": (0, 1), "▄": (1, 0), "█": (0, 0)}
    modules: list[list[int]] = []
    for line in block:
        modules.append([top_bottom[c][0] for c in line])
        modules.append([top_bottom[c][1] for c in line])
    qr = segno.make_qr(url, error="m")  # the library's own encoding of the address
    size = len(qr.matrix)
    border = (len(block[0]) - size) // 2
    assert border >= 2
    inner = [row[border:border + size] for row in modules[border:border + size]]
    assert inner == [[int(bool(m)) for m in row] for row in qr.matrix]
    quiet = modules[:border] + [row[:border] + row[border + size:]
                                for row in modules[border:border + size]]
    assert not any(any(row) for row in quiet)  # a light quiet zone around it


def test_the_terminal_qr_code_in_colour_holds_the_same_modules() -> None:
    import segno

    from hotdeath.server.qr import OFF, ON, terminal_matrix, terminal_qr

    url = "http://192.168.1.20:8000/"
    plain, coloured = terminal_qr(url), terminal_qr(url, colour=True)
    assert ON not in plain
    assert all(line.startswith(ON) and line.endswith(OFF) for line in coloured.splitlines())
    assert terminal_matrix(coloured) == terminal_matrix(plain)
    matrix = terminal_matrix(plain)
    size = len(segno.make_qr(url, error="m").matrix)
    inner = [row[4:4 + size] for row in matrix[4:4 + size]]
    assert inner == [[bool(m) for m in row] for row in segno.make_qr(url, error="m").matrix]
