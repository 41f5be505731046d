"""How the command line shows positions, events, variants and records, in words."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from rich.table import Table
from rich.text import Text

from hotdeath.actions import CHALLENGE
from hotdeath.cards import COLOR_NAMES, card_name, parse_card
from hotdeath.errors import HotDeathError
from hotdeath.events import Event, describe
from hotdeath.options import OptionValue
from hotdeath.pending import Pending, Pot
from hotdeath.rulebook import RULES
from hotdeath.state import DEAL, GAME_OVER, PHASE_NAMES, GameState
from hotdeath.variants import Variant
from hotdeath.words import pending_words


def seat_label(seat: int) -> str:
    """``P2`` for seat 2; ``nobody`` for -1."""
    return f"P{seat}" if seat >= 0 else "nobody"


def cards_text(cards: Sequence[int], theme: str) -> str:
    """Cards by name, comma-separated (``-`` for none)."""
    return ", ".join(card_name(c, theme) for c in cards) if cards else "-"


def code_name(code: object, theme: str) -> str:
    """A card code from a JSON-ready dict, in words."""
    if not isinstance(code, str):
        return "-"
    try:
        return card_name(parse_card(code), theme)
    except HotDeathError:
        return code


def plural(n: int, what: str = "card") -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def value_text(v: OptionValue) -> str:
    """An option value as the command line spells it (``true``/``false`` for flags)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def options_text(options: Mapping[str, OptionValue]) -> str:
    """``name=value`` pairs, or ``defaults`` for none."""
    if not options:
        return "defaults"
    return ", ".join(f"{k}={value_text(v)}" for k, v in options.items())


def event_line(event: Event, theme: str) -> str:
    """An event in words (as its own seat sees it), its rule id and the rule's title."""
    text = describe(event, theme, viewer=event.seat if event.seat >= 0 else None)
    rule = RULES.get(event.rule)
    return f"{text} — {rule.title}" if rule is not None else text


