"""Penalties through /api/v1: give, list, withdraw, the refusals, and the penalties in the event's export.
Every answer is checked against the generated OpenAPI document (tests/api/apidoc.py)."""
from __future__ import annotations

import pytest

from tournament.penalties.models import Penalty
from tournament.rounds import operations as rounds

from tests.api.apidoc import refused


def test_the_document_declares_the_penalty_operations_once(api):
    ops = {op["operationId"]: (path, method) for path, item in api.doc["paths"].items()
           for method, op in item.items() if isinstance(op, dict) and "operationId" in op}
    assert ops["penalties_give"] == ("/events/{event_id}/penalties", "post")
    assert ops["penalties_list"][1] == "get" and ops["penalties_withdraw"][1] == "post"
    body = api.doc["components"]["schemas"]["PenaltyIn"]
    assert "tardiness" in body["properties"]["infraction"]["enum"]
    assert body["properties"]["note"]["maxLength"] == 1000


def test_a_match_loss_through_the_api_reaches_the_standings_and_the_export(api, db, duel, token, organizer):
    event, rnd, regs = duel
    table = next(t for t in rnd.tables if t.kind == "match")
    a, b = (s.registration for s in table.seats)
    e = f"/events/{event.id}"
    response = api.post(f"{e}/penalties", token=token, json={
        "registration_id": a.id, "infraction": "outside_assistance", "note": "Phone at the table <b>x</b>",
        "key": "api-1"})
    assert response.status_code == 201
    body = response.get_json()
    assert body["penalty"] == "match_loss" and body["loss"] == "match" and body["round"] == 1
    assert body["table"] == table.number and body["given_by"] == "organizer:Olga Organizer"
    assert body["note"] == "Phone at the table <b>x</b>"
    again = api.post(f"{e}/penalties", token=token, json={
        "registration_id": a.id, "infraction": "outside_assistance", "key": "api-1"})
    assert again.status_code == 201 and again.get_json()["id"] == body["id"]
    assert db.session.query(Penalty).count() == 1
    rows = {r["player_id"]: r for r in api.get(f"{e}/standings", token=token).get_json()["standings"]}
    assert rows[b.id]["points"] == 3 and rows[b.id]["record"]["wins"] == 1
    assert rows[a.id]["points"] == 0 and rows[a.id]["penalty_losses"] == 1 and not rows[a.id]["disqualified"]
    listed = api.get(f"{e}/penalties", token=token).get_json()["penalties"]
    assert [p["id"] for p in listed] == [body["id"]]
    export = api.get(f"{e}/export", token=token).get_json()
    (exported,) = export["penalties"]
    assert exported["player_id"] == a.id and exported["penalty"] == "match_loss" and not exported["withdrawn"]
    assert exported["note"] == "Phone at the table <b>x</b>"


def test_the_public_export_leaves_out_notes_and_who_gave_them(api, db, pods, give, judge, organizer):
    event, rnd, regs = pods
    give(event, regs[0], "slow_play", note="Private words.")
    for t in rnd.tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    rounds.finish_round(rnd, judge)
    rounds.finish_event(event, organizer)
    event.publish_decklists = True
    db.session.commit()
    (exported,) = api.get(f"/events/{event.id}/export").get_json()["penalties"]
    assert exported["penalty"] == "warning" and exported["note"] is None and exported["given_by"] is None


def test_withdrawing_through_the_api(api, db, pods, give, token):
    event, rnd, regs = pods
    penalty = give(event, regs[0], "tardiness")
    e = f"/events/{event.id}"
    refused(api.post(f"{e}/penalties/{penalty.id}/withdraw", token=token, json={}), 400, field="reason")
    refused(api.post(f"{e}/penalties/{penalty.id}/withdraw", token=token, json={"reason": "   "}), 400)
    body = api.post(f"{e}/penalties/{penalty.id}/withdraw", token=token, json={"reason": "Wrong table"}).get_json()
    assert body["withdrawn_at"] and body["withdraw_reason"] == "Wrong table"
    refused(api.post(f"{e}/penalties/{penalty.id}/withdraw", token=token, json={"reason": "x"}), 409)
    refused(api.post(f"{e}/penalties/99999/withdraw", token=token, json={"reason": "x"}), 404)


@pytest.mark.parametrize("body, status, field", [
    ({"infraction": "slow_play"}, 400, "registration_id"),
    ({"registration_id": "1", "infraction": "slow_play"}, 400, "registration_id"),
    ({"registration_id": 1, "infraction": "napping"}, 400, "infraction"),
    ({"registration_id": 1, "infraction": "slow_play", "penalty": "ban"}, 400, "penalty"),
    ({"registration_id": 1, "infraction": "slow_play", "round": 1.5}, 400, "round"),
    ({"registration_id": 1, "infraction": "slow_play", "game": True}, 400, "game"),
    ({"registration_id": 1, "infraction": "slow_play", "note": "a\u0000b"}, 400, "note"),
    ({"registration_id": 1, "infraction": "slow_play", "extra": 1}, 400, "extra"),
    ({"registration_id": 2147483648, "infraction": "slow_play"}, 400, "registration_id"),
    ({"registration_id": 999999, "infraction": "slow_play"}, 400, "registration_id"),
    ({"registration_id": 1, "infraction": "tardiness", "round": 9}, 409, "round"),
])
def test_bad_bodies_are_refused_naming_the_field(api, pods, token, body, status, field):
    event, rnd, regs = pods
    if body.get("registration_id") == 1:
        body = {**body, "registration_id": regs[0].id}
    refused(api.post(f"/events/{event.id}/penalties", token=token, json=body), status, field=field)


def test_tokens_and_events(api, pods, token, other_token):
    event, rnd, regs = pods
    body = {"registration_id": regs[0].id, "infraction": "slow_play"}
    refused(api.post(f"/events/{event.id}/penalties", json=body), 401)
    refused(api.post(f"/events/{event.id}/penalties", token=other_token, json=body), 403)
    refused(api.get(f"/events/{event.id}/penalties", token=other_token), 403)
    refused(api.post("/events/999999/penalties", token=token, json=body), 404)
    refused(api("POST", f"/events/{event.id}/penalties", token=token, data="x", content_type="text/plain"), 415)
