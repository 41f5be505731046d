"""What a seat reads, as JSON: events and actions in words, results, the goal, reveals.

Pure functions of a game and a seat (no table, no connection, no database): the game
authority (:mod:`hotdeath.server.authority`) builds each seat's ``state`` message from
them, and the replay workers (:mod:`hotdeath.server.replays`) each step of a replay.
Words come from the one renderer, :mod:`hotdeath.words`, in the table's name theme.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from hotdeath.actions import DEAL, DIRECTION, KIND_WORDS, LEAVE, Action
from hotdeath.bots.arena import worth_offering
from hotdeath.cards import COLOR_NAMES, card_code
from hotdeath.events import Event, describe
from hotdeath.pending import DrawAttack, Pot
from hotdeath.rulebook import RULES
from hotdeath.server.store import DealRow
from hotdeath.state import GameState
from hotdeath.variants import get_variant
from hotdeath.words import (
    at_table,
    button_label,
    describe_action,
    describe_game,
    describe_hand,
    for_people,
    themed,
)

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
"""One encoder for every message (``json.dumps`` with arguments builds one per call)."""


def dumps(obj: Any) -> str:
    """Compact JSON text, as every message is sent (UTF-8, no spaces).

    >>> dumps({"a": [1, "é"]})
    '{"a":[1,"é"]}'
    """
    return _ENCODER.encode(obj)


_RULE_CACHE: dict[tuple[str, str], tuple[str, str]] = {}


def rule_words(rule_id: str, theme: str = "family") -> tuple[str, str]:
    """A rule's title and text for people (option ids in words), in ``theme``."""
    got = _RULE_CACHE.get((rule_id, theme))
    if got is None:
        r = RULES.get(rule_id)
        got = (
            (themed(r.title, theme), for_people(r.text, r.game, theme)) if r is not None
            else ("", "")
        )
        _RULE_CACHE[(rule_id, theme)] = got
    return got


def rule_at_table(rule_id: str, variant: str, preset: str, options: Mapping[str, Any],
                  theme: str = "family") -> tuple[str, str]:
    """A rule's title and text at a table, with the table's own option values.

    The rulebook's text (:func:`rule_words`), then the values the table gives the options
    the rule names where they are not the ones the text describes
    (:func:`hotdeath.words.at_table`).

    >>> rule_at_table("STD-9.4", "standard", "official", {"target_score": 60})[1][-42:]
    'At this table: Points to end the game: 60.'
    """
    title, text = rule_words(rule_id, theme)
    values = at_table(rule_id, variant, preset, options, theme)
    if values:
        text = f"{text} At this table: {'; '.join(values)}."
    return title, text


