"""Set up, inspect and replay games: ``variants``, ``position``, ``replay``, ``review``, ``new``.

Positions and records in the notations of ``docs/notation.md``; every failure is one line
on standard error with its stable code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from hotdeath.actions import Action
from hotdeath.cli.common import (
    CliError,
    OldVariantArg,
    OptionArgs,
    Theme,
    VariantOpt,
    dump_json,
    fail,
    make_console,
    parse_option_args,
    pick_variant,
    read_json,
)
from hotdeath.cli.render import (
    event_line,
    legal_lines,
    options_text,
    position_lines,
    replay_start,
    seat_label,
    totals_text,
    variant_tables,
)
from hotdeath.errors import HotDeathError
from hotdeath.events import Event
from hotdeath.notation import RECORD_FORMAT, from_position, replay, to_position
from hotdeath.state import PHASE_NAMES, GameState
from hotdeath.variants import all_variants, get_variant
from hotdeath.words import describe_game, describe_hand

app = typer.Typer()

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


REVIEW_ITERATIONS = 600
"""``hotdeath review``'s search iterations per decision (about 0.2 s; docs/bots.md)."""
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


@app.command()
def variants(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print [variant.to_json(), ...] as JSON.")
    ] = False,
    ids: Annotated[
        bool,
        typer.Option("--ids", help="Show the identifiers and raw values of presets and "
                     "options: the notation --option and records take."),
    ] = False,
    theme: Annotated[Theme, typer.Option("--theme", help="Card-name theme.")] = Theme.family,
) -> None:
    """List every variant: aliases, players, presets and every option, in words."""
    if as_json:
        typer.echo(json.dumps([v.to_json() for v in all_variants()], indent=2,
                              ensure_ascii=False))
        return
    console = make_console()
    for i, variant in enumerate(all_variants()):
        if i:
            console.print()
        for part in variant_tables(variant, theme.value, ids):
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
        state = load_position(read_json(file, "position"))
        if seat is not None and not 0 <= seat < state.n:
            raise CliError("wrong_seat", f"there is no seat {seat} (seats 0 to {state.n - 1})")
        done = apply_all(state, apply or [], seat)
    except HotDeathError as e:
        fail(e.code, e.message)
    if as_json:
        typer.echo(dump_json(to_position(state)))
        return
    console = make_console()
    for i, (who, action, events) in enumerate(done, start=1):
        console.print(Text(f"{i}. {seat_label(who)}: {action}", style="bold"))
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
    console = make_console()
    lines: list[Text | str] = []
    try:
        rec = unwrap_record(read_json(record_file, "record"))
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
        options = options_text(to_position(state)["options"])
        lines.append(Text(f"{state.variant.name} ({state.variant.title}), {state.n} players, "
                          f"seed {state.seed}, options: {options}", style="bold"))
        if hand_no:
            lines.append(Text(f"── hand {hand_no} ──", style="bold cyan"))
        lines += [f"   {t}" for t in replay_start(state, theme.value)]
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
            lines.append(Text(f"{i:>4}. {seat_label(seat)}: {action}", style="bold"))
            for j, event in enumerate(events):
                if event.kind == "deal" and j > 0:
                    hand_no += 1
                    lines.append(Text(f"── hand {hand_no} ──", style="bold cyan"))
                lines.append(f"      {event_line(event, theme.value)}")
                if event.kind == "score" and (j + 1 == len(events)
                                              or events[j + 1].kind != "score"):
                    lines.append(Text(f"      totals: {totals_text(state)}", style="bold"))
            if state.last_hand is not seen and state.last_hand is not None:
                seen = state.last_hand
                told = describe_hand(seen, None, theme.value, extras).lines()
                lines.append(Text(f"      {told[0]}", style="bold yellow"))
                lines += [f"      {t}" for t in told[1:]]
    except HotDeathError as e:
        fail(e.code, e.message)
    if as_json:
        typer.echo(dump_json(to_position(state)))
        return
    for line in lines:
        console.print(line)
    done = len(todo)
    scores = " · ".join(f"{seat_label(s)} {t}" for s, t in enumerate(state.scores))
    final = state.game_result()
    if final is not None:
        told = describe_game(final, None, theme.value, state.variant.result_extras).lines(False)
        console.print(Text(told[0], style="bold green"))
        for t in told[1:]:
            console.print(t)
    if state.is_terminal():
        winners = ", ".join(seat_label(w) for w in state.winners) or "nobody"
        console.print(Text(f"result: the game is over after {done} actions; winner: "
                           f"{winners}; scores: {scores}", style="bold green"))
    else:
        console.print(Text(f"result: {done} of {len(actions)} actions replayed; hand "
                           f"{state.hand_no}, {PHASE_NAMES[state.phase]}, "
                           f"{seat_label(state.turn)} to act; scores: {scores}", style="bold"))
    used = hints_of(rec, state.n)
    if used:
        from hotdeath.coach import hints_line

        console.print(Text(hints_line(used, state.n, names_of(rec, state.n)), style="bold"))


