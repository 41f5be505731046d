"""The suite's hooks: both apply paths for ``act``, the slow marker, missing tools.

Every test that applies actions through ``act`` runs once per apply path.

A rule is applied by ``GameState.apply_action`` (with events) and by ``GameState.step``
(without): the two must run the same code, and the scenario tests prove it by running
twice, ``[apply_action]`` and ``[step]``.  A test takes part when its code, or a helper
function or method it calls (in its module, its class or ``tests.support``), names
``act``; nothing needs to be declared in the test.

The server tests' ``db_url`` is parametrised: each test that takes it runs once on an
SQLite file and once on a database of its own in a throwaway PostgreSQL cluster
(:mod:`tests.pgcluster`, one per test process).  Without PostgreSQL installed (or without
psycopg) the PostgreSQL runs skip and say why; with ``CI`` set they fail instead, so CI
never passes without them.

``pytest -m rules`` runs the tests of the rules alone (the scenario tests of every variant,
the rulebook, the core): the fast loop for someone changing a rule.  Tests marked ``slow``
(the long property runs) run where ``CI`` is set, with
``HOTDEATH_SLOW=1``, or when asked for with ``-m slow``; elsewhere they are deselected and the
summary says so.  A test that skips for a missing tool (``tests.support.missing``: a
browser, tmux, PostgreSQL) is listed at the end with the command that installs the tool,
and the run then exits with status 1 (not a silent green) unless
``HOTDEATH_ALLOW_MISSING=1`` is set.
"""


from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FunctionType
from typing import Any

import pytest

from tests import support
from tests.pgcluster import Cluster, find_bindir, stop_orphans


def _codes(code: CodeType) -> Iterator[CodeType]:
    """``code`` and the code objects nested in it (lambdas, comprehensions, inner functions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)


def _calls_act(func: Any, scopes: list[dict[str, Any]], seen: set[CodeType]) -> bool:
    """Whether ``func`` names ``act``, itself or through a helper found in ``scopes``."""
    func = inspect.unwrap(func)
    if not isinstance(func, FunctionType) or func.__code__ in seen:
        return False
    seen.add(func.__code__)
    for code in _codes(func.__code__):
        for name in code.co_names:
            if name == "act":
                return True
            for scope in scopes:
                helper = scope.get(name)
                if isinstance(helper, (staticmethod, classmethod)):
                    helper = helper.__func__
                if isinstance(helper, FunctionType) and _calls_act(helper, scopes, seen):
                    return True
    return False


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the tests that call ``act`` through both apply paths."""
    scopes = [vars(metafunc.module), vars(support)]
    if metafunc.cls is not None:
        scopes.insert(0, {k: v for c in metafunc.cls.__mro__ for k, v in vars(c).items()})
    if "path" in metafunc.fixturenames or _calls_act(metafunc.function, scopes, set()):
        if "path" not in metafunc.fixturenames:
            metafunc.fixturenames.append("path")
        metafunc.parametrize("path", support.PATHS, indirect=True)


@pytest.fixture
def path(request: pytest.FixtureRequest) -> Iterator[str]:
    """The apply path ``act`` takes in this run of the test (``apply_action`` or ``step``)."""
    name: str = request.param
    support.set_path(name)
    yield name
    support.set_path("apply_action")


# ---------------------------------------------------------------- databases

BACKENDS = ("sqlite", "postgresql")
"""The databases the storage and server tests run on."""


def _unavailable(why: str, tool: str = "postgresql") -> None:
    support.missing(tool, f"the PostgreSQL runs of the storage and server tests; {why}")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of this test process (skips, or fails in CI, if unavailable)."""
    bindir = find_bindir()
    if bindir is None:
        _unavailable("the PostgreSQL server (initdb, pg_ctl) is not installed "
                     "(Debian: apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("the driver is not installed", "psycopg")
    assert bindir is not None
    stop_orphans(bindir)  # clusters left by test runs that were killed
    cluster = Cluster(bindir)
    try:
        cluster.start()
    except Exception as e:
        cluster.stop()
        _unavailable(f"the cluster did not start: {e}")
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """An empty PostgreSQL database of this test."""
    return pg_cluster.new_database()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of this test: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture(autouse=True)
def _quiet_heartbeat(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The servers run in a test's own process send no ``heartbeat`` unless it asks.

    A heartbeat goes to a connection that was sent nothing for 2 s: on a busy machine it
    would slip, now and then, between the messages a test reads in order.  Tests of the
    heartbeat are marked ``heartbeat``; servers run as processes of their own (the browser,
    the terminal client, several processes) keep it, as in production.
    """
    connections = sys.modules.get("hotdeath.server.connections")
    if connections is not None and request.node.get_closest_marker("heartbeat") is None:
        monkeypatch.setattr(connections, "HEARTBEAT", float("inf"))


