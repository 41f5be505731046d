"""Outside bots: a program in any language that speaks JSON lines on stdin/stdout.

:class:`ExternalBot` runs a command (an argv list, no shell) and talks to it with the
protocol of ``docs/bot-protocol.md``: a ``hello`` handshake, ``new_game``, a ``request``
for every decision (the seat's view and its legal actions in action notation) answered
by an ``action``, optional ``event`` messages, ``game_over`` and ``quit``.

The bot sees only its seat's view, like every other bot.  A bot that answers with
malformed JSON, an action that is not legal, or nothing within its time limit, or that
exits, gets a clear error (logged, kept in :attr:`ExternalBot.errors`, and sent to the
bot as an ``error`` message while it still runs); by default (``on_error="fallback"``)
the game goes on with the move the ``basic`` bot would make, so one broken bot never
stops a tournament.  ``on_error="raise"`` raises :class:`ExternalBotError` instead.

As a spec: ``external:./mybot`` or ``external:cmd=python3 mybot.py --level 3,timeout=2``
(the command is split like a shell line; it cannot contain commas).
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import random
import shlex
import shutil
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Final

from hotdeath import __version__
from hotdeath.actions import Action
from hotdeath.bots import BotParam, register_bot
from hotdeath.bots.simple import BasicBot
from hotdeath.errors import HotDeathError
from hotdeath.events import Event
from hotdeath.view import View

PROTOCOL_VERSION: Final = 1
"""The protocol version this host speaks (``hello.protocol``)."""

log = logging.getLogger(__name__)


class ExternalBotError(HotDeathError):
    """An outside bot broke the protocol.

    Codes: ``bot_start_failed`` (could not run or no ``hello``), ``bad_json``,
    ``bad_action`` (not action notation), ``illegal_action``, ``timeout``, ``crashed``
    (the program exited), ``protocol_error`` (a message of the wrong type).
    """


_EOF: Final = object()


def _read_lines(stream: IO[str], out: queue.Queue[object]) -> None:
    """Reader thread: every line of ``stream`` into ``out``, then the end marker."""
    try:
        for line in stream:
            out.put(line)
    except (OSError, ValueError):
        pass
    out.put(_EOF)


def _keep_tail(stream: IO[str], tail: deque[str]) -> None:
    """Reader thread: keep the last lines of the bot's standard error."""
    try:
        for line in stream:
            tail.append(line.rstrip("\n"))
    except (OSError, ValueError):
        pass


