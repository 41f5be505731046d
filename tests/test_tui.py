"""The full-screen terminal game: key presses through Textual's pilot, and a real terminal.

The pilot plays whole hands of every variant with the keys a person uses and checks what
the screen shows: the legal cards marked in the hand, the prompts, the keys in the footer
only while their windows are open, the scoring screen.  The tmux test runs ``hotdeath play``
in a real terminal to the end of a hand.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Input, OptionList
from typer.testing import CliRunner

from hotdeath import actions as A
from hotdeath.bots import Bot, make_bot
from hotdeath.bots.arena import play_game
from hotdeath.cards import card_name
from hotdeath.cli import app as cli
from hotdeath.notation import replay, to_position
from hotdeath.tui.app import ChoiceScreen, HelpScreen, HotDeathApp, ScoreScreen
from hotdeath.tui.remote import ConnectError, RemoteSession, api, parse_table_url
from hotdeath.tui.session import Session, card_rule_id
from hotdeath.variants import get_variant
from hotdeath.view import View
from hotdeath.words import themed
from tests.support import ceiling, missing

ROOT = Path(__file__).resolve().parent.parent
SIZE = (120, 40)


def app_at(variant: str, players: int, top: str, hands: list[list[str]],
           clear_log: bool = False) -> tuple[Session, HotDeathApp]:
    """An app (no delays) over a hand-made position: P0 to move on ``top`` with ``hands``,
    basic bots in the other seats; ``clear_log`` empties the table's log first."""
    from hotdeath.notation import from_position

    session = Session(variant, players, 1, bots=["basic"])
    session.state = from_position({"variant": variant, "players": players, "seed": 1,
                                   "turn": 0, "top": top, "hands": hands})
    if clear_log:
        session.log.clear()
    return session, HotDeathApp(session, delay=0.0, window_seconds=0.0)


def screen_text(app: HotDeathApp) -> str:
    """The characters on the screen now, as a person sees them (colours dropped)."""
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(),
                      record=True, color_system=None, legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text()


async def settle(pilot: Pilot[None], limit: float = 60.0) -> None:
    """Let the bots finish thinking (without a delay they go on until the person is due)
    and every pending update reach the screen (a busy machine repaints late)."""
    app = pilot.app
    deadline = time.monotonic() + ceiling(limit)
    while (isinstance(app, HotDeathApp) and app.delay == 0 and app.thinking
           and time.monotonic() < deadline):
        await pilot.pause(0.002)
    for _ in range(3):
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()


def footer_keys(app: HotDeathApp) -> set[str]:
    """The game actions whose keys the footer shows now."""
    return {
        b.action for b in HotDeathApp.BINDINGS
        if isinstance(b, Binding) and b.show and app.check_action(b.action, ())
    }


def check_hand_marks(app: HotDeathApp) -> int:
    """Every legal card is marked ● in the hand, and no other; returns the first marked row."""
    session = app.session
    hand = app.query_one("#hand", OptionList)
    playable = session.playable_faces()
    first = -1
    for i in range(hand.option_count):
        option = hand.get_option_at_index(i)
        face = int((option.id or "").rsplit("-", 1)[1])
        marked = str(option.prompt).startswith("●")
        assert marked == (face in playable), (card_name(face), marked)
        assert card_name(face, session.theme) in str(option.prompt)
        if marked and first < 0:
            first = i
    return first


