"""The health check of a running server, as a command: ``python -m hotdeath.server.health``.

The container image runs it (its ``HEALTHCHECK``): it asks the server's ``/healthz``
(``http://127.0.0.1:$HOTDEATH_PORT/healthz`` by default, port 8000) and exits 0 when the
server answers 200 within the timeout, 1 otherwise, with one line saying why.  Standard
library only, so it needs nothing the image lacks (no curl).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence

TIMEOUT = 4.0
"""Seconds to wait for the answer (the image's check allows 5)."""


def default_url() -> str:
    """``/healthz`` on this host, at ``$HOTDEATH_PORT`` (default 8000)."""
    port = os.environ.get("HOTDEATH_PORT", "").strip() or "8000"
    return f"http://127.0.0.1:{port}/healthz"


def check(url: str, timeout: float = TIMEOUT) -> tuple[bool, str]:
    """Ask ``url``: (healthy, one line that says what was found).

    >>> check("http://127.0.0.1:1/healthz", 0.5)[0]
    False
    """
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            body = resp.read(4096).decode("utf-8", "replace")
            status = resp.status
    except urllib.error.HTTPError as e:  # the server answered, with an error
        detail = e.read(4096).decode("utf-8", "replace")
        try:
            message = json.loads(detail).get("message", detail)
        except (ValueError, AttributeError):
            message = detail
        return False, f"unhealthy: {e.code} {message}".strip()
    except (OSError, ValueError) as e:  # refused, timed out, a bad URL
        reason = getattr(e, "reason", None) or e
        return False, f"no answer from {url}: {reason}"
    if status != 200:
        return False, f"unhealthy: {status}"
    try:
        version = json.loads(body).get("version", "?")
    except (ValueError, AttributeError):
        return False, f"not a hotdeath server at {url}"
    return True, f"ok: hotdeath {version} at {url}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check; the exit status is 0 for healthy, 1 for not."""
    parser = argparse.ArgumentParser(
        prog="python -m hotdeath.server.health",
        description="Exit 0 if the hotdeath server answers its health check, 1 if not.",
    )
    parser.add_argument("url", nargs="?", default=None,
                        help="the server's /healthz (default: 127.0.0.1 at $HOTDEATH_PORT, "
                        "8000)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds to wait")
    args = parser.parse_args(argv)
    ok, line = check(args.url or default_url(), args.timeout)
    print(line, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":  # pragma: no cover (run as a module)
    sys.exit(main())
