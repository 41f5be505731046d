"""The terminal game: a scripted person plays whole games against bots."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from hotdeath.bots import make_bot
from hotdeath.bots.simple import BasicBot, RandomBot
from hotdeath.notation import replay, to_position
from hotdeath.play import play


def _scripted(answers: list[str]) -> tuple[Console, io.StringIO, list[str]]:
    buf = io.StringIO()
    return Console(file=buf, width=120, color_system=None), buf, answers


@pytest.mark.parametrize("variant", ["standard", "hotdeath"])
def test_a_person_plays_a_whole_game_by_number(variant: str, tmp_path: Path) -> None:
    console, buf, _ = _scripted([])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        text = buf.getvalue()
        # out-of-turn offers may be let go with Enter; otherwise take option 1
        return "" if text.rstrip().endswith("(Enter to let it go)") else "1"

    save = tmp_path / "game.json"
    state = play(variant, players=3, seed=11, delay=0, console=console, ask=ask, save=save)
    out = buf.getvalue()
    assert state.is_terminal()
    assert prompts, "the person was asked for moves"
    assert "Your hand:" in out and "Your options:" in out
    assert "Game over" in out and "scores" in out
    rec = json.loads(save.read_text(encoding="utf-8"))
    assert to_position(replay(rec)) == to_position(state)


def test_typed_notation_and_bad_input_are_handled() -> None:
    console, buf, _ = _scripted([])
    answers = iter(["nonsense", "play Z9", "q"])
    state = play("standard", players=2, seed=3, delay=0, console=console,
                 ask=lambda _p: next(answers))
    out = buf.getvalue()
    assert "unknown action" in out or "not legal" in out
    assert "Stopped." in out
    assert not state.is_terminal()


def test_bots_only_see_their_view_and_choose_legal_actions() -> None:
    import random

    import hotdeath

    for bot in (RandomBot(), BasicBot()):
        g = hotdeath.new_game("hotdeath", players=4, seed=2)
        rng = random.Random(0)
        for _ in range(300):
            if g.is_terminal():
                break
            seat = g.current_player()
            view = g.view(seat)
            action = bot.choose(view, rng)
            assert action in view.legal_actions
            g.apply_action(action, seat)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius")


def test_the_help_cites_the_variants_own_rules() -> None:
    # the help texts come from the variant (its kit): Cutthroat's number cards are CT-3.1,
    # never standard's STD-5.1 (issue 12), and the engine's play events cite the same rule
    from hotdeath.play import TerminalGame
    from tests.support import position

    g = position(variant="cutthroat", players=2, turn=0, top="R3",
                 hands=[["R5", "G7"], ["B1", "B2"]])
    console, buf, _ = _scripted([])
    TerminalGame(g, {1: RandomBot()}, 0, console=console)._help(g.view(0))
    out = buf.getvalue()
    assert "(CT-3.1)" in out and "STD-5.1" not in out
    events = g.apply_action("play R5")
    assert [e.rule for e in events if e.kind == "play"] == ["CT-3.1"]