def event_json(
    event: Event, seat: int | None, version: int, names: list[str], theme: str,
    rules: Callable[[str], tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """An event as ``seat`` may see it, in words, with its rule's title and text.

    ``rules`` gives a rule's title and text at the table (:func:`rule_at_table`); by
    default the rulebook's.
    """
    d = event.for_seat(seat).to_json()
    title, text = rules(event.rule) if rules is not None else rule_words(event.rule, theme)
    d["version"] = version
    d["text"] = describe(event, theme, names, viewer=seat)
    d["rule_title"] = title
    d["rule_text"] = text
    return d


def action_words(action: Action, theme: str, names: list[str] | None = None) -> str:
    """An action for people, with card names from ``theme`` and seat names.

    The one renderer of actions, :func:`hotdeath.words.describe_action`.

    >>> action_words(Action.parse("play WD4 green"), "family")
    'play Wild Draw Four, naming green'
    >>> action_words(Action.parse("catch 1"), "family", ["Ann", "Bo"])
    'catch Bo: no Uno call'
    """
    return describe_action(action, names, theme)


def actions_json(state: GameState, seat: int | None, names: list[str],
                 theme: str) -> list[dict[str, Any]]:
    """``seat``'s legal actions for the page: each in parts, in words, and whether to offer it.

    The page reads these parts (it parses no notation of its own): ``text`` is the action
    as the socket takes it back; ``cards`` are card codes, ``color`` a colour name, ``n`` a
    deal size or ``cw``/``ccw`` for a direction; ``words`` come from
    :func:`hotdeath.words.describe_action` and ``button`` from
    :func:`hotdeath.words.button_label` (an accept says how many cards it takes); ``offer``
    is false for a call that is sure to be wrong (Throwdown lists those; they only cost
    cards, TD-5.5), so the page gives it no button (leaving is offered: the page asks
    before it sends it).

    >>> import hotdeath
    >>> g = hotdeath.new_game("standard", players=2, seed=1)
    >>> [a["words"] for a in actions_json(g, g.current_player(), ["Ann", "Bo"], "family")]
    ['play Green 3', 'play Green 7', 'draw a card']
    """
    if seat is None:
        return []
    pending = state.pending()
    owed = pending.count if isinstance(pending, (DrawAttack, Pot)) else 0
    out = []
    for a in state.legal_actions(seat):
        out.append({
            "text": str(a),
            "kind": KIND_WORDS[a.kind],
            "cards": [card_code(c) for c in a.cards],
            "color": COLOR_NAMES[a.color] if a.color >= 0 else None,
            "target": a.target if a.target >= 0 else None,
            "n": ("cw" if a.n == 1 else "ccw") if a.kind == DIRECTION
            else a.n if a.kind == DEAL else None,
            "uno": a.uno,
            "words": describe_action(a, names, theme),
            "button": button_label(a, names, theme, owed),
            "offer": a.kind == LEAVE or worth_offering(state, seat, a),
        })
    return out


def results_json(state: GameState, names: list[str], theme: str) -> dict[str, Any] | None:
    """The last hand's and the game's result in words for the page (``hotdeath.words``).

    The view carries the results themselves (``last_hand``, ``game_result``, the common
    shape); these are their words in the table's name theme, with each cited rule's title,
    so the page builds no words of its own.  None before any hand has ended.
    """
    last = state.last_hand
    final = state.game_result()
    if last is None and final is None:
        return None
    extras = state.variant.result_extras
    rules = {last.rule} if last is not None else set()
    if last is not None:
        rules.update(x.rule for s in last.seats for x in s.lines)
    if final is not None:
        rules.add(final.rule)
    return {
        "hand": None if last is None else describe_hand(last, names, theme, extras).to_json(),
        "game": None if final is None else describe_game(final, names, theme,
                                                         extras).to_json(),
        "rule_titles": {r: rule_words(r)[0] for r in sorted(rules)},
    }


def goal_json(variant: str, preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """How a game at a table is won: the variant's words and the rule they come from.

    >>> goal_json("standard", "official", {"scoring": "penalty_points"})["lowest_wins"]
    True
    """
    v = get_variant(variant)
    goal = v.goal(v.resolve_options(preset, options))
    title, text = rule_at_table(goal.rule, variant, preset, options)
    return {"rule": goal.rule, "rule_title": title, "rule_text": text,
            "lowest_wins": goal.lowest_wins, "text": goal.text}


def auto_words(reason: str, seat: int, names: list[str]) -> str:
    """The words of a move a bot made for the person at ``seat`` (``timer``, ``takeover``).

    >>> auto_words("timer", 1, ["Ann", "Bob"])
    'Time ran out: a bot played for Bob'
    """
    name = names[seat]
    if reason == "timer":
        return f"Time ran out: a bot played for {name}"
    return f"{name} is away: a bot played for {name}"


def marked(events: list[dict[str, Any]], autos: Mapping[int, tuple[str, int]],
           names: list[str]) -> list[dict[str, Any]]:
    """Mark the first event of each version a bot made for a person (``auto``, its words).

    ``autos``: such versions, with why (``timer``, ``takeover``) and the seat.  The page
    shows the mark above the move in its log.
    """
    seen: set[int] = set()
    for ev in events:
        version = ev["version"]
        auto = autos.get(version)
        if auto is None or version in seen:
            continue
        seen.add(version)
        ev["auto"] = auto[0]
        ev["auto_text"] = auto_words(*auto, names)
    return events


def check_json(state: GameState, seat: int, cards: list[str], version: int, theme: str,
               msg_id: object) -> dict[str, Any]:
    """The answer to a ``check``: why no order of ``cards`` is a play of ``seat`` now.

    The engine's reason (``GameState.why_not_play``: a rule and its words); a card code it
    does not know is ``bad_message``.
    """
    from hotdeath.cards import parse_card
    from hotdeath.errors import HotDeathError
    from hotdeath.server.protocol import ProtocolError

    ident = msg_id if isinstance(msg_id, str) else None
    try:
        faces = [parse_card(c) for c in cards]
    except HotDeathError as e:
        raise ProtocolError("bad_message", e.message, ident) from None
    reason = state.why_not_play(seat, faces)
    out: dict[str, Any] = {"type": "check", "id": ident, "version": version,
                           "cards": cards, "legal": reason is None}
    if reason is not None:
        rule, words = reason
        out.update(rule=rule or None, rule_title=rule_words(rule, theme)[0] if rule else None,
                   reason=words)
    return out


def reveal_json(deal: DealRow) -> dict[str, Any]:
    """The reveal of a deal commitment."""
    return {"hand_no": deal.hand_no, "salt": deal.salt, "deck": list(deal.deck),
            "digest": deal.digest}

