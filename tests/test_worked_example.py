"""The worked example of docs/architecture.md: a variant that adds one card and one option.

``doubleskip`` is standard Uno plus the Double Skip (the next two players lose their turns)
and the option ``double_skips`` (how many of each colour the deck holds).  It is built only
from the public contract (:mod:`hotdeath.variants.base`, the standard variant's state and
kit) and its own rulebook file (``tests/data/double-skip-rules.md``), registered for the
tests of this module and removed after them.  Nothing outside this file changes: the
engine, the position notation, the bots and the RL action space take the new card from the
variant.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

import hotdeath

if hotdeath.core() == "compiled":
    pytest.skip("the worked example extends standard's state class, and the compiled core's "
                "classes take no interpreted subclasses (docs/architecture.md: a variant of "
                "your own runs on the pure core)", allow_module_level=True)
from hotdeath.actions import PLAY, Action
from hotdeath.cards import COLORS, DOUBLE_SKIP, FACE_COLOR, FACE_KIND, NUM_FACES
from hotdeath.options import option
from hotdeath.rl.spaces import action_layout
from hotdeath.rulebook import RULES, parse_rules_file
from hotdeath.state import TURN
from hotdeath.variants import get_variant, register, unregister
from hotdeath.variants.base import Goal
from hotdeath.variants.standard import StandardOptions, StandardState
from hotdeath.variants.variant import Variant
from tests.support import act, kinds, position

RULEBOOK: Final = parse_rules_file(
    (Path(__file__).parent / "data" / "double-skip-rules.md").read_text(encoding="utf-8"),
    "double-skip-rules.md",
)
DOUBLE_SKIPS: Final = tuple(f for f in range(NUM_FACES) if FACE_KIND[f] == DOUBLE_SKIP)


# ------------------------------------------------------------------ the variant


@dataclasses.dataclass(frozen=True, slots=True)
class DoubleSkipOptions(StandardOptions):
    """Standard's options plus one."""

    double_skips: int = option(1, "Double Skips of each colour in the deck", "DS-1.1", (0, 2))


class DoubleSkipState(StandardState[DoubleSkipOptions]):
    """Standard Uno whose deck also holds Double Skips (DS-1.1, DS-1.2)."""

    def __init__(self, variant: Variant[DoubleSkipOptions], opts: DoubleSkipOptions,
                 players: int, seed: int) -> None:
        super().__init__(variant, opts, players, seed)
        self.deck = self.deck + list(DOUBLE_SKIPS) * opts.double_skips

    def _apply(self, seat: int, action: Action) -> None:
        hand_no = self.hand_no
        super()._apply(seat, action)  # standard plays it as a plain card of its colour
        if (action.kind == PLAY and FACE_KIND[action.cards[0]] == DOUBLE_SKIP
                and self.hand_no == hand_no and self.phase == TURN):
            first = self.turn  # the next player, to whom standard gave the turn
            second = self.next_seat(first) if self.n_active > 2 else first
            self.emit("skip", first, "DS-1.2")
            self.emit("skip", second, "DS-1.2")
            self.turn = self.next_seat(second) if self.n_active > 2 else seat


def _card_rule(face: int) -> str:
    return "DS-1.2" if FACE_KIND[face] == DOUBLE_SKIP else STANDARD.kit.card_rule(face)


STANDARD: Final = get_variant("standard")
DOUBLESKIP: Final = Variant(
    name="doubleskip",
    title="Standard Uno with Double Skips",
    description="Standard Uno plus a Double Skip in each colour (a test-only variant)",
    options_cls=DoubleSkipOptions,
    state_cls=DoubleSkipState,
    presets={"standard_plus": {}},
    preset_descriptions={"standard_plus": "The standard rules with one Double Skip a colour"},
    rule_prefix="DS",
    goal_of=lambda o: Goal("STD-9.4", False, f"The first to {o.target_score} wins."),
    kit=dataclasses.replace(
        STANDARD.kit,
        faces=tuple(sorted({*STANDARD.kit.faces, *DOUBLE_SKIPS})),
        card_rule=_card_rule,
        help_rules=(*STANDARD.kit.help_rules, "DS-1.2"),
    ),
)


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    register(DOUBLESKIP)
    try:
        yield
    finally:
        unregister(DOUBLESKIP.name)


# ------------------------------------------------------------------ the tests


def _known(rule_id: str) -> bool:
    return rule_id in RULES or any(r.id == rule_id for r in RULEBOOK.rules)


