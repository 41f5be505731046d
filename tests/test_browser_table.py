"""The table a group of friends sits at, in Chromium against a real server subprocess.

House rules in people's words (and only what changed is sent), card help, chat, the turn
timer, public tables, the phone layout and reduced motion.  One server and one browser
serve the whole module; screenshots go to ``artifacts/screenshots/table/``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hotdeath.cards import QUIT
from tests.support import ceiling
from tests.test_browser import (
    SHOTS,
    Player,
    Server,
    _create_in_lobby,
    _player,
    _settled,
    _until_my_turn,
    _wait_for,
    browser,
)

__all__ = ["browser"]  # the module's browser fixture, shared with test_browser's helpers

TABLE_SHOTS = SHOTS / "table"
VARIANTS = ("hotdeath", "standard", "cutthroat", "throwdown")

try:
    from playwright.sync_api import Browser, Page
except ImportError:  # pragma: no cover - the test extra installs it
    Browser = Page = Any  # type: ignore[misc,assignment]


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


# --------------------------------------------------------------------------- card help


def _table_with_bots(
    server: Server, variant: str = "hotdeath", seats: int = 4, **extra: Any
) -> tuple[str, str, str]:
    """A table with Ann in seat 0 and bots elsewhere: (table id, host token, Ann's token)."""
    made = server.api("/api/tables", {
        "variant": variant, "seats": seats,
        "bots": {str(s): "basic" for s in range(1, seats)}, **extra,
    })
    joined = server.api(f"/api/tables/{made['table_id']}/join", {"name": "Ann", "seat": 0})
    return made["table_id"], made["host_token"], joined["token"]


def _sit(p: Player, server: Server, table: str, token: str, host: str | None = None) -> None:
    page = p.page
    page.goto(server.base + "/")
    if host is not None:
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"hotdeath.host.{table}", host])
    page.goto(f"{server.base}/t/{table}?token={token}")
    page.wait_for_selector("body[data-connected='1']")


