"""Build hook: the pure package, or with ``HOTDEATH_COMPILE=1`` the core compiled by mypyc.

Everything about the package is in pyproject.toml; this file only adds the compiled
extension modules when build_backend/hotdeath_build.py (or the environment) asks for them.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "scripts"))

from build_mypyc import compiled_modules  # noqa: E402


def _have_compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


def _ext_modules() -> list[object]:
    if os.environ.get("HOTDEATH_COMPILE", "").strip().lower() not in ("1", "true", "yes", "on"):
        return []
    if os.environ.get("HOTDEATH_BUILD_PHASE") in ("requires", "editable"):
        return []  # requirements or metadata only (mypy is not there yet), or an editable
        # install, which always runs the pure core
    if not _have_compiler():
        print("hotdeath: no C compiler found: installing the pure-Python core "
              "(install gcc, then reinstall with HOTDEATH_COMPILE=1 for the compiled one)",
              file=sys.stderr)
        return []
    from mypyc.build import mypycify

    paths = [str(p.relative_to(ROOT)) for p in compiled_modules(ROOT / "src" / "hotdeath")]
    print(f"hotdeath: compiling the core with mypyc ({len(paths)} modules)", file=sys.stderr)
    return list(mypycify(paths, opt_level="3"))


setup(ext_modules=_ext_modules())
