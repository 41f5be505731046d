"""A seat at a table of the browser server (``hotdeath play --connect URL``).

The server (``hotdeath serve``, ``docs/protocol.md``) runs the game and its bots; this
side only shows the seat's view and sends the person's actions over the same WebSocket
protocol the browser uses.  :class:`RemoteSession` gives the screen the same surface as a
local :class:`~hotdeath.tui.session.Session`, built from the server's messages: views and
events come back into :class:`~hotdeath.view.View` and :class:`~hotdeath.events.Event`
values, so the table, the log and the scoring screen read exactly as in a local game.

The server says something at least every 2.5 s (a ``heartbeat`` when nothing else
happens); a connection silent for :data:`SILENCE` seconds, or not open within
:data:`OPEN_TIMEOUT`, belongs to a server that stalled or is gone, and the screen
connects again: to the same address, or, when that address is one of the server
processes the table's ``welcome`` named (several processes reached directly, without a
proxy), to the next of them (:meth:`RemoteSession.next_server`).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hotdeath.actions import Action
from hotdeath.bots.arena import seat_rngs
from hotdeath.cards import COLOR_NAMES, parse_card
from hotdeath.errors import HotDeathError, IllegalActionError, WrongSeatError
from hotdeath.events import Event
from hotdeath.pending import Context, Pending
from hotdeath.pending import from_json as pending_from_json
from hotdeath.results import GameResult, HandResult
from hotdeath.state import GameState
from hotdeath.text import clean_text, shown
from hotdeath.tui.session import Session
from hotdeath.view import SeatView, View

SILENCE = 6.0
"""Seconds without a message after which the connection counts as lost."""
OPEN_TIMEOUT = 5.0
"""Seconds a new connection may take to open."""


class ConnectError(HotDeathError):
    """The table cannot be reached or refused us (the server's code, or ``connect_failed``)."""


def parse_table_url(url: str) -> tuple[str, str, str | None, int | None]:
    """Split a table link into (server base URL, table id, seat token, seat).

    Accepts the links the lobby gives (``http://host:8000/t/ID?seat=1``,
    ``…/t/ID?token=T``) and the WebSocket address (``ws://host:8000/ws/ID``).
    """
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise ConnectError("bad_url", f"not a table link: {url!r} (e.g. http://host:8000/t/ID)")
    segments = [p for p in parts.path.split("/") if p]
    if len(segments) < 2 or segments[-2] not in ("t", "ws"):
        raise ConnectError("bad_url", f"no table in {url!r} (expected …/t/TABLE_ID)")
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    query = urllib.parse.parse_qs(parts.query)
    token = query.get("token", [None])[0]
    seat_text = query.get("seat", [None])[0]
    seat = int(seat_text) if seat_text is not None and seat_text.isdigit() else None
    return f"{scheme}://{parts.netloc}", segments[-1], token, seat


def api(base: str, path: str, body: Mapping[str, Any] | None = None,
        token: str | None = None) -> Any:
    """Call the server's REST API; :class:`ConnectError` with the server's code on refusal."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Token"] = token
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers,
                                 method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        try:
            err = json.loads(e.read())
            raise ConnectError(str(err["code"]), str(err["message"])) from None
        except (ValueError, KeyError, TypeError):
            raise ConnectError("connect_failed", f"{base}{path}: HTTP {e.code}") from None
    except OSError as e:
        raise ConnectError("connect_failed", f"cannot reach {base}: {e}") from None


def _face(code: str | None) -> int:
    return -1 if code is None else parse_card(code)


def _pending(data: object, turn: int) -> Pending | None:
    """The pending value of a view's JSON ``attack`` (written whole by the server)."""
    if data is None:
        return None
    return pending_from_json(data, Context(turn=turn, top=-1))


def _color(name: str | None) -> int:
    return COLOR_NAMES.index(name) if name in COLOR_NAMES else -1


def view_from_json(d: Mapping[str, Any]) -> View:
    """A :class:`View` back from ``View.to_json()`` (card codes to faces, actions parsed)."""
    hand = d.get("hand")
    window = d.get("sixty_nine_window")
    return View(
        variant=str(d["variant"]),
        options=dict(d.get("options") or {}),
        seat=d.get("seat"),
        players=int(d["players"]),
        hand=None if hand is None else tuple(parse_card(c) for c in hand),
        seats=tuple(
            SeatView(
                seat=int(s["seat"]), hand_size=int(s["hand_size"]), active=bool(s["active"]),
                revealed=tuple(parse_card(c) for c in s.get("revealed", ())),
                score=int(s["score"]), infections=int(s.get("infections", 0)),
                uno_catchable=bool(s.get("uno_catchable", False)),
            )
            for s in d["seats"]
        ),
        discard=tuple(parse_card(c) for c in d.get("discard", ())),
        draw_pile_size=int(d.get("draw_pile_size", 0)),
        color=_color(d.get("color")),
        direction=1 if d.get("direction", "cw") == "cw" else -1,
        phase=str(d["phase"]),
        current_player=int(d["current_player"]),
        dealer=int(d.get("dealer", 0)),
        hand_no=int(d.get("hand_no", 0)),
        hand_size=int(d.get("hand_size", 0)),
        drew=bool(d.get("drew", False)),
        drawn=_face(d.get("drawn")),
        attack=_pending(d.get("attack"), int(d["current_player"])),
        sixty_nine_window=-1 if window is None else int(window),
        winners=tuple(int(w) for w in d.get("winners", ())),
        last_hand=None if d.get("last_hand") is None else HandResult.from_json(d["last_hand"]),
        legal_actions=tuple(Action.parse(a) for a in d.get("legal_actions", ())),
        buried=int(d.get("buried", 0)),
        game_result=(None if d.get("game_result") is None
                     else GameResult.from_json(d["game_result"])),
    )


def event_from_json(d: Mapping[str, Any]) -> Event:
    """An :class:`Event` back from ``Event.to_json()`` (as the server filtered it)."""
    return Event(
        kind=str(d["kind"]), seat=int(d["seat"]), rule=str(d["rule"]),
        cards=tuple(parse_card(c) for c in d.get("cards", ())), n=int(d.get("n", 0)),
        target=int(d.get("target", -1)), color=_color(d.get("color")),
        hidden=bool(d.get("hidden", False)),
        info=tuple((str(k), int(v)) for k, v in d.get("info", ())),
    )


class RemoteSession(Session):
    """A seat at a server table, with the surface of a local :class:`Session`.

    The server's messages go to :meth:`handle`; the person's actions wait in
    :attr:`outbox` for the connection to send them.
    """

    def __init__(self, base: str, table_id: str, token: str | None,
                 theme: str | None = None) -> None:
        summary = api(base, f"/api/tables/{table_id}")
        self.base = base
        self.table_id = table_id
        self.token = token
        self.variant_name = str(summary["variant"])
        self.players = len(summary["seats"])
        self.preset = summary.get("preset")
        self.options = dict(summary.get("options") or {})
        self.bot_specs = []
        self.with_human = token is not None
        self.theme = theme or str(summary.get("theme", "family"))
        self.seed = 0
        self.human = None
        self.bots = {}
        self.rngs = seat_rngs(0, self.players)
        self.names = [f"P{s['seat']} {s['name'] or s['bot'] or 'open'}"
                      for s in summary["seats"]]
        self.log = []
        self.results = []
        self.saved_to = None
        self.declined = frozenset()
        self.hints: list[list[int]] = []  # the server keeps a table's hints
        self.hints_on = bool(summary.get("hints"))
        """Whether the table lets its people ask the coach (the host's setting)."""
        self.hint_reply: dict[str, Any] | None = None
        """The coach's latest answer from the server, until the screen shows it."""
        self._asked = 0
        self.game_id: str | None = None
        self.version = 0
        self.generation = 0
        """Counts the games seen at this table (a rematch starts a new one)."""
        self.outbox: list[dict[str, Any]] = []
        self.servers: list[str] = []
        """The table's server processes as the last ``welcome`` named them."""
        self.waiting = False
        """An action was sent and its answer has not come back yet."""
        self.error = ""
        self._view: View | None = None
        self._sent = 0

    @classmethod
    def connect(cls, url: str, name: str = "You", theme: str | None = None) -> RemoteSession:
        """Take a seat at the table of ``url`` (join it unless the link carries a token)."""
        base, table_id, token, seat = parse_table_url(url)
        if token is None:
            body: dict[str, Any] = {"name": clean_text(name, "name")}
            if seat is not None:
                body["seat"] = seat
            token = str(api(base, f"/api/tables/{table_id}/join", body)["token"])
        return cls(base, table_id, token, theme)

    def next_server(self) -> None:
        """After a lost connection: try the next server process the table named.

        Only when this session reached one of them directly (its address is in the
        list): behind a proxy the list holds addresses meant for the processes alone,
        and the proxy itself finds a live one.
        """
        if self.base in self.servers and len(self.servers) > 1:
            self.base = self.servers[(self.servers.index(self.base) + 1)
                                     % len(self.servers)]

    @property
    def ws_url(self) -> str:
        """The table's WebSocket address."""
        scheme = "wss" if self.base.startswith("https") else "ws"
        return f"{scheme}{self.base[self.base.index(':'):]}/ws/{self.table_id}"

    # ------------------------------------------------------------------ the surface

    @property
    def local(self) -> bool:
        """A server table: the server runs the game and its bots."""
        return False

    def ready(self) -> bool:
        """Whether a game has started (its first state has come)."""
        return self._view is not None

    def view(self) -> View:
        """The seat's latest view from the server."""
        if self._view is None:
            raise ConnectError("not_started", "the game at this table has not started yet")
        return self._view

    def over(self) -> bool:
        """Whether the game is over."""
        return self._view is not None and self._view.phase == "game_over"

    def offered(self, kinds: Sequence[int]) -> list[Action]:
        """Legal actions of ``kinds`` worth a key (no call sure to be wrong)."""
        return [a for a in self.legal() if a.kind in kinds and self._worth(a)]

    def _worth(self, a: Action) -> bool:
        from hotdeath import actions as A

        view = self.view()
        if a.kind == A.UNO:
            return self.human is not None and view.seats[self.human].uno_catchable
        if a.kind == A.CATCH:
            return view.seats[a.target].uno_catchable
        return a.kind != A.LEAVE

    def window_actions(self) -> list[Action]:
        """Out-of-turn actions open to the person while another seat is to act."""
        if not self.ready() or self.over() or self.my_turn():
            return []
        return [a for a in self.legal() if self._worth(a)]

    def my_turn(self) -> bool:
        """Whether the game waits for the person's own turn."""
        if self._view is None or self.human is None or self.over():
            return False
        return self._view.current_player == self.human

    def next_bot_move(self, state: GameState | None = None) -> tuple[int, Action] | None:
        """Never: the server moves its bots."""
        return None

    def short_name(self, seat: int) -> str:
        """The seat's name at the server (people and bots are named there)."""
        return self.names[seat]

    def thinking_seats(self) -> list[int]:
        """None here: the server's bots think at the server."""
        return []

    def play(self, action: Action) -> list[Event]:
        """Send the person's action; refused here first when it is not legal now."""
        if self.human is None:
            raise WrongSeatError("spectator", "you are watching this table")
        if self.waiting:
            raise HotDeathError("waiting", "your last move is still on its way to the server")
        legal = self.legal()
        if action not in legal:
            if not legal:
                raise WrongSeatError("wrong_seat", "you may not act now")
            raise IllegalActionError("illegal_action", f"'{action}' is not legal for you now")
        self._sent += 1
        self.outbox.append({"type": "action", "action": str(action), "version": self.version,
                            "id": f"tui-{self.generation}-{self._sent}"})
        self.waiting = True
        return []

    def ask_hint(self) -> None:
        """Ask the server's coach for the best moves from this seat's view.

        The answer comes back as a ``hint`` message (:attr:`hint_reply`).
        """
        self._asked += 1
        self.outbox.append({"type": "hint", "id": f"tui-hint-{self._asked}"})

    def rematch(self) -> None:
        """Ask for a new game at the same table (the server deals it to every seat)."""
        self.outbox.append({"type": "rematch"})

    def save(self, path: Path | None = None) -> Path:
        """Write the finished game's record (from the server's replay) like a local game."""
        if self.game_id is None:
            raise OSError("no game to save")
        data = api(self.base, f"/api/games/{self.game_id}/replay", token=self.token)
        rec = data.get("record")
        if not isinstance(rec, dict):
            raise OSError("the server has no record of this game yet")
        if path is None:
            from hotdeath.tui.session import default_save_dir

            path = default_save_dir() / f"{self.table_id}-{self.game_id}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rec, indent=1), encoding="utf-8")
        self.saved_to = path
        return path

    # ------------------------------------------------------------------ messages

    def hello(self) -> dict[str, Any]:
        """The first message of a connection."""
        return {"type": "hello", "token": self.token}

    def handle(self, msg: Mapping[str, Any]) -> None:
        """Take in one server message (welcome, table, state, hint, error, pong)."""
        kind = msg.get("type")
        if kind == "welcome":
            seat = msg.get("seat")
            self.human = int(seat) if isinstance(seat, int) else None
            self._names_from(msg.get("table", {}).get("seats", []))
            self.servers = [str(u).rstrip("/") for u in msg.get("servers") or []]
        elif kind == "table":
            self._names_from(msg.get("table", {}).get("seats", []))
            if "hints" in msg.get("table", {}):
                self.hints_on = bool(msg["table"]["hints"])
        elif kind == "hint":
            self.hint_reply = dict(msg)
        elif kind == "state":
            self._state(msg)
        elif kind == "error":
            self.waiting = False
            self.error = f"{msg.get('code')}: {msg.get('message')}"

    def _names_from(self, seats: Sequence[Mapping[str, Any]]) -> None:
        for s in seats:
            i = int(s["seat"])
            self._name(i, str(s.get("name") or s.get("bot") or "open"))

    def _name(self, seat: int, name: str) -> None:
        self.names[seat] = f"P{seat} {shown(name, 40)}" + (
            " (you)" if seat == self.human else ""
        )

    @property
    def where(self) -> str:
        """Where the game runs, for the title bar."""
        return f"table {self.table_id}"

    def _state(self, msg: Mapping[str, Any]) -> None:
        game_id = msg.get("game_id")
        if game_id != self.game_id:
            self.game_id = str(game_id)
            self.generation += 1
            self.log = []
            self.results = []
            self.saved_to = None
            self.declined = frozenset()
        self.version = int(msg.get("version", 0))
        self.waiting = False
        self.error = ""
        self._view = view_from_json(msg["view"])
        for seat, name in enumerate(msg.get("names") or ()):
            if seat < len(self.names):
                self._name(seat, str(name))
        if "log" in msg:  # after (re)connecting: the story so far, without old score screens
            shown = len(self.results)
            self._add_events([event_from_json(e) for e in msg["log"]])
            del self.results[shown:]
            return
        self._add_events([event_from_json(e) for e in msg.get("events", ())])
