"""A terminal table without the screen: the game, its bots, the person's view and the log.

:class:`Session` is what the Textual app drives.  It holds the :class:`GameState` (only
to apply actions and to ask the bots through :func:`hotdeath.bots.arena.next_bot_move`,
so bots behave as everywhere else) and gives the screen nothing but views: the person's
seat view, or a spectator view when only bots play.  Everything a person reads is made
here in words, with card names from the chosen name theme.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from hotdeath import PROGRAM
from hotdeath import actions as A
from hotdeath.actions import Action
from hotdeath.bots import Bot, bot_catalog, bot_rank, make_bot
from hotdeath.bots.arena import next_bot_move, seat_rngs, window_seats, worth_offering
from hotdeath.cards import (
    COLOR_LETTERS,
    COLOR_NAMES,
    FACE_COLOR,
    FACE_KIND,
    FACE_NUMBER,
    IS_WILD,
    NUMBER,
    W,
    card_name,
)
from hotdeath.errors import HotDeathError, IllegalActionError
from hotdeath.events import Event, describe
from hotdeath.notation import record
from hotdeath.rulebook import get_rule
from hotdeath.state import GameState
from hotdeath.variants import DEFAULT_VARIANT, get_variant
from hotdeath.view import View
from hotdeath.words import (
    describe_action,
    describe_game,
    describe_hand,
    for_people,
    house_rules,
    themed,
)

CARD_ACTIONS: Final = (A.PLAY, A.JUMP)
"""Action kinds that put cards from the hand on the pile."""

def card_rule_id(variant: str, face: int) -> str:
    """The rulebook id of the rule that says what card ``face`` does in ``variant``.

    ``variant`` may be an alias (``ct``, ``td``); the variant's kit knows its rules.
    """
    return get_variant(variant).kit.card_rule(face)


def face_order(face: int) -> tuple[int, int, int]:
    """Sort key of a hand: by colour (wilds last), then printed number, then kind.

    Special number cards sort by their number (Glasnost with the 2s), actions after them.
    """
    color = FACE_COLOR[face]
    number = FACE_NUMBER[face]
    return (color if color >= 0 else 9, number if number >= 0 else 100 + FACE_KIND[face],
            FACE_KIND[face])


def colour_word(color: int) -> str:
    """A colour in words with its letter, readable without colour vision: ``red (R)``."""
    return f"{COLOR_NAMES[color]} ({COLOR_LETTERS[color]})" if color >= 0 else "none"


@dataclass(frozen=True, slots=True)
class HelpEntry:
    """One rule on the help screen: the cards it is about, its id, title and text."""

    cards: str
    rule_id: str
    title: str
    text: str


@dataclass(slots=True)
class LogLine:
    """One event of the log: the words, the rule id and the rule's title."""

    text: str
    rule: str
    title: str
    kind: str


@dataclass(slots=True)
class ScoreSheet:
    """How a hand (and the game) ended, as the scoring screen shows it, in words."""

    hand_no: int
    headline: str
    rows: list[tuple[str, str, str, str]] = field(default_factory=list)
    """(seat name, points this hand, reasons, total); empty when the hand is not scored."""
    notes: list[str] = field(default_factory=list)
    game_over: bool = False
    game_headline: str = ""
    winners: str = ""
    standings: list[tuple[str, str]] = field(default_factory=list)
    """The final standings, best first: (seat name, total or "")."""


def bot_names() -> list[str]:
    """The registered bot names (for command-line help and error messages)."""
    return [info.name for info in bot_catalog()]


def default_bot() -> str:
    """The default opponent: ``heuristic`` when it is registered, else ``basic``."""
    return "heuristic" if "heuristic" in bot_names() else "basic"


