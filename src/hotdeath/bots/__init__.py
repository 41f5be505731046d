"""Bots: players that see only a seat's view, so they cannot cheat by construction.

A bot is anything with a ``name`` and ``choose(view, rng)`` (the :class:`Bot` protocol).
``view`` is :class:`hotdeath.view.View` for the bot's seat (its ``legal_actions`` are the
seat's options now) and ``rng`` a :class:`random.Random` owned by the caller, so games
replay exactly from a seed.  A bot whose seat is the current player must return one of
``view.legal_actions``; a bot asked about an out-of-turn window (a Uno call or catch, a 69
challenge, a jump-in) may return ``None`` to let it go by.

Bots are made by *spec*: ``name`` or ``name:arg,key=value,...``, for example ``random``,
``heuristic:expert``, ``heuristic:skill=strong,aggression=4`` or
``ismcts:seconds=0.5``.  :func:`make_bot` builds one, :func:`bot_catalog` lists every bot
with its parameters (for command lines and the lobby), :func:`register_bot` adds one.
:mod:`hotdeath.bots.arena` runs bots at a table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from hotdeath.actions import Action
from hotdeath.view import View


@runtime_checkable
class Bot(Protocol):
    """The bot interface."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """Pick one of ``view.legal_actions`` (``None``: let an out-of-turn window go by)."""
        ...


@dataclass(frozen=True, slots=True)
class BotParam:
    """One parameter of a bot, as a spec may set it."""

    name: str
    kind: type[int] | type[float] | type[str]
    default: int | float | str
    help: str
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> int | float | str:
        """The value of ``text`` for this parameter, or a ``ValueError`` saying what fits."""
        if self.choices:
            if text not in self.choices:
                raise ValueError(
                    f"{self.name} must be one of {', '.join(self.choices)} (got {text!r})"
                )
            return text
        try:
            return self.kind(text)
        except ValueError:
            raise ValueError(
                f"{self.name} must be {'an integer' if self.kind is int else 'a number'}"
                f" (got {text!r})"
            ) from None


@dataclass(frozen=True, slots=True)
class BotInfo:
    """A registered bot: its name, a one-line description, parameters and factory.

    ``budget`` names the float parameter that is the bot's thinking time in seconds per
    decision, for bots that search (``None``: the bot answers at once).  Callers that must
    stay responsive (the server) run such bots off their event loop and cap the budget.
    ``fits(variant, players)`` says whether the bot can play that table (``None``: every
    table); a front end seating a bot asks it first (:func:`bot_fits`).
    """

    name: str
    description: str
    factory: Callable[..., Bot]
    params: tuple[BotParam, ...] = field(default=())
    budget: str | None = None
    fits: Callable[[str, int], bool] | None = None


_REGISTRY: dict[str, BotInfo] = {}


def register_bot(
    name: str, description: str, params: Sequence[BotParam] = (), budget: str | None = None,
    fits: Callable[[str, int], bool] | None = None,
) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    """Class or function decorator: register a bot factory under ``name``.

    The factory is called with one keyword argument per parameter, already converted.
    ``budget`` names the parameter that is a thinking time in seconds; ``fits`` says which
    tables the bot plays (see :class:`BotInfo`).
    """
    if budget is not None and not any(p.name == budget and p.kind is float for p in params):
        raise ValueError(f"bot {name!r}: budget {budget!r} is not one of its float parameters")

    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        _REGISTRY[name] = BotInfo(name, description, factory, tuple(params), budget, fits)
        return factory

    return deco


def bot_catalog() -> list[BotInfo]:
    """Every registered bot: the built-in ones in module order, then the others."""
    _load_builtin()

    def rank(info: BotInfo) -> int:
        module = getattr(info.factory, "__module__", "")
        if module in _BUILTIN_MODULES:
            return _BUILTIN_MODULES.index(module)
        return len(_BUILTIN_MODULES)

    return sorted(_REGISTRY.values(), key=rank)


def parse_spec(spec: str) -> tuple[BotInfo, dict[str, int | float | str]]:
    """Split a bot spec into its registered bot and converted parameters.

    ``heuristic:expert,aggression=4``: bare values fill the parameters in order, then
    ``key=value`` pairs set them by name.  Raises ``ValueError`` naming what is wrong.
    """
    _load_builtin()
    name, _, rest = spec.strip().partition(":")
    if name not in _REGISTRY:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(_REGISTRY)})")
    info = _REGISTRY[name]
    by_name = {p.name: p for p in info.params}
    values: dict[str, int | float | str] = {p.name: p.default for p in info.params}
    position = 0
    for part in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, text = part.partition("=")
        if not eq:
            if position >= len(info.params):
                raise ValueError(f"bot {name!r} takes no more values (got {part!r})")
            param = info.params[position]
            position += 1
            text = key
        elif key not in by_name:
            allowed = ", ".join(by_name) or "none"
            raise ValueError(f"bot {name!r} has no parameter {key!r} (parameters: {allowed})")
        else:
            param = by_name[key]
        values[param.name] = param.parse(text)
    return info, values


def bot_fits(spec: str, variant: str, players: int) -> bool:
    """Whether the bot of ``spec`` can play ``variant`` (a registry name) at ``players`` seats.

    >>> bot_fits("heuristic:expert", "throwdown", 3)
    True
    >>> bot_fits("neural", "throwdown", 3)
    False
    """
    info, _ = parse_spec(spec)
    return info.fits is None or info.fits(variant, players)


def make_bot(spec: str) -> Bot:
    """A bot from its spec (see the module docstring); ``ValueError`` on a bad spec."""
    info, values = parse_spec(spec)
    return info.factory(**values)


_loaded = False


def _load_builtin() -> None:
    """Import the built-in bot modules (they register themselves) once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


