"""The variant registry: every game is found by its name or an alias.

>>> get_variant("hd").name
'hotdeath'
>>> [v.name for v in all_variants()]
['standard', 'hotdeath', 'cutthroat', 'throwdown']
"""

from __future__ import annotations

from typing import Final

from hotdeath.errors import OptionError
from hotdeath.variants.cutthroat import CUTTHROAT
from hotdeath.variants.hotdeath import HOTDEATH
from hotdeath.variants.standard import STANDARD
from hotdeath.variants.throwdown import THROWDOWN
from hotdeath.variants.variant import Variant

_REGISTRY: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}


def register(variant: Variant) -> None:
    """Add a variant (its name and aliases must be new)."""
    for key in (variant.name, *variant.aliases):
        if key in _REGISTRY or key in _ALIASES:
            raise ValueError(f"variant name {key!r} is already registered")
    _REGISTRY[variant.name] = variant
    for alias in variant.aliases:
        _ALIASES[alias] = variant.name


def unregister(name: str) -> None:
    """Remove the variant called ``name`` and its aliases (a test's or a plug-in's variant)."""
    variant = _REGISTRY.pop(name)
    for alias in variant.aliases:
        _ALIASES.pop(alias, None)


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (or an alias); :class:`OptionError` if unknown."""
    if isinstance(name, str):  # the exact name first, as simulations and benchmarks give it
        variant = _REGISTRY.get(name)
        if variant is not None:
            return variant
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _REGISTRY:
        raise OptionError(
            "unknown_variant",
            f"unknown variant {name!r} (variants: {', '.join(_REGISTRY)})",
        )
    return _REGISTRY[key]


def all_variants() -> list[Variant]:
    """Every registered variant, in registration order."""
    return list(_REGISTRY.values())


register(STANDARD)
register(HOTDEATH)
register(CUTTHROAT)
register(THROWDOWN)

DEFAULT_VARIANT: Final = HOTDEATH.name
"""The game every tool starts when none is named (Hot Death)."""
BASIC_VARIANT: Final = STANDARD.name
"""The plainest game (standard Uno): the single-agent RL environment's default."""

__all__ = ["BASIC_VARIANT", "DEFAULT_VARIANT", "Variant", "all_variants", "get_variant",
           "register", "unregister"]
