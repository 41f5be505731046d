"""The table a group of friends sits at, in Chromium against a real server subprocess.

House rules in people's words (and only what changed is sent), card help, chat, the turn
timer, public tables, the phone layout and reduced motion.  One server and one browser
serve the whole module; screenshots go to ``artifacts/screenshots/table/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.test_browser import (
    SHOTS,
    Player,
    Server,
    _create_in_lobby,
    _player,
    browser,
)

__all__ = ["browser"]  # the module's browser fixture, shared with test_browser's helpers

TABLE_SHOTS = SHOTS / "table"
VARIANTS = ("hotdeath", "standard", "cutthroat", "throwdown")

try:
    from playwright.sync_api import Browser
except ImportError:  # pragma: no cover - the test extra installs it
    Browser = Any  # type: ignore[misc,assignment]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("table") / "games.sqlite3")
    srv.start()
    TABLE_SHOTS.mkdir(parents=True, exist_ok=True)
    yield srv
    srv.stop()


def _record_creates(p: Player) -> list[dict[str, Any]]:
    """The bodies of the page's ``POST /api/tables`` requests, as they are sent."""
    sent: list[dict[str, Any]] = []

    def seen(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/api/tables"):
            sent.append(json.loads(request.post_data or "{}"))

    p.page.on("request", seen)
    return sent


# --------------------------------------------------------------------------- house rules


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_lobby_sends_only_changed_house_rules(
    browser: Browser, server: Server, variant: str
) -> None:
    ann = _player(browser)
    sent = _record_creates(ann)
    page = ann.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#variant", variant)
    page.click("#options-box summary")
    # people's words: titles and values, never an option id, a spec or a preset id
    shown = page.locator("#create").inner_text()
    catalog = server.api("/api/variants")
    v = next(x for x in catalog["variants"] if x["name"] == variant)
    for opt in v["options"]:
        if "_" in opt["name"]:  # an identifier (a one-word name such as "deck" is a word)
            assert opt["name"] not in shown, opt["name"]
    for preset in v["presets"]:
        if "_" in preset:
            assert preset not in shown
    assert page.locator("#changed-count").inner_text() == "0"
    if variant == "hotdeath":
        page.screenshot(path=str(TABLE_SHOTS / "lobby_house_rules.png"), full_page=True)
    table = _create_in_lobby(ann, server, variant, seats=3, name="Ann", goto=False)
    assert sent and sent[-1]["options"] == {}, sent
    summary = server.api(f"/api/tables/{table}")
    assert summary["options"] == {} and summary["house_rules"] == []
    assert "no house rules changed" in page.locator("#waiting-rules").inner_text()
    ann.close()


def test_a_changed_integer_choice_is_sent_typed_and_told_in_words(
    browser: Browser, server: Server
) -> None:
    ann = _player(browser)
    sent = _record_creates(ann)
    page = ann.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#variant", "standard")
    page.click("#options-box summary")
    page.select_option("#opt-initial_direction", label="Counter-clockwise")
    assert page.locator("#changed-count").inner_text() == "1"
    page.select_option("#opt-initial_direction", label="Clockwise")  # back: no change
    assert page.locator("#changed-count").inner_text() == "0"
    page.select_option("#opt-initial_direction", label="Counter-clockwise")
    page.fill("#name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector("#waiting:not(.hidden)")
    table = page.url.split("/t/")[1].split("?")[0]
    assert sent[-1]["options"] == {"initial_direction": -1}
    rules = page.locator("#waiting-rules").inner_text()
    assert "First direction: Counter-clockwise" in rules
    assert "initial_direction" not in rules
    assert server.api(f"/api/tables/{table}")["options"] == {"initial_direction": -1}
    ann.close()
