"""A round's start on SQLite (and PostgreSQL): every phone submits its sideboard swap and every table reports its
result at the same moment, every tap twice, from as many threads as the server runs. Every acknowledged write is
stored exactly once, a refused one not at all, and nobody is told "busy" (the writers queue, they do not poll)."""
from __future__ import annotations

import threading
import time

import sqlalchemy as sa

from tournament.rounds.models import ResultReport
from tournament.swaps.models import Swap

from tests.swaps.conftest import SIDEBOARD, main_cards

THREADS = 16        # scripts/run: 2 workers x 8 threads


def test_swaps_and_results_at_once_are_each_stored_once(app, db, started_table):
    _event, table, _regs = started_table(n=40)               # 10 pods, every window open
    rnd = table.round
    tables = [(t.id, t.number, [(s.registration_id, s.registration.access_code) for s in t.seats])
              for t in rnd.tables if t.kind == "pod"]
    db.session.remove()
    out = main_cards()[0]
    jobs = []
    for table_id, number, seats in tables:
        for rid, code in seats:
            jobs += [("swap", rid, f"/api/v1/players/{code}/swaps",
                      {"json": {"pairs": [{"out": out, "in": SIDEBOARD[0]}]}})] * 2
        first, code = seats[0]
        jobs += [("report", table_id, f"/p/{code}/result",
                  {"data": {"r-round": 1, "r-table": number, "r-revision": 0, "r-survivors": [first]}})] * 2
    results: list = [None] * len(jobs)
    barrier = threading.Barrier(THREADS)
    chunks = [list(range(i, len(jobs), THREADS)) for i in range(THREADS)]

    def run(indexes):
        client = app.test_client()
        barrier.wait()
        for i in indexes:
            kind, key, url, body = jobs[i]
            started = time.monotonic()
            r = client.post(url, **body)
            results[i] = (kind, key, r.status_code, time.monotonic() - started, r.get_data(as_text=True)[:200])

    threads = [threading.Thread(target=run, args=(chunk,)) for chunk in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert all(r is not None for r in results)
    assert not [r for r in results if r[2] >= 500], [r for r in results if r[2] >= 500][:3]
    assert max(r[3] for r in results) < 10.0, sorted(r[3] for r in results)[-3:]

    swaps_told = [(key, status) for kind, key, status, _t, _b in results if kind == "swap"]
    with app.app_context():
        stored = dict(db.session.execute(sa.select(Swap.registration_id, sa.func.count())
                                         .group_by(Swap.registration_id)).all())
        reports = dict(db.session.execute(sa.select(ResultReport.table_id, sa.func.count())
                                          .group_by(ResultReport.table_id)).all())
    for rid in {key for key, _s in swaps_told}:
        statuses = sorted(status for key, status in swaps_told if key == rid)
        assert statuses == [200, 409], (rid, statuses)          # the second tap: the card is no longer in the deck
        assert stored.get(rid) == 1, rid
    for table_id, _n, _seats in tables:
        statuses = [status for kind, key, status, _t, _b in results if kind == "report" and key == table_id]
        assert 302 in statuses and set(statuses) <= {302, 409}, (table_id, statuses)
        assert reports.get(table_id) == 1, table_id
