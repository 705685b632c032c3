"""The laptop's server is killed (SIGKILL) in the middle of a result storm: after a restart every
acknowledged write is there, and nothing is half-written."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest
import sqlalchemy as sa

from tests.conftest import PG_URL, REPO
from tournament import create_app
from tournament.config import TestingConfig

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
PLAYERS = 48


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _setup(url: str, instance) -> list[dict]:
    """A published, started round of 12 pods, built with the app's operations."""
    from tournament.auth.operations import create_user
    from tournament.events import operations as events
    from tournament.extensions import db
    from tournament.rounds import operations as rounds

    class Config(TestingConfig):
        SQLALCHEMY_DATABASE_URI = url
        INSTANCE_PATH = str(instance)
    app = create_app(Config)
    with app.app_context():
        from flask_migrate import upgrade
        upgrade()
        olga = create_user("Olga Crash", "correct horse battery", "organizer")
        event = events.create_event(olga, {"name": "Crash test", "ruleset": "edh-2010"})
        regs = [events.register_player(event, {"name": f"Player {i:02d}"}, user=olga) for i in range(PLAYERS)]
        for reg in regs:
            events.check_in(reg, olga)
        rnd = rounds.pair_next_round(event, olga, seed=99, override_decks=True)
        rounds.publish_round(rnd, olga)
        rounds.start_round(rnd, olga)
        db.session.commit()
        tables = [{"id": t.id, "number": t.number,
                   "seats": [(s.registration_id, s.registration.access_code) for s in t.seats]}
                  for t in rnd.tables if t.kind == "pod"]
        db.session.remove()
        db.engine.dispose()
    return tables


def _start(env) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "tournament.serve", "--port", env["PORT"]], env=env, cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(150):
        try:
            httpx.get(f"http://127.0.0.1:{env['PORT']}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            assert proc.poll() is None, "the server did not start"
            time.sleep(0.1)
    pytest.fail("the server did not answer")


@pytest.mark.skipif(bool(PG_URL), reason="the laptop case: SQLite (PostgreSQL has its own crash recovery)")
def test_sigkill_during_a_result_storm_loses_no_acknowledged_write(tmp_path):
    url = f"sqlite:///{tmp_path / 'crash.sqlite'}"
    tables = _setup(url, tmp_path)
    env = {**os.environ, "DATABASE_URL": url, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "crash",
           "PORT": str(_free_port())}
    env.pop("TEST_DATABASE_URL", None)
    base = f"http://127.0.0.1:{env['PORT']}"
    server = _start(env)
    jobs = []
    for t in tables:
        ids = [rid for rid, _c in t["seats"]]
        first, code = t["seats"][0]
        jobs.append(("report", (t["id"], first), code, "/result",
                     {"r-round": "1", "r-table": str(t["number"]), "r-revision": "0", "r-survivors": str(first)}))
        for i, (rid, c) in enumerate(t["seats"]):
            votee = ids[(i + 1) % len(ids)]
            jobs.append(("vote", (t["id"], rid, votee), c, "/vote",
                         {"round": "1", "table": str(t["number"]), "votee": str(votee)}))
            if i:
                jobs.append(("confirm", (t["id"], rid), c, "/confirm",
                             {"round": "1", "table": str(t["number"]), "revision": "1"}))
    clients = {}
    for _kind, _key, code, _path, _form in jobs:
        if code not in clients:
            client = httpx.Client(base_url=base, timeout=10)
            token = CSRF.search(client.get(f"/p/{code}").text).group(1)
            clients[code] = (client, token)
    acknowledged, lock = [], threading.Lock()

    def send(chunk):
        for kind, key, code, path, form in chunk:
            client, token = clients[code]
            try:
                r = client.post(f"/p/{code}{path}", data={**form, "csrf_token": token})
            except httpx.HTTPError:
                return                               # the server is gone
            if r.status_code == 302:
                with lock:
                    acknowledged.append((kind, key))
    reports = [j for j in jobs if j[0] == "report"]
    rest = [j for j in jobs if j[0] != "report"]
    threads = [threading.Thread(target=send, args=(reports[i::4] + rest[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    while len(acknowledged) < len(jobs) // 3:
        time.sleep(0.01)
    os.killpg(server.pid, signal.SIGKILL)             # the supervisor and every worker at once: a crash
    server.wait(timeout=10)
    for t in threads:
        t.join(timeout=30)
    assert 0 < len(acknowledged) < len(jobs)
    server = _start(env)                              # the same command again, as the organizer would
    try:
        assert httpx.get(base + "/healthz").json() == {"status": "ok", "database": "ok"}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA integrity_check")).scalar() == "ok"
        confirms = set(conn.execute(sa.text("SELECT table_id, registration_id FROM result_confirmation")).all())
        votes = set(conn.execute(sa.text("SELECT table_id, voter_id, votee_id FROM vote")).all())
        reported = {r[0] for r in conn.execute(sa.text("SELECT table_id FROM result_report")).all()}
        for kind, key in acknowledged:
            stored = {"confirm": key in confirms, "vote": key in votes, "report": key[0] in reported}[kind]
            assert stored, (kind, key)
        # nothing half-written: every result revision has its version row, its reporter's confirmation
        # and its audit entry; no confirmation or state without a result
        rows = conn.execute(sa.text("SELECT id, result_revision, result_state FROM game_table")).all()
        versions = dict(conn.execute(sa.text("SELECT table_id, count(*) FROM result_report GROUP BY table_id")).all())
        audited = conn.execute(sa.text("SELECT count(*) FROM audit_entry WHERE action = 'result.report'")).scalar()
        for table_id, revision, state in rows:
            assert versions.get(table_id, 0) == revision
            assert (state is None) == (revision == 0)
        assert audited == sum(versions.values())
    engine.dispose()