def test_card_help_for_a_card_in_hand_on_the_pile_and_the_rules_page(
    browser: Browser, server: Server
) -> None:
    table, host, token = _table_with_bots(
        server, options={"shitter_last_card_needs_match": True}, theme="original"
    )
    ann = _player(browser)
    _sit(ann, server, table, token)
    server.api(f"/api/tables/{table}/start", {}, token=host)
    page = ann.page
    # on Ann's turn the table waits for her, so her hand stays as it is. On the way she
    # may choose the deal size (HD-3.2) or name a first wild's colour (HD-3.3), and a
    # hand that goes on without her (she was ejected before her turn) is scored and the
    # next one dealt
    _until_my_turn(ann, timeout=60)
    helps = server.api("/api/rules/hotdeath?theme=original")["cards"]
    # hover a card of the hand (playable or not): its rule, from the server, original names
    card = page.locator("#hand .card").first
    code = card.get_attribute("data-code")
    assert code is not None
    card.hover()
    box = page.locator("#card-help:not(.hidden)")
    box.wait_for()
    assert box.get_attribute("data-code") == code
    assert helps[code]["text"] in box.inner_text()
    assert helps[code]["rule"] in box.inner_text()
    page.screenshot(path=str(TABLE_SHOTS / "card_help.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#card-help.hidden", state="attached")
    page.mouse.move(2, 2)
    # the top of the pile, by the H key with nothing focused
    page.evaluate("document.activeElement && document.activeElement.blur()")
    top = page.locator("#discard [data-help-card]").last.get_attribute("data-help-card")
    assert top is not None
    page.keyboard.press("h")
    page.wait_for_selector(f"#card-help:not(.hidden)[data-code='{top}']")
    assert helps[top]["title"] in page.locator("#card-help").inner_text()
    page.keyboard.press("h")
    page.wait_for_selector("#card-help.hidden", state="attached")
    # the original names: no family name of a renamed card in the help
    assert "Big Brother" not in json.dumps(helps) and "Shitter" in json.dumps(helps)
    # the rules page of the table: the variant's rules with this table's house rule marked
    href = page.get_attribute("#rules-link", "href")
    assert href == f"/rules/hotdeath?table={table}"
    rules = browser.new_context().new_page()
    rules.goto(server.base + href)
    marked = rules.locator("article.rule.changed")
    assert marked.count() == 1
    assert marked.get_attribute("data-rule") == "HD-2.3.24"
    assert "Shitter as the last card: yes" in marked.inner_text()
    assert rules.locator("article.rule").count() > 50
    assert "shitter_last_card_needs_match" not in rules.locator("body").inner_text()
    rules.screenshot(path=str(TABLE_SHOTS / "rules_page.png"))
    rules.context.close()
    ann.close()


def test_an_attack_with_nothing_to_draw_reads_as_its_words_alone(
    browser: Browser, server: Server
) -> None:
    """An ejection (HD-2.3.15) has no count of cards: the banner shows its sentence and
    details, and no stray word (it once showed "ejectionnull").

    The ejection is put into the server's state messages on their way to the page
    (Playwright's WebSocket route), so the test does not wait for a Quitter to be played.
    """
    from hotdeath.pending import Ejection
    from hotdeath.words import pending_words

    table, host, token = _table_with_bots(server, bot_delay=10)  # the bots wait
    ejection = Ejection(victim=1, sender=2, last_card=QUIT)
    said: list[Any] = []

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "state":
                msg["view"]["attack"] = ejection.to_json()
                words = pending_words(ejection, msg["names"])
                assert words is not None
                msg["attack_words"] = words.to_json()
                said.append(words)
            ws.send(json.dumps(msg))

        to_server.on_message(from_server)

    ann = _player(browser)
    ann.page.route_web_socket(re.compile(r"/ws/"), route)
    _sit(ann, server, table, token)
    server.api(f"/api/tables/{table}/start", {}, token=host)
    banner = ann.page.locator("#attack:not(.hidden)")
    banner.wait_for()
    words = said[-1]
    assert words.count is None and words.details
    _wait_for(lambda: banner.inner_text() == f"⚠ {words.text} · {' · '.join(words.details)}",
              f"the banner reads {banner.inner_text()!r}")
    assert "null" not in banner.inner_text()
    ann.page.screenshot(path=str(TABLE_SHOTS / "attack_without_count.png"))
    ann.close()


# --------------------------------------------------------------------------- chat


def _name_a_first_colour(page: Page) -> None:
    """Answer the chooser a page opens by itself when its seat plays first after a wild
    up-card (STD-3): it lies over the table until then. The page opens it in the same
    render that shows the game, so a page showing the game and no chooser has none."""
    choice = page.locator('[data-dialog="chooser"] [data-choice]')
    deadline = time.monotonic() + ceiling(30)
    while choice.count():
        assert time.monotonic() < deadline, "the chooser stayed open"
        choice.first.click()
        page.wait_for_selector('[data-dialog="chooser"]', state="detached",
                               timeout=ceiling(15) * 1000)


def test_chat_between_two_people_shows_html_as_text(browser: Browser, server: Server) -> None:
    made = server.api("/api/tables", {"variant": "standard", "seats": 3,
                                      "bots": {"2": "basic"}})
    table = made["table_id"]
    tokens = [server.api(f"/api/tables/{table}/join", {"name": n, "seat": s})["token"]
              for s, n in ((0, "Ann"), (1, "Bob"))]
    ann, bob = _player(browser), _player(browser)
    _sit(ann, server, table, tokens[0], made["host_token"])
    _sit(bob, server, table, tokens[1])
    # in the waiting room already
    bob.page.fill("#chat-input", "hello before we start")
    bob.page.click("#chat-send")
    ann.page.locator("#waiting-chat .chat-line").wait_for()
    assert "hello before we start" in ann.page.inner_text("#waiting-chat")
    server.api(f"/api/tables/{table}/start", {}, token=made["host_token"])
    for p in (ann, bob):
        p.page.wait_for_selector("#game:not(.hidden)")
    for p in (ann, bob):  # a wild turned up for Ann or Bob to play first: name its colour
        _name_a_first_colour(p.page)
    payload = '<img src=x onerror="window.__owned=1"><script>window.__owned=2</script>hi'
    ann.page.click("#tab-chat")
    ann.page.fill("#chat-input", payload)
    ann.page.click("#chat-send")
    bob.page.click("#tab-chat")
    line = bob.page.locator("#chat-log .chat-line .text").last
    line.wait_for()
    _wait_for(lambda: line.inner_text() == payload, "the chat line did not arrive as text")
    for p in (ann, bob):  # shown as text: no element made from it, no script run
        assert p.page.locator("#chat-log img, #chat-log script").count() == 0
        assert p.page.evaluate("window.__owned") is None
    bob.page.click('[data-reaction="gg"]')
    ann.page.locator("#chat-log .chat-line.reaction").wait_for()
    assert "Good game!" in ann.page.locator("#chat-log").inner_text()
    # Ann mutes Bob: his lines say "(muted)" in her browser only
    ann.page.locator("#chat-log .chat-line.reaction .who").click()
    assert ann.page.locator("#chat-log .chat-line.muted").count() == 2  # both of Bob's lines
    assert bob.page.locator("#chat-log .chat-line.muted").count() == 0
    ann.page.screenshot(path=str(TABLE_SHOTS / "chat.png"))
    # the host removes Bob mid-game: a bot takes his seat, Bob watches on
    ann.page.once("dialog", lambda d: d.accept())
    ann.page.click('#opponents [data-kick="1"]')
    bob.page.wait_for_selector("#spectator-note")
    seat = server.api(f"/api/tables/{table}")["seats"][1]
    assert seat["kind"] == "bot" and seat["name"] == "Bo — casual bot"
    ann.close()
    bob.close()


# --------------------------------------------------------------------------- the timer


def test_a_turn_timer_running_out_moves_for_the_absent_seat(
    browser: Browser, server: Server
) -> None:
    made = server.api("/api/tables", {"variant": "standard", "seats": 2, "turn_timer": 15,
                                      "takeover_timeout": None})
    table = made["table_id"]
    ann_token = server.api(f"/api/tables/{table}/join", {"name": "Ann", "seat": 0})["token"]
    server.api(f"/api/tables/{table}/join", {"name": "Bob", "seat": 1})  # never comes
    ann = _player(browser)
    _sit(ann, server, table, ann_token)
    server.api(f"/api/tables/{table}/start", {}, token=made["host_token"])
    page = ann.page
    page.wait_for_selector("body[data-version]")
    deadline = time.monotonic() + ceiling(60)
    while page.evaluate("document.body.dataset.turn") != "1":  # play until it is Bob's turn
        assert time.monotonic() < deadline, "it never became Bob's turn"
        if not ann.step():
            time.sleep(0.1)
    ring = page.locator('#opponents .seat[data-seat="1"] .clock-ring')
    ring.wait_for()
    assert 0 < int(ring.inner_text()) <= 15
    page.screenshot(path=str(TABLE_SHOTS / "turn_timer.png"))
    version = ann.version()

    def moved() -> bool:
        page.wait_for_timeout(50)  # Playwright delivers the frames while it is called
        return any(f["version"] > version and f.get("auto") and f["last_action"]["seat"] == 1
                   for f in ann.states())

    _wait_for(moved, "the timer made no move for Bob", timeout=30)
    # marked for people: a line in the log above the move, and on Bob's seat
    mark = page.locator("#log li.auto-mark").last
    mark.wait_for()
    assert mark.inner_text() == "Time ran out: a bot played for Bob"
    assert mark.get_attribute("data-auto") == "timer"
    # on his seat until Bob moves by himself (he never comes here)
    tag = page.locator('#opponents .seat[data-seat="1"] .tag.auto')
    tag.wait_for()
    assert tag.get_attribute("title") == "Time ran out: a bot played for Bob"
    assert tag.inner_text().lower() == "time ran out: bot played"
    page.screenshot(path=str(TABLE_SHOTS / "turn_timer_mark.png"))
    ann.close()


# --------------------------------------------------------------------------- public tables


def test_a_public_table_appears_in_another_lobby(browser: Browser, server: Server) -> None:
    ann = _player(browser)
    page = ann.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Ann")
    page.fill("#table-name", "Ann's public table")
    page.select_option("#variant", "cutthroat")
    page.eval_on_selector(
        "#seats", "(n) => { n.value = '3'; n.dispatchEvent(new Event('input')); }"
    )
    page.select_option('#seat-list select[data-seat="1"]', "open")
    page.check("#public")
    page.click("#create-btn")
    page.wait_for_selector("#waiting:not(.hidden)")
    table = page.url.split("/t/")[1].split("?")[0]
    bob = _player(browser)
    bob.page.goto(server.base + "/")
    bob.page.wait_for_selector("body[data-ready='1']")
    row = bob.page.locator(f'.open-table[data-table="{table}"]')
    assert row.count() == 1
    text = row.inner_text()
    assert "Ann's public table" in text and "1 of 3 seats free" in text
    assert "Cutthroat" in text and "No house rules changed" in text
    bob.page.screenshot(path=str(TABLE_SHOTS / "lobby_open_tables.png"), full_page=True)
    row.locator("a").click()
    bob.page.wait_for_selector("#join-name")
    ann.close()
    bob.close()


# --------------------------------------------------------------------------- phone, motion


def test_a_phone_with_six_seats_keeps_the_hand_in_view_on_your_turn(
    browser: Browser, server: Server
) -> None:
    table, host, token = _table_with_bots(server, "hotdeath", seats=6)
    phone = Player(browser.new_context(viewport={"width": 390, "height": 844},
                                       is_mobile=True, has_touch=True))
    _sit(phone, server, table, token)
    server.api(f"/api/tables/{table}/start", {}, token=host)
    _until_my_turn(phone, timeout=40)
    page = phone.page
    page.evaluate("window.scrollTo(0, 0)")  # instant: the page scrolls without smoothing
    _settled(page)  # the hand's cards have flown in
    box = page.locator("#hand").bounding_box()
    card = page.locator("#hand .card").first.bounding_box()
    assert box is not None and card is not None
    assert card["y"] >= 0 and card["y"] + card["height"] * 0.6 <= 844, card  # in view
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(TABLE_SHOTS / "phone_six_seats.png"))
    phone.close()


