"""Backups at the venue: after every published and finished round, on demand, and restored."""
from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy as sa

from tests.conftest import PG_URL
from tournament import backups
from tournament.events.models import Event
from tournament.rounds import operations as rounds

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="SQLite backups (PostgreSQL: pg_dump)")


def test_publishing_and_finishing_a_round_leave_a_backup(app, db, make_round, judge):
    event, rnd, regs = make_round(players=4)
    made = backups.backups()
    assert [p.name.split("-", 3)[3] for p in made] == ["round-1-published.sqlite"]
    for t in rnd.tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    newest = backups.backups()[0]
    assert newest.name.endswith("round-1-finished.sqlite")
    with sqlite3.connect(newest) as conn:
        assert conn.execute("SELECT status FROM round").fetchall() == [("finished",)]
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_publish_that_is_rolled_back_leaves_no_backup(app, db, make_round, judge):
    event, rnd, regs = make_round(players=4)
    for t in rnd.tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    before = backups.backups()
    draft = rounds.pair_next_round(event, judge, seed=2, override_decks=True)
    rounds.publish_round(draft, judge)
    db.session.rollback()
    db.session.commit()
    assert backups.backups() == before


def test_only_the_newest_twenty_are_kept(app, db):
    for i in range(25):
        backups.backup(f"manual {i}")
    kept = backups.backups()
    assert len(kept) == backups.KEEP and kept[0].name.endswith("manual-24.sqlite")


def test_backup_and_restore_round_trip_through_the_cli(app, db, runner, make_event):
    make_event(name="Keep me")
    result = runner.invoke(args=["backup"])
    assert result.exit_code == 0, result.output
    saved = result.output.strip().splitlines()[-1]
    db.session.execute(sa.delete(Event))
    db.session.commit()
    result = runner.invoke(args=["restore", saved, "--yes"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert [e.name for e in db.session.execute(sa.select(Event)).scalars()] == ["Keep me"]


def test_restore_refuses_what_is_not_a_backup_of_this_schema(app, db, runner, tmp_path, make_event):
    make_event(name="Still here")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    older = tmp_path / "older.sqlite"
    made = backups.backup("for-an-old-copy")
    older.write_bytes(made.read_bytes())
    with sqlite3.connect(older) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '095aea5bf7fb'")
    for path, message in ((junk, "is not a backup"), (other, "is not a backup"), (older, "was made with schema"),
                          (tmp_path / "missing.sqlite", "No file at")):
        result = runner.invoke(args=["restore", str(path), "--yes"])
        assert result.exit_code == 1 and message in result.output, (path, result.output)
    with app.app_context():
        assert [e.name for e in db.session.execute(sa.select(Event)).scalars()] == ["Still here"]


def _hostile_copy(tmp_path, statement: str):
    """A real backup of this database with one object added to its schema, as an attacker would hand over."""
    made = backups.backup("to-tamper-with")
    hostile = tmp_path / "hostile.sqlite"
    hostile.write_bytes(made.read_bytes())
    with sqlite3.connect(hostile) as conn:
        conn.execute(statement)
    return hostile


@pytest.mark.parametrize("statement", [
    "CREATE TRIGGER promote AFTER INSERT ON audit_entry BEGIN UPDATE user SET role = 'organizer'; END",
    "CREATE TRIGGER promote2 AFTER UPDATE ON registration BEGIN UPDATE user SET role = 'organizer'; END",
    "CREATE VIEW everyone AS SELECT name, password_hash FROM user",
    "CREATE TABLE smuggled (x)",
    "CREATE INDEX ix_smuggled ON user (role)",
])
def test_restore_refuses_a_backup_whose_schema_holds_anything_extra(app, db, runner, tmp_path, judge, statement):
    """The reported attack: a real backup plus CREATE TRIGGER … UPDATE user SET role='organizer'. Nothing of it
    reaches the live database: the judge stays a judge, no safety copy is even made."""
    from tournament.auth.models import User
    hostile = _hostile_copy(tmp_path, statement)
    before = backups.backups()
    result = runner.invoke(args=["restore", str(hostile), "--yes"])
    assert result.exit_code == 1 and "holds what this app's database does not" in result.output, result.output
    assert "nothing was restored" in result.output
    assert backups.backups() == before
    with app.app_context():
        assert db.session.get(User, judge.id).role == "judge"
        live = backups.sqlite_path()
    with sqlite3.connect(live) as conn:
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE type IN ('trigger', 'view')").fetchone() == (0,)


def test_restore_refuses_a_table_redefined_in_the_backup(app, db, runner, tmp_path, judge):
    """Same name, different definition (a default that grants the organizer role to every new account)."""
    made = backups.backup("to-tamper-with")
    hostile = tmp_path / "redefined.sqlite"
    hostile.write_bytes(made.read_bytes())
    with sqlite3.connect(hostile) as conn:
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute("UPDATE sqlite_master SET sql = replace(sql, 'role VARCHAR(20) NOT NULL', "
                     "'role VARCHAR(20) NOT NULL DEFAULT ''organizer''') WHERE name = 'user'")
    result = runner.invoke(args=["restore", str(hostile), "--yes"])
    assert result.exit_code == 1 and "table user (defined differently)" in result.output, result.output


def test_restore_refuses_a_damaged_file(app, db, runner, tmp_path, make_event):
    make_event(name="Still here")
    made = backups.backup("to-damage")
    damaged = tmp_path / "damaged.sqlite"
    data = bytearray(made.read_bytes())
    page = 4096
    for i in range(page * 3, min(len(data), page * 6), 7):        # scribble over a few pages in the middle
        data[i] = (data[i] + 1) % 256
    damaged.write_bytes(bytes(data))
    result = runner.invoke(args=["restore", str(damaged), "--yes"])
    assert result.exit_code == 1 and "is not a backup" in result.output, result.output
    with app.app_context():
        assert [e.name for e in db.session.execute(sa.select(Event)).scalars()] == ["Still here"]


def test_a_plain_backup_of_this_app_still_restores(app, db, runner, make_event):
    """The check compares the schema with the live one: an honest backup passes it."""
    make_event(name="Honest")
    made = backups.backup("honest")
    assert backups.foreign_objects(made, backups.sqlite_path()) == []
