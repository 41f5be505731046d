"""The ``hotdeath`` command line: games, positions, replays, simulations and the server.

This module is an adapter around the pure core (it imports Typer and Rich; the core never
imports it).  Every command reports engine errors as one line on standard error, with the
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

One grammar across the commands (``tests/test_cli_grammar.py`` checks it): the variant is
``--variant/-V`` and bots are the repeatable ``--bot/-b`` wherever a command takes them,
and an option of one name means the same in every command.  The older spellings (the
variant as a positional argument, ``-v`` for the variant, ``--bots``, tournament entrants
as positional arguments) still work and print a deprecation note.

``docs/notation.md`` documents the action, card and position notations these commands
read and write, with worked examples.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hotdeath import PROGRAM, __version__, core_description
from hotdeath.actions import CHALLENGE, Action
from hotdeath.cards import COLOR_NAMES, card_name, parse_card
from hotdeath.errors import HotDeathError, NotationError, OptionError
from hotdeath.events import Event, describe
from hotdeath.jsontext import loads_bounded
from hotdeath.notation import RECORD_FORMAT, from_position, replay, to_position
from hotdeath.options import OptionValue
from hotdeath.pending import DrawAttack, Ejection, Pending, Pot
from hotdeath.rulebook import RULES
from hotdeath.state import DEAL, GAME_OVER, PHASE_NAMES, GameState
from hotdeath.variants import DEFAULT_VARIANT, Variant, all_variants, get_variant
from hotdeath.words import describe_game, describe_hand

EXIT_ERROR = 2
"""Exit status of every error (bad input, bad position, illegal action)."""


class Theme(StrEnum):
    """The card-name themes (``hotdeath.cards.THEMES``)."""

    family = "family"
    original = "original"


class CliError(HotDeathError):
    """An input error of the command line itself (a file, a flag), with a stable code."""


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
        _fail("missing_extra", f"{what} needs the '{extra}' extra ({', '.join(absent)} "
              f"missing): run  {install_command(extra)}")


def _deprecated(old: str, new: str) -> None:
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
        _deprecated(f"the variant as an argument ({positional!r})",
                    f"--variant {positional}")
        given.append(positional)
    if short is not None:
        _deprecated(f"-v {short}", f"--variant {short} (or -V {short})")
        given.append(short)
    if len(set(given)) > 1:
        _fail("bad_argument", f"two variants given: {', '.join(map(repr, given))}")
    return given[0] if given else DEFAULT_VARIANT


def pick_bots(bots: Sequence[str] | None, old: Sequence[str] | None = None,
              old_name: str = "--bots") -> list[str]:
    """The bot specs from ``--bot`` and a deprecated form (which prints a note)."""
    out = list(bots or [])
    if old:
        _deprecated(f"{old_name} {' '.join(old)}",
                    " ".join(f"--bot {spec}" for spec in old))
        out = list(old) + out
    return out


def _console() -> Console:
    """A console on the current standard output (created per command for test runners)."""
    return Console(highlight=False, markup=False, emoji=False, soft_wrap=True)


def _fail(code: str, message: str) -> NoReturn:
    """Print ``error: message [code]`` on standard error and exit with status 2."""
    typer.echo(f"error: {message} [{code}]", err=True)
    raise typer.Exit(EXIT_ERROR)


def _dump_json(data: Any) -> str:
    """JSON text with one top-level field per line and every value on one line."""
    if not isinstance(data, Mapping) or not data:
        return json.dumps(data, ensure_ascii=False)
    lines = [
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in data.items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}"


def _seat(seat: int) -> str:
    return f"P{seat}" if seat >= 0 else "nobody"


def _cards(cards: Sequence[int], theme: str) -> str:
    return ", ".join(card_name(c, theme) for c in cards) if cards else "-"


def _code_name(code: object, theme: str) -> str:
    """A card code from a JSON-ready dict, in words."""
    if not isinstance(code, str):
        return "-"
    try:
        return card_name(parse_card(code), theme)
    except HotDeathError:
        return code


def _count(n: int, what: str = "card") -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _value(v: OptionValue) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _options_text(options: Mapping[str, OptionValue]) -> str:
    if not options:
        return "defaults"
    return ", ".join(f"{k}={_value(v)}" for k, v in options.items())


def event_line(event: Event, theme: str) -> str:
    """An event in words (as its own seat sees it), its rule id and the rule's title."""
    text = describe(event, theme, viewer=event.seat if event.seat >= 0 else None)
    rule = RULES.get(event.rule)
    return f"{text} — {rule.title}" if rule is not None else text


# ------------------------------------------------------------------ reading inputs


def _read_json(path: str, what: str) -> Any:
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


def load_position(data: Any) -> GameState:
    """Build a state from parsed position JSON, with every failure as an engine error."""
    if isinstance(data, Mapping) and data.get("format") == RECORD_FORMAT:
        raise CliError("bad_position", "this is a game record, not a position: use "
                       "'hotdeath replay'")
    try:
        return from_position(data)
    except HotDeathError:
        raise
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise CliError("bad_position", f"malformed position: {e}") from None


