"""No module outside ``hotdeath.variants`` branches on a variant's name (issue 12).

What a front end, a bot, the RL code or a tool knows about a game comes from the variant
through the contract (:class:`~hotdeath.variants.base.VariantKit`, the state's hooks).  This
test reads every source module under ``src/hotdeath`` and fails on

* a string literal equal to a variant's name or alias outside ``hotdeath/variants/``
  (docstrings may name examples, and so may longer help texts: only a whole literal that
  *is* a name counts);
* an import of a variant's own module (``hotdeath.variants.hotdeath`` …) from outside
  ``hotdeath/variants/``: front ends reach variants through the registry.

A few literals are the same word as a variant's name or alias while naming something else;
each is listed in ``ALLOWED`` with its meaning.
"""

from __future__ import annotations

import ast
from pathlib import Path

from hotdeath.variants import all_variants

SRC = Path(__file__).resolve().parent.parent / "src" / "hotdeath"
VARIANTS = SRC / "variants"

ALLOWED: dict[tuple[str, str], str] = {
    ("actions.py", "uno"): "the action word 'uno' (call Uno), not the alias of standard",
    ("tui/app.py", "uno"): "the terminal game's key binding for calling Uno",
    ("rl/spaces.py", "uno"): "the name of the RL slot of the Uno call",
    ("events.py", "uno"): "the event kind of an Uno call",
    ("report.py", "uno"): "the same event kind, counted per game",
    ("server/messages.py", "uno"): "the Uno call flag of an action in the state message's list of "
                               "legal actions (a protocol field), not the alias of standard",
    ("events.py", "throwdown"): "the event kind of a Throwdown draw pot, not the variant",
    ("simulate.py", "throwdown"): "the same event kind, counted as an attack",
    ("simulate.py", "uno"): "the event kind of an Uno call, counted in the mistake rates",
    ("coach.py", "throwdown"): "the event kind of a draw pot set on a seat, which the coach's "
                               "words name as a pot",
    ("cards.py", "hot_death"): "the card kind of the Hot Death card, not the variant",
    ("options.py", "uno"): "the option group of the Uno call's options",
    ("rulebook.py", "official"): "the source tag of the official Mattel rules",
}
"""(module, literal) pairs whose literal is another word that is spelt like a name."""


def _names() -> set[str]:
    out: set[str] = set()
    for v in all_variants():
        out.add(v.name)
        out.update(v.aliases)
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (module, class, function, attribute)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)):
                out.add(id(stmt.value))
    return out


def _offences(rel: str, text: str, names: set[str]) -> list[str]:
    """What in module ``rel`` (source ``text``) names a variant outside the allowed places."""
    tree = ast.parse(text)
    docs = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docs or node.value not in names:
                continue
            if (rel, node.value) in ALLOWED:
                continue
            found.append(f"{rel}:{node.lineno}: the literal {node.value!r}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            if parts[:2] == ["hotdeath", "variants"] and len(parts) > 2 and parts[2] != "base":
                found.append(f"{rel}:{node.lineno}: imports {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if (parts[:2] == ["hotdeath", "variants"] and len(parts) > 2
                        and parts[2] != "base"):
                    found.append(f"{rel}:{node.lineno}: imports {alias.name}")
    return found


def test_no_variant_names_outside_the_variants() -> None:
    names = _names()
    offences: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        if VARIANTS in path.parents:
            continue
        rel = path.relative_to(SRC).as_posix()
        offences += _offences(rel, path.read_text(encoding="utf-8"), names)
    assert not offences, "variant knowledge outside hotdeath/variants/:\n" + "\n".join(offences)


def test_the_check_finds_a_name_and_an_import() -> None:
    # the check itself can fail: a branch on a name and a variant import are both found,
    # a docstring naming a variant is not
    text = ('"""doc naming hotdeath"""\nfrom hotdeath.variants.throwdown import X\n'
            'def f(v):\n    """throwdown"""\n    return v == "throwdown"\n')
    found = _offences("probe.py", text, _names())
    assert sorted(found) == ["probe.py:2: imports hotdeath.variants.throwdown",
                             "probe.py:5: the literal 'throwdown'"]


def test_allowed_literals_are_still_used() -> None:
    # an exception that no longer matches anything must go
    names = _names()
    for (rel, literal), why in ALLOWED.items():
        assert literal in names, why
        tree = ast.parse((SRC / rel).read_text(encoding="utf-8"))
        assert any(isinstance(n, ast.Constant) and n.value == literal
                   for n in ast.walk(tree)), f"{rel}: {literal!r} is no longer used ({why})"


def _state_attributes() -> set[str]:
    """Every attribute and method name of the variants' states and of the variants."""
    from hotdeath.state import GameState

    names = {n for n in dir(GameState) if not n.startswith("__")}
    for v in all_variants():
        state = v.new_game(None, 0)
        names |= {n for n in dir(state) if not n.startswith("__")}
        names |= {n for n in vars(state) if not n.startswith("__")}
        names |= {n for n in dir(v) if not n.startswith("__")}
    # the bots' optional hooks share these words (simulate.py asks a bot for them)
    return names - {"new_game", "close", "errors", "game_over"}


def _getattr_offences(rel: str, text: str, names: set[str]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(text)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant) and node.args[1].value in names):
            found.append(f"{rel}:{node.lineno}: {node.func.id}(…, {node.args[1].value!r})")
    return found


def test_no_getattr_on_states_or_variants() -> None:
    # the contract is typed: a front end reads a state's or a variant's facts through the
    # declared hooks, never by probing for an attribute
    names = _state_attributes()
    offences: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        offences += _getattr_offences(rel, path.read_text(encoding="utf-8"), names)
    assert not offences, "getattr on a state or a variant:\n" + "\n".join(offences)
    probe = 'x = getattr(state, "deck", None)\ny = getattr(bot, "close", None)\n'
    assert _getattr_offences("probe.py", probe, names) == ["probe.py:1: getattr(…, 'deck')"]