_BUILTIN_MODULES: list[str] = [
    "hotdeath.bots.simple",
    "hotdeath.bots.heuristic",
    "hotdeath.bots.ismcts",
    "hotdeath.bots.master",
    "hotdeath.bots.external",
    "hotdeath.bots.neural",
]
"""Modules whose import registers the built-in bots, in catalog order."""

__all__ = [
    "Bot",
    "BotInfo",
    "BotParam",
    "bot_catalog",
    "bot_fits",
    "make_bot",
    "parse_spec",
    "register_bot",
]


# --------------------------------------------------------------------------- bots in words

BOT_RANKS: dict[str, tuple[int, str]] = {
    "random": (0, "random"),
    "heuristic:skill=weak": (1, "easy"),
    "basic": (2, "casual"),
    "heuristic:skill=strong": (3, "strong"),
    "heuristic:skill=expert": (4, "expert"),
    "neural": (4, "learned"),
    "ismcts": (5, "thinking"),
    "master": (6, "master"),
}
"""Each bot's place and the word people read for it.  The lobby's order and ratings are the
ladder's (:mod:`hotdeath.bots.ladder`, measured: docs/bots.md, "The ladder")."""


def bot_rank(spec: str) -> tuple[int, str]:
    """A bot spec's place by measured strength and the word people read for it.

    >>> bot_rank("heuristic:skill=weak") < bot_rank("basic")
    True
    >>> bot_rank("ismcts:seconds=0.5")
    (5, 'thinking')
    """
    try:
        info, values = parse_spec(spec)
    except ValueError:
        return (99, "bot")
    level = next((p for p in info.params if p.choices), None)
    key = f"{info.name}:{level.name}={values[level.name]}" if level is not None else info.name
    return BOT_RANKS.get(key, BOT_RANKS.get(info.name, (50, info.name)))


def bot_label(spec: str) -> str:
    """A bot level in people's words: ``strong bot``, ``thinking bot (0.5 s a move)``.

    >>> bot_label("heuristic:skill=strong"), bot_label("ismcts:seconds=0.5")
    ('strong bot', 'thinking bot (0.5 s a move)')
    """
    word = bot_rank(spec)[1]
    try:
        info, values = parse_spec(spec)
    except ValueError:
        return f"{word} bot"
    if info.budget is not None:
        return f"{word} bot ({float(values[info.budget]):g} s a move)"
    return f"{word} bot"