def attack_text(attack: Pending, theme: str, challengeable: bool = False) -> str:
    """What is pending, who must answer it and its details, in one line.

    The words of the one renderer every front end uses (:func:`hotdeath.words.pending_words`).
    """
    return str(pending_words(attack, None, theme, challengeable=challengeable))


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
              f"{options_text(view.options)}")
    choice = state.variant.kit.dealer_choice
    dealing = state.phase == DEAL and choice is None
    if dealing:
        yield row("hand", f"{state.hand_no} (dealer {seat_label(state.dealer)} deals the "
                  "next hand)")
    elif state.phase == DEAL:
        yield row("hand", f"{state.hand_no} (dealer {seat_label(state.dealer)}, {state.hand_size} "
                  f"cards dealt; the dealer chooses {choice})")
    else:
        yield row("hand", f"{state.hand_no} (dealer {seat_label(state.dealer)}, "
                  f"{state.hand_size} cards dealt)")
    if state.phase == GAME_OVER:
        yield row("phase", "game_over: the game has ended")
    else:
        yield row("phase", f"{PHASE_NAMES[state.phase]}: {seat_label(state.turn)} to act"
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
        yield row("attack", attack_text(view.attack, theme, challengeable), "bold red")
    if view.sixty_nine_window >= 0:
        yield row("69 window", f"{seat_label(view.sixty_nine_window)}'s 6-on-9 play may be "
                  "challenged")
    yield row("piles", f"draw pile {plural(len(state.draw_pile))}, discard pile "
              f"{plural(len(state.discard))}")
    infections = state.infection_counts()
    for s in range(state.n):
        hand = state.hands[s]
        marker = ">" if s == state.turn and state.phase != GAME_OVER else " "
        line = Text(f"{seat_label(s):<3}{marker} ", style="bold")
        line.append(plural(len(hand)) + (f": {cards_text(hand, theme)}" if hand else ""))
        notes: list[str] = []
        if s in state.out_order and not hand and not dealing:  # not called back (TD-6.4)
            notes.append("out")
        if state.revealed[s] and state.active[s]:
            notes.append(f"public: {cards_text(state.revealed[s], theme)}")
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
        yield row("last hand", f"hand {state.last_hand.hand} won by {seat_label(winner)}")
    if state.phase == GAME_OVER:
        winners = ", ".join(seat_label(w) for w in state.winners) or "nobody"
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
        yield f"  {seat_label(s)} ({role}): {listed}"


def variant_tables(variant: Variant, theme: str = "family",
                   ids: bool = False) -> Iterator[Table | Text]:
    """A variant for people: presets and options by their titles, values in words.

    In the name theme ``theme``.  With ``ids`` each preset and option also shows its
    identifier and raw values, the notation the command line, records and the API take.
    """
    from hotdeath.words import house_rules, themed

    data = variant.to_json()
    aliases = ", ".join(variant.aliases) or "none"
    players = data["players"]
    yield Text(f"{variant.name} — {variant.title}", style="bold underline")
    yield Text(f"aliases: {aliases}; players: {players['min']} to {players['max']} "
               f"(default {players['default']})")
    yield Text(variant.description)
    presets = Table(title=f"{variant.title}: presets", title_justify="left")
    presets.add_column("preset", style="bold")
    presets.add_column("what it is")
    presets.add_column("rules it sets")
    for name, preset in data["presets"].items():
        shown = themed(variant.preset_title(name), theme)
        if name == variant.default_preset:
            shown += " (default)"
        if ids:
            shown += f"\n{name}"
        sets = "; ".join(h["text"] for h in house_rules(variant.name, name, preset["options"],
                                                         theme)) or "the defaults"
        if ids and preset["options"]:
            sets += f"\n{options_text(preset['options'])}"
        presets.add_row(shown, themed(preset["sentence"] or preset["description"], theme),
                        sets)
    yield presets
    options = Table(title=f"{variant.title}: options", title_justify="left", show_lines=True)
    options.add_column("option", style="bold", ratio=1)
    options.add_column("choices, default, rule and what it changes", ratio=2)
    for spec in variant.option_specs():
        title = themed(spec.title or spec.name, theme)
        if ids:
            title += f"\n{spec.name}"
        if spec.type == "int":
            lo, hi = spec.values
            choices = f"a number from {lo} to {hi}"
        else:
            choices = "; ".join(themed(spec.words(v), theme) for v in spec.values)
        details = Text(f"default: {themed(spec.words(spec.default), theme)}, rule {spec.rule}\n",
                       style="cyan")
        details.append(f"choices: {choices}\n", style="dim")
        if ids:
            details.append(f"notation: {spec.name}=({spec.allowed()})\n", style="dim")
        details.append(themed(spec.sentence or spec.description, theme))
        options.add_row(title, details)
    yield options


def replay_start(state: GameState, theme: str) -> Iterator[str]:
    """The lines that open a replayed hand: the deal, the first card, who acts."""
    choice = state.variant.kit.dealer_choice
    if state.phase == DEAL and choice is None:
        yield f"{seat_label(state.dealer)} deals first and chooses the hand size"
        return
    yield f"{seat_label(state.dealer)} deals {state.hand_size} cards to each player"
    if state.discard:
        yield f"the first card turned up is {card_name(state.discard[0], theme)}"
    if state.top != (state.discard[0] if state.discard else -1):
        yield f"the top card is now {card_name(state.top, theme)}"
    yield f"{seat_label(state.turn)} is to act ({PHASE_NAMES[state.phase]})"


def totals_text(state: GameState) -> str:
    """Each seat's total after the last hand: ``P0 120 · P1 45``."""
    last = state.last_hand
    totals = [row.total for row in last.seats] if last is not None and last.seats else (
        state.scores)
    return " · ".join(f"{seat_label(s)} {t}" for s, t in enumerate(totals))


