"""Every command of the README's and the docs' examples runs, as written, and succeeds.

The ```console blocks of README.md and examples/README.md and the example blocks of
docs/simulate.md are run line by line in a temporary folder (where ``examples/`` is the
project's), with this environment's ``hotdeath`` first on the ``PATH``.  A line that is a
synopsis (``[--option]``, ``FILE...``) is not a command.  What cannot run unattended is
run otherwise, said here: ``serve`` and the quick-start and test commands run in
tests/test_readme.py; ``play`` runs with its bots in every seat and no delay (``--watch
--plain --delay 0``), ``--connect`` in tests/test_tui.py; ``python examples/train.py`` (five
minutes) in its smoke form in tests/test_rl.py, the other learning examples
(``python examples/rl_*.py``) in theirs in tests/test_rl_examples.py.  Blocks that play
whole games (``play``, ``simulate``, ``tournament``) are ``slow`` (CI runs them).  The
README's simulations must finish every game.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hotdeath.simulate import read_results

ROOT = Path(__file__).resolve().parent.parent
DOCS = {
    "README.md": "console",
    "examples/README.md": "",
    "docs/simulate.md": "",
}
"""The files whose blocks are examples, and the language tag of their example blocks."""

SYNOPSIS = re.compile(r"\[-|\.\.\.|\b[A-Z]{3,}\b(?!\w*[:=])")
"""A usage line rather than a command: ``[--option]``, ``FILE...``, a placeholder."""

ELSEWHERE = ("hotdeath serve", "python3 -m venv", "python examples/train.py",
             "python examples/rl_",
             "hotdeath play --connect", ". .venv/bin/activate")
"""Commands run by other tests (see the module's docstring)."""


def blocks(name: str) -> list[list[str]]:
    """The example blocks of a file: each a list of commands (continuations joined)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    out = []
    for lang, body in re.findall(r"```(\w*)\n(.*?)```", text, flags=re.S):
        if lang != DOCS[name]:
            continue
        commands = []
        for line in body.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line and not line.startswith("$") and not SYNOPSIS.search(line):
                commands.append(" ".join(line.split()))
        commands = [c.removeprefix(".venv/bin/") for c in commands]
        if any(c.startswith(("hotdeath", "python")) for c in commands):
            out.append(commands)
    return out


CASES = [
    pytest.param(name, i, block, id=f"{name}#{i}",
                 marks=[pytest.mark.slow] if any(
                     c.startswith(("hotdeath simulate", "hotdeath tournament", "hotdeath play"))
                     for c in block) else [])
    for name in DOCS for i, block in enumerate(blocks(name))
]


def test_the_docs_have_examples() -> None:
    runnable = [c for name in DOCS for b in blocks(name) for c in b
                if not c.startswith(ELSEWHERE)]
    assert len(runnable) >= 12
    readme = [c for b in blocks("README.md") for c in b]
    for want in ("hotdeath new", "hotdeath position", "hotdeath replay", "hotdeath simulate",
                 "hotdeath report", "hotdeath tournament", "hotdeath variants",
                 "hotdeath play"):
        assert any(c.startswith(want) for c in readme), want


def _runnable(command: str) -> str | None:
    if command.startswith(ELSEWHERE):
        return None
    if command.startswith("hotdeath play"):
        command = re.sub(r"--delay \S+", "--delay 0", command)
        extra = [f for f in ("--watch", "--plain") if f not in command.split()]
        if "--delay" not in command:
            extra += ["--delay", "0"]
        if "--seed" not in command:
            extra += ["--seed", "1"]
        return " ".join([command, *extra])
    return command


@pytest.mark.parametrize(("name", "index", "block"), CASES)
def test_example_block_runs(name: str, index: int, block: list[str], tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}"
           f"{os.environ.get('PATH', '')}", "XDG_DATA_HOME": str(tmp_path / "data"),
           "COLUMNS": "100", "NO_COLOR": "1", "PYTHONPATH": str(ROOT / "src")}
    for command in block:
        run = _runnable(command)
        if run is None:
            continue
        done = subprocess.run(["/bin/sh", "-c", run], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=1800, check=False)
        assert done.returncode == 0, f"{name}: {run}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, done.stderr
        if name == "README.md" and command.startswith("hotdeath simulate"):
            out = shlex.split(command)[shlex.split(command).index("--out") + 1]
            results = read_results(tmp_path / out)
            unfinished = [g["index"] for g in results.games if g.get("unfinished")]
            assert not unfinished, f"{command}: unfinished games {unfinished}"
