"""One command-line grammar: every subcommand names the same things the same way.

The variant is ``--variant/-V`` and bots are the repeatable ``--bot/-b`` wherever a command
takes them; an option of one name has the same short form and kind of value in every
command; ``-v`` never names the variant; flags show no ``<bool>``; help paragraphs are
wrapped to the terminal, not at the source's line breaks.  The older spellings still work
with a deprecation note.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.core import TyperArgument, TyperGroup, TyperOption
from typer.testing import CliRunner, Result

from hotdeath.cli import app
from hotdeath.simulate import read_results

ENV: dict[str, str | None] = {
    "COLUMNS": "200",
    "NO_COLOR": "1",
    "FORCE_COLOR": None,
    "TTY_COMPATIBLE": None,
    "TTY_INTERACTIVE": None,
}

GAME_COMMANDS = ("new", "play", "simulate", "tournament")
"""The commands that start games: each takes ``--variant``."""

BOT_COMMANDS = ("play", "simulate", "tournament")
"""The commands that seat bots: each takes ``--bot`` (repeatable)."""

SHARED: dict[str, tuple[str, ...]] = {
    "--variant": ("--variant", "-V"),
    "--bot": ("--bot", "-b"),
    "--players": ("--players", "-n"),
    "--option": ("--option", "-o"),
    "--games": ("--games", "-g"),
    "--workers": ("--workers", "-w"),
    "--quiet": ("--quiet", "-q"),
    "--seed": ("--seed",),
    "--preset": ("--preset",),
    "--out": ("--out",),
    "--theme": ("--theme",),
    "--json": ("--json",),
    "--max-moves": ("--max-moves",),
    "--backend": ("--backend",),
    "--address": ("--address",),
}
"""Every option that more than one command has, with the exact names it goes by."""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env=ENV)


def commands() -> dict[str, Any]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return dict(group.commands)


def visible(command: Any) -> list[Any]:
    return [p for p in command.params if not getattr(p, "hidden", False)]


def test_every_game_command_takes_the_variant_as_an_option() -> None:
    cmds = commands()
    for name in GAME_COMMANDS:
        params = {p.name: p for p in visible(cmds[name])}
        variant = params["variant"]
        assert isinstance(variant, TyperOption) and tuple(variant.opts) == SHARED["--variant"]
        assert not any(isinstance(p, TyperArgument) for p in visible(cmds[name])), name


def test_every_bot_command_takes_a_repeatable_bot() -> None:
    cmds = commands()
    for name in BOT_COMMANDS:
        bots = [p for p in visible(cmds[name]) if "--bot" in getattr(p, "opts", [])]
        assert len(bots) == 1, name
        assert isinstance(bots[0], TyperOption) and bots[0].multiple, name
        assert tuple(bots[0].opts) == SHARED["--bot"], name


def test_an_option_means_the_same_in_every_command() -> None:
    seen: dict[str, tuple[tuple[str, ...], str, bool]] = {}
    for cname, command in commands().items():
        for p in visible(command):
            if not isinstance(p, TyperOption):
                continue
            assert "-v" not in p.opts, f"{cname}: -v is kept for a future --verbose"
            long = next(o for o in p.opts if o.startswith("--"))
            kind = (tuple(p.opts), type(p).__name__, bool(getattr(p, "multiple", False)))
            if long in SHARED:
                assert tuple(p.opts) == SHARED[long], (cname, p.opts)
            if long in seen and long != "--help":
                assert seen[long][0] == kind[0], (cname, long, seen[long], kind)
                assert seen[long][2] == kind[2], (cname, long, "repeatable in one, not another")
            seen.setdefault(long, kind)
    # every shared name is in use (the table does not drift from the code)
    assert set(SHARED) <= set(seen)


def test_no_short_name_means_two_things() -> None:
    meaning: dict[str, str] = {}
    for command in commands().values():
        for p in visible(command):
            if isinstance(p, TyperOption):
                long = next(o for o in p.opts if o.startswith("--"))
                for short in (o for o in p.opts if not o.startswith("--")):
                    assert meaning.setdefault(short, long) == long, (short, long)


def test_help_shows_flags_without_bool_and_wraps_paragraphs() -> None:
    top = invoke("--help")
    assert top.exit_code == 0
    text = " ".join(top.stdout.split())
    for word in ("Hot Death Uno", "standard Uno", "Cutthroat Uno", "Uno Throwdown", "browser",
                 "terminal", "bots", "simulate", "hotdeath.rl", "tournament"):
        assert word in text, word
    assert "Referee for Hot Death Uno and standard Uno" not in text
    for name, command in commands().items():
        result = invoke(name, "--help")
        assert result.exit_code == 0, name
        assert "<bool>" not in result.stdout, name
        paragraphs = inspect.cleandoc(command.help or "").split("\n\n")[1:]
        lines = [re.sub(r"\s+", " ", line).strip() for line in result.stdout.splitlines()]
        for para in paragraphs:
            joined = " ".join(para.split())
            if len(joined) < 150:  # fits on one line at 200 columns: must be one line
                assert joined in lines, (name, joined)


@pytest.mark.parametrize(
    ("old", "new", "note"),
    [
        (["new", "cutthroat", "-n", "3"], ["new", "--variant", "cutthroat", "-n", "3"],
         "--variant cutthroat"),
        (["new", "-V", "ct", "ct"], ["new", "--variant", "ct"], "--variant ct"),
    ],
)
def test_the_old_variant_argument_still_works_with_a_note(
    old: list[str], new: list[str], note: str
) -> None:
    was, now = invoke(*old), invoke(*new)
    assert was.exit_code == 0 and now.exit_code == 0, was.output
    assert json.loads(was.stdout) == json.loads(now.stdout)
    assert "deprecated" in was.stderr and note in was.stderr
    assert now.stderr == ""


def test_two_different_variants_are_an_error() -> None:
    result = invoke("new", "standard", "--variant", "hotdeath")
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("[bad_argument]")


def test_old_spellings_of_play_simulate_and_tournament(tmp_path: Path) -> None:
    # play -v VARIANT and --bots SPEC: same game as -V and --bot
    outs: list[Any] = []
    for args in (["-v", "cutthroat", "--bots", "random"], ["-V", "cutthroat", "--bot", "random"]):
        save = tmp_path / f"{len(outs)}.json"
        r = invoke("play", *args, "-n", "2", "--seed", "3", "--watch", "--delay", "0",
                   "--plain", "--save", str(save))
        assert r.exit_code == 0, r.output
        outs.append(json.loads(save.read_text(encoding="utf-8"))["actions"])
        assert ("deprecated" in r.stderr) == (args[0] == "-v")
    assert outs[0] == outs[1]
    # simulate VARIANT: the same games as --variant VARIANT
    files: list[Any] = []
    for first in (["cutthroat"], ["--variant", "cutthroat"]):  # one hand a game: quick
        out = tmp_path / f"sim{len(files)}.jsonl"
        r = invoke("simulate", *first, "-n", "2", "--bot", "random", "--games", "2",
                   "--workers", "1", "--quiet", "--out", str(out))
        assert r.exit_code == 0, r.output
        files.append(read_results(out).games)
    assert len(files[0]) == 2 and files[0] == files[1]
    # tournament ENTRANT...: entrants as --bot
    r = invoke("tournament", "random", "basic", "-V", "cutthroat", "-n", "2", "-g", "2",
               "--bootstrap", "5", "-w", "1", "--quiet", "--out", str(tmp_path / "t"))
    assert r.exit_code == 0, r.output
    assert "deprecated" in r.stderr and "--bot random --bot basic" in r.stderr
    none = invoke("tournament", "-V", "standard", "--out", str(tmp_path / "t2"))
    assert none.exit_code == 2 and "--bot" in none.stderr
