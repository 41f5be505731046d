"""Compile the core with mypyc into build/mypyc/, beside the source tree (for development).

    python scripts/build_mypyc.py
    PYTHONPATH=build/mypyc python benchmarks/engine.py
    PYTHONPATH=build/mypyc python -m pytest -m rules      # the rule tests on the compiled core

An installation gets the compiled core with ``HOTDEATH_COMPILE=1 pip install .`` (setup.py
compiles the same modules, :func:`compiled_modules`).  The command-line, terminal-game,
server and RL modules and the other bots are left interpreted.  Needs mypy (which ships
mypyc) and a C compiler.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "hotdeath"
OUT = ROOT / "build" / "mypyc"
COMPILED = {"actions.py", "cards.py", "errors.py", "events.py", "notation.py", "options.py",
            "rng.py", "state.py", "view.py"}
"""The engine's hot modules (plus every module of every variant); the rest stays interpreted."""
COMPILED_BOTS = {"heuristic.py", "ismcts.py"}
"""The search and the policy its rollouts call (``hotdeath.bots``): standard library only,
like the core, and typed for mypyc (no class decorators: they register by a call)."""


INTERPRETED_VARIANTS = {"__init__.py", "variant.py"}
"""The modules directly under ``variants/`` left interpreted: the registry, and the
``Variant`` entry, a generic dataclass that mypyc cannot build (mypyc/mypyc#827)."""


def compiled_modules(package: Path) -> list[Path]:
    """The modules of ``package`` (a copy of src/hotdeath) that the compiled core compiles.

    The core's hot modules, the search's (:data:`COMPILED_BOTS`) and every module under
    ``variants/`` (at any depth, a variant's package included) except the registry's
    ``variants/__init__.py`` and the ``Variant`` entry (``INTERPRETED_VARIANTS``).
    """
    variants = package / "variants"
    return sorted(
        p for p in package.rglob("*.py")
        if (p.parent == package and p.name in COMPILED)
        or (p.parent == package / "bots" and p.name in COMPILED_BOTS)
        or (variants in p.parents
            and not (p.parent == variants and p.name in INTERPRETED_VARIANTS))
    )


def main() -> int:
    if OUT.exists():
        shutil.rmtree(OUT)
    shutil.copytree(SRC, OUT / "hotdeath")
    targets = [str(p.relative_to(OUT)) for p in compiled_modules(OUT / "hotdeath")]
    cmd = [sys.executable, "-m", "mypyc", *targets]
    print(" ".join(cmd))
    result = subprocess.run(cmd, cwd=OUT, check=False)
    if result.returncode == 0:
        print(f"compiled into {OUT}; use PYTHONPATH={OUT}")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
