"""Swaps through the JSON API: players by access code, staff by token; concurrent submissions."""
import threading

import pytest
import sqlalchemy as sa

from tests.api.openapi_check import Document
from tournament.auth.operations import issue_token
from tournament.swaps.models import DeckVersion, Swap

from conftest import SIDEBOARD, expire_window, main_cards  # noqa: I100

OUT = main_cards()


_documents = {}


def checked(response, method, url):
    """The response as the generated OpenAPI document says (jsonschema, tests/api/openapi_check.py)."""
    from flask import current_app
    app = current_app._get_current_object()
    doc = _documents.get(id(app)) or _documents.setdefault(id(app), Document(app))
    assert not doc.response_problems(method, url, response.status_code, response.get_json())
    return response


def post(client, url, body, headers=None):
    return checked(client.post(url, json=body, headers=headers or {}), "POST", url)


def test_player_submits_reads_and_undoes_through_the_api(client, db, started_table):
    _event, table, regs = started_table()
    url = f"/api/v1/players/{regs[0].access_code}/swaps"
    state = checked(client.get(url), "GET", url).get_json()
    assert state["window"]["open"] and state["deck"]["main_count"] == 99 and state["swaps"] == []
    r = post(client, url, {"pairs": [{"out": OUT[0], "in": "Lightning Bolt"}, {"out": OUT[1], "in": "Grindstone"}]})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert [(s["out"], s["in"]) for s in body["made"]] == [(OUT[0], "Lightning Bolt"), (OUT[1], "Grindstone")]
    assert "Lightning Bolt" in body["deck"]["main"]
    r = post(client, url, {"undo": [body["made"][0]["id"]]})
    assert r.status_code == 200 and r.get_json()["undone"] == [body["made"][0]["id"]]
    assert "Lightning Bolt" in r.get_json()["deck"]["sideboard"]
    r = post(client, url, {"pairs": [{"out": "Kenrith, the Returned King", "in": "Utter End"}]})
    assert r.status_code == 409 and "general" in r.get_json()["error"]["message"]
    r = post(client, url, {"pairs": "Sol Ring"})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "pairs"
    r = post(client, url, {"pairs": [], "colour": 1})
    assert r.status_code == 400
    expire_window(db, table)
    r = post(client, url, {"pairs": [{"out": OUT[2], "in": "Utter End"}]})
    assert r.status_code == 409 and "closed" in r.get_json()["error"]["message"]


def test_staff_enter_and_override_through_the_api(client, db, started_table, judge):
    event, table, regs = started_table()
    token = issue_token(judge)
    db.session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    url = f"/api/v1/events/{event.id}/registrations/{regs[1].id}/swaps"
    assert client.post(url, json={"pairs": []}).status_code == 401
    expire_window(db, table)
    r = post(client, url, {"pairs": [{"out": OUT[0], "in": "Riftsweeper"}]}, headers)
    assert r.status_code == 409 and r.get_json()["error"]["field"] == "override_reason"
    r = post(client, url, {"pairs": [{"out": OUT[0], "in": "Riftsweeper"}], "override_reason": "Deck check fix"},
             headers)
    assert r.status_code == 200, r.get_json()
    log = r.get_json()["log"]
    assert log[0]["entered_by"] == "judge:Jan Judge" and log[0]["override_reason"] == "Deck check fix"
    got = checked(client.get(url, headers=headers), "GET", url).get_json()
    assert got["log"] == log


def _submissions(regs, per_player=10):
    """Distinct pairs for each player, plus repeats of some of them (exactly one of each repeat may win)."""
    jobs = []
    for reg in regs:
        for i in range(per_player):
            jobs.append((reg.access_code, OUT[i], SIDEBOARD[i]))
    return jobs


def _verify(db, regs, table, per_player):
    db.session.expire_all()
    rows = db.session.execute(sa.select(Swap).where(Swap.undone_at.is_(None))).scalars().all()
    by_reg = {}
    for s in rows:
        by_reg.setdefault(s.registration_id, []).append((s.card_out, s.card_in))
    for reg in regs:
        pairs = by_reg.get(reg.id, [])
        assert len(pairs) == len(set(pairs)) == per_player, (reg.name, pairs)
        assert sorted(pairs) == sorted(zip(OUT[:per_player], SIDEBOARD[:per_player]))
        v = db.session.execute(sa.select(DeckVersion).where(DeckVersion.registration_id == reg.id)).scalar_one()
        assert v.main_count == 99 and sum(v.main.values()) == 99
        assert set(SIDEBOARD[:per_player]) <= set(v.main) and not set(OUT[:per_player]) & set(v.main)


def test_many_swap_submissions_serially_on_any_database(client, db, started_table):
    _event, table, regs = started_table(n=4)
    jobs = _submissions(regs, per_player=3)
    for code, out, into in jobs + jobs[:4]:
        r = client.post(f"/api/v1/players/{code}/swaps", json={"pairs": [{"out": out, "in": into}]})
        assert r.status_code in (200, 409)
    _verify(db, regs, table, 3)


def test_50_concurrent_swap_submissions_lose_and_duplicate_nothing(app, db, started_table):
    """4 players (a full pod) x 10 swaps each, plus 10 repeats of swaps already sent, all at the same moment."""
    _event, table, regs = started_table(n=4)
    jobs = _submissions(regs, per_player=10)
    jobs += jobs[:10]                                   # the same pair sent twice: one wins, one is refused
    assert len(jobs) == 50
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)

    def run(i, code, out, into):
        client = app.test_client()
        barrier.wait()
        r = client.post(f"/api/v1/players/{code}/swaps", json={"pairs": [{"out": out, "in": into}]})
        results[i] = (r.status_code, r.get_json())

    threads = [threading.Thread(target=run, args=(i, *job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    statuses = [r[0] for r in results]
    assert statuses.count(200) == 40, results
    assert statuses.count(409) == 10, [r for r in results if r[0] != 200]
    _verify(db, regs, table, 10)
