"""The event data export (format edh-tournament-export, version 1) and the audit log through /api/v1."""
from __future__ import annotations


from tournament.events import operations as events
from tournament.rounds import operations as rounds

from tests.api.apidoc import refused


def _play(db, event, rnd, judge):
    for t in rnd.tables:
        ids = [s.registration_id for s in t.seats]
        rounds.report_pod_result(t, ids[:1], ids[1:], user=judge)
        rounds.cast_vote(t, ids[1], ids[0], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()


def test_the_export_follows_the_statistics_pages_rule(api, db, make_round, judge, organizer, token, other_token):
    event, rnd, regs = make_round(players=8, start=True)
    e = f"/events/{event.id}"
    refused(api.get(f"{e}/export"), 404)                       # not finished, not published
    refused(api.get(f"{e}/export", token=other_token), 404)    # another organizer is the public here
    refused(api.get(f"{e}/export", token="bad"), 401)
    staff_view = api.get(f"{e}/export", token=token).get_json()
    assert staff_view["format"] == "edh-tournament-export" and staff_view["version"] == 1
    assert staff_view["rounds"][0]["tables"][0]["result"] is None

    _play(db, event, rnd, judge)
    events.drop(regs[0], judge)
    rounds.finish_event(event, organizer)
    event.publish_decklists = True
    db.session.commit()

    data = api.get(f"{e}/export").get_json()
    assert data["event"]["id"] == event.id and data["event"]["status"] == "finished"
    assert len(data["players"]) == 8 and data["players"][0]["general"] == []
    (round1,) = data["rounds"]
    assert round1["number"] == 1 and round1["stage"] == rnd.stage
    for table, stored in zip(round1["tables"], rnd.tables):
        assert [s["player_id"] for s in table["seats"]] == [s.registration_id for s in stored.seats]
        assert [s["seat"] for s in table["seats"]] == sorted(s["seat"] for s in table["seats"])
        ids = [s["player_id"] for s in table["seats"]]
        assert table["result"]["survivors"] == ids[:1] and table["result"]["eliminated"] == ids[1:]
        assert table["votes"] == [{"voter": ids[1], "votee": ids[0]}]
    assert data["drops"][0]["player_id"] == regs[0].id and data["drops"][0]["after_round"] == 1


def test_the_audit_log_is_paged_and_filtered(api, db, make_round, judge, token, other_token):
    event, rnd, _regs = make_round(players=8, start=True)
    _play(db, event, rnd, judge)
    e = f"/events/{event.id}"
    refused(api.get(f"{e}/log"), 401)
    refused(api.get(f"{e}/log", token=other_token), 403)
    refused(api.get("/events/999999/log", token=token), 404)
    refused(api.get(f"{e}/log?limit=0", token=token), 400, field="limit")
    refused(api.get(f"{e}/log?colour=red", token=token), 400, field="colour")
    everything = api.get(f"{e}/log?limit=500", token=token).get_json()
    assert everything["next_offset"] is None and len(everything["entries"]) > 5
    first = api.get(f"{e}/log?limit=3", token=token).get_json()
    assert [x["id"] for x in first["entries"]] == [x["id"] for x in everything["entries"][:3]]
    assert first["next_offset"] == 3
    second = api.get(f"{e}/log?limit=3&offset=3", token=token).get_json()
    assert [x["id"] for x in second["entries"]] == [x["id"] for x in everything["entries"][3:6]]
    table2 = api.get(f"{e}/log?table=2", token=token).get_json()["entries"]
    assert table2 and all(x["table"] == 2 for x in table2)
    votes = api.get(f"{e}/log?action=vote", token=token).get_json()["entries"]
    assert len(votes) == 2 and all(x["action"] == "vote" and x["text"] for x in votes)
