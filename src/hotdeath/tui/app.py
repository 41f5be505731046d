"""The full-screen terminal game (Textual): the table, your hand, the log, prompts, help.

Keys: arrows and Enter choose a card; ``/`` types a move in the action notation; ``d``
draw, ``p`` pass, ``a`` accept an attack; ``u`` Uno, ``k`` catch, ``c`` challenge when
their windows are open (the footer shows them only then); ``o`` other moves; space makes
the bots move now (or lets an open window go); ``+``/``-`` change the bots' delay; F1 or
``?`` help; ctrl+q quits (mid-game after a confirmation that offers to save the record).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult, ScreenStackError
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.cards import COLOR_LETTERS, COLOR_NAMES, FACE_COLOR, card_name
from hotdeath.coach import HINT_SECONDS, Hint, hints_line
from hotdeath.coach import hint as coach_hint
from hotdeath.coach import review as coach_review
from hotdeath.errors import HotDeathError
from hotdeath.notation import record
from hotdeath.pending import Pending
from hotdeath.tui.remote import OPEN_TIMEOUT, SILENCE, RemoteSession
from hotdeath.tui.session import CARD_ACTIONS, ScoreSheet, Session, colour_word, face_order
from hotdeath.view import View
from hotdeath.words import pending_words

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

CARD_STYLE: dict[int, str] = {
    0: "bold #ff5f5f", 1: "bold #ffd75f", 2: "bold #5fd75f", 3: "bold #5fafff",
}
"""Card colours (red, yellow, green, blue), bright enough on a dark background."""
WILD_STYLE = "bold #d787ff"
DELAY_STEP = 0.25
WINDOW_KEYS = {A.UNO: "u", A.CATCH: "k", A.CHALLENGE: "c", A.QUESTION: "c"}
"""The keys of out-of-turn actions (others: ``o``; a jump-in card: Enter on it)."""
WHY_EVENTS = 12
"""How many of the latest events the Why? screen explains."""
MAX_DELAY = 5.0


def next_free(path: Path) -> Path:
    """``path`` with ``-2``, ``-3`` … before its suffix: the first that does not exist."""
    n = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


def not_dealt(view: View) -> bool:
    """Whether the hand in ``view`` waits for its deal (Hot Death's dealer choosing the size).

    Until then the table still holds the last hand's cards, which belong to no one now.
    """
    if view.phase != "deal":
        return False
    last = view.last_hand
    return view.top < 0 or (last is not None and last.hand != view.hand_no)


def card_style(face: int) -> str:
    """The colour style of a card (wilds magenta)."""
    return CARD_STYLE.get(FACE_COLOR[face], WILD_STYLE)


class BotMoveReady(Message):
    """A bot's chosen move, sent from its thinking thread to the screen."""

    def __init__(self, token: int, move: tuple[int, Action] | None,
                 error: Exception | None, started: float) -> None:
        super().__init__()
        self.token = token
        """The table's token when the bot was asked (an older one is dropped)."""
        self.move = move
        """(seat, action), or ``None`` when no bot is due to move."""
        self.error = error
        """What the bot raised, if it failed."""
        self.started = started
        """When it was asked (``time.monotonic``), to keep the delay between moves."""


# ---------------------------------------------------------------------------- modal screens


class HintReady(Message):
    """The coach's hint, computed in a thread, for the table's token."""

    def __init__(self, token: int, hint: Hint | None, error: str = "") -> None:
        super().__init__()
        self.token = token
        self.hint = hint
        self.error = error


class ReviewReady(Message):
    """The coach's review of a hand, computed in a thread."""

    def __init__(self, hand_no: int, lines: list[str], error: str = "") -> None:
        super().__init__()
        self.hand_no = hand_no
        self.lines = lines
        self.error = error


_R = TypeVar("_R")


class _Modal(ModalScreen[_R]):
    """A modal screen that closes once.

    Keys pressed faster than the screen goes (two Enters queued on a busy machine) would
    dismiss it twice, and the second pop fails.
    """

    _answered = False  # (not _closing: Textual's message pump has one of its own)

    def answer(self, result: _R) -> None:
        """Dismiss with ``result``; a second call while the screen goes is ignored."""
        if not self._answered:
            self._answered = True
            self.dismiss(result)


class ChoiceScreen(_Modal[int | None]):
    """A prompt: pick one of several labelled choices (a key may pick one directly)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(
        self,
        title: str,
        labels: Sequence[str | Text],
        keys: Sequence[str] = (),
        cancellable: bool = True,
        hint: str = "",
    ) -> None:
        super().__init__()
        self.prompt_title = title
        self.labels = list(labels)
        self.keys = list(keys)
        self.cancellable = cancellable
        self.hint = hint

    def compose(self) -> ComposeResult:
        """A titled box with the choices."""
        with Vertical(id="dialog") as box:
            box.border_title = self.prompt_title
            if self.hint:
                yield Static(self.hint, id="hint")
            yield OptionList(*[Option(label) for label in self.labels], id="choices")
        yield Footer()

    def on_mount(self) -> None:
        """Focus the choices."""
        choices = self.query_one("#choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    @on(OptionList.OptionSelected, "#choices")
    def _chosen(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.answer(message.option_index)

    def on_key(self, event: events.Key) -> None:
        """A choice's own key picks it."""
        if event.character and event.character.lower() in self.keys:
            event.stop()
            self.answer(self.keys.index(event.character.lower()))

    def action_cancel(self) -> None:
        """Close without a choice (when the prompt may be put off)."""
        if self.cancellable:
            self.answer(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Escape only where the prompt may be put off."""
        return self.cancellable if action == "cancel" else True


class ScoreScreen(_Modal[str]):
    """End of a hand (and of the game): the scoring with its reasons and the totals."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "next", "Continue"),
        Binding("space", "next", "Continue", show=False),
        Binding("r", "again", "Play again"),
        Binding("q", "quit_game", "Quit"),
        Binding("v", "review", "Review my hand"),
    ]

    def __init__(self, result: ScoreSheet, body: RenderableType, saved: str = "",
                 next_words: str = "Enter: deal the next hand") -> None:
        super().__init__()
        self.result = result
        self.body = body
        self.saved = saved
        self.next_words = next_words

    def compose(self) -> ComposeResult:
        """The scoring table and what to press."""
        with Vertical(id="dialog", classes="wide") as box:
            box.border_title = ("Game over" if self.result.game_over
                                else f"End of hand {self.result.hand_no}")
            with VerticalScroll(id="score-scroll") as scroll:
                # the keys below stay in sight however many seats the table has
                scroll.styles.max_height = max(4, self.app.size.height - 8)
                yield Static(self.body, id="score-body")
                if self.saved:
                    yield Static(self.saved, id="saved")
            yield Static(
                ("r: play again · q: quit" if self.result.game_over else self.next_words)
            + (" · v: the coach's review of your moves"
               if isinstance(self.app, HotDeathApp) and self.app.can_review() else ""),
            id="score-keys"
            )
        yield Footer()

    def on_mount(self) -> None:
        """The arrows and page keys scroll a long table (many seats on a short screen)."""
        self.query_one("#score-scroll", VerticalScroll).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Play again and quit only once the game is over; Enter only before."""
        if action in ("again", "quit_game"):
            return self.result.game_over
        if action == "next":
            return not self.result.game_over
        if action == "review":
            app = self.app
            return isinstance(app, HotDeathApp) and app.can_review()
        return True

    def action_review(self) -> None:
        """The coach's review of this hand (your moves)."""
        app = self.app
        if isinstance(app, HotDeathApp):
            app.review_hand(self.result.hand_no)

    def action_next(self) -> None:
        """On to the next hand."""
        self.answer("next")

    def action_again(self) -> None:
        """A new game."""
        self.answer("again")

    def action_quit_game(self) -> None:
        """Leave."""
        self.answer("quit")


class HelpScreen(_Modal[None]):
    """Every card's rule in the chosen name theme, and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("f1", "close", "Close", show=False),
        Binding("question_mark", "close", "Close", show=False),
    ]

    def __init__(self, body: RenderableType, title: str) -> None:
        super().__init__()
        self.body = body
        self.help_title = title

    def compose(self) -> ComposeResult:
        """A scrolling page."""
        with VerticalScroll(id="help") as box:
            box.border_title = self.help_title
            yield Static(self.body, id="help-body")
        yield Footer()

    def on_mount(self) -> None:
        """The arrows and page keys scroll the page."""
        self.query_one("#help", VerticalScroll).focus()

    def action_close(self) -> None:
        """Back to the table."""
        self.answer(None)


# ---------------------------------------------------------------------------- the app


class HotDeathApp(App[None]):
    """The terminal game: a person against bots (or bots alone, to watch)."""

    TITLE = "Hot Death Uno"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #top { height: auto; max-height: 50%; }
    #seats { width: 3fr; height: auto; border: round $primary; padding: 0 1; }
    #pile { width: 2fr; height: auto; border: round $secondary; padding: 0 1; }
    #middle { height: 1fr; }
    #handbox { width: 2fr; min-width: 34; border: round $success; }
    #hand { height: 1fr; border: none; padding: 0; overflow-x: hidden; }
    #hand > .option-list--option-highlighted { background: #4a4a5a; }
    #hand:focus > .option-list--option-highlighted { background: #5a5a7a; }
    #log { width: 3fr; border: round $accent; padding: 0 1; overflow-x: hidden;
           scrollbar-size-vertical: 1; }
    #hand, #help { scrollbar-size-vertical: 1; }
    #status { height: auto; min-height: 1; padding: 0 1; background: $boost; }
    #cmd { height: 1; border: none; padding: 0 1; background: $boost; }
    #cmd:focus { background: $primary 30%; }
    ChoiceScreen, ScoreScreen { align: center middle; }
    #dialog { width: 60; height: auto; max-height: 90%; border: heavy $warning;
              background: $surface; padding: 0 1; }
    #dialog.wide { width: 96%; }
    #choices { height: auto; max-height: 20; border: none; }
    #hint { color: $text-muted; }
    #score-keys { color: $warning; text-style: bold; margin-top: 1; }
    #score-scroll { height: auto; scrollbar-size-vertical: 1; }
    #help { border: round $primary; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "Draw"),
        Binding("p", "pass_turn", "Pass"),
        Binding("a", "accept", "Accept"),
        Binding("u", "uno", "Uno!"),
        Binding("k", "catch", "Catch"),
        Binding("c", "challenge", "Challenge"),
        Binding("o", "moves", "Other moves"),
        Binding("w", "why", "Why? (rules)"),
        Binding("t", "hint", "Hint"),
        Binding("slash", "type_move", "Type"),
        Binding("space", "skip", "Skip wait"),
        Binding("plus", "slower", "Slower bots", show=False),
        Binding("minus", "faster", "Faster bots", show=False),
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+s", "save", "Save", show=False),
        Binding("ctrl+n", "new_game", "New game", show=False),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(
        self,
        session: Session,
        delay: float = 0.6,
        window_seconds: float = 4.0,
        save: Path | None = None,
        make_session: Callable[[int, int | None], Session] | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.window_seconds = window_seconds
        self.save_path = save
        self.make_session = make_session
        self.uno_armed = False
        self.message: Text = Text("")
        self._message_token = 0
        """The table's token when the message was said: it is shown until the game moves."""
        self._timer: Timer | None = None
        self._window_timer: Timer | None = None
        self._pending: tuple[int, Action] | None = None
        self._token = 0
        """Counts changes of the table; a bot's answer for an older count is dropped."""
        self._thinking: int | None = None
        """The token the bots are thinking about in a worker thread, if any."""
        self._hurry = False
        self._generation = -1
        """The server table's game we show (-1: not connected yet)."""
        self._ws: ClientConnection | None = None
        self._logged = 0
        self._prompting = False
        self._shown_results = 0
        self._started = False
        self._hinting: int | None = None
        """The token of the table the coach is thinking about, if any."""
        self.hint_seconds = HINT_SECONDS
        """The coach's thinking time per hint."""
        self.review_seconds = 0.2
        """The coach's thinking time per decision of a review."""
        self.review_budget = 20.0
        """The most seconds a review of a hand takes."""
        self._reviewing: int | None = None
        """The hand the coach is reviewing, if any."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """Header, the table and the pile, your hand and the log, the status, input, keys."""
        yield Header()
        with Horizontal(id="top"):
            yield Static(id="seats")
            yield Static(id="pile")
        with Horizontal(id="middle"):
            with Vertical(id="handbox"):
                yield OptionList(id="hand")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Static(id="status")
        yield Input(placeholder="/ to type a move: R7 · play WD4 green · draw · catch 2",
                    id="cmd")
        yield Footer()

    def on_mount(self) -> None:
        """Titles, first render, and the bots start."""
        self.query_one("#seats", Static).border_title = "Table"
        self.query_one("#pile", Static).border_title = "Discard pile"
        self.query_one("#log", RichLog).border_title = "What happened (rule)"
        self.query_one("#hand", OptionList).focus()
        self.call_after_refresh(self._start)

    def on_resize(self, event: events.Resize) -> None:
        """A new size may change how the table lays out its seats."""
        if self._started and not self._modal_open():
            self._refresh()

    def _start(self) -> None:
        self._started = True
        self._logged = 0
        self._shown_results = 0
        self.query_one("#log", RichLog).clear()
        self.title = self.session.title
        self.message = Text("")
        if isinstance(self.session, RemoteSession) and self._generation < 0:
            self._generation = 0
            self._connection(self.session)
        self._advance()

    # ------------------------------------------------------------------ a server table

    @work(group="connection")
    async def _connection(self, session: RemoteSession) -> None:
        """Keep the table's WebSocket: take in the server's messages, send the outbox."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, WebSocketException

        retry = 0
        while True:
            try:
                async with connect(session.ws_url, compression=None, close_timeout=1,
                                   open_timeout=OPEN_TIMEOUT) as ws:
                    self._ws = ws
                    await ws.send(json.dumps(session.hello()))
                    while True:  # the server says something every few seconds
                        try:
                            raw = await asyncio.wait_for(ws.recv(), SILENCE)
                        except TimeoutError:  # a silent server: no closing handshake
                            ws.transport.abort()
                            raise
                        retry = 0
                        session.handle(json.loads(raw))
                        self._from_server(session)
                        await self._send_outbox()
            except (OSError, WebSocketException, TimeoutError) as e:
                closed: Exception = e
                if not isinstance(e, ConnectionClosed):  # silent, or never opened:
                    session.next_server()  # another process, if the table named some
            finally:
                # quitting cancels this task, maybe inside the closing handshake: make sure
                # the socket is closed, not left for the garbage collector
                ws_left, self._ws = self._ws, None
                if ws_left is not None:
                    ws_left.transport.abort()
            code = closed.rcvd.code if isinstance(closed, ConnectionClosed) and (
                closed.rcvd is not None) else None
            if code is not None and 4000 <= code < 5000:  # refused: no table, too many…
                self._say(f"connect_failed: the table's connection closed ({closed})",
                          error=True)
                return
            # dropped (the server restarted, another server process plays the table
            # now): come back as the page does, after a wait that grows to 5 s
            retry += 1
            self._say("connection lost: reconnecting…", error=True)
            await asyncio.sleep(min(5.0, 0.3 * 2 ** min(retry, 5)))

    async def _send_outbox(self) -> None:
        """Send what the person did (the answer comes back as a state message)."""
        s = self.session
        if isinstance(s, RemoteSession) and self._ws is not None:
            while s.outbox:
                await self._ws.send(json.dumps(s.outbox.pop(0)))

    def _from_server(self, session: RemoteSession) -> None:
        if session.generation != self._generation:  # a new game at the table
            self._generation = session.generation
            self._logged = 0
            self._shown_results = 0
            self.query_one("#log", RichLog).clear()
        if session.error:
            self._hinting = None  # a refused hint (hints off, not your turn) ends the wait
            self.message = Text(session.error, style="bold red")
            self._message_token = self._token
            session.error = ""
        if session.hint_reply is not None:
            reply, session.hint_reply = session.hint_reply, None
            self._server_hint(reply)
            return
        self._advance()

    # ------------------------------------------------------------------ rendering

    def _refresh(self) -> None:
        s = self.session
        if not s.ready():
            self.query_one("#status", Static).update(
                Text("Connected. Waiting for the host to start the game…", style="italic"))
            self.refresh_bindings()
            return
        view = s.view()
        watching = s.human is None  # no hand and nothing to type: the log takes the room
        self.query_one("#handbox", Vertical).display = not watching
        self.query_one("#cmd", Input).display = not watching
        self.sub_title = (f"hand {max(1, view.hand_no)} · {s.where}"
                          + (" · watching" if s.human is None else ""))
        self.query_one("#seats", Static).update(self._seats_table(view))
        self.query_one("#pile", Static).update(self._pile(view))
        self._render_hand(view)
        log = self.query_one("#log", RichLog)
        for line in s.log[self._logged:]:
            text = Text("• ")
            text.append(line.text[0].upper() + line.text[1:])
            text.append(f"  {line.rule}", style="dim cyan")
            if line.title:
                text.append(f" {line.title}", style="dim")
            if line.kind in ("hand_end", "game_end", "score"):
                text.stylize("bold")
            elif s.human is not None and s.names[s.human] in line.text:
                text.stylize("green", 0, len(line.text) + 2)
            log.write(text)
        self._logged = len(s.log)
        self.query_one("#status", Static).update(self._status(view))
        self.refresh_bindings()

    def seat_groups(self, players: int) -> int:
        """How many seats go side by side in the table: more when the screen is short.

        The table may take half the screen's height; a long table (Cutthroat seats up to
        15) is laid out in two or three groups of columns so your hand keeps its rows.
        """
        rows = max(3, self.size.height // 2 - 3)
        return max(1, min(3, -(-players // rows)))

    def _seats_table(self, view: View) -> Table:
        s = self.session
        groups = self.seat_groups(len(view.seats))
        compact = groups > 1
        dealt = not not_dealt(view)  # before the deal, no seat holds cards of this hand
        shown_any = dealt and any(sv.revealed for sv in view.seats)
        table = Table(box=None, expand=True, pad_edge=False, show_edge=False,
                      collapse_padding=compact)
        for _ in range(groups):
            if not compact:  # a compact table marks the turn in the seat's cell
                table.add_column("", width=2)
            table.add_column("seat", no_wrap=True)
            table.add_column("cards", justify="right", no_wrap=True)
            if shown_any:  # Glasnost, a Blue Shield, the 69: cards everyone has seen
                table.add_column("shown cards", ratio=1)
            table.add_column("pts" if compact else "score", justify="right", no_wrap=True)
        thinking = self._thinking_seats()
        cells: list[list[RenderableType]] = []
        for sv in view.seats:
            turn = sv.seat == view.current_player
            if compact:
                name = Text("▶" if turn else " ", style="bold")
                name.append(s.short_name(sv.seat), style="bold" if turn else "")
            else:
                name = Text(s.names[sv.seat], style="bold" if turn else "")
            if sv.seat == view.dealer:
                name.append(" D" if compact else " dealer", style="dim")
            if not sv.active:
                name.append(" (out)", style="dim italic")
            if sv.uno_catchable:
                name.append(" no Uno!" if compact else " no Uno call!", style="bold red")
            if sv.infections:
                name.append(f" infected ×{sv.infections}", style="yellow")
            if sv.seat in thinking:
                name.append(" …" if compact else " thinking…", style="italic cyan")
            row: list[RenderableType] = [] if compact else ["▶" if turn else ""]
            row += [name, str(sv.hand_size) if dealt else "–"]
            if shown_any:
                row.append(Text(", ").join(Text(s.card(c), style=card_style(c))
                                           for c in sv.revealed if dealt))
            row.append(str(sv.score))
            cells.append(row)
        per_group = -(-len(cells) // groups)
        width = len(cells[0]) if cells else 0
        for r in range(per_group):
            line: list[RenderableType] = []
            for g in range(groups):
                i = g * per_group + r
                line += cells[i] if i < len(cells) else [""] * width
            table.add_row(*line)
        box = self.query_one("#seats", Static)
        box.border_title = "Table · D dealer · … thinking" if compact else "Table"
        return table

    def _pile(self, view: View) -> Group:
        s = self.session
        lines: list[Text] = []
        if not_dealt(view):  # Hot Death: the dealer picks the size
            lines.append(Text("Not dealt yet", style="bold"))
            lines.append(Text(f"{s.names[view.dealer]} deals and chooses how many cards "
                              "each player gets (HD-3.2)."))
            return Group(*lines)
        if view.top >= 0:
            lines.append(Text.assemble("Top: ", (f" {s.card(view.top)} ",
                                                 card_style(view.top) + " reverse")))
        else:
            lines.append(Text("Top: (empty)"))
        if view.color >= 0:
            lines.append(Text.assemble("Colour: ", (colour_word(view.color).upper(),
                                                    CARD_STYLE[view.color])))
        arrow = "↻ clockwise" if view.direction == 1 else "↺ counter-clockwise"
        lines.append(Text(f"Direction: {arrow}"))
        lines.append(Text(f"Draw pile: {view.draw_pile_size} cards"))
        if view.attack:
            lines.append(self._attack_text(view.attack, view))
        if view.phase != "game_over":
            who = s.names[view.current_player]
            lines.append(Text.assemble("Turn: ", (who, "bold reverse" if view.current_player
                                                  == s.human else "bold")))
        return Group(*lines)

    def _attack_text(self, attack: Pending, view: View) -> Text:
        s = self.session
        challenge = any(a.kind in (A.CHALLENGE, A.QUESTION) for a in view.legal_actions)
        words = pending_words(attack, s.names, s.theme, challengeable=challenge)
        assert words is not None
        text = Text(f"{words.title}: ", style="bold red")
        text.append(words.text, style="bold red")
        if words.details:
            text.append(" · " + " · ".join(words.details))
        return text

    def _render_hand(self, view: View) -> None:
        s = self.session
        hand = self.query_one("#hand", OptionList)
        box = self.query_one("#handbox", Vertical)
        if view.hand is None:
            box.border_title = "Watching: every seat is a bot"
            hand.clear_options()
            return
        if not_dealt(view):  # the last hand's cards are not yours any more
            box.border_title = "Your hand: not dealt yet"
            hand.clear_options()
            return
        playable = s.playable_faces()
        faces = sorted(view.hand, key=face_order)
        before = hand.highlighted
        hand.clear_options()
        for i, face in enumerate(faces):
            legal = face in playable
            label = Text()
            label.append("● " if legal else "  ", style="bold #87ff87")
            label.append(s.card(face), style=card_style(face) if legal
                         else card_style(face).replace("bold", "dim"))
            if face == view.drawn:
                label.append("  (just drawn)", style="italic")
            hand.add_option(Option(label, id=f"c{i}-{face}"))
        marked = sum(1 for f in faces if f in playable)
        box.border_title = f"Your hand: {len(faces)} · ● {marked} playable"
        if faces:
            first_legal = next((i for i, f in enumerate(faces) if f in playable), 0)
            keep = before if before is not None and before < len(faces) else first_legal
            hand.highlighted = keep if faces[keep] in playable or not playable else first_legal

    def _status(self, view: View) -> Text:
        s = self.session
        text = Text()
        if self.message.plain and self._message_token == self._token:  # not stale yet
            text.append_text(self.message)
            text.append("  ")
        if view.phase == "game_over":
            text.append("The game is over.", style="bold")
        elif s.window_open():
            text.append("You may act out of turn: ", style="bold yellow")
            for i, a in enumerate(s.window_actions()):
                if i:
                    text.append(" · ", style="dim")
                key = WINDOW_KEYS.get(a.kind, "o" if a.kind not in CARD_ACTIONS else "Enter")
                text.append(f"[{key}] ", style="bold cyan")
                text.append(s.action_words(a))
            text.append(" · ", style="dim")
            text.append("[space] ", style="bold cyan")
            text.append("let it go")
        elif s.my_turn() and not self.bots_busy:
            text.append("Your turn: ", style="bold green")
            text.append_text(self._turn_hint(view))
        elif self._pending is not None:
            text.append(f"{s.names[self._pending[0]]} is thinking… ", style="italic")
            text.append(f"(space: now · +/-: delay {self.delay:.2f} s)", style="dim")
        elif self._thinking is not None:
            who = [s.names[seat] for seat in s.thinking_seats()]
            text.append(", ".join(who) + (" is" if len(who) == 1 else " are")
                        + " thinking… ", style="italic")
            if s.my_turn():
                text.append("(then it is your turn)", style="dim")
            else:
                text.append(f"(+/-: delay {self.delay:.2f} s)", style="dim")
        if self.uno_armed:
            text.append("  UNO! will be called with your next card.", style="bold red")
        return text

    def _turn_hint(self, view: View) -> Text:
        kinds = {a.kind for a in view.legal_actions}
        hints: list[tuple[str, str]] = []
        if kinds & set(CARD_ACTIONS):
            hints.append(("Enter", "play the highlighted ● card"))
        if A.DRAW in kinds:
            hints.append(("d", "draw"))
        if A.PASS in kinds:
            hints.append(("p", "pass"))
        if A.ACCEPT in kinds:
            hints.append(("a", "accept the attack"))
        if kinds & {A.DEAL, A.COLOR, A.VICTIM, A.DIRECTION}:
            hints.append(("", "answer the prompt"))
        if not hints:
            hints.append(("o", "choose a move"))
        text = Text()
        for i, (key, words) in enumerate(hints):
            if i:
                text.append(" · ", style="dim")
            if key:
                text.append(f"[{key}] ", style="bold cyan")
            text.append(words)
        return text

    # ------------------------------------------------------------------ the flow of play

    def _modal_open(self) -> bool:
        """A prompt or help is open, or the app is closing (no screen: nothing may move)."""
        try:
            return isinstance(self.screen, ModalScreen)
        except ScreenStackError:  # a bot's timer that fires while the app shuts down
            return True

    def _cancel_timers(self) -> None:
        for timer in (self._timer, self._window_timer):
            if timer is not None:
                timer.stop()
        self._timer = None
        self._window_timer = None

    def _advance(self) -> None:
        """Let the bots move until the person must act, a hand ends or the bots wait."""
        self._cancel_timers()
        for _ in range(100_000):
            if not self._step():
                break
        self._refresh()

    def _step(self) -> bool:
        """One step of the flow; True when a bot moved and the loop may go on at once."""
        s = self.session
        if self._modal_open() or self._prompting or not s.ready():
            return False
        if len(s.results) > self._shown_results:
            self._show_result()
            return False
        if s.over():
            return False
        if not s.local:  # the server moves its bots; we only answer for our seat
            if s.my_turn():
                self._prompt_if_needed()
            return False
        if s.window_open():
            self._pending = None
            if self.window_seconds > 0:
                self._window_timer = self.set_timer(self.window_seconds, self._window_expired)
            return False
        if self._pending is None:
            if not s.thinking_seats():  # no bot is due: the game waits for the person
                self._prompt_if_needed()
                return False
            # the bots think in a thread, whatever the delay, so the screen stays live
            if self._thinking != self._token:
                self._think()
            return False
        if self.delay > 0 and not self._hurry:
            self._timer = self.set_timer(self.delay, self._bot_moves)
            return False
        self._apply_pending()
        return True

    def _think(self) -> None:
        """Ask the bots for their next move in a daemon thread, over a copy of the game.

        The answer comes back as a :class:`BotMoveReady` message tagged with the table's
        token; an answer for an older token (a new game, a person's move) is dropped.  A
        daemon thread, not a worker of the app's executor, so quitting never waits for a
        slow bot.
        """
        token = self._token
        self._thinking = token
        session = self.session
        state = session.state.clone()  # the live state stays the screen's alone
        started = time.monotonic()

        def think() -> None:
            move: tuple[int, Action] | None = None
            error: Exception | None = None
            try:
                move = session.next_bot_move(state)
            except Exception as e:  # a broken bot must not take the screen down with it
                error = e
            with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
                self.post_message(BotMoveReady(token, move, error, started))

        threading.Thread(target=think, name="hotdeath-bot", daemon=True).start()

    @on(BotMoveReady)
    def _thought(self, message: BotMoveReady) -> None:
        token, move = message.token, message.move
        if self._thinking == token:
            self._thinking = None
        if token != self._token or not self.screen_stack:
            return  # the table changed meanwhile (or the app is closing): a stale answer
        if message.error is not None:
            self._say(f"bot_error: a bot failed: {message.error}", error=True)
            return
        self._pending = move
        if move is None:
            self._prompt_if_needed()
            self._refresh()
            return
        wait = self.delay - (time.monotonic() - message.started)
        if self._hurry or wait <= 0:
            self._bot_moves()
            return
        self._timer = self.set_timer(wait, self._bot_moves)
        self._refresh()

    def _thinking_seats(self) -> set[int]:
        """The seats shown as thinking: the one whose move waits, or those being asked."""
        if self._pending is not None:
            return {self._pending[0]}
        return set(self.session.thinking_seats()) if self._thinking is not None else set()

    @property
    def thinking(self) -> bool:
        """Whether a bot is thinking now (in its thread)."""
        return self._thinking is not None

    @property
    def bots_busy(self) -> bool:
        """Whether a bot is thinking or its chosen move waits to be shown."""
        return self._thinking is not None or self._pending is not None

    def _apply_pending(self) -> None:
        if self._pending is None:
            return
        seat, action = self._pending
        self._pending = None
        self._hurry = False
        self._token += 1
        self.session.apply(seat, action)

    def _bot_moves(self) -> None:
        self._timer = None
        if self._modal_open():
            return  # the move waits until the help or a prompt is closed
        self._apply_pending()
        self._advance()

    def _window_expired(self) -> None:
        self._window_timer = None
        self.session.let_window_go()
        self._advance()

    def _play(self, action: Action) -> None:
        """Apply the person's action (bad ones change nothing and say why)."""
        if self._thinking is not None:
            self._say("A bot is choosing its move: try again in a moment.", error=True)
            return
        try:
            self.session.play(action)
        except HotDeathError as e:
            self.message = Text(f"{e.code}: {e.message}", style="bold red")
            self._message_token = self._token
            self._advance()  # nothing changed; the flow goes on as it was
            return
        if not self.session.local:
            self.run_worker(self._send_outbox(), group="send")
        self._cancel_timers()
        self._pending = None
        self._token += 1
        if action.kind in CARD_ACTIONS:
            self.uno_armed = False
        self.message = Text("")
        self._advance()

    def _say(self, words: str, error: bool = False) -> None:
        self.message = Text(words, style="bold red" if error else "bold")
        self._message_token = self._token
        self._refresh()

    def _show_result(self) -> None:
        s = self.session
        result = s.results[self._shown_results]
        self._shown_results += 1
        saved = ""
        if result.game_over:
            try:
                path = s.save(self.save_path or s.saved_to)
                saved = f"Record saved: {path}  (hotdeath replay {path})"
            except OSError as e:
                saved = f"file_error: could not save the record: {e.strerror or e}"
        self._refresh()
        words = ("Enter: deal the next hand" if s.local
                 else "Enter: back to the table (the server deals the next hand)")
        self.push_screen(ScoreScreen(result, self._result_body(result), saved, words),
                         self._after_result)

    def _result_body(self, result: ScoreSheet) -> Group:
        """The scoring screen, from the common result shape, for every variant.

        How the hand ended, each seat's points with their reasons and totals where the
        hand is scored, the notes, and at game over the winner and the final standings.
        """
        parts: list[RenderableType] = [Text(result.headline, style="bold")]
        if result.rows:  # a game without points (Cutthroat, Throwdown) needs no table
            table = Table(expand=True)
            for i, head in enumerate(("seat", "points", "why", "total")):
                table.add_column(head, no_wrap=i == 0, ratio=1 if i == 2 else None,
                                 justify="left" if i in (0, 2) else "right",
                                 style="bold" if i == 3 else "")
            for row in result.rows:
                table.add_row(*row)
            parts.append(table)
        parts += [Text(note, style="dim") for note in result.notes]
        if result.game_over:
            parts.append(Text(result.game_headline, style="bold green"))
            parts.append(Text(f"Winner: {result.winners or 'nobody'}", style="bold green"))
            standings = Table(title="Final standings", expand=False)
            standings.add_column("#", justify="right")
            standings.add_column("seat")
            scored = any(total for _, total in result.standings)
            if scored:
                standings.add_column("total", justify="right", style="bold")
            for i, (name, total) in enumerate(result.standings, 1):
                standings.add_row(str(i), name, *((total,) if scored else ()))
            parts.append(standings)
            used = hints_line(self.session.hints, self.session.players,
                              [self.session.short_name(x) for x in range(self.session.players)])
            if used:
                parts.append(Text(used, style="dim"))
        return Group(*parts)

    def _after_result(self, choice: str | None) -> None:
        if choice == "quit":
            self.exit()
            return
        if choice == "again":
            self.new_game()
            return
        self._advance()

    def new_game(self) -> None:
        """Start the next game at the same table (the next seed; a server deals a new one).

        After a game that is over, its variant names the next game's dealer
        (``next_game_dealer()``: Throwdown's winner, TD-1.6); an abandoned game names none.
        """
        if isinstance(self.session, RemoteSession):
            self.session.rematch()
            self.run_worker(self._send_outbox(), group="send")
            return
        seed = self.session.seed + 1
        dealer = self.session.state.next_game_dealer()
        if self.save_path is not None and self.session.saved_to == self.save_path:
            self.save_path = next_free(self.save_path)  # keep the last game's record
        if self.make_session is not None:
            self.session = self.make_session(seed, dealer)
        else:
            s = self.session
            self.session = Session(s.variant_name, s.players, seed, s.preset, s.options,
                                   s.bot_specs, s.with_human, s.theme, dealer)
        self._cancel_timers()
        self._pending = None
        self._token += 1  # a bot still thinking about the old game is not listened to
        self._thinking = None
        self._hurry = False
        self._prompting = False
        self.uno_armed = False
        self._start()

    def action_save(self) -> None:
        """Save the game's record so far (again at the end, to the same file)."""
        s = self.session
        try:
            path = s.save(self.save_path or s.saved_to)
        except OSError as e:
            self._say(f"file_error: could not save the record: {e.strerror or e}", error=True)
            return
        words = (f"Record saved: {path} ({len(s.state.history)} moves so far; "
                 f"hotdeath replay {path})")
        self._say(words)
        self.notify(words, title="Saved", timeout=6)  # stays a while, however fast bots play

    QUIT_TITLE: ClassVar[str] = "Quit this game?"

    async def action_quit(self) -> None:
        """Quit; in the middle of a game only after a confirmation that offers to save it.

        A local game's record can be saved first (where ctrl+s saves it); a seat at a
        server table is left as it is (the server keeps the game and the seat).
        """
        s = self.session
        if s.over() or not s.state.history:
            self.exit()
            return
        screen = self.screen
        if isinstance(screen, ChoiceScreen) and screen.prompt_title == self.QUIT_TITLE:
            return  # asked already
        remote = isinstance(s, RemoteSession)
        if remote:
            labels = ["Yes: leave the table (the server keeps the game and your seat)",
                      "No: go on playing"]
            keys = ["y", "n"]
        else:
            labels = [f"Save the record and quit ({len(s.state.history)} moves so far)",
                      "Quit without saving", "No: go on playing"]
            keys = ["s", "q", "n"]
        was_prompting = self._prompting
        self._prompting = True

        def answered(index: int | None) -> None:
            choice = -1 if index is None else index
            if remote:
                choice = {0: 1}.get(choice, 2)
            if choice == 0:
                try:
                    path = s.save(self.save_path or s.saved_to)
                except OSError as e:
                    self._say(f"file_error: could not save the record: {e.strerror or e}",
                              error=True)
                    self._prompting = was_prompting
                    return
                self.exit(message=f"Record saved: {path} (hotdeath replay {path})")
            elif choice == 1:
                self.exit()
            else:
                self._prompting = was_prompting
                if not was_prompting:
                    self._advance()

        self.push_screen(ChoiceScreen(self.QUIT_TITLE, labels, keys, True,
                                      "Escape goes on playing."), answered)

    def action_new_game(self) -> None:
        """Abandon this game for a new one (the next seed), after a confirmation."""
        if self.session.over():
            self.new_game()
            return
        self._push_choice(
            "Abandon this game?",
            [f"Yes: deal a new game (seed {self.session.seed + 1})", "No: go on playing"],
            self._confirmed_new_game, keys=["y", "n"],
            hint="y or n. Save it first with ctrl+s if you want its record.")

    def _confirmed_new_game(self, index: int | None) -> None:
        self._prompting = False
        if index == 0:
            self.new_game()
        else:
            self._advance()

    # ------------------------------------------------------------------ prompts

    def _prompt_if_needed(self) -> None:
        """Your turn with only a colour, victim, deal size or direction to give: ask."""
        s = self.session
        if not s.my_turn() or self._modal_open():
            return
        main = [a for a in s.legal() if a.kind not in (A.UNO, A.CATCH, A.CHALLENGE)]
        if main and all(a.kind in (A.COLOR, A.VICTIM, A.DEAL, A.DIRECTION) for a in main):
            self._ask(main, cancellable=False)

    def _ask(self, actions: Sequence[Action], cancellable: bool = True,
             confirm_cards: str = "") -> None:
        """Narrow ``actions`` down to one with prompts (cards, colour, victim), then play it.

        ``confirm_cards`` (a title) asks which cards go down even for one choice: the card
        the person chose goes down only behind others (a Throwdown throw).
        """
        acts = list(dict.fromkeys(actions))
        if not acts:
            return
        if len(acts) == 1 and not confirm_cards:
            self._play(acts[0])
            return
        s = self.session
        card_sets = list(dict.fromkeys(a.cards for a in acts))
        colours = list(dict.fromkeys(a.color for a in acts))
        targets = list(dict.fromkeys(a.target for a in acts))
        kinds = {a.kind for a in acts}

        def narrow(pick: Callable[[Action], object], values: Sequence[object]) -> Callable[
                [int | None], None]:
            def done(index: int | None) -> None:
                self._prompting = False
                if index is None:
                    self._advance()
                    return
                self._ask([a for a in acts if pick(a) == values[index]])
            return done

        if kinds == {A.DIRECTION}:
            acts.sort(key=lambda a: -a.n)
            view = s.view()
            self._push_choice("You deal: which way does play go?",
                              [Text(f"{s.action_words(a)}: "
                                    f"{s.names[(view.dealer + a.n) % view.players]} "
                                    "plays first") for a in acts],
                              narrow(lambda a: a, acts), cancellable=cancellable)
        elif kinds == {A.DEAL}:
            sizes = sorted(a.n for a in acts)
            acts.sort(key=lambda a: a.n)
            labels: list[str | Text] = [f"{n} cards each" for n in sizes]
            self._push_choice("You deal: how many cards each?", labels,
                              narrow(lambda a: a.n, sizes), cancellable=cancellable,
                              hint="The dealer chooses the hand size (HD-3.2).")
        elif self._ends_the_hand(acts, card_sets, kinds):
            # the last cards: the hand ends before a colour or a swap counts (STD-4,
            # STD-12.2), so the play that names nothing is the move, with no menu
            self._play(next(a for a in acts if a.color < 0 and a.target < 0))
        elif len(card_sets) > 1 or confirm_cards:
            card_sets.sort(key=len)
            labels = [Text(s.cards(c)) for c in card_sets]
            self._push_choice(confirm_cards or "Which cards go down together?", labels,
                              narrow(lambda a: a.cards, card_sets), cancellable=cancellable,
                              hint="The last card ends up on top.")
        elif len(colours) > 1 and all(c >= 0 for c in colours):
            colours.sort()
            labels = [Text(f"{COLOR_NAMES[c].capitalize()} ({COLOR_LETTERS[c]})",
                           style=CARD_STYLE[c]) for c in colours]
            keys = [COLOR_LETTERS[c].lower() for c in colours]
            self._push_choice("Name a colour", labels, narrow(lambda a: a.color, colours),
                              keys=keys, cancellable=cancellable,
                              hint="r, y, g or b, or arrows and Enter.")
        elif len(targets) > 1 and all(t >= 0 for t in targets):
            targets.sort()
            view = s.view()
            labels = [Text(f"{s.names[t]}: {view.seats[t].hand_size} cards") for t in targets]
            keys = [str(t) for t in targets]
            if kinds == {A.CATCH}:
                title = "Whom do you catch?"
            elif kinds <= set(CARD_ACTIONS):
                title = f"{s.cards(acts[0].cards)}: choose a player"
            else:
                title = "Choose a player"
            self._push_choice(title, labels, narrow(lambda a: a.target, targets), keys=keys,
                              cancellable=cancellable, hint="Type the seat number or choose.")
        elif len({a.uno for a in acts}) > 1:
            self._ask([a for a in acts if a.uno == self.uno_armed])
        else:
            labels = [Text(s.action_words(a)) for a in acts]
            self._push_choice("Choose a move", labels, narrow(lambda a: a, acts),
                              cancellable=cancellable)

    def _ends_the_hand(self, acts: Sequence[Action], card_sets: Sequence[tuple[int, ...]],
                       kinds: set[int]) -> bool:
        """Whether ``acts`` are forms of one play of the person's last cards.

        One of them names no colour and nobody; the others' choices change nothing.
        """
        hand = self.session.view().hand or ()
        return (len(card_sets) == 1 and kinds <= set(CARD_ACTIONS)
                and len(card_sets[0]) == len(hand)
                and sum(a.color < 0 and a.target < 0 for a in acts) == 1)

    def _push_choice(
        self,
        title: str,
        labels: Sequence[str | Text],
        done: Callable[[int | None], None],
        keys: Sequence[str] = (),
        cancellable: bool = True,
        hint: str = "",
    ) -> None:
        if self._modal_open():
            return  # a key pressed twice: one prompt at a time
        token = self._token

        def answered(index: int | None) -> None:
            if token != self._token:  # the game moved on meanwhile: a stale prompt
                self._prompting = False
                self._advance()
                return
            done(index)

        self._prompting = True
        self.push_screen(ChoiceScreen(title, labels, keys, cancellable, hint), answered)

    # ------------------------------------------------------------------ input

    @on(OptionList.OptionSelected, "#hand")
    def _card_chosen(self, message: OptionList.OptionSelected) -> None:
        option_id = message.option.id or ""
        face = int(option_id.rsplit("-", 1)[1])
        s = self.session
        choices = s.card_choices(face)
        if not choices:
            behind = [a for a in s.legal() if a.kind in CARD_ACTIONS and face in a.cards]
            if behind:  # marked playable: it goes down behind another card of a throw
                self._ask(behind, confirm_cards=f"{card_name(face, s.theme)} goes down "
                                                 "only in a throw")
                return
            if not s.my_turn() and not s.legal():
                self._say("It is not your turn.", error=True)
            else:
                self._say(f"{s.card(face)} cannot be played now.", error=True)
            return
        self._ask(choices)

    @on(Input.Submitted, "#cmd")
    def _typed(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        box = message.input
        if not text:
            self.query_one("#hand", OptionList).focus()
            return
        s = self.session
        try:
            action = s.parse(text)
        except HotDeathError as e:
            self._say(f"{e.code}: {e.message}", error=True)
            return
        legal = s.legal()
        if action not in legal and action.kind in CARD_ACTIONS:
            fits = [a for a in legal if a.kind == action.kind and a.cards == action.cards
                    and action.color in (a.color, -1) and action.target in (a.target, -1)
                    and (a.uno or not action.uno)]
            if fits:
                box.value = ""
                self.query_one("#hand", OptionList).focus()
                self._ask(fits)
                return
        if action in legal:
            box.value = ""
            self.query_one("#hand", OptionList).focus()
        self._play(action)  # when not legal the engine says why; nothing changes

    def on_key(self, event: events.Key) -> None:
        """Escape leaves the move input for the hand."""
        if event.key == "escape" and isinstance(self.focused, Input):
            event.stop()
            self.query_one("#hand", OptionList).focus()

    # ------------------------------------------------------------------ key actions

    def _legal_of(self, *kinds: int) -> list[Action]:
        return [a for a in self.session.legal() if a.kind in kinds]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Game keys show in the footer only when they can be used now."""
        if action in ("quit", "help", "why"):
            return True
        if self._modal_open():
            return False
        s = self.session
        if action == "save":
            return s.local and s.ready()
        if action == "new_game":
            return s.local
        if action == "draw":
            return bool(self._legal_of(A.DRAW))
        if action == "pass_turn":
            return bool(self._legal_of(A.PASS))
        if action == "accept":
            return bool(self._legal_of(A.ACCEPT))
        if action == "uno":
            return bool(s.offered([A.UNO])) or any(a.uno for a in self._legal_of(*CARD_ACTIONS))
        if action == "catch":
            return bool(s.offered([A.CATCH]))
        if action == "challenge":
            return bool(self._legal_of(A.CHALLENGE, A.QUESTION))
        if action == "moves":
            return any(a.kind not in CARD_ACTIONS for a in s.legal())
        if action == "type_move":
            return s.human is not None and not s.over()
        if action == "hint":
            return self.can_hint()
        if action in ("slower", "faster"):
            return s.local
        if action == "skip":
            return s.local and (self._pending is not None or s.window_open()
                                or (self._thinking is not None and self.delay > 0))
        return True

    # ------------------------------------------------------------------ the coach

    def can_hint(self) -> bool:
        """Whether the person may ask the coach now, on their own turn.

        In a local game, or at a server table whose host allows hints (its coach answers).
        """
        s = self.session
        allowed = s.local or (isinstance(s, RemoteSession) and s.hints_on and not s.waiting)
        return (allowed and s.human is not None and not s.over() and s.my_turn()
                and self._hinting is None and not self._modal_open())

    def action_hint(self) -> None:
        """Ask the coach what a strong player would do (from your view only)."""
        if not self.can_hint():
            return
        s = self.session
        token = self._token
        self._hinting = token
        if isinstance(s, RemoteSession):
            s.ask_hint()
            self.run_worker(self._send_outbox(), group="send")
            self._say("The coach is thinking…")
            return
        view = s.view()
        names, theme, seconds = list(s.names), s.theme, self.hint_seconds

        def think() -> None:
            try:
                given: Hint | None = coach_hint(view, seconds, names=names, theme=theme)
                error = ""
            except HotDeathError as e:
                given, error = None, e.message
            with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
                self.post_message(HintReady(token, given, error))

        threading.Thread(target=think, name="hotdeath-coach", daemon=True).start()
        self._say("The coach is thinking…")

    @on(HintReady)
    def _hinted(self, message: HintReady) -> None:
        self._hinting = None
        if message.token != self._token or message.hint is None or not self.screen_stack:
            if message.error:
                self._say(message.error, error=True)
            return
        s = self.session
        given = message.hint
        if s.human is not None:
            s.hints.append([s.human, len(s.state.history) + 1])
        moves = list(given.moves)
        labels = [Text(line) for line in given.lines()]
        self.message = Text("")
        self._refresh()
        self._push_choice(
            "The coach would play", labels,
            lambda i: self._chosen_move([m.action for m in moves], i),
            hint=(f"{given.why}\n" if given.why else "")
            + f"From what you can see only · Enter plays the move, Escape closes · "
              f"{len(s.hints)} hint{'s' if len(s.hints) != 1 else ''} used",
        )

    def _server_hint(self, reply: Mapping[str, Any]) -> None:
        """Show the server coach's answer, as a local hint is shown."""
        self._hinting = None
        if not reply.get("fresh", True) or self._modal_open():
            self._say("The game moved on before the coach answered: ask again.")
            self._advance()
            return
        moves = [Action.parse(str(m["action"])) for m in reply["hint"]["moves"]]
        used = int(reply.get("used", 0))
        why = str(reply["hint"].get("why") or "")
        self.message = Text("")
        self._refresh()
        self._push_choice(
            "The coach would play", [Text(str(line)) for line in reply["lines"]],
            lambda i: self._chosen_move(moves, i),
            hint=(f"{why}\n" if why else "")
            + f"From what you can see only · Enter plays the move, Escape closes · "
              f"{used} hint{'s' if used != 1 else ''} used",
        )

    def can_review(self) -> bool:
        """Whether the coach can review a hand here: a local game with a person."""
        s = self.session
        return s.local and s.human is not None and self._reviewing is None

    def review_hand(self, hand_no: int) -> None:
        """Ask the coach to review hand ``hand_no`` (the person's moves), in a thread."""
        if not self.can_review():
            return
        s = self.session
        seat = s.human if s.human is not None else 0
        rec = record(s.state)
        names, theme = list(s.names), s.theme
        seconds, budget = self.review_seconds, self.review_budget
        self._reviewing = hand_no

        def think() -> None:
            try:
                lines = coach_review(rec, hand_no, [seat], seconds=seconds, budget=budget,
                                     names=names, theme=theme).lines(names)
                error = ""
            except HotDeathError as e:
                lines, error = [], e.message
            with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
                self.post_message(ReviewReady(hand_no, lines, error))

        threading.Thread(target=think, name="hotdeath-coach", daemon=True).start()
        self.notify("The coach is going over your moves…")

    @on(ReviewReady)
    def _reviewed(self, message: ReviewReady) -> None:
        self._reviewing = None
        if not self.screen_stack:
            return
        if message.error:
            self.notify(message.error, severity="error")
            return
        body = Group(*[Text(line, style="bold" if i == 0 or line.endswith(":") else "")
                       for i, line in enumerate(message.lines)])
        self.push_screen(HelpScreen(body, f"Hand {message.hand_no}: the coach's review"))

    def action_draw(self) -> None:
        """Draw a card."""
        self._ask(self._legal_of(A.DRAW))

    def action_pass_turn(self) -> None:
        """End the turn."""
        self._ask(self._legal_of(A.PASS))

    def action_accept(self) -> None:
        """Take the attack's cards."""
        self._ask(self._legal_of(A.ACCEPT))

    def action_uno(self) -> None:
        """Call Uno now, or with the next card you play."""
        calls = self.session.offered([A.UNO])
        if calls:
            self._ask(calls)
            return
        if any(a.uno for a in self._legal_of(*CARD_ACTIONS)):
            self.uno_armed = not self.uno_armed
            self._say("Uno! Now play your card." if self.uno_armed else "Uno call taken back.")

    def action_catch(self) -> None:
        """Catch a player who did not call Uno."""
        self._ask(self.session.offered([A.CATCH]))

    def action_challenge(self) -> None:
        """Challenge (a 69, a Wild Draw Four) or question a Wild Draw Four."""
        self._ask(self._legal_of(A.CHALLENGE, A.QUESTION))

    def action_moves(self) -> None:
        """Every legal move that is not a card, in words."""
        acts = [a for a in self.session.legal() if a.kind not in CARD_ACTIONS]
        if not acts:
            return
        s = self.session
        self._push_choice("Other moves", [s.action_words(a) for a in acts],
                          lambda i: self._chosen_move(acts, i))

    def _chosen_move(self, acts: Sequence[Action], index: int | None) -> None:
        self._prompting = False
        if index is None:
            self._advance()
            return
        self._play(acts[index])

    def action_type_move(self) -> None:
        """Focus the move input."""
        self.query_one("#cmd", Input).focus()

    def action_skip(self) -> None:
        """Let the waiting bot move now, or let an open window go."""
        s = self.session
        if s.window_open():
            s.let_window_go()
        elif self._pending is not None:
            self._cancel_timers()
            self._apply_pending()
        elif self._thinking is not None:
            self._hurry = True
            return
        self._advance()

    def action_slower(self) -> None:
        """Longer pauses between bot moves."""
        self.delay = min(MAX_DELAY, self.delay + DELAY_STEP)
        self._say(f"Bots wait {self.delay:.2f} s per move.")

    def action_faster(self) -> None:
        """Shorter pauses between bot moves."""
        self.delay = max(0.0, self.delay - DELAY_STEP)
        self._say(f"Bots wait {self.delay:.2f} s per move.")

    def action_why(self) -> None:
        """The full rules behind the latest events, newest first."""
        if isinstance(self.screen, HelpScreen):
            return
        s = self.session
        parts: list[RenderableType] = [
            Text("Why? The rules behind the latest events", style="bold underline")]
        shown: set[str] = set()
        for line in reversed(s.log[-WHY_EVENTS:]):
            if line.rule in shown:
                continue
            shown.add(line.rule)
            head = Text(line.text[0].upper() + line.text[1:], style="bold")
            head.append(f"  {line.rule} {line.title}", style="cyan")
            parts += [head, Text(s.rule_text(line.rule)), Text("")]
        self.push_screen(HelpScreen(Group(*parts), "Why?"), lambda _: self._advance())

    def action_help(self) -> None:
        """The rules of every card in this game, and the keys."""
        if isinstance(self.screen, HelpScreen):
            return
        s = self.session
        setup = s.setup_line()
        parts: list[RenderableType] = [
            Text(f"{s.title}: every card's rule ({s.theme} names)", style="bold underline"),
            Text(setup, style="dim"),
            Text(""),
        ]
        for entry in s.help_entries():
            head = Text(entry.cards or entry.title, style="bold")
            same = not entry.cards or entry.cards == entry.title
            head.append(f"  {entry.rule_id}" if same else f"  {entry.rule_id} {entry.title}",
                        style="cyan")
            parts += [head, Text(entry.text), Text("")]
        parts.append(Text("Keys", style="bold underline"))
        parts.append(Text(
            "↑/↓ and Enter: play the highlighted card (● marks the cards you may play)\n"
            "/: type a move (R7, play WD4 green, draw, pass, catch 2 …), Escape: back\n"
            "d draw · p pass · a accept an attack · o other moves · w why (the rules of the "
            "latest events)\n"
            "u Uno (with your next card, or a call) · k catch · c challenge: only when open\n"
            "t hint: the coach's best moves from what you can see, with reasons (your turn)\n"
            "space: the bot moves now / let a window go · + and -: the bots' delay\n"
            "ctrl+s: save the record so far · ctrl+n: abandon the game for a new one\n"
            "F1 or ?: this help · ctrl+q: quit (mid-game it asks first and can save the record)"
        ))
        self.push_screen(HelpScreen(Group(*parts), "Help"), lambda _: self._advance())


__all__ = ["ChoiceScreen", "HelpScreen", "HotDeathApp", "ScoreScreen", "card_style",
           "next_free", "not_dealt"]