async def play_hand(app: HotDeathApp, pilot: object, seen: dict[str, int],
                    max_steps: int = 1500) -> ScoreScreen:
    """Press keys as a person would until the scoring screen shows; count what was seen."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    for _ in range(max_steps):
        await settle(pilot)
        screen = app.screen
        if isinstance(screen, ScoreScreen):
            return screen
        if isinstance(screen, ChoiceScreen):
            seen["prompt:" + screen.prompt_title] = seen.get("prompt:" + screen.prompt_title,
                                                             0) + 1
            assert screen.prompt_title in screen_text(app)
            await pilot.press("enter")
            continue
        session = app.session
        keys = footer_keys(app)
        if session.window_open():
            window = session.window_actions()
            kinds = {a.kind for a in window}
            assert "skip" in keys
            if A.CATCH in kinds:
                assert "catch" in keys
                seen["catch"] = seen.get("catch", 0) + 1
                await pilot.press("k")
            elif A.CHALLENGE in kinds:
                assert "challenge" in keys
                seen["challenge"] = seen.get("challenge", 0) + 1
                await pilot.press("c")
            elif A.UNO in kinds:
                assert "uno" in keys
                seen["uno"] = seen.get("uno", 0) + 1
                await pilot.press("u")
            else:
                await pilot.press("space")
            continue
        if not session.my_turn():
            # the bots run at once with no delay; only a modal or a window stops them
            pytest.fail(f"the game waits for nobody: {session.state.describe_state()}")
        legal = session.legal()
        kinds = {a.kind for a in legal}
        if not session.offered([A.CATCH]):
            assert "catch" not in keys
        if A.CHALLENGE not in kinds and A.QUESTION not in kinds:
            assert "challenge" not in keys
        text = screen_text(app)
        assert "Your turn" in text
        first = check_hand_marks(app)
        hand = app.query_one("#hand", OptionList)
        for i in range(hand.option_count):
            face = int((hand.get_option_at_index(i).id or "").rsplit("-", 1)[1])
            if len({a.cards for a in session.card_choices(face)}) > 1:
                first = i
                break
        if any(a.uno for a in legal if a.kind == A.PLAY):
            assert "uno" in keys
            seen["uno-play"] = seen.get("uno-play", 0) + 1
            await pilot.press("u")
        if first >= 0:
            seen["card"] = seen.get("card", 0) + 1
            await pilot.press("home", *["down"] * first, "enter")
        elif A.ACCEPT in kinds:
            await pilot.press("a")
        elif A.DRAW in kinds:
            seen["draw"] = seen.get("draw", 0) + 1
            await pilot.press("d")
        elif A.PASS in kinds:
            await pilot.press("p")
        else:
            await pilot.press("o", "enter")
    pytest.fail("the hand did not end")


def make_app(variant: str, seed: int, players: int = 3, theme: str = "family") -> HotDeathApp:
    session = Session(variant, players, seed, bots=["basic"], theme=theme)
    return HotDeathApp(session, delay=0.0, window_seconds=0.0)


@pytest.mark.asyncio
@pytest.mark.parametrize(("variant", "seed"), [
    ("standard", 4), ("hotdeath", 7), ("cutthroat", 3), ("throwdown", 5),
])
async def test_a_person_plays_a_hand_with_keys(
    variant: str, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    app = make_app(variant, seed)
    seen: dict[str, int] = {}
    async with app.run_test(size=SIZE) as pilot:
        await play_hand(app, pilot, seen)
        print(variant, seen)
        text = screen_text(app)
        session = app.session
        assert seen.get("card", 0) > 0
        assert session.results, "the hand's result is recorded"
        first = session.results[0]
        # the scoring screen: the reasons and the totals of every seat
        assert ("Game over" if first.game_over else f"End of hand {first.hand_no}") in text
        for name, _points, reasons, total in first.rows:
            assert name in text and total in text
            if reasons:
                assert reasons.split(" ")[0] in text
        assert first.headline in text
        if first.game_over:
            assert "play again" in text
            ends = next(n for n in first.notes if n.startswith("The game ends by rule"))
            assert " ".join(ends.split()[:6]) in " ".join(text.split())  # why it ends here
            saved = list(tmp_path.rglob("*.json"))
            assert len(saved) == 1 and session.saved_to == saved[0]
            assert "Record saved:" in text  # with the path (wrapped to the dialog's width)
            rec = json.loads(saved[0].read_text(encoding="utf-8"))
            assert to_position(replay(rec)) == to_position(session.state)
            shown = CliRunner().invoke(cli, ["replay", str(saved[0])])
            assert shown.exit_code == 0 and "the game is over" in shown.output
            await pilot.press("r")
            await settle(pilot)
            assert app.session is not session and app.session.seed == seed + 1
            assert not isinstance(app.screen, ScoreScreen)
        else:
            assert "next hand" in text
            await pilot.press("enter")
            await settle(pilot)
            assert not isinstance(app.screen, ScoreScreen)
            view = app.session.view()
            assert view.hand_no == first.hand_no + 1  # also while the dealer chooses
            assert f"hand {first.hand_no + 1}" in app.sub_title


@pytest.mark.asyncio
async def test_the_same_seed_and_keys_make_the_same_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    histories = []
    for _ in range(2):
        app = make_app("cutthroat", 8)
        async with app.run_test(size=SIZE) as pilot:
            await play_hand(app, pilot, {})
            histories.append(list(app.session.state.history))
    assert histories[0] == histories[1] and len(histories[0]) > 10


@pytest.mark.asyncio
async def test_prompts_colour_and_deal_size() -> None:
    # Hot Death with P0 dealing: the deal-size prompt opens at once
    app = make_app("hotdeath", 2, players=2)  # P0 deals (deal scheme 2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        deals = 0
        for _ in range(30):
            if isinstance(app.screen, ChoiceScreen) and "deal" in app.screen.prompt_title:
                deals += 1
                text = screen_text(app)
                assert "5 cards each" in text and "15 cards each" in text
                assert "Not dealt yet" in text and "Your hand: not dealt yet" in text
                await pilot.press("down", "down", "enter")  # 7 cards
                await settle(pilot)
                assert app.session.view().hand_size == 7
                break
            await play_one(app, pilot)
        assert deals == 1


@pytest.mark.asyncio
async def test_a_prompt_answered_twice_before_it_goes_closes_once() -> None:
    # two Enters queued on a busy machine reach the prompt before it is popped: the second
    # answer is ignored (it popped the game's own screen and crashed the game)
    app = make_app("hotdeath", 2, players=2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(30):
            if isinstance(app.screen, ChoiceScreen):
                break
            await play_one(app, pilot)
        prompt = app.screen
        assert isinstance(prompt, ChoiceScreen)
        prompt.answer(0)
        prompt.answer(1)
        await settle(pilot)
        assert app.screen is not prompt and not isinstance(app.screen, ChoiceScreen)
        assert app.is_running and len(app.screen_stack) == 1


async def play_one(app: HotDeathApp, pilot: object) -> None:
    """One sensible key press (used to move a game on to a situation)."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    session = app.session
    if isinstance(app.screen, (ChoiceScreen, ScoreScreen)):
        await pilot.press("enter")
    elif session.window_open():
        await pilot.press("space")
    elif session.playable_faces():
        first = check_hand_marks(app)
        await pilot.press("home", *["down"] * max(first, 0), "enter")
    else:
        await pilot.press("o", "enter")
    await settle(pilot)


