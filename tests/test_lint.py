"""The tree stays clean under ruff and mypy --strict (the configuration is in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_is_clean() -> None:
    r = _run("ruff", "check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_is_clean() -> None:
    r = _run("mypy")
    assert r.returncode == 0, r.stdout + r.stderr


MAX_CLASS_LINES = 400
MAX_FUNCTION_LINES = 100
"""The longest class and function in the server and the command line (issue 23)."""


def _too_long(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Every class over :data:`MAX_CLASS_LINES` and function over :data:`MAX_FUNCTION_LINES`
    lines (from its ``def``/``class`` line to its last line) in ``paths`` (under ``root``)."""
    import ast

    found: list[tuple[str, int, str]] = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                limit, what = MAX_CLASS_LINES, "class"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                limit, what = MAX_FUNCTION_LINES, "function"
            else:
                continue
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit:
                where = str(path.relative_to(root))
                found.append((where, node.lineno, f"{where}:{node.lineno}: {what} {node.name} "
                              f"has {lines} lines (at most {limit})"))
    return [text for *_, text in sorted(found)]


def test_server_and_cli_have_no_overlong_class_or_function() -> None:
    """Rooms with one purpose each: no class over 400 lines, no function over 100."""
    src = ROOT / "src" / "hotdeath"
    paths = sorted((src / "server").rglob("*.py"))
    paths += sorted(p for p in src.glob("cli*") if p.suffix == ".py")
    paths += sorted(p for d in src.glob("cli*") if d.is_dir() for p in d.rglob("*.py"))
    assert len(paths) > 20 and any(p.parent.name == "cli" for p in paths)
    assert _too_long(paths) == []


def test_the_length_check_names_an_overlong_function_and_class(tmp_path: Path) -> None:
    body = "".join(f"        x = {i}\n" for i in range(MAX_FUNCTION_LINES - 1))
    short = "class Short:\n    def fits(self) -> None:\n" + body
    (tmp_path / "short.py").write_text(short)
    assert _too_long([tmp_path / "short.py"], tmp_path) == []  # 100 lines: allowed
    long_one = "class Short:\n    def long(self) -> None:\n" + body + "        x = 0\n"
    methods = "".join(f"    def m{i}(self) -> None:\n        pass\n" for i in range(200))
    (tmp_path / "long.py").write_text(long_one + "\n\nclass Big:\n" + methods)
    assert _too_long([tmp_path / "long.py"], tmp_path) == [
        f"long.py:2: function long has {MAX_FUNCTION_LINES + 1} lines "
        f"(at most {MAX_FUNCTION_LINES})",
        f"long.py:{MAX_FUNCTION_LINES + 5}: class Big has 401 lines (at most 400)",
    ]


MISSPELT = '''\
from hotdeath.actions import Action
from hotdeath.variants import get_variant
from hotdeath.variants.cutthroat import CutthroatState
from hotdeath.variants.hotdeath import HotDeathState
from hotdeath.variants.standard import StandardOptions, StandardState
from hotdeath.variants.throwdown import ThrowdownState


class Mine(StandardState[StandardOptions]):
    def _apply(self, seat: int, action: Action) -> None:
        if self.opts.target_scor > 0:  # line 11
            super()._apply(seat, action)


def reads(h: HotDeathState, t: ThrowdownState, c: CutthroatState) -> int:
    total: int = h.opts.mad_pionts  # line 16
    total += t.opts.false_uno_call_penalty + c.opts.target_score
    total += c.opts.wd4_chalenge  # line 18
    return total + t.opts.uno_force_drew  # line 19
'''
"""A variant's rules that misspell options: ``mypy`` must reject each misspelling (and
nothing else), because ``self.opts`` has the variant's options type."""


def test_mypy_rejects_a_misspelt_option_in_a_variant(tmp_path: Path) -> None:
    snippet = tmp_path / "misspelt.py"
    snippet.write_text(MISSPELT, encoding="utf-8")
    r = _run("mypy", "--strict", "--no-incremental", "--follow-imports=silent",
             str(snippet))
    lines = [line for line in r.stdout.splitlines() if ": error: " in line]
    misspelt = sorted(line.split(": error: ")[0].rsplit(":", 1)[1]
                      for line in lines if "[attr-defined]" in line)
    assert misspelt == ["11", "16", "18", "19"], r.stdout + r.stderr
    # (the one other error: the misspelt attribute is Any, returned as an int)
    assert len(lines) == 5 and "[no-any-return]" in r.stdout, r.stdout
    for attr in ("target_scor", "mad_pionts", "wd4_chalenge", "uno_force_drew"):
        assert f'has no attribute "{attr}"' in r.stdout, r.stdout
