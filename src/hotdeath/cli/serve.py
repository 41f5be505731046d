"""``hotdeath serve``: the browser game's server on uvicorn (docs/deploy.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from hotdeath.cli.common import fail

app = typer.Typer()

DEFAULT_PORT = 8000
"""The port ``hotdeath serve`` listens on unless told otherwise (or it is taken)."""


def free_port(host: str, first: int, tries: int = 20) -> int:
    """``first`` or the next port after it that ``host`` can listen on (``first`` if none)."""
    import socket

    for port in range(first, first + tries):
        try:
            with socket.create_server((host, port)):
                return port
        except OSError:
            continue
    return first


# the options of ``serve``, one type each (the command's signature stays short), in panels
# of the help that read at 80 columns
_LISTEN = "Where it listens"
_DATABASE = "Database"
_TABLES = "Tables and bots"
_LIMITS = "Limits for each client"
_PROCESSES = "Several processes (PostgreSQL)"

HostOpt = Annotated[str, typer.Option("--host", metavar="ADDRESS", rich_help_panel=_LISTEN,
                                      help="Address to listen on.")]
LanOpt = Annotated[
    bool,
    typer.Option(
        "--lan", rich_help_panel=_LISTEN,
        help="Friends in the same room: listen on this computer's address in its network "
        "(not only 127.0.0.1) and print it with a QR code for phones.",
    ),
]
PortOpt = Annotated[
    int | None,
    typer.Option("--port", min=0, max=65535, metavar="PORT", rich_help_panel=_LISTEN,
                 help="Port (default 8000, or the next free one)."),
]
DatabaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--database-url", metavar="URL", envvar="HOTDEATH_DATABASE_URL", show_envvar=True,
        rich_help_panel=_DATABASE,
        help="SQLAlchemy URL, e.g. sqlite:///games.db or postgresql+psycopg://user@host/db "
        "(default: an SQLite file in your data folder). Keep a password out of the "
        "command line: set the variable instead. It is never printed.",
    ),
]
BotDelayOpt = Annotated[
    float, typer.Option("--bot-delay", min=0.0, max=10.0, metavar="S",
                        rich_help_panel=_TABLES, help="Seconds before a bot moves.")
]
MaxBotSecondsOpt = Annotated[
    float,
    typer.Option("--max-bot-seconds", min=0.01, max=60.0, metavar="S", rich_help_panel=_TABLES,
                 help="Most CPU seconds a searching bot (master) may take per move."),
]
MaxMasterSeatsOpt = Annotated[
    int,
    typer.Option("--max-master-seats", min=0, max=1000, metavar="N", rich_help_panel=_TABLES,
                 help="Most seats this process plays a searching bot (master) in at once."),
]
IdleUnloadOpt = Annotated[
    float,
    typer.Option(
        "--idle-unload", min=0.0, metavar="S", rich_help_panel=_TABLES,
        help="Seconds after its last move before a table nobody watches leaves memory "
        "(loaded back when someone comes); 0: never.",
    ),
]
FinishedUnloadOpt = Annotated[
    float,
    typer.Option("--finished-unload", min=0.0, metavar="S", rich_help_panel=_TABLES,
                 help="The same for a table whose game is over; 0: never."),
]
DbThreadOpt = Annotated[
    bool | None,
    typer.Option(
        "--db-thread/--no-db-thread", rich_help_panel=_DATABASE,
        help="Database statements in a thread of their own (default: yes for a database "
        "server, no for SQLite, whose commits are faster than the hand-over).",
    ),
]
MaxBodyOpt = Annotated[
    int, typer.Option("--max-body", min=1024, metavar="BYTES", rich_help_panel=_LIMITS,
                      help="Largest request body in bytes (refused before it is read).")
]
TablesPerMinuteOpt = Annotated[
    int, typer.Option("--tables-per-minute", min=1, metavar="N", rich_help_panel=_LIMITS,
                      help="New tables one client address may open per minute.")
]
ConnectionsPerAddressOpt = Annotated[
    int, typer.Option("--connections-per-address", min=1, metavar="N",
                      rich_help_panel=_LIMITS,
                      help="WebSockets one client address may hold open.")
]
SeatBurstOpt = Annotated[
    float, typer.Option("--seat-burst", min=1.0, metavar="N", rich_help_panel=_LIMITS,
                        help="Messages a seat may send at once (all its connections).")
]
SeatRateOpt = Annotated[
    float, typer.Option("--seat-rate", min=0.1, metavar="N", rich_help_panel=_LIMITS,
                        help="Messages per second a seat may keep sending.")
]
PublicUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--public-url", metavar="URL", envvar="HOTDEATH_PUBLIC_URL", show_envvar=True,
        rich_help_panel=_PROCESSES,
        help="PostgreSQL: where the other server processes reach this one (default: "
        "http://HOST:PORT); each process needs its own.",
    ),
]
LeaseSecondsOpt = Annotated[
    float,
    typer.Option(
        "--lease-seconds", min=0.1, max=600.0, metavar="S", rich_help_panel=_PROCESSES,
        help="PostgreSQL: seconds before another process takes over the tables of a "
        "process that stopped answering.",
    ),
]


def lan_host(host: str) -> tuple[str, str]:
    """``serve --lan``: (the address to listen on, the one to tell people).

    A loopback ``host`` becomes this computer's network address; every address
    (``0.0.0.0``) stays every address, told as the network one; another is kept.
    """
    from hotdeath.server.lan import lan_address

    if host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::"):
        return host, host
    found = lan_address()
    if found is None:
        fail("no_lan_address", "this computer has no address in a local network: connect "
             "it to the Wi-Fi or the cable the phones use, or give --host ADDRESS")
    return (host if host in ("0.0.0.0", "::") else found), found


@app.command()
def serve(
    host: HostOpt = "127.0.0.1",
    lan: LanOpt = False,
    port: PortOpt = None,
    database_url: DatabaseUrlOpt = None,
    bot_delay: BotDelayOpt = 0.6,
    max_bot_seconds: MaxBotSecondsOpt = 1.0,
    max_master_seats: MaxMasterSeatsOpt = 2,
    idle_unload: IdleUnloadOpt = 900.0,
    finished_unload: FinishedUnloadOpt = 120.0,
    db_thread: DbThreadOpt = None,
    max_body: MaxBodyOpt = 64 * 1024,
    tables_per_minute: TablesPerMinuteOpt = 30,
    connections_per_address: ConnectionsPerAddressOpt = 40,
    seat_burst: SeatBurstOpt = 20.0,
    seat_rate: SeatRateOpt = 10.0,
    public_url: PublicUrlOpt = None,
    lease_seconds: LeaseSecondsOpt = 10.0,
) -> None:
    """Serve the browser game: tables with friends and bots (see docs/protocol.md)."""
    import logging.config

    import uvicorn

    from hotdeath.server import create_app, default_database_url
    from hotdeath.server.protocol import Limits
    from hotdeath.server.redact import (
        RedactingFormatter,
        log_config,
        mask_url,
        redact,
        url_password,
    )

    told = host
    if lan:
        host, told = lan_host(host)
    if port is None:
        port = free_port(host, DEFAULT_PORT)
    url = (database_url or "").strip() or default_database_url()
    RedactingFormatter.register(url_password(url))
    logging_setup = log_config()
    logging.config.dictConfig(logging_setup)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    sqlite = url.startswith("sqlite")
    held = None
    if sqlite:
        held = _hold_sqlite(url)  # kept open (locked) while this process serves
    else:
        import socket

        here = socket.gethostname() if host in ("0.0.0.0", "::") else host
        public_url = (public_url or "").strip() or f"http://{here}:{port}"
    try:
        application = create_app(
            url, bot_delay=bot_delay, max_bot_seconds=max_bot_seconds,
            max_master_seats=max_master_seats, idle_unload=idle_unload or None,
            finished_unload=finished_unload or None,
            db_thread=db_thread, limits=Limits(
                max_body_bytes=max_body, tables_per_minute=tables_per_minute,
                connections_per_address=connections_per_address,
                seat_rate=(seat_burst, seat_rate),
            ),
            public_url=None if sqlite else public_url, lease_seconds=lease_seconds,
        )
    except Exception as e:  # a bad URL, a refused password, a failed migration
        fail("database_error",
              redact(f"cannot open the database {mask_url(url)}: {e}".splitlines()[0]))
    if lan:
        import sys

        from hotdeath.server.lan import lan_banner

        typer.echo(lan_banner(f"http://{told}:{port}/", port, colour=sys.stdout.isatty()))
        typer.echo(f"hotdeath: database: {mask_url(url)}")
    else:
        typer.echo(f"hotdeath: open http://{shown}:{port}/ in your browser "
                   f"(database: {mask_url(url)})")
    # No permessage-deflate: state messages are small (about 3 KB) and compressing them
    # doubled the server's latency in benchmarks/server_load.py.
    uvicorn.run(
        application, host=host, port=port, log_level="warning", ws_per_message_deflate=False,
        log_config=logging_setup,
    )
    if sqlite and held is not None:
        held.close()


def _hold_sqlite(url: str) -> Any:
    """Lock ``<file>.serve-lock`` beside an SQLite database; refuse if another process has.

    SQLite is for one server process: two would each play the same tables from their own
    memory.  Returns the open lock file (None where locking is not available).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows
        return None
    from sqlalchemy.engine import make_url

    database = make_url(url).database
    if not database or database == ":memory:":
        return None
    lock = Path(database).expanduser()
    lock = lock.with_name(lock.name + ".serve-lock")
    try:
        handle = lock.open("a+")
    except OSError:
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        fail("database_in_use",
              f"another 'hotdeath serve' serves the SQLite database {database}; SQLite is "
              "for one server process (several need PostgreSQL: docs/deploy.md)")
    return handle


