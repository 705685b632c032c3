"""Rounds, results, votes and standings through /api/v1: a whole small event, its refusals, and every response
checked against the generated OpenAPI document."""
from __future__ import annotations

import pytest

from tournament.events import operations as events

from tests.api.apidoc import refused


@pytest.fixture
def night(db, make_event, make_player, judge):
    """An event of 8 checked-in players (no decklists: pairing overrides decks)."""
    event = make_event(name="API night")
    regs = [make_player(event, f"Player {i}") for i in range(1, 9)]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    return event, regs


def test_the_document_lists_the_rounds_operations(api):
    ids = {op["operationId"] for item in api.doc["paths"].values() for op in item.values()}
    for wanted in ("rounds_list", "rounds_pair", "rounds_top_cut", "rounds_get", "rounds_publish", "rounds_swap",
                   "rounds_delete", "rounds_start", "rounds_pause", "rounds_resume", "rounds_extend",
                   "rounds_finish", "tables_extension", "events_finish", "results_get", "results_enter",
                   "results_accept", "votes_cast", "players_round", "players_report", "players_confirm",
                   "players_vote", "standings_get", "standings_top_cut"):
        assert wanted in ids, wanted


def test_a_whole_event_through_the_api(api, night, token, other_token):
    event, regs = night
    e = f"/events/{event.id}"
    by_id = {r.id: r for r in regs}

    # who may pair: a token, of this event's staff
    refused(api.post(f"{e}/rounds", json={}), 401)
    refused(api.post(f"{e}/rounds", token=other_token, json={}), 403)
    refused(api.post("/events/999999/rounds", token=token, json={}), 404)
    refused(api.post(f"{e}/rounds", token=token, json={"override_decks": "maybe"}), 400, field="override_decks")
    refused(api.post(f"{e}/rounds", token=token, json={"seed": 1}), 400, "Unknown field seed")
    refused(api.post(f"{e}/rounds", token=token, json={}), 409)      # no legal decklists: refused without override

    draft = api.post(f"{e}/rounds", token=token, json={"override_decks": True})
    assert draft.status_code == 201, draft.get_json()
    body = draft.get_json()
    assert body["number"] == 1 and body["status"] == "draft"
    assert [len(t["seats"]) for t in body["table_list"]] == [4, 4]
    for t in body["table_list"]:
        assert [s["seat"] for s in t["seats"]] == [1, 2, 3, 4]
    refused(api.post(f"{e}/rounds", token=token, json={"override_decks": True}), 409)   # a draft is pending

    # a draft is staff's only
    refused(api.get(f"{e}/rounds/1"), 404)
    assert api.get(f"{e}/rounds").get_json() == {"rounds": []}
    assert len(api.get(f"{e}/rounds", token=token).get_json()["rounds"]) == 1
    refused(api.get(f"{e}/rounds/7", token=token), 404)
    refused(api.get(f"{e}/rounds/1?limit=0", token=token), 400, field="limit")

    # swap two seats in the draft
    first = body["table_list"][0]["seats"][0]["player_id"]
    second = body["table_list"][1]["seats"][0]["player_id"]
    refused(api.post(f"{e}/rounds/1/swap", token=token, json={"first": "x", "second": second}), 400, field="first")
    swapped = api.post(f"{e}/rounds/1/swap", token=token, json={"first": first, "second": second}).get_json()
    assert swapped["table_list"][0]["seats"][0]["player_id"] == second
    assert swapped["table_list"][1]["seats"][0]["player_id"] == first

    # delete the draft, pair again, publish, run the clock
    assert api.delete(f"{e}/rounds/1", token=token).get_json() == {"deleted": 1}
    refused(api.get(f"{e}/rounds/1", token=token), 404)
    api.post(f"{e}/rounds", token=token, json={"override_decks": True})
    refused(api.post(f"{e}/rounds/1/start", token=token), 409)        # publish first
    published = api.post(f"{e}/rounds/1/publish", token=token).get_json()
    assert published["status"] == "published"
    refused(api.delete(f"{e}/rounds/1", token=token), 409)            # not a draft any more
    public = api.get(f"{e}/rounds/1").get_json()
    assert public["status"] == "published" and len(public["table_list"]) == 2
    page = api.get(f"{e}/rounds/1?limit=1").get_json()
    assert len(page["table_list"]) == 1 and page["next_offset"] == 1
    assert api.post(f"{e}/rounds/1/start", token=token).get_json()["clock"]["started"] is True
    assert api.post(f"{e}/rounds/1/pause", token=token).get_json()["clock"]["paused"] is True
    refused(api.post(f"{e}/rounds/1/pause", token=token), 409)
    assert api.post(f"{e}/rounds/1/resume", token=token).get_json()["clock"]["paused"] is False
    refused(api.post(f"{e}/rounds/1/extend", token=token, json={"minutes": 100000}), 400, field="minutes")
    refused(api.post(f"{e}/rounds/1/extend", token=token, json={}), 400, field="minutes")
    api.post(f"{e}/rounds/1/extend", token=token, json={"minutes": 5})
    # JSON has one kind of number: 2.0 is the whole number 2 (as JSON Schema's integer), 2.5 and true are not
    assert api.post(f"{e}/rounds/1/extend", token=token, json={"minutes": 2.0}).status_code == 200
    refused(api.post(f"{e}/rounds/1/extend", token=token, json={"minutes": 2.5}), 400, field="minutes")
    refused(api.post(f"{e}/rounds/1/extend", token=token, json={"minutes": True}), 400, field="minutes")
    ext = api.put(f"{e}/rounds/1/tables/2/extension", token=token, json={"minutes": 3}).get_json()
    assert ext["table_list"][1]["extra_minutes"] == 3
    refused(api.put(f"{e}/rounds/1/tables/9/extension", token=token, json={"minutes": 3}), 404)

    tables = public["table_list"]
    t1 = [s["player_id"] for s in tables[0]["seats"]]
    t2 = [s["player_id"] for s in tables[1]["seats"]]
    code = {i: by_id[i].access_code for i in t1 + t2}

    # the player's own view
    mine = api.get(f"/players/{code[t1[0]]}/round").get_json()
    assert mine["table"]["number"] == 1 and mine["can_report"] and not mine["can_confirm"]
    refused(api.get("/players/NOSUCHCODE/round"), 404)

    # a player reports; another table's player may not; others confirm, one disputes
    report = {"survivors": [t1[0]], "eliminated": [t1[3], t1[2], t1[1]]}
    url1 = f"/players/{code[t1[0]]}/rounds/1/tables/1"
    refused(api.post(f"/players/{code[t2[0]]}/rounds/1/tables/1/result", json=report), 403)
    refused(api.post(url1 + "/result", json={"survivors": ["a"]}), 400, field="survivors")
    refused(api.post(url1 + "/result", json={"survivors": [t2[0]]}), 400, field="survivors")
    refused(api.post(url1 + "/result", json={"games": [t1[0]]}), 400, field="games")
    refused(api.post(f"/players/{code[t1[0]]}/rounds/1/tables/5/result", json=report), 404)
    reported = api.post(url1 + "/result", json=report).get_json()
    assert reported["result"]["state"] == "reported" and reported["result"]["revision"] == 1
    assert reported["result"]["confirmed_by"] == [t1[0]]
    confirm = api.post(f"/players/{code[t1[1]]}/rounds/1/tables/1/confirm", json={"revision": 1}).get_json()
    assert sorted(confirm["result"]["confirmed_by"]) == sorted([t1[0], t1[1]])
    refused(api.post(f"/players/{code[t1[2]]}/rounds/1/tables/1/confirm", json={"revision": 7}), 409)
    disputed = api.post(f"/players/{code[t1[2]]}/rounds/1/tables/1/result",
                        json={"survivors": [t1[2]], "eliminated": [t1[3], t1[0], t1[1]]}).get_json()
    assert disputed["result"]["state"] == "disputed" and len(disputed["result"]["versions"]) == 2

    # votes: by code (own vote only), and by staff for a player
    refused(api.put(url1 + "/vote", json={"votee": t1[0]}), 400, field="vote")      # not yourself
    voted = api.put(url1 + "/vote", json={"votee": t1[1]}).get_json()
    assert voted["my_vote"] == t1[1]
    refused(api.put(f"/players/{code[t2[0]]}/rounds/1/tables/1/vote", json={"votee": t1[1]}), 403)
    staff_vote = api.put(f"{e}/rounds/1/tables/1/votes/{t1[2]}", token=token, json={"votee": t1[0]}).get_json()
    assert {"voter": t1[2], "votee": t1[0]} in staff_vote["votes"]

    # staff settle the dispute by accepting version 1, and enter table 2
    refused(api.get(f"{e}/rounds/1/tables/1/result"), 401)
    refused(api.get(f"{e}/rounds/1/tables/1/result", token=other_token), 403)
    refused(api.post(f"{e}/rounds/1/tables/1/result/versions/9/accept", token=token), 404)
    refused(api.post(f"{e}/rounds/1/tables/1/result/versions/1/accept", token=token, json={"seen": 1}), 409)
    settled = api.post(f"{e}/rounds/1/tables/1/result/versions/1/accept", token=token, json={"seen": 2}).get_json()
    assert settled["state"] == "confirmed" and settled["survivors"] == [t1[0]]
    assert settled["eliminated"] == [t1[3], t1[2], t1[1]]
    refused(api.post(f"{e}/rounds/1/finish", token=token), 409)       # table 2 has no result
    refused(api.put(f"{e}/rounds/1/tables/2/result", token=token, json={"survivors": [t2[0]], "draw": "lots"}),
            400, field="draw")
    entered = api.put(f"{e}/rounds/1/tables/2/result", token=token,
                      json={"survivors": [t2[0], t2[1]], "eliminated": [t2[2], t2[3]], "draw": "time",
                            "votes": {str(t2[0]): t2[1]}}).get_json()
    assert entered["state"] == "confirmed" and entered["draw"] == "time"
    got = api.get(f"{e}/rounds/1/tables/2/result", token=token).get_json()
    assert got["versions"][0]["result"]["survivors"] == sorted([t2[0], t2[1]])

    finished = api.post(f"{e}/rounds/1/finish", token=token, json={"accept_unconfirmed": False}).get_json()
    assert finished["status"] == "finished"
    refused(api.post(url1 + "/result", json=report), 409)             # the round is finished

    # standings: every tiebreaker and the record as numbers
    standings = api.get(f"{e}/standings").get_json()
    rows = standings["standings"]
    assert len(rows) == 8 and rows[0]["rank"] == 1
    assert all(set(r["tiebreakers"]) == set(standings["tiebreakers"]) for r in rows)
    winner = next(r for r in rows if r["player_id"] == t1[0])
    assert winner["record"]["survived"] == 1 and winner["record"]["played"] == 1
    two = api.get(f"{e}/standings?limit=2&offset=6").get_json()
    assert len(two["standings"]) == 2 and two["next_offset"] is None
    refused(api.get(f"{e}/standings?limit=9999"), 400, field="limit")
    assert api.get(f"{e}/top-cut").get_json() == {"seeds": {}, "stages": []}

    # finish the event: results are final
    refused(api.post(f"{e}/finish", token=other_token), 403)
    assert api.post(f"{e}/finish", token=token).get_json()["status"] == "finished"
    refused(api.put(f"{e}/rounds/1/tables/2/result", token=token, json={"survivors": [t2[0]]}), 409)


