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
