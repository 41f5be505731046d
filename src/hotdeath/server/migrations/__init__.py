"""Alembic migrations of the server's database (run by ``hotdeath.server.store.migrate``)."""