def _shutdown(proc: subprocess.Popen[str]) -> None:
    """Ask a bot process to quit, then make sure it is gone."""
    if proc.poll() is None:
        try:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
            proc.stdin.flush()
            proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class ExternalBot:
    """A bot that is another program, spoken to over its stdin and stdout.

    ``argv`` is the command (run without a shell, in ``cwd``); ``timeout`` the seconds
    it has for each request; ``start_timeout`` for starting and answering ``hello``;
    ``options`` are sent in the host's ``hello`` for the bot to use as it likes.  The
    process starts on first use and serves game after game; :meth:`close` ends it.
    """

    name: str

    def __init__(
        self,
        argv: Sequence[str],
        timeout: float = 5.0,
        on_error: str = "fallback",
        start_timeout: float = 10.0,
        options: dict[str, Any] | None = None,
        cwd: str | Path | None = None,
    ) -> None:
        if not argv:
            raise ValueError("an outside bot needs a command to run")
        if on_error not in ("fallback", "raise"):
            raise ValueError(f"on_error must be fallback or raise (got {on_error!r})")
        if timeout <= 0 or start_timeout <= 0:
            raise ValueError("time limits must be positive")
        program = argv[0]
        where = Path(cwd) / program if cwd is not None else Path(program)
        if shutil.which(program) is None and not where.is_file():
            raise ValueError(f"outside bot command not found: {program!r}")
        self.argv = list(argv)
        self.timeout = timeout
        self.on_error = on_error
        self.start_timeout = start_timeout
        self.options = dict(options or {})
        self.cwd = cwd
        self.name = f"external:{Path(program).name}"
        self.info: dict[str, Any] = {}
        """The bot's ``hello`` answer (``name``, ``author``, ``options``, ``events``)."""
        self.errors: list[ExternalBotError] = []
        """Every protocol error so far, oldest first."""
        self.wants_events = False
        """Whether the bot asked for ``event`` messages in its ``hello``."""
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._dead = False
        self._next_id = 0
        self._games = 0
        self._in_game = False
        self._game_key: tuple[Any, ...] | None = None
        self._last_hand = -1
        self._fallback = BasicBot()

    # ------------------------------------------------------------------ process

    def start(self) -> None:
        """Run the program and shake hands (``ExternalBotError`` if that fails)."""
        if self._proc is not None and self._proc.poll() is None and not self._dead:
            return
        self.close()
        try:
            proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1,
                cwd=self.cwd,
            )
        except OSError as e:
            raise ExternalBotError("bot_start_failed", f"cannot run outside bot "
                                   f"{shlex.join(self.argv)!r}: {e.strerror or e}") from None
        self._proc = proc
        self._dead = False
        self._lines = queue.Queue()
        self._stderr.clear()
        assert proc.stdout is not None
        assert proc.stderr is not None
        threading.Thread(target=_read_lines, args=(proc.stdout, self._lines),
                         daemon=True).start()
        threading.Thread(target=_keep_tail, args=(proc.stderr, self._stderr),
                         daemon=True).start()
        self._finalizer = weakref.finalize(self, _shutdown, proc)
        self._send({"type": "hello", "protocol": PROTOCOL_VERSION,
                    "host": f"hotdeath {__version__}", "options": self.options})
        try:
            reply = self._receive(None, self.start_timeout, "hello")
        except ExternalBotError as e:
            self.close()
            raise ExternalBotError("bot_start_failed",
                                   f"outside bot {self.name!r} did not shake hands: "
                                   f"{e.message}") from None
        if reply.get("type") != "hello":
            self.close()
            raise ExternalBotError("bot_start_failed", f"outside bot {self.name!r} answered "
                                   f"hello with {reply.get('type')!r}")
        if reply.get("protocol") != PROTOCOL_VERSION:
            self.close()
            raise ExternalBotError("bot_start_failed", f"outside bot {self.name!r} speaks "
                                   f"protocol {reply.get('protocol')!r}, not "
                                   f"{PROTOCOL_VERSION}")
        self.info = reply
        if isinstance(reply.get("name"), str) and reply["name"]:
            self.name = f"external:{reply['name']}"
        self.wants_events = reply.get("events") is True

    def close(self) -> None:
        """Send ``quit`` and end the process (it is restarted if used again)."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self._proc = None
        self._in_game = False

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, message: dict[str, Any]) -> bool:
        """Write one message; ``False`` if the bot is gone."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            return False
        try:
            proc.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def _gone(self) -> str:
        """Why the process is gone: exit status and the end of its standard error."""
        proc = self._proc
        status = proc.poll() if proc is not None else None
        if proc is not None and status is None:
            try:
                status = proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                status = None
        text = f"the program exited (status {status})" if status is not None else \
            "the program closed its output"
        time.sleep(0.05)  # let the stderr thread catch the last lines
        if self._stderr:
            text += "; its last error output: " + " | ".join(list(self._stderr)[-3:])
        return text

    def _receive(self, request_id: int | None, timeout: float, what: str) -> dict[str, Any]:
        """The next message (for ``request_id`` when given), skipping logs and stale answers."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(0.0, left)) if left > 0 else \
                    self._lines.get_nowait()
            except queue.Empty:
                raise ExternalBotError("timeout", f"outside bot {self.name!r} did not answer "
                                       f"{what} within {timeout:g} s") from None
            if line is _EOF:
                self._dead = True
                raise ExternalBotError("crashed", f"outside bot {self.name!r} stopped during "
                                       f"{what}: {self._gone()}")
            text = str(line).strip()
            if not text:
                continue
            try:
                msg = json.loads(text)
            except json.JSONDecodeError:
                raise ExternalBotError("bad_json", f"outside bot {self.name!r} sent a line "
                                       f"that is not JSON in answer to {what}: "
                                       f"{text[:120]!r}") from None
            if not isinstance(msg, dict):
                raise ExternalBotError("bad_json", f"outside bot {self.name!r} sent JSON that "
                                       f"is not an object in answer to {what}: "
                                       f"{text[:120]!r}")
            if msg.get("type") == "log":
                log.info("%s: %s", self.name, msg.get("message"))
                continue
            if request_id is not None and msg.get("id") != request_id:
                continue  # a late answer to an earlier request
            return msg

    def _fail(self, error: ExternalBotError, request_id: int | None) -> None:
        """Record ``error``, tell the bot (if it still runs), and raise it by policy."""
        self.errors.append(error)
        log.warning("%s", error)
        if error.code != "crashed" and not self._dead:
            self._send({"type": "error", "id": request_id, "code": error.code,
                        "message": error.message})
        if self.on_error == "raise":
            raise error

    # ------------------------------------------------------------------ games

    def new_game(self, view: View, seed: int) -> None:
        """Tell the bot a game starts (its seat, the variant, options, players, a seed)."""
        if self._proc is None or self._dead or self._proc.poll() is not None:
            self.start()
        self._games += 1
        self._in_game = True
        self._game_key = (view.variant, view.players, view.seat)
        self._last_hand = view.hand_no
        self._send({"type": "new_game", "game": self._games, "variant": view.variant,
                    "options": view.options, "seat": view.seat, "players": view.players,
                    "seed": seed})

    def game_over(self, view: View) -> None:
        """Tell the bot the game has ended (final scores and winners)."""
        if self._in_game and not self._dead:
            self._send({"type": "game_over", "game": self._games, "scores":
                        [s.score for s in view.seats], "winners": list(view.winners)})
        self._in_game = False

    def observe(self, events: Sequence[Event]) -> None:
        """Send what just happened (as this seat may see it) if the bot asked for events."""
        if self.wants_events and self._in_game and not self._dead and events:
            self._send({"type": "event", "game": self._games,
                        "events": [e.to_json() for e in events]})

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """Ask the bot; on a protocol error, fall back (or raise) by policy."""
        key = (view.variant, view.players, view.seat)
        if not self._in_game or key != self._game_key or view.hand_no < self._last_hand:
            self.new_game(view, rng.getrandbits(63))
        self._last_hand = view.hand_no
        own_turn = view.current_player == view.seat
        if self._dead:
            return self._fallback.choose(view, rng)
        self._next_id += 1
        rid = self._next_id
        what = f"request {rid}"
        self._send({"type": "request", "id": rid, "game": self._games,
                    "kind": "turn" if own_turn else "window", "time_limit": self.timeout,
                    "legal": [str(a) for a in view.legal_actions], "view": view.to_json()})
        try:
            answer = self._receive(rid, self.timeout, what)
            return self._check(answer, view, own_turn, what)
        except ExternalBotError as e:
            self._fail(e, rid)
        return self._fallback.choose(view, rng)

    def _check(self, msg: dict[str, Any], view: View, own_turn: bool, what: str) -> Action | None:
        """The action in answer ``msg`` if it is legal (``ExternalBotError`` otherwise)."""
        if msg.get("type") != "action" or "action" not in msg:
            raise ExternalBotError("protocol_error", f"outside bot {self.name!r} answered "
                                   f"{what} with {json.dumps(msg)[:120]} (expected an "
                                   "action message)")
        text = msg["action"]
        if text is None:
            if own_turn:
                raise ExternalBotError("illegal_action", f"outside bot {self.name!r} let its "
                                       f"own turn go by ({what}); null is only for windows")
            return None
        if not isinstance(text, str):
            raise ExternalBotError("bad_action", f"outside bot {self.name!r} answered "
                                   f"{what} with {text!r}, not action notation")
        try:
            action = Action.parse(text)
        except HotDeathError as e:
            raise ExternalBotError("bad_action", f"outside bot {self.name!r} answered "
                                   f"{what} with {text!r}: {e.message}") from None
        if action not in view.legal_actions:
            shown = ", ".join(str(a) for a in view.legal_actions[:8])
            raise ExternalBotError("illegal_action", f"outside bot {self.name!r} answered "
                                   f"{what} with {text!r}, which is not legal now "
                                   f"(legal: {shown}{' …' if len(view.legal_actions) > 8 else ''})")
        return action


@register_bot(
    "external",
    "An outside program speaking the JSON-lines bot protocol (docs/bot-protocol.md).",
    (
        BotParam("cmd", str, "", "the command, split like a shell line (no commas)"),
        BotParam("timeout", float, 5.0, "seconds the bot has for each request"),
        BotParam("on_error", str, "fallback", "on a protocol error: fallback (play the "
                 "basic bot's move and go on) or raise", ("fallback", "raise")),
    ),
)
def external_bot(cmd: str, timeout: float, on_error: str) -> ExternalBot:
    """The ``external`` spec: ``external:./mybot`` or ``external:cmd=...,timeout=2``."""
    if not cmd.strip():
        raise ValueError("external needs a command, e.g. external:./mybot or "
                         "external:cmd=python3 mybot.py")
    try:
        argv = shlex.split(cmd)
    except ValueError as e:
        raise ValueError(f"cannot split the command {cmd!r}: {e}") from None
    return ExternalBot(argv, timeout=timeout, on_error=on_error)


__all__ = ["PROTOCOL_VERSION", "ExternalBot", "ExternalBotError", "external_bot"]