def parse_option_args(items: Sequence[str]) -> dict[str, str]:
    """``["k=v", ...]`` into a dict (values stay text; the variant validates them)."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CliError("bad_option_syntax", f"--option takes NAME=VALUE, not {item!r}")
        out[key.strip()] = value.strip()
    return out


_SEAT_PREFIX = re.compile(r"^\s*[Pp](\d+)\s*:\s*")


def split_seat(text: str) -> tuple[int | None, str]:
    """Split an optional ``P<n>:`` seat prefix off an action (``"P2: challenge 0"``)."""
    m = _SEAT_PREFIX.match(text)
    if m is None:
        return None, text
    return int(m.group(1)), text[m.end():]


def apply_all(
    state: GameState, actions: Sequence[str], seat: int | None
) -> list[tuple[int, Action, list[Event]]]:
    """Apply ``actions`` in order, each for its ``P<n>:`` prefix, ``seat`` or the player to act.

    Returns each action with its seat and events.  A failure raises :class:`CliError`
    naming the action by number; the state is then partly changed and must be dropped.
    """
    done: list[tuple[int, Action, list[Event]]] = []
    for i, item in enumerate(actions, start=1):
        prefix, text = split_seat(item)
        who = prefix if prefix is not None else seat
        if who is None:
            who = state.current_player()
        try:
            action = Action.parse(text)
            events = state.apply_action(action, who)
        except HotDeathError as e:
            raise CliError(e.code, f"--apply #{i} {item!r}: {e.message}") from None
        done.append((who, action, events))
    return done


# ------------------------------------------------------------------ rendering a position


def _attack_text(attack: Pending, theme: str, challengeable: bool = False) -> str:
    victim = _seat(attack.victim)
    sender = attack.sender
    if isinstance(attack, (DrawAttack, Pot)):
        text = f"{victim} must answer a draw of {attack.count}"
    elif isinstance(attack, Ejection):
        text = f"{victim} must answer an ejection"
    else:
        text = f"{victim} must answer a Glasnost reveal"
    parts = [f"sent by {_seat(sender)}" if sender >= 0 else "from the up-card"]
    attacker = sender if isinstance(attack, Pot) else attack.attacker
    if attacker != sender and attacker >= 0:
        parts.append(f"attacker {_seat(attacker)}")
    if attack.last_card >= 0:
        parts.append(f"last card {card_name(attack.last_card, theme)}")
    if isinstance(attack, DrawAttack):
        parts.append(f"family {attack.family}")
    if isinstance(attack, Pot) and attack.level is not None:
        parts.append(f"level {attack.level}")
    flags = {
        "locked": isinstance(attack, DrawAttack) and attack.locked,
        "redirected": not isinstance(attack, Pot) and attack.redirected,
        "two active": isinstance(attack, Ejection) and attack.two_active,
        "challengeable": challengeable,
    }
    parts += [name for name, on in flags.items() if on]
    return f"{text} ({', '.join(parts)})"


def position_lines(state: GameState, theme: str) -> Iterator[Text]:
    """The readable summary of a position, line by line."""
    view = state.view(None)
    label_width = 10

    def row(label: str, value: str, style: str = "") -> Text:
        line = Text(f"{label:<{label_width}} ", style="bold")
        line.append(value, style=style)
        return line

    v = state.variant
    yield row("variant", f"{v.name} ({v.title}), {state.n} players, options: "
              f"{_options_text(view.options)}")
    choice = state.variant.kit.dealer_choice
    dealing = state.phase == DEAL and choice is None
    if dealing:
        yield row("hand", f"{state.hand_no} (dealer {_seat(state.dealer)} deals the next hand)")
    elif state.phase == DEAL:
        yield row("hand", f"{state.hand_no} (dealer {_seat(state.dealer)}, {state.hand_size} "
                  f"cards dealt; the dealer chooses {choice})")
    else:
        yield row("hand", f"{state.hand_no} (dealer {_seat(state.dealer)}, "
                  f"{state.hand_size} cards dealt)")
    if state.phase == GAME_OVER:
        yield row("phase", "game_over: the game has ended")
    else:
        yield row("phase", f"{PHASE_NAMES[state.phase]}: {_seat(state.turn)} to act"
                  + (" (has drawn)" if state.drew else ""))
    if state.discard:
        colour = COLOR_NAMES[state.color] if state.color >= 0 else "none named yet"
        yield row("top card", f"{card_name(state.top, theme)}, colour {colour}")
    else:
        yield row("top card", "none")
    yield row("direction", "clockwise" if state.direction == 1 else "counter-clockwise")
    if view.attack is not None:
        challengeable = isinstance(view.attack, Pot) and any(
            a.kind == CHALLENGE for a in state.legal_actions(view.attack.victim))
        yield row("attack", _attack_text(view.attack, theme, challengeable), "bold red")
    if view.sixty_nine_window >= 0:
        yield row("69 window", f"{_seat(view.sixty_nine_window)}'s 6-on-9 play may be "
                  "challenged")
    yield row("piles", f"draw pile {_count(len(state.draw_pile))}, discard pile "
              f"{_count(len(state.discard))}")
    infections = state.infection_counts()
    for s in range(state.n):
        hand = state.hands[s]
        marker = ">" if s == state.turn and state.phase != GAME_OVER else " "
        line = Text(f"{_seat(s):<3}{marker} ", style="bold")
        line.append(_count(len(hand)) + (f": {_cards(hand, theme)}" if hand else ""))
        notes: list[str] = []
        if s in state.out_order and not hand and not dealing:  # not called back (TD-6.4)
            notes.append("out")
        if state.revealed[s] and state.active[s]:
            notes.append(f"public: {_cards(state.revealed[s], theme)}")
        if not state.active[s] and s not in state.out_order:
            notes.append(state.variant.kit.inactive_word)
        if s in state.uno_open:
            notes.append("has not called Uno")
        if infections[s]:
            notes.append(f"infections {infections[s]}")
        notes.append(f"score {state.scores[s]}")
        line.append(" · " + " · ".join(notes), style="dim")
        yield line
    if state.last_hand and state.phase != GAME_OVER and state.hand_no > 1:
        winner = state.last_hand.winner
        yield row("last hand", f"hand {state.last_hand.hand} won by {_seat(winner)}")
    if state.phase == GAME_OVER:
        winners = ", ".join(_seat(w) for w in state.winners) or "nobody"
        yield row("winners", winners, "bold green")


def legal_lines(state: GameState, seat: int | None) -> Iterator[str]:
    """The legal actions of ``seat`` (default: the current player) and of window holders."""
    if state.is_terminal():
        yield "legal actions: none (the game is over)"
        return
    first = state.current_player() if seat is None else seat
    yield "legal actions:"
    seats = [first] + [s for s in state.actors() if s != first]
    for s in seats:
        acts = state.legal_actions(s)
        role = "to act" if s == state.current_player() else "out of turn"
        listed = ", ".join(str(a) for a in acts) if acts else "none"
        yield f"  {_seat(s)} ({role}): {listed}"


# ------------------------------------------------------------------ commands


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


def _variant_tables(variant: Variant) -> Iterator[Table | Text]:
    data = variant.to_json()
    aliases = ", ".join(variant.aliases) or "none"
    players = data["players"]
    yield Text(f"{variant.name} — {variant.title}", style="bold underline")
    yield Text(f"aliases: {aliases}; players: {players['min']} to {players['max']} "
               f"(default {players['default']})")
    yield Text(variant.description)
    presets = Table(title=f"{variant.name} presets", title_justify="left", show_lines=False)
    presets.add_column("preset", no_wrap=True, style="bold")
    presets.add_column("description")
    presets.add_column("options it sets")
    for name, preset in data["presets"].items():
        shown = name + (" (default)" if name == variant.default_preset else "")
        presets.add_row(shown, preset["description"], _options_text(preset["options"]))
    yield presets
    options = Table(title=f"{variant.name} options", title_justify="left", show_lines=True)
    options.add_column("option", no_wrap=True, style="bold")
    options.add_column("type, default, allowed values, rule and description")
    for spec in variant.option_specs():
        details = Text(f"{spec.type}, default {_value(spec.default)}, rule {spec.rule}\n",
                       style="cyan")
        details.append(f"allowed: {spec.allowed()}\n", style="dim")
        details.append(spec.description)
        options.add_row(spec.name, details)
    yield options


@app.command()
def variants(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print [variant.to_json(), ...] as JSON.")
    ] = False,
) -> None:
    """List every variant: aliases, players, presets and every option."""
    if as_json:
        typer.echo(json.dumps([v.to_json() for v in all_variants()], indent=2,
                              ensure_ascii=False))
        return
    console = _console()
    for i, variant in enumerate(all_variants()):
        if i:
            console.print()
        for part in _variant_tables(variant):
            console.print(part)


@app.command()
def position(
    file: Annotated[str, typer.Argument(help="Position JSON file ('-': standard input).",
                                        metavar="FILE")],
    apply: Annotated[
        list[str] | None,
        typer.Option("--apply", "-a", metavar="ACTION",
                     help="Apply an action (repeatable, in order), e.g. 'play HOT red' or "
                          "'P2: challenge 0' (for seat 2)."),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", "-s", help="Act (and list legal actions) for this seat."),
    ] = None,
    legal: Annotated[bool, typer.Option("--legal", help="List the legal actions.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print only the resulting position as JSON.")
    ] = False,
    theme: Annotated[Theme, typer.Option("--theme", help="Card-name theme.")] = Theme.family,
) -> None:
    """Load a position, apply actions, show the events and the resulting position."""
    try:
        state = load_position(_read_json(file, "position"))
        if seat is not None and not 0 <= seat < state.n:
            raise CliError("wrong_seat", f"there is no seat {seat} (seats 0 to {state.n - 1})")
        done = apply_all(state, apply or [], seat)
    except HotDeathError as e:
        _fail(e.code, e.message)
    if as_json:
        typer.echo(_dump_json(to_position(state)))
        return
    console = _console()
    for i, (who, action, events) in enumerate(done, start=1):
        console.print(Text(f"{i}. {_seat(who)}: {action}", style="bold"))
        for event in events:
            console.print(f"   {event_line(event, theme.value)}")
    if done:
        console.print()
    for line in position_lines(state, theme.value):
        console.print(line)
    if legal:
        console.print()
        for text in legal_lines(state, seat):
            console.print(text)


def _replay_start(state: GameState, theme: str) -> Iterator[str]:
    choice = state.variant.kit.dealer_choice
    if state.phase == DEAL and choice is None:
        yield f"{_seat(state.dealer)} deals first and chooses the hand size"
        return
    yield f"{_seat(state.dealer)} deals {state.hand_size} cards to each player"
    if state.discard:
        yield f"the first card turned up is {card_name(state.discard[0], theme)}"
    if state.top != (state.discard[0] if state.discard else -1):
        yield f"the top card is now {card_name(state.top, theme)}"
    yield f"{_seat(state.turn)} is to act ({PHASE_NAMES[state.phase]})"


def _totals(state: GameState) -> str:
    last = state.last_hand
    totals = [row.total for row in last.seats] if last is not None and last.seats else (
        state.scores)
    return " · ".join(f"{_seat(s)} {t}" for s, t in enumerate(totals))


def unwrap_record(data: Any) -> Mapping[str, Any]:
    """The game record in ``data``: a bare record, or the replay page's download.

    The browser's "Record (JSON)" download of a finished game holds the record under
    ``record``; the download of a game still running holds none, and is refused with a
    ``bad_record`` error that says so.
    """
    if not isinstance(data, Mapping):
        raise CliError("bad_record", "a record is a JSON object")
    if data.get("format") != RECORD_FORMAT and "steps" in data:
        inner = data.get("record")
        if isinstance(inner, Mapping):
            return inner
        raise CliError("bad_record", "this is the replay page's download of a game that "
                       f"is not over (status {data.get('status', 'unknown')!r}): it holds "
                       "no record; download it again once the game has ended")
    return data


@app.command("replay")
def replay_cmd(
    record_file: Annotated[str, typer.Argument(help="Record JSON file ('-': standard input).",
                                               metavar="RECORD")],
    upto: Annotated[
        int | None, typer.Option("--upto", min=0, help="Replay only the first N actions.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print only the final position as JSON.")
    ] = False,
    theme: Annotated[Theme, typer.Option("--theme", help="Card-name theme.")] = Theme.family,
) -> None:
    """Replay a game record: every action with its events, hands, scores, the result."""
    console = _console()
    lines: list[Text | str] = []
    try:
        rec = unwrap_record(_read_json(record_file, "record"))
        actions = rec.get("actions", [])
        if not isinstance(actions, list):
            raise CliError("bad_record", "'actions' must be a list of [seat, \"action\"]")
        try:
            state = replay(rec, upto=0)
        except HotDeathError:
            raise
        except (AttributeError, KeyError, TypeError, ValueError) as e:
            raise CliError("bad_record", f"malformed record: {e}") from None
        todo = actions if upto is None else actions[:upto]
        hand_no = state.hand_no
        options = _options_text(to_position(state)["options"])
        lines.append(Text(f"{state.variant.name} ({state.variant.title}), {state.n} players, "
                          f"seed {state.seed}, options: {options}", style="bold"))
        if hand_no:
            lines.append(Text(f"── hand {hand_no} ──", style="bold cyan"))
        lines += [f"   {t}" for t in _replay_start(state, theme.value)]
        seen = state.last_hand
        extras = state.variant.result_extras
        for i, item in enumerate(todo, start=1):
            try:
                seat, text = item
                action = Action.parse(text)
                events = state.apply_action(action, seat)
            except HotDeathError as e:
                raise CliError("bad_record", f"action {i} ({item!r}) cannot be replayed: "
                               f"{e.message}") from None
            except (TypeError, ValueError):
                raise CliError("bad_record", f"action {i} must be [seat, \"action\"], "
                               f"got {item!r}") from None
            if events and events[0].kind == "deal":
                hand_no += 1
                lines.append(Text(f"── hand {hand_no} ──", style="bold cyan"))
            lines.append(Text(f"{i:>4}. {_seat(seat)}: {action}", style="bold"))
            for j, event in enumerate(events):
                if event.kind == "deal" and j > 0:
                    hand_no += 1
                    lines.append(Text(f"── hand {hand_no} ──", style="bold cyan"))
                lines.append(f"      {event_line(event, theme.value)}")
                if event.kind == "score" and (j + 1 == len(events)
                                              or events[j + 1].kind != "score"):
                    lines.append(Text(f"      totals: {_totals(state)}", style="bold"))
            if state.last_hand is not seen and state.last_hand is not None:
                seen = state.last_hand
                told = describe_hand(seen, None, theme.value, extras).lines()
                lines.append(Text(f"      {told[0]}", style="bold yellow"))
                lines += [f"      {t}" for t in told[1:]]
    except HotDeathError as e:
        _fail(e.code, e.message)
    if as_json:
        typer.echo(_dump_json(to_position(state)))
        return
    for line in lines:
        console.print(line)
    done = len(todo)
    scores = " · ".join(f"{_seat(s)} {t}" for s, t in enumerate(state.scores))
    final = state.game_result()
    if final is not None:
        told = describe_game(final, None, theme.value, state.variant.result_extras).lines(False)
        console.print(Text(told[0], style="bold green"))
        for t in told[1:]:
            console.print(t)
    if state.is_terminal():
        winners = ", ".join(_seat(w) for w in state.winners) or "nobody"
        console.print(Text(f"result: the game is over after {done} actions; winner: "
                           f"{winners}; scores: {scores}", style="bold green"))
    else:
        console.print(Text(f"result: {done} of {len(actions)} actions replayed; hand "
                           f"{state.hand_no}, {PHASE_NAMES[state.phase]}, "
                           f"{_seat(state.turn)} to act; scores: {scores}", style="bold"))
    used = _hints_of(rec, state.n)
    if used:
        from hotdeath.coach import hints_line

        console.print(Text(hints_line(used, state.n, _names_of(rec, state.n)), style="bold"))


def _names_of(rec: Mapping[str, Any], players: int) -> list[str] | None:
    """The seats' names a record carries (None: it has none; seats are P0, P1 …)."""
    from hotdeath.text import shown

    names = rec.get("names")
    if (isinstance(names, list) and len(names) == players
            and all(isinstance(n, str) and n for n in names)):
        return [shown(n, 40) for n in names]
    return None


