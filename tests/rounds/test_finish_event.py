"""Finishing the event: results freeze, the standings are final, decklists become public when the event says."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from tournament.errors import Refused
from tournament.events import operations as events
from tournament.events.models import AuditEntry
from tournament.rounds import operations as rounds

from pathlib import Path

KENRITH = (Path(events.__file__).resolve().parents[1] / "data" / "demo_decks" / "kenrith.txt").read_text("utf-8")


@pytest.fixture
def played(db, make_event, make_player, make_round, organizer, judge, starter_cards):
    event = make_event(name="Last night", publish_decklists=True)
    player = make_player(event, "Ann <b>Deck</b>", decklist=KENRITH)
    event, rnd, regs = make_round(players=7, seed=5, event=event)
    for t in rnd.tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    return event, rnd, [player] + regs


def test_only_after_the_last_round_and_only_once(db, make_round, organizer, judge):
    event, rnd, regs = make_round(players=4, seed=1)
    with pytest.raises(Refused, match="Round 1 is not finished yet"):
        rounds.finish_event(event, organizer)
    with pytest.raises(Refused):
        rounds.finish_event(event, judge)                      # the organizer's decision


def test_finished_results_are_frozen_for_everyone(db, played, organizer, judge):
    event, rnd, regs = played
    rounds.finish_event(event, organizer)
    db.session.commit()
    table = rnd.tables[0]
    with pytest.raises(Refused, match="The event has finished: its results are final."):
        rounds.report_pod_result(table, [table.seats[1].registration_id], user=judge)
    with pytest.raises(Refused, match="already finished"):
        rounds.finish_event(event, organizer)
    with pytest.raises(Refused, match="has finished"):
        rounds.pair_next_round(event, judge, seed=2, override_decks=True)
    assert db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "event.finish")).scalar_one()


def test_the_decklists_are_public_only_once_finished(app, client, db, played, organizer, login):
    event, rnd, regs = played
    public = app.test_client()
    assert public.get(f"/events/{event.id}/decklists").status_code == 404
    login(organizer)
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    assert 'id="finish-event"' in page
    response = client.post(f"/events/{event.id}/finish")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/events/{event.id}/standings")
    standings = public.get(f"/events/{event.id}/standings").get_data(as_text=True)
    assert "Final standings" in standings and "Prize winners" in standings and 'id="decklists-link"' in standings
    lists = public.get(f"/events/{event.id}/decklists").get_data(as_text=True)
    assert "Ann &lt;b&gt;Deck&lt;/b&gt;" in lists and "Kenrith" in lists and "Ann <b>" not in lists
    listing = client.get("/events").get_data(as_text=True)
    assert event.name in listing.split('id="events-finished"', 1)[1]
    assert client.post(f"/events/{event.id}/finish").status_code == 409


def test_an_event_that_keeps_its_lists_private(app, db, played, organizer):
    event, rnd, regs = played
    events.update_event(event, organizer, {"publish_decklists": False})
    rounds.finish_event(event, organizer)
    db.session.commit()
    assert app.test_client().get(f"/events/{event.id}/decklists").status_code == 404


def test_a_player_drops_from_their_own_page_only_when_they_confirm(app, db, make_round):
    from tournament.events.models import Registration
    event, rnd, regs = make_round(players=4, seed=1)
    phone = app.test_client()
    code = regs[0].access_code
    assert 'id="drop-form"' in phone.get(f"/p/{code}").get_data(as_text=True)
    refused = phone.post(f"/p/{code}/drop", data={})
    assert refused.status_code == 400 and "Yes, drop me" in refused.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Registration, regs[0].id).dropped_at is None
    assert phone.post(f"/p/{code}/drop", data={"confirm": "yes"}).status_code == 302
    db.session.expire_all()
    assert db.session.get(Registration, regs[0].id).dropped_at is not None
    page = phone.get(f"/p/{code}").get_data(as_text=True)
    assert "You have dropped from the event" in page and 'id="drop-form"' not in page
    again = phone.post(f"/p/{code}/drop", data={"confirm": "yes"})
    assert again.status_code == 409
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "drop")).scalars().all()
    assert [e.actor for e in entry] == [f"player:{regs[0].id}"]


def test_a_planned_number_of_rounds_shows_everywhere(app, client, db, played, organizer, login):
    event, rnd, regs = played
    events.update_event(event, organizer, {"planned_rounds": 1})
    db.session.commit()
    login(organizer)
    assert "Round 1 of 1" in client.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)
    assert "Round 1 of 1" in app.test_client().get(f"/events/{event.id}/projector").get_data(as_text=True)
    box = app.test_client().get(f"/p/{regs[1].access_code}/round").get_data(as_text=True)
    assert "Your round: round 1 of 1" in box
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    assert 'id="planned-done"' in page and "The planned round is played: finish the event" in page
    for bad in (0, 31, "two", 1.5):
        with pytest.raises(Refused, match="number of rounds"):
            events.update_event(event, organizer, {"planned_rounds": bad})