def test_reduced_motion_moves_nothing(browser: Browser, server: Server) -> None:
    flights = {}
    for reduce in (False, True):
        table, host, token = _table_with_bots(server, "standard", seats=3, bot_delay=0.3)
        p = Player(browser.new_context(viewport={"width": 1360, "height": 900},
                                       reduced_motion="reduce" if reduce else "no-preference"))
        _sit(p, server, table, token)
        server.api(f"/api/tables/{table}/start", {}, token=host)
        p.page.wait_for_selector("body[data-version]")
        deadline = time.monotonic() + ceiling(40)
        while p.version() < 6:  # a few moves: Ann's (clicked) and the bots'
            assert time.monotonic() < deadline, "the game did not move"
            if not p.step():
                time.sleep(0.05)
        flights[reduce] = int(p.page.evaluate("document.body.dataset.flights || '0'"))
        if not reduce:
            # a sound was made for a move (Web Audio), and the one mute is remembered
            assert p.page.evaluate("document.body.dataset.lastSound") in (
                "turn", "card", "attack", "uno", "hand")
            while p.page.locator('[data-dialog="chooser"]').count():  # Ann's wild: a colour
                assert time.monotonic() < deadline, "the chooser stayed open"
                if not p.step():
                    time.sleep(0.05)
            p.page.click("#sound-btn")
            p.page.reload()
            p.page.wait_for_selector("body[data-connected='1']")
            assert p.page.inner_text("#sound-btn") == "Sound off"
            assert p.page.evaluate("localStorage.getItem('hotdeath.sound')") == "off"
        if reduce:
            # and the CSS stops every animation: the attack pulse and the pile's top card
            name = p.page.evaluate(
                "getComputedStyle(document.querySelector('#discard img:last-child'))"
                ".animationName")
            assert name == "none"
        p.close()
    assert flights[False] > 0 and flights[True] == 0, flights