def _hints_of(rec: Mapping[str, Any], players: int) -> list[list[int]]:
    """The hints a record says were used: ``[seat, action index]`` pairs (bad ones dropped)."""
    raw = rec.get("hints")
    if not isinstance(raw, list):
        return []
    return [
        [h[0], h[1]] for h in raw
        if isinstance(h, list) and len(h) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in h)
        and 0 <= h[0] < players
    ]


@app.command("review")
def review_cmd(
    record_file: Annotated[str, typer.Argument(help="Record JSON file ('-': standard input).",
                                               metavar="RECORD")],
    hand: Annotated[
        int | None, typer.Option("--hand", min=1, help="The hand to review (default: the last).")
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", "-s", min=0, help="The seat to review (default: the record's "
                     "people, else every seat)."),
    ] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.01, max=10.0,
                            help="Thinking time per decision.")
    ] = 0.3,
    budget: Annotated[
        float, typer.Option("--budget", min=0.1, max=3600.0,
                            help="Most seconds for the whole review.")
    ] = 60.0,
    theme: Annotated[Theme, typer.Option("--theme", help="Card-name theme.")] = Theme.family,
) -> None:
    """Review a hand of a record: the coach's move for each decision, and the mistakes.

    For each decision of a person: what the coach (the ismcts search, from that seat's
    view at that moment) thought best and what the move played cost in chance to win the
    hand; then the hand's biggest mistakes with the rule behind them.
    """
    from hotdeath.coach import CoachError, hand_ranges, review

    console = _console()
    rec = unwrap_record(_read_json(record_file, "record"))
    try:
        ranges = hand_ranges(rec)
    except HotDeathError as e:
        _fail("bad_record", e.message)
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        _fail("bad_record", f"malformed record: {e}")
    if not ranges:
        _fail("no_hand", "the record holds no action to review")
    players = rec.get("players")
    n = players if isinstance(players, int) and players > 0 else 1 + max(
        int(a[0]) for a in rec["actions"])
    people = rec.get("people")
    seats = [seat] if seat is not None else (
        [s for s in people if isinstance(s, int) and 0 <= s < n]
        if isinstance(people, list) and people else list(range(n)))
    bad = [s for s in seats if not 0 <= s < n]
    if bad:
        _fail("bad_seat", f"this game has seats 0 to {n - 1}, not {bad[0]}")
    which = hand if hand is not None else max(ranges)
    try:
        done = review(rec, which, seats, seconds=seconds, budget=budget,
                      names=_names_of(rec, n), theme=theme.value)
    except CoachError as e:
        _fail(e.code, e.message)
    for i, line in enumerate(done.lines(_names_of(rec, n))):
        console.print(Text(line, style="bold" if i == 0 or line.endswith(":") else ""))


