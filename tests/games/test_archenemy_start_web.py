"""Starting an Archenemy game (or a Supervillain Rumble) from the tracker page: the archenemy chosen at the
table, each scheme deck from the registered list, a pasted list or paper; bad lists refused, nothing stored."""
import threading

import sqlalchemy as sa

from tournament.events import operations as events
from tournament.events.audit import AuditEntry
from tournament.games.models import TrackerEvent
from tournament.rounds import operations as rounds

from tests.games.schemecards import scheme_list

HEADERS = {"Accept": "application/json"}


def archenemy_round(db, make_event, make_player, judge, variant="archenemy", decklists=None):
    event = make_event(variant=variant)
    decklists = decklists or {}
    regs = [make_player(event, f"Player {i:02d}", decklist=decklists.get(i)) for i in range(1, 5)]
    for reg in regs:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    rounds.publish_round(rnd, judge)
    db.session.commit()
    return event, rnd, {r.id: r for r in regs}


def starts(db):
    return db.session.execute(sa.select(sa.func.count(TrackerEvent.id))).scalar()


def start_log(db, event):
    return [e.details for e in db.session.execute(sa.select(AuditEntry).where(
        AuditEntry.event_id == event.id, AuditEntry.action == "tracker.start")).scalars()]


def test_staff_choose_the_archenemy_and_paste_a_scheme_list(db, client, login, make_event, make_player, judge,
                                                            scheme_cards):
    event, rnd, by_id = archenemy_round(db, make_event, make_player, judge)
    seats = [s.registration_id for s in rnd.tables[0].seats]
    url = f"/events/{event.id}/rounds/1/tables/1/tracker"
    login(judge)
    page = client.get(url).get_data(as_text=True)
    assert 'id="tracker-archenemy"' in page and f'id="schemes-{seats[2]}"' in page
    assert "Paste a list of scheme cards" in page and "Scheme cards brought on paper" in page
    setup = client.get(url, headers=HEADERS).json["setup"]
    assert setup["variant"] == "archenemy" and setup["suggested_archenemy"] in seats
    assert setup["registered_schemes"] == {str(p): 0 for p in seats}
    boss = seats[2]
    body = {"action": "start", "variant": "archenemy", "archenemy": boss,
            "scheme_decks": {str(boss): {"source": "list", "text": scheme_list(scheme_cards["schemes"])}}}
    r = client.post(url, json=body, headers=HEADERS)
    assert r.status_code == 200, r.json
    state = r.json["state"]
    assert state["archenemy"] == boss and state["turn_order"][0] == boss
    players = {p["id"]: p for p in state["players"]}
    assert players[boss]["life"] == 40 and players[boss]["schemes"]["cards_left"] == 20
    assert players[boss]["scheme_source"] == "list"
    assert all(players[p]["life"] == 20 and players[p]["schemes"] is None for p in seats if p != boss)
    assert r.json["setup"] is None
    db.session.expire_all()
    assert rnd.tables[0].archenemy_id == boss
    assert start_log(db, event)[-1]["scheme_decks"] == {str(boss): {"source": "list", "cards": 20, "checked": True}}
    r = client.post(url, json={"action": "scheme", "player": boss}, headers=HEADERS)
    assert r.status_code == 200
    assert [p for p in r.json["state"]["players"] if p["id"] == boss][0]["schemes"]["last"] in scheme_cards["schemes"]


def test_a_player_starts_with_the_suggested_archenemy_and_paper_schemes(db, client, make_event, make_player, judge):
    event, rnd, by_id = archenemy_round(db, make_event, make_player, judge)
    seats = [s.registration_id for s in rnd.tables[0].seats]
    me = by_id[seats[1]]
    url = f"/p/{me.access_code}/tracker"
    page = client.get(url).get_data(as_text=True)
    assert 'id="tracker-archenemy" disabled' in page and 'id="tracker-variant" disabled' in page
    suggested = client.get(url, headers=HEADERS).json["setup"]["suggested_archenemy"]
    r = client.post(url, json={"action": "start"}, headers=HEADERS)          # no scheme deck: says what to do
    assert r.status_code == 400 and "has no scheme cards" in r.json["error"]["message"]
    assert "paste their scheme list" in r.json["error"]["message"] and starts(db) == 0
    r = client.post(url, json={"action": "start", "scheme_decks": {str(suggested): {"source": "paper"}}},
                    headers=HEADERS)
    assert r.status_code == 200, r.json
    boss = [p for p in r.json["state"]["players"] if p["id"] == suggested][0]
    assert r.json["state"]["archenemy"] == suggested and boss["schemes"]["paper"] is True
    assert start_log(db, event)[-1]["scheme_decks"] == {str(suggested): {"source": "paper", "cards": 0,
                                                                        "checked": False}}
    assert start_log(db, event)[-1]["archenemy"] == suggested
    r = client.post(url, json={"action": "scheme", "player": suggested}, headers=HEADERS)
    assert r.status_code == 400 and "on paper" in r.json["error"]["message"]


