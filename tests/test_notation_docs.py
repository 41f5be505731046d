"""docs/notation.md and the position schema: the examples run, the schema fits the engine.

Every worked example of docs/notation.md and of its longer companion,
tests/data/notation-examples.md, is a ``<!-- example: NAME [exit=N] -->`` marker, a
```json position and one or more ```console blocks whose first line is a ``$ hotdeath``
command.  Each position must validate against ``data/position.schema.json`` and load, and
each command, run in a folder holding the position as ``NAME.json``, must exit as marked and
print the shown lines in the order shown (``...`` stands for lines left out).
"""

from __future__ import annotations

import json
import random
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import hotdeath
from hotdeath.actions import KIND_WORDS
from hotdeath.cards import FACE_CODE
from hotdeath.cli import app
from hotdeath.notation import _KNOWN_KEYS, RECORD_FORMAT, from_position, replay, to_position
from hotdeath.state import PHASE_NAMES
from hotdeath.variants import all_variants

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "notation.md"
MORE = ROOT / "tests" / "data" / "notation-examples.md"
"""The longer worked examples, kept as test data (the page links to them)."""
ENV: dict[str, str | None] = {
    "COLUMNS": "100",
    "NO_COLOR": "1",
    "FORCE_COLOR": None,
    "TTY_COMPATIBLE": None,
    "TTY_INTERACTIVE": None,
}

MARKER = re.compile(r"^<!--\s*example:\s*([\w-]+)(?:\s+exit=(\d+))?\s*-->\s*$")
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass
class Example:
    name: str
    exit_code: int
    position: dict[str, Any]
    commands: list[tuple[str, list[str]]]  # (command line, expected output lines)


def _blocks(lines: list[str], start: int) -> tuple[str, list[str], int]:
    """The fenced block opening at ``lines[start]``: (language, body, index after it)."""
    m = FENCE.match(lines[start])
    assert m is not None, f"line {start + 1}: expected a fenced block"
    end = start + 1
    while not lines[end].startswith("```"):
        end += 1
    return m.group(1), lines[start + 1:end], end + 1


def parse_examples(text: str) -> list[Example]:
    lines = text.splitlines()
    out: list[Example] = []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m is None:
            i += 1
            continue
        name, code = m.group(1), int(m.group(2) or 0)
        lang, body, i = _blocks(lines, i + 1)
        assert lang == "json", f"example {name}: the marker must precede a json block"
        position = json.loads("\n".join(body))
        commands: list[tuple[str, list[str]]] = []
        while i < len(lines):
            if not lines[i].strip():
                i += 1
                continue
            if not lines[i].startswith("```console"):
                break
            _, body, i = _blocks(lines, i)
            assert body and body[0].startswith("$ hotdeath "), f"example {name}: no command"
            commands.append((body[0][2:], body[1:]))
        assert commands, f"example {name} has no console block"
        out.append(Example(name, code, position, commands))
    return out


def json_blocks(text: str) -> list[Any]:
    lines = text.splitlines()
    out: list[Any] = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("```json"):
            _, body, i = _blocks(lines, i)
            out.append(json.loads("\n".join(body)))
        else:
            i += 1
    return out