@app.command()
def new(
    old_variant: OldVariantArg = None,
    variant: VariantOpt = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seats.")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Shuffle seed.")] = 0,
    preset: Annotated[str | None, typer.Option("--preset", help="Preset name.")] = None,
    option: OptionArgs = None,
    dealer: Annotated[int | None, typer.Option("--dealer", help="First dealer's seat.")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the position here, not to stdout.")
    ] = None,
) -> None:
    """Start a game and write its starting position as JSON."""
    variant = pick_variant(variant, old_variant)
    try:
        state = get_variant(variant).new_game(
            players, seed, preset, parse_option_args(option or []), dealer
        )
    except HotDeathError as e:
        _fail(e.code, e.message)
    text = _dump_json(to_position(state))
    if out is None:
        typer.echo(text)
        return
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        _fail("file_error", f"cannot write {str(out)!r}: {e.strerror or e}")
    typer.echo(f"wrote {out} ({state.variant.name}, {state.n} players, seed {seed})")


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
        from hotdeath.text import clean_text
        from hotdeath.tui import can_host
        from hotdeath.tui import connect as connect_tui
        from hotdeath.tui.remote import parse_table_url

        try:
            parse_table_url(connect)
            name = clean_text(name, "name")  # the server's input policy, checked here first
            if not can_host():
                _fail("no_terminal", "--connect needs a terminal that can show the full screen")
            connect_tui(connect, name, theme.value, save)
        except HotDeathError as e:
            _fail(e.code, e.message)
        return
    from hotdeath.bots import bot_catalog, make_bot

    variant = pick_variant(variant, short=old_variant)
    specs = pick_bots(bot, bots)
    for spec in specs:
        try:
            make_bot(spec)
        except ValueError as e:
            message = str(e)
            if "(bots:" not in message:
                names = ", ".join(info.name for info in bot_catalog())
                message += f" (bots: {names})"
            _fail("bad_bot", message)
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
        _fail(e.code, e.message)
    except ValueError as e:
        _fail("bad_argument", str(e))


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


