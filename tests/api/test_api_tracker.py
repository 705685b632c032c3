"""The tracker through /api/v1: staff at any table by token, a player at their own table by code; every response
checked against the generated document."""
from __future__ import annotations



from tests.api.apidoc import refused


def test_a_game_tracked_through_the_api(api, make_round, token, other_token):
    event, rnd, regs = make_round(players=8, start=True)
    t1 = [s.registration_id for s in rnd.tables[0].seats]
    t2 = [s.registration_id for s in rnd.tables[1].seats]
    code = {r.id: r.access_code for r in regs}
    url = f"/events/{event.id}/rounds/1/tables/1/tracker"

    refused(api.get(url), 401)
    refused(api.get(url, token=other_token), 403)
    refused(api.get(f"/events/{event.id}/rounds/1/tables/9/tracker", token=token), 404)
    before = api.get(url, token=token).get_json()
    assert before["state"] is None and [p["id"] for p in before["players"]] == t1

    mine = f"/players/{code[t1[0]]}/tracker"
    refused(api.post(mine, json={"action": "life", "player": t1[0], "delta": -1}), 409)   # not started
    refused(api.post(mine, json={"action": "fly"}), 400, field="action")
    refused(api.post(mine, json={"action": "start", "archenemy": t1[1]}), 403)           # staff only
    started = api.post(mine, json={"action": "start", "seed": 3}).get_json()
    assert started["state"]["seq"] == 1
    refused(api.post(mine, json={"action": "start"}), 409)
    refused(api.post(mine, json={"action": "life", "player": t1[0], "delta": 99999}), 400, field="delta")
    refused(api.post(mine, json={"action": "life", "player": t2[0], "delta": -1}), 400, field="player")
    hit = api.post(mine, json={"action": "life", "player": t1[1], "delta": -5}).get_json()
    life = {p["id"]: p["life"] for p in hit["state"]["players"]}
    assert life[t1[1]] == 35

    # another table's player sees their own table, staff see the same state as the player
    assert api.get(f"/players/{code[t2[0]]}/tracker").get_json()["table"] == 2
    assert api.get(url, token=token).get_json()["state"]["seq"] == hit["state"]["seq"]
    undone = api.post(url, token=token, json={"action": "undo"}).get_json()
    assert {p["id"]: p["life"] for p in undone["state"]["players"]}[t1[1]] == 40
    refused(api.get("/players/NOSUCHCODE/tracker"), 404)

    for victim in t1[1:]:
        api.post(url, token=token, json={"action": "eliminate", "player": victim, "reason": "conceded"})
    ended = api.post(mine, json={"action": "end"}).get_json()
    assert ended["result_state"] == "reported"
    result = api.get(f"/events/{event.id}/rounds/1/tables/1/result", token=token).get_json()
    assert result["survivors"] == [t1[0]] and result["eliminated"] == t1[1:]
