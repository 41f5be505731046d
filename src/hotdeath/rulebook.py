"""The rulebook: every rule of the four games, in plain words, with a stable id.

The engine cites rules by id (``HD-2.3.10``, ``STD-6.4``, ``CT-3.3``, ``TD-4.6``); the ids
follow the section numbers of the rules contract (``hot-death.md`` for Hot Death,
``uno-variants.md`` for the other three games), and ``scripts/gen_rulebook.py`` renders the
rules as Markdown under ``docs/rules/``.

Each game's rules are a data file that lives with its variant (``rules.md`` inside the
variant's package, ``hotdeath/variants/<game>/rules.md``), read here by a small reader
(:func:`parse_rules_file`).  The format is Markdown with a fixed
shape:

* a front matter between two ``---`` lines of ``key: value``: ``game`` (the game's
  registry name), ``title`` (its name in the rulebook), ``prefix`` (of its rule ids) and
  ``order`` (its place among the games in the documents);
* the game's introduction: the paragraphs before the first heading;
* ``# PREFIX: title`` opens a section of the contract (``# HD-2.3: 2.3 Card by card``);
* ``## ID: title`` opens a rule; the lines right after it are ``sources: tag; tag`` and
  optionally ``options: name, name``; after a blank line comes its text (one paragraph,
  wrapped freely);
* ``# Audit YYYY-MM-DD`` opens an audit of the engine: a summary paragraph, then one
  ``- `` item per finding (continued on indented lines).

Card names follow the family theme (Retaliation, Big Brother, Virus); each card's own rule
mentions its original name once.

>>> get_rule("HD-2.3.10").title
'Hot Death'
>>> [rule.id for rule in rules_for("standard")][:3]
['STD-0.4', 'STD-0.5', 'STD-1.1']
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import Final

__all__ = [
    "AUDITS",
    "GAMES",
    "INTROS",
    "RULES",
    "RULE_ID_PATTERN",
    "SECTIONS",
    "SOURCE_TAGS",
    "Audit",
    "Rule",
    "Section",
    "audits_for",
    "get_rule",
    "parse_rules_file",
    "rules_for",
    "section_of",
]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the rulebook.

    Attributes:
        id: Stable id, e.g. ``"HD-2.3.10"``; the number is the contract's section number.
        game: ``"hotdeath"``, ``"standard"``, ``"cutthroat"`` or ``"throwdown"``.
        title: Short title, e.g. ``"Hot Death"``.
        text: The rule in plain words (one paragraph).
        sources: Where the rule comes from (keys of :data:`SOURCE_TAGS`).
        options: Names of the engine options that change this rule.

    """

    id: str
    game: str
    title: str
    text: str
    sources: tuple[str, ...]
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Section:
    """A section heading of the rules contract that groups rules in the documents.

    Attributes:
        game: The game the section belongs to.
        prefix: Id prefix of the section's rules (``"HD-2.3"`` holds ``"HD-2.3.1"`` etc.).
        title: The heading, numbered as in the contract.

    """

    game: str
    prefix: str
    title: str

    def contains(self, rule_id: str) -> bool:
        """Whether the rule with this id belongs to the section."""
        return rule_id == self.prefix or rule_id.startswith(self.prefix + ".")


@dataclass(frozen=True, slots=True)
class Audit:
    """An audit of one game's engine against its rules contract, rendered after its rules.

    Attributes:
        game: The game audited.
        date: The day of the audit (ISO 8601).
        summary: What was checked, in a sentence or two.
        findings: One entry per divergence fixed or ruling made, each citing its rules.

    """

    game: str
    date: str
    summary: str
    findings: tuple[str, ...]


SOURCE_TAGS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "seed 000": "the fan page “Hot Death Uno … What is it?” (seeds/000)",
        "seed 001": "the “Hot Death Uno Homepage” (seeds/001)",
        "seed 002": "the page “About HOT DEATH” (seeds/002)",
        "seed 003": "the “Cutthroat Uno” rules sheet (seeds/003)",
        "seed 004": "the “Uno Throwdown” official house rules (seeds/004)",
        "app": "the Android Hot Death Uno app (jpriebe/hotdeath), used for facts only",
        "official": "the official Mattel Uno rules and statements",
        "ruling": "no source settles the point; this is the project's ruling",
    }
)
"""Every source tag a rule may cite, with what it stands for."""


