"""The full-screen terminal game (Textual), with the Rich prompt game as the fallback.

:func:`can_host` says whether this terminal can run the full-screen app; :func:`run`
plays a game in it.  The table logic lives in :mod:`hotdeath.tui.session` (no Textual),
the screen in :mod:`hotdeath.tui.app`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from hotdeath.tui.session import Session
from hotdeath.variants import DEFAULT_VARIANT


def can_host() -> bool:
    """Whether standard input and output are a terminal that can show a full-screen app."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    return os.environ.get("TERM", "") not in ("", "dumb")


def run(
    variant: str = DEFAULT_VARIANT,
    players: int = 4,
    seed: int | None = None,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    bots: Sequence[str] = (),
    human: bool = True,
    theme: str = "family",
    delay: float = 0.6,
    save: Path | None = None,
) -> Session:
    """Play a game in the full-screen app; return the session when the app is closed.

    Bad variants, presets, options (``HotDeathError``) and bot specs (``ValueError``) are
    refused before the screen opens.
    """
    from hotdeath.tui.app import HotDeathApp

    session = Session(variant, players, seed, preset, options, bots, human, theme)
    app = HotDeathApp(session, delay=delay, save=save)
    app.run()
    session = app.session
    # where this game's record goes: where it was saved already, else the file asked for
    # (after a new game at the table, FILE-2.json …: never over the last game's record)
    target = session.saved_to or app.save_path
    if target is not None and session.state.history and not session.over():
        try:
            session.save(target)  # an unfinished game is saved too, as it stands now
        except OSError as e:
            print(f"file_error: could not save the record to {target}: {e.strerror or e}")
    if session.saved_to is not None:
        print(f"Record saved: {session.saved_to} (hotdeath replay {session.saved_to})")
    elif not session.over():
        print(f"Stopped in hand {len(session.results) + 1} of {session.title}, seed "
              f"{session.seed}.")
    return session


def connect(url: str, name: str = "You", theme: str = "family",
            save: Path | None = None) -> Session:
    """Take a seat at a server table (``hotdeath serve``) and play it in the full screen.

    ``url`` is a table link from the lobby (``http://host:8000/t/ID?seat=1`` or one with
    ``?token=``); without a token the seat is joined as ``name``.  A refused or unreachable
    table raises :class:`~hotdeath.tui.remote.ConnectError` before the screen opens.
    """
    from hotdeath.tui.app import HotDeathApp
    from hotdeath.tui.remote import RemoteSession

    session = RemoteSession.connect(url, name, theme)
    app = HotDeathApp(session, save=save)
    app.run()
    if app.session.saved_to is not None:
        print(f"Record saved: {app.session.saved_to} (hotdeath replay {app.session.saved_to})")
    return app.session


__all__ = ["Session", "can_host", "connect", "run"]
