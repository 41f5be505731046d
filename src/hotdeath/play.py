"""Play in the terminal against bots (a Rich interface; not part of the pure core).

Every game is reproducible from its seed and can be saved as a record that
``hotdeath replay`` shows.  The human sees only their own view.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import next_bot_move, seat_rngs, window_seats
from hotdeath.cards import COLOR_NAMES, FACE_COLOR, card_name
from hotdeath.errors import HotDeathError
from hotdeath.events import Event, describe
from hotdeath.notation import record
from hotdeath.rulebook import get_rule
from hotdeath.state import GameState
from hotdeath.variants import DEFAULT_VARIANT, get_variant
from hotdeath.view import View
from hotdeath.words import describe_action, for_people, pending_words

_STYLE = {0: "bold red", 1: "bold yellow", 2: "bold green", 3: "bold blue"}
_LETTER = {0: "R", 1: "Y", 2: "G", 3: "B"}


def card_text(face: int, theme: str, legal: bool = False) -> Text:
    """A card for the terminal: colour letter (readable without colour) and name."""
    c = FACE_COLOR[face]
    label = card_name(face, theme)
    prefix = f"[{_LETTER[c]}] " if c >= 0 else "[W] "
    style = _STYLE.get(c, "bold magenta")
    if legal:
        style += " reverse"
    return Text(prefix + label, style=style)


class TerminalGame:
    """One game in the terminal: a human seat and bots in the others."""

    def __init__(
        self,
        state: GameState,
        bots: Mapping[int, Bot],
        human: int | None,
        theme: str = "family",
        delay: float = 0.6,
        console: Console | None = None,
        ask: Callable[[str], str] | None = None,
        seed: int = 0,
    ) -> None:
        self.state = state
        self.bots = dict(bots)
        self.human = human
        self.theme = theme
        self.delay = delay
        self.console = console or Console()
        self.ask = ask or self.console.input
        self.rngs = seat_rngs(seed, state.n)
        self.names = [
            f"P{s} (you)" if s == human else f"P{s} ({self.bots[s].name})"
            for s in range(state.n)
        ]

    # -------------------------------------------------------------- rendering

    def render(self, view: View) -> None:
        """Show the table as the human (or a spectator) sees it."""
        con = self.console
        st = self.state
        table = Table(title=f"{st.variant.title} — hand {view.hand_no}", expand=False)
        for col in ("seat", "cards", "public cards", "score"):
            table.add_column(col)
        for sv in view.seats:
            marker = "▶ " if sv.seat == view.current_player else "  "
            status = "" if sv.active else " (ejected)"
            revealed = Text(", ").join([card_text(c, self.theme) for c in sv.revealed])
            table.add_row(marker + self.names[sv.seat] + status, str(sv.hand_size), revealed,
                          str(sv.score))
        con.print(table)
        if view.top >= 0:
            color = COLOR_NAMES[view.color] if view.color >= 0 else "-"
            line = Text("Top: ") + card_text(view.top, self.theme)
            line += Text(f"   colour {color}   direction "
                         f"{'clockwise' if view.direction == 1 else 'counter-clockwise'}"
                         f"   draw pile {view.draw_pile_size}")
            con.print(line)
        pending = pending_words(view.attack, self.names, self.theme)
        if pending is not None:
            con.print(f"[bold]{pending.title}:[/] {pending}")
        if view.hand is not None:
            legal_cards = {a.card for a in view.legal_actions if a.kind == A.PLAY}
            hand = Text("Your hand: ")
            for i, c in enumerate(sorted(view.hand, key=lambda f: (FACE_COLOR[f], f))):
                if i:
                    hand += Text("  ")
                hand += card_text(c, self.theme, c in legal_cards)
            con.print(hand)

    def show_events(self, events: Sequence[Event]) -> None:
        """Print events in words with the rule behind each."""
        for e in events:
            text = describe(e, self.theme, self.names, self.human)
            rule = e.rule
            try:
                title = get_rule(rule).title
            except KeyError:
                title = ""
            words = escape(text.rsplit("  [", 1)[0])
            self.console.print(f"  • {words} [dim]({rule} {escape(title)})[/]")
            if e.kind == "score" and e.seat == self.state.n - 1:
                self.console.print()

    # -------------------------------------------------------------- turns

    def _human_choice(self, view: View, out_of_turn: bool) -> Action | None:
        acts = list(view.legal_actions)
        self.console.print("[bold]Your options:[/]" if not out_of_turn else
                           "[bold]You may act out of turn:[/] (Enter to let it go)")
        for i, a in enumerate(acts, 1):
            self.console.print(f"  {i:>2}. {self._action_words(a)}   [dim]{a}[/]")
        while True:
            raw = self.ask("> ").strip()
            if not raw and out_of_turn:
                return None
            if raw in ("?", "h", "help"):
                self._help(view)
                continue
            if raw in ("q", "quit"):
                raise KeyboardInterrupt
            if raw.isdigit() and 1 <= int(raw) <= len(acts):
                return acts[int(raw) - 1]
            try:
                a = Action.parse(raw)
            except HotDeathError as e:
                self.console.print(f"[red]{e.message}[/] (type a number, a move like "
                                   f"'play R7', or ? for help)")
                continue
            if a in acts:
                return a
            self.console.print(f"[red]'{a}' is not legal now.[/]")

    def _action_words(self, a: Action) -> str:
        """An action in words (the one renderer, ``hotdeath.words``)."""
        return describe_action(a, self.names, self.theme)

    def _help(self, view: View) -> None:
        card_rule = self.state.variant.kit.card_rule
        seen: set[str] = set()
        for c in sorted(set(view.hand or ())):
            rid = card_rule(c)
            if rid in seen:
                continue
            seen.add(rid)
            try:
                r = get_rule(rid)
            except KeyError:
                continue
            text = escape(for_people(r.text, r.game, self.theme))
            self.console.print(f"[bold]{card_name(c, self.theme)}[/] ({rid}): {text}")

    def step(self) -> None:
        """Let the seat to act (and anyone with an out-of-turn option) act once."""
        st = self.state
        if self.human is not None and self.human in window_seats(st):
            choice = self._human_choice(st.view(self.human), out_of_turn=True)
            if choice is not None:
                self.show_events(st.apply_action(choice, self.human))
                return
        move = next_bot_move(st, self.bots, self.rngs)
        if move is None:
            seat = st.current_player()
            view = st.view(seat)
            self.render(view)
            choice = self._human_choice(view, out_of_turn=False)
            assert choice is not None
        else:
            seat, choice = move
            if self.delay and seat == st.current_player():
                time.sleep(self.delay)
        self.show_events(st.apply_action(choice, seat))

    def run(self) -> GameState:
        """Play to the end of the game."""
        st = self.state
        while not st.is_terminal():
            self.step()
        self.console.rule("Game over")
        for s in sorted(range(st.n), key=lambda x: st.scores[x]):
            crown = " 🏆" if s in st.winners else ""
            self.console.print(f"{self.names[s]}: {st.scores[s]}{crown}")
        return st


def play(
    variant: str = DEFAULT_VARIANT,
    players: int = 4,
    seed: int | None = None,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    bots: Sequence[str] = ("basic",),
    human: bool = True,
    theme: str = "family",
    delay: float = 0.6,
    save: Path | None = None,
    console: Console | None = None,
    ask: Callable[[str], str] | None = None,
) -> GameState:
    """Start and play a terminal game; returns the final state (saved as a record)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    state = get_variant(variant).new_game(players, seed, preset, options)
    first = 1 if human else 0
    chosen = list(bots) or ["basic"]
    table = {s: make_bot(chosen[(s - first) % len(chosen)]) for s in range(first, players)}
    game = TerminalGame(state, table, 0 if human else None, theme, delay, console, ask, seed)
    game.console.print(f"[bold]{state.variant.title}[/], seed {seed}. Type a number or a "
                       "move (e.g. 'play R7'), ? for card help, q to quit.")
    game.show_events(state.opening_events)
    try:
        game.run()
    except KeyboardInterrupt:
        game.console.print("\nStopped.")
    if save is not None:
        save.write_text(json.dumps(record(state), indent=1), encoding="utf-8")
        game.console.print(f"Record saved to {save} (hotdeath replay {save})")
    return state