def default_save_dir() -> Path:
    """Where finished games are saved unless ``--save`` says otherwise."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(PROGRAM)) / "games"


class Session:
    """One terminal game: a person (or nobody, to watch) and bots at a table.

    Raises :class:`~hotdeath.errors.HotDeathError` for a bad variant, preset or option and
    ``ValueError`` for a bad bot spec, before anything starts.
    """

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        players: int = 4,
        seed: int | None = None,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        bots: Sequence[str] = (),
        human: bool = True,
        theme: str = "family",
        dealer: int | None = None,
    ) -> None:
        self.variant_name = get_variant(variant).name  # an alias (ct, td) by its name
        self.players = players
        self.preset = preset
        self.options = dict(options or {})
        self.bot_specs = list(bots) or [default_bot()]
        self.with_human = human
        self.theme = theme
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        self.seed = seed
        self.state: GameState = get_variant(variant).new_game(players, seed, preset, self.options,
                                                              dealer)
        self.human: int | None = 0 if human else None
        first = 1 if human else 0
        specs = {s: self.bot_specs[(s - first) % len(self.bot_specs)]
                 for s in range(first, players)}
        self.bots: dict[int, Bot] = {s: make_bot(spec) for s, spec in specs.items()}
        self.rngs = seat_rngs(seed, players)
        self.names = [
            f"P{s} (you)" if s == self.human else f"P{s} ({bot_rank(specs[s])[1]} bot)"
            for s in range(players)
        ]
        self.log: list[LogLine] = []
        self.results: list[ScoreSheet] = []
        self.saved_to: Path | None = None
        self.declined: frozenset[Action] = frozenset()
        self.hints: list[list[int]] = []
        """The hints the person asked the coach for: ``[seat, index of the next action]``."""
        self._add_events(self.state.opening_events)

    # ------------------------------------------------------------------ what the person sees

    def view(self) -> View:
        """The person's view (a spectator's when only bots play)."""
        return self.state.view(self.human)

    @property
    def title(self) -> str:
        """The variant's title."""
        return get_variant(self.variant_name).title

    def over(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

    @property
    def where(self) -> str:
        """Where the game comes from, for the title bar: its seed."""
        return f"seed {self.seed}"

    def ready(self) -> bool:
        """Whether there is a game to show (always, for a local game)."""
        return True

    @property
    def local(self) -> bool:
        """Whether the game and its bots run here (not at a server)."""
        return True

    def short_name(self, seat: int) -> str:
        """A seat's name without its bot (for a table of many seats): ``P3``, ``P0 you``."""
        return f"P{seat} you" if seat == self.human else f"P{seat}"

    def card(self, face: int) -> str:
        """A card in words with its colour letter: ``[R] Red 7``, ``[W] Wild Draw Four``."""
        color = FACE_COLOR[face]
        letter = COLOR_LETTERS[color] if color >= 0 else "W"
        return f"[{letter}] {card_name(face, self.theme)}"

    def cards(self, faces: Sequence[int]) -> str:
        """Several cards in words."""
        return " + ".join(card_name(f, self.theme) for f in faces)

    def action_words(self, a: Action) -> str:
        """An action in words (with the seat names of this table; ``hotdeath.words``)."""
        return describe_action(a, self.names, self.theme)

    def legal(self) -> list[Action]:
        """The person's legal actions now (their turn and their windows); none to watch."""
        return list(self.view().legal_actions) if self.ready() else []

    def offered(self, kinds: Sequence[int]) -> list[Action]:
        """The person's legal actions of ``kinds`` worth offering (as the arena judges).

        Throwdown lists Uno calls and catches that are sure to be wrong (they only cost
        cards); those stay typeable but get no key.
        """
        if self.human is None:
            return []
        return [a for a in self.legal()
                if a.kind in kinds and worth_offering(self.state, self.human, a)]

    def window_actions(self) -> list[Action]:
        """The person's out-of-turn actions worth offering while another seat is to act."""
        if self.human is None or self.state.is_terminal():
            return []
        if self.human not in window_seats(self.state):
            return []
        return [a for a in self.legal() if worth_offering(self.state, self.human, a)]

    def window_open(self) -> bool:
        """Whether the bots should wait for the person's answer to an open window."""
        acts = self.window_actions()
        return bool(acts) and frozenset(acts) != self.declined

    def let_window_go(self) -> None:
        """The person lets the open window go: the bots no longer wait for it."""
        self.declined = frozenset(self.window_actions())

    def my_turn(self) -> bool:
        """Whether the game waits for the person's own turn."""
        return (self.human is not None and not self.state.is_terminal()
                and self.state.current_player() == self.human)

    # ------------------------------------------------------------------ moves

    def next_bot_move(self, state: GameState | None = None) -> tuple[int, Action] | None:
        """The bots' next move (the arena decides who is asked), ``None`` if none is due.

        ``state`` is a copy of the game to think about (the screen asks in a worker
        thread, over a clone, so the live state is never read by two threads); the
        default is the live state.  Either way the bots draw on the session's seeded
        generators, so the same seed and moves give the same game.
        """
        return next_bot_move(self.state if state is None else state, self.bots, self.rngs)

    def thinking_seats(self) -> list[int]:
        """The bot seats that may be asked for the next move (window holders, then the turn)."""
        if self.state.is_terminal():
            return []
        seats = [s for s in window_seats(self.state) if s in self.bots]
        turn = self.state.current_player()
        if turn in self.bots and turn not in seats:
            seats.append(turn)
        return seats

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a move (a bot's or the person's), log its events; return them."""
        events = self.state.apply_action(action, seat)
        self._add_events(events)
        return events

    def play(self, action: Action) -> list[Event]:
        """Apply the person's ``action``; ``IllegalActionError`` (nothing changes) if not legal."""
        if self.human is None:
            raise IllegalActionError("wrong_seat", "you are watching: every seat is a bot")
        return self.apply(self.human, action)

    def parse(self, text: str) -> Action:
        """Read a typed move: the action notation, or a bare card code for ``play CARD``.

        Raises :class:`~hotdeath.errors.NotationError` on bad syntax.
        """
        try:
            return Action.parse(text)
        except HotDeathError:
            try:
                return Action.parse("play " + text)
            except HotDeathError:
                pass
            raise

    def card_choices(self, face: int) -> list[Action]:
        """The person's legal card actions that put down ``face`` first."""
        return [a for a in self.legal() if a.kind in CARD_ACTIONS and a.cards[0] == face]

    def playable_faces(self) -> set[int]:
        """Faces of the person's hand that some legal action puts down."""
        return {c for a in self.legal() if a.kind in CARD_ACTIONS for c in a.cards}

    # ------------------------------------------------------------------ log and results

    def _add_events(self, events: Sequence[Event]) -> None:
        ended: Event | None = None
        for e in events:
            words = describe(e, self.theme, self.names, self.human).rsplit("  [", 1)[0]
            self.log.append(LogLine(themed(words, self.theme), e.rule,
                                    self.rule_title(e.rule), e.kind))
            if e.kind == "hand_end":
                ended = e
        if ended is not None:
            self.results.append(self._score_sheet(events))

    def _score_sheet(self, events: Sequence[Event]) -> ScoreSheet:
        """The scoring screen of the hand that just ended.

        Built from the common result shape (``View.last_hand``, ``View.game_result``) in
        the words of :mod:`hotdeath.words`.
        """
        view = self.view()
        extras = get_variant(view.variant).result_extras
        last = view.last_hand
        sheet = ScoreSheet(view.hand_no, "Nobody wins the hand.")
        if last is not None:
            told = describe_hand(last, self.names, self.theme, extras)
            sheet.hand_no = last.hand
            sheet.headline = themed(told.headline, self.theme)
            sheet.rows = [(r.name, str(r.points), themed("; ".join(r.reasons), self.theme),
                           str(r.total)) for r in told.rows]
            sheet.notes = [themed(n, self.theme) for n in told.notes]
            if last.rule:
                sheet.notes.append(f"Ended by rule {last.rule}: {self.rule_title(last.rule)}")
        final = view.game_result
        if final is not None:
            sheet.game_over = True
            told = describe_game(final, self.names, self.theme, extras)
            sheet.game_headline = told.headline
            sheet.winners = ", ".join(self.names[w] for w in final.winners)
            sheet.standings = [(n, "" if t is None else str(t)) for n, t in told.standings]
            sheet.notes += [n for n in told.notes if n not in sheet.notes]
            first = self.rule_text(final.rule).split(". ")[0].rstrip(".")
            sheet.notes.append(f"The game ends by rule {final.rule} "
                               f"({self.rule_title(final.rule)}): {first}.")
        return sheet

    def rule_text(self, rule_id: str) -> str:
        """A rule's text in the name theme, or an empty string for an unknown id."""
        try:
            rule = get_rule(rule_id)
        except KeyError:
            return ""
        return for_people(rule.text, rule.game, self.theme)

    def rule_title(self, rule_id: str) -> str:
        """A rule's title in the name theme, or an empty string for an unknown id."""
        try:
            return themed(get_rule(rule_id).title, self.theme)
        except KeyError:
            return ""

    # ------------------------------------------------------------------ help

    def setup_line(self) -> str:
        """The game's rules in one line of words: the preset, the house rules, the seats.

        >>> Session("hotdeath", 4, 1, options={"stack_draw_twos": True}).setup_line()
        'Hot Death Uno: Hot Death as we play it; house rules: Stacking Draw Twos: yes; 4 players.'
        """
        variant = get_variant(self.variant_name)
        preset = self.preset or variant.default_preset
        changed = house_rules(self.variant_name, preset, self.view().options, self.theme)
        rules = "; ".join(h["text"] for h in changed) if changed else ""
        return (f"{variant.title}: {variant.preset_title(preset)}; "
                + (f"house rules: {rules}" if rules else "no house rules")
                + f"; {self.players} players.")

    def help_entries(self) -> list[HelpEntry]:
        """Every card's rule in this variant (cards of the deck, in the name theme)."""
        fresh = get_variant(self.variant_name).new_game(
            self.players, 0, self.preset, self.options
        )
        faces = set(fresh.deck)
        by_rule: dict[str, list[int]] = {}
        for face in sorted(faces, key=face_order):
            by_rule.setdefault(card_rule_id(self.variant_name, face), []).append(face)
        out: list[HelpEntry] = []
        for rule_id, group in sorted(by_rule.items(), key=lambda kv: _rule_key(kv[0])):
            rule = get_rule(rule_id)
            names = _group_names(group, self.theme)
            out.append(HelpEntry(names, rule_id, themed(rule.title, self.theme),
                                 for_people(rule.text, rule.game, self.theme)))
        for rule_id in get_variant(self.variant_name).kit.help_rules:
            rule = get_rule(rule_id)
            out.append(HelpEntry("", rule_id, themed(rule.title, self.theme),
                                 for_people(rule.text, rule.game, self.theme)))
        return out

    # ------------------------------------------------------------------ the record

    def save(self, path: Path | None = None) -> Path:
        """Write the game's record (``hotdeath replay`` shows it); return where it went."""
        if path is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = default_save_dir() / f"{stamp}-{self.variant_name}-{self.seed}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        rec = record(self.state)
        rec["names"] = list(self.names)
        rec["people"] = [] if self.human is None else [self.human]
        rec["hints"] = [list(h) for h in self.hints]
        path.write_text(json.dumps(rec, indent=1), encoding="utf-8")
        self.saved_to = path
        return path


def e_rule(events: Sequence[Event]) -> str:
    """The rule id of the last score or hand-end event in ``events``."""
    for e in reversed(events):
        if e.kind in ("score", "hand_end"):
            return e.rule
    return events[-1].rule if events else ""


def _rule_key(rule_id: str) -> tuple[str, tuple[int, ...]]:
    prefix, _, rest = rule_id.partition("-")
    return prefix, tuple(int(p) if p.isdigit() else 0 for p in rest.split("."))


def _group_names(faces: Sequence[int], theme: str) -> str:
    """Names of the cards a rule is about, shortened for numbers: ``Red 0–9``."""
    numbers = [f for f in faces if FACE_KIND[f] == NUMBER and not IS_WILD[f]]
    others = [f for f in faces if f not in numbers]
    parts: list[str] = []
    if numbers:
        colors = sorted({FACE_COLOR[f] for f in numbers})
        parts.append("Number cards (" + ", ".join(COLOR_NAMES[c] for c in colors) + ")")
    seen: set[str] = set()
    for f in others:
        name = card_name(f, theme)
        generic = name.split(" ", 1)[1] if f < W else name  # "Red Skip" -> "Skip"
        if generic not in seen:
            seen.add(generic)
            parts.append(generic)
    return ", ".join(parts)


__all__ = [
    "CARD_ACTIONS",
    "HelpEntry",
    "LogLine",
    "ScoreSheet",
    "Session",
    "bot_names",
    "card_rule_id",
    "colour_word",
    "default_bot",
    "default_save_dir",
    "face_order",
    "themed",
]
