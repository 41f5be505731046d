"""The end of a hand and of a game in the browser, for every variant (Playwright, Chromium).

A person plays at a real ``hotdeath serve`` subprocess against bots until the game is over;
the dialogs render from the common result shape (``view.last_hand``, ``view.game_result``)
and the server's words for them (``msg.results``): winner, order out, loser, points with
their reasons where the variant scores, the final standings in the order of the variant's
goal, rematch and the replay link, for the player and for a spectator.  Screenshots go to
``artifacts/screenshots/`` (or ``$HOTDEATH_SHOTS``).
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support import ceiling
from tests.test_browser import (  # the fixtures and helpers of the browser tests
    ROOT,
    Player,
    Server,
    _click,
    _player,
    _settled,
    browser,
    server,
    visible_point,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser", "server"]  # fixtures used by name below

SHOTS = Path(os.environ.get("HOTDEATH_SHOTS", ROOT / "artifacts" / "screenshots"))
CALM = ("draw", "pass", "accept", "question", "direction", "decline")
"""Buttons a test player presses (never a catch or a leave: those cost or end a seat)."""


@pytest.fixture(scope="module", autouse=True)
def _shots() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)


def calm_step(p: Player) -> bool:
    """One legal thing a careful person does: a card, a choice, or draw/pass/accept."""
    page = p.page
    if page.locator("body[data-pending='1'], [data-dialog='over']").count():
        return False
    if page.locator("[data-dialog='score']").count():
        return _click(page.locator("#continue-btn"))
    choice = page.locator('[data-dialog="chooser"] [data-choice]')
    if choice.count():
        return _click(choice.first)
    if page.locator("#throw-btn").count():  # Throwdown: select the cards, then throw them
        colours = {"red", "yellow", "green", "blue"}
        plays = [[t for t in a.split()[1:] if t not in colours and not t.startswith("@")]
                 for a in p.legal() if a.startswith("play ")]
        chosen = page.eval_on_selector_all(
            "#hand .card.selected", "nodes => nodes.map(n => n.dataset.code)")
        if plays:
            plan, have = Counter(plays[0]), Counter(chosen)
            if have == plan:
                if page.locator("#throw-btn:not([disabled])").count():
                    return _click(page.locator("#throw-btn"))
                return False
            if have - plan:  # a card that is not part of the plan: take it back
                code = next(iter(have - plan))
                card = page.locator(f'#hand .card.selected[data-code="{code}"]').first
                return _click(card, visible_point(card))
            code = next(iter(plan - have))
            card = page.locator(f'#hand .card:not(.selected)[data-code="{code}"]').first
            return _click(card, visible_point(card))
    cards = page.locator("#hand .card.legal")
    if cards.count():
        return _click(cards.first, visible_point(cards.first))
    for kind in CALM:
        button = page.locator(f'#actions [data-action^="{kind}"]')
        if button.count():
            return _click(button.first)
    return False


def table_with_bots(server: Server, variant: str, seats: int,
                    options: dict[str, Any] | None = None) -> tuple[str, str, str]:
    """A table with Ann at seat 0 and bots elsewhere; (table id, host token, Ann's token)."""
    made = server.api("/api/tables", {
        "variant": variant, "seats": seats, "bot_delay": 0,
        "bots": {str(s): "basic" for s in range(1, seats)}, "options": options or {},
    })
    table, host = made["table_id"], made["host_token"]
    joined = server.api(f"/api/tables/{table}/join", {"name": "Ann", "seat": 0})
    return table, host, joined["token"]


def play_to_game_over(p: Player, limit: float = 300, shot: str | None = None) -> None:
    """Click until the game-over dialog opens (a hand-over dialog is photographed once).

    The limit is generous: a Throwdown game of three seats runs to 700 moves in one game of
    40 (a median of 260), a quarter of them the person's, each a few clicks.
    """
    page = p.page
    deadline = time.monotonic() + ceiling(limit)
    shot_taken = shot is None
    while not page.locator('[data-dialog="over"]').count():
        if time.monotonic() > deadline:
            page.screenshot(path=str(SHOTS / "stuck.png"))
            raise AssertionError(f"the game did not end: legal {p.legal()}, "
                                 f"{page.locator('#actions').inner_text()!r}")
        if not shot_taken and page.locator('[data-dialog="score"] #hand-headline').count():
            _settled(page)
            page.locator('[data-dialog="score"]').screenshot(path=str(SHOTS / f"{shot}.png"))
            shot_taken = True
        p.idle()
        if not calm_step(p):
            time.sleep(0.05)


def check_game_over(p: Player, game: dict[str, Any], player: bool) -> None:
    """The game-over dialog shows the result of the view, whatever the variant."""
    over = p.page.locator('[data-dialog="over"]')
    over.locator("#standings").wait_for()
    winners = game["winners"]
    line = over.locator("#winner-line").inner_text()
    assert ("Nobody" in line) == (not winners)
    assert over.locator("#game-headline").inner_text().strip()
    rows = over.locator("#standings tbody tr")
    assert rows.count() == len(game["standings"])
    assert [int(rows.nth(i).get_attribute("data-seat") or -1) for i in range(rows.count())] == \
        game["standings"]
    if winners:
        assert "winner" in rows.first.inner_text().lower()
    if game["loser"] is not None:
        assert "loser" in rows.last.inner_text().lower()
        assert "Loser:" in over.inner_text()
    href = over.locator("#replay-link").get_attribute("href")
    assert href == f"/replay/{p.page.get_attribute('body', 'data-game')}"
    assert over.locator("#rematch-btn").count() == (1 if player else 0)
    last = game["last_hand"]
    if last is not None and last["seats"]:
        table = over.locator("#score-table")
        assert table.locator("tbody tr").count() == len(last["seats"])
        whys = table.locator("td.why").all_inner_texts()
        assert whys and all(w.strip() not in ("", "—") for w in whys), "every points' reason"


def last_state(p: Player) -> dict[str, Any]:
    states = p.states()
    assert states, "no state message"
    state: dict[str, Any] = states[-1]
    return state


@pytest.mark.parametrize(("variant", "seats", "options"), [
    ("throwdown", 3, {}),
    ("cutthroat", 3, {}),
    ("standard", 3, {"rounds": 2}),
    ("hotdeath", 3, {"game_end_score": 1}),
])
def test_every_variant_plays_to_game_over_for_player_and_spectator(
    browser: Browser, server: Server, variant: str, seats: int, options: dict[str, Any]
) -> None:
    table, host, token = table_with_bots(server, variant, seats, options)
    ann = _player(browser)
    page = ann.page
    page.goto(server.base + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"hotdeath.host.{table}", host])
    page.goto(f"{server.base}/t/{table}?token={token}")
    page.click("#start-btn")
    page.wait_for_selector("#game:not(.hidden)")
    play_to_game_over(ann, shot=f"{variant}_hand_over")
    msg = last_state(ann)
    game = msg["view"]["game_result"]
    assert game is not None and game["type"] == "game_result"
    assert msg["results"]["game"]["headline"]
    check_game_over(ann, game, player=True)
    _settled(page)
    page.locator('[data-dialog="over"]').screenshot(path=str(SHOTS / f"{variant}_game_over.png"))
    # a spectator sees the same result, without a rematch button
    watcher = _player(browser)
    watcher.page.goto(f"{server.base}/t/{table}?spectate=1")
    watcher.page.wait_for_selector('[data-dialog="over"] #standings')
    check_game_over(watcher, last_state(watcher)["view"]["game_result"], player=False)
    _settled(watcher.page)
    watcher.page.locator('[data-dialog="over"]').screenshot(
        path=str(SHOTS / f"{variant}_game_over_spectator.png"))
    # the replay link opens the finished game's replay
    watcher.page.click('[data-dialog="over"] #replay-link')
    watcher.page.wait_for_selector("body[data-ready='1']")
    watcher.page.keyboard.press("End")
    assert not re.search(r"\b1 (cards|points)\b", watcher.page.locator("body").inner_text())
    assert watcher.page.evaluate(
        "async () => (await import('/static/js/common.js')).plural(1, 'card')") == "1 card"
    watcher.close()
    # rematch: a new game starts at the same table
    first = page.get_attribute("body", "data-game")
    page.click("#rematch-btn")
    page.wait_for_selector(f"body:not([data-game='{first}'])")
    page.wait_for_selector('[data-dialog="over"]', state="detached")
    ann.close()
