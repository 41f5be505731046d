"""Outside bots: the JSON-lines protocol, the example bot, and every way a bot can fail."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

import hotdeath
from hotdeath.bots import bot_catalog, make_bot
from hotdeath.bots.arena import play_game
from hotdeath.bots.external import ExternalBot, ExternalBotError
from hotdeath.simulate import SimConfig, SimulationError, simulate

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "random_bot.py"
PY = sys.executable

# A bot that misbehaves once, in the way its first argument names, then plays the first
# legal action; it logs every message it receives to the file named by its second.
FAULTY = r'''
import json, sys, time
mode, log = sys.argv[1], open(sys.argv[2], "a")
requests = 0
for line in sys.stdin:
    msg = json.loads(line)
    log.write(msg["type"] + "\n"); log.flush()
    if msg["type"] == "hello":
        if mode == "mute":
            time.sleep(30)
        print(json.dumps({"type": "hello", "protocol": 1, "name": "faulty-" + mode,
                          "events": mode == "events"}), flush=True)
    elif msg["type"] == "request":
        requests += 1
        first = msg["legal"][0] if msg["kind"] == "turn" else None
        answer = {"type": "action", "id": msg["id"], "action": first}
        if requests == 1 and msg["kind"] == "turn":
            if mode == "badjson":
                print("this is not json", flush=True)
                continue
            if mode == "illegal":
                answer["action"] = "play R7" if "play R7" not in msg["legal"] else "challenge 9"
            if mode == "notation":
                answer["action"] = "dance"
            if mode == "slow":
                time.sleep(1.5)
        if mode == "crash" and requests == 3:
            print("out of memory, giving up", file=sys.stderr, flush=True)
            sys.exit(3)
        print(json.dumps({"type": "log", "message": "thinking"}), flush=True)
        print(json.dumps(answer), flush=True)
    elif msg["type"] == "quit":
        break
'''


@pytest.fixture
def faulty(tmp_path: Path) -> Path:
    script = tmp_path / "faulty_bot.py"
    script.write_text(FAULTY, encoding="utf-8")
    return script


def spec_for(script: Path, *args: str, timeout: float = 5.0, on_error: str = "fallback") -> str:
    return (f"external:cmd={shlex.join([PY, str(script), *args])},timeout={timeout},"
            f"on_error={on_error}")


def test_external_is_in_the_catalog() -> None:
    info = {b.name: b for b in bot_catalog()}["external"]
    assert [p.name for p in info.params] == ["cmd", "timeout", "on_error"]


def test_example_bot_plays_a_full_game_through_the_protocol() -> None:
    bot = make_bot(f"external:{PY} {EXAMPLE}")
    assert isinstance(bot, ExternalBot)
    moves: list[int] = []
    with bot:
        game = hotdeath.new_game("hotdeath", players=4, seed=21)
        play_game(game, [bot, make_bot("basic"), make_bot("basic"), make_bot("random")],
                  on_move=lambda seat, action: moves.append(seat))
        assert game.is_terminal() and game.winners
        assert bot.name == "external:example-random" and bot.info["protocol"] == 1
        assert bot.errors == []
        assert moves.count(0) > 10


def test_example_bot_in_a_simulation_is_reproducible() -> None:
    cfg = SimConfig.make("standard", players=3, bots=[f"external:{PY} {EXAMPLE}", "basic"],
                         seed=4)
    first, again = simulate(cfg, 3), simulate(cfg, 3)
    assert first == again
    assert all(not g["unfinished"] and "bot_errors" not in g for g in first)


def test_the_host_sends_hello_new_game_requests_game_over_and_quit(
    faulty: Path, tmp_path: Path
) -> None:
    log = tmp_path / "log.txt"
    cfg = SimConfig.make("standard", players=2, bots=[spec_for(faulty, "events", str(log)),
                                                      "basic"], seed=1, rotate=False)
    (rec,) = simulate(cfg, 1)
    assert "bot_errors" not in rec and not rec["unfinished"]
    seen = log.read_text(encoding="utf-8").split()
    assert seen[:2] == ["hello", "new_game"]
    assert seen[-2:] == ["game_over", "quit"]
    assert "request" in seen and "event" in seen  # it asked for events in its hello


@pytest.mark.parametrize(
    ("mode", "code"),
    [("badjson", "bad_json"), ("illegal", "illegal_action"), ("notation", "bad_action"),
     ("slow", "timeout"), ("crash", "crashed")],
)
def test_a_faulty_bot_gets_an_error_and_the_game_goes_on(
    faulty: Path, tmp_path: Path, mode: str, code: str, caplog: pytest.LogCaptureFixture
) -> None:
    log = tmp_path / "log.txt"
    bot = make_bot(spec_for(faulty, mode, str(log), timeout=0.5))
    assert isinstance(bot, ExternalBot)
    with bot:
        game = hotdeath.new_game("standard", players=2, seed=5)
        play_game(game, [bot, make_bot("basic")])
        assert game.is_terminal()
        codes = [e.code for e in bot.errors]
        if mode == "slow":  # its late answer makes the next request late too: both time out
            assert codes[0] == code and set(codes) == {code} and len(codes) <= 3
        else:
            assert codes == [code]
    assert f"[{code}]" in caplog.text
    if mode == "crash":
        assert "status 3" in bot.errors[0].message and "out of memory" in bot.errors[0].message
    else:
        assert "error" in log.read_text(encoding="utf-8").split()  # the bot was told


def test_errors_are_counted_in_simulation_records(faulty: Path, tmp_path: Path) -> None:
    cfg = SimConfig.make("standard", players=2, bots=[spec_for(faulty, "illegal",
                                                               str(tmp_path / "l")), "basic"],
                         seed=2, rotate=False)
    records = simulate(cfg, 2)
    # One process serves both games; it misbehaves on its first request only.
    assert [r.get("bot_errors") for r in records] == [{"0": 1}, None]


def test_on_error_raise_stops_the_game(faulty: Path, tmp_path: Path) -> None:
    bot = make_bot(spec_for(faulty, "illegal", str(tmp_path / "l"), on_error="raise"))
    with bot:  # type: ignore[attr-defined]
        game = hotdeath.new_game("standard", players=2, seed=5)
        with pytest.raises(ExternalBotError, match="not legal now") as e:
            play_game(game, [bot, make_bot("basic")])
    assert e.value.code == "illegal_action"


def test_a_bot_that_never_says_hello_fails_to_start(faulty: Path, tmp_path: Path) -> None:
    bot = ExternalBot([PY, str(faulty), "mute", str(tmp_path / "l")], start_timeout=0.5)
    with pytest.raises(ExternalBotError, match="did not shake hands") as e:
        bot.start()
    assert e.value.code == "bot_start_failed"
    bot.close()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("external", "external needs a command"),
        ("external:./no-such-bot-here", "command not found"),
        ("external:cmd=x,on_error=ignore", "on_error must be one of"),
    ],
)
def test_bad_external_specs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)
    with pytest.raises(SimulationError, match=message):
        SimConfig.make("standard", bots=[spec])


def test_the_protocol_document_shows_every_message() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "bot-protocol.md").read_text(
        encoding="utf-8")
    for kind in ("hello", "new_game", "request", "action", "event", "game_over", "quit",
                 "error", "log"):
        assert f'"type": "{kind}"' in doc, kind
    for block in doc.split("```json")[1:]:
        for line in block.split("```")[0].strip().splitlines():
            json.loads(line)  # every example is one valid JSON line
