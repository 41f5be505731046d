"""The coach: hints from a seat's view only, and the review of a hand."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import hotdeath
from hotdeath import coach
from hotdeath.bots import make_bot
from hotdeath.cards import RET
from hotdeath.notation import record
from hotdeath.state import GameState
from tests.support import CARD_CODES as CODES
from tests.support import position

NAMES = ["Ann", "Bo", "Cy", "Dot"]


def _played(variant: str, seed: int, moves: int) -> GameState:
    """A game of four expert bots after ``moves`` actions (or where it stopped)."""
    state = hotdeath.new_game(variant, 4, seed)
    bots = [make_bot("heuristic:expert") for _ in range(4)]
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        seat = state.current_player()
        view = state.view(seat)
        choice = bots[seat].choose(view, rng)
        state.step(choice if choice is not None else view.legal_actions[0], seat)
    return state


def _turn(state: GameState, rng: random.Random) -> GameState:
    """Play on with random legal moves until the player to act has several moves."""
    bots = [make_bot("heuristic:expert") for _ in range(state.n)]
    for _ in range(200):
        seat = state.current_player()
        view = state.view(seat)
        if view.phase not in ("deal", "game_over") and len(view.legal_actions) >= 3:
            return state
        choice = bots[seat].choose(view, rng)
        state.step(choice if choice is not None else view.legal_actions[0], seat)
    raise AssertionError("no decision with several moves found")  # pragma: no cover


def _redeal(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position with every card ``seat`` cannot see dealt again.

    The other seats' hidden cards (not the revealed ones) and the draw pile are shuffled
    together and dealt back to the same hand sizes.
    """
    other = state.clone()
    pool: list[int] = []
    keep: dict[int, list[int]] = {}
    for s in range(other.n):
        if s == seat:
            continue
        shown = list(other.revealed[s]) if other.active[s] else []
        hidden = list(other.hands[s])
        for c in shown:
            hidden.remove(c)
        keep[s] = shown
        pool += hidden
    pool += other.draw_pile
    rng.shuffle(pool)
    i = 0
    for s, shown in keep.items():
        k = len(other.hands[s]) - len(shown)
        other.hands[s] = shown + pool[i:i + k]
        i += k
    other.draw_pile = pool[i:]
    other._ver += 1  # drop cached legal actions
    return other