def names_of(rec: Mapping[str, Any], players: int) -> list[str] | None:
    """The seats' names a record carries (None: it has none; seats are P0, P1 …)."""
    from hotdeath.text import shown

    names = rec.get("names")
    if (isinstance(names, list) and len(names) == players
            and all(isinstance(n, str) and n for n in names)):
        return [shown(n, 40) for n in names]
    return None


def hints_of(rec: Mapping[str, Any], players: int) -> list[list[int]]:
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
    iterations: Annotated[
        int, typer.Option("--iterations", min=1, max=100_000,
                          help="Search iterations per decision (the same review every run).")
    ] = REVIEW_ITERATIONS,
    seconds: Annotated[
        float | None, typer.Option("--seconds", min=0.01, max=10.0,
                                   help="Think this long per decision instead of a number "
                                        "of iterations (the review may then vary).")
    ] = None,
    budget: Annotated[
        float, typer.Option("--budget", min=0.1, max=3600.0,
                            help="With --seconds: most seconds for the whole review.")
    ] = 60.0,
    theme: Annotated[Theme, typer.Option("--theme", help="Card-name theme.")] = Theme.family,
) -> None:
    """Review a hand of a record: the coach's move for each decision, and the mistakes.

    For each decision of a person: what the coach (the ismcts search, from that seat's
    view at that moment) thought best and what the move played cost in chance to win the
    hand; then the hand's biggest mistakes with the rule behind them.  Each decision's
    search is seeded from the record, so the same record gives the same review.
    """
    from hotdeath.coach import CoachError, hand_ranges, review

    console = make_console()
    rec = unwrap_record(read_json(record_file, "record"))
    try:
        ranges = hand_ranges(rec)
    except HotDeathError as e:
        fail("bad_record", e.message)
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        fail("bad_record", f"malformed record: {e}")
    if not ranges:
        fail("no_hand", "the record holds no action to review")
    players = rec.get("players")
    n = players if isinstance(players, int) and players > 0 else 1 + max(
        int(a[0]) for a in rec["actions"])
    people = rec.get("people")
    seats = [seat] if seat is not None else (
        [s for s in people if isinstance(s, int) and 0 <= s < n]
        if isinstance(people, list) and people else list(range(n)))
    bad = [s for s in seats if not 0 <= s < n]
    if bad:
        fail("bad_seat", f"this game has seats 0 to {n - 1}, not {bad[0]}")
    which = hand if hand is not None else max(ranges)
    try:
        done = review(rec, which, seats, seconds=seconds or 0.3, budget=budget,
                      iterations=0 if seconds is not None else iterations,
                      names=names_of(rec, n), theme=theme.value)
    except CoachError as e:
        fail(e.code, e.message)
    for i, line in enumerate(done.lines(names_of(rec, n))):
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
        fail(e.code, e.message)
    text = dump_json(to_position(state))
    if out is None:
        typer.echo(text)
        return
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        fail("file_error", f"cannot write {str(out)!r}: {e.strerror or e}")
    typer.echo(f"wrote {out} ({state.variant.name}, {state.n} players, seed {seed})")


