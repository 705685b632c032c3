"""Starting an Archenemy game through /api/v1 (tracker_start, players_tracker_start, and the start tap): the same
StartIn the page reads; every response checked against the generated document."""
from __future__ import annotations

from tests.api.apidoc import refused
from tests.games.schemecards import scheme_cards, scheme_list  # noqa: F401 - the fixture


def test_staff_start_an_archenemy_game_with_a_pasted_list(api, make_round, token, organizer, scheme_cards):
    event, rnd, regs = make_round(players=4, start=True, variant="archenemy")
    seats = [s.registration_id for s in rnd.tables[0].seats]
    url = f"/events/{event.id}/rounds/1/tables/1/tracker/start"
    names = scheme_cards["schemes"]
    boss = seats[3]
    deck = {"source": "list", "text": scheme_list(names)}
    refused(api.post(url, json={"archenemy": boss, "scheme_decks": {str(boss): deck}}), 401)
    for bad, words in (({"source": "list", "text": scheme_list(names, count=19)}, "19 schemes"),
                       ({"source": "list", "text": "2 Sol Ring\n" + scheme_list(names)}, "Sol Ring is not a scheme"),
                       ({"source": "list", "text": "a" * 20_001}, "20,001 characters"),
                       ({"source": "list", "text": "3 " + names[0] + "\n" + scheme_list(names[1:], count=18)},
                        "3 copies")):
        refused(api.post(url, token=token, json={"archenemy": boss, "scheme_decks": {str(boss): bad}}), 400,
                message=words, field="scheme_decks")
    refused(api.post(url, token=token, json={"variant": "chaos"}), 400, field="variant")
    refused(api.post(url, token=token, json={"archenemy": boss, "colour": "red"}), 400)
    before = api.get(f"/events/{event.id}/rounds/1/tables/1/tracker", token=token).get_json()
    assert before["state"] is None and before["setup"]["variant"] == "archenemy"
    started = api.post(url, token=token, json={"archenemy": boss, "seed": 9, "scheme_decks": {str(boss): deck}})
    state = started.get_json()["state"]
    assert state["archenemy"] == boss and state["turn_order"][0] == boss
    assert {p["id"]: p["life"] for p in state["players"]} == {p: 40 if p == boss else 20 for p in seats}
    refused(api.post(url, token=token, json={}), 409, message="already started")


def test_a_player_starts_a_rumble_with_scheme_decks_but_not_another_archenemy(api, make_round, scheme_cards):
    event, rnd, regs = make_round(players=4, start=True, variant="supervillain_rumble")
    seats = [s.registration_id for s in rnd.tables[0].seats]
    code = {r.id: r.access_code for r in regs}
    url = f"/players/{code[seats[0]]}/tracker/start"
    refused(api.post(url, json={"variant": "archenemy", "archenemy": seats[0]}), 403)
    decks = {str(p): {"source": "paper", "text": None} for p in seats[:3]}        # text null: none given
    refused(api.post(url, json={"scheme_decks": decks}), 400, message="Player", field="scheme_decks")  # the 4th
    decks[str(seats[3])] = {"source": "list", "text": scheme_list(scheme_cards["schemes"])}
    refused(api.post("/players/NOPE/tracker/start", json={"scheme_decks": decks}), 404)
    state = api.post(url, json={"scheme_decks": decks}).get_json()["state"]
    assert state["variant"] == "rumble" and all(p["life"] == 40 for p in state["players"])
    sources = {p["id"]: p["scheme_source"] for p in state["players"]}
    assert sources == {**{p: "paper" for p in seats[:3]}, seats[3]: "list"}


def test_the_start_tap_reads_the_same_schema(api, make_round, token, scheme_cards):
    event, rnd, regs = make_round(players=4, start=True, variant="archenemy")
    seats = [s.registration_id for s in rnd.tables[0].seats]
    url = f"/events/{event.id}/rounds/1/tables/1/tracker"
    refused(api.post(url, token=token, json={"action": "start", "archenemy": seats[1], "scheme_decks": {
        str(seats[1]): [{"name": "Feed the Machine", "ongoing": False}]}}), 400, field="scheme_decks")
    state = api.post(url, token=token, json={"action": "start", "archenemy": seats[1], "scheme_decks": {
        str(seats[1]): {"source": "list", "text": scheme_list(scheme_cards["schemes"])}}}).get_json()["state"]
    assert state["archenemy"] == seats[1]