@pytest.mark.parametrize(("variant", "seed", "moves"), [
    ("hotdeath", 3, 12), ("hotdeath", 11, 40), ("standard", 5, 9), ("cutthroat", 2, 15),
])
def test_a_hint_never_uses_a_card_the_seat_cannot_know(variant: str, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    state = _turn(_played(variant, seed, moves), rng)
    seat = state.current_player()
    other = _redeal(state, seat, random.Random(seed + 100))
    hidden = [h for s, h in enumerate(state.hands) if s != seat] + [state.draw_pile]
    again = [h for s, h in enumerate(other.hands) if s != seat] + [other.draw_pile]
    assert hidden != again, "the re-deal changed nothing: the test would prove nothing"
    a, b = state.view(seat), other.view(seat)
    # the hint's inputs: the view, and so its digest, are the same
    assert coach.view_digest(a) == coach.view_digest(b)
    first = coach.hint(a, iterations=120, seed=9, names=NAMES)
    second = coach.hint(b, iterations=120, seed=9, names=NAMES)
    assert first.digest == second.digest == coach.view_digest(a)
    assert first.moves == second.moves
    assert {**first.to_json(), "seconds": 0} == {**second.to_json(), "seconds": 0}
    assert first.iterations == 120
    # and the hint is about the seat's own legal moves, best first
    legal = set(a.legal_actions)
    assert 1 <= len(first.moves) <= coach.TOP
    assert all(m.action in legal for m in first.moves)
    # the coach's move first (pick=sure: the expert's move unless the search is sure of
    # another), then the most visited
    visits = [m.visits for m in first.moves]
    assert visits[1:] == sorted(visits[1:], reverse=True)
    assert all(m.value is not None and 0.0 <= m.value <= 1.0 for m in first.moves)


def test_a_hints_words_name_cards_and_seats_never_codes() -> None:
    rng = random.Random(4)
    said: list[str] = []
    for seed in range(6):
        state = _turn(_played("hotdeath", seed, 10 + 7 * seed), rng)
        h = coach.hint(state.view(state.current_player()), iterations=60, seed=1, names=NAMES)
        said += h.lines()
    text = "\n".join(said)
    assert "wins the hand" in text
    assert not CODES.search(text), CODES.search(text)
    assert not re.search(r"\bP\d\b", text)  # seats are named


def test_reasons_follow_the_name_theme_and_cite_the_rule() -> None:
    g = position(variant="hotdeath", players=2, hands=[["RET", "R3", "B4"], ["G5", "G6"]],
                 top="R7", turn=0)
    view = g.view(0)
    fam = coach.hint(view, iterations=80, seed=2, names=["Ann", "Bo"], theme="family")
    orig = coach.hint(view, iterations=80, seed=2, names=["Ann", "Bo"], theme="original")
    family_text = " ".join(fam.lines())
    original_text = " ".join(orig.lines())
    assert "Retaliation" in family_text and "Retaliation" not in original_text
    assert "Fuck You" in original_text
    rule = coach._rule_of("hotdeath", RET)
    assert rule.startswith("HD-") and rule in family_text


def test_a_single_move_is_hinted_without_a_search() -> None:
    g = position(variant="standard", players=2, hands=[["R3"], ["G5", "G6"]], top="B7",
                 turn=0, draw=["Y1", "Y2", "Y3"])
    h = coach.hint(g.view(0), iterations=50)
    assert len(h.moves) == 1 and h.iterations == 0
    assert h.best.words == "draw a card" and h.best.value is None


def test_no_hint_for_a_spectator_or_out_of_turn() -> None:
    state = _played("hotdeath", 1, 8)
    seat = state.current_player()
    with pytest.raises(coach.CoachError) as spectator:
        coach.hint(state.view(None))
    assert spectator.value.code == "no_seat"
    with pytest.raises(coach.CoachError) as early:
        coach.hint(state.view((seat + 1) % 4))
    assert early.value.code == "no_decision"


def test_hints_used_in_words() -> None:
    assert coach.hints_line([[0, 5], [0, 9], [0, 12], [3, 2]], 4, NAMES) == (
        "Ann used 3 hints; Dot used 1 hint.")
    assert coach.hints_line([], 4, NAMES) == ""


def _recorded(seed: int = 6) -> dict[str, object]:
    state = _played("hotdeath", seed, 3000)
    return record(state)


def test_review_of_a_hand_values_each_decision_of_a_person() -> None:
    rec = _recorded()
    ranges = coach.hand_ranges(rec)
    assert 1 in ranges
    rev = coach.review(rec, 1, [0], iterations=40, seed=1, names=NAMES)
    assert rev.complete and rev.hand_no == 1 and rev.seats == (0,)
    first, last = ranges[1]
    assert rev.decisions, "seat 0 made no decision in hand 1"
    for d in rev.decisions:
        assert d.seat == 0 and first <= d.index <= last
        assert rec["actions"][d.index - 1] == [0, str(d.played)]  # type: ignore[index]
        assert d.cost >= 0.0
        assert d.agreed == (d.played == d.best.action)
        if d.agreed:
            assert d.cost == 0.0
    worst = rev.mistakes
    assert len(worst) <= coach.MISTAKES
    assert [d.cost for d in worst] == sorted((d.cost for d in worst), reverse=True)
    assert all(d.cost >= coach.MISTAKE_COST for d in worst)
    text = "\n".join(rev.lines(NAMES))
    assert text.startswith("Hand 1, Ann:")
    assert not CODES.search(text), CODES.search(text)
    assert rev.to_json(NAMES)["lines"] == rev.lines(NAMES)


def test_review_keeps_to_its_budget_and_refuses_a_missing_hand() -> None:
    rec = _recorded()
    spent = coach.review(rec, 1, [0, 1, 2, 3], seconds=0.2, budget=0.0)
    assert not spent.complete and spent.decisions == ()  # no time: nothing searched
    assert "the time ran out" in spent.lines(NAMES)[0]
    with pytest.raises(coach.CoachError) as missing:
        coach.review(rec, 999, [0])
    assert missing.value.code == "no_hand"
    with pytest.raises(coach.CoachError) as bad:
        coach.review({"variant": "hotdeath", "actions": [[0, "fly away"]]}, 1, [0])
    assert bad.value.code == "bad_record"


def test_hotdeath_review_and_replay_in_the_terminal(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from hotdeath.cli import app

    rec = {**_recorded(), "names": NAMES, "people": [0], "hints": [[0, 3], [0, 9], [2, 4]]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    env = {"COLUMNS": "120", "NO_COLOR": "1"}
    done = CliRunner().invoke(app, ["review", str(path), "--hand", "1", "--seconds", "0.02"],
                              env=env)
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].startswith("Hand 1, Ann:")  # the record's person, by name
    assert any(line.startswith(("✓", "·", "✗")) for line in lines[1:])
    assert "Biggest mistakes:" in done.output or "No mistake worth naming." in done.output
    assert not CODES.search(done.output)
    shown = CliRunner().invoke(app, ["replay", str(path)], env=env)
    assert shown.exit_code == 0
    assert "Ann used 2 hints; Cy used 1 hint." in shown.output
    missing = CliRunner().invoke(app, ["review", str(path), "--hand", "999"], env=env)
    assert missing.exit_code == 2 and "[no_hand]" in missing.output
    seat = CliRunner().invoke(app, ["review", str(path), "--seat", "7"], env=env)
    assert seat.exit_code == 2 and "[bad_seat]" in seat.output


def test_the_same_record_gives_the_same_review_twice(tmp_path: Path) -> None:
    """Each decision's search is seeded from the record (its seed, the decision, the seat)."""
    from typer.testing import CliRunner

    from hotdeath.cli import app

    rec = {**_recorded(), "names": NAMES, "people": [0]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    env = {"COLUMNS": "160", "NO_COLOR": "1"}
    args = ["review", str(path), "--hand", "1", "--iterations", "60"]
    runs = [CliRunner().invoke(app, args, env=env) for _ in range(2)]
    assert all(r.exit_code == 0 for r in runs), runs[0].output
    assert runs[0].output == runs[1].output
    assert runs[0].output.startswith("Hand 1, Ann:")
    # a decision is searched the same whatever else the review covers
    alone = coach.review(rec, 1, [0], iterations=60)
    beside = coach.review(rec, 1, [0, 1, 2, 3], iterations=60)
    mine = [d for d in beside.decisions if d.seat == 0]
    assert [d.to_json() for d in alone.decisions] == [d.to_json() for d in mine]
    assert coach.decision_seed(rec, 5, 0) != coach.decision_seed({**rec, "seed": 1}, 5, 0)


@pytest.mark.parametrize(("players", "options", "victim", "skipped"), [
    (4, {}, 2, "skipping Bo"),  # HD-2.3.11: the next player is skipped
    (2, {}, 1, ""),  # two players: nobody to skip, the attack is on the next
    (4, {"delayed_blast_min_active_for_skip": 5}, 1, ""),  # the option: four are too few
    (5, {"delayed_blast_min_active_for_skip": 5}, 2, "skipping Bo"),
])
def test_the_coachs_words_follow_the_variants_delayed_blast_rule(
        players: int, options: dict[str, object], victim: int, skipped: str) -> None:
    """The coach asks the engine what a play does (HD-2.3.11), never a copy of the rule."""
    hands = [["DB", "R1", "R2"], ["G1", "G2"], ["B1", "B2", "B3"], ["Y1"], ["Y2", "Y3"]]
    names = [*NAMES, "Eve"]
    g = position(variant="hotdeath", hands=hands[:players], top="R9", options=options)
    action = next(a for a in g.legal_actions(0) if str(a) == "play DB red")
    events = g.clone().apply_action(action, 0)
    attacked = next(e.target for e in events if e.kind == "attack")
    assert attacked == victim  # the engine's ruling ...
    words = coach.reason(g.view(0), action, names)
    cards = len(hands[victim])
    assert words.startswith(f"the Delayed Blast (HD-2.3.11) makes {names[victim]} "
                            f"({cards} card{'s' if cards > 1 else ''}) draw 4")  # ... in words
    assert (skipped in words) if skipped else ("skipping" not in words)


def _hints_of_a_game(variant: str, seed: int) -> list[coach.Hint]:
    """The coach's hints (60 iterations, seeded) at the searched decisions of a game."""
    state = hotdeath.new_game(variant, 4, seed)
    bots = [make_bot("heuristic:expert") for _ in range(4)]
    rng = random.Random(seed)
    hints: list[coach.Hint] = []
    for _ in range(400):
        if state.is_terminal() or len(hints) >= 12:
            break
        seat = state.current_player()
        view = state.view(seat)
        if view.phase != "deal" and len(view.legal_actions) >= 3:
            hints.append(coach.hint(view, iterations=60, seed=len(hints)))
        choice = bots[seat].choose(view, rng)
        state.step(choice if choice is not None else view.legal_actions[0], seat)
    return hints


def test_the_coachs_move_has_the_best_figure_shown_or_the_hint_says_why() -> None:
    """``pick=sure`` may keep a move with a lower figure: the hint then says why in words."""
    explained = 0
    for variant, seed in (("hotdeath", 2), ("throwdown", 3)):
        for h in _hints_of_a_game(variant, seed):
            best = h.moves[0]
            higher = [m for m in h.moves[1:] if best.value is not None and m.value is not None
                      and round(100 * m.value) > round(100 * best.value)]
            if not higher:
                assert h.why == "", h.why
                continue
            explained += 1
            top = max(higher, key=lambda m: m.value or 0.0)
            assert h.why.startswith(f"Why not {top.words}? It shows "), h.why
            assert "sampled deal" in h.why and "the coach" in h.why
            assert h.to_json()["why"] == h.why
            assert not CODES.search(h.why)
    assert explained >= 1  # the games hold such hints: the check above ran


def test_the_game_reward_values_standing_by_the_games_goal() -> None:
    from hotdeath.bots.ismcts import _game_rewards

    state = _played("hotdeath", 6, 20000)  # finished: the winners get everything
    last = state.last_hand
    assert state.is_terminal() and last is not None
    done = _game_rewards(state, last.hand, True)
    assert done == [1.0 if s in state.winners else 0.0 for s in range(4)]
    state = hotdeath.new_game("hotdeath", 4, 6)
    bots = [make_bot("heuristic:expert") for _ in range(4)]
    rng = random.Random(6)
    while state.last_hand is None:  # to the end of the first hand
        seat = state.current_player()
        view = state.view(seat)
        choice = bots[seat].choose(view, rng)
        state.step(choice if choice is not None else view.legal_actions[0], seat)
    first = state.last_hand
    assert first is not None and not state.is_terminal()
    got = _game_rewards(state, first.hand, True)  # Hot Death: the lowest total wins
    totals = {row.seat: row.total for row in first.seats}
    assert abs(sum(got) - 1.0) < 1e-9
    low = min(totals, key=lambda s: totals[s])
    assert got[low] == max(got)
    high = _game_rewards(state, first.hand, False)  # were the highest to win: reversed
    assert high[low] == min(high)
    bot = make_bot("ismcts:iterations=60,reward=game")
    game = _turn(_played("hotdeath", 9, 20), random.Random(9))
    seat = game.current_player()
    assert bot.choose(game.view(seat), random.Random(1)) in game.legal_actions(seat)
    with pytest.raises(ValueError, match="reward must be one of hand, game"):
        make_bot("ismcts:reward=points")
