"""Open phones and the projector poll their page: 304 while nothing changed, the new page once it has."""
from __future__ import annotations

import gzip

import pytest
from markupsafe import escape

from tournament.rounds import operations as rounds


@pytest.fixture
def live_round(make_round):
    return make_round(players=8, seed=11, name="Polling night")


def _seated(rnd, regs):
    table = rnd.tables[0]
    by_id = {r.id: r for r in regs}
    return table, [by_id[s.registration_id] for s in table.seats]


def test_projector_answers_304_until_a_result_changes_it(app, db, live_round):
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    phone = app.test_client()
    first = phone.get(f"/events/{event.id}/rounds/1/projector")
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag.startswith('W/"')
    again = phone.get(f"/events/{event.id}/rounds/1/projector", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b""
    report = phone.post(f"/p/{players[0].access_code}/result",
                        data={"r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [players[0].id]})
    assert report.status_code == 302
    changed = phone.get(f"/events/{event.id}/rounds/1/projector", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_a_refused_request_changes_nothing_and_keeps_the_304(app, db, live_round):
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    phone = app.test_client()
    tag = phone.get(f"/p/{players[1].access_code}").headers["ETag"]
    refused = phone.post(f"/p/{players[0].access_code}/confirm", data={"round": 1, "table": table.number,
                                                                      "revision": 0})
    assert refused.status_code == 409
    assert phone.get(f"/p/{players[1].access_code}", headers={"If-None-Match": tag}).status_code == 304


def test_the_player_page_shows_a_table_mates_report_on_the_next_poll(app, db, live_round):
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    mine, theirs = app.test_client(), app.test_client()
    page = mine.get(f"/p/{players[1].access_code}")
    tag = page.headers["ETag"]
    assert page.headers["Cache-Control"] == "no-store"            # a code page is never stored
    assert f'<meta name="page-etag" content="{escape(tag)}">' in page.get_data(as_text=True)
    assert mine.get(f"/p/{players[1].access_code}", headers={"If-None-Match": tag}).status_code == 304
    theirs.post(f"/p/{players[0].access_code}/result",
                data={"r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [players[0].id]})
    fresh = mine.get(f"/p/{players[1].access_code}", headers={"If-None-Match": tag})
    assert fresh.status_code == 200 and "This result is right: confirm" in fresh.get_data(as_text=True)


def test_the_open_page_polls_only_its_round_box_with_the_pages_tag(app, db, live_round):
    """rounds.js asks /p/<code>/round with the full page's ETag: a round start re-renders the box, not the
    deck list, the decklist form and the QR code."""
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    mine, theirs = app.test_client(), app.test_client()
    page = mine.get(f"/p/{players[1].access_code}")
    tag, text = page.headers["ETag"], page.get_data(as_text=True)
    box_url = f"/p/{players[1].access_code}/round"
    assert f'data-refresh-url="{box_url}"' in text
    assert mine.get(box_url, headers={"If-None-Match": tag}).status_code == 304
    theirs.post(f"/p/{players[0].access_code}/result",
                data={"r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [players[0].id]})
    box = mine.get(box_url, headers={"If-None-Match": tag})
    body = box.get_data(as_text=True)
    assert box.status_code == 200 and box.headers["Cache-Control"] == "no-store"
    assert "This result is right: confirm" in body and 'id="round"' in body
    assert 'id="deck-lines"' not in body and "<svg" not in body and 'id="deck-form"' not in body
    assert mine.get(f"/p/{players[1].access_code}", headers={"If-None-Match": box.headers["ETag"]}).status_code == 304
    assert mine.get("/p/NOSUCHCD/round").status_code == 404


def test_a_page_with_a_message_to_show_is_never_a_304(app, db, live_round):
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    phone = app.test_client()
    tag = phone.get(f"/p/{players[2].access_code}").headers["ETag"]
    phone.post(f"/p/{players[2].access_code}/vote", data={"round": 1, "table": table.number,
                                                         "votee": players[3].id})
    page = phone.get(f"/p/{players[2].access_code}", headers={"If-None-Match": tag})
    assert page.status_code == 200 and "Your vote is in." in page.get_data(as_text=True)


def test_the_projector_address_moves_on_to_the_next_round(app, db, live_round, judge):
    event, rnd, regs = live_round
    screen = app.test_client()
    assert "Round 1" in screen.get(f"/events/{event.id}/projector").get_data(as_text=True)
    rnd = rounds.with_tables(rounds.get_round(event, 1))
    for t in rnd.tables:
        if t.kind == "pod":
            rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    rounds.finish_round(rnd, judge)
    nxt = rounds.pair_next_round(event, judge, seed=12, override_decks=True)
    rounds.publish_round(nxt, judge)
    db.session.commit()
    page = screen.get(f"/events/{event.id}/projector").get_data(as_text=True)
    assert "Round 2" in page


def test_pages_are_gzipped_for_phones(app, db, live_round):
    event, rnd, regs = live_round
    response = app.test_client().get(f"/p/{regs[0].access_code}", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert b"Your round" in gzip.decompress(response.get_data())


def test_a_shared_copy_tells_the_clock_the_time_now(app, db, live_round, judge, monkeypatch):
    """The projector is rendered once per change; a copy served minutes later carries the time it is served."""
    import re
    import time
    from datetime import datetime, timedelta, timezone
    from types import SimpleNamespace
    event, rnd, regs = live_round
    rounds.start_round(rounds.get_round(event, 1), judge)
    db.session.commit()
    frozen = time.time()
    monkeypatch.setattr("tournament.web.time", SimpleNamespace(time=lambda: frozen))   # one cache period
    app.test_client().get(f"/events/{event.id}/projector")
    later = datetime.now(timezone.utc) + timedelta(minutes=3)

    class Later(datetime):
        @classmethod
        def now(cls, tz=None):
            return later
    monkeypatch.setattr("tournament.web.datetime", Later)
    monkeypatch.setattr("tournament.rounds.views.render_template",
                        lambda *a, **k: pytest.fail("the shared copy should have been served"))
    second = app.test_client().get(f"/events/{event.id}/projector").get_data(as_text=True)
    served_at = re.search(r'data-server-now="([^"]*)"', second).group(1)
    assert served_at == later.isoformat(timespec="seconds").replace("+00:00", "Z")


def test_a_poll_reuses_the_version_for_a_second_then_sees_the_change(app, db, live_round, monkeypatch):
    """With the server's setting (1 s) a poll costs no database work; a change is seen a second later."""
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    app.config["STATE_VERSION_TTL"] = 1.0
    clock = [1000.0]
    monkeypatch.setattr("tournament.web.lifecycle.time.monotonic", lambda: clock[0])
    phone = app.test_client()
    mine, theirs, first, number = players[1].access_code, players[0].access_code, players[0].id, table.number
    tag = phone.get(f"/p/{mine}").headers["ETag"]
    statements = []
    from sqlalchemy import event as sa_event
    listener = lambda *a, **k: statements.append(a[2])   # noqa: E731
    sa_event.listen(db.engine, "before_cursor_execute", listener)
    try:
        assert phone.get(f"/p/{mine}", headers={"If-None-Match": tag}).status_code == 304
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", listener)
    assert statements == []
    phone.post(f"/p/{theirs}/result", data={"r-round": 1, "r-table": number, "r-revision": 0, "r-survivors": [first]})
    clock[0] += 1.5
    assert phone.get(f"/p/{mine}", headers={"If-None-Match": tag}).status_code == 200
