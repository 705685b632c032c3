"""The phone page: a best-of-three match reported game by game, sideboarding opened and closed, and confirming
what you see (the whole result; both versions of a dispute)."""
from __future__ import annotations

import html
from datetime import timedelta

import pytest
import sqlalchemy as sa

from tournament.cards.models import utcnow
from tournament.rounds import operations as rounds
from tournament.rounds.models import DuelGame, GameTable, Round
from tournament.swaps.models import SwapWindow

SCRIPT = "<script>alert('x')</script>"


def text(response) -> str:
    """The page's text, names' direction isolates (U+2068 ... U+2069) left out: what a reader sees."""
    return html.unescape(response.get_data(as_text=True)).replace("\u2068", "").replace("\u2069", "")


def section(response) -> str:
    return text(response).split('id="round"', 1)[1]


@pytest.fixture
def duel(db, make_event, make_player, judge):
    """A started 1v1 match between Ann and a hostile name: (table id, number, ann, bob) as plain values."""
    from tournament.events import operations as events
    event = make_event(name="Bo3 night", mode="duel", ruleset="duel-cn", sideboard_minutes=4)
    regs = [make_player(event, "Ann Archer"), make_player(event, f"Bob {SCRIPT}")]
    for reg in regs:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    rounds.publish_round(rnd, judge)
    rounds.start_round(rnd, judge)
    db.session.commit()
    table = rnd.tables[0]
    by_id = {r.id: r for r in regs}
    ann, bob = sorted((by_id[s.registration_id] for s in table.seats), key=lambda r: r.name)
    return table.id, table.number, (ann.id, ann.access_code), (bob.id, bob.access_code)


def test_a_match_game_by_game_on_the_phones(app, db, duel):
    table_id, number, (ann, ann_code), (bob, bob_code) = duel
    phone = app.test_client()
    ref = {"round": 1, "table": number}
    page = section(phone.get(f"/p/{ann_code}"))
    assert "When game 1 ends, report it:" in page and "I won game 1" in page
    raw = html.unescape(phone.get(f"/p/{ann_code}").get_data(as_text=True))
    assert f"\u2068Bob {SCRIPT}\u2069 won game 1" in raw       # isolated: a right-to-left name keeps its run
    assert f"Bob {SCRIPT} won game 1" in page and SCRIPT not in phone.get(f"/p/{ann_code}").get_data(as_text=True)
    assert 'id="start-game-form"' not in page and 'id="confirm-form"' not in page

    # game 1: Ann won. In progress, nothing to confirm; sideboarding for game 2 opens, deadline stored
    response = phone.post(f"/p/{ann_code}/game", data={**ref, "game": 1, "winner": ann})
    assert response.status_code == 302
    bob_page = section(phone.get(f"/p/{bob_code}"))
    assert "game 1: Ann Archer won — in progress" in bob_page and "in progress" in bob_page
    assert 'id="confirm-form"' not in bob_page and "You lost" not in bob_page
    assert "Sideboarding for game 2 is open until" in bob_page and "Start game 2" in bob_page
    window = db.session.execute(sa.select(SwapWindow).where(SwapWindow.game == 2)).scalar_one()
    assert window.deadline - window.opens_at == timedelta(minutes=4)            # the event's minutes
    # Bob starts game 2: sideboarding closes for both
    assert phone.post(f"/p/{bob_code}/start-game", data={**ref, "game": 2}).status_code == 302
    ann_page = section(phone.get(f"/p/{ann_code}"))
    assert "Start game 2" not in ann_page and "Game 2 is under way." in ann_page
    assert "When game 2 ends, report it:" in ann_page

    # game 2: Bob won (reported by Bob); game 3: Bob won (reported by Ann): decided, Bob confirms what he sees
    assert phone.post(f"/p/{bob_code}/game", data={**ref, "game": 2, "winner": bob}).status_code == 302
    window3 = db.session.execute(sa.select(SwapWindow).where(SwapWindow.game == 3)).scalar_one()
    window3.deadline = utcnow() - timedelta(seconds=1)           # nobody tapped: closed at its deadline
    db.session.commit()
    assert "Game 3 is under way." in section(phone.get(f"/p/{ann_code}"))
    assert phone.post(f"/p/{ann_code}/game", data={**ref, "game": 3, "winner": bob}).status_code == 302
    bob_page = section(phone.get(f"/p/{bob_code}"))
    what = bob_page.split('id="confirm-what"', 1)[1].split("</div>", 1)[0]
    assert "game 1: Ann Archer won" in what and f"game 2: Bob {SCRIPT} won" in what
    assert f"game 3: Bob {SCRIPT} won" in what and "You won 2–1" in bob_page
    table = db.session.get(GameTable, table_id)
    assert table.result_state == "reported"
    assert phone.post(f"/p/{bob_code}/confirm", data={**ref, "revision": table.result_revision}).status_code == 302
    db.session.expire_all()
    assert db.session.get(GameTable, table_id).result_state == "confirmed"