@pytest.mark.asyncio
async def test_wild_asks_for_a_colour_and_typed_moves() -> None:
    # a standard position where P0 holds a Wild, a Red 7 and a Blue 2, with red on top
    session, app = app_at("standard", 2, "R5", [["W", "R7", "B2"], ["G1", "G2", "G3"]],
                          clear_log=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        check_hand_marks(app)
        text = screen_text(app)
        assert "● [R] Red 7" in text and "● [W] Wild" in text
        assert "  [B] Blue 2" in text  # not marked: blue does not match red
        assert "RED (R)" in text  # the colour in words and letter
        # typed: nonsense, an illegal card, then a wild without a colour
        await pilot.press("slash", *"zap", "enter")
        await settle(pilot)
        assert "bad_syntax" in screen_text(app)
        assert app.query_one("#cmd", Input).value == "zap"  # kept, to be corrected
        await pilot.press("ctrl+a", "ctrl+k", *"B2", "enter")
        await settle(pilot)
        assert "illegal_action" in screen_text(app)
        assert len(session.state.history) == 0  # nothing changed
        await pilot.press("ctrl+a", "ctrl+k", *"W", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        assert "Name a colour" in screen_text(app)
        await pilot.press("b")
        await settle(pilot)
        assert session.state.history[0] == (0, A.Action.parse("play W blue"))
        assert "names blue" in screen_text(app)
        await pilot.press("w")  # why? the rules behind the latest events, in full
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(screen_text(app).split())
        assert "STD-5.5" in text and "A Wild lets its player name the colour" in text


@pytest.mark.rule("STD-4", "official", "a last-card wild needs no colour")
@pytest.mark.rule("STD-12.2", "ruling", "a last-card 7 swaps nothing: nobody to name")
@pytest.mark.asyncio
@pytest.mark.parametrize(("card", "options"), [("W", {}), ("R7", {"seven_o": True})])
async def test_a_last_card_goes_down_without_a_pointless_question(
    card: str, options: dict[str, object]
) -> None:
    """The hand ends with it, so neither a colour nor a player to swap with is asked for."""
    from hotdeath.notation import from_position

    session = Session("standard", 3, 1, bots=["basic"], options=options)
    session.state = from_position({"variant": "standard", "players": 3, "seed": 1,
                                   "turn": 0, "top": "R5", "options": options,
                                   "hands": [[card], ["G1", "G2"], ["G3", "G4"]]})
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    legal = {str(a) for a in session.state.legal_actions(0)}
    assert f"play {card}" in legal and len(legal) > 1  # colours or players offered too
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("home", "enter")  # the card chosen in the hand
        await settle(pilot)
        assert not isinstance(app.screen, ChoiceScreen), screen_text(app)
        assert session.state.history[0] == (0, A.Action.parse(f"play {card}"))


@pytest.mark.asyncio
async def test_a_throwdown_throw_asks_which_cards_go_down_together() -> None:
    session, app = app_at("throwdown", 2, "R8",
                          [["R8", "B8", "Y2"], ["G1", "G2", "G3"]])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert check_hand_marks(app) == 0
        keys = footer_keys(app)
        assert "uno" not in keys and "catch" not in keys  # sure to be wrong: no key
        await pilot.press("home", "enter")  # Red 8: the hand is sorted red, yellow, blue
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        text = screen_text(app)
        assert "Which cards go down together?" in text
        assert "Red 8 + Blue 8" in text
        await pilot.press("down", "enter")
        await settle(pilot)
        assert session.state.history[0] == (0, A.Action.parse("play R8 B8"))


@pytest.mark.asyncio
async def test_a_card_that_goes_down_only_behind_another_asks_for_the_throw() -> None:
    # Blue 2 on top: Green 8 is marked playable, but only behind Blue 8 (same number)
    session, app = app_at("throwdown", 2, "B2",
                          [["R1", "G8", "B8"], ["G1", "G2", "G3"]])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert check_hand_marks(app) == 1  # R1, G8, B8: G8 is the first marked
        await pilot.press("home", "down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)  # not "cannot be played now"
        text = screen_text(app)
        assert "Green 8 goes down only in a throw" in text and "Blue 8 + Green 8" in text
        await pilot.press("enter")
        await settle(pilot)
        assert session.state.history[0] == (0, A.Action.parse("play B8 G8"))


@pytest.mark.asyncio
async def test_glasnost_asks_for_a_victim() -> None:
    session, app = app_at("hotdeath", 3, "R5",
                          [["GLAS", "B7", "R8"], ["G1", "G2", "G3"], ["Y1", "Y3", "Y4"]])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert check_hand_marks(app) == 0  # Glasnost (red) comes first
        await pilot.press("home", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        text = screen_text(app)
        assert "Glasnost: choose a player" in text and "P2 (casual bot): 3 cards" in text
        await pilot.press("2")
        await settle(pilot)
        assert session.state.history[0] == (0, A.Action.parse("play GLAS @2"))
        assert "Glasnost, choosing P2 (casual bot)" in " ".join(screen_text(app).split())


@pytest.mark.asyncio
async def test_a_prompt_opens_once_and_a_stale_one_changes_nothing() -> None:
    # Enter pressed twice on a slow screen asked twice for Glasnost's victim; answering
    # the prompt left behind after the move tried the move again and stopped the bots.
    from hotdeath.cards import parse_card
    session, app = app_at("hotdeath", 3, "R5",
                          [["GLAS", "B7", "R8", "R9"], ["G1", "G2", "G3"], ["Y1", "Y3", "Y4"]])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        glasnost = session.card_choices(parse_card("GLAS"))
        app._ask(glasnost)
        app._ask(glasnost)  # the second Enter: no second prompt
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen) and len(app.screen_stack) == 2
        app._play(A.Action.parse("play R8"))  # the game moves on under the prompt
        await pilot.press("2")  # the stale prompt's answer is not played
        await settle(pilot)
        assert not isinstance(app.screen, ChoiceScreen)
        assert session.state.history[0] == (0, A.Action.parse("play R8"))
        assert all(a.kind != A.PLAY or parse_card("GLAS") not in a.cards
                   for _, a in session.state.history)
        assert len(session.state.history) >= 3 and session.my_turn()  # the bots went on


@pytest.mark.asyncio
async def test_help_shows_every_card_rule_in_the_theme() -> None:
    app = make_app("hotdeath", 12, theme="original")  # P0 deals (deal scheme 2)
    async with app.run_test(size=(120, 400)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)  # P0 deals: help works over a prompt
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "Fuck You" in text and "HD-2.3.23" in text and "AIDS" in text
        assert "Retaliation" not in text
        for entry in app.session.help_entries():
            assert entry.rule_id in text
        # people read options and presets by their names, never by their identifiers
        assert "Hot Death Uno: Hot Death as we play it; no house rules; 3 players." in text
        ids = {s.name for s in get_variant("hotdeath").option_specs() if "_" in s.name}
        words = set(re.findall(r"[a-z0-9_]+", text))
        assert not ids & words and "canonical" not in words, ids & words
        assert "“Stacking Draw Twos”" in text  # the rulebook's `stack_draw_twos`
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)


@pytest.mark.asyncio
async def test_delay_keys_and_skip() -> None:
    session = Session("standard", 3, 2, bots=["basic"], human=False)
    app = HotDeathApp(session, delay=3.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "is thinking" in screen_text(app)
        before = len(session.state.history)
        await pilot.press("space")
        for _ in range(100):  # the bot thinks in a thread; space skips the 3 s wait
            await pilot.pause(0.02)
            if len(session.state.history) > before:
                break
        assert len(session.state.history) == before + 1
        assert app._thinking is not None or app._pending is not None  # the next one waits
        await pilot.press("minus", "minus")
        assert app.delay == pytest.approx(2.5)
        await pilot.press("plus")
        assert app.delay == pytest.approx(2.75)
        assert "watching" in app.sub_title and "watching" in screen_text(app)
        # nobody's hand and nothing to type: the log has the room
        assert not app.query_one("#handbox").display and not app.query_one("#cmd").display
        assert app.query_one("#log").size.width > SIZE[0] * 0.9


@pytest.mark.asyncio
async def test_bots_with_a_delay_and_a_person_take_turns() -> None:
    # the realistic mode: bots think in a worker thread and wait a little between moves
    session = Session("hotdeath", 3, 5, bots=["basic"])
    app = HotDeathApp(session, delay=0.01, window_seconds=0.05)
    turns = 0
    async with app.run_test(size=SIZE) as pilot:
        deadline = time.monotonic() + ceiling(120)  # generous: CI machines can be busy
        while time.monotonic() < deadline:
            if turns >= 8:
                break
            await pilot.pause(0.01)
            if isinstance(app.screen, (ChoiceScreen, ScoreScreen)) or session.my_turn():
                turns += session.my_turn() and not isinstance(app.screen, ChoiceScreen)
                await play_one(app, pilot)
        assert turns >= 8
        assert app._thinking is None or app._thinking == app._token


# ---------------------------------------------------------------------------- bots in threads


class GatedBot:
    """A bot that thinks until the test opens its gate (a slow bot, with no sleeping)."""

    def __init__(self, inner: Bot, gate: threading.Event) -> None:
        self.inner = inner
        self.name = inner.name
        self.gate = gate
        self.asked = threading.Event()
        self.answered = threading.Event()
        self.threads: list[threading.Thread] = []
        """The threads that asked this bot (joined to know all they did is done)."""

    def choose(self, view: View, rng: random.Random) -> A.Action | None:
        """Wait for the gate, then answer as the wrapped bot does."""
        self.threads.append(threading.current_thread())
        self.asked.set()
        assert self.gate.wait(ceiling(60)), "the test never opened the gate"
        try:
            return self.inner.choose(view, rng)
        finally:
            self.answered.set()


def gate_bots(session: Session) -> tuple[threading.Event, list[GatedBot]]:
    """Put every bot of ``session`` behind one gate (closed)."""
    gate = threading.Event()
    gated = {seat: GatedBot(bot, gate) for seat, bot in session.bots.items()}
    session.bots = dict(gated)
    return gate, list(gated.values())


async def wait_until(pilot: Pilot[Any], cond: Callable[[], bool], limit: float = 30.0) -> None:
    """Let the app run until ``cond()`` holds (fails after ``limit`` seconds)."""
    deadline = time.monotonic() + ceiling(limit)
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.01)


@pytest.mark.asyncio
async def test_the_screen_stays_live_while_a_bot_thinks_without_a_delay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    session = Session("standard", 3, 2, bots=["basic"], human=False)
    gate, gated = gate_bots(session)
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: any(b.asked.is_set() for b in gated))
        await settle(pilot, limit=0)
        turn = session.state.current_player()
        text = screen_text(app)
        assert f"{session.names[turn]} is thinking" in text  # the status line says who
        assert f"{session.names[turn]} thinking…" in text  # and so does the table
        assert app.thinking and not session.state.history
        await pilot.press("f1")  # keys work: the help opens over the thinking bot
        await settle(pilot, limit=0)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot, limit=0)
        assert not isinstance(app.screen, HelpScreen) and not session.state.history
        gate.set()  # the bot answers: its move is applied and the next bot thinks
        await wait_until(pilot, lambda: len(session.state.history) >= 5
                         or isinstance(app.screen, ScoreScreen))
        assert session.state.history[0][0] == turn


