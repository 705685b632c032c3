"""Every page and printout shows times on the event's clock; the stored and exported times stay UTC."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tournament import timezones
from tournament.events.models import Event
from tournament.printing import operations as printing
from tournament.rounds import operations as rounds

from tests.web.test_events_web import settings


def test_the_machine_zone_is_the_default(monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert timezones.machine_zone() == "Asia/Tokyo"
    monkeypatch.setenv("TZ", "Nowhere/Atlantis")                # unknown: the system's own setting or UTC
    assert timezones.machine_zone() != "Nowhere/Atlantis" and timezones.valid_zone(timezones.machine_zone())
    monkeypatch.setenv("TZ", ":Europe/Prague")                  # the POSIX form with a colon
    assert timezones.machine_zone() == "Europe/Prague"


def test_pages_show_the_events_clock(app, db, make_event, make_player, judge):
    event = make_event(name="Prague night", timezone="Europe/Prague", decklist_deadline="2026-12-05T10:00:00Z")
    player = make_player(event, "Šárka Dvořáková")
    assert event.decklist_deadline.replace(tzinfo=timezone.utc).hour == 10          # stored in UTC
    page = app.test_client().get(f"/p/{player.access_code}").get_data(as_text=True)
    assert "Decklist deadline: 2026-12-05 11:00 CET" in page and "UTC" not in page.split("<main", 1)[1]


def test_the_form_reads_the_deadline_on_the_events_clock(client, db, make_event, organizer, login):
    event = make_event()
    login(organizer)
    response = client.post(f"/events/{event.id}/edit", data=settings(timezone="Asia/Tokyo",
                                                                      decklist_deadline="2026-12-05T10:00"))
    assert response.status_code == 302, response.get_data(as_text=True)
    db.session.expire_all()
    stored = db.session.get(Event, event.id)
    assert stored.timezone == "Asia/Tokyo"
    assert stored.decklist_deadline.replace(tzinfo=timezone.utc) == datetime(2026, 12, 5, 1, 0, tzinfo=timezone.utc)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'value="2026-12-05T10:00"' in page and 'selected value="Asia/Tokyo"' in page
    assert "2026-12-05 10:00 JST" in client.get(f"/events/{event.id}").get_data(as_text=True)


@pytest.mark.parametrize("zone", ["Nowhere/Atlantis", "", "<script>", "x" * 100])
def test_an_unknown_zone_is_refused(client, db, make_event, organizer, login, zone):
    event = make_event()
    login(organizer)
    response = client.post(f"/events/{event.id}/edit", data=settings(timezone=zone))
    assert response.status_code == 400 and "Unknown time zone" in response.get_data(as_text=True)


def test_printouts_are_stamped_on_the_events_clock(db, make_round, judge):
    event, rnd, regs = make_round(players=4, seed=1, timezone="Asia/Tokyo")
    now = datetime(2026, 5, 1, 18, 30, tzinfo=timezone.utc)
    pdf, _name = printing.build_document(event, "pairings-by-table", 1, now=now)
    from tests.printing.pdf_helpers import pdf_text
    assert "Printed 2026-05-02 03:30 JST" in pdf_text(pdf)


def test_a_deadline_at_the_calendars_edge_is_refused_and_one_stored_before_still_shows(
        app, client, db, make_event, make_player, organizer, login):
    login(organizer)
    event = make_event(timezone="Asia/Tokyo")
    response = client.post(f"/events/{event.id}/edit", data=settings(timezone="Asia/Tokyo",
                                                                      decklist_deadline="9999-12-31T23:59"))
    assert response.status_code == 400
    assert "between the years 2000 and 2999" in response.get_data(as_text=True)
    # stored by an earlier version that took any year: the event's pages still open, the time shown in UTC
    db.session.execute(Event.__table__.update().where(Event.id == event.id).values(
        decklist_deadline=datetime(9999, 12, 31, 23, 0, tzinfo=timezone.utc)))
    db.session.commit()
    player = make_player(event, "Aoi")
    for url in (f"/events/{event.id}", f"/events/{event.id}/edit", f"/events/{event.id}/register",
                f"/p/{player.access_code}"):
        assert client.get(url).status_code == 200, url
