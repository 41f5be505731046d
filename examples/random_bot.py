#!/usr/bin/env python3
"""An outside bot for hotdeath: random legal moves, standard library only.

It speaks the JSON-lines protocol of docs/bot-protocol.md on stdin/stdout and imports
nothing from hotdeath, so it is also a template for a bot in any other language.
Try it:

    hotdeath simulate --variant standard --bot "external:python3 examples/random_bot.py" --bot basic

On its own turn it picks a legal action at random (a play rather than a draw when it
can); in a window it calls Uno when it may and lets everything else go by.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

PROTOCOL = 1


def send(message: dict[str, Any]) -> None:
    """Write one message as one line and flush (the host waits for it)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(request: dict[str, Any], rng: random.Random) -> str | None:
    """The answer to a request: one of its legal actions, or None to let a window go by."""
    legal: list[str] = request["legal"]
    if request["kind"] == "window":
        calls = [a for a in legal if a == "uno"]
        return calls[0] if calls else None
    plays = [a for a in legal if a.startswith("play")]
    return rng.choice(plays or legal)


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": "example-random",
                  "author": "the hotdeath developers", "options": {}, "events": False})
        elif kind == "new_game":
            rng = random.Random(msg["seed"])
        elif kind == "request":
            send({"type": "action", "id": msg["id"], "action": choose(msg, rng)})
        elif kind == "error":
            print(f"host says: {msg['message']}", file=sys.stderr)
        elif kind == "quit":
            break
        # "event" and "game_over" need no answer; unknown types are ignored.


if __name__ == "__main__":
    main()