@pytest.mark.asyncio
async def test_a_new_game_or_a_save_while_a_bot_thinks_drops_its_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    sessions: list[Session] = []
    gates: list[threading.Event] = []

    def make_session(seed: int, dealer: int | None = None) -> Session:
        session = Session("hotdeath", 3, seed, bots=["basic"], human=False, dealer=dealer)
        gates.append(gate_bots(session)[0])
        sessions.append(session)
        return session

    save = tmp_path / "saved.json"
    app = HotDeathApp(make_session(40), delay=0.0, window_seconds=0.0, save=save,
                      make_session=make_session)
    old = sessions[0]
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.thinking)
        # saving while the bot thinks writes the game as it stands
        await pilot.press("ctrl+s")
        await settle(pilot, limit=0)
        assert old.saved_to == save and "Record saved" in screen_text(app)
        rec = json.loads(save.read_text(encoding="utf-8"))
        assert to_position(replay(rec)) == to_position(old.state)
        # a new game while the bot thinks: confirmed, then the old answer is dropped
        await pilot.press("ctrl+n")
        await settle(pilot, limit=0)
        assert isinstance(app.screen, ChoiceScreen)
        assert "Abandon this game?" in screen_text(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: app.session is not old and app.thinking)
        new = app.session
        assert new.seed == 41 and not new.state.history
        assert app.save_path == tmp_path / "saved-2.json"  # the old game's record is kept
        gates[0].set()  # the old game's bot answers now, about the old position
        await wait_until(pilot, lambda: all(b.answered.is_set() for b in old.bots.values()
                                            if isinstance(b, GatedBot) and b.asked.is_set()))
        await settle(pilot, limit=0)
        assert not old.state.history and not new.state.history  # applied to neither
        assert app.thinking  # the new game's bot is still asked
        gates[1].set()
        await wait_until(pilot, lambda: len(new.state.history) >= 3
                         or isinstance(app.screen, ScoreScreen))
        # the new game is the arena's game for its seed: the stale answer left no trace
        reference = get_variant("hotdeath").new_game(3, 41, None, {})
        n = len(new.state.history)
        with contextlib.suppress(RuntimeError):
            play_game(reference, [make_bot("basic") for _ in range(3)], max_moves=n)
        assert reference.history[:n] == new.state.history[:n]


