"""The round box's report form is rendered once per table and state and shared by the phones at the table
(tournament.rounds.player.shared_report_form): each phone still sees its own code, form token and "(you)",
the table as it is now, and names escaped."""
from __future__ import annotations

import re

import pytest
from markupsafe import escape

from tournament.events import operations as events

TOKEN = re.compile(r'<input name="r-csrf_token" type="hidden" value="([^"]+)"')


@pytest.fixture
def table_of_four(make_round):
    event, rnd, regs = make_round(players=8, seed=11, name="Box night")
    table = rnd.tables[0]
    by_id = {r.id: r for r in regs}
    return event, rnd, table, [by_id[s.registration_id] for s in table.seats]


def _box(client, reg, **headers):
    response = client.get(f"/p/{reg.access_code}/round", headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _report_form(html: str) -> str:
    return re.search(r'<form[^>]*id="report-form".*?</form>', html, re.S).group(0)


def test_each_phone_sees_its_own_code_and_you_never_another_phones(app, db, table_of_four):
    event, rnd, table, players = table_of_four
    boxes = {p.id: _box(app.test_client(), p) for p in players}
    for p in players:
        html = boxes[p.id]
        form = _report_form(html)
        assert f'action="/p/{p.access_code}/result"' in form
        for other in players:
            if other.id != p.id:
                assert other.access_code not in html            # no other phone's code anywhere in the box
                assert f"{escape(other.name)} (you)" not in html
        assert html.count("(you)") == 1 and f"{escape(p.name)} (you)" in html
    assert len({_report_form(b).replace(p.access_code, "") for p, b in
                ((p, boxes[p.id]) for p in players)}) == 1     # the same shared form but for the code


def test_each_phone_gets_its_own_form_token_and_its_report_is_accepted(app, db, table_of_four):
    app.config["WTF_CSRF_ENABLED"] = True
    event, rnd, table, players = table_of_four
    phones = {p.id: app.test_client() for p in players}
    for p in players:
        phones[p.id].get(f"/p/{p.access_code}")
    tokens = {p.id: TOKEN.search(_report_form(_box(phones[p.id], p))).group(1) for p in players}
    assert len(set(tokens.values())) == len(players)           # one per session, never the first phone's
    last = players[-1]
    fields = {"r-csrf_token": tokens[last.id], "r-round": 1, "r-table": table.number, "r-revision": 0,
              "r-survivors": [last.id]}
    assert phones[last.id].post(f"/p/{last.access_code}/result", data=fields).status_code == 302
    stolen = {**fields, "r-csrf_token": tokens[players[0].id], "r-revision": 1}
    assert phones[last.id].post(f"/p/{last.access_code}/result", data=stolen).status_code == 400


def test_a_phone_sees_the_new_result_and_a_correction_at_once(app, db, judge, table_of_four):
    event, rnd, table, players = table_of_four
    mine, theirs = app.test_client(), app.test_client()
    before = _report_form(_box(mine, players[1]))
    assert "checked" not in before and "Report the result" in _box(mine, players[1])
    theirs.post(f"/p/{players[0].access_code}/result",
                data={"r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [players[0].id]})
    after = _box(mine, players[1])
    assert "Report a different result" in after
    assert f'value="{players[0].id}" id="r-survivors-{players[0].id}" checked' in _report_form(after)
    assert 'name="r-revision" type="hidden" value="1"' in _report_form(after)
    events.rename(players[2], judge, "Zora Renamed")
    db.session.commit()
    renamed = _box(mine, players[1])                 # within the same second: the state version's cache too
    assert "Zora Renamed" in _report_form(renamed) and escape(players[2].name) in renamed


def test_html_in_a_name_stays_escaped_in_the_shared_form(app, db, judge, table_of_four):
    event, rnd, table, players = table_of_four
    hostile = '<b>Bold</b> "quoted" <script>alert(1)</script>'
    events.rename(players[2], judge, hostile)
    db.session.commit()
    for p in (players[0], players[1], players[3]):          # the first renders the shared copy, the others reuse it
        html = _box(app.test_client(), p)
        form = _report_form(html)
        assert "<script>" not in html and "<b>Bold</b>" not in html
        assert str(escape(hostile)) in form


def test_a_box_costs_a_few_statements(app, db, table_of_four):
    """The registration with its event, the seat with its table and round, the table's players, its votes (and
    the state version): 4 statements where there were 11."""
    from sqlalchemy import event as sa_event
    event, rnd, table, players = table_of_four
    phone, url = app.test_client(), f"/p/{players[1].access_code}/round"
    assert phone.get(url).status_code == 200         # warm: the code's event is known to this worker
    statements: list[str] = []
    listener = lambda _c, _cur, statement, *_a: statements.append(statement)      # noqa: E731
    sa_event.listen(db.engine, "before_cursor_execute", listener)
    try:
        assert phone.get(url).status_code == 200
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", listener)
    versions = sum("state_version" in s for s in statements)     # tests read it on every request (no TTL)
    assert len(statements) - versions <= 4, "\n".join(statements)
