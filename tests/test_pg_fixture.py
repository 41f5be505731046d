"""The PostgreSQL fixture: skips outside CI when PostgreSQL is missing, fails in CI."""

from __future__ import annotations

import pytest

from tests import conftest
from tests.pgcluster import Cluster


def test_missing_postgresql_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        conftest._unavailable("the PostgreSQL server is not installed")


def test_missing_postgresql_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run every test"):
        conftest._unavailable("the PostgreSQL server is not installed")


def test_the_cluster_takes_only_its_password(pg_cluster: Cluster) -> None:
    import psycopg

    with psycopg.connect(pg_cluster.url("postgres").replace("+psycopg", "")) as c:
        assert c.execute("select 1").fetchone() == (1,)
    with pytest.raises(psycopg.OperationalError, match="password"):
        psycopg.connect(pg_cluster.url("postgres", password="wrong").replace("+psycopg", ""))
