"""The coach in the browser: the lobby's hints setting, the Hint button and key, the hint's
moves with reasons, playing the coach's move (Chromium against a real server subprocess).

Screenshots go to ``artifacts/screenshots/coach/``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest

from tests.support import CARD_CODES as CODES
from tests.support import ceiling
from tests.test_browser import (
    SHOTS,
    Player,
    Server,
    _create_in_lobby,
    _diagnose,
    _play_until_over,
    _player,
    _settled,
    _start,
    _until_my_turn,
    _wait_for,
    browser,
)

__all__ = ["browser"]  # the module's browser fixture, shared with test_browser's helpers

COACH_SHOTS = SHOTS / "coach"

try:
    from playwright.sync_api import Browser
except ImportError:  # pragma: no cover - the test extra installs it
    Browser = Any  # type: ignore[misc,assignment]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("coach") / "games.sqlite3")
    srv.start()
    COACH_SHOTS.mkdir(parents=True, exist_ok=True)
    yield srv
    srv.stop()


def test_a_person_asks_for_a_hint_reads_it_and_plays_the_coachs_move(
        browser: Browser, server: Server) -> None:
    p = _player(browser)
    page = p.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    labels = page.eval_on_selector_all("#hints option", "os => os.map(o => o.textContent)")
    assert labels == ["on when a seat is a bot", "on for everyone", "off"]
    tid = _create_in_lobby(p, server, "hotdeath", 4, goto=False)
    assert "hints from the coach on" in (page.text_content("#waiting-rules") or "")
    assert server.api(f"/api/tables/{tid}")["hints"] is True
    _start(p)
    _until_my_turn(p, cards=True)
    page.wait_for_selector("#hint-btn:not([disabled])")
    before = p.version()
    page.keyboard.press("t")  # the key, as the button says
    try:
        page.wait_for_selector("#hint-box", timeout=ceiling(20) * 1000)
    except Exception as e:  # pragma: no cover - a failure message with the page's state
        raise AssertionError(f"no hint shown: {_diagnose(p)}") from e
    assert p.version() == before  # asking changes nothing at the table
    _settled(page)
    page.screenshot(path=str(COACH_SHOTS / "hint.png"), full_page=True)
    rows = page.locator("#hint-box li")
    assert 1 <= rows.count() <= 3
    text = page.text_content("#hint-box") or ""
    assert "The coach would play:" in text and "1 hint used this game" in text
    assert "%" in text and " — " in text
    assert not CODES.search(text), CODES.search(text)  # card names, never codes
    hint = next(f for f in p.frames if f.get("type") == "hint")
    legal = set(p.legal())
    moves = [m["action"] for m in hint["hint"]["moves"]]
    assert moves and set(moves) <= legal
    assert page.get_attribute("#hint-box li.best", "data-move") == moves[0]
    # playing the coach's move from the hint
    page.click(f'#hint-box li.best [data-play-hint="{moves[0]}"]')
    _wait_for(lambda: p.version() > before, "the coach's move to be played", timeout=30)
    deadline = time.monotonic() + ceiling(10)
    while True:
        done = [s for s in p.states() if s["version"] == before + 1]
        if done or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert done and done[0]["last_action"]["action"] == moves[0]
    assert done[0]["last_action"]["seat"] == 0
    page.wait_for_selector("#hint-box", state="detached")  # the game moved on: it is gone
    p.close()


def test_no_hint_button_at_a_table_of_people_only(browser: Browser, server: Server) -> None:
    created = server.api("/api/tables", {"variant": "standard", "seats": 2})
    assert created["table"]["hints"] is False
    p = _player(browser)
    p.page.goto(server.base + f"/t/{created['table_id']}")
    p.page.fill("#join-name", "Ann")
    p.page.click("#join-btn")
    p.page.wait_for_selector("#waiting:not(.hidden)")
    assert "hints from the coach off" in (p.page.text_content("#waiting-rules") or "")
    assert p.page.locator("#hint-btn").count() == 0
    p.close()


def test_game_over_tells_the_hints_used_and_the_review_of_the_hand(
        browser: Browser, server: Server) -> None:
    made = server.api("/api/tables", {
        "variant": "standard", "seats": 2, "bots": {"1": "basic"}, "options": {"rounds": 1},
        "bot_delay": 0,
    })
    table = made["table_id"]
    joined = server.api(f"/api/tables/{table}/join", {"name": "Ann", "seat": 0})
    ann = _player(browser)
    page = ann.page
    page.goto(server.base + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"hotdeath.host.{table}", made["host_token"]])
    page.goto(f"{server.base}/t/{table}?token={joined['token']}")
    page.wait_for_selector("#waiting:not(.hidden)")
    _start(ann)
    _until_my_turn(ann)
    page.wait_for_selector("#hint-btn:not([disabled])")
    page.click("#hint-btn")
    try:
        page.wait_for_selector("#hint-box", timeout=ceiling(20) * 1000)
    except Exception as e:  # pragma: no cover - a failure message with the page's state
        raise AssertionError(f"no hint shown: {_diagnose(ann)}") from e
    _play_until_over(ann)
    over = page.locator('[data-dialog="over"]')
    over.locator("#hints-line").wait_for()
    assert over.locator("#hints-line").inner_text() == "Ann used 1 hint."
    page.click('[data-dialog="over"] #review-btn')
    try:
        page.wait_for_selector("#review-headline", timeout=ceiling(60) * 1000)
    except Exception as e:  # pragma: no cover - a failure message with the page's state
        raise AssertionError(f"no review: {page.inner_text('#review-body')}") from e
    headline = page.inner_text("#review-headline")
    assert headline.startswith("Hand 1, Ann:"), headline
    rows = page.locator(".review-moves li")
    assert rows.count() >= 1
    text = page.inner_text("#review-body")
    assert not CODES.search(text), CODES.search(text)
    assert page.locator("#review-mistakes").count() == 1
    _settled(page)
    page.screenshot(path=str(COACH_SHOTS / "review.png"), full_page=True)
    # the replay tells it too
    page.goto(f"{server.base}/replay/{page.get_attribute('body', 'data-game')}")
    page.wait_for_selector("#hints-line:not(.hidden)")
    assert page.inner_text("#hints-line") == "Ann used 1 hint."
    ann.close()


def _moved_on(p: Player, version: int) -> bool:
    return p.version() > version


class QuickCoachServer(Server):
    """A server whose coach thinks 0.05 s a hint: few sampled deals, so the expert's move
    it keeps (``pick=sure``) often shows a lower figure than another move."""

    def command(self) -> list[str]:
        return [*super().command(), "--max-bot-seconds", "0.05"]


def test_a_hint_whose_move_shows_a_lower_figure_says_why_on_screen(
        browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> None:
    srv = QuickCoachServer(tmp_path_factory.mktemp("quick-coach") / "games.sqlite3")
    srv.start()
    p = _player(browser)
    page = p.page
    try:
        _create_in_lobby(p, srv, "hotdeath", 4)
        _start(p)
        for _ in range(60):  # a hint of several moves differs from its figures about half the time
            _until_my_turn(p, timeout=60, cards=True)
            if len(p.legal()) < 2:
                p.step()
                continue
            page.wait_for_selector("#hint-btn:not([disabled])")
            asked = len(p.frames)
            before = p.version()
            page.click("#hint-btn")
            try:
                page.wait_for_selector("#hint-box", timeout=ceiling(30) * 1000)
            except Exception as e:  # pragma: no cover - a failure message with the page's state
                raise AssertionError(f"no hint shown: {_diagnose(p)}") from e
            hint = next(f for f in p.frames[asked:] if f.get("type") == "hint")["hint"]
            moves = hint["moves"]
            figures = [round(100 * m["value"]) for m in moves if m["value"] is not None]
            if len(figures) == len(moves) >= 2 and max(figures[1:]) > figures[0]:
                rival = max(moves[1:], key=lambda m: m["value"])
                assert hint["why"].startswith(f"Why not {rival['words']}? It shows "), hint
                assert page.inner_text("#hint-why") == hint["why"]
                assert not CODES.search(hint["why"])
                page.screenshot(path=str(COACH_SHOTS / "hint-why.png"), full_page=True)
                break
            assert hint["why"] == "" and page.locator("#hint-why").count() == 0, hint
            page.click(f'#hint-box li.best [data-play-hint="{moves[0]["action"]}"]')
            _wait_for(partial(_moved_on, p, before), "the coach's move to be played", timeout=30)
        else:
            raise AssertionError("no hint kept a move with a lower figure in 60 turns")
    finally:
        p.close()
        srv.stop()
