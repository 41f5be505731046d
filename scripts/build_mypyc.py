"""Compile the pure core with mypyc into build/mypyc/ (optional; the package stays pure Python).

    python scripts/build_mypyc.py
    PYTHONPATH=build/mypyc python benchmarks/engine.py

The command-line, terminal-game and bot modules are left interpreted.  Needs mypy (which ships
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
"""The engine's hot modules (plus every variant module); the rest stays interpreted."""


def main() -> int:
    if OUT.exists():
        shutil.rmtree(OUT)
    shutil.copytree(SRC, OUT / "hotdeath")
    targets = sorted(
        str(p.relative_to(OUT))
        for p in (OUT / "hotdeath").rglob("*.py")
        if (p.parent.name == "hotdeath" and p.name in COMPILED)
        or (p.parent.name == "variants" and p.name != "__init__.py")
    )
    cmd = [sys.executable, "-m", "mypyc", *targets]
    print(" ".join(cmd))
    result = subprocess.run(cmd, cwd=OUT, check=False)
    if result.returncode == 0:
        print(f"compiled into {OUT}; use PYTHONPATH={OUT}")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
