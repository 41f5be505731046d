"""Hot Death night in Chromium: the table screen on a TV, phones as hands, marks and reasons.

One server and one browser serve the module.  The table screen (``/t/{table}/screen``) is
checked at 1920×1080 and 1280×720 with ten seats (nothing scrolls); three phones at
390×844 join a table by the code the screen shows and play a Hot Death hand to its
scoring; a Throwdown selection that is no throw shows the engine's reason.  Screenshots go
to ``artifacts/screenshots/room/`` (the screen at both sizes, the phones upright and on
their side).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import ceiling
from tests.test_browser import (
    SHOTS,
    Player,
    Server,
    _click,
    _diagnose,
    _player,
    _settled,
    _wait_for,
    _wait_js,
    browser,
    visible_point,
)
from tests.test_browser_results import CALM, calm_step

__all__ = ["browser"]  # the module's browser fixture, shared with test_browser's helpers

ROOM_SHOTS = SHOTS / "room"
LONG_NAME = "Maximiliana Featherstonehaugh-Wolfeschl"
"""A 39-character name: the longest a score dialog must keep beside Points and Total."""

try:
    from playwright.sync_api import Browser, Locator, Page
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - the test extra installs it
    Browser = Locator = Page = Any  # type: ignore[misc,assignment]
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("room") / "games.sqlite3")
    srv.start()
    ROOM_SHOTS.mkdir(parents=True, exist_ok=True)
    yield srv
    srv.stop()


BUZZ_SPY = "navigator.vibrate = (pattern) => { window.__buzzes = (window.__buzzes || 0) + 1; " \
    "return true; };"
"""Headless Chromium has no motor: the phones count the page's calls to vibrate instead."""


def _phone(browser: Browser) -> Player:
    """A phone upright: 390×844, touch, reduced motion (cards stand still to be tapped)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, reduced_motion="reduce")
    context.add_init_script(BUZZ_SPY)
    return Player(context)


def _screen(browser: Browser, width: int = 1920, height: int = 1080) -> Player:
    return Player(browser.new_context(viewport={"width": width, "height": height},
                                      reduced_motion="reduce"))


NO_SCROLL = """() => {
  const d = document.documentElement;
  const over = [...document.querySelectorAll("body *")].filter((n) => {
    const s = getComputedStyle(n);
    if (s.display === "none" || s.visibility === "hidden" || n.closest(".overlay")) return false;
    const scrolls = (v) => v === "auto" || v === "scroll";
    return (scrolls(s.overflowY) && n.scrollHeight > n.clientHeight + 1)
      || (scrolls(s.overflowX) && n.scrollWidth > n.clientWidth + 1);
  }).map((n) => n.id || n.className);
  return {width: d.scrollWidth, height: d.scrollHeight, inner: [innerWidth, innerHeight],
          bars: over};
}"""


def _no_scrollbars(page: Page) -> None:
    """Nothing on the page scrolls: the page fits the window, no box shows a scrollbar."""
    got = page.evaluate(NO_SCROLL)
    width, height = got["inner"]
    assert got["width"] <= width and got["height"] <= height, got
    assert got["bars"] == [], got


IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].map((n) => {
  const r = n.getBoundingClientRect();
  const x = Math.min(r.right - 3, r.left + r.width * 0.3), y = r.top + Math.min(r.height / 2, 30);
  const hit = document.elementFromPoint(x, y);
  return {inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5
            && r.bottom <= innerHeight + 0.5 && r.width > 0,
          reachable: Boolean(hit && (hit === n || n.contains(hit))),
          hit: hit && !(hit === n || n.contains(hit))
            ? `${hit.tagName}#${hit.id}.${hit.className}` : "",
          width: r.width, code: n.dataset.code || n.dataset.seat || ""};
})"""


def _all_in_view(page: Page, selector: str) -> list[dict[str, Any]]:
    """Every element of ``selector`` lies inside the window and a tap there reaches it.

    Measured once the page's animations have ended (a card dealt or played is moving, on a
    busy machine for longer, and a tap on its way misses it), and again while a new state
    keeps the page moving, up to a ceiling: a layout that stays wrong fails.
    """
    deadline = time.monotonic() + ceiling(10)
    while True:  # a bot's move may land between the two looks: look again once it has
        version = page.get_attribute("body", "data-version")
        _settled(page)
        boxes: list[dict[str, Any]] = page.evaluate(IN_VIEW, selector)
        if boxes and all(b["inside"] and b["reachable"] for b in boxes):
            return boxes
        moved = ("body[data-version]" if version is None
                 else f'body:not([data-version="{version}"])')
        left = deadline - time.monotonic()
        try:  # the next state, if one comes before the ceiling
            page.wait_for_selector(moved, state="attached", timeout=max(left, 0.001) * 1000)
        except PlaywrightTimeout:
            break
    page.screenshot(path=str(ROOM_SHOTS / "not_in_view.png"))
    raise AssertionError(f"{selector}: {[b for b in boxes if not b['reachable']] or boxes}")


