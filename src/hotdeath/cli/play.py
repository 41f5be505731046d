"""``hotdeath play``: a game in the terminal against bots, or at a server's table."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

from hotdeath.cli.common import (
    OldBotsOpt,
    OldVariantOpt,
    OptionArgs,
    Theme,
    VariantOpt,
    fail,
    parse_option_args,
    pick_bots,
    pick_variant,
)
from hotdeath.errors import HotDeathError, OptionError
from hotdeath.variants import all_variants, get_variant

app = typer.Typer()

@app.command()
def play(
    variant: VariantOpt = None,
    old_variant: OldVariantOpt = None,
    players: Annotated[
        int, typer.Option("--players", "-n",
                          help="Seats, within the variant's range ("
                               + ", ".join(f"{v.name} {v.min_players}-{v.max_players}"
                                           for v in all_variants()) + ").")
    ] = 4,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="Seed for a reproducible game.")
    ] = None,
    preset: Annotated[str | None, typer.Option("--preset", help="Preset name.")] = None,
    option: OptionArgs = None,
    bot: Annotated[
        list[str] | None,
        typer.Option("--bot", "-b", metavar="SPEC",
                     help="Bot for the other seats, e.g. basic or heuristic:expert "
                          "(repeatable: seats take them in turn; default heuristic)."),
    ] = None,
    bots: OldBotsOpt = None,
    theme: Annotated[Theme, typer.Option("--theme", help="Card names.")] = Theme.family,
    delay: Annotated[
        float, typer.Option("--delay", min=0.0, help="Seconds between bot moves.")
    ] = 0.6,
    watch: Annotated[
        bool, typer.Option("--watch", help="Bots in every seat; just watch.")
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Save the game's record here at the end (the full-screen "
                                    "game saves it in your data folder by default)."),
    ] = None,
    plain: Annotated[
        bool, typer.Option("--plain", help="The line-by-line game instead of the full screen.")
    ] = False,
    connect: Annotated[
        str | None,
        typer.Option("--connect", metavar="URL",
                     help="Take a seat at a table of 'hotdeath serve' (a table link).")
    ] = None,
    name: Annotated[
        str, typer.Option("--name", help="Your name at a server table (with --connect).")
    ] = "You",
) -> None:
    """Play a game in the terminal against bots (you are P0).

    A full-screen game when the terminal can show one; the line-by-line game otherwise
    (output not a terminal, or --plain).
    """
    if connect is not None:
        _connect(connect, name, theme, save)
        return
    variant = pick_variant(variant, short=old_variant)
    specs = pick_bots(bot, bots)
    _check_bots(specs)
    try:
        options = seat_options(variant, players, preset, parse_option_args(option or []))
        from hotdeath.tui import can_host

        if not plain and can_host():
            from hotdeath.tui import run as run_tui

            run_tui(variant, players, seed, preset, options, specs, human=not watch,
                    theme=theme.value, delay=delay, save=save)
            return
        from hotdeath.play import play as play_game
        from hotdeath.tui.session import default_bot

        play_game(
            variant, players, seed, preset, options,
            specs or [default_bot()], human=not watch, theme=theme.value, delay=delay,
            save=save,
        )
    except HotDeathError as e:
        fail(e.code, e.message)
    except ValueError as e:
        fail("bad_argument", str(e))


def _connect(url: str, name: str, theme: Theme, save: Path | None) -> None:
    """``play --connect``: take a seat at a server's table in the full-screen game."""
    from hotdeath.text import clean_text
    from hotdeath.tui import can_host
    from hotdeath.tui import connect as connect_tui
    from hotdeath.tui.remote import parse_table_url

    try:
        parse_table_url(url)
        name = clean_text(name, "name")  # the server's input policy, checked here first
        if not can_host():
            fail("no_terminal", "--connect needs a terminal that can show the full screen")
        connect_tui(url, name, theme.value, save)
    except HotDeathError as e:
        fail(e.code, e.message)


def _check_bots(specs: list[str]) -> None:
    """A ``bad_bot`` error (naming the bots there are) unless every spec makes a bot."""
    from hotdeath.bots import bot_catalog, make_bot

    for spec in specs:
        try:
            make_bot(spec)
        except ValueError as e:
            message = str(e)
            if "(bots:" not in message:
                names = ", ".join(info.name for info in bot_catalog())
                message += f" (bots: {names})"
            fail("bad_bot", message)


def seat_options(variant: str, players: int, preset: str | None,
                 options: Mapping[str, object]) -> dict[str, object]:
    """``options`` for a table of ``players`` seats, or a ``bad_players`` error.

    The seat count must lie in the variant's range (``get_variant(variant)`` knows it).
    A variant whose ``max_players`` option (a table limit, 10 by default) is below the
    count asked for gets it raised to the count, unless the option was given.

    >>> seat_options("cutthroat", 12, None, {})
    {'max_players': 12}
    """
    v = get_variant(variant)
    if not v.min_players <= players <= v.max_players:
        raise OptionError(
            "bad_players",
            f"{v.title} ({v.name}) takes {v.min_players} to {v.max_players} players, "
            f"not {players}",
        )
    out = dict(options)
    names = {spec.name for spec in v.option_specs()}
    if "max_players" in names:
        limit = v.resolve_options(preset, out).max_players
        if isinstance(limit, int) and players > limit:
            if "max_players" in out:
                raise OptionError(
                    "bad_players",
                    f"{players} players is more than max_players={limit} (given); "
                    f"{v.name} takes up to {v.max_players} with max_players raised",
                )
            out["max_players"] = players
    return out


