import os

import pytest
import sqlalchemy as sa

from tests.conftest import PG_URL
from tournament import create_app
from tournament.config import database_url_from_env


def test_database_url_from_environment_uses_psycopg(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", "postgres://u@db.example/edh")
    monkeypatch.setenv("SECRET_KEY", "s3cret")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u@db.example/edh"
    assert app.config["SECRET_KEY"] == "s3cret"


@pytest.fixture(autouse=True)
def _instance_in_tmp(monkeypatch, tmp_path):
    """create_app() here must not write into the checkout's instance/ folder."""
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path / "instance"))


def test_default_database_is_sqlite_under_instance(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app()
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    assert uri.startswith("sqlite:///") and uri.endswith(os.path.join("instance", "tournament.sqlite"))


def test_explicit_config_wins(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://u@db.example/edh")
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite://"


def test_url_spellings():
    assert database_url_from_env("postgresql://x/y") == "postgresql+psycopg://x/y"
    assert database_url_from_env("sqlite:///a.db") == "sqlite:///a.db"
    assert database_url_from_env("") is None


def test_sqlite_has_wal_and_foreign_keys(db):
    if PG_URL:
        pytest.skip("SQLite only")
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1


def test_migrations_build_the_whole_schema(db):
    """Every model's table exists after `db upgrade` (the fixture's schema came from migrations)."""
    tables = set(sa.inspect(db.engine).get_table_names())
    assert set(db.metadata.tables) <= tables
    assert "alembic_version" in tables


@pytest.mark.postgres
def test_runs_on_postgresql(db):
    assert db.engine.dialect.name == "postgresql"
    assert db.session.execute(sa.text("select 1")).scalar() == 1


@pytest.mark.postgres
def test_the_pool_holds_two_connections_for_every_busy_server_thread(db):
    """A request's own connection plus a rate-limit counter's: 16 threads of one process all at that point
    (the browser tests' and the concurrency tests' load) must not wait on each other for the pool's 30 s."""
    from tournament.serve import DEFAULT_THREADS
    pool = db.engine.pool
    assert pool.size() + pool._max_overflow > 2 * max(DEFAULT_THREADS, 16)


def test_a_server_database_connection_is_tested_before_use_and_a_sqlite_file_is_not(db):
    """A PostgreSQL connection may have dropped since its last use (a restart, an outage); a SQLite file's
    cannot, and testing it cost a statement per request."""
    assert db.engine.pool._pre_ping is (db.engine.dialect.name != "sqlite")


def test_without_secret_key_a_random_one_is_kept_in_instance(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    first = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
    key = first.config["SECRET_KEY"]
    assert len(key) == 64 and key != "dev-only-change-me"
    assert create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}).config["SECRET_KEY"] == key
    stored = os.path.join(first.instance_path, "secret_key")
    assert first.instance_path == str(tmp_path / "instance")
    assert oct(os.stat(stored).st_mode & 0o777) == "0o600"
