"""A round's backup runs off the organizer's request: a thread of the worker makes it a moment later,
one at a time, coalesced, never as a damaged file (tournament.backups)."""
from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from tests.conftest import PG_URL
from tournament import backups
from tournament.events import operations as events
from tournament.rounds import operations as rounds

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="SQLite backups (PostgreSQL: pg_dump)")


@pytest.fixture
def slow_copies(monkeypatch):
    """Every copy takes `pause` seconds more (inside its lock); counts the copies under way at once, from the
    first look at the folder to the pruning after the rename."""
    state = {"pause": 2.5, "running": 0, "most": 0}
    lock = threading.Lock()
    real_newest, real_prune = backups._newest_stamp, backups._prune

    def newest(target_dir):
        with lock:
            state["running"] += 1
            state["most"] = max(state["most"], state["running"])
        return real_newest(target_dir)

    def prune(target_dir):
        time.sleep(state["pause"])
        real_prune(target_dir)
        with lock:
            state["running"] -= 1
    monkeypatch.setattr(backups, "_newest_stamp", newest)
    monkeypatch.setattr(backups, "_prune", prune)
    return state


def _until(condition, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def _draft(db, make_event, make_player, judge, players=4):
    event = make_event(name="Backups off the request")
    for i in range(players):
        events.check_in(make_player(event, f"Player {i:02d}"), judge)
    rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    db.session.commit()
    return event, rnd


def test_publishing_answers_before_the_backup_is_made(app, db, client, login, make_event, make_player, judge,
                                                     slow_copies):
    app.config["BACKUP_DELAY"] = 0.2
    event, _rnd = _draft(db, make_event, make_player, judge)
    login(judge)
    started = time.monotonic()
    r = client.post(f"/events/{event.id}/rounds/1/publish")
    answered = time.monotonic() - started
    assert r.status_code == 302
    assert answered < slow_copies["pause"], answered        # the copy did not run inside the request
    r = client.post(f"/events/{event.id}/rounds/1/start")
    assert r.status_code == 302
    assert backups.settle(10)
    made = backups.backups()
    assert [p.name.split("-", 3)[3] for p in made] == ["round-1-published.sqlite"]
    with sqlite3.connect(made[0]) as conn:        # the state after the publish, complete and sound
        assert conn.execute("SELECT status FROM round").fetchall() == [("published",)]
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_changes_within_the_delay_make_one_backup_named_after_the_latest(app, db, slow_copies):
    app.config["BACKUP_DELAY"] = 2.0
    slow_copies["pause"] = 0.0
    backups.after_round(1, "published")
    time.sleep(0.2)
    backups.after_round(1, "finished")
    assert backups.settle(10)
    assert [p.name.split("-", 3)[3] for p in backups.backups()] == ["round-1-finished.sqlite"]


def test_a_change_during_a_backup_is_backed_up_after_it_and_never_two_at_once(app, db, make_event, slow_copies):
    app.config["BACKUP_DELAY"] = 0.0
    slow_copies["pause"] = 0.8
    backups.after_round(1, "published")
    _until(lambda: slow_copies["running"] == 1)      # the first copy is under way
    make_event(name="Made during the copy")
    db.session.commit()
    backups.after_round(1, "finished")
    def flask_backup():
        with app.app_context():
            backups.backup("manual")
    manual = threading.Thread(target=flask_backup)
    manual.start()                                   # `flask backup` at the same moment waits its turn
    manual.join(20)
    assert backups.settle(20)
    assert slow_copies["most"] == 1, slow_copies
    newest = backups.backups()[0]
    with sqlite3.connect(newest) as conn:            # the latest state is in the newest backup
        assert ("Made during the copy",) in conn.execute("SELECT name FROM event").fetchall()
    reasons = sorted(p.name.split("-", 3)[3] for p in backups.backups())
    assert "round-1-published.sqlite" in reasons
    assert "round-1-finished.sqlite" in reasons or "manual.sqlite" in reasons


def test_a_backup_another_worker_made_after_the_change_covers_it(app, db, slow_copies):
    slow_copies["pause"] = 0.0
    wanted_at = time.time()
    first = backups._copy(backups.sqlite_path(), backups.folder(), "round-2-published")
    assert first is not None
    assert backups._copy(backups.sqlite_path(), backups.folder(), "round-2-published", unless_after=wanted_at) is None
    assert len(backups.backups()) == 1


def test_a_copy_cut_short_leaves_no_damaged_backup(app, db):
    folder = backups.folder()
    folder.mkdir(parents=True, exist_ok=True)
    cut = folder / ".20261204-101500-000000-round-1-published.sqlite.part"
    cut.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)        # what a killed server leaves
    assert backups.backups() == []                                  # never listed, never restored
    made = backups.backup("manual")
    assert not cut.exists() and backups.backups() == [made]
    assert not list(folder.glob("*.part")) and not list(folder.glob(".*.part"))


def test_a_wanted_backup_the_server_stopped_before_making_is_made_at_the_next_start(app, db):
    folder = backups.folder()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".wanted").write_text("round-3-published\n")
    backups.resume_wanted(app)
    assert backups.settle(10)
    assert [p.name.split("-", 3)[3] for p in backups.backups()] == ["round-3-published.sqlite"]
    backups.resume_wanted(app)                      # made already: nothing more
    assert backups.settle(10)
    assert len(backups.backups()) == 1