def test_bad_game_reports_on_the_phone(app, db, duel, make_round):
    table_id, number, (ann, ann_code), (bob, bob_code) = duel
    phone = app.test_client()
    ref = {"round": 1, "table": number}
    response = phone.post(f"/p/{ann_code}/game", data={**ref, "game": 3, "winner": ann})     # game 3 before 2
    assert response.status_code == 409 and "Report game 1 first: game 3 comes after it." in text(response)
    for data, message in (({"game": 1}, "Choose the game's winner, or a draw."),
                          ({"game": 1, "winner": "both"}, "Choose the game's winner, a draw, or not played."),
                          ({"game": 9, "winner": ann}, "This form is out of date"),
                          ({"game": 1, "winner": 99999}, "the winner must be one of the two players")):
        response = phone.post(f"/p/{ann_code}/game", data={**ref, **data})
        assert response.status_code == 400 and message in text(response), (data, response.status_code)
    # another event's player code: it names their own table, where Ann is nobody; Ann's table is untouched
    stranger = make_round(players=2, seed=5, name="Other duels", mode="duel", ruleset="duel-cn")[2][0]
    response = phone.post(f"/p/{stranger.access_code}/game", data={**ref, "game": 1, "winner": ann})
    assert response.status_code == 400 and "the winner must be one of the two players" in text(response)
    response = phone.post("/p/NOT-A-CODE/game", data={**ref, "game": 1, "winner": ann})
    assert response.status_code == 404
    # time is not up: "time called" is refused; the end between games too
    response = phone.post(f"/p/{ann_code}/game", data={**ref, "game": 1, "winner": ann, "time": "y"})
    assert response.status_code == 409 and "Time has not been called yet" in text(response)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(DuelGame)) == 0
    # two wins, then a third: refused
    phone.post(f"/p/{ann_code}/game", data={**ref, "game": 1, "winner": ann})
    phone.post(f"/p/{bob_code}/game", data={**ref, "game": 2, "winner": ann})
    response = phone.post(f"/p/{ann_code}/game", data={**ref, "game": 3, "winner": ann})
    assert response.status_code == 409 and "The match is over: Ann Archer won 2–0." in text(response)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(DuelGame)) == 2


def test_time_called_on_the_phone(app, db, duel):
    table_id, number, (ann, ann_code), (bob, bob_code) = duel
    phone = app.test_client()
    ref = {"round": 1, "table": number}
    phone.post(f"/p/{ann_code}/game", data={**ref, "game": 1, "winner": bob})
    rnd = db.session.execute(sa.select(Round)).scalar_one()
    rnd.ends_at = utcnow() - timedelta(minutes=2)
    db.session.commit()
    page = section(phone.get(f"/p/{ann_code}"))
    assert "five more turns are played" in page and 'id="end-at-time-form"' in page
    assert phone.post(f"/p/{ann_code}/time", data=ref).status_code == 302
    bob_page = section(phone.get(f"/p/{bob_code}"))
    assert f"Bob {SCRIPT} won 1–0 at time" in bob_page and 'id="confirm-form"' in bob_page      # Bob confirms
    ann_table = db.session.get(GameTable, table_id)
    assert ann_table.result_state == "reported" and rounds.confirmers(ann_table) == {ann}
    assert 'id="confirm-form"' not in section(phone.get(f"/p/{ann_code}"))


