"""Many judges at once: every penalty posted is stored exactly once, a retried post (the same key) is stored once,
and the same game loss given by two judges at the same moment is stored once, the other told why. Each request
runs in its own thread with its own client (its own app context and database session), as on the server; the
same tests run on SQLite and on PostgreSQL (TEST_DATABASE_URL)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tournament.auth.operations import issue_token
from tournament.events.models import AuditEntry
from tournament.penalties.models import Penalty

THREADS = 12


@pytest.fixture
def judges(db, make_user, pods):
    """Six judges on the event's staff, each with an API token."""
    from tournament.events.operations import add_staff
    event, _rnd, _regs = pods
    tokens = []
    for i in range(6):
        user = make_user(f"Judge {i}", "judge")
        add_staff(event, event.organizer, user.name, "judge")
        tokens.append(issue_token(user))
    db.session.commit()
    return tokens


def _storm(app, jobs):
    """POST (url, token, body) jobs from THREADS threads at once; [(job, status, json)]."""
    def run(job):
        url, token, body = job
        response = app.test_client().post(url, json=body, headers={"Authorization": f"Bearer {token}"})
        return job, response.status_code, response.get_json(silent=True)
    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(run, jobs))


def _no_server_errors(results):
    assert not [(s, b) for _j, s, b in results if s >= 500], [(s, b) for _j, s, b in results if s >= 500][:3]


def test_many_penalties_at_once_are_each_stored_once(app, db, pods, judges):
    event, _rnd, regs = pods
    ids = [r.id for r in regs]
    url = f"/api/v1/events/{event.id}/penalties"
    db.session.remove()                 # the test's own session holds nothing while the judges write
    jobs = [(url, judges[i % len(judges)], {"registration_id": ids[i % len(ids)], "infraction": "slow_play",
                                            "note": f"penalty {i}", "key": f"k{i}"}) for i in range(48)]
    jobs += jobs[:24]                       # half of them sent twice (a retry after a lost answer)
    results = _storm(app, jobs)
    _no_server_errors(results)
    assert {s for _j, s, _b in results} == {201}, {s for _j, s, _b in results}
    rows = db.session.execute(sa.select(Penalty.key, Penalty.note)).all()
    assert sorted(k for k, _n in rows) == sorted(f"k{i}" for i in range(48))
    assert {k: n for k, n in rows} == {f"k{i}": f"penalty {i}" for i in range(48)}
    answered = {}
    for (_u, _t, body), _s, answer in results:
        answered.setdefault(body["key"], set()).add(answer["id"])
    assert all(len(v) == 1 for v in answered.values())      # a retry answers the penalty stored the first time
    logged = db.session.execute(sa.select(sa.func.count()).select_from(AuditEntry)
                                .where(AuditEntry.action == "penalty.warning")).scalar()
    assert logged == 48


def test_two_judges_giving_the_same_game_loss_at_once_store_one(app, db, pods, judges):
    event, rnd, _regs = pods
    player = rnd.tables[0].seats[0].registration_id
    url = f"/api/v1/events/{event.id}/penalties"
    db.session.remove()                 # the test's own session holds nothing while the judges write
    jobs = [(url, token, {"registration_id": player, "infraction": "tardiness"}) for token in judges]
    results = _storm(app, jobs)
    _no_server_errors(results)
    statuses = sorted(s for _j, s, _b in results)
    assert statuses == [201] + [409] * (len(judges) - 1), statuses
    assert all("already has this penalty" in b["error"]["message"] for _j, s, b in results if s == 409)
    assert db.session.execute(sa.select(sa.func.count()).select_from(Penalty)).scalar() == 1


def test_a_disqualification_sent_by_several_judges_drops_the_player_once(app, db, pods, judges):
    event, rnd, _regs = pods
    player = rnd.tables[1].seats[2].registration_id
    url = f"/api/v1/events/{event.id}/penalties"
    db.session.remove()                 # the test's own session holds nothing while the judges write
    results = _storm(app, [(url, token, {"registration_id": player, "infraction": "cheating"}) for token in judges])
    _no_server_errors(results)
    assert sorted(s for _j, s, _b in results) == [201] + [409] * (len(judges) - 1)
    assert db.session.execute(sa.select(sa.func.count()).select_from(Penalty)).scalar() == 1
    drops = db.session.execute(sa.select(AuditEntry.action).where(AuditEntry.action == "penalty.disqualification"))
    assert len(drops.all()) == 1
