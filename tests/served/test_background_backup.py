"""The round's backup through the real server (two forked workers): "Publish and start" answers at once, and the
worker's backup thread leaves one complete backup of the round's start a moment later, no `.part` file."""
from __future__ import annotations

import sqlite3
import time

import pytest

from tests.conftest import PG_URL
from tests.served.conftest import PASSWORD, csrf_of, log_in, start, stop

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="the laptop's set-up: SQLite")


def _draft_round(served) -> None:
    """Four more players checked in and round 1 paired as a draft, by the app's operations on the same file."""
    from tournament import create_app
    from tournament.auth.models import User
    from tournament.config import Config
    from tournament.events import operations as events
    from tournament.events.models import Event
    from tournament.extensions import db
    from tournament.rounds import operations as rounds

    class Prepared(Config):
        SQLALCHEMY_DATABASE_URI = served.env["DATABASE_URL"]
        INSTANCE_PATH = str(served.instance)
        SECRET_KEY = served.env["SECRET_KEY"]
    app = create_app(Prepared)
    with app.app_context():
        olga = db.session.execute(db.select(User).filter_by(name="Olga Organizer")).scalar_one()
        event = db.session.get(Event, served.people["event"])
        for i in range(4):
            events.register_player(event, {"name": f"Walk-in {i}"}, user=olga)
        db.session.flush()
        for reg in event.registrations:
            events.check_in(reg, olga)
        rounds.pair_next_round(event, olga, seed=11, override_decks=True)
        db.session.commit()
        db.session.remove()
        db.engine.dispose()


def test_publish_and_start_answers_at_once_and_one_backup_follows(tmp_path):
    proc, served = start(tmp_path)
    try:
        _draft_round(served)
        organizer = served.phone()
        assert log_in(organizer, "Olga Organizer", PASSWORD).status_code == 302
        event = served.people["event"]
        token = csrf_of(organizer, f"/events/{event}/rounds/1")
        started = time.monotonic()
        r = organizer.post(f"/events/{event}/rounds/1/publish", data={"csrf_token": token, "and_start": "1"})
        answered = time.monotonic() - started
        assert r.status_code == 302, r.text[:300]
        assert answered < 3.0, answered
        folder = served.instance / "backups"
        end = time.monotonic() + 30
        made = []
        while time.monotonic() < end:
            made = sorted(folder.glob("*-round-1-published.sqlite")) if folder.exists() else []
            if made:
                break
            time.sleep(0.2)
        assert len(made) == 1, list(folder.iterdir()) if folder.exists() else "no backups folder"
        time.sleep(2.5)                               # a second one would come within BACKUP_DELAY: none does
        assert len(sorted(folder.glob("*.sqlite"))) == 1 and not list(folder.glob(".*.part"))
        with sqlite3.connect(made[0]) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            status, started_at = conn.execute("SELECT status, started_at FROM round").fetchone()
            assert status == "published" and started_at is not None     # the round's start, tables and clock
    finally:
        stop(proc)
