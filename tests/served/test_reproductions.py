"""The audit's other reproductions against the server as scripts/run starts it: a cookie copied before logout,
a backup carrying a trigger, and the four inputs that answered 500."""
from __future__ import annotations

import json
import sqlite3

import httpx
import pytest

from tests.conftest import PG_URL
from tests.served.conftest import csrf_of, log_in, start, stop

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="the laptop's server on SQLite; run in the SQLite pass")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    proc, s = start(tmp_path_factory.mktemp("served"))
    yield s
    stop(proc)


def test_a_cookie_copied_before_logout_cannot_download_the_export_after_it(served):
    desk = served.phone()
    assert log_in(desk, "Olga Organizer").status_code == 302
    export = f"/events/{served.people['event']}/export.json"
    copied = httpx.Client(base_url=served.url, cookies={"session": desk.cookies["session"]}, timeout=20)
    assert copied.get(export).status_code == 200
    token = csrf_of(desk, "/events")
    assert desk.post("/auth/logout", data={"csrf_token": token}).status_code == 302
    after = copied.get(export)
    assert after.status_code == 302 and "/auth/login" in after.headers["Location"]
    assert served.people["codes"][0] not in after.text


def test_the_login_next_with_a_line_break_is_a_400(served):
    phone = served.phone()
    for raw in ("/events%0D%0ASet-Cookie:%20x=1", "/events%0Aevil"):
        assert phone.get(f"/auth/login?next={raw}").status_code == 400
        response = log_in(phone, "Olga Organizer", next_path=raw)
        assert response.status_code == 400 and "log-in link is damaged" in response.text


def _upload(client, page, path, body: bytes):
    token = csrf_of(client, page)
    return client.post(path, data={"csrf_token": token}, files={"file": ("file.json", body, "application/json")})


def _series(**event) -> bytes:
    return json.dumps({"format": "edh-tournament-series", "version": 1, "series": {"name": "League"},
                       "players": [{"key": 1, "name": "Ann"}],
                       "events": [{"name": "Night", "results": [{"player": 1, "name": "Ann", "place": 1}],
                                   **event}]}).encode()


def test_the_three_import_500s_are_400s_with_a_message(served):
    organizer = served.phone()
    assert log_in(organizer, "Olga Organizer").status_code == 302
    surrogate = b'{"format": "edh-tournament-event", "version": 1, "settings": {"name": "\\ud800"}}'
    response = _upload(organizer, "/events/import", "/events/import", surrogate)
    assert response.status_code == 400 and "broken character" in response.text
    response = _upload(organizer, "/series/import", "/series/import", _series(recorded_at="+99999-01-01T00:00:00Z"))
    assert response.status_code == 400 and "recorded_at" in response.text
    response = _upload(organizer, "/series/import", "/series/import",
                       _series(stats={"meta": [{"commander": "Atraxa"}], "players": "lots"}))
    assert response.status_code == 400 and "statistics cannot be read" in response.text


def test_a_backup_carrying_a_trigger_is_refused_by_flask_restore_and_nothing_changes(served, tmp_path):
    made = served.flask("backup")
    assert made.returncode == 0, made.stderr
    backup = made.stdout.strip().splitlines()[-1]
    hostile = tmp_path / "hostile.sqlite"
    hostile.write_bytes(open(backup, "rb").read())
    with sqlite3.connect(hostile) as conn:
        conn.execute("CREATE TRIGGER promote AFTER INSERT ON audit_entry BEGIN UPDATE user SET role = 'organizer'; "
                     "END")
    restored = served.flask("restore", str(hostile), "--yes")
    assert restored.returncode == 1 and "holds what this app's database does not: trigger promote" in restored.stderr
    judge = served.phone()
    assert log_in(judge, "Jan Judge").status_code == 302
    token = csrf_of(judge, "/events")
    event, reg = served.people["event"], served.people["regs"][1]
    checked = judge.post(f"/events/{event}/registrations/{reg}/checkin", data={"csrf_token": token})
    assert checked.status_code in (200, 302), checked.text[:300]      # a logged action, as in the attack
    assert judge.get("/events/new").status_code == 403                  # still no organizer
    with sqlite3.connect(served.instance / "tournament.sqlite") as conn:
        assert conn.execute("SELECT name, role FROM user ORDER BY id").fetchall() == [
            ("Olga Organizer", "organizer"), ("Jan Judge", "judge")]
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").fetchone() == (0,)


def test_a_poll_answered_304_keeps_the_phones_connection_open(served):
    """waitress closes the connection after a response without Content-Length, which every 304 is: a hall of
    phones polling would reconnect on every poll (tournament.web.keep_alive)."""
    import http.client
    from urllib.parse import urlparse
    address = urlparse(served.url)
    conn = http.client.HTTPConnection(address.hostname, address.port, timeout=20)
    code = served.people["codes"][0]
    conn.request("GET", f"/p/{code}/round")
    first = conn.getresponse()
    first.read()
    tag, cookie = first.getheader("ETag"), first.getheader("Set-Cookie", "").split(";")[0]
    assert first.status == 200 and tag
    sock = conn.sock
    for _ in range(3):
        conn.request("GET", f"/p/{code}/round", headers={"If-None-Match": tag, "Cookie": cookie})
        again = conn.getresponse()
        again.read()
        assert again.status == 304 and again.getheader("Connection") is None
        assert conn.sock is sock                       # the same connection, never closed and opened again
    conn.request("GET", f"/p/{code}/round", headers={"Cookie": cookie})
    page = conn.getresponse()
    page.read()
    assert page.status == 200 and conn.sock is sock
    conn.request("GET", f"/p/{code}/round", headers={"If-None-Match": tag, "Connection": "close"})
    closing = conn.getresponse()
    closing.read()
    assert closing.status == 304 and closing.getheader("Connection") == "close"    # asked to close: closed
    conn.close()