class Backend(StrEnum):
    """Where ``hotdeath simulate`` runs its games."""

    process = "process"
    ray = "ray"


WorkersOpt = Annotated[
    int | None, typer.Option("--workers", "-w", min=1,
                             help="Worker processes (default: every core).")
]
BackendOpt = Annotated[Backend, typer.Option("--backend", help="process (a local pool) or ray.")]
AddressOpt = Annotated[
    str | None, typer.Option("--address", help="Ray cluster address (default: local).")
]


@app.command()
def simulate(
    old_variant: OldVariantArg = None,
    variant: VariantOpt = None,
    preset: Annotated[str | None, typer.Option("--preset", help="Preset name.")] = None,
    option: OptionArgs = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seats.")] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option("--bot", "-b", metavar="SPEC",
                     help="Bot spec for the next seat (repeatable; the list repeats to fill "
                          "the seats), e.g. basic, random, 'external:./mybot'; default "
                          "basic."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=0, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Master seed.")] = 0,
    workers: WorkersOpt = None,
    out: Annotated[
        Path, typer.Option("--out", help="Results file (JSON lines; appended, resumable).")
    ] = Path("results.jsonl"),
    backend: BackendOpt = Backend.process,
    address: AddressOpt = None,
    fixed_seats: Annotated[
        bool, typer.Option("--fixed-seats",
                           help="Do not rotate the bots round the table from game to game.")
    ] = False,
    max_moves: Annotated[
        int | None, typer.Option("--max-moves", min=1,
                                 help="Stop a game after this many moves (recorded as "
                                      "unfinished).")
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")
    ] = False,
) -> None:
    """Let bots play many games and append one JSON line per game to a results file.

    Game i's seed is derived from (--seed, i) and the bots rotate one seat per game, so
    the results are the same for any number of workers.  Ctrl-C keeps every finished
    game; running the same command again resumes.  See docs/simulate.md.
    """
    from hotdeath.simulate import MAX_MOVES, SimConfig, run_simulation

    variant = pick_variant(variant, old_variant)
    try:
        config = SimConfig.make(variant, players, bot or ["basic"], seed, preset,
                                parse_option_args(option or []), not fixed_seats,
                                max_moves or MAX_MOVES)
    except HotDeathError as e:
        _fail(e.code, e.message)
    console = Console(stderr=True)
    done_games = 0

    def note(done: int, total: int) -> None:
        nonlocal done_games
        done_games = done

    try:
        if quiet:
            summary = run_simulation(config, games, out, workers, backend.value, address, note)
        else:
            with _sim_progress(console) as (progress_cb, _):
                def both(done: int, total: int) -> None:
                    note(done, total)
                    progress_cb(done, total)

                summary = run_simulation(config, games, out, workers, backend.value, address,
                                         both)
    except HotDeathError as e:
        _fail(e.code, e.message)
    except KeyboardInterrupt:
        typer.echo(f"interrupted: {done_games} of {games} games are in {out}; run the same "
                   "command again to resume", err=True)
        raise typer.Exit(130) from None
    if quiet:
        return
    console.print(f"{summary.played} games played, {summary.skipped} already in {out} "
                  f"({core_description()})")
    from hotdeath.report import load_sets, summary_tables

    for table in summary_tables(load_sets([out])):
        _console().print(table)