@dataclass(frozen=True, slots=True)
class GameRules:
    """One game's rulebook file, parsed: its front matter, introduction, sections, rules."""

    game: str
    title: str
    prefix: str
    order: int
    intro: str
    sections: tuple[Section, ...]
    rules: tuple[Rule, ...]
    audits: tuple[Audit, ...]


_SECTION_HEAD: Final = re.compile(r"^# ([A-Z]+-[0-9][0-9.]*): (.+)$")
_RULE_HEAD: Final = re.compile(r"^## ([A-Z]+-[0-9][0-9.T]*): (.+)$")
_AUDIT_HEAD: Final = re.compile(r"^# Audit ([0-9]{4}-[0-9]{2}-[0-9]{2})$")


def _words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


def parse_rules_file(text: str, name: str = "<rules>") -> GameRules:
    """Parse one game's rulebook file (the format of the module docstring).

    Raises:
        ValueError: For a file that does not follow the format (the message names the
            file and the line).

    """
    lines = text.splitlines()

    def bad(i: int, why: str) -> ValueError:
        return ValueError(f"{name}:{i + 1}: {why}")

    if not lines or lines[0] != "---":
        raise bad(0, "a rulebook file starts with a front matter ('---')")
    meta: dict[str, str] = {}
    i = 1
    while i < len(lines) and lines[i] != "---":
        key, sep, value = lines[i].partition(":")
        if not sep:
            raise bad(i, "front matter lines are 'key: value'")
        meta[key.strip()] = value.strip()
        i += 1
    missing = {"game", "title", "prefix", "order"} - set(meta)
    if i == len(lines) or missing:
        raise bad(i, f"the front matter needs {', '.join(sorted(missing)) or 'its end'}")
    game = meta["game"]
    i += 1
    intro: list[str] = []
    sections: list[Section] = []
    rules: list[Rule] = []
    audits: list[Audit] = []
    kind = "intro"  # what is being read: intro, section, rule or audit
    head: tuple[str, str, str, str] = ("", "", "", "")  # a rule's id, title, sources, options
    date = ""
    body: list[str] = []
    findings: list[list[str]] = []

    def close() -> None:
        if kind == "intro":
            intro.extend(body)
        elif kind == "rule":
            rid, title, sources, options = head
            if not _words(body):
                raise ValueError(f"{name}: rule {rid} has no text")
            rules.append(Rule(rid, game, title, _words(body),
                              tuple(t.strip() for t in sources.split(";") if t.strip()),
                              tuple(o.strip() for o in options.split(",") if o.strip())))
        elif kind == "audit":
            audits.append(Audit(game, date, _words(body), tuple(_words(f) for f in findings)))

    while i < len(lines):
        line = lines[i]
        m_section = _SECTION_HEAD.match(line)
        m_rule = _RULE_HEAD.match(line)
        m_audit = _AUDIT_HEAD.match(line)
        if m_section or m_rule or m_audit:
            close()
            body = []
            findings = []
        if m_audit:
            kind, date = "audit", m_audit.group(1)
        elif m_section:
            kind = "section"
            sections.append(Section(game, m_section.group(1), m_section.group(2)))
        elif m_rule:
            sources = options = ""
            while i + 1 < len(lines) and lines[i + 1].startswith(("sources:", "options:")):
                i += 1
                key, _, value = lines[i].partition(":")
                if key == "sources":
                    sources = value
                else:
                    options = value
            if not sources.strip():
                raise bad(i, f"rule {m_rule.group(1)} needs a 'sources:' line")
            kind = "rule"
            head = (m_rule.group(1), m_rule.group(2), sources, options)
        elif line.startswith("#"):
            raise bad(i, f"unknown heading {line!r}")
        elif kind == "audit" and line.startswith("- "):
            findings.append([line[2:]])
        elif kind == "audit" and findings and line.strip():
            findings[-1].append(line)
        elif kind == "section" and line.strip():
            raise bad(i, "text under a section heading belongs to a rule ('## ID: title')")
        else:
            body.append(line)
        i += 1
    close()
    try:
        order = int(meta["order"])
    except ValueError:
        raise bad(0, "'order' must be an integer") from None
    return GameRules(game, meta["title"], meta["prefix"], order, _words(intro),
                     tuple(sections), tuple(rules), tuple(audits))