# ------------------------------------------------------------------ slow tests


def _run_slow(config: pytest.Config) -> bool:
    """Whether this run includes the ``slow`` tests."""
    return bool(os.environ.get("CI") or os.environ.get("HOTDEATH_SLOW")
                or "slow" in (config.getoption("-m") or ""))


_DESELECTED_SLOW: list[int] = [0]


RULE_MODULES = frozenset({
    "test_blocked", "test_core", "test_cutthroat", "test_hd_attacks", "test_hd_audit",
    "test_hd_cards_and_turns", "test_hd_overview", "test_hd_scoring", "test_playthroughs",
    "test_rule_coverage", "test_rulebook", "test_standard", "test_throwdown", "test_deals",
    "test_worked_example",
})
"""The modules of the rules: their tests, and every test citing a rule, are ``rules``."""


LONG_FIRST = (
    "tests/test_properties.py::test_many_random_games",
    "tests/test_lint.py::test_mypy",
    "tests/test_readme.py",
    "tests/test_tui.py::test_a_person_plays_a_hand",
    "tests/test_doc_examples.py",
    "tests/test_throwdown.py::test_random_games",
    "tests/test_benchmarks.py",
    "tests/test_browser",
    "tests/test_tui.py",
)
"""Node-id prefixes of the longest tests (``--durations``), run first: with ``-n 2`` a long
test started last keeps one worker busy while the other waits (a minute on this suite)."""


def _long_rank(item: pytest.Item) -> int:
    for rank, prefix in enumerate(LONG_FIRST):
        if item.nodeid.startswith(prefix):
            return rank
    return len(LONG_FIRST)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the rules tests (``-m rules``, the fast loop); leave ``slow`` ones out of a
    local run unless asked for (CI runs them); put the longest tests first."""
    for item in items:
        module = item.nodeid.split("::")[0].rsplit("/", 1)[-1].removesuffix(".py")
        if module in RULE_MODULES or item.get_closest_marker("rule") is not None:
            item.add_marker(pytest.mark.rules)
    items.sort(key=_long_rank)  # stable: the order within a group stays the file's
    if _run_slow(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
        _DESELECTED_SLOW[0] = len(slow)


# ------------------------------------------------------------------ missing tools


_MISSING: dict[str, list[str]] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note every test skipped for a missing tool (reports from xdist workers too)."""
    if report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2]).removeprefix("Skipped: ")
        if reason.startswith(support.MISSING):
            _MISSING.setdefault(reason, []).append(report.nodeid)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int,
                            config: pytest.Config) -> None:
    """Say what was not tested and how to get what is missing."""
    write = terminalreporter.write_line
    if _DESELECTED_SLOW[0]:
        write(f"note: {_DESELECTED_SLOW[0]} slow tests were left out (CI runs them; "
              "HOTDEATH_SLOW=1 or -m slow runs them here)")
    if not _MISSING:
        return
    terminalreporter.section("NOT TESTED: tools are missing", sep="=", red=True, bold=True)
    for reason, ids in sorted(_MISSING.items()):
        write(f"{len(ids)} tests skipped, {reason.removeprefix(support.MISSING).strip()}",
              red=True)
    if not os.environ.get("HOTDEATH_ALLOW_MISSING"):
        write("this run is not green: install the tools above, or set "
              "HOTDEATH_ALLOW_MISSING=1 to accept these skips", red=True, bold=True)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run that skipped tests for missing tools exits with status 1 (unless allowed)."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller decides
        return
    if _MISSING and exitstatus == 0 and not os.environ.get("HOTDEATH_ALLOW_MISSING"):
        session.exitstatus = 1
