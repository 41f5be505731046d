"""What the commands share: the one grammar's options, errors, inputs and output.

The option types here (``--variant/-V``, ``--bot/-b``, ``--option/-o`` …) are the one
grammar every command uses (``tests/test_cli_grammar.py`` checks it); :func:`fail` prints
an error with its stable code on standard error and exits with :data:`EXIT_ERROR`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from hotdeath import PROGRAM
from hotdeath.errors import HotDeathError, NotationError
from hotdeath.jsontext import loads_bounded
from hotdeath.variants import DEFAULT_VARIANT

EXIT_ERROR = 2
"""Exit status of every error (bad input, bad position, illegal action)."""


class Theme(StrEnum):
    """The card-name themes (``hotdeath.cards.THEMES``)."""

    family = "family"
    original = "original"


class CliError(HotDeathError):
    """An input error of the command line itself (a file, a flag), with a stable code."""




def _flag_metavar(self: Any, ctx: Any) -> str | None:
    """No ``<bool>`` after an on/off flag in the help (its name says it all)."""
    if getattr(self, "is_flag", False):
        return None
    return _typer_display_type(self, ctx)


def _usage_pieces(self: Any, ctx: Any) -> list[str]:
    """A hidden (deprecated) argument stays out of the usage line too."""
    if getattr(self, "hidden", False):
        return []
    return _typer_usage_pieces(self, ctx)


_typer_display_type = typer.core.TyperOption.display_type_rich
typer.core.TyperOption.display_type_rich = _flag_metavar  # type: ignore[method-assign]
_typer_usage_pieces = typer.core.TyperArgument.get_usage_pieces
typer.core.TyperArgument.get_usage_pieces = _usage_pieces  # type: ignore[method-assign]

# ------------------------------------------------------------------ output helpers


OptionArgs = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="NAME=VALUE", help="Set an option (repeatable)."),
]
"""``--option NAME=VALUE`` (repeatable), shared by the commands that start games."""

VariantOpt = Annotated[
    str | None,
    typer.Option("--variant", "-V", metavar="NAME",
                 help="Variant name or alias (default hotdeath; see 'hotdeath variants')."),
]
"""``--variant/-V NAME``: the one way every command names its variant."""

OldVariantArg = Annotated[str | None, typer.Argument(hidden=True, metavar="[VARIANT]")]
"""The deprecated positional variant of ``new`` and ``simulate``."""

OldVariantOpt = Annotated[str | None, typer.Option("-v", hidden=True)]
"""The deprecated ``-v VARIANT`` of ``play`` and ``tournament``."""

BotOpt = Annotated[
    list[str] | None,
    typer.Option("--bot", "-b", metavar="SPEC",
                 help="A bot spec, e.g. basic, random, heuristic:expert, "
                      "'external:./mybot' (repeatable)."),
]
"""``--bot/-b SPEC`` (repeatable): the one way every command names its bots."""

OldBotsOpt = Annotated[list[str] | None, typer.Option("--bots", hidden=True)]
"""The deprecated ``--bots SPEC`` of ``play``."""


REPORT_MODULES = ("numpy", "matplotlib", "choix")
"""What plots and ratings import: the ``report`` extra."""


def install_command(extra: str) -> str:
    """The one command that adds ``extra`` to this installation of hotdeath.

    From a source folder (``pip install .`` or ``-e .``) it names that folder; otherwise
    the package by name.  It always uses this interpreter, so it installs into the same
    environment (a virtualenv included).
    """
    import shlex
    from importlib import metadata
    from urllib.parse import unquote, urlparse

    target = f"hotdeath[{extra}]"
    try:
        direct = metadata.distribution(PROGRAM).read_text("direct_url.json")
        url = json.loads(direct or "{}").get("url", "")
        if url.startswith("file://"):
            target = f"{unquote(urlparse(url).path)}[{extra}]"
    except (metadata.PackageNotFoundError, ValueError):
        pass
    return f"{shlex.quote(sys.executable)} -m pip install {shlex.quote(target)}"


def need_extra(what: str, extra: str = "report",
               modules: Sequence[str] = REPORT_MODULES) -> None:
    """A ``missing_extra`` error naming the install command unless ``modules`` import."""
    from importlib.util import find_spec

    absent = [m for m in modules if find_spec(m) is None]
    if absent:
        fail("missing_extra", f"{what} needs the '{extra}' extra ({', '.join(absent)} "
              f"missing): run  {install_command(extra)}")


def deprecated(old: str, new: str) -> None:
    """Say on standard error that ``old`` is deprecated in favour of ``new``."""
    typer.echo(f"note: {old} is deprecated; use {new}", err=True)


def pick_variant(option: str | None, positional: str | None = None,
                 short: str | None = None) -> str:
    """The variant from ``--variant``, the deprecated positional form or ``-v``.

    Each deprecated form prints a note; two different variants are a ``bad_argument``
    error.
    """
    given: list[str] = []
    if option is not None:
        given.append(option)
    if positional is not None:
        deprecated(f"the variant as an argument ({positional!r})",
                    f"--variant {positional}")
        given.append(positional)
    if short is not None:
        deprecated(f"-v {short}", f"--variant {short} (or -V {short})")
        given.append(short)
    if len(set(given)) > 1:
        fail("bad_argument", f"two variants given: {', '.join(map(repr, given))}")
    return given[0] if given else DEFAULT_VARIANT


def pick_bots(bots: Sequence[str] | None, old: Sequence[str] | None = None,
              old_name: str = "--bots") -> list[str]:
    """The bot specs from ``--bot`` and a deprecated form (which prints a note)."""
    out = list(bots or [])
    if old:
        deprecated(f"{old_name} {' '.join(old)}",
                    " ".join(f"--bot {spec}" for spec in old))
        out = list(old) + out
    return out


def make_console() -> Console:
    """A console on the current standard output (created per command for test runners)."""
    return Console(highlight=False, markup=False, emoji=False, soft_wrap=True)


def fail(code: str, message: str) -> NoReturn:
    """Print ``error: message [code]`` on standard error and exit with status 2."""
    typer.echo(f"error: {message} [{code}]", err=True)
    raise typer.Exit(EXIT_ERROR)


def dump_json(data: Any) -> str:
    """JSON text with one top-level field per line and every value on one line."""
    if not isinstance(data, Mapping) or not data:
        return json.dumps(data, ensure_ascii=False)
    lines = [
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in data.items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}"


def read_json(path: str, what: str) -> Any:
    """Parse the JSON in file ``path`` (``-``: standard input)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise CliError("file_error", f"cannot read {what} {path!r}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise CliError("bad_json", f"{what} {path!r} is not UTF-8 text") from None
    try:
        return loads_bounded(text)
    except NotationError as e:
        name = "standard input" if path == "-" else repr(path)
        raise CliError(e.code, f"{what} {name}: {e.message}") from None



def parse_option_args(items: Sequence[str]) -> dict[str, str]:
    """``["k=v", ...]`` into a dict (values stay text; the variant validates them)."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CliError("bad_option_syntax", f"--option takes NAME=VALUE, not {item!r}")
        out[key.strip()] = value.strip()
    return out