def _rule_files() -> Iterator[Traversable]:
    """Every rulebook file shipped with the variants (``*/rules.md``; also ``rules/*.md``)."""
    root = files("hotdeath.variants")
    folder = root / "rules"
    if folder.is_dir():
        yield from (f for f in folder.iterdir() if f.name.endswith(".md"))
    for package in root.iterdir():
        candidate = package / "rules.md"
        if package.is_dir() and candidate.is_file():
            yield candidate


def _load() -> tuple[GameRules, ...]:
    books = [parse_rules_file(f.read_text(encoding="utf-8"), f.name) for f in _rule_files()]
    return tuple(sorted(books, key=lambda b: b.order))


_BOOKS: Final = _load()

GAMES: Final[Mapping[str, str]] = MappingProxyType({b.game: b.title for b in _BOOKS})
"""The games, in document order, with their display names."""

INTROS: Final[Mapping[str, str]] = MappingProxyType({b.game: b.intro for b in _BOOKS})
"""Each game's introduction (the paragraph before its first section), by game."""

_PREFIXES: Final = tuple(b.prefix for b in _BOOKS)

RULE_ID_PATTERN: Final = re.compile(
    rf"^({'|'.join(_PREFIXES)})-[0-9]+(\.[0-9]+)*(\.T[0-9])?$")
"""Every rule id matches this pattern."""

SECTIONS: Final[tuple[Section, ...]] = tuple(s for b in _BOOKS for s in b.sections)
"""The contract's section headings, in document order, used to group the rules."""


def _index(rules: tuple[Rule, ...]) -> Mapping[str, Rule]:
    """Check the rules and index them by id, keeping document order."""
    index: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in index:
            raise ValueError(f"duplicate rule id {rule.id!r}")
        if not RULE_ID_PATTERN.match(rule.id):
            raise ValueError(f"malformed rule id {rule.id!r}")
        unknown = [tag for tag in rule.sources if tag not in SOURCE_TAGS]
        if unknown or not rule.sources:
            raise ValueError(f"rule {rule.id}: bad sources {rule.sources!r}")
        if not any(section.contains(rule.id) for section in SECTIONS):
            raise ValueError(f"rule {rule.id} belongs to no section")
        index[rule.id] = rule
    return MappingProxyType(index)


RULES: Final[Mapping[str, Rule]] = _index(tuple(r for b in _BOOKS for r in b.rules))
"""Every rule by id, ordered as in the documents (the games in their files' ``order``)."""

AUDITS: Final[tuple[Audit, ...]] = tuple(
    sorted((a for b in _BOOKS for a in b.audits), key=lambda a: a.date))
"""The audits of the engine against the rules contracts, in date order."""


def audits_for(game: str) -> list[Audit]:
    """Return the audits of one game, oldest first.

    Raises:
        ValueError: If ``game`` is not one of :data:`GAMES`.

    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    return [audit for audit in AUDITS if audit.game == game]


def get_rule(rule_id: str) -> Rule:
    """Return the rule with this id.

    Raises:
        KeyError: If there is no such rule; the message suggests close ids.

    """
    try:
        return RULES[rule_id]
    except KeyError:
        close = difflib.get_close_matches(rule_id, list(RULES), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(
            f"unknown rule id {rule_id!r}{hint} (ids look like 'HD-2.3.10', 'STD-6.4', "
            f"'CT-3.3' or 'TD-4.6'; the rulebook has {len(RULES)} rules)"
        ) from None


def rules_for(game: str) -> list[Rule]:
    """Return the rules of one game, in document order.

    Raises:
        ValueError: If ``game`` is not one of :data:`GAMES`.

    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    return [rule for rule in RULES.values() if rule.game == game]


def section_of(rule: Rule) -> Section:
    """Return the most specific contract section that the rule belongs to."""
    matches = [s for s in SECTIONS if s.game == rule.game and s.contains(rule.id)]
    if not matches:
        raise ValueError(f"rule {rule.id} belongs to no section")
    return max(matches, key=lambda section: len(section.prefix))