def test_the_rulebook_file_reads_with_the_common_reader() -> None:
    assert RULEBOOK.game == "doubleskip" and RULEBOOK.prefix == "DS"
    assert [r.id for r in RULEBOOK.rules] == ["DS-1.1", "DS-1.2"]
    assert RULEBOOK.rules[0].options == ("double_skips",)
    assert "next two players lose their turns" in RULEBOOK.rules[1].text


def test_the_option_is_declared_and_validated() -> None:
    v = get_variant("doubleskip")
    spec = next(s for s in v.option_specs() if s.name == "double_skips")
    assert spec.default == 1 and spec.rule == "DS-1.1"
    assert len(v.new_game(4, seed=1).deck) == 112
    assert len(v.new_game(4, seed=1, options={"double_skips": 2}).deck) == 116
    with pytest.raises(Exception, match="double_skips"):
        v.new_game(4, seed=1, options={"double_skips": 3})


def test_a_double_skip_skips_the_next_two_players() -> None:
    g = position(variant="doubleskip", players=4, turn=0, top="R3",
                 hands=[["RSS", "B5"], ["G1"], ["G2"], ["G3"]])
    ev = act(g, "play RSS")
    assert g.current_player() == 3
    assert [(e.kind, e.seat, e.rule) for e in ev if e.kind in ("play", "skip")] == [
        ("play", 0, "DS-1.2"), ("skip", 1, "DS-1.2"), ("skip", 2, "DS-1.2")]
    assert all(_known(e.rule) for e in ev)


def test_with_two_players_the_player_plays_again() -> None:
    g = position(variant="doubleskip", players=2, turn=0, top="B3",
                 hands=[["BSS", "B5", "R1"], ["G1", "G2"]])
    act(g, "play BSS")
    assert g.current_player() == 0
    assert "play B5" in [str(a) for a in g.legal_actions()]


def test_a_double_skip_matches_its_colour_or_a_double_skip_only() -> None:
    def plays(top: str) -> set[str]:
        g = position(variant="doubleskip", players=3, turn=0, top=top,
                     hands=[["RSS", "G5", "B1"], ["G1"], ["G2"]])
        return {str(a) for a in g.legal_actions() if a.kind == PLAY}

    assert plays("YSS") == {"play RSS"}
    assert plays("R4") == {"play RSS"}
    assert plays("G7") == {"play G5"}


def test_going_out_on_a_double_skip_ends_the_hand() -> None:
    g = position(variant="doubleskip", players=3, turn=0, top="R3",
                 hands=[["RSS"], ["G1"], ["G2"]])
    ev = act(g, "play RSS")
    assert "skip" not in kinds(ev) and g.hand_no == 2 and g.scores[0] == 1 + 2  # G1, G2


def test_the_front_ends_take_the_card_from_the_variant() -> None:
    v = get_variant("doubleskip")
    assert v.kit.card_rule(DOUBLE_SKIPS[0]) == "DS-1.2"
    assert v.kit.card_rule(DOUBLE_SKIPS[0]) != STANDARD.kit.card_rule(DOUBLE_SKIPS[0])
    layout = action_layout("doubleskip", 4)
    assert {layout.names[layout.slot_of(Action.parse(f"play {c}SS"), 0)]
            for c in "RYGB"} == {"play RSS", "play YSS", "play GSS", "play BSS"}
    assert {FACE_COLOR[f] for f in DOUBLE_SKIPS} == set(COLORS)


def test_whole_games_play_through_apply_action_and_step() -> None:
    from hotdeath.bots import make_bot

    for seed in range(3):
        rng = random.Random(seed)
        g = get_variant("doubleskip").new_game(3, seed=seed, options={"target_score": 100})
        twin = g.clone()
        bot = make_bot("heuristic")
        played = 0
        for _ in range(5000):
            if g.is_terminal():
                break
            seat = g.current_player()
            legal = g.legal_actions(seat)
            choice = bot.choose(g.view(seat), rng) if rng.random() < 0.5 else None
            a = choice if choice is not None else rng.choice(legal)
            played += a.kind == PLAY and FACE_KIND[a.cards[0]] == DOUBLE_SKIP
            events = twin.apply_action(a, seat)
            g.step(a, seat)
            assert all(_known(e.rule) for e in events), [e.rule for e in events]
        assert g.is_terminal() and twin.is_terminal() and g.winners == twin.winners
        assert g.history == twin.history
        assert played, "no Double Skip was played"
