"""One input policy for every text a person gives: the same rules in REST and the terminal.

Names with NUL, ESC, C1 controls, direction overrides or invisible characters were taken
as they came (an RTL override reversed every log line naming the player; PostgreSQL could
not store the NUL).  Now :func:`hotdeath.text.clean_text` refuses them with ``bad_name``.
"""

from __future__ import annotations

import json
import unicodedata
import warnings
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotdeath.errors import TextError
from hotdeath.server import create_app
from hotdeath.text import BLANKS, KINDS, MAX_MARKS, clean_text, shown, visible

with warnings.catch_warnings():  # starlette warns about its httpx transport on import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

HOSTILE = {
    "nul": "Eve\u0000",
    "esc": "Eve\u001b[2J",
    "del": "Eve\u007f",
    "c1": "Eve\u0085",
    "newline": "Eve\nAdmin",
    "rtl override": "Mallory\u202egnp.exe",
    "rtl isolate": "\u2067Mallory",
    "rtl mark": "Eve\u200f",
    "zero width space": "E\u200bve",
    "word joiner": "Eve\u2060",
    "bom": "\ufeffEve",
    "soft hyphen": "Ev\u00ade",
    "line separator": "Eve\u2028Bob",
    "tag": "Eve\U000e0041",
    "lone surrogate": "Eve\ud800",
    "private use": "Eve\ue000",
    "joiner alone": "E\u200dve",
    "zalgo": "x" + "\u0301" * (MAX_MARKS + 1),
    "empty": "   ",
    "too long": "x" * 41,
    # issue 23 N4: names that look blank, or hold something that looks like nothing
    "hangul filler": "\u3164",
    "hangul fillers": "\u3164\u3164\u3164",
    "choseong filler": "\u115f",
    "jungseong filler": "\u1160",
    "halfwidth hangul filler": "\uffa0",
    "braille blank": "\u2800",
    "braille blank among spaces": " \u2800 \u2800 ",
    "filler beside a name": "Ann\u3164",
    "marks only": "\u0301\u0302",
    "variation selector only": "\ufe0f",
    "grapheme joiner only": "\u034f",
    "ideographic space only": "\u3000",
    "zero width only": "\u200b\u200c",
}
FINE = {
    "Ann": "Ann",
    "  Ann   Lee  ": "Ann Lee",
    "Jose\u0301": "José",  # decomposed: kept as one character (NFC)
    "李小龙": "李小龙",
    "سارة": "سارة",  # right-to-left letters are fine; only the direction controls are not
    "\U0001f468\u200d\U0001f469\u200d\U0001f467": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "é" * 40: "é" * 40,  # the limit counts characters, not bytes
    "e\u0301" * 40: "é" * 40,  # …after NFC
    "\u2764\ufe0f": "\u2764\ufe0f",  # an emoji with its variation selector
    "\ud55c\uad6d": "\ud55c\uad6d",  # Hangul syllables are letters, not fillers
}
REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


@pytest.mark.parametrize("name", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_names_are_refused_with_bad_name(name: str) -> None:
    with pytest.raises(TextError) as e:
        clean_text(name, "name")
    assert e.value.code == "bad_name"


@pytest.mark.parametrize(("given_", "kept"), list(FINE.items()))
def test_fine_names_are_kept_normalised(given_: str, kept: str) -> None:
    assert clean_text(given_, "name") == kept


def test_each_kind_has_its_code_and_limit() -> None:
    assert clean_text("", "table_name") == ""
    with pytest.raises(TextError, match="at most 80"):
        clean_text("t" * 81, "table_name")
    with pytest.raises(TextError) as e:
        clean_text("hi\u202e", "chat")
    assert e.value.code == "bad_chat"
    assert clean_text("c" * KINDS["chat"].max_chars, "chat")
    with pytest.raises(TextError):
        clean_text(None, "name")


@given(st.text(max_size=60), st.sampled_from(sorted(KINDS)))
def test_any_text_is_refused_with_a_code_or_kept_clean(text: str, kind: str) -> None:
    try:
        out = clean_text(text, kind)
    except TextError as e:
        code = e.code
    else:
        code = ""
    if code:
        assert code == KINDS[kind].code
        return
    assert out == unicodedata.normalize("NFC", out) and out == out.strip()
    assert len(out) <= KINDS[kind].max_chars and (out or KINDS[kind].may_be_empty)
    assert not [c for c in out if unicodedata.category(c) in REFUSED and c != "\u200d"]
    assert shown(out, 1000) == out  # what is kept shows as it is
    assert not out or any(visible(c) for c in out)  # and shows something
    assert not KINDS[kind].no_blanks or not BLANKS & set(out)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, rate_limit=(1e9, 1e9))) as c:
        yield c