@pytest.mark.asyncio
async def test_a_message_goes_once_the_game_moves_on() -> None:
    session = Session("standard", 3, 2, bots=["basic"])
    gate, _ = gate_bots(session)
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, limit=0)
        if session.my_turn():
            app._play(session.legal()[0])
        await wait_until(pilot, lambda: app.thinking)
        await pilot.press("enter")  # a card while a bot thinks
        await settle(pilot, limit=0)
        assert "It is not your turn." in screen_text(app)
        moves = len(session.state.history)
        gate.set()
        await wait_until(pilot, lambda: len(session.state.history) > moves)
        await settle(pilot)
        assert "It is not your turn." not in screen_text(app)  # stale once a bot moved


def test_quitting_while_a_bot_thinks_does_not_wait_for_it() -> None:
    session = Session("standard", 3, 2, bots=["basic"], human=False)
    gate, gated = gate_bots(session)
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    quit_at: list[float] = []

    async def quit_when_thinking(pilot: Pilot[object]) -> None:
        await wait_until(pilot, lambda: app.thinking)
        quit_at.append(time.monotonic())
        await pilot.press("ctrl+q")

    app.run(headless=True, size=SIZE, auto_pilot=quit_when_thinking)
    assert quit_at and time.monotonic() - quit_at[0] < ceiling(10)  # the gate is still closed
    assert not session.state.history
    asked = [b for b in gated if b.asked.is_set()]
    gate.set()  # the bot answers to an app that has gone: nothing happens, nothing fails
    assert asked and all(b.answered.wait(ceiling(10)) for b in asked)
    for thread in [t for b in asked for t in b.threads]:  # all it did after answering
        thread.join(ceiling(10))
        assert not thread.is_alive()
    assert not session.state.history


@pytest.mark.asyncio
@pytest.mark.parametrize(("variant", "seed", "bots"), [
    ("standard", 6, ["basic"]), ("hotdeath", 9, ["heuristic", "basic"]),
])
async def test_threaded_bots_play_the_arenas_game(
    variant: str, seed: int, bots: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    # Before the bots moved in threads, delay 0 ran the arena's loop on the screen's
    # thread: the same seed and bots must still give exactly the arena's game.
    session = Session(variant, 4, seed, bots=bots, human=False)
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ScoreScreen), limit=60)
    history = session.state.history
    reference = get_variant(variant).new_game(4, seed, None, {})
    with contextlib.suppress(RuntimeError):
        play_game(reference, [make_bot(bots[s % len(bots)]) for s in range(4)],
                  max_moves=len(history))
    assert len(history) > 20 and reference.history[:len(history)] == history