def _sim_progress(console: Console) -> Any:
    """A Rich progress bar (games, rate, ETA) and the callback that advances it."""
    from contextlib import contextmanager

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class RateColumn(ProgressColumn):
        """Games per second."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("-- games/s" if speed is None else f"{speed:.1f} games/s",
                        style="progress.data.speed")

    @contextmanager
    def bar() -> Iterator[tuple[Any, Progress]]:
        progress = Progress(
            TextColumn("[progress.description]{task.description}"), BarColumn(),
            MofNCompleteColumn(), RateColumn(), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn(), console=console,
        )
        task_id: list[Any] = []

        def update(done: int, total: int) -> None:
            if not task_id:
                task_id.append(progress.add_task("simulating", total=total, completed=done))
            else:
                progress.update(task_id[0], completed=done)

        with progress:
            yield update, progress

    return bar()


@app.command()
def report(
    results: Annotated[
        list[Path], typer.Argument(help="Results files from 'hotdeath simulate' (one set "
                                        "each; two sets are compared side by side).",
                                   metavar="RESULTS")
    ],
    out: Annotated[
        Path | None, typer.Option("--out", help="Folder for the plots, report.md and "
                                                "report.html (default: only the summary).")
    ] = None,
    theme: Annotated[Theme, typer.Option("--theme", help="Card names.")] = Theme.family,
) -> None:
    """Summarise simulation results: wins with 95% intervals, lengths, seats, events."""
    from hotdeath.report import load_sets, summary_tables, write_report

    if out is not None:
        need_extra("hotdeath report --out (the plots)")
    try:
        sets = load_sets(results)
        console = _console()
        for table in summary_tables(sets, theme.value):
            console.print(table)
        if out is not None:
            written = write_report(sets, out, theme.value)
            console.print(f"wrote {len(written)} files to {out}: "
                          + ", ".join(p.name for p in written))
    except HotDeathError as e:
        _fail(e.code, e.message)


class RateBy(StrEnum):
    """What a tournament's ratings are fitted from."""

    games = "games"
    hands = "hands"


