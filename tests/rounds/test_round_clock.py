"""The round clock: pause and resume keep the time left, minutes added move the stored deadline, a table's
extension is its own; every change is logged, and the pages show it."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from tournament.errors import Refused
from tournament.events.models import AuditEntry
from tournament.rounds import operations as rounds
from tournament.rounds.presenting import as_utc, timer_info


@pytest.fixture
def running(make_round):
    return make_round(players=8, seed=4, start=True, name="Clock night")


def _at(monkeypatch, when: datetime) -> None:
    """The server's clock reads `when` in every part of the rounds' operations that reads it."""
    for part in ("clock", "results", "votes"):
        monkeypatch.setattr(f"tournament.rounds.operations.{part}.utcnow", lambda: when)


def _actions(db) -> list[str]:
    return list(db.session.execute(sa.select(AuditEntry.action).order_by(AuditEntry.id)).scalars())


def test_a_pause_keeps_the_time_left_and_resume_moves_the_deadline(db, running, judge, monkeypatch):
    event, rnd, regs = running
    ends = as_utc(rnd.ends_at)
    paused = ends - timedelta(minutes=30)
    _at(monkeypatch, paused)
    rounds.pause_round(rnd, judge)
    db.session.commit()
    assert timer_info(rnd)["paused"] and timer_info(rnd)["remaining"] == 30 * 60     # stands still
    with pytest.raises(Refused, match="already paused"):
        rounds.pause_round(rnd, judge)
    _at(monkeypatch, paused + timedelta(minutes=7))
    rounds.resume_round(rnd, judge)
    db.session.commit()
    assert as_utc(rnd.ends_at) == ends + timedelta(minutes=7) and rnd.paused_at is None
    with pytest.raises(Refused, match="not paused"):
        rounds.resume_round(rnd, judge)
    assert _actions(db)[-2:] == ["round.pause", "round.resume"]


def test_added_minutes_and_a_tables_extension(db, running, judge):
    event, rnd, regs = running
    ends = as_utc(rnd.ends_at)
    rounds.extend_round(rnd, judge, 5)
    table = rnd.tables[0]
    rounds.extend_table(table, judge, 10)
    db.session.commit()
    assert as_utc(rnd.ends_at) == ends + timedelta(minutes=5)
    mine = timer_info(rnd, table)
    assert mine["extra"] == 10
    assert mine["remaining"] - timer_info(rnd, rnd.tables[1])["remaining"] in (599, 600, 601)
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "table.extend")).scalar_one()
    assert entry.details["minutes"] == 10 and entry.details["table"] == table.number and entry.actor.endswith(judge.name)


@pytest.mark.parametrize("minutes", [0, -5, 121, "5", 2.5, True, None])
def test_nonsense_minutes_are_refused(db, running, judge, minutes):
    event, rnd, regs = running
    ends = rnd.ends_at
    with pytest.raises(Refused, match="whole number of minutes"):
        rounds.extend_round(rnd, judge, minutes)
    assert rnd.ends_at == ends


def test_the_clock_needs_a_started_round_and_staff(db, make_round, judge):
    event, rnd, regs = make_round(players=4, seed=2)                      # published, not started
    with pytest.raises(Refused, match="start the round first"):
        rounds.pause_round(rnd, judge)
    with pytest.raises(Refused):
        rounds.pause_round(rnd, None)


def test_the_round_page_pauses_adds_time_and_extends_a_table(client, db, running, judge, login):
    event, rnd, regs = running
    login(judge)
    base = f"/events/{event.id}/rounds/1"
    ends = as_utc(rnd.ends_at)
    assert client.post(f"{base}/clock", data={"action": "pause"}).status_code == 302
    page = client.get(base).get_data(as_text=True)
    assert "Resume the clock" in page and 'data-paused="yes"' in page and "paused by the organizer" in page
    assert client.post(f"{base}/clock", data={"action": "resume"}).status_code == 302
    assert client.post(f"{base}/clock", data={"action": "extend", "minutes": "3"}).status_code == 302
    db.session.expire_all()
    assert as_utc(rounds.get_round(event, 1).ends_at) >= ends + timedelta(minutes=3)
    for bad in ("", "abc", "99999", "<b>5</b>"):
        response = client.post(f"{base}/clock", data={"action": "extend", "minutes": bad})
        assert response.status_code == 400 and "whole number" in response.get_data(as_text=True), bad
    for out_of_range in ("1000000", "-99999", "0"):                     # a number: told the allowed range
        response = client.post(f"{base}/clock", data={"action": "extend", "minutes": out_of_range})
        assert response.status_code == 400 and "minutes from 1 to" in response.get_data(as_text=True), out_of_range
    assert client.post(f"{base}/clock", data={"action": "explode"}).status_code == 400
    number = rnd.tables[0].number
    assert client.post(f"{base}/tables/{number}/extension", data={"minutes": "4"}).status_code == 302
    assert client.post(f"{base}/tables/999/extension", data={"minutes": "4"}).status_code == 404
    page = client.get(base).get_data(as_text=True)
    assert f'id="extension-{number}">+4 min' in page
    projector = client.get(f"/events/{event.id}/rounds/1/projector").get_data(as_text=True)
    assert "+4 min" in projector.split(f'id="p-table-{number}"', 1)[1].split("</li>", 1)[0]
    seat = rnd.tables[0].seats[0].registration
    player = client.get(f"/p/{seat.access_code}/round").get_data(as_text=True)
    assert "+4 min for this table" in player
    actions = _actions(db)
    assert {"round.pause", "round.resume", "round.extend", "table.extend"} <= set(actions)


def test_when_time_is_up_the_page_says_what_happens_next(db, running, judge, monkeypatch):
    event, rnd, regs = running
    rnd.ends_at = datetime.now(timezone.utc) - timedelta(seconds=5)
    info = timer_info(rnd)
    assert info["remaining"] == 0 and "everyone still alive survives" in info["after_time"]


def test_the_round_page_filters_tables_and_jumps_to_one(client, db, make_round, judge, login):
    event, rnd, regs = make_round(players=16, seed=8)
    first, second = rnd.tables[0], rnd.tables[1]
    rounds.report_pod_result(first, [first.seats[0].registration_id], user=judge)
    db.session.commit()
    login(judge)
    base = f"/events/{event.id}/rounds/1"
    every = client.get(base).get_data(as_text=True)
    assert all(f'id="table-{t.number}"' in every for t in rnd.tables)
    missing = client.get(f"{base}?show=missing").get_data(as_text=True)
    assert f'id="table-{first.number}"' not in missing and f'id="table-{second.number}"' in missing
    assert "Tables (3 of 4)" in missing
    assert 'id="no-tables"' in client.get(f"{base}?show=disputed").get_data(as_text=True)
    assert f'id="table-{second.number}"' in client.get(f"{base}?show=<script>").get_data(as_text=True)   # all
    jump = client.get(f"{base}/jump?table={second.number}")
    assert jump.status_code == 302 and jump.headers["Location"].endswith(f"{base}#table-{second.number}")
    assert client.get(f"{base}/jump?table=99").status_code == 404
    bad = client.get(f"{base}/jump?table=1%3B%20DROP")
    assert bad.status_code == 400 and "Enter a table number" in bad.get_data(as_text=True)


def test_what_time_called_means_comes_from_the_event_for_pods_and_the_profile_for_1v1():
    from types import SimpleNamespace as NS
    from tournament.rounds.presenting import end_of_round_text
    assert "five more turns" in end_of_round_text(NS(mode="duel", scoring_profile="mtr"))
    assert end_of_round_text(NS(mode="duel", scoring_profile="no-such-profile")) == "Time!"

    def pods(procedure, turns=None):
        return end_of_round_text(NS(mode="pods", scoring_profile="survival", end_of_round=procedure,
                                    end_of_round_turns=turns))
    assert "everyone still alive survives, and the game is a draw" in pods("finish_turn")
    assert "then 5 more turns are played" in pods("extra_turns")
    assert "then 3 more turns are played" in pods("extra_turns", 3)
    assert "at the end of turn 8" in pods("turn_limit", 8)
    assert "stops at once" in pods("draw_at_time")
