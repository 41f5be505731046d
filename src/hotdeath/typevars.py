"""The type variable of the classes generic over a variant's options.

:class:`~hotdeath.state.GameState`, :class:`~hotdeath.variants.base.VariantState` and
:class:`~hotdeath.variants.base.Variant` take the options class of their variant as a type
parameter, so that a variant's ``self.opts`` has its own options type and ``mypy`` rejects a
misspelt option.  Its default is ``Any``: code that holds a state of any variant writes a
plain ``GameState``.

A type variable with a default needs ``typing_extensions`` before Python 3.13; the core
imports only the standard library, so the default exists for the type checker alone.  This
module stays interpreted in the compiled core (``scripts/build_mypyc.py``): mypyc would
compile the run-time branch below as unreachable code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    OptionsT = TypeVar("OptionsT", default=Any)
else:
    from typing import TypeVar

    OptionsT = TypeVar("OptionsT")

__all__ = ["OptionsT"]
