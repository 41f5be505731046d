"""The ``hotdeath`` command line: games, positions, replays, simulations and the server.

This package is an adapter around the pure core (it imports Typer and Rich; the core never
imports it): one module per group of subcommands, each a Typer app merged into the root
app here without a name (so every command keeps its name), and ``common`` for what they
share.  Every command reports engine errors as one line on standard error, with the
error's stable code, and exits with status 2::

    hotdeath variants [--json]
    hotdeath position FILE [--apply ACTION]... [--seat N] [--legal] [--json] [--theme T]
    hotdeath replay RECORD [--upto N] [--json] [--theme T]
    hotdeath new [--variant V] [--players N] [--seed S] [--preset P] [--option K=V]...
                 [--dealer D] [--out FILE]
    hotdeath play [--variant V] [--players N] [--seed S] [--bot SPEC]... [--watch]
                  [--theme T] [--delay SECONDS] [--save FILE] [--plain]
                  [--connect URL [--name NAME]]
    hotdeath simulate [--variant V] [--bot SPEC]... [--games N] [--seed S] [--workers W]
                      [--out FILE] [--backend process|ray] ...
    hotdeath report RESULTS... [--out DIR]
    hotdeath tournament --bot SPEC --bot SPEC... [--variant V] [--players N] [--games G]
                        [--seed S] [--out DIR] [--by games|hands] [--workers W] ...
    hotdeath serve [--host H] [--port P] [--database-url URL] [--bot-delay S]
    hotdeath train [--variant V] [--players N] [--seed S] [--iterations I] [--out DIR]
                   [--workers W] [--backend process|ray] ...
    hotdeath tune [--variant V] [--players N] [--model FILE] [--seed S] [--generations G]
                  [--out DIR] [--workers W] ...

One grammar across the commands (``tests/test_cli_grammar.py`` checks it): the variant is
``--variant/-V`` and bots are the repeatable ``--bot/-b`` wherever a command takes them,
and an option of one name means the same in every command.  The older spellings (the
variant as a positional argument, ``-v`` for the variant, ``--bots``, tournament entrants
as positional arguments) still work and print a deprecation note.

``docs/notation.md`` documents the action, card and position notations these commands
read and write, with worked examples.
"""


from __future__ import annotations

from typing import Annotated

import typer

from hotdeath import PROGRAM, __version__, core_description
from hotdeath.cli import games, play, serve, simulations, train
from hotdeath.cli.serve import free_port

__all__ = ["app", "free_port", "main"]

PROGRAM_HELP = """Hot Death Uno, standard Uno, Cutthroat Uno and Uno Throwdown: an exact rules \
engine with a browser game, a terminal game, bots, simulations and RL environments.

Play in the browser with friends and bots (`hotdeath serve`) or in the terminal \
(`hotdeath play`); let bots play thousands of games (`hotdeath simulate`, `hotdeath \
report`, `hotdeath tournament`); set up, inspect and replay games (`hotdeath new`, \
`hotdeath position`, `hotdeath replay`); every variant, preset and house rule: \
`hotdeath variants`.  The RL environments are a Python API (`hotdeath.rl`, with \
`pip install "hotdeath[rl]"`).
"""

app = typer.Typer(
    name=PROGRAM,
    help=PROGRAM_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Markdown help: paragraphs are wrapped to the terminal, never at the source's breaks.
    rich_markup_mode="markdown",
)



def _version(value: bool) -> None:
    if value:
        typer.echo(f"hotdeath {__version__}, {core_description()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True,
                     help="Print the version and exit."),
    ] = False,
) -> None:
    """Hot Death Uno and its relatives: play, referee, simulate."""




for group in (games, play, simulations, serve, train):  # in this order in the help
    app.add_typer(group.app)


def main() -> None:
    """Entry point of the ``hotdeath`` script."""
    app()
