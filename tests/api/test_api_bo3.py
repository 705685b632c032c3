"""A best-of-three match through /api/v1, game by game: players by access code, staff by token, every answer
checked against the generated OpenAPI document; both phones at once."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tests.api.apidoc import refused


@pytest.fixture
def duel(db, make_round):
    """A started 1v1 match in an event with sideboards: (event, table number, a, b) as plain values."""
    event, rnd, regs = make_round(players=2, seed=1, start=True, name="API duels", mode="duel", ruleset="duel-cn")
    table = rnd.tables[0]
    a, b = (s.registration for s in table.seats)
    return event.id, table.number, (a.id, a.access_code), (b.id, b.access_code)


def test_the_document_lists_the_game_operations(api):
    ids = {op["operationId"] for item in api.doc["paths"].values() for op in item.values()}
    assert {"players_game", "players_time", "players_startGame", "results_game", "results_time",
            "results_startGame"} <= ids


def test_a_match_game_by_game_through_the_api(api, duel, token, other_token):
    event_id, number, (a, a_code), (b, b_code) = duel
    url = f"/players/{{}}/rounds/1/tables/{number}"
    pa, pb = url.format(a_code), url.format(b_code)

    refused(api.post(pa + "/games", json={"game": 2, "winner": a}), 409, "Report game 1 first", field="game")
    refused(api.post(pa + "/games", json={"game": 4, "winner": a}), 400, field="game")
    refused(api.post(pa + "/games", json={"game": 1, "winner": "me"}), 400, field="winner")
    refused(api.post(pa + "/games", json={"game": 1, "winner": 999999}), 400, "one of the two players")
    refused(api.post(url.format("NOPE-NOPE") + "/games", json={"game": 1, "winner": a}), 404)
    refused(api.post(pa + "/games/2/start"), 409, "Report game 1 first")

    one = api.post(pa + "/games", json={"game": 1, "winner": a}).get_json()
    match = one["result"]["match"]
    assert one["result"]["state"] is None and one["result"]["games"] == [a] and not one["can_confirm"]
    assert match["over"] is False and match["next_game"] == 2 and match["sideboarding"]["open"] is True
    assert match["sideboarding"]["game"] == 2 and match["sideboarding"]["deadline"]
    refused(api.post(pb + "/confirm", json={"revision": one["result"]["revision"]}), 409, "still in progress")

    started = api.post(pb + "/games/2/start").get_json()["result"]["match"]["sideboarding"]
    assert started["open"] is False and started["closed_at"]
    refused(api.post(pb + "/games/4/start"), 404)      # the path takes game 2 or 3 only

    two = api.post(pb + "/games", json={"game": 2, "winner": a}).get_json()
    assert two["result"]["state"] == "reported" and two["result"]["match"]["winner"] == a
    assert two["can_confirm"] is False                      # b reported the deciding game: b has agreed
    assert api.get(f"/players/{a_code}/round").get_json()["can_confirm"] is True
    refused(api.post(pa + "/games", json={"game": 3, "winner": b}), 409, "The match is over")
    done = api.post(pa + "/confirm", json={"revision": two["result"]["revision"]}).get_json()
    assert done["result"]["state"] == "confirmed"

    # staff: a game on a match of another table refused for another event's token
    refused(api.post(f"/events/{event_id}/rounds/1/tables/{number}/games", token=other_token,
                     json={"game": 1, "winner": a}), 403)
    staff = api.get(f"/events/{event_id}/rounds/1/tables/{number}/result", token=token).get_json()
    assert [v["result"]["games"] for v in staff["versions"]] == [[a], [a, a]]


def test_staff_games_time_and_start_through_the_api(api, duel, token):
    event_id, number, (a, _a_code), (b, _b_code) = duel
    t = f"/events/{event_id}/rounds/1/tables/{number}"
    refused(api.post(t + "/time", token=token, json={}), 409, "Report game 1 first")
    assert api.post(t + "/games", token=token, json={"game": 1, "winner": b}).get_json()["state"] is None
    started = api.post(t + "/games/2/start", token=token).get_json()
    assert started["match"]["sideboarding"]["closed_at"]
    body = api.post(t + "/time", token=token, json={}).get_json()
    assert body["state"] == "confirmed" and body["match"]["decided_by"] == "time" and body["match"]["winner"] == b
    export = api.get(f"/events/{event_id}/export", token=token).get_json()
    result = export["rounds"][0]["tables"][0]["result"]
    assert result["games"] == [b] and result["time_called"] is True
    whole = api.put(t + "/result", token=token, json={"games": [a]}).get_json()      # 1-0, no time: in progress
    assert whole["state"] is None and whole["match"]["next_game"] == 2
    whole = api.put(t + "/result", token=token, json={"games": [a], "time": True}).get_json()
    assert whole["state"] == "confirmed" and whole["match"]["winner"] == a


def _post_all(app, jobs):
    def run(job):
        response = app.test_client().post("/api/v1" + job[0], json=job[1])
        return response.status_code, response.get_json()
    with ThreadPoolExecutor(len(jobs)) as pool:
        return list(pool.map(run, jobs))


def test_both_phones_report_the_same_game_at_once(app, db, duel):
    from tournament.rounds.models import DuelGame, GameTable, ResultConfirmation, ResultReport
    _event_id, number, (a, a_code), (b, b_code) = duel
    db.session.remove()
    url = f"/players/{{}}/rounds/1/tables/{number}/games"
    results = _post_all(app, [(url.format(code), {"game": 1, "winner": b}) for code in (a_code, b_code) * 4])
    assert [s for s, _body in results] == [200] * 8
    assert db.session.scalar(sa.select(sa.func.count()).select_from(DuelGame)) == 1
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ResultReport)) == 1
    # the deciding game from both phones at once, then both confirm at once: one row each, confirmed
    results = _post_all(app, [(url.format(code), {"game": 2, "winner": b}) for code in (a_code, b_code)])
    assert [s for s, _body in results] == [200, 200]
    table = db.session.execute(sa.select(GameTable)).scalar_one()
    assert table.result_state == "confirmed" and [g.winner_id for g in table.games] == [b, b]
    confirm = f"/players/{{}}/rounds/1/tables/{number}/confirm"
    results = _post_all(app, [(confirm.format(code), {"revision": table.result_revision})
                              for code in (a_code, b_code) * 3])
    assert {s for s, _body in results} <= {200, 409} and all(s < 500 for s, _body in results)
    db.session.expire_all()
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ResultConfirmation)) == 2


def test_both_phones_tap_start_game_2_at_once(app, db, duel):
    from tournament.events.models import AuditEntry
    from tournament.swaps.models import SwapWindow
    _event_id, number, (a, a_code), (b, b_code) = duel
    db.session.remove()
    base = f"/players/{{}}/rounds/1/tables/{number}"
    assert _post_all(app, [(base.format(a_code) + "/games", {"game": 1, "winner": a})])[0][0] == 200
    results = _post_all(app, [(base.format(code) + "/games/2/start", None) for code in (a_code, b_code) * 4])
    assert [s for s, _body in results] == [200] * 8
    assert db.session.scalar(sa.select(sa.func.count()).select_from(AuditEntry)
                             .where(AuditEntry.action == "duel.game_start")) == 1
    window = db.session.execute(sa.select(SwapWindow).where(SwapWindow.game == 2)).scalar_one()
    assert window.closed_at is not None