def test_rest_refuses_hostile_names_and_changes_nothing(client: TestClient) -> None:
    t = client.post("/api/tables", json={"variant": "standard", "seats": 2}).json()
    tid = t["table_id"]
    before = client.get(f"/api/tables/{tid}").json()
    for name in HOSTILE.values():  # as JSON escapes (a lone surrogate is no UTF-8)
        r = client.post(f"/api/tables/{tid}/join", content=json.dumps({"name": name}),
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "bad_name", (name, r.text)
    assert client.get(f"/api/tables/{tid}").json() == before
    for name in ("Mallory\u202e", "T\u0000", "t" * 81):
        r = client.post("/api/tables", json={"variant": "standard", "seats": 2, "name": name})
        assert r.status_code == 400 and r.json()["code"] == "bad_name", (name, r.text)
    ok = client.post(f"/api/tables/{tid}/join", json={"name": "Jose\u0301"}).json()
    assert ok["table"]["seats"][ok["seat"]]["name"] == "José"
    named = client.post("/api/tables", json={"variant": "standard", "seats": 2,
                                             "name": "  Friday   night "}).json()
    assert named["table"]["name"] == "Friday night"


def test_chat_may_draw_with_braille_but_not_be_blank() -> None:
    assert clean_text("\u2801\u2800\u2803", "chat") == "\u2801\u2800\u2803"
    for blank in ("\u2800", "\u3164 \u2800", "\u0301"):
        with pytest.raises(TextError) as e:
            clean_text(blank, "chat")
        assert e.value.code == "bad_chat" and "visible" in e.value.message
    with pytest.raises(TextError) as e:
        clean_text("\u3164", "table_name")
    assert e.value.code == "bad_name"


def test_names_at_a_table_are_unique_by_nfkc_and_case(client: TestClient) -> None:
    """Issue 23 N4: ``ANN``, ``ann`` and fullwidth ``Ａｎｎ`` beside ``Ann`` were taken."""
    t = client.post("/api/tables", json={"variant": "standard", "seats": 4}).json()
    tid = t["table_id"]
    ann = client.post(f"/api/tables/{tid}/join", json={"name": "Ann"})
    assert ann.status_code == 200, ann.text
    before = client.get(f"/api/tables/{tid}").json()
    for clash in ("Ann", "ANN", "ann", "\uff21\uff4e\uff4e", " ann "):
        r = client.post(f"/api/tables/{tid}/join", json={"name": clash})
        assert r.status_code == 409, (clash, r.text)
        assert r.json()["code"] == "name_taken" and "seat 0" in r.json()["message"]
        assert "'Ann'" in r.json()["message"]
    assert client.get(f"/api/tables/{tid}").json() == before  # nothing changed
    r = client.post(f"/api/tables/{tid}/join", json={"name": "\u3164"})
    assert r.status_code == 400 and r.json()["code"] == "bad_name"
    bo = client.post(f"/api/tables/{tid}/join", json={"name": "Anna"})
    assert bo.status_code == 200 and bo.json()["seat"] == 1
    client.post(f"/api/tables/{tid}/bots", json={"seat": 2, "bot": "basic"},
                headers={"X-Token": t["host_token"]})
    bot_name = client.get(f"/api/tables/{tid}").json()["seats"][2]["name"]
    r = client.post(f"/api/tables/{tid}/join", json={"name": bot_name.upper()})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"  # nor a bot's name


def test_the_terminal_client_applies_the_same_policy() -> None:
    from typer.testing import CliRunner

    from hotdeath.cli import app
    from hotdeath.tui.remote import RemoteSession

    with pytest.raises(TextError) as e:  # refused before any request (nothing listens here)
        RemoteSession.connect("http://127.0.0.1:9/t/abc", "Eve\u001b[31m")
    assert e.value.code == "bad_name"
    result = CliRunner().invoke(
        app, ["play", "--connect", "http://127.0.0.1:9/t/abc", "--name", "Mallory\u202e"]
    )
    assert result.exit_code == 2 and "bad_name" in result.output, result.output
    assert shown("Eve\u001b[2J\u202e") == "Eve\ufffd[2J\ufffd"
