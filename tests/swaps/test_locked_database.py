"""SQLite held by another program (a `sqlite3` shell left in a transaction, a copy tool): a phone's write is told
"busy, retrying" within about 5 s (503 with Retry-After, nothing stored), never held for 30 s, while reads go on
(WAL); once the other program lets go, the same write goes through. Writers of one worker queue on a lock of
the process instead of polling SQLite (tournament.web.lifecycle)."""
from __future__ import annotations

import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tests.conftest import PG_URL
from tournament.rounds.models import ResultReport
from tournament.swaps.models import Swap

from tests.swaps.conftest import main_cards

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="SQLite's write lock (PostgreSQL locks rows)")

WAIT = 5.0          # SQLITE_WRITE_WAIT, the default
SLACK = 2.5         # a loaded test machine


def _hold_write_lock(app):
    """Another process's connection to the same file, holding SQLite's write lock (BEGIN IMMEDIATE)."""
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    other = sqlite3.connect(path, isolation_level=None, timeout=0, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    return other


def _swap(client, code, out, into="Lightning Bolt"):
    started = time.monotonic()
    r = client.post(f"/api/v1/players/{code}/swaps", json={"pairs": [{"out": out, "in": into}]})
    return r, time.monotonic() - started


def test_a_write_is_told_busy_within_seconds_and_a_read_still_works(app, db, client, started_table):
    assert app.config["SQLITE_WRITE_WAIT"] == WAIT
    _event, table, regs = started_table(n=4)
    code, out = regs[0].access_code, main_cards()[0]
    assert client.get(f"/p/{code}").status_code == 200       # the page (and its swap window) as before
    other = _hold_write_lock(app)
    try:
        r, took = _swap(client, code, out)
        assert r.status_code == 503, r.get_data(as_text=True)
        assert WAIT - 0.5 <= took <= WAIT + SLACK, took
        assert int(r.headers["Retry-After"]) >= 1
        message = r.get_json()["error"]["message"]
        assert "busy" in message and "retrying" in message and "Nothing was saved" in message
        started = time.monotonic()
        page = client.get(f"/p/{code}")                      # a phone's read: served from the WAL snapshot
        assert page.status_code == 200 and time.monotonic() - started < 2.0
        assert client.get(f"/api/v1/players/{code}/swaps").status_code == 200
        form = client.post(f"/p/{code}/result", data={"r-round": 1, "r-table": table.number, "r-revision": 0,
                                                       "r-survivors": [regs[0].id]})
        assert form.status_code == 503 and "Retry-After" in form.headers     # a form post: the same, as a page
        assert "busy" in form.get_data(as_text=True)
    finally:
        other.rollback()
        other.close()
    assert db.session.execute(sa.select(sa.func.count()).select_from(Swap)).scalar() == 0
    assert db.session.execute(sa.select(sa.func.count()).select_from(ResultReport)).scalar() == 0
    r, took = _swap(client, code, out)                        # the phone's retry, the lock gone: stored once
    assert r.status_code == 200 and took < 2.0
    assert db.session.execute(sa.select(sa.func.count()).select_from(Swap)).scalar() == 1


def test_many_writes_waiting_at_once_are_all_answered_within_the_wait(app, db, started_table):
    _event, _table, regs = started_table(n=4)
    outs = main_cards()
    jobs = [(reg.access_code, outs[i]) for reg in regs for i in range(3)]      # 12 phones' submits at once
    other = _hold_write_lock(app)
    try:
        with ThreadPoolExecutor(len(jobs)) as pool:
            results = list(pool.map(lambda job: _swap(app.test_client(), *job), jobs))
    finally:
        other.rollback()
        other.close()
    assert all(r.status_code == 503 for r, _t in results), [r.status_code for r, _t in results]
    assert max(t for _r, t in results) <= WAIT + SLACK, [round(t, 2) for _r, t in results]
    assert db.session.execute(sa.select(sa.func.count()).select_from(Swap)).scalar() == 0


def test_a_lock_let_go_within_the_wait_costs_the_phone_only_the_wait(app, db, client, started_table):
    _event, _table, regs = started_table(n=4)
    other = _hold_write_lock(app)
    threading.Timer(1.5, lambda: (other.rollback(), other.close())).start()
    r, took = _swap(client, regs[0].access_code, main_cards()[0])
    assert r.status_code == 200, r.get_data(as_text=True)
    assert 1.0 <= took < 1.5 + SLACK, took
