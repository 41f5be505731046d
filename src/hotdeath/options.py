"""Declared options: each variant has a frozen dataclass of typed options.

An option is declared with :func:`option` (default, allowed values, a one-line
description and the rule it changes).  :func:`resolve` validates a preset plus
overrides once, with an error naming the bad option and the allowed values; the engine
then reads plain typed attributes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, TypeVar

from hotdeath.errors import OptionError

OptionValue = bool | int | str

OPTION_GROUPS: Final[Mapping[str, str]] = MappingProxyType({
    "deal": "Dealing and the first card",
    "play": "Playing and drawing",
    "cards": "Special cards and attacks",
    "uno": "Calling Uno",
    "score": "Scoring and the end of the game",
    "table": "Table and deck",
})
"""What an option changes (its ``group``), with the heading people read, in lobby order."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """Description of one option of a variant."""

    name: str
    type: str  # "bool" | "int" | "choice"
    default: OptionValue
    values: tuple[OptionValue, ...]  # choices, or (min, max) for ints
    description: str
    rule: str
    title: str = ""
    """What people read as the option's name (never its identifier)."""
    sentence: str = ""
    """One plain sentence saying what the option changes."""
    group: str = ""
    """What the option changes: a key of :data:`OPTION_GROUPS`."""
    labels: tuple[tuple[OptionValue, str], ...] = ()
    """The words of each allowed value of a choice option."""

    def words(self, value: OptionValue) -> str:
        """A value in words for people: its label, yes/no, or the number.

        >>> OptionSpec("x", "bool", True, (True, False), "", "", "X").words(False)
        'no'
        """
        for v, text in self.labels:
            if v == value and isinstance(v, bool) == isinstance(value, bool):
                return text
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def allowed(self) -> str:
        """The allowed values in words."""
        if self.type == "bool":
            return ", ".join("true" if v else "false" for v in self.values)
        if self.type == "int":
            lo, hi = self.values
            return f"an integer from {lo} to {hi}"
        return ", ".join(str(v) for v in self.values)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "values": list(self.values),
            "description": self.description,
            "rule": self.rule,
            "title": self.title,
            "sentence": self.sentence,
            "group": self.group,
            "labels": {str(v).lower() if isinstance(v, bool) else str(v): text
                       for v, text in self.labels},
        }

    def coerce(self, value: object) -> OptionValue:
        """Validate ``value`` (or its text form) for this option and return it typed."""
        bad = OptionError(
            "bad_option_value",
            f"option {self.name!r}: {value!r} is not allowed (allowed: {self.allowed()})",
        )
        if self.type == "bool":
            if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
                value = value.lower() in ("true", "yes", "1")
            if isinstance(value, bool) and value in self.values:
                return value
            raise bad
        if self.type == "int":
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise bad from None
            if not isinstance(value, int):
                raise bad
            lo, hi = int(self.values[0]), int(self.values[1])
            if not lo <= value <= hi:
                raise bad
            return value
        for v in self.values:
            if isinstance(v, bool) != isinstance(value, bool):
                continue
            if value == v or (isinstance(value, str) and str(v) == value.lstrip("+")):
                return v
        raise bad


def option(
    default: OptionValue,
    description: str,
    rule: str,
    values: tuple[OptionValue, ...] | None = None,
    choice: bool = False,
    *,
    title: str = "",
    sentence: str = "",
    group: str = "",
    labels: Mapping[OptionValue, str] | None = None,
) -> Any:
    """Declare an option field (use inside an options dataclass).

    An int option takes ``values=(min, max)``; with ``choice=True`` its values are a list
    of allowed integers instead.  A bool option allows both values unless ``values`` fixes
    it (e.g. ``(True,)`` for a rule a variant does not let change).  ``title``,
    ``sentence``, ``group`` (a key of :data:`OPTION_GROUPS`) and ``labels`` (the words of
    each choice) are what people read in the lobby and at the table.
    """
    vals: tuple[OptionValue, ...]
    if isinstance(default, bool):
        typ, vals = "bool", values or (True, False)
    elif isinstance(default, int) and not choice:
        typ = "int"
        if values is None:
            raise TypeError("int options need (min, max)")
        vals = values
    else:
        typ = "choice"
        if values is None:
            raise TypeError("choice options need their values")
        vals = values
    return field(
        default=default,
        metadata={"type": typ, "values": vals, "description": description, "rule": rule,
                  "title": title, "sentence": sentence, "group": group,
                  "labels": tuple((labels or {}).items())},
    )


