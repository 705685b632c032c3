"""Series through /api/v1: the organizer's list, create, settings, events in and out, the public series and its
standings; every response checked against the generated document."""
from __future__ import annotations


from tournament.rounds import operations as rounds

from tests.api.apidoc import refused


def test_a_series_through_the_api(api, db, make_round, judge, organizer, token, other_token):
    event, rnd, _regs = make_round(players=8, start=True)
    for t in rnd.tables:
        ids = [s.registration_id for s in t.seats]
        rounds.report_pod_result(t, ids[:1], ids[1:], user=judge)
    rounds.finish_round(rnd, judge)
    rounds.finish_event(event, organizer)
    db.session.commit()

    refused(api.get("/series"), 401)
    refused(api.post("/series", token=token, json={"name": ""}), 400, field="name")
    refused(api.post("/series", token=token, json={"name": "L", "points_table": [5, "x"]}), 400,
            field="points_table")
    refused(api.post("/series", token=token, json={"name": "L", "colour": 1}), 400, "Unknown field colour")
    created = api.post("/series", token=token, json={"name": "Spring league", "points_table": [5, 3, 2, 1]})
    assert created.status_code == 201
    series = created.get_json()
    s = f"/series/{series['id']}"
    assert series["events"] == [] and series["points_table"] == [5, 3, 2, 1]
    assert [x["id"] for x in api.get("/series", token=token).get_json()["series"]] == [series["id"]]
    assert api.get("/series", token=other_token).get_json()["series"] == []

    refused(api.post(f"{s}/events", token=other_token, json={"event_id": event.id}), 403)
    refused(api.post(f"{s}/events", token=token, json={"event_id": 999999}), 404)
    added = api.post(f"{s}/events", token=token, json={"event_id": event.id}).get_json()
    assert added["events"][0]["event_id"] == event.id and added["events"][0]["players"] == 8
    refused(api.post(f"{s}/events", token=token, json={"event_id": event.id}), 409)

    public = api.get(s).get_json()
    assert public["name"] == "Spring league"
    standings = api.get(f"{s}/standings").get_json()
    assert len(standings["standings"]) == 8 and standings["standings"][0]["rank"] == 1
    recorded = str(added["events"][0]["id"])
    assert all(recorded in r["places"] for r in standings["standings"])
    assert standings["standings"][0]["points"] == 5
    page = api.get(f"{s}/standings?limit=3").get_json()
    assert len(page["standings"]) == 3 and page["next_offset"] == 3
    refused(api.get("/series/999999"), 404)

    refused(api.patch(s, token=other_token, json={"attendance_points": 1}), 403)
    refused(api.patch(s, token=token, json={"attendance_points": 5000}), 400, field="attendance_points")
    assert api.patch(s, token=token, json={"attendance_points": 1}).get_json()["attendance_points"] == 1
    assert api.get(f"{s}/standings").get_json()["standings"][0]["points"] == 6

    refused(api.delete(f"{s}/events/999999", token=token), 404)
    assert api.delete(f"{s}/events/{recorded}", token=token).get_json()["events"] == []
    assert api.get(f"{s}/standings").get_json()["standings"] == []


def test_bodies_are_strict(api, token):
    refused(api.post("/series", token=token, json={"name": "L", "points_table": [False]}), 400,
            field="points_table")
    refused(api.post("/series", token=token, json={"name": "L", "attendance_points": "3"}), 400,
            field="attendance_points")