# --------------------------------------------------------------------------- the screen


def test_the_table_screen_shows_ten_seats_without_scrollbars_at_1920_and_1280(
    browser: Browser, server: Server
) -> None:
    made = server.api("/api/tables", {
        "variant": "hotdeath", "seats": 10, "name": "Friday night", "bot_delay": 1.5,
        "bots": {str(s): "basic" for s in range(1, 10)},
    })
    table, host = made["table_id"], made["host_token"]
    tv = _screen(browser)
    page = tv.page
    page.goto(f"{server.base}/t/{table}/screen")
    # while a seat is open: how to join, the address and its QR code
    page.wait_for_selector("#waiting:not(.hidden) #screen-url")
    _wait_js(page, "document.getElementById('join-qr').naturalWidth > 0")
    join_url = page.evaluate("document.body.dataset.joinUrl")
    assert join_url.startswith(server.base + "/")
    assert page.inner_text("#screen-url") == join_url.removeprefix("http://")
    _no_scrollbars(page)
    page.screenshot(path=str(ROOM_SHOTS / "screen_join_1920x1080.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    _no_scrollbars(page)
    _all_in_view(page, "#join-qr")
    page.screenshot(path=str(ROOM_SHOTS / "screen_join_1280x720.png"))
    # the last seat to a bot; the game starts and the screen shows the table
    server.api(f"/api/tables/{table}/bots", {"seat": 0, "bot": "basic"}, token=host)
    server.api(f"/api/tables/{table}/start", {}, token=host)
    page.wait_for_selector("#game:not(.hidden)")
    _wait_for(lambda: tv.version() >= 3, "the bots did not play", timeout=60)
    for width, height in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        # the piles are sized to the new screen (on its resize event, a frame later)
        _wait_js(page, f"document.body.dataset.fitted === '{width}x{height}'")
        assert page.locator("#opponents .seat").count() == 10
        assert page.locator("#hand, #actions, #me").count() == 0  # no hand: a spectator
        _all_in_view(page, "#opponents .seat")
        _all_in_view(page, "#discard img:last-child")
        _all_in_view(page, "#color-pill")
        _no_scrollbars(page)
        # readable from three metres: the log's letters about 2.4% of the screen's height
        size = float(page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#log li')).fontSize)"))
        assert size >= 0.022 * height, size
        pile = page.locator("#discard img").last.bounding_box()
        assert pile is not None and pile["height"] >= 0.25 * height, pile
        page.screenshot(path=str(ROOM_SHOTS / f"screen_ten_seats_{width}x{height}.png"))
    tv.close()


# --------------------------------------------------------------------------- phones


def _tap(target: Locator) -> bool:
    """Tap ``target`` as a finger does, unless the page changed under us: then False."""
    try:
        target.tap(timeout=3000)
    except PlaywrightTimeout:
        return False
    return True


def _join_by_code(p: Player, server: Server, code: str, name: str) -> None:
    """A person opens the lobby, types the table's code and takes the seat offered."""
    page = p.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#join-link", code.lower())  # people type codes in any case
    page.tap("#join button[type=submit]")  # a finger: no mouse pointer rests on the page
    page.wait_for_selector("#join-name")
    assert "/t/" in page.url and "token" not in page.url  # the code opens the table, no seat
    page.fill("#join-name", name)
    page.tap("#join-btn")
    page.wait_for_selector("body[data-connected='1']")


QUICK_STEP = """(calm) => {
  const busy = document.body.dataset.pending === "1";
  if (busy || document.querySelector("[data-dialog=score]")) return false;
  const choice = document.querySelector('[data-dialog="chooser"] [data-choice]');
  if (choice) { choice.click(); return true; }
  const card = document.querySelector("#hand .card.legal");
  if (card) { card.click(); return true; }
  for (const kind of calm) {
    const button = document.querySelector(`#actions [data-action^="${kind}"]`);
    if (button) { button.click(); return true; }
  }
  return false;
}"""
"""One move a careful player makes, tapped through the page (a chooser's first choice, the
first playable card, else draw, pass, accept…): the page's own handlers, one round trip."""


def _play_to_scoring(phones: list[Player], tv: Player, limit: float = 420) -> None:
    """Every phone plays what it may (a careful player) until each shows the hand's score."""
    deadline = time.monotonic() + ceiling(limit)
    buttons: list[float] = []
    while not all(p.page.locator("[data-dialog='score']").count() for p in phones):
        if time.monotonic() > deadline:
            for i, p in enumerate(phones):
                p.page.screenshot(path=str(ROOM_SHOTS / f"stuck_phone_{i + 1}.png"))
            raise AssertionError(f"the hand did not end: {[_diagnose(p) for p in phones]}")
        moved = False
        for p in phones:
            moved = bool(p.page.evaluate(QUICK_STEP, list(CALM))) or moved
            buttons.extend(p.page.evaluate(BUTTONS))
        if not moved:
            time.sleep(0.05)
    tv.page.wait_for_selector("[data-dialog='score'] #hand-headline")
    # every window and answer came as a big button (a thumb's height)
    assert buttons and min(buttons) >= 48, buttons


STRIP_FITS = """() => {
  const box = document.getElementById("strip-turn").getBoundingClientRect();
  return [...document.querySelectorAll("#strip-turn > span")].every((s) => {
    const r = s.getBoundingClientRect();
    return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
  });
}"""
"""Whether every part of the strip's whose-turn label lies inside the label."""


BUTTONS = """() => [...document.querySelectorAll("#actions .btn")]
  .map((b) => b.getBoundingClientRect().height)"""
"""The heights of the action buttons a phone shows now."""


def test_three_phones_join_by_the_screens_code_and_play_a_hand_to_its_scoring(
    browser: Browser, server: Server
) -> None:
    made = server.api("/api/tables", {"variant": "hotdeath", "seats": 3, "breather": 90,
                                      "name": "Friday night", "takeover_timeout": None})
    table, host = made["table_id"], made["host_token"]
    tv = _screen(browser)
    page = tv.page
    page.goto(server.base + "/")  # the screen's browser opened the table: it holds the host
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"hotdeath.host.{table}", host])
    page.goto(f"{server.base}/t/{table}/screen")
    code = page.locator("#screen-code")
    code.wait_for()
    shown = code.inner_text()
    assert shown == made["table"]["code"] and 4 <= len(shown) <= 5
    names = ["Ann", "Bob", LONG_NAME]
    phones = [_phone(browser) for _ in names]
    for p, name in zip(phones, names, strict=True):
        _join_by_code(p, server, shown, name)
    page.wait_for_selector("#start-btn:not([disabled])")
    assert page.locator(".seat-cfg[data-kind=human]").count() == 3
    page.click("#start-btn")
    page.wait_for_selector("#game:not(.hidden)")
    # the dealer's phone asks how many cards: fifteen. After the deal, an up-card that asks
    # for a colour or a victim is answered by its player (HD-3.3), so that no dialog lies
    # over a hand while it is measured; past that opening no phone opens one by itself
    settled = ("body.hand-mode:not([data-phase='deal']):not([data-phase='choose_color'])"
               ":not([data-phase='choose_victim'])")
    deadline = time.monotonic() + ceiling(60)
    while not (any(p.page.locator("#hand .card").count() >= 15 for p in phones)
               and all(p.page.locator(settled).count() for p in phones)):
        assert time.monotonic() < deadline, "no fifteen-card hand was dealt and played to"
        for p in phones:
            choice = p.page.locator('[data-dialog="chooser"] [data-choice="deal 15"], '
                                    '[data-dialog="chooser"] [data-choice^="color"], '
                                    '[data-dialog="chooser"] [data-choice^="victim"]')
            if choice.count():
                _tap(choice.first)  # a finger: a mouse left there would hover a card
        time.sleep(0.05)
    for p in phones:
        p.page.wait_for_selector("body.hand-mode #hand .card")
    # the whole hand on each phone: every card inside the screen, a tap away, none scrolled
    for i, p in enumerate(phones):
        cards = _all_in_view(p.page, "#hand .card")
        assert len(cards) >= 15 and min(c["width"] for c in cards) >= 46
        _no_scrollbars(p.page)
        # the strip: top card, colour, direction and whose turn, above the hand
        _all_in_view(p.page, "#strip-top img")
        _all_in_view(p.page, "#strip-turn")
        # a long name is cut short, "'s turn" never: every word of the strip in its box
        assert p.page.evaluate(STRIP_FITS), p.page.inner_text("#strip-turn")
        _all_in_view(p.page, "#opponents .seat")  # every other player, no sideways swipe
        assert p.page.locator("#card-help:not(.hidden)").count() == 0  # no help over the hand
        p.page.screenshot(path=str(ROOM_SHOTS / f"phone_{i + 1}_hand_390x844.png"))
    fifteen = next(p for p in phones if p.page.locator("#hand .card").count() == 15)
    fifteen.page.screenshot(path=str(ROOM_SHOTS / "phone_fifteen_cards_390x844.png"))
    # on its side
    upright = fifteen.page.evaluate("document.getElementById('hand').dataset.cols")
    fifteen.page.set_viewport_size({"width": 844, "height": 390})
    _wait_js(fifteen.page, "window.innerWidth === 844")
    # the hand is laid out again for its new space (a ResizeObserver, a frame later)
    _wait_js(fifteen.page, f"document.getElementById('hand').dataset.cols !== '{upright}'")
    cards = _all_in_view(fifteen.page, "#hand .card")
    assert len(cards) == 15
    _no_scrollbars(fifteen.page)
    fifteen.page.screenshot(path=str(ROOM_SHOTS / "phone_fifteen_cards_844x390.png"))
    fifteen.page.set_viewport_size({"width": 390, "height": 844})
    # the whole table is one tap away, and the hand one tap back
    fifteen.page.tap("#view-table")
    fifteen.page.wait_for_selector("body.full-table #discard img")
    _all_in_view(fifteen.page, "#view-hand")
    fifteen.page.screenshot(path=str(ROOM_SHOTS / "phone_full_table_390x844.png"))
    fifteen.page.tap("#view-hand")
    fifteen.page.wait_for_selector("body.hand-mode")
    page.screenshot(path=str(ROOM_SHOTS / "screen_three_phones_1920x1080.png"))
    _no_scrollbars(page)
    # the hand, played to its scoring from the phones; the screen follows
    _play_to_scoring(phones, tv)
    page.screenshot(path=str(ROOM_SHOTS / "screen_scoring_1920x1080.png"))
    # the scores read across the room: the table's letters follow the screen's size
    size = float(page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#score-table td')).fontSize)"))
    assert size >= 0.018 * 1080, size
    # a turn came with a vibration (and a sound) on the phones
    buzzes = [int(p.page.evaluate("window.__buzzes || 0")) for p in phones]
    assert sum(buzzes) > 0, buzzes
    assert {p.page.evaluate("document.body.dataset.lastBuzz") for p in phones} & {
        "turn", "attack"}
    for p in phones:  # a long name never pushes Points and Total out of the dialog
        dialog = p.page.locator("[data-dialog='score'] .dialog").bounding_box()
        assert dialog is not None
        for header in ("Points", "Total"):
            cell = p.page.locator("#score-table th", has_text=header).bounding_box()
            assert cell is not None
            assert cell["x"] + cell["width"] <= dialog["x"] + dialog["width"], header
            fits = p.page.locator("#score-table th", has_text=header).evaluate(
                "(th) => th.scrollWidth <= th.clientWidth")
            assert fits, header  # and its heading fits its column
        _no_scrollbars(p.page)
    assert LONG_NAME in phones[0].page.inner_text("#score-table")
    phones[0].page.screenshot(path=str(ROOM_SHOTS / "phone_scoring_long_name_390x844.png"))
    # the breather: "when you, Bob and … press Next hand", then one fewer
    ann, bob = phones[0].page, phones[1].page
    line = ann.locator("#breather-line")
    _wait_for(lambda: "press Next hand" in line.inner_text(), "no breather line")
    assert line.inner_text().startswith(f"The next hand starts when you, Bob and {LONG_NAME} "
                                        "press Next hand")
    ann.click("#continue-btn")
    bob_line = bob.locator("#breather-line")
    _wait_for(lambda: bob_line.inner_text().startswith(
        f"The next hand starts when you and {LONG_NAME} press Next hand"), "Ann's Next hand")
    for p in (*phones, tv):
        p.close()


# --------------------------------------------------------------------------- reasons


def test_a_throwdown_selection_that_is_no_throw_shows_the_engines_reason(
    browser: Browser, server: Server
) -> None:
    made = server.api("/api/tables", {"variant": "throwdown", "seats": 2, "bot_delay": 0.2,
                                      "bots": {"1": "basic"}})
    table = made["table_id"]
    token = server.api(f"/api/tables/{table}/join", {"name": "Ann", "seat": 0})["token"]
    ann = _player(browser)
    page = ann.page
    page.goto(f"{server.base}/t/{table}?token={token}")
    page.wait_for_selector("body[data-connected='1']")
    server.api(f"/api/tables/{table}/start", {}, token=made["host_token"])
    page.wait_for_selector("body[data-version]")
    deadline = time.monotonic() + ceiling(240)
    while not page.locator("#throw-why").count():
        assert time.monotonic() < deadline, "no selection without a throw came up"
        ann.idle()
        rematch = page.locator('[data-dialog="over"] #rematch-btn')
        if rematch.count():  # the game (the server's deal) ended without one: another game
            _click(rematch)
            continue
        pair = _no_throw(ann)
        if pair is None:
            if not calm_step(ann):
                time.sleep(0.05)
            continue
        for code in pair:  # two playable cards that no order makes a throw
            card = page.locator(f'#hand .card.legal:not(.selected)[data-code="{code}"]').first
            _click(card, visible_point(card))
        page.locator("#throw-why").wait_for()
    why = page.locator("#throw-why")
    checks = [f for f in ann.frames if f.get("type") == "check" and not f["legal"]]
    assert checks, "the page asked the server nothing"
    reason = checks[-1]["reason"]
    assert why.inner_text().startswith(reason[0].upper() + reason[1:])
    assert page.get_attribute("#throw-btn", "disabled") is not None
    assert page.get_attribute("#throw-btn", "title") == reason
    if checks[-1]["rule"]:
        assert why.get_attribute("data-rule") == checks[-1]["rule"]
        assert checks[-1]["rule"] in why.inner_text()
    page.screenshot(path=str(ROOM_SHOTS / "throwdown_reason.png"))
    ann.close()


def _no_throw(p: Player) -> tuple[str, str] | None:
    """On this seat's turn: two playable cards of its hand that no listed play holds
    together (the server lists every play of a Throwdown hand this small), or None."""
    page = p.page
    if not page.evaluate("document.body.dataset.turn === document.body.dataset.seat"):
        return None
    if not page.locator("#throw-btn").count() or page.locator("#hand .card.selected").count():
        return None
    states = p.states()
    if not states or states[-1]["version"] != p.version():
        return None
    plays = [sorted(a["cards"]) for a in states[-1]["actions"] if a["kind"] == "play"]
    playable = sorted({c for cards in plays for c in cards})
    hand = list(states[-1]["view"]["hand"] or [])
    for i, x in enumerate(playable):
        for y in playable[i:]:
            if (x != y or hand.count(x) > 1) and sorted([x, y]) not in plays:
                return x, y
    return None


# --------------------------------------------------------------------------- the lobby


def test_the_lobbys_option_info_names_no_identifier_under_the_family_names(
    browser: Browser, server: Server
) -> None:
    p = _player(browser)
    page = p.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#variant", "hotdeath")
    info = page.locator('[data-option-info="shitter_last_card_needs_match"]')
    family = info.get_attribute("title") or ""
    assert family.startswith("Rule HD-2.3.24. Choices: yes; no")
    assert "shitter" not in family.lower()
    page.click("label:has(input[name=theme][value=original])")
    original = info.get_attribute("title") or ""
    assert original.endswith("Notation: shitter_last_card_needs_match")
    p.close()


def test_a_phone_lays_out_hands_up_to_twenty_cards_without_overlap_and_more_as_a_fan(
    browser: Browser, server: Server
) -> None:
    """The hand's grid (js/handmode.js) at 390×844's hand area, upright and on its side:
    up to 20 cards side by side and at least 46 px wide; beyond, rows overlap (a fan),
    every card still inside the area."""
    p = _phone(browser)
    p.page.goto(server.base + "/")
    p.page.wait_for_selector("body[data-ready='1']")
    layouts = p.page.evaluate("""async () => {
      const { gridFor } = await import("/static/js/handmode.js");
      const out = [];
      for (const [width, height] of [[362, 560], [812, 200]]) {
        for (let n = 1; n <= 40; n += 1) {
          out.push({ n, width, height, ...gridFor(n, width, height) });
        }
      }
      return out;
    }""")
    for g in layouts:
        rows = -(-g["n"] // g["cols"])
        step = g["w"] * 1.5 - g["overlap"]
        assert g["cols"] * g["w"] + (g["cols"] - 1) * 6 <= g["width"] + 0.5, g
        assert (rows - 1) * (step + 6 * (g["overlap"] == 0)) + g["w"] * 1.5 <= g["height"] + 6, g
        if g["n"] <= 20:
            assert g["overlap"] == 0 and g["w"] >= 46, g
    assert any(g["overlap"] > 0 for g in layouts if g["n"] > 20)
    p.close()