def table_lines(app: HotDeathApp) -> list[str]:
    """The lines of the Table box on the screen (its left part, borders dropped)."""
    lines = screen_text(app).splitlines()
    start = next(i for i, line in enumerate(lines) if "Table" in line)
    out = []
    for line in lines[start + 1:]:
        if line.startswith("╰"):
            break
        out.append(line.split("│")[1])
    return out


@pytest.mark.asyncio
@pytest.mark.parametrize(("size", "players", "groups"), [
    ((80, 24), 12, 2), ((80, 24), 15, 2), ((120, 40), 15, 1), ((120, 40), 11, 1),
])
async def test_a_table_of_many_seats_stays_legible(
    size: tuple[int, int], players: int, groups: int
) -> None:
    session = Session("cutthroat", players, 4, options={"max_players": players},
                      bots=["basic"])
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert session.my_turn()
        assert app.seat_groups(players) == groups
        rows = table_lines(app)
        assert len(rows) == 1 + -(-players // groups)  # the header and every seat: no clipping
        text = "\n".join(rows)
        view = session.view()
        for sv in view.seats:  # every seat with its card count, in words a person reads
            name = session.names[sv.seat] if groups == 1 else session.short_name(sv.seat)
            assert re.search(rf"{re.escape(name)}(?!\w).*\b{sv.hand_size}\b", text), name
        assert "…" not in text.replace("… thinking", "")  # nothing cut short
        hand = app.query_one("#hand", OptionList)
        assert hand.size.height >= min(7, len(view.hand or ())), "the hand keeps its rows"


@pytest.mark.asyncio
async def test_the_scoring_of_many_seats_scrolls_and_keeps_its_keys_in_sight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    session = Session("standard", 15, 8, options={"max_players": 15}, bots=["basic"],
                      human=False)
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ScoreScreen), limit=60)
        await settle(pilot)
        text = screen_text(app)
        assert "Game over" in text and "r: play again · q: quit" in text  # 500 reached
        scroll = app.screen.query_one("#score-scroll", VerticalScroll)
        assert scroll.max_scroll_y > 0 and app.screen.focused is scroll
        await pilot.press("end")
        await settle(pilot)
        assert scroll.scroll_y > 0 and "P14 (casual bot)" in screen_text(app)  # a bot's level


def test_before_a_deal_the_last_hands_cards_are_not_shown_as_anyones() -> None:
    from hotdeath.tui.app import not_dealt

    session = Session("hotdeath", 3, 3, bots=["basic"], human=False)
    assert not_dealt(session.view())  # the first dealer chooses: nothing on the table
    deals: list[tuple[int, bool, bool]] = []
    while len(deals) < 2 and not session.over():
        view = session.view()
        if view.phase == "deal":
            deals.append((view.hand_no, not_dealt(view), view.top >= 0))
        move = session.next_bot_move()
        assert move is not None
        session.apply(*move)
        if not deals or session.view().phase != "deal":
            assert not not_dealt(session.view())
    # hand 2's deal: the last hand's discard and hands are still there, not dealt to anyone
    assert deals[1] == (2, True, True)
    # a Throwdown dealer choosing the direction has dealt already
    td = get_variant("throwdown").new_game(3, 1, None, {"initial_direction": 0})
    assert td.view(0).phase == "deal" and not not_dealt(td.view(0))


def test_rule_text_follows_the_theme() -> None:
    from hotdeath.cards import RET, parse_card
    from hotdeath.rulebook import get_rule

    text = get_rule(card_rule_id("hotdeath", RET)).text
    assert "Retaliation" in text
    original = themed(text, "original")
    assert "Retaliation" not in original and "Fuck You" in original
    assert "originally" not in original
    assert card_rule_id("standard", parse_card("R7")) == "STD-5.1"
    assert card_rule_id("cutthroat", parse_card("WD4")) == "CT-4.3"
    # a variant given by its alias (hotdeath play -v ct) cites its own rules, not Uno's
    assert card_rule_id("ct", parse_card("WD4")) == "CT-4.3"
    session = Session("td", 2, 1, bots=["basic"])
    assert session.variant_name == "throwdown"
    assert {e.rule_id.split("-")[0] for e in session.help_entries()} == {"TD"}
    # a Hot Death window's challenge says what is challenged (the 69's 6/9 play)
    hd = Session("hotdeath", 3, 1, bots=["basic"])
    words = hd.action_words(A.Action.parse("challenge 2"))
    assert "P2 (casual bot)'s 6/9 play" in words and "HD-3.11.1" in words


def test_bad_bot_spec_and_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        Session("standard", 3, 1, bots=["genius"])
    from hotdeath.errors import HotDeathError

    with pytest.raises(HotDeathError) as err:
        Session("nonsense", 3, 1)
    assert err.value.code == "unknown_variant"


# ---------------------------------------------------------------------------- a real terminal

TMUX = shutil.which("tmux")