def test_confirming_a_pod_result_shows_the_whole_result_and_a_dispute_both_versions(app, db, make_round):
    event, rnd, regs = make_round(players=4, seed=3, start=True, name="Pods")
    table = rnd.tables[0]
    a, b, c, d = (s.registration for s in table.seats)
    condition = event.prize_conditions[0]
    rounds.report_pod_result(table, [a.id], [c.id, d.id, b.id], {condition["id"]: {"holder": a.id, "value": 12}},
                             reg=a)
    db.session.commit()
    phone = app.test_client()
    page = section(phone.get(f"/p/{b.access_code}"))
    what = page.split('id="confirm-what"', 1)[1].split("</div>", 1)[0]
    assert f"survived: {a.name}" in what and f"out in order: {c.name}, {d.name}, {b.name}" in what
    assert f"{condition['name']}: {a.name} (12)" in what
    # b reports otherwise: both versions shown to the table's players, who reported each
    rounds.report_pod_result(table, [b.id], [c.id, d.id, a.id], reg=b)
    db.session.commit()
    page = section(phone.get(f"/p/{c.access_code}"))
    versions = page.split('id="result-versions"', 1)[1].split("</div>", 1)[0]
    assert f"reported by {a.name}" in versions and f"reported by {b.name}" in versions
    assert f"survived: {a.name}" in versions and f"survived: {b.name}" in versions
    assert f"out in order: {c.name}, {d.name}, {a.name}" in versions and 'id="confirm-form"' not in page


def test_the_event_setting_for_sideboarding_minutes(client, db, make_event, organizer, login):
    event = make_event(name="Settings", mode="duel", ruleset="duel-cn")
    login(organizer)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'name="sideboard_minutes"' in page and 'max="60"' in page
    data = {"name": "Settings", "ruleset": "duel-cn", "mode": "duel", "pod_size": 4, "swap_seconds": 180,
            "sideboard_minutes": 61, "round_minutes": 50, "scoring_profile": "mtr", "paper_size": "A4",
            "status": "registration", "timezone": "UTC"}
    response = client.post(f"/events/{event.id}/edit", data=data)
    assert response.status_code == 400 and "from 1 to 60" in text(response)
    from tournament.events import operations as events
    events.update_event(event, organizer, {"sideboard_minutes": 5})
    assert event.sideboard_minutes == 5
    for bad in (0, 61, "3", True):
        with pytest.raises(Exception, match="Sideboarding between games"):
            events.update_event(event, organizer, {"sideboard_minutes": bad})


def test_the_round_page_shows_a_match_in_progress(client, db, duel, judge, login):
    table_id, number, (ann, _ann_code), _bob = duel
    table = db.session.get(GameTable, table_id)
    rounds.report_game(table, 1, ann, user=judge)
    db.session.commit()
    login(judge)
    page = text(client.get(f"/events/{table.round.event_id}/rounds/1"))
    status = page.split(f'id="match-status-{number}"', 1)[1].split("</p>", 1)[0]
    assert "game 1: Ann Archer won — in progress" in status and "Sideboarding and swaps" in status
    assert ">in progress<" in page
    # staff close game 2's sideboarding from the table's swap log
    response = client.post(f"/events/{table.round.event_id}/rounds/1/tables/{number}/games/2/start")
    assert response.status_code == 302
    assert db.session.execute(sa.select(SwapWindow).where(SwapWindow.game == 2)).scalar_one().closed_at
