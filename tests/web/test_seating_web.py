"""Correcting the seats from the round page: each correction's form, what the players' pages and the projector
show after it, and refusals shown on the page (never a 500, names escaped)."""
from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from markupsafe import escape

from tournament.events import operations as events
from tournament.events.models import Registration
from tournament.rounds import operations as rounds
from tournament.rounds.models import GameTable, Round, Seat

SCRIPT = "<script>alert('x')</script>"


@pytest.fixture
def published(db, make_event, make_player, judge, login):
    """8 checked-in players (one with HTML in the name), round 1 published; a late arrival registered."""
    event = make_event(name="Seating <i>web</i>")
    regs = [make_player(event, SCRIPT if i == 1 else f"Player {i}") for i in range(1, 9)]
    for reg in regs:
        events.check_in(reg, judge)
    late = make_player(event, "Late <b>Larry</b>")
    rnd = rounds.pair_next_round(event, judge, seed=5, override_decks=True)
    rounds.publish_round(rnd, judge)
    db.session.commit()
    login(judge)
    return event, regs, late


def layout(db, event) -> dict[int, list[int]]:
    db.session.expire_all()
    rows = db.session.execute(sa.select(GameTable.number, Seat.registration_id).join(Seat).join(Round)
                              .where(Round.event_id == event.id).order_by(GameTable.number, Seat.seat)).all()
    out: dict[int, list[int]] = {}
    for number, player in rows:
        out.setdefault(number, []).append(player)
    return out


def text(response) -> str:
    return response.get_data(as_text=True)


def test_the_round_page_offers_each_correction(client, db, published):
    event, _regs, late = published
    page = text(client.get(f"/events/{event.id}/rounds/1"))
    for form in ('id="swap"', 'id="move"', 'id="late-arrival"', 'id="remove"', 'id="unpublish"'):
        assert form in page, form
    assert len(re.findall(r'name="(?:[a-z]+-)?revision" type="hidden" value="0"', page)) == 5
    assert "Late &lt;b&gt;Larry&lt;/b&gt; (not checked in yet)" in page and SCRIPT not in page


def test_a_move_reaches_the_players_page_and_the_projector(client, app, db, published):
    event, regs, _late = published
    before = layout(db, event)
    mover = db.session.get(Registration, before[1][0])
    phone = app.test_client()
    page = text(phone.get(f"/p/{mover.access_code}"))
    assert re.search(r'Table <strong class="big-number">1</strong>', page)
    etag = phone.get(f"/p/{mover.access_code}").headers.get("ETag")
    response = client.post(f"/events/{event.id}/rounds/1/seating/move",
                           data={"move-player": mover.id, "move-table": 2, "move-seat": 3, "move-revision": 0})
    assert response.status_code == 302 and response.headers["Location"].endswith("#table-2")
    assert layout(db, event)[2][2] == mover.id
    page = text(phone.get(f"/p/{mover.access_code}"))
    assert re.search(r'Table <strong class="big-number">2</strong> · seat <strong class="big-number">3</strong>',
                     page)
    if etag:
        again = phone.get(f"/p/{mover.access_code}", headers={"If-None-Match": etag})
        assert again.status_code == 200               # the state version moved: not a 304
    projector = text(phone.get(f"/events/{event.id}/projector"))
    where = ('<span class="name">' + str(escape(mover.name)) + '</span><span class="where"><span class="label">table'
             '</span> <span class="table-no">2</span> <span class="label">seat</span> 3</span>')
    assert where in projector
    round_page = text(client.get(f"/events/{event.id}/rounds/1"))
    assert "moved" in round_page and 'name="move-revision" type="hidden" value="1"' in round_page
    log = text(client.get(f"/events/{event.id}/log"))
    assert f"moved {escape(mover.name)} to table 2, seat 3 in round 1" in log and SCRIPT not in log


def test_late_arrival_remove_and_unpublish_from_the_page(client, db, published):
    event, _regs, late = published
    before = layout(db, event)
    response = client.post(f"/events/{event.id}/rounds/1/seating/late-arrival",
                           data={"late-player": late.id, "late-table": "", "late-seat": "", "late-revision": 0})
    assert response.status_code == 302
    new = max(layout(db, event))
    assert layout(db, event)[new] == [late.id]
    gone = before[2][0]
    response = client.post(f"/events/{event.id}/rounds/1/seating/remove",
                           data={"remove-player": gone, "remove-how": "drop", "remove-revision": 1})
    assert response.status_code == 302
    assert db.session.get(Registration, gone).dropped_at is not None
    response = client.post(f"/events/{event.id}/rounds/1/unpublish", data={"unpublish-revision": 2})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/events/{event.id}/rounds/1")
    db.session.expire_all()
    rnd = rounds.get_round(event, 1)
    assert rnd.status == "draft" and gone not in {s.registration_id for t in rnd.tables for s in t.seats}
    assert "unpublished by Jan Judge" in text(client.get(f"/events/{event.id}/rounds/1"))


@pytest.mark.parametrize("data, status, message", [
    ({"player": "abc", "table": 2}, 400, "Choose a player from the list."),
    ({"table": 2}, 400, "Choose a player."),
    ({"player": "{mover}", "table": "two"}, 400, "Enter a table number from the round"),
    ({"player": "{mover}", "table": 2, "seat": "-1"}, 400, "Enter a seat number"),
    ({"player": "{mover}", "table": 2, "seat": 99}, 400, "Enter a seat number"),
    ({"player": "{mover}", "table": 2, "seat": 9}, 400, "Table 2 takes seat 1 to 5"),
    ({"player": "{mover}", "table": 77}, 400, "Round 1 has no table 77"),
    ({"player": "{late}", "table": 2}, 400, "is not seated in round 1"),
    ({"player": "{mover}", "table": 2, "revision": 5}, 409, "changed after you loaded it"),
])
def test_bad_moves_are_refused_on_the_page(client, db, published, data, status, message):
    event, _regs, late = published
    before = layout(db, event)
    ids = {"{mover}": before[1][0], "{late}": late.id}
    data = {k: ids.get(v, v) if isinstance(v, str) else v for k, v in data.items()}
    response = client.post(f"/events/{event.id}/rounds/1/seating/move", data={f"move-{k}": v for k, v in data.items()})
    page = text(response)
    assert response.status_code == status and message in page, page[:3000]
    assert layout(db, event) == before and SCRIPT not in page


def test_a_table_with_a_result_keeps_its_seats_and_unpublish_is_refused(client, db, published, judge):
    event, _regs, _late = published
    before = layout(db, event)
    rnd = rounds.get_round(event, 1)
    rounds.report_pod_result(rnd.tables[0], [before[1][0]], user=judge)
    db.session.commit()
    response = client.post(f"/events/{event.id}/rounds/1/seating/move", data={"move-player": before[1][1], "move-table": 2})
    assert response.status_code == 409 and "Table 1 already has a result entered" in text(response)
    response = client.post(f"/events/{event.id}/rounds/1/unpublish", data={})
    assert response.status_code == 409 and "a result is already entered at table 1" in text(response)
    assert layout(db, event) == before
