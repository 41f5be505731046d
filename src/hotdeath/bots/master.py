"""The ``master`` bot: the strongest search measured, on a CPU budget per move.

``master`` is the top level of the ladder (docs/bots.md, "The ladder"): the
:class:`~hotdeath.bots.ismcts.IsmctsBot` settings that measured strongest in paired first
hands against three ``heuristic:expert`` (:data:`MASTER_SPEC`), searching for ``seconds``
of **CPU time** per decision (``clock=cpu``), so that it plays the same on a busy machine
as on an idle one and a server can hold it to a CPU budget per move.  ``workers`` searches
each decision in that many processes at once (root-parallel): each part spends the budget,
so a move costs up to ``workers × seconds`` of CPU.  ``offload`` (the server's setting, not
a spec's) searches every part in a worker process, so the calling thread only waits for
them and never holds the interpreter's lock against a server's event loop.
"""

from __future__ import annotations

from typing import Final

from hotdeath.bots import BotParam, make_bot, register_bot
from hotdeath.bots.ismcts import IsmctsBot

MASTER_SPEC: Final = "ismcts:clock=cpu"
"""The search of ``master`` but its budget: the spec that measured strongest (docs/bots.md,
"Which search is master"), on the CPU clock."""
MASTER_SECONDS: Final = 0.5
"""The default CPU budget per move (seconds)."""


def master(seconds: float = MASTER_SECONDS, workers: int = 1) -> IsmctsBot:
    """The master bot: :data:`MASTER_SPEC` on ``seconds`` of CPU per decision and part."""
    bot = make_bot(f"{MASTER_SPEC},seconds={seconds!r},workers={workers}")
    assert isinstance(bot, IsmctsBot)
    bot.name = "master"
    return bot


register_bot(
    "master",
    "The strongest search measured (information-set Monte Carlo tree search) on a CPU "
    "budget per move.",
    (
        BotParam("seconds", float, MASTER_SECONDS, "CPU seconds of search per decision"),
        BotParam("workers", int, 1,
                 "processes that search each decision at once (0: one per CPU core)"),
    ),
    budget="seconds",
)(master)

__all__ = ["MASTER_SECONDS", "MASTER_SPEC", "master"]