def like(
    cls: type[Any],
    name: str,
    rule: str,
    *,
    default: OptionValue | None = None,
    values: tuple[OptionValue, ...] | None = None,
    description: str | None = None,
    title: str | None = None,
    sentence: str | None = None,
    labels: Mapping[OptionValue, str] | None = None,
) -> Any:
    """Declare an option as another variant's option ``name`` of ``cls``, with its own rule.

    A variant that modifies another (Cutthroat is standard Uno played mean) derives its
    options from the other's instead of copying them: everything the base option says
    (type, default, allowed values, words, group) is kept unless given here.  Labels of
    values the option no longer allows are dropped.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Base:
    ...     decks: int = option(1, "Number of decks", "STD-1.1", (1, 2), title="Decks")
    >>> @dataclass(frozen=True)
    ... class Mean:
    ...     decks: int = like(Base, "decks", "CT-1.1", default=2)
    >>> [(s.default, s.rule, s.title) for s in specs(Mean)]
    [(2, 'CT-1.1', 'Decks')]
    """
    base = next((f for f in dataclasses.fields(cls) if f.name == name), None)
    if base is None:
        raise TypeError(f"{cls.__name__} has no option {name!r}")
    meta = dict(base.metadata)
    meta["rule"] = rule
    if values is not None:
        meta["values"] = values
    for key, value in (("description", description), ("title", title),
                       ("sentence", sentence)):
        if value is not None:
            meta[key] = value
    if labels is not None:
        meta["labels"] = tuple(labels.items())
    allowed = meta["values"]
    if meta["type"] != "int":
        meta["labels"] = tuple((v, w) for v, w in meta["labels"] if v in allowed)
    return field(default=base.default if default is None else default, metadata=meta)


def fixed(value: OptionValue) -> Any:
    """Declare a setting that a derived variant fixes: a field, never an option.

    A variant whose options subclass another's (Cutthroat's standard's) inherits every
    option; one that the variant takes away from players is declared again with this: the
    same attribute for the rules that read it, with ``value`` in every game, and no longer an
    option (:func:`specs` skips it, so players, positions and records never see it).  Set it
    in ``__post_init__`` where it follows from the variant's own options.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Base:
    ...     jump_in: bool = option(False, "Jump-ins", "STD-12.3")
    >>> @dataclass(frozen=True)
    ... class Strict(Base):
    ...     jump_in: bool = fixed(False)
    >>> [s.name for s in specs(Base)], specs(Strict), Strict().jump_in
    (['jump_in'], [], False)
    """
    return field(default=value, init=False)


_SPECS: dict[type[Any], list[OptionSpec]] = {}


def specs(cls: type[Any]) -> list[OptionSpec]:
    """The option specs of an options dataclass, in declaration order."""
    cached = _SPECS.get(cls)
    if cached is not None:
        return list(cached)
    out: list[OptionSpec] = []
    for f in dataclasses.fields(cls):
        m = f.metadata
        if "type" not in m:  # not a declared option (e.g. a class constant, once compiled)
            continue
        default: OptionValue = f.default  # type: ignore[assignment]
        out.append(
            OptionSpec(f.name, m["type"], default, m["values"], m["description"], m["rule"],
                       m.get("title", ""), m.get("sentence", ""), m.get("group", ""),
                       m.get("labels", ()))
        )
    _SPECS[cls] = out
    return list(out)


T = TypeVar("T")


def resolve(
    cls: type[T],
    variant: str,
    preset_name: str,
    presets: Mapping[str, Mapping[str, OptionValue]],
    overrides: Mapping[str, object] | None,
) -> T:
    """Build options from a named preset plus overrides, validating every value."""
    if preset_name not in presets:
        raise OptionError(
            "unknown_preset",
            f"variant {variant!r} has no preset {preset_name!r} "
            f"(allowed: {', '.join(presets)})",
        )
    by_name = {s.name: s for s in specs(cls)}
    values: dict[str, OptionValue] = {}
    for source in (presets[preset_name], overrides or {}):
        for k, v in source.items():
            if k not in by_name:
                raise OptionError(
                    "unknown_option",
                    f"variant {variant!r} has no option {k!r} (options: {', '.join(by_name)})",
                )
            values[k] = by_name[k].coerce(v)
    return cls(**values)


def as_dict(opts: object) -> dict[str, OptionValue]:
    """All option values of an options dataclass instance."""
    return {s.name: getattr(opts, s.name) for s in specs(type(opts))}


def rebuild(cls: type[T], values: dict[str, OptionValue]) -> T:
    """The options object of class ``cls`` with option ``values`` (how one is unpickled)."""
    return cls(**values)


def reduce_options(opts: object) -> tuple[Any, tuple[type[Any], dict[str, OptionValue]]]:
    """What ``__reduce__`` of an options dataclass returns: its class and option values.

    An options object is pickled as the arguments of its constructor, which sets the
    fields it derives (:func:`fixed`) again.  Pickle's default, field by field onto a
    bare object, does not work on the compiled core, where a frozen dataclass refuses
    to have its fields set (a tournament's workers once failed on it as they started).

    >>> import pickle
    >>> from hotdeath.variants.throwdown.options import ThrowdownOptions
    >>> o = ThrowdownOptions(decks=1)
    >>> pickle.loads(pickle.dumps(o)) == o
    True
    """
    return rebuild, (type(opts), as_dict(opts))


_NON_DEFAULTS: dict[int, tuple[object, dict[str, OptionValue]]] = {}
"""``id(opts)`` -> (opts, its non-default options): options objects are immutable, and a view
asks for them on every move (the object is held so that its id stays its own)."""


def non_defaults(opts: object) -> dict[str, OptionValue]:
    """Only the options that differ from their defaults (a new dict each call)."""
    hit = _NON_DEFAULTS.get(id(opts))
    if hit is not None and hit[0] is opts:
        return dict(hit[1])
    found = {
        s.name: getattr(opts, s.name)
        for s in specs(type(opts))
        if getattr(opts, s.name) != s.default
    }
    if len(_NON_DEFAULTS) >= 512:
        _NON_DEFAULTS.clear()
    _NON_DEFAULTS[id(opts)] = (opts, found)
    return dict(found)
