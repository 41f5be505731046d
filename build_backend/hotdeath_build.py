"""hotdeath's build backend: setuptools, plus the compiled core when it is asked for.

The wheel is pure Python unless the build is asked to compile the engine with mypyc, by
either of::

    HOTDEATH_COMPILE=1 pip install .
    pip install . --config-settings compile=true

Then mypy (which ships mypyc) is added to the build's requirements and ``setup.py``
compiles the core's hot modules.  Without a C compiler the build says so and makes the
pure wheel; a compile that fails for another reason fails the build (ask for the pure
wheel by leaving the setting off).  Which core an installation runs:
``hotdeath --version``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import build_meta as _meta
from setuptools.build_meta import *  # noqa: F403 (the backend's hooks, re-exported)

_TRUE = ("1", "true", "yes", "on")


def compile_requested(config_settings: dict[str, Any] | None) -> bool:
    """Whether this build should compile the core (config setting or environment)."""
    value = (config_settings or {}).get("compile")
    if value is None:
        value = os.environ.get("HOTDEATH_COMPILE", "")
    return str(value).strip().lower() in _TRUE


def _pass_on(config_settings: dict[str, Any] | None) -> None:
    """Tell setup.py (run in this process by setuptools) what was asked."""
    if compile_requested(config_settings):
        os.environ["HOTDEATH_COMPILE"] = "1"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """Setuptools' requirements, plus mypy (mypyc) for a compiled build."""
    extra = ["mypy>=1.10"] if compile_requested(config_settings) else []
    os.environ["HOTDEATH_BUILD_PHASE"] = "requires"  # setup.py is run, mypy is not there yet
    try:
        return [*_meta.get_requires_for_build_wheel(config_settings), *extra]
    finally:
        del os.environ["HOTDEATH_BUILD_PHASE"]


def prepare_metadata_for_build_wheel(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """The wheel's metadata (the same for both cores: nothing is compiled for it)."""
    os.environ["HOTDEATH_BUILD_PHASE"] = "requires"
    try:
        return _meta.prepare_metadata_for_build_wheel(metadata_directory, config_settings)
    finally:
        del os.environ["HOTDEATH_BUILD_PHASE"]


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """Build the wheel (compiled when asked, see the module's text)."""
    _pass_on(config_settings)
    return _meta.build_wheel(wheel_directory, config_settings, metadata_directory)


def _pure(hook: Any, *args: Any) -> Any:
    """Run a setuptools hook with nothing compiled (editable installs run the pure core)."""
    os.environ["HOTDEATH_BUILD_PHASE"] = "editable"
    try:
        return hook(*args)
    finally:
        del os.environ["HOTDEATH_BUILD_PHASE"]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    """Setuptools' requirements for an editable install (always the pure core)."""
    return list(_pure(_meta.get_requires_for_build_editable, config_settings))


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """The editable install's metadata."""
    return str(_pure(_meta.prepare_metadata_for_build_editable, metadata_directory,
                     config_settings))


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """An editable install: the pure core (``scripts/build_mypyc.py`` compiles beside it)."""
    if compile_requested(config_settings):
        print("hotdeath: an editable install runs the pure-Python core; for the compiled one "
              "install without -e, or run scripts/build_mypyc.py", file=sys.stderr)
    return str(_pure(_meta.build_editable, wheel_directory, config_settings,
                     metadata_directory))