def test_the_registered_lists_schemes(db, client, login, make_event, make_player, judge, scheme_cards):
    names = scheme_cards["schemes"]
    decklist = "Commander\n1 Phelddagrif\n\nDeck\n1 Sol Ring\n\nSchemes\n" + scheme_list(names)
    event, rnd, by_id = archenemy_round(db, make_event, make_player, judge, decklists={i: decklist for i in (1, 2, 3, 4)})
    seats = [s.registration_id for s in rnd.tables[0].seats]
    url = f"/events/{event.id}/rounds/1/tables/1/tracker"
    login(judge)
    assert client.get(url, headers=HEADERS).json["setup"]["registered_schemes"] == {str(p): 20 for p in seats}
    page = client.get(url).get_data(as_text=True)
    assert "schemes (20 cards)" in page, page[page.find("scheme-source"):][:600]
    r = client.post(url, json={"action": "start", "variant": "rumble",
                               "scheme_decks": {str(seats[0]): {"source": "paper"}}}, headers=HEADERS)
    assert r.status_code == 200, r.json
    state = r.json["state"]
    assert state["variant"] == "rumble" and state["archenemy"] is None
    players = {p["id"]: p for p in state["players"]}
    assert all(p["life"] == 40 and p["archenemy"] for p in players.values())
    assert players[seats[0]]["schemes"]["paper"] and players[seats[1]]["schemes"]["cards_left"] == 20
    assert {p: d["source"] for p, d in start_log(db, event)[-1]["scheme_decks"].items()} == {
        str(seats[0]): "paper", **{str(p): "registered" for p in seats[1:]}}


def test_bad_scheme_lists_are_refused_and_nothing_is_stored(db, client, login, make_event, make_player, judge,
                                                             scheme_cards):
    event, rnd, by_id = archenemy_round(db, make_event, make_player, judge)
    seats = [s.registration_id for s in rnd.tables[0].seats]
    boss = seats[0]
    url = f"/events/{event.id}/rounds/1/tables/1/tracker"
    login(judge)
    names = scheme_cards["schemes"]

    def start(text, **more):
        deck = {"source": "list", "text": text}
        return client.post(url, json={"action": "start", "archenemy": boss, "scheme_decks": {str(boss): deck},
                                      **more}, headers=HEADERS)
    cases = [
        (scheme_list(names, count=19), "has 19 schemes; an archenemy needs at least 20"),
        ("3 Feed the Machine\n" + scheme_list([n for n in names if n != "Feed the Machine"], count=18),
         "Feed the Machine: 3 copies; at most 2"),
        (scheme_list(names) + "\n1 Lightning Bolt", "Lightning Bolt is not a scheme card"),
        ("<img src=x onerror=alert(1)>\n" + scheme_list(names), "<img src=x onerror=alert(1)> is not a card"),
        ("x" * 20_001, "The scheme list is 20,001 characters; paste at most 20,000"),
        ("Feed the Machine\n" * 300, "The list has 300 cards; a scheme deck here holds at most 200."),
        ("   ", "Paste Player"),
        ("2 Feed the Machine\x00\n" * 20, "scheme list cannot be read"),
        ("\x01\x02\x03\x04" * 50, "scheme list cannot be read"),
    ]
    for text, expected in cases:
        r = start(text)
        assert r.status_code == 400 and expected in r.json["error"]["message"], (text[:40], r.json)
        assert r.json["error"]["field"] == "scheme_decks"
    for deck, expected in (({str(seats[1]): {"source": "paper"}}, "is not one at this table"),
                           ({"x": {"source": "paper"}}, "is not one at this table"),
                           ({"²": {"source": "paper"}}, "is not one at this table"),
                           ({str(boss): {"source": "dice"}}, "scheme_decks"),
                           ({str(boss): {"source": "list", "text": 5}}, "must be text"),
                           ({str(boss): [{"name": "Feed the Machine", "ongoing": False}]}, "scheme_decks")):
        r = client.post(url, json={"action": "start", "archenemy": boss, "scheme_decks": deck}, headers=HEADERS)
        assert r.status_code == 400 and expected in r.json["error"]["message"], (deck, r.json)
    r = client.post(url, json={"action": "start", "variant": "normal",
                               "scheme_decks": {str(boss): {"source": "paper"}}}, headers=HEADERS)
    assert r.status_code == 400 and "Only an Archenemy game" in r.json["error"]["message"]
    r = client.post(url, json={"action": "start", "archenemy": 10**6}, headers=HEADERS)
    assert r.status_code == 400 and "one of the players at this table" in r.json["error"]["message"]
    assert starts(db) == 0 and start_log(db, event) == []


def test_two_simultaneous_starts_store_one_game(db, app, make_event, make_player, judge, scheme_cards):
    """Two phones at the table tap Start at once: one game starts, the other tap is told it already has."""
    event, rnd, by_id = archenemy_round(db, make_event, make_player, judge)
    event_id, table_id = event.id, rnd.tables[0].id
    seats = [s.registration_id for s in rnd.tables[0].seats]
    phones = [f"/p/{by_id[p].access_code}/tracker" for p in seats[:2]]
    boss = app.test_client().get(phones[0], headers=HEADERS).json["setup"]["suggested_archenemy"]
    body = {"action": "start",
            "scheme_decks": {str(boss): {"source": "list", "text": scheme_list(scheme_cards["schemes"])}}}
    db.session.commit()
    db.session.remove()
    barrier = threading.Barrier(2)
    answers, crashes = [], []

    def tap(url):
        try:
            client = app.test_client()
            barrier.wait(timeout=10)
            r = client.post(url, json=body, headers=HEADERS)
            answers.append((r.status_code, r.get_json(silent=True)))
        except BaseException as e:  # noqa: BLE001 - reported by the test thread
            crashes.append(e)
    threads = [threading.Thread(target=tap, args=(url,)) for url in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not crashes, crashes
    assert sorted(status for status, _ in answers) == [200, 409], answers
    refused = [body for status, body in answers if status == 409][0]
    assert "already started" in refused["error"]["message"]
    rows = db.session.execute(sa.select(TrackerEvent).where(TrackerEvent.table_id == table_id)).scalars().all()
    assert [r.kind for r in rows] == ["start"]
    assert len(db.session.execute(sa.select(AuditEntry).where(AuditEntry.event_id == event_id,
                                                              AuditEntry.action == "tracker.start")).all()) == 1
