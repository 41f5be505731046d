"""The coach in the full-screen terminal game: the hint key, its moves, playing one."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from hotdeath.actions import Action
from hotdeath.events import Event
from hotdeath.tui.app import ChoiceScreen, HelpScreen, HotDeathApp, ScoreScreen
from hotdeath.tui.remote import RemoteSession, api
from tests.support import ceiling
from tests.test_tui import (
    SIZE,
    app_at,
    make_app,
    play_hand,
    screen_text,
    server,
    settle,
)

__all__ = ["server"]  # the hotdeath serve fixture of the terminal tests, used by name


async def _hint(app: HotDeathApp, pilot: Pilot[None]) -> ChoiceScreen:
    await pilot.press("t")
    deadline = time.monotonic() + ceiling(30)
    while not isinstance(app.screen, ChoiceScreen):
        assert time.monotonic() < deadline, "the coach never answered"
        await pilot.pause(0.02)
    await settle(pilot)
    return app.screen


@pytest.mark.asyncio
async def test_the_hint_key_shows_the_coachs_moves_and_plays_the_chosen_one(
        tmp_path: Path) -> None:
    session, app = app_at("hotdeath", 3, "R5",
                          [["R7", "G5", "B2", "RET"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]])
    app.hint_seconds = 0.05
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.check_action("hint", ()) is True
        legal = set(session.legal())
        screen = await _hint(app, pilot)
        assert screen.prompt_title == "The coach would play"
        lines = [str(label) for label in screen.labels]
        assert 1 <= len(lines) <= 3 and lines[0].startswith("Best: ")
        text = screen_text(app)
        assert "wins the hand" in text and "From what you can see only" in text
        assert "Retaliation" in text  # the card kept for later, by its name
        assert session.hints == [[0, 1]]
        best = app.session.view().legal_actions
        assert legal == set(best)
        before = len(session.state.history)
        await pilot.press("enter")  # the best move
        await settle(pilot)
        assert len(session.state.history) > before
        seat, played = session.state.history[before]
        assert seat == 0 and played in legal
        assert lines[0].startswith(f"Best: {session.action_words(played)}")
        path = session.save(tmp_path / "game.json")
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert rec["hints"] == [[0, 1]] and rec["people"] == [0]
    assert rec["names"][0] == "P0 (you)"


@pytest.mark.asyncio
async def test_no_hint_when_it_is_not_the_persons_turn() -> None:
    session, app = app_at("standard", 2, "R5", [["R7", "G5"], ["Y1", "Y2"]])
    app.hint_seconds = 0.05
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session.state.turn = 1  # the bot's turn (the app is not asked to move it)
        session.state._ver += 1
        assert app.check_action("hint", ()) is False
        await pilot.press("t")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, ChoiceScreen)
        assert session.hints == []


@pytest.mark.asyncio
async def test_the_score_screen_offers_the_coachs_review_of_the_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    app = make_app("standard", 4)
    app.review_seconds = 0.02
    async with app.run_test(size=SIZE) as pilot:
        score = await play_hand(app, pilot, {})
        assert "v: the coach's review of your moves" in screen_text(app)
        hand = score.result.hand_no
        await pilot.press("v")
        deadline = time.monotonic() + ceiling(60)
        while not isinstance(app.screen, HelpScreen):
            assert time.monotonic() < deadline, "the review never came"
            await pilot.pause(0.02)
        await settle(pilot)
        text = screen_text(app)
        assert f"Hand {hand}: the coach's review" in text
        assert f"Hand {hand}, P0 (you):" in text
        assert "No mistake worth naming." in text or "Biggest mistakes:" in text
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ScoreScreen)  # back to the scores


@pytest.mark.asyncio
async def test_the_hint_key_asks_the_servers_coach_at_a_server_table(
        server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a server table the server's coach answers (hints are on at a table with bots)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    created = api(server, "/api/tables", {"variant": "standard", "seats": 2,
                                          "bots": {"1": "basic"}})
    table_id = created["table_id"]
    session = RemoteSession.connect(f"{server}/t/{table_id}", "Ann")
    assert session.hints_on
    sent: list[Action] = []
    play = session.play

    def recorded(action: Action) -> list[Event]:
        sent.append(action)
        return play(action)

    monkeypatch.setattr(session, "play", recorded)
    api(server, f"/api/tables/{table_id}/start", {}, token=created["host_token"])
    app = HotDeathApp(session, delay=0.0, window_seconds=0.0)
    async with app.run_test(size=SIZE) as pilot:
        deadline = time.monotonic() + ceiling(60)
        while not app.check_action("hint", ()) or len(session.legal()) < 2:
            assert time.monotonic() < deadline, "no turn with a choice came"
            await pilot.pause(0.02)
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")
            elif session.my_turn() and not session.waiting and len(session.legal()) == 1:
                await pilot.press("o", "enter")  # the one move (the server waits for it)
        legal = set(session.legal())
        screen = await _hint(app, pilot)
        assert screen.prompt_title == "The coach would play"
        lines = [str(label) for label in screen.labels]
        assert 1 <= len(lines) <= 3 and lines[0].startswith("Best: ")
        assert "1 hint used" in screen_text(app)  # the server's count of the seat's hints
        version = session.version
        await pilot.press("enter")  # the best move
        while session.version == version:
            assert time.monotonic() < deadline, "the coach's move was not played"
            await pilot.pause(0.02)
        assert sent and sent[-1] in legal
        assert lines[0].startswith(f"Best: {session.action_words(sent[-1])}")
