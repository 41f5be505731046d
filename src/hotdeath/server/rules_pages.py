"""Rules for people in the browser: each card's rule, and a rules page per variant.

Both come from the rulebook (:mod:`hotdeath.rulebook`) in the table's name theme; the
pages keep no copy of any rule text.  :func:`card_help` answers ``GET /api/rules/{variant}``
(the card help of the table); :func:`rules_page` renders ``/rules/{variant}`` as HTML with
every text escaped, the rules a table's house rules change marked.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from hotdeath.cards import FACE_CODE, card_name
from hotdeath.rulebook import SECTIONS, get_rule, rules_for
from hotdeath.tui.session import card_rule_id
from hotdeath.variants import get_variant
from hotdeath.words import for_people, themed


@lru_cache(maxsize=64)
def _deck_faces(variant: str) -> tuple[int, ...]:
    fresh = get_variant(variant).new_game(None, 0)
    faces = set(fresh.deck) | {face for hand in fresh.hands for face in hand}
    faces |= set(fresh.discard)
    return tuple(sorted(faces))


def card_help(variant: str, theme: str = "family") -> dict[str, Any]:
    """What each card of ``variant``'s deck does: its name, rule id, title and text.

    >>> help = card_help("hotdeath")
    >>> help["cards"]["HOT"]["rule"], help["cards"]["HOT"]["name"]
    ('HD-2.3.10', 'Hot Death')
    """
    v = get_variant(variant)
    cards: dict[str, dict[str, str]] = {}
    for face in _deck_faces(v.name):
        rule = get_rule(card_rule_id(v.name, face))
        cards[FACE_CODE[face]] = {
            "name": card_name(face, theme),
            "rule": rule.id,
            "title": themed(rule.title, theme),
            "text": for_people(rule.text, rule.game, theme),
        }
    return {"variant": v.name, "theme": theme, "rules_page": f"/rules/{v.name}",
            "cards": cards}


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def rules_page(
    variant: str, theme: str = "family", table: Mapping[str, Any] | None = None
) -> str:
    """The rules of ``variant`` as an HTML page (``table``: its summary marks its rules)."""
    v = get_variant(variant)
    marks: dict[str, list[str]] = {}
    house: list[dict[str, Any]] = list(table.get("house_rules", [])) if table else []
    for h in house:
        marks.setdefault(str(h["rule"]), []).append(str(h["text"]))
    rules = rules_for(v.name)
    cards_by_rule: dict[str, list[str]] = {}
    for face in _deck_faces(v.name):
        names = cards_by_rule.setdefault(card_rule_id(v.name, face), [])
        name = card_name(face, theme)
        if name not in names:
            names.append(name)
    out = [
        "<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Rules of {_e(v.title)}</title>",
        '<link rel="icon" href="/cards/back.svg">',
        '<link rel="stylesheet" href="/static/css/hotdeath.css">', "</head>",
        '<body class="rules-page">',
        '<header class="topbar"><a class="brand" href="/"><img src="/cards/back.svg" alt="">'
        '<span><span class="hot">Hot</span> Death</span></a><span class="spacer"></span>',
    ]
    if table:
        out.append(f'<a class="meta" href="/t/{_e(table["table_id"])}">Back to the table</a>')
    out += ["</header>", '<main class="rules">', f"<h1>Rules of {_e(v.title)}</h1>"]
    if table:
        preset = v.preset_title(str(table.get("preset", v.default_preset)))
        out.append(f'<section class="panel at-table" id="at-table"><h2>At {_e(table["name"])}'
                   f"</h2><p>{_e(preset)}.</p>")
        if house:
            out.append("<ul>" + "".join(
                f'<li><a href="#{_e(h["rule"])}">{_e(h["text"])}</a></li>' for h in house
            ) + "</ul>")
        else:
            out.append("<p>No house rules changed.</p>")
        out.append("</section>")
    open_section: str | None = None
    for rule in rules:
        section = next((s for s in SECTIONS if s.game == v.name and s.contains(rule.id)), None)
        if section is not None and section.prefix != open_section:
            if open_section is not None:
                out.append("</section>")
            out.append(f'<section class="rule-section"><h2>{_e(themed(section.title, theme))}'
                       "</h2>")
            open_section = section.prefix
        changed = marks.get(rule.id)
        cls = "rule changed" if changed else "rule"
        out.append(f'<article class="{cls}" id="{_e(rule.id)}" data-rule="{_e(rule.id)}">')
        out.append(f'<h3><span class="rule-id">{_e(rule.id)}</span> '
                   f"{_e(themed(rule.title, theme))}</h3>")
        if rule.id in cards_by_rule:
            out.append(f'<p class="cards">{_e(", ".join(cards_by_rule[rule.id]))}</p>')
        out.append(f"<p>{_e(for_people(rule.text, rule.game, theme))}</p>")
        for text in changed or ():
            out.append(f'<p class="house">At this table: {_e(text)}</p>')
        out.append("</article>")
    if open_section is not None:
        out.append("</section>")
    out += ["</main>", "</body>", "</html>"]
    return "\n".join(out)