@app.command()
def tournament(
    old_entrants: Annotated[list[str] | None, typer.Argument(hidden=True,
                                                             metavar="[ENTRANT]...")] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option("--bot", "-b", metavar="SPEC",
                     help="An entrant's bot spec (repeatable, each entered once), e.g. "
                          "random, basic, heuristic:expert, 'ismcts:iterations=200'."),
    ] = None,
    variant: VariantOpt = None,
    old_variant: OldVariantOpt = None,
    preset: Annotated[str | None, typer.Option("--preset", help="Preset name.")] = None,
    option: OptionArgs = None,
    players: Annotated[
        int | None, typer.Option("--players", "-n", min=2,
                                 help="Seats per table (default: the variant's default, or "
                                      "the number of entrants if smaller).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games per table.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Master seed (every table "
                                                            "plays the same deals).")] = 0,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the results, standings and plots "
                                         "(resumable).")
    ] = Path("tournament"),
    by: Annotated[RateBy, typer.Option("--by", help="Fit the ratings from games or from "
                                                    "hands won.")] = RateBy.games,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=0, max=10_000,
                          help="Bootstrap resamplings for the rating intervals.")
    ] = 200,
    workers: WorkersOpt = None,
    backend: BackendOpt = Backend.process,
    address: AddressOpt = None,
    max_moves: Annotated[
        int | None, typer.Option("--max-moves", min=1,
                                 help="Stop a game after this many moves (left out).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play a round robin of bots and rate them: standings, crosstable, plots.

    Every combination of --players distinct entrants is a table that plays --games games
    (seats rotated), all tables on the same deals.  Ratings are Bradley-Terry on the Elo
    scale with bootstrap intervals.  Running the same command again resumes and reports.
    See docs/simulate.md.
    """
    from hotdeath.simulate import MAX_MOVES
    from hotdeath.tournament import (
        TournamentConfig,
        crosstable,
        load_tournament,
        run_tournament,
        standings,
        write_outputs,
    )

    need_extra("hotdeath tournament (ratings and plots)")
    variant = pick_variant(variant, short=old_variant)
    entrants = pick_bots(bot, old_entrants, "entrants as arguments:")
    if not entrants:
        _fail("bad_bot", "name the entrants with --bot SPEC (at least two)")
    try:
        if players is None:
            players = min(get_variant(variant).default_players, max(2, len(entrants)))
        config = TournamentConfig.make(entrants, variant, players, games, seed, preset,
                                       parse_option_args(option or []),
                                       max_moves or MAX_MOVES)
    except HotDeathError as e:
        _fail(e.code, e.message)
    console = Console(stderr=True)
    try:
        if quiet:
            run_tournament(config, out, workers, backend.value, address)
        else:
            console.print(f"{len(config.tables())} tables × {games} games, "
                          f"{config.players} seats: results in {out}/")
            with _sim_progress(console) as (progress_cb, _):
                run_tournament(config, out, workers, backend.value, address, progress_cb)
        result = load_tournament(out)
        rows = standings(result, by.value, bootstrap, seed)
        written = write_outputs(result, rows, by.value)
    except HotDeathError as e:
        _fail(e.code, e.message)
    except OSError as e:
        _fail("file_error", f"cannot write to {str(out)!r}: {e.strerror or e}")
    except KeyboardInterrupt:
        typer.echo(f"interrupted: finished games are in {out}; run the same command again "
                   "to resume", err=True)
        raise typer.Exit(130) from None
    show = _console()
    table = Table(title=f"Standings ({result.config.variant}, {config.players} seats, "
                        f"ratings from {by.value})")
    for col in ("#", "entrant", "games", "wins", "win rate (95% CI)", "rating (95% CI)"):
        table.add_column(col, justify="left" if col == "entrant" else "right")
    for i, s in enumerate(rows, start=1):
        lo, hi = s.rate_ci
        table.add_row(str(i), s.entrant, str(s.games), str(s.wins),
                      f"{100 * s.rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})",
                      f"{s.rating:.0f} ({s.rating_ci[0]:.0f}-{s.rating_ci[1]:.0f})")
    show.print(table)
    names = config.entrants
    order = [names.index(s.entrant) for s in rows]
    cross = crosstable(result, by.value)
    ct = Table(title="Crosstable: the row's share of its comparisons with the column "
                     "(wins %/comparisons; columns numbered as the standings)")
    ct.add_column("", no_wrap=True)
    for rank in range(1, len(order) + 1):
        ct.add_column(f"#{rank}", justify="right")
    for rank, a in enumerate(order, start=1):
        cells = []
        for b in order:
            w, t = cross[a][b]
            cells.append("-" if a == b else f"{100 * w / t:.0f}%/{t}" if t else "")
        ct.add_row(f"#{rank} {names[a]}", *cells)
    show.print(ct)
    if result.unfinished:
        show.print(f"{result.unfinished} unfinished games (move cap) are left out")
    show.print(f"wrote {', '.join(p.name for p in written)} to {out}")


DEFAULT_PORT = 8000
"""The port ``hotdeath serve`` listens on unless told otherwise (or it is taken)."""


def free_port(host: str, first: int, tries: int = 20) -> int:
    """``first`` or the next port after it that ``host`` can listen on (``first`` if none)."""
    import socket

    for port in range(first, first + tries):
        try:
            with socket.create_server((host, port)):
                return port
        except OSError:
            continue
    return first


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int | None,
        typer.Option("--port", min=0, max=65535,
                     help="Port (default 8000, or the next free one if 8000 is taken)."),
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url", envvar="HOTDEATH_DATABASE_URL", show_envvar=True,
            help="SQLAlchemy URL (sqlite:///file, postgresql+psycopg://...); default: an "
            "SQLite file in the user's data directory. Keep a password out of the command "
            "line: set HOTDEATH_DATABASE_URL instead. The password is never printed.",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", min=0.0, max=10.0, help="Seconds before a bot moves.")
    ] = 0.6,
    max_bot_seconds: Annotated[
        float,
        typer.Option(
            "--max-bot-seconds", min=0.01, max=60.0,
            help="Most seconds a thinking bot (ismcts) may take per move at a table.",
        ),
    ] = 1.0,
    idle_unload: Annotated[
        float,
        typer.Option(
            "--idle-unload", min=0.0,
            help="Seconds after its last move before a table nobody is connected to leaves "
            "memory (it is loaded back from the database when someone comes); 0: never.",
        ),
    ] = 900.0,
    finished_unload: Annotated[
        float,
        typer.Option(
            "--finished-unload", min=0.0,
            help="The same for a table whose game is over; 0: never.",
        ),
    ] = 120.0,
    db_thread: Annotated[
        bool | None,
        typer.Option(
            "--db-thread/--no-db-thread",
            help="Run database statements in a thread of their own (default: yes for a "
            "database server, no for SQLite, whose commits are faster than the hand-over).",
        ),
    ] = None,
    max_body: Annotated[
        int, typer.Option("--max-body", min=1024,
                          help="Largest request body in bytes (refused before it is read).")
    ] = 64 * 1024,
    tables_per_minute: Annotated[
        int, typer.Option("--tables-per-minute", min=1,
                          help="New tables one client address may create per minute.")
    ] = 30,
    connections_per_address: Annotated[
        int, typer.Option("--connections-per-address", min=1,
                          help="Open WebSocket connections one client address may hold.")
    ] = 40,
    seat_burst: Annotated[
        float, typer.Option("--seat-burst", min=1.0,
                            help="Messages a seat may send at once (all its connections).")
    ] = 20.0,
    seat_rate: Annotated[
        float, typer.Option("--seat-rate", min=0.1,
                            help="Messages per second a seat may keep sending.")
    ] = 10.0,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url", envvar="HOTDEATH_PUBLIC_URL", show_envvar=True,
            help="PostgreSQL: where the other server processes on the same database reach "
            "this one (default: http://HOST:PORT); each process needs its own.",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds", min=0.1, max=600.0,
            help="PostgreSQL: seconds after which another process takes over the tables of "
            "a process that stopped answering.",
        ),
    ] = 10.0,
) -> None:
    """Serve the browser game: tables with friends and bots (see docs/protocol.md)."""
    import logging.config

    import uvicorn

    from hotdeath.server import create_app, default_database_url
    from hotdeath.server.protocol import Limits
    from hotdeath.server.redact import (
        RedactingFormatter,
        log_config,
        mask_url,
        redact,
        url_password,
    )

    if port is None:
        port = free_port(host, DEFAULT_PORT)
    url = (database_url or "").strip() or default_database_url()
    RedactingFormatter.register(url_password(url))
    logging_setup = log_config()
    logging.config.dictConfig(logging_setup)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    sqlite = url.startswith("sqlite")
    held = None
    if sqlite:
        held = _hold_sqlite(url)  # kept open (locked) while this process serves
    else:
        import socket

        here = socket.gethostname() if host in ("0.0.0.0", "::") else host
        public_url = (public_url or "").strip() or f"http://{here}:{port}"
    try:
        application = create_app(
            url, bot_delay=bot_delay, max_bot_seconds=max_bot_seconds,
            idle_unload=idle_unload or None, finished_unload=finished_unload or None,
            db_thread=db_thread, limits=Limits(
                max_body_bytes=max_body, tables_per_minute=tables_per_minute,
                connections_per_address=connections_per_address,
                seat_rate=(seat_burst, seat_rate),
            ),
            public_url=None if sqlite else public_url, lease_seconds=lease_seconds,
        )
    except Exception as e:  # a bad URL, a refused password, a failed migration
        _fail("database_error",
              redact(f"cannot open the database {mask_url(url)}: {e}".splitlines()[0]))
    typer.echo(f"hotdeath: open http://{shown}:{port}/ in your browser "
               f"(database: {mask_url(url)})")
    # No permessage-deflate: state messages are small (about 3 KB) and compressing them
    # doubled the server's latency in benchmarks/server_load.py.
    uvicorn.run(
        application, host=host, port=port, log_level="warning", ws_per_message_deflate=False,
        log_config=logging_setup,
    )
    if sqlite and held is not None:
        held.close()


def _hold_sqlite(url: str) -> Any:
    """Lock ``<file>.serve-lock`` beside an SQLite database; refuse if another process has.

    SQLite is for one server process: two would each play the same tables from their own
    memory.  Returns the open lock file (None where locking is not available).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows
        return None
    from sqlalchemy.engine import make_url

    database = make_url(url).database
    if not database or database == ":memory:":
        return None
    lock = Path(database).expanduser()
    lock = lock.with_name(lock.name + ".serve-lock")
    try:
        handle = lock.open("a+")
    except OSError:
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        _fail("database_in_use",
              f"another 'hotdeath serve' serves the SQLite database {database}; SQLite is "
              "for one server process (several need PostgreSQL: docs/deploy.md)")
    return handle


def main() -> None:
    """Entry point of the ``hotdeath`` script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
