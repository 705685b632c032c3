"""Staff accounts: sessions that can be revoked, tokens that expire, passwords that are not guessable."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
import sqlalchemy as sa

from tournament.auth import operations as auth
from tournament.auth.cli import parse_expiry
from tournament.auth.models import ApiToken, User
from tournament.cards.models import utcnow
from tournament.errors import Refused

PASSWORD = "correct horse battery"    # conftest.PASSWORD

NEW_PASSWORD = "lantern orchard seventeen"


def fresh_user(db, user_id) -> User:
    db.session.expire_all()
    return db.session.get(User, user_id)


def test_a_copied_session_cookie_stops_working_after_logout_everywhere(app, client, db, organizer, make_event, login):
    event = make_event()
    login(organizer)
    copy = app.test_client()
    copy.set_cookie("session", client.get_cookie("session").value)
    assert copy.get(f"/events/{event.id}/export.csv").status_code == 200
    assert client.post("/auth/logout-everywhere", data={}).status_code == 302
    for c in (client, copy):
        response = c.get(f"/events/{event.id}/export.csv")
        assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    assert fresh_user(db, organizer.id).session_version == 2


def test_a_cookie_copied_before_logout_is_refused_after_it(app, client, db, organizer, make_event, login):
    """The reported case: "Log out" ended only the browser's copy, and a cookie copied before it still downloaded
    the event export (every access code and contact). The login now ends on the server."""
    from tournament.auth.models import StaffSession
    event = make_event()
    login(organizer)
    copy = app.test_client()
    copy.set_cookie("session", client.get_cookie("session").value)
    assert copy.get(f"/events/{event.id}/export.csv").status_code == 200
    other_device = app.test_client()
    assert other_device.post("/auth/login", data={"name": organizer.name, "password": PASSWORD}).status_code == 302
    assert db.session.execute(sa.select(sa.func.count()).select_from(StaffSession)).scalar() == 2
    assert client.post("/auth/logout").status_code == 302
    for c in (client, copy):
        response = c.get(f"/events/{event.id}/export.csv")
        assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    assert other_device.get(f"/events/{event.id}/export.csv").status_code == 200    # only that login ended
    assert fresh_user(db, organizer.id).session_version == 1
    assert db.session.execute(sa.select(sa.func.count()).select_from(StaffSession)).scalar() == 1


def test_a_session_cookie_without_a_server_side_login_is_refused(app, client, db, organizer, login):
    """A cookie forged with the signing key, or one from before the upgrade: no login row, no access."""
    login(organizer)
    for sid in ("made-up", None, 12345, "x" * 500):
        with client.session_transaction() as s:
            s["sid"] = sid
        assert client.get("/events/new").status_code == 302, sid


def test_logins_older_than_the_lifetime_are_cleared_at_the_next_login(app, client, db, organizer, login):
    from tournament.auth.models import StaffSession
    login(organizer)
    db.session.execute(sa.update(StaffSession).values(created_at=utcnow() - timedelta(days=2)))
    db.session.commit()
    app.test_client().post("/auth/login", data={"name": organizer.name, "password": PASSWORD})
    rows = db.session.execute(sa.select(StaffSession)).scalars().all()
    assert len(rows) == 1 and rows[0].created_at.replace(tzinfo=None) > (utcnow() - timedelta(hours=1)).replace(
        tzinfo=None)


def test_a_session_older_than_its_lifetime_is_refused(app, client, db, organizer, login):
    login(organizer)
    with client.session_transaction() as s:
        s["since"] = int(time.time()) - int(app.permanent_session_lifetime.total_seconds()) - 60
    assert client.get("/events").status_code == 302
    assert app.permanent_session_lifetime == timedelta(hours=12)


@pytest.mark.parametrize("tamper", [{"sv": 7}, {"since": "yesterday"}, {"since": None}, {"user_id": "1"}])
def test_a_tampered_or_old_style_session_is_logged_out(app, client, db, organizer, login, tamper):
    login(organizer)
    with client.session_transaction() as s:
        s.update(tamper)
    assert client.get("/events").status_code == 302


def test_changing_the_password_keeps_this_session_and_ends_the_others(app, client, db, organizer, login):
    login(organizer)
    other = app.test_client()
    other.post("/auth/login", data={"name": organizer.name, "password": PASSWORD})
    assert other.get("/events").status_code == 200
    response = client.post("/auth/account", data={"current": PASSWORD, "password": NEW_PASSWORD,
                                                  "repeat": NEW_PASSWORD})
    assert response.status_code == 302
    assert "Every other device has been logged out" in client.get("/auth/account").get_data(as_text=True)
    assert client.get("/events").status_code == 200
    assert other.get("/events").status_code == 302
    client.post("/auth/logout")
    assert client.post("/auth/login", data={"name": organizer.name, "password": PASSWORD}).status_code == 401
    assert client.post("/auth/login", data={"name": organizer.name, "password": NEW_PASSWORD}).status_code == 302


@pytest.mark.parametrize("current, new, repeat, message", [
    ("wrong one here", NEW_PASSWORD, NEW_PASSWORD, "current password is not right"),
    (PASSWORD, "short", "short", "at least 10 characters"),
    (PASSWORD, "1234567890", "1234567890", "most common passwords"),
    (PASSWORD, "password123", "password123", "most common passwords"),
    (PASSWORD, "aaaaaaaaaaaa", "aaaaaaaaaaaa", "too easy to guess"),
    (PASSWORD, NEW_PASSWORD, NEW_PASSWORD + "x", "not the same"),
    (PASSWORD, PASSWORD, PASSWORD, "same as the current one"),
    (PASSWORD, "", "", "Type the new password"),
])
def test_password_change_refusals_say_what_to_do(client, db, organizer, login, current, new, repeat, message):
    login(organizer)
    before = fresh_user(db, organizer.id).password_hash
    response = client.post("/auth/account", data={"current": current, "password": new, "repeat": repeat})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert fresh_user(db, organizer.id).password_hash == before
    assert client.get("/events").status_code == 200


@pytest.mark.parametrize("password", ["12345678", "123456789012", "qwertyuiop", "Olga Organizer", "olgaorganizer1"])
def test_weak_passwords_are_refused_when_creating_an_account(db, password):
    with pytest.raises(Refused):
        auth.create_user("Olga Organizer", password, "organizer")


def test_a_disabled_account_loses_its_session_token_and_login(app, client, db, runner, organizer, login):
    login(organizer)
    token = auth.issue_token(organizer)
    db.session.commit()
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/events", headers=bearer).status_code == 200
    result = runner.invoke(args=["user", "disable", organizer.name])
    assert result.exit_code == 0, result.output
    assert client.get("/events").status_code == 302
    assert client.get("/api/v1/events", headers=bearer).status_code == 401
    response = client.post("/auth/login", data={"name": organizer.name, "password": PASSWORD})
    assert response.status_code == 403 and "disabled" in response.get_data(as_text=True)
    assert runner.invoke(args=["user", "enable", organizer.name]).exit_code == 0
    assert client.post("/auth/login", data={"name": organizer.name, "password": PASSWORD}).status_code == 302


def test_token_cli_expiry_and_revocation(app, client, db, runner, organizer):
    made = runner.invoke(args=["user", "token", organizer.name, "--expires", "30d", "--label", "scoreboard"])
    assert made.exit_code == 0, made.output
    token = made.output.strip()
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/events", headers=bearer).status_code == 200
    row = db.session.execute(sa.select(ApiToken)).scalar()
    assert timedelta(days=29, hours=23) < row.expires_at.replace(tzinfo=None) - utcnow().replace(tzinfo=None) \
        <= timedelta(days=30)
    listed = runner.invoke(args=["user", "tokens", organizer.name]).output
    assert "scoreboard" in listed and token not in listed
    revoked = runner.invoke(args=["user", "revoke", organizer.name])
    assert revoked.exit_code == 0 and "Revoked 1 token" in revoked.output
    response = client.get("/api/v1/events", headers=bearer)
    assert response.status_code == 401
    assert runner.invoke(args=["user", "revoke", organizer.name, "--id", str(row.id)]).exit_code == 1


def test_an_expired_token_is_refused(client, db, organizer):
    token = auth.issue_token(organizer, timedelta(minutes=5))
    db.session.execute(sa.update(ApiToken).values(expires_at=utcnow() - timedelta(seconds=1)))
    db.session.commit()
    assert client.get("/api/v1/events", headers={"Authorization": f"Bearer {token}"}).status_code == 401


@pytest.mark.parametrize("text, expected", [("30d", timedelta(days=30)), ("12h", timedelta(hours=12)),
                                            ("90m", timedelta(minutes=90)), ("2w", timedelta(weeks=2)),
                                            ("never", None)])
def test_expiry_words(text, expected):
    assert parse_expiry(text) == expected


@pytest.mark.parametrize("text", ["", "0d", "30", "thirty days", "-1d", "1y"])
def test_bad_expiry_words_are_refused(runner, db, organizer, text):
    result = runner.invoke(args=["user", "token", organizer.name, "--expires", text])
    assert result.exit_code == 2 and "30d" in result.output
    assert db.session.execute(sa.select(sa.func.count()).select_from(ApiToken)).scalar() == 0


def test_an_unknown_name_costs_a_password_check_too(app, db, organizer, monkeypatch):
    """No timing oracle: the dummy hash is checked for a name that does not exist."""
    checked = []
    real = auth.check_password_hash
    monkeypatch.setattr(auth, "check_password_hash", lambda h, p: checked.append(h) or real(h, p))
    with app.test_request_context():
        with pytest.raises(Refused):
            auth.authenticate("Nobody Atall", "whatever pass", "10.0.0.1")
    assert len(checked) == 1 and checked[0].startswith(app.config["PASSWORD_HASH_METHOD"].split(":")[0])


def test_concurrent_logins_each_get_their_own_server_side_session(app, db, organizer):
    from concurrent.futures import ThreadPoolExecutor
    from tournament.auth.models import StaffSession
    name = organizer.name
    db.session.remove()

    def log_in(_):
        c = app.test_client()
        assert c.post("/auth/login", data={"name": name, "password": PASSWORD}).status_code == 302
        return c
    with ThreadPoolExecutor(4) as pool:       # (five tries a minute per name and address: the login limit)
        browsers = list(pool.map(log_in, range(4)))
    assert db.session.execute(sa.select(sa.func.count()).select_from(StaffSession)).scalar() == 4
    browsers[0].post("/auth/logout")
    assert browsers[0].get("/events/new").status_code == 302
    assert all(b.get("/events/new").status_code == 200 for b in browsers[1:])