def test_hotdeath_play_in_tmux_to_the_end_of_a_hand(tmp_path: Path) -> None:
    if TMUX is None:
        missing("tmux", "the terminal game in a real terminal")
    sock = f"hotdeath-test-{os.getpid()}"
    script = Path(sys.executable).parent / "hotdeath"  # the installed command
    command = str(script) if script.exists() else f"{sys.executable} -m hotdeath.cli"
    env_file = tmp_path / "run.sh"
    save = tmp_path / "game.json"
    env_file.write_text(
        "#!/bin/sh\n"
        f"export PYTHONPATH={ROOT / 'src'}\nexport TERM=xterm-256color\n"
        f"export XDG_DATA_HOME={tmp_path}\n"
        f"exec {command} play --variant cutthroat --players 2 "
        f"--seed 3 --bot basic --delay 0 --save {save}\n",
        encoding="utf-8",
    )
    env_file.chmod(0o755)

    def tmux(*args: str) -> str:
        return subprocess.run([TMUX, "-L", sock, *args], capture_output=True, text=True,
                              check=False).stdout

    tmux("new-session", "-d", "-s", "game", "-x", "110", "-y", "34", str(env_file))
    tmux("set-option", "-t", "game", "remain-on-exit", "on")  # a crash's traceback stays
    try:
        screen = acted_on = ""
        acted_at = 0.0
        deadline = time.monotonic() + ceiling(120)  # generous: CI machines can be busy
        seen_hand = False
        while time.monotonic() < deadline:
            time.sleep(0.25)
            screen = tmux("capture-pane", "-p", "-t", "game")
            if "Game over" in screen or "Traceback" in screen:
                break
            if "Your hand:" in screen:
                seen_hand = True
            if screen == acted_on and time.monotonic() < acted_at + 5:
                continue  # the keys sent for this screen may not be handled yet
            keys: list[str] = []
            if "Name a colour" in screen or "Choose" in screen:
                keys = ["Enter"]
            elif "Your turn" in screen:
                # play the first marked card, or draw (or take the attack)
                keys = ["a"] if "accept the attack" in screen else ["d"]
                if "│● [" in screen:
                    lines = [ln for ln in screen.splitlines() if "│● [" in ln or "│  [" in ln]
                    first = next((i for i, ln in enumerate(lines) if "│● [" in ln), 0)
                    keys = ["Home", *["Down"] * first, "Enter"]
            elif "[space] let it go" in screen:
                keys = ["Space"]
            if keys:
                tmux("send-keys", "-t", "game", *keys)
                acted_on, acted_at = screen, time.monotonic()
        assert seen_hand, screen
        assert "Game over" in screen, screen
        assert "Winner:" in screen and "P0 (you)" in screen
        tmux("send-keys", "-t", "game", "q")
        for _ in range(50):
            time.sleep(0.1)
            if save.exists():
                break
        rec = json.loads(save.read_text(encoding="utf-8"))
        assert rec["variant"] == "cutthroat" and rec["seed"] == 3
        assert replay(rec).is_terminal()
    finally:
        tmux("kill-server")


# ---------------------------------------------------------------------------- the command