def test_card_help_never_opens_over_a_dialog(browser: Browser, server: Server) -> None:
    table, host, token = _table_with_bots(server, "standard", seats=2, bot_delay=5)
    ann = _player(browser)
    _sit(ann, server, table, token)
    server.api(f"/api/tables/{table}/start", {}, token=host)
    page = ann.page
    page.wait_for_selector("#hand .card")
    while page.locator('[data-dialog="chooser"] [data-choice]').count():  # a first wild
        page.locator('[data-dialog="chooser"] [data-choice]').first.click()
    checks = int(page.evaluate("document.body.dataset.hovers || '0'"))
    # the pointer rests on a card, and a dialog opens before its help would show
    page.locator("#hand .card").first.hover()
    page.evaluate("document.getElementById('share-btn').click()")
    page.wait_for_selector('[data-dialog="share"]')
    _wait_for(lambda: int(page.evaluate("document.body.dataset.hovers || '0'")) > checks,
              "the hover was never looked at")
    assert page.locator("#card-help:not(.hidden)").count() == 0
    # and a help already open closes when a dialog opens
    page.click('[data-dialog="share"] .footer button')
    page.wait_for_selector('[data-dialog="share"]', state="detached")
    page.mouse.move(2, 2)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("h")
    page.wait_for_selector("#card-help:not(.hidden)")
    page.evaluate("document.getElementById('share-btn').click()")
    page.wait_for_selector('[data-dialog="share"]')
    assert page.locator("#card-help:not(.hidden)").count() == 0
    ann.close()
