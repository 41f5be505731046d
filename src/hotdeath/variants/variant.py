"""The registry entry of a game: :class:`Variant`, the immutable description that creates states.

Part of the variant contract (:mod:`hotdeath.variants.base` holds the rest: ``VariantState``,
``VariantKit``, ``Goal``).  ``Variant`` is generic over the game's options class, so that
``resolve_options`` returns it and the state class and ``goal`` take it (see
:mod:`hotdeath.typevars`).  This module stays interpreted in the compiled core
(``scripts/build_mypyc.py``): mypyc cannot build a generic dataclass (mypyc/mypyc#827), and
a variant is read once per game, never on a hot path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic

from hotdeath.errors import OptionError
from hotdeath.events import Event
from hotdeath.options import OptionSpec, OptionValue, resolve, specs
from hotdeath.results import ResultExtra
from hotdeath.rng import DEAL_SCHEME, DEAL_SCHEMES
from hotdeath.typevars import OptionsT
from hotdeath.variants.base import Goal, VariantKit, VariantState

_RESOLVED: dict[str, dict[Any, Any]] = {}
_LAST_RESOLVED: dict[str, tuple[str | None, tuple[Any, ...], Any]] = {}


def _typed(options: Mapping[str, object] | None) -> tuple[Any, ...]:
    """``options`` as sorted (name, type, value) triples: the key of a resolved request.

    With the type in the key, ``{"decks": True}`` is not taken for ``{"decks": 1}`` (equal
    and of equal hash in Python), which resolving refuses.
    """
    return tuple(sorted((k, type(v), v) for k, v in options.items())) if options else ()
"""Per variant, the last request that was resolved and cached: its preset, a copy of its
overrides (None for none) and the options (see ``Variant.resolve_options``)."""


@dataclass(frozen=True)
class Variant(Generic[OptionsT]):
    """An immutable game description that creates states.

    ``presets`` maps a preset name to the options it sets (the first is the default);
    ``check`` validates option combinations against the player count.  Generic over its
    options class: ``resolve_options`` returns it, ``goal`` and the state class take it.
    """

    name: str
    title: str
    description: str
    options_cls: type[OptionsT]
    state_cls: type[VariantState[OptionsT]]
    presets: Mapping[str, Mapping[str, OptionValue]]
    preset_descriptions: Mapping[str, str]
    aliases: tuple[str, ...] = ()
    min_players: int = 2
    max_players: int = 10
    default_players: int = 4
    rule_prefix: str = "STD"
    extra: Mapping[str, Any] = field(default_factory=dict)
    goal_of: Callable[[OptionsT], Goal] | None = None
    """How a game is won under given (resolved) options: see :meth:`goal`."""
    preset_words: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Each preset for people: a name they understand and one plain sentence."""
    kit: VariantKit = field(default_factory=VariantKit)
    """What the front ends and tools know about this variant (:class:`VariantKit`)."""
    result_extras: tuple[ResultExtra, ...] = ()
    """The ``extras`` keys of this variant's hand and game results, with labels for people
    (``hotdeath.results``): front ends show them without knowing the variant."""

    def preset_title(self, preset: str) -> str:
        """A preset's name for people (its id with spaces when it has none).

        >>> from hotdeath.variants import get_variant
        >>> get_variant("standard").preset_title("house")
        'Party rules'
        """
        words = self.preset_words.get(preset)
        return words[0] if words else preset.replace("_", " ")

    def goal(self, opts: OptionsT) -> Goal:
        """How a game of this variant with the resolved ``opts`` is won.

        >>> from hotdeath.variants import get_variant
        >>> v = get_variant("hotdeath")
        >>> v.goal(v.resolve_options("canonical", {})).rule
        'HD-3.8'
        """
        if self.goal_of is None:
            raise NotImplementedError(f"variant {self.name!r} does not declare its goal")
        return self.goal_of(opts)

    @property
    def default_preset(self) -> str:
        """Name of the default preset."""
        return next(iter(self.presets))

    def option_specs(self) -> list[OptionSpec]:
        """Every option with its default, values, description and rule."""
        return specs(self.options_cls)

    def resolve_options(
        self, preset: str | None = None, options: Mapping[str, object] | None = None
    ) -> OptionsT:
        """Validate a preset plus overrides into this variant's options object.

        Options objects are immutable, so the result is cached for hashable overrides.
        """
        if preset is not None and not isinstance(preset, str):
            raise OptionError("unknown_preset", f"a preset is a name, not {preset!r:.60}")
        if options is not None and not isinstance(options, Mapping):
            raise OptionError("bad_option", "options are an object of names and values")
        typed = _typed(options)
        last = _LAST_RESOLVED.get(self.name)
        if last is not None and last[0] == preset and last[1] == typed:
            same: OptionsT = last[2]  # the same request as the last one (a simulation's
            return same  # new games)
        name = preset or self.default_preset
        try:
            key: Any = (name, typed)
            hash(key)
        except TypeError:
            key = None
        if key is None:
            return resolve(self.options_cls, self.name, name, self.presets, options)
        cache = _RESOLVED.setdefault(self.name, {})
        opts = cache.get(key)
        if opts is None:
            opts = resolve(self.options_cls, self.name, name, self.presets, options)
            if len(cache) < 256:
                cache[key] = opts
        _LAST_RESOLVED[self.name] = (preset, typed, opts)
        return opts

    def check_players(self, players: int, opts: OptionsT) -> None:
        """Reject a player count the variant or its options cannot host."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise OptionError(
                "bad_players",
                f"{self.name} takes {self.min_players} to {self.max_players} players, "
                f"not {players!r}",
            )
        self.state_cls.check_options(players, opts)

    def new_game(
        self,
        players: int | None = None,
        seed: int = 0,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        dealer: int | None = None,
        deal_scheme: int = DEAL_SCHEME,
    ) -> VariantState[OptionsT]:
        """Start a new game: validated options, a seeded shuffle, the first deal.

        ``deal_scheme``: how the deals follow from ``seed`` (:data:`hotdeath.rng.DEAL_SCHEME`,
        the default; 1 replays a game recorded before it).
        """
        opts = self.resolve_options(preset, options)
        if players is None:
            players = self.default_players
        self.check_players(players, opts)
        if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < players):
            raise OptionError("bad_dealer", f"dealer must be a seat from 0 to {players - 1}")
        if deal_scheme not in DEAL_SCHEMES:
            raise OptionError("bad_deal_scheme", "deal_scheme must be one of "
                              f"{', '.join(map(str, DEAL_SCHEMES))}")
        state = self.state_cls(self, opts, players, seed)  # a variant's own __init__ too
        state.deal_scheme = deal_scheme
        state.init_params = {"dealer": dealer}
        opening: list[Event] = []
        state._events = opening
        try:
            state.start(dealer)
        finally:
            state._events = None
        state.opening_events = opening
        return state

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description: presets and every option."""
        return {
            "name": self.name,
            "title": self.title,
            "aliases": list(self.aliases),
            "description": self.description,
            "players": {
                "min": self.min_players,
                "max": self.max_players,
                "default": self.default_players,
            },
            "default_preset": self.default_preset,
            "presets": {
                name: {
                    "description": self.preset_descriptions.get(name, ""),
                    "title": self.preset_title(name),
                    "sentence": self.preset_words.get(name, ("", ""))[1],
                    "options": dict(vals),
                }
                for name, vals in self.presets.items()
            },
            "options": [s.to_json() for s in self.option_specs()],
            "result_extras": [x.to_json() for x in self.result_extras],
        }