def test_standings_are_hidden_before_the_first_round(api, night, token):
    event, _regs = night
    refused(api.get(f"/events/{event.id}/standings"), 404)
    rows = api.get(f"/events/{event.id}/standings", token=token).get_json()["standings"]
    assert len(rows) == 8 and not any(r["played"] for r in rows)
    refused(api.get(f"/events/{event.id}/standings", token="nonsense"), 401)


def test_a_match_and_the_top_cut(api, db, make_event, make_player, judge, token):
    event = make_event(name="Duel night", mode="duel", scoring_profile="mtr", top_cut=4)
    regs = [make_player(event, f"Duelist {i}") for i in range(1, 5)]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    e = f"/events/{event.id}"
    api.post(f"{e}/rounds", token=token, json={"override_decks": True})
    tables = api.post(f"{e}/rounds/1/publish", token=token).get_json()["table_list"]
    for t in tables:
        a, b = (s["player_id"] for s in t["seats"])
        refused(api.put(f"{e}/rounds/1/tables/{t['number']}/result", token=token, json={"survivors": [a]}),
                400, field="games")
        refused(api.put(f"{e}/rounds/1/tables/{t['number']}/result", token=token,
                        json={"games": [a, a, a, a]}), 400, field="games")
        done = api.put(f"{e}/rounds/1/tables/{t['number']}/result", token=token, json={"games": [a, None, a]})
        assert done.get_json()["games"] == [a, None, a]
    api.post(f"{e}/rounds/1/finish", token=token)
    rows = api.get(f"{e}/standings").get_json()["standings"]
    assert {r["record"]["wins"] for r in rows} == {0, 1}
    cut = api.post(f"{e}/rounds/top-cut", token=token)
    assert cut.status_code == 201 and cut.get_json()["stage"].startswith("top")
    api.post(f"{e}/rounds/2/publish", token=token)
    stages = api.get(f"{e}/top-cut").get_json()
    assert stages["stages"][0]["round"] == 2 and len(stages["seeds"]) == 4
