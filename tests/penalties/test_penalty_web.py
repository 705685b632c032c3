"""Penalties through the web: the staff page (give, refuse, withdraw), the round page, the player's page and the
standings' marks; hostile text stays text."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from tournament.penalties.models import Penalty
from tournament.rounds import operations as rounds

SCRIPT = "<script>alert('x')</script>"


def _table_of(rnd, reg):
    return next(t for t in rnd.tables if any(s.registration_id == reg.id for s in t.seats))


def _form(reg, **fields):
    return {"registration_id": str(reg.id), "infraction": "tardiness", "penalty": "", "round": "", "game": "",
            "note": "", "key": "", **fields}


@pytest.fixture
def staffed(pods, login, judge):
    login(judge)
    return pods


def test_a_judge_gives_a_game_loss_and_the_standings_show_it(db, client, staffed, judge, app):
    event, rnd, regs = staffed
    table = _table_of(rnd, regs[0])
    winner = table.seats[0].registration
    page = client.get(f"/events/{event.id}/penalties?player={winner.id}&round=1")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert f'<option selected value="{winner.id}">' in text or f'selected value="{winner.id}"' in text
    assert "Tardiness" in text and "Game loss" in text
    response = client.post(f"/events/{event.id}/penalties", data=_form(winner, note=f"Late {SCRIPT}"))
    assert response.status_code == 302
    penalty = db.session.query(Penalty).one()
    assert (penalty.kind, penalty.round_number, penalty.table_number) == ("game_loss", 1, table.number)
    listing = client.get(f"/events/{event.id}/penalties").get_data(as_text=True)
    assert SCRIPT not in listing and "&lt;script&gt;" in listing
    rounds.report_pod_result(table, [winner.id], user=judge)
    db.session.commit()
    standings = client.get(f"/events/{event.id}/standings").get_data(as_text=True)
    row = standings.split(f'id="standing-{winner.id}"')[1].split("</tr>")[0]
    assert "1 penalty loss" in row
    assert "0-1-0" in row
    public = app.test_client()
    public_row = public.get(f"/events/{event.id}/standings").get_data(as_text=True)
    assert "1 penalty loss" in public_row.split(f'id="standing-{winner.id}"')[1].split("</tr>")[0]


def test_the_round_page_and_the_players_page_show_the_penalty(db, client, staffed, give, app):
    event, rnd, regs = staffed
    reg = regs[0]
    give(event, reg, "slow_play", round=1, note="Two minutes per land drop.")
    round_page = client.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)
    section = round_page.split('id="penalties"')[1].split("</section>")[0]
    assert reg.name in section and "Warning" in section and "Slow Play" in section
    assert 'id="give-penalty"' in section
    phone = app.test_client().get(f"/p/{reg.access_code}").get_data(as_text=True)
    mine = phone.split('id="penalties"')[1].split("</section>")[0]
    assert "Warning" in mine and "Slow Play" in mine
    assert "Two minutes" not in mine                  # the note is for staff
    other = app.test_client().get(f"/p/{regs[1].access_code}").get_data(as_text=True)
    assert 'id="penalties"' not in other


def test_the_players_page_reads_the_penalties_once_per_change_and_shows_each_given_or_withdrawn(
        db, client, staffed, give, app):
    """Which players have a penalty is kept per state version: a hall's pages make no query for it, and a
    penalty given or withdrawn shows on the next page."""
    event, rnd, regs = staffed
    reg, phone = regs[0], app.test_client()
    statements = []
    listener = lambda conn, cursor, statement, *args: statements.append(statement)    # noqa: E731
    sa.event.listen(db.engine, "before_cursor_execute", listener)
    try:
        for _ in range(3):
            assert 'id="penalties"' not in phone.get(f"/p/{reg.access_code}").get_data(as_text=True)
        assert sum("FROM penalty" in s for s in statements) == 1          # the first page only
        penalty = give(event, reg, "slow_play", round=1)
        assert "Slow Play" in phone.get(f"/p/{reg.access_code}").get_data(as_text=True)
        assert 'id="penalties"' not in phone.get(f"/p/{regs[1].access_code}").get_data(as_text=True)
        response = client.post(f"/events/{event.id}/penalties/{penalty.id}/withdraw", data={"reason": "Mistake"})
        assert response.status_code == 302
        assert 'id="penalties"' not in phone.get(f"/p/{reg.access_code}").get_data(as_text=True)
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", listener)


def test_a_disqualification_is_marked_in_the_standings(db, client, staffed, give, judge):
    event, rnd, regs = staffed
    for t in rnd.tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    db.session.commit()
    cheat = rnd.tables[0].seats[0].registration
    give(event, cheat, "cheating", round=1)
    text = client.get(f"/events/{event.id}/standings").get_data(as_text=True)
    row = text.split(f'id="standing-{cheat.id}"')[1].split("</tr>")[0]
    assert "disqualified" in row and "1-0-0" in row             # results kept


def test_a_refused_penalty_shows_the_page_with_the_message_and_stores_nothing(db, client, staffed):
    event, rnd, regs = staffed
    response = client.post(f"/events/{event.id}/penalties", data=_form(regs[0], round="2"))
    assert response.status_code == 409
    assert "Round 2 is not published" in response.get_data(as_text=True)
    response = client.post(f"/events/{event.id}/penalties", data=_form(regs[0], infraction=""))
    assert response.status_code == 400 and "Choose the infraction." in response.get_data(as_text=True)
    response = client.post(f"/events/{event.id}/penalties", data=_form(regs[0], round="abc"))
    assert response.status_code == 400 and "The round must be a whole number" in response.get_data(as_text=True)
    response = client.post(f"/events/{event.id}/penalties", data=_form(regs[0], registration_id="99999"))
    assert response.status_code == 400
    assert db.session.query(Penalty).count() == 0


def test_a_double_tap_of_the_form_stores_one_penalty(db, client, staffed):
    event, rnd, regs = staffed
    data = _form(regs[0], infraction="slow_play", key="form-key-1")
    assert client.post(f"/events/{event.id}/penalties", data=data).status_code == 302
    assert client.post(f"/events/{event.id}/penalties", data=data).status_code == 302
    assert db.session.query(Penalty).count() == 1


def test_withdrawing_from_the_page(db, client, staffed, give):
    event, rnd, regs = staffed
    penalty = give(event, regs[0], "tardiness")
    response = client.post(f"/events/{event.id}/penalties/{penalty.id}/withdraw", data={"reason": ""})
    assert response.status_code == 400
    response = client.post(f"/events/{event.id}/penalties/{penalty.id}/withdraw", data={"reason": "Wrong player"})
    assert response.status_code == 302
    db.session.refresh(penalty)
    assert penalty.withdrawn_at is not None
    text = client.get(f"/events/{event.id}/penalties").get_data(as_text=True)
    assert "Withdrawn by" in text and "Wrong player" in text
    assert client.post(f"/events/{event.id}/penalties/{penalty.id}/withdraw",
                       data={"reason": "again"}).status_code == 409
    assert client.post(f"/events/{event.id}/penalties/999999/withdraw", data={"reason": "x"}).status_code == 404


def test_only_the_events_staff_see_and_give_penalties(db, app, pods, make_user, give):
    event, rnd, regs = pods
    anonymous = app.test_client()
    assert anonymous.get(f"/events/{event.id}/penalties").status_code in (302, 401)
    outsider = make_user("Otto Outsider", "judge")
    client = app.test_client()
    client.post("/auth/login", data={"name": outsider.name, "password": "correct horse battery"})
    assert client.get(f"/events/{event.id}/penalties").status_code == 403
    assert client.post(f"/events/{event.id}/penalties", data=_form(regs[0])).status_code == 403
    penalty = give(event, regs[0], "slow_play")
    assert client.post(f"/events/{event.id}/penalties/{penalty.id}/withdraw",
                       data={"reason": "x"}).status_code == 403
    assert db.session.query(Penalty).count() == 1


def test_the_event_log_tells_it(db, client, staffed, give):
    event, rnd, regs = staffed
    give(event, regs[0], "tardiness")
    text = client.get(f"/events/{event.id}/log").get_data(as_text=True)
    assert f"gave {regs[0].name} a game loss in round 1 (Tardiness)" in text
