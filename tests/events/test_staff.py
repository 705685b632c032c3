"""Staff per event: a judge acts only on the events whose organizers added them; co-organizers also manage."""
from __future__ import annotations

import sqlalchemy as sa
import pytest

from tournament.auth.operations import issue_token
from tournament.errors import Forbidden, Refused
from tournament.events import operations as ops
from tournament.events.models import AuditEntry, EventStaff
from tournament.rounds import operations as rounds


@pytest.fixture
def two_events(make_event, make_user, make_player, judge):
    """Event A has `judge` on its staff, event B (another organizer's) has nobody."""
    a = make_event(name="A")
    other = make_user("Otto Other")
    b = make_event(owner=other, name="B", staff=[])
    make_player(a, "Anna")
    make_player(b, "Bert")
    return a, b, other


def test_judge_of_a_gets_403_on_b_everywhere(client, db, two_events, judge, login):
    a, b, _ = two_events
    login(judge)
    assert client.get(f"/events/{a.id}").status_code == 200
    assert client.get(f"/events/{a.id}/desk").status_code == 200
    for path in (f"/events/{b.id}", f"/events/{b.id}/desk", f"/events/{b.id}/rounds", f"/events/{b.id}/log",
                 f"/events/{b.id}/export.csv", f"/events/{b.id}/export.json"):
        response = client.get(path)
        assert response.status_code == 403, path
        assert "not on this event&#39;s staff" in response.get_data(as_text=True) or response.is_json
    reg = b.registrations[0]
    response = client.post(f"/events/{b.id}/registrations/{reg.id}/checkin", data={})
    assert response.status_code == 403
    db.session.expire_all()
    assert db.session.get(type(reg), reg.id).checked_in_at is None


def test_judge_token_follows_the_same_rule(client, db, two_events, judge):
    a, b, _ = two_events
    token = issue_token(judge)
    db.session.commit()
    auth = {"Authorization": f"Bearer {token}"}
    listed = client.get("/api/v1/events", headers=auth).get_json()["events"]
    assert [e["id"] for e in listed] == [a.id]
    assert client.get(f"/api/v1/events/{a.id}/registrations", headers=auth).status_code == 200
    response = client.get(f"/api/v1/events/{b.id}/registrations", headers=auth)
    assert response.status_code == 403
    assert "staff" in response.get_json()["error"]["message"]


def test_operations_refuse_a_judge_of_another_event(db, two_events, judge):
    _, b, _ = two_events
    with pytest.raises(Forbidden):
        ops.check_in(b.registrations[0], judge)
    with pytest.raises(Forbidden):
        rounds.pair_next_round(b, judge, seed=1, override_decks=True)


def test_organizer_adds_a_judge_who_then_runs_the_event(client, db, two_events, judge, login):
    a, b, other = two_events
    login(other)
    page = client.get(f"/events/{b.id}/staff")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    response = client.post(f"/events/{b.id}/staff", data={"name": judge.name, "role": "judge"})
    assert response.status_code == 302
    page = client.get(f"/events/{b.id}/staff").get_data(as_text=True)
    assert "Jan Judge" in page and "is on the staff as judge" in page
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "event.staff.add",
                                                    AuditEntry.event_id == b.id)).scalar()
    assert entry.actor == "organizer:Otto Other" and entry.details == {"staff": "Jan Judge", "role": "judge"}
    client.post("/auth/logout")
    login(judge)
    assert client.get(f"/events/{b.id}/desk").status_code == 200
    assert "B" in client.get("/events").get_data(as_text=True)
    # a judge does not manage staff or settings
    assert client.get(f"/events/{b.id}/staff").status_code == 403
    assert client.post(f"/events/{b.id}/staff", data={"name": "Mallory", "role": "organizer"}).status_code == 403
    assert client.get(f"/events/{b.id}/edit").status_code == 403