def load_schema() -> dict[str, Any]:
    text = files("hotdeath").joinpath("data/position.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


DOC_TEXT = DOC.read_text(encoding="utf-8")
MORE_TEXT = MORE.read_text(encoding="utf-8")
EXAMPLES = parse_examples(DOC_TEXT) + parse_examples(MORE_TEXT)
SCHEMA = load_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def schema_errors(data: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(data)]


def expect_in_order(expected: list[str], output: str) -> None:
    """Every expected line (``...``: any lines) appears in ``output``, in this order."""
    actual = [line.rstrip() for line in output.splitlines()]
    pos = 0
    for want in expected:
        want = want.rstrip()
        if not want or want == "...":
            continue
        try:
            pos = actual.index(want, pos) + 1
        except ValueError:
            raise AssertionError(
                f"line not found (in order):\n  {want!r}\noutput:\n{output}"
            ) from None


# ------------------------------------------------------------------ the examples


def test_there_are_enough_examples() -> None:
    names = [ex.name for ex in EXAMPLES]
    assert len(names) >= 8
    assert len(set(names)) == len(names), "example names must be unique"


@pytest.mark.parametrize("example", EXAMPLES, ids=[ex.name for ex in EXAMPLES])
def test_example_position_is_valid(example: Example) -> None:
    assert schema_errors(example.position) == []
    state = from_position(example.position)
    assert to_position(from_position(to_position(state))) == to_position(state)


@pytest.mark.parametrize("example", EXAMPLES, ids=[ex.name for ex in EXAMPLES])
def test_example_commands_print_the_shown_output(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / f"{example.name}.json").write_text(json.dumps(example.position),
                                                   encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for command, expected in example.commands:
        argv = shlex.split(command)
        assert argv[0] == "hotdeath"
        assert f"{example.name}.json" in argv, f"{command!r} must use {example.name}.json"
        result = CliRunner().invoke(app, argv[1:], env=ENV)
        assert result.exit_code == example.exit_code, result.output
        assert "Traceback" not in result.output
        expect_in_order(expected, result.output)


def test_every_json_block_of_the_doc_loads() -> None:
    blocks = json_blocks(DOC_TEXT) + json_blocks(MORE_TEXT)
    assert len(blocks) > len(EXAMPLES)
    for data in blocks:
        if data.get("format") == RECORD_FORMAT:
            state = replay(data)
            assert len(state.history) == len(data["actions"])
        else:
            assert schema_errors(data) == []
            from_position(data)


# ------------------------------------------------------------------ the doc covers the notation


def test_doc_lists_every_card_code_and_action_word() -> None:
    listing = DOC_TEXT.split("All 81 canonical codes:", 1)[1].split("```text\n", 1)[1]
    assert sorted(listing.split("```", 1)[0].split()) == sorted(FACE_CODE)
    for word in KIND_WORDS:
        assert f"`{word}`" in DOC_TEXT, word
    for field in _KNOWN_KEYS:
        assert f"`{field}`" in DOC_TEXT, field
    for phase in PHASE_NAMES:
        assert f"`{phase}`" in DOC_TEXT, phase
    assert "`BS` is the blue Skip" in DOC_TEXT
    assert "`SHIELD`" in DOC_TEXT


# ------------------------------------------------------------------ the schema


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["required"] == ["variant"]


def test_schema_fields_are_the_loaders_fields() -> None:
    assert set(SCHEMA["properties"]) == set(_KNOWN_KEYS)
    assert SCHEMA["additionalProperties"] is False
    assert SCHEMA["properties"]["phase"]["enum"] == list(PHASE_NAMES)
    assert SCHEMA["$defs"]["card"]["enum"] == list(FACE_CODE)


def test_schema_options_match_the_variants() -> None:
    conditions = {tuple(c["if"]["properties"]["variant"]["enum"]): c["then"]
                  for c in SCHEMA["allOf"]}
    for variant in all_variants():
        defs = SCHEMA["$defs"].get(f"{variant.name}_options")
        if defs is None:  # a variant added after the schema: only generic options
            continue
        assert set(defs["properties"]) == {s.name for s in variant.option_specs()}
        for spec in variant.option_specs():
            prop = defs["properties"][spec.name]
            if spec.type == "choice":
                assert prop["enum"] == list(spec.values)
            else:
                assert prop["type"] == ("boolean" if spec.type == "bool" else "integer")
        then = conditions[(variant.name, *variant.aliases)]["properties"]
        assert then["preset"]["enum"] == list(variant.presets)
        assert then["options"]["$ref"] == f"#/$defs/{variant.name}_options"


def test_schema_rejects_bad_positions() -> None:
    good: dict[str, Any] = {"variant": "hotdeath", "hands": [["R3"], ["G5"]], "top": "R9"}
    assert schema_errors(good) == []
    bad: list[dict[str, Any]] = [
        {},
        {**good, "bogus": 1},
        {**good, "top": "XX"},
        {**good, "phase": "playing"},
        {**good, "direction": "left"},
        {**good, "color": "purple"},
        {**good, "hands": [["R3"], [7]]},
        {**good, "options": {"nope": True}},
        {**good, "options": {"magic5_effect": "sometimes"}},
        {**good, "preset": "official"},
        {**good, "attack": {"kind": "burn"}},
        {"variant": "standard", "top": "R9", "options": {"stacking": "huge"}},
        {"variant": "standard", "top": "R9", "pot": {"count": -2}},
    ]
    for data in bad:
        assert schema_errors(data), data


def _random_positions(variant: str, preset: str, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    info = hotdeath.get_variant(variant)
    players = rng.randint(info.min_players, min(info.max_players, 6))
    try:
        game = hotdeath.new_game(variant, players=players, seed=seed, preset=preset)
    except hotdeath.OptionError:
        game = hotdeath.new_game(variant, players=info.default_players, seed=seed,
                                 preset=preset)
    out = [to_position(game)]
    for step in range(400):
        if game.is_terminal():
            break
        seat = rng.choice(game.actors())
        acts = list(game.legal_actions(seat))
        if seat != game.current_player():  # leaving out of turn (TD-6.6) only now and then
            acts = [a for a in acts if str(a) != "leave"] or acts
            if not acts or (str(acts[0]) == "leave" and rng.random() < 0.9):
                seat = game.current_player()
                acts = list(game.legal_actions(seat))
        game.apply_action(rng.choice(acts), seat)
        if step % 7 == 0:
            out.append(to_position(game))
    out.append(to_position(game))
    return out


# Validating thousands of positions whole costs minutes; most of their parts repeat.  A
# position is valid exactly when its context (variant, preset, options: the only fields the
# schema's conditions read) is valid, its keys are allowed and each other field is valid;
# an array whose schema constrains only its items is valid exactly when it is an array and
# its distinct items are valid; a plain object, when its keys are and its values are.  So
# a position is cut into those parts, and each distinct (schema node, value) is validated
# once; a sample of whole positions is validated as well, as a cross-check.

CONTEXT = ("variant", "preset", "options")
"""The top-level fields the schema's conditions (``allOf``/``if``) read."""

_ITEMS_ONLY = {"type", "items", "description"}
_PLAIN_OBJECT = {"type", "properties", "required", "additionalProperties", "description"}
_CHECKED: dict[tuple[int, str], list[str]] = {}


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    """A schema node with a local ``$ref`` (and nothing but a description) followed."""
    while set(node) <= {"$ref", "description"} and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/$defs/"), ref
        node = SCHEMA["$defs"][ref.removeprefix("#/$defs/")]
    return node


def _keys_node(node: dict[str, Any]) -> dict[str, Any]:
    """The part of a plain object's schema that reads only its keys."""
    out: dict[str, Any] = {"type": "object", "required": node.get("required", [])}
    if node.get("additionalProperties") is False:
        out["propertyNames"] = {"enum": sorted(node["properties"])}
    return out


def _parts(value: Any, node: dict[str, Any]) -> Iterator[tuple[dict[str, Any], Any]]:
    """The (schema node, value) checks whose conjunction is ``value``'s validity."""
    node = _resolve(node)
    if isinstance(value, list) and set(node) <= _ITEMS_ONLY and "items" in node:
        for item in {json.dumps(v, sort_keys=True): v for v in value}.values():
            yield from _parts(item, node["items"])
        return
    if (isinstance(value, dict) and set(node) <= _PLAIN_OBJECT and "properties" in node
            and node.get("additionalProperties", False) is False):
        yield _keys_node(node), dict.fromkeys(value, 0)
        for k, v in value.items():
            if k in node["properties"]:
                yield from _parts(v, node["properties"][k])
        return
    yield node, value


def _check(node: dict[str, Any], value: Any) -> list[str]:
    key = (id(node), json.dumps(value, sort_keys=True))
    if key not in _CHECKED:
        validator = VALIDATOR.evolve(schema=node)
        _CHECKED[key] = [f"{list(e.absolute_path)}: {e.message}"
                         for e in validator.iter_errors(value)]
    return _CHECKED[key]


def shape_errors(data: Any) -> list[str]:
    """Whether ``schema_errors(data)`` is empty, from parts each validated once."""
    if not isinstance(data, dict) or "variant" not in data:
        return schema_errors(data)
    errors = _check(SCHEMA, {k: data[k] for k in CONTEXT if k in data})
    errors = errors + _check(_KEYS, dict.fromkeys(data, 0))
    props = SCHEMA["properties"]
    for k, v in data.items():
        if k not in CONTEXT and k in props:
            for node, value in _parts(v, props[k]):
                errors = errors + _check(node, value)
    return errors


_KEYS = _keys_node(SCHEMA)


def test_the_schema_conditions_read_only_the_context() -> None:
    """What makes validating by parts exact: no condition reads another field."""
    assert set(SCHEMA) <= {"$schema", "$id", "title", "description", "type", "required",
                           "additionalProperties", "allOf", "properties", "$defs"}
    assert SCHEMA["required"] == ["variant"] and SCHEMA["additionalProperties"] is False
    for cond in SCHEMA["allOf"]:
        assert set(cond) == {"if", "then"}
        assert set(cond["if"]["properties"]) | set(cond["then"]["properties"]) <= set(CONTEXT)


def test_shape_errors_find_what_whole_validation_finds() -> None:
    good = _random_positions("hotdeath", "canonical", 1)[5]
    assert shape_errors(good) == [] == schema_errors(good)
    bad_card = {**good, "draw": [*good["draw"], "Z9"]}
    bad_field = {**good, "nonsense": 1}
    bad_options = {**good, "options": {"no_such_option": True}}
    bad_seat = {**good, "turn": "P1"}
    for bad in (bad_card, bad_field, bad_options, bad_seat):
        assert schema_errors(bad), bad
        assert shape_errors(bad), bad


@pytest.mark.parametrize(
    ("variant", "preset"),
    [(v.name, p) for v in all_variants() for p in v.presets],
)
def test_random_positions_validate(variant: str, preset: str) -> None:
    checked = 0
    for seed in range(12):
        positions = _random_positions(variant, preset, seed)
        for i, data in enumerate(positions):
            errors = shape_errors(data)
            assert errors == [], (variant, preset, seed, errors)
            checked += 1
            if i % 25 == 0 or i == len(positions) - 1:  # whole, as a cross-check
                assert schema_errors(data) == [], (variant, preset, seed)
    assert checked > 100