def test_play_falls_back_to_the_line_game_without_a_terminal(tmp_path: Path) -> None:
    save = tmp_path / "watched.json"
    result = CliRunner().invoke(cli, ["play", "--variant", "cutthroat", "--players", "2",
                                      "--seed", "5", "--watch", "--delay", "0",
                                      "--bots", "random", "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output  # the Rich game: output is not a terminal
    assert replay(json.loads(save.read_text(encoding="utf-8"))).is_terminal()
    bad = CliRunner().invoke(cli, ["play", "--bots", "genius"])
    assert bad.exit_code == 2
    assert "bad_bot" in bad.output and "basic" in bad.output
    for url, code in (("nowhere", "bad_url"), ("http://127.0.0.1:9/t/abc", "no_terminal")):
        refused = CliRunner().invoke(cli, ["play", "--connect", url])
        assert refused.exit_code == 2 and code in refused.output


# ---------------------------------------------------------------------------- a server table


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A ``hotdeath serve`` subprocess on a free port; yields its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "hotdeath.cli", "serve", "--port", str(port),
         "--database-url", f"sqlite:///{tmp_path / 'tables.sqlite3'}", "--bot-delay", "0"],
        stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ceiling(30)
        while True:
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            try:
                api(base, "/api/variants")
                break
            except ConnectError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


@pytest.mark.asyncio
async def test_connect_takes_a_seat_at_a_server_table(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    created = api(server, "/api/tables", {"variant": "cutthroat", "seats": 2,
                                          "bots": {"1": "basic"}})
    table_id = created["table_id"]
    session = RemoteSession.connect(f"{server}/t/{table_id}", "Ann")
    api(server, f"/api/tables/{table_id}/start", {}, token=created["host_token"])
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        # A Cutthroat game is one hand, but its length varies widely (two `basic` players:
        # a median of 36 moves, 1 game in 100 over 160), so the ceiling is on waiting for
        # the game's next version, not on the whole game.
        version, deadline = session.version, time.monotonic() + ceiling(60)
        whole = time.monotonic() + ceiling(900)  # and a game that moves but never ends
        while not isinstance(app.screen, ScoreScreen):
            if session.version != version:
                version, deadline = session.version, time.monotonic() + ceiling(60)
            assert time.monotonic() < min(deadline, whole), (
                f"no new version after {version} for {ceiling(60):.0f} s, or no end in "
                f"{ceiling(900):.0f} s: my_turn={session.my_turn()} "
                f"waiting={session.waiting} screen={app.screen!r}")
            await pilot.pause(0.02)
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")
            elif session.my_turn() and not session.waiting:
                assert "Your turn" in screen_text(app)
                first = check_hand_marks(app)
                kinds = {a.kind for a in session.legal()}
                if first >= 0:
                    await pilot.press("home", *["down"] * first, "enter")
                else:
                    await pilot.press("d" if A.DRAW in kinds else "o", "enter")
        assert isinstance(app.screen, ScoreScreen) and app.screen.result.game_over
        text = screen_text(app)
        assert "P0 Ann (you)" in text and "Game over" in text
        assert f"table {table_id}" in app.sub_title
        saved = list(tmp_path.rglob(f"{table_id}-*.json"))
        assert len(saved) == 1
        assert replay(json.loads(saved[0].read_text(encoding="utf-8"))).is_terminal()


def test_table_links_are_read_and_bad_ones_refused() -> None:
    assert parse_table_url("http://h:8000/t/abc?seat=1") == ("http://h:8000", "abc", None, 1)
    assert parse_table_url("ws://h:8000/ws/abc") == ("http://h:8000", "abc", None, None)
    assert parse_table_url("https://h/t/x?token=T")[2] == "T"
    for bad in ("h:8000/t/abc", "http://h:8000/lobby"):
        with pytest.raises(ConnectError) as err:
            parse_table_url(bad)
        assert err.value.code == "bad_url"
    with pytest.raises(ConnectError) as err:
        api("http://127.0.0.1:9", "/api/variants")
    assert err.value.code == "connect_failed"


@pytest.mark.asyncio
async def test_ctrl_q_mid_game_asks_and_can_save_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    app = make_app("standard", 4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if not app.session.state.history:
            await pilot.press("d")
            await settle(pilot)
        assert app.session.state.history and not app.session.over()
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.prompt_title == HotDeathApp.QUIT_TITLE
        assert "Save the record and quit" in screen_text(app)
        await pilot.press("n")  # go on playing
        await settle(pilot)
        assert app.is_running and not isinstance(app.screen, ChoiceScreen)
        moves = len(app.session.state.history)
        await pilot.press("ctrl+q")
        await settle(pilot)
        await pilot.press("s")  # save and quit
        await settle(pilot)
    assert not app.is_running
    saved = list(tmp_path.rglob("*.json"))
    assert len(saved) == 1
    rec = json.loads(saved[0].read_text(encoding="utf-8"))
    assert len(rec["actions"]) >= moves
    assert to_position(replay(rec)) == to_position(app.session.state)


@pytest.mark.asyncio
@pytest.mark.parametrize(("variant", "players", "hands", "title", "shown"), [
    ("standard", 3, [["R1"], ["R9", "B5"], ["WD4"]], "End of hand 1",
     ["P0 (you) went out and wins the hand", "P1 (casual bot)'s cards +14", "+50",
      "cards count for P0 (you)", "64"]),
    ("hotdeath", 3, [["R1"], ["RET", "R5"], ["G2"]], "End of hand 1",
     ["went out", "cards in hand +5", "Retaliation doubles +5", "10"]),
    ("cutthroat", 3, [["R1"], ["R9", "B5"], ["G2", "G3"]], "Game over",
     ["No points are counted", "P0 (you) wins the game (a player went out)",
      "Final standings", "Winner: P0 (you)"]),
    ("throwdown", 2, [["R1"], ["G2", "B3"]], "Game over",
     ["Loser: P1 (casual bot)", "Final standings", "Winner: P0 (you)"]),
])
async def test_the_end_screens_show_the_common_result(
    variant: str, players: int, hands: list[list[str]], title: str, shown: list[str],
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every variant's end of hand and game, from the common result (hotdeath.words)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    session, app = app_at(variant, players, "R7", hands)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"play R1", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ScoreScreen), limit=30)
        await settle(pilot)
        text = " ".join(screen_text(app).split())
        assert title in text
        for words in shown:
            assert words in text, (words, text)
        sheet = session.results[-1]
        last = session.view().last_hand
        assert last is not None and sheet.hand_no == last.hand
        assert len(sheet.rows) == len(last.seats)  # a row per seat where the hand is scored
        assert "=" not in " ".join(sheet.notes), "no raw option ids"


@pytest.mark.asyncio
@pytest.mark.rule("TD-1.6", "seed 004", "the winner deals the next game")
async def test_play_again_is_dealt_by_the_winner_in_throwdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next game of the terminal game gets its dealer from ``next_game_dealer()``."""
    from hotdeath.notation import from_position

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    session = Session("throwdown", 2, 1, bots=["basic"])
    # the bot P1 goes out with its last card: with two players that ends the game (TD-6.5)
    session.state = from_position({"variant": "throwdown", "players": 2, "seed": 1,
                                   "turn": 1, "top": "R7", "hands": [["G2", "B3"], ["R1"]]})
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ScoreScreen), limit=30)
        await settle(pilot)
        assert session.state.is_terminal() and session.state.winners == [1]
        await pilot.press("r")
        await settle(pilot)
        new = app.session
        assert new is not session and new.seed == 2
        assert new.state.dealer == 1 and new.state.init_params == {"dealer": 1}
        # the dealer, the bot P1, chooses the direction first (TD-1.5)
        seat, first = new.state.history[0]
        assert seat == 1 and first.kind == A.DIRECTION