def test_removing_a_judge_takes_effect_on_their_next_request(client, db, two_events, judge, organizer, login):
    a, _, _ = two_events
    entry = db.session.execute(sa.select(EventStaff).where(EventStaff.event_id == a.id)).scalar()
    login(organizer)
    assert client.post(f"/events/{a.id}/staff/{entry.id}/remove", data={}).status_code == 302
    assert db.session.execute(sa.select(sa.func.count()).select_from(EventStaff)).scalar() == 0
    client.post("/auth/logout")
    login(judge)
    assert client.get(f"/events/{a.id}/desk").status_code == 403
    assert client.get("/events").get_data(as_text=True).count(f'href="/events/{a.id}"') == 0


def test_a_co_organizer_edits_settings_and_staff(client, db, two_events, make_user, login):
    a, _, _ = two_events
    co = make_user("Cora Co", "judge")
    ops.add_staff(a, a.organizer, co.name, "organizer")
    db.session.commit()
    login(co)
    assert client.get(f"/events/{a.id}/edit").status_code == 200
    assert client.get(f"/events/{a.id}/staff").status_code == 200
    assert "Edit settings" in client.get(f"/events/{a.id}").get_data(as_text=True)


@pytest.mark.parametrize("name, role, message", [
    ("", "judge", "Type the staff account"),
    ("Nobody Here", "judge", "no active staff account named Nobody Here"),
    ("Olga Organizer", "judge", "owns this event already"),
    ("Jan Judge", "boss", "Not a valid choice"),
    ("<b>Jan</b>", "judge", "no active staff account named &lt;b&gt;Jan&lt;/b&gt;"),
    ("x" * 81, "judge", "Field cannot be longer than 80 characters"),
])
def test_adding_staff_refuses_bad_input_next_to_the_field(client, db, two_events, organizer, login, name, role,
                                                          message):
    a, _, _ = two_events
    login(organizer)
    before = db.session.execute(sa.select(sa.func.count()).select_from(EventStaff)).scalar()
    response = client.post(f"/events/{a.id}/staff", data={"name": name, "role": role})
    assert response.status_code in (400, 404)
    assert message in response.get_data(as_text=True)
    assert db.session.execute(sa.select(sa.func.count()).select_from(EventStaff)).scalar() == before


def test_adding_twice_changes_the_role_not_the_rows(db, two_events, judge):
    a, _, _ = two_events
    ops.add_staff(a, a.organizer, judge.name, "organizer")
    db.session.commit()
    assert [(s.user.name, s.role) for s in a.staff] == [("Jan Judge", "organizer")]
    with pytest.raises(Refused):
        ops.remove_staff(a, a.organizer, 10**12)


def test_many_simultaneous_adds_of_one_judge_store_one_row(app, db, make_event, make_user, organizer):
    """Double taps and two co-organizers at once: one staff row, every answer a redirect or a 409."""
    from concurrent.futures import ThreadPoolExecutor
    event = make_event(staff=[])
    make_user("Jana Judge", "judge")
    event_id = event.id
    db.session.remove()
    first = app.test_client()
    first.post("/auth/login", data={"name": "Olga Organizer", "password": "correct horse battery"})
    cookie = first.get_cookie("session").value

    def add(i):
        client = app.test_client()
        client.set_cookie("session", cookie)
        role = "judge" if i % 2 else "organizer"
        return client.post(f"/events/{event_id}/staff", data={"name": "Jana Judge", "role": role}).status_code
    with ThreadPoolExecutor(12) as pool:
        statuses = list(pool.map(add, range(24)))
    assert set(statuses) <= {302, 409} and statuses.count(302) >= 1, statuses
    rows = db.session.execute(sa.select(EventStaff).where(EventStaff.event_id == event_id)).scalars().all()
    assert len(rows) == 1 and rows[0].role in ("judge", "organizer")
    logged = db.session.execute(sa.select(sa.func.count()).select_from(AuditEntry).where(
        AuditEntry.event_id == event_id, AuditEntry.action == "event.staff.add")).scalar()
    assert logged == statuses.count(302)
