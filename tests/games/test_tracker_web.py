"""The tracker's pages and JSON actions: staff and seated players only; hostile input is a 4xx, nothing stored."""
import sqlalchemy as sa

from tournament.events import operations as events
from tournament.games.models import TrackerEvent
from tournament.rounds import operations as rounds


def setup_round(db, make_event, make_player, judge, n=8):
    event = make_event()
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, n + 1)]
    for reg in regs:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    rounds.publish_round(rnd, judge)
    db.session.commit()
    by_id = {r.id: r for r in regs}
    return event, rnd, by_id


def count(db):
    return db.session.execute(sa.select(sa.func.count(TrackerEvent.id))).scalar()


def test_player_page_and_actions(db, client, make_event, make_player, judge):
    event, rnd, by_id = setup_round(db, make_event, make_player, judge)
    t1 = rnd.tables[0]
    a = by_id[t1.seats[0].registration_id]
    url = f"/p/{a.access_code}/tracker"
    page = client.get(url)
    assert page.status_code == 200 and b"tracker.js" in page.data
    r = client.post(url, json={"action": "start"})
    assert r.status_code == 200 and r.json["state"]["players"][0]["life"] == 40
    r = client.post(url, json={"action": "life", "player": a.id, "delta": -3})
    assert r.status_code == 200
    assert [p["life"] for p in r.json["state"]["players"] if p["id"] == a.id] == [37]
    stored = count(db)
    other_table_player = rnd.tables[1].seats[0].registration_id
    for body in ({"action": "life", "player": a.id, "delta": "lots"}, {"action": "life", "player": 999999},
                 {"action": "life", "player": other_table_player, "delta": 1}, {"action": 5}, ["life"],
                 {"action": "general_damage", "victim": a.id, "owner": a.id, "amount": 1.5},
                 {"action": "venture", "player": a.id, "dungeon": {"x": 1}},
                 {"action": "start"}, {"action": "end", "extra": 1} if False else {"action": "bogus"}):
        r = client.post(url, json=body)
        assert 400 <= r.status_code < 500, body
        assert r.json["error"]["message"]
    assert count(db) == stored
    r = client.post(url, data="not json", content_type="application/json")
    assert r.status_code == 400
    assert client.get("/p/NOSUCHCODE/tracker", headers={"Accept": "application/json"}).status_code == 404


def test_staff_route_needs_login(db, client, login, make_event, make_player, judge):
    event, rnd, by_id = setup_round(db, make_event, make_player, judge)
    url = f"/events/{event.id}/rounds/1/tables/1/tracker"
    assert client.get(url).status_code == 302
    assert client.post(url, json={"action": "start"}).status_code == 401
    login(judge)
    assert client.get(url).status_code == 200
    r = client.post(url, json={"action": "start", "variant": "archenemy", "scheme_decks": "x"})
    assert r.status_code == 400 and count(db) == 0
    r = client.post(url, json={"action": "start", "variant": "rumble", "bogus": 1})
    assert r.status_code == 400 and count(db) == 0
    r = client.post(url, json={"action": "start"})
    assert r.status_code == 200
    assert client.get(url + "?format=json").json["state"]["turn_order"]
    assert client.get(f"/events/{event.id}/rounds/1/tables/99/tracker",
                      headers={"Accept": "application/json"}).status_code == 404


def test_a_player_cannot_make_themselves_the_archenemy(db, client, make_event, make_player, judge):
    """40 life and 3 points are a judge's decision (or the event's rotation), never a player's."""
    event, rnd, by_id = setup_round(db, make_event, make_player, judge)
    table = rnd.tables[0]
    a = by_id[table.seats[0].registration_id]
    url = f"/p/{a.access_code}/tracker"
    for body in ({"action": "start", "variant": "archenemy", "archenemy": a.id},
                 {"action": "start", "archenemy": a.id},
                 {"action": "start", "variant": "archenemy"}):
        r = client.post(url, json=body)
        assert r.status_code == 403 and "judge" in r.json["error"]["message"], body
    r = client.post(url, json={"action": "start", "scheme_decks": {str(a.id): {"source": "paper"}}})
    assert r.status_code == 400 and "Only an Archenemy game" in r.json["error"]["message"]  # a normal event
    assert count(db) == 0
    db.session.expire_all()
    assert db.session.get(type(table), table.id).archenemy_id is None
    r = client.post(url, json={"action": "start", "variant": "normal"})         # the event's own rules
    assert r.status_code == 200 and r.json["state"]["archenemy"] is None
