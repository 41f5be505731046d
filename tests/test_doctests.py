"""Every ``>>>`` example in the docstrings of ``src/`` runs, as a doctest, and passes.

The modules are found by their text (every file with a ``>>>`` line), so a new example
runs without being listed; each module's examples must all be found by :mod:`doctest` (an
example outside a docstring it reads, such as an attribute's string, would never run).
The compiled core keeps no docstrings doctest can read: these run on the pure one.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PROMPT = re.compile(r"^\s*>>>", flags=re.M)


def _modules() -> list[tuple[str, int]]:
    """(module name, number of ``>>>`` lines) of every source file with examples."""
    out = []
    for path in sorted((SRC / "hotdeath").rglob("*.py")):
        count = len(PROMPT.findall(path.read_text(encoding="utf-8")))
        if count:
            name = ".".join(path.relative_to(SRC).with_suffix("").parts)
            out.append((name.removesuffix(".__init__"), count))
    return out


MODULES = _modules()


def test_the_sources_have_examples() -> None:
    names = {name for name, _ in MODULES}
    assert {"hotdeath", "hotdeath.options", "hotdeath.words", "hotdeath.notation"} <= names
    assert sum(count for _, count in MODULES) >= 100


@pytest.mark.parametrize(("name", "count"), MODULES, ids=[name for name, _ in MODULES])
def test_docstring_examples_pass(name: str, count: int) -> None:
    module = importlib.import_module(name)
    if not (module.__file__ or "").endswith(".py"):
        pytest.skip(f"{name} is compiled (mypyc): doctest finds no functions in it")
    tests = doctest.DocTestFinder().find(module)
    assert sum(len(t.examples) for t in tests) == count, (
        f"{name}: some of its {count} '>>>' lines are not in docstrings doctest reads")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in tests:
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(report)
