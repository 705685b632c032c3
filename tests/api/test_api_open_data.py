"""Open data (format edh-open-data, version 1): a 64-player event exported through the API validates against the
JSON Schema in the repo, keeps the seat order, says nothing private, and is public exactly when the standings are."""
from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from tests.api.apidoc import refused
from tournament.events import open_data
from tournament.events import operations as events
from tournament.events.open_data_models import FILES, SCHEMAS, json_schema
from tournament.rounds import operations as rounds

DEMO = Path(__file__).resolve().parents[2] / "tournament" / "data" / "demo_decks"
KENRITH = (DEMO / "kenrith.txt").read_text(encoding="utf-8")
MARKUP = "<script>alert('x')</script> =HYPERLINK(\"x\")"


def _schema(name="open-data-v1.schema.json") -> dict:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def play_event(db, event, judge, players: int, rounds_count: int, seed: int = 5) -> list:
    """Register, check in and play `rounds_count` Swiss rounds with seeded plausible results and votes (as
    scripts/simulate_event.py), a drop after round 1."""
    rng = random.Random(seed)
    regs = []
    for i in range(players):
        data = {"name": MARKUP if i == 0 else f"Player {i:02d}", "contact": f"secret-{i}@example.org",
                "player_id": f"PID-{i:05d}"}
        if i < 2:
            data["decklist"] = KENRITH
        regs.append(events.register_player(event, data, user=judge))
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    for number in range(1, rounds_count + 1):
        rnd = rounds.pair_next_round(event, judge, seed=rng.randrange(2**62), override_decks=True)
        rounds.publish_round(rnd, judge)
        rounds.start_round(rnd, judge)
        for table in rnd.tables:
            ids = [s.registration_id for s in table.seats]
            if table.kind != "pod":
                continue
            survivors = rng.sample(ids, rng.choice([1, 1, 2]))
            eliminated = [i for i in ids if i not in survivors]
            rng.shuffle(eliminated)
            rounds.report_pod_result(table, survivors, eliminated, user=judge)
            for voter in ids:
                rounds.cast_vote(table, voter, rng.choice([i for i in ids if i != voter]), user=judge)
        rounds.finish_round(rnd, judge)
        db.session.commit()
        if number == 1:
            events.drop(regs[5], judge)
            db.session.commit()
    return regs


@pytest.fixture
def sixty_four(db, make_event, judge, organizer):
    event = make_event(name="Open data night")
    regs = play_event(db, event, judge, 64, 3)
    rounds.finish_event(event, organizer)
    event.publish_decklists = True
    db.session.commit()
    return event, regs


def test_a_64_player_event_validates_against_the_schema_in_the_repo(api, client, sixty_four):
    event, regs = sixty_four
    data = api.get(f"/events/{event.id}/open-data").get_json()
    jsonschema.validate(data, _schema(), cls=jsonschema.Draft202012Validator)
    assert data["format"] == "edh-open-data" and data["version"] == 1
    assert data["event"]["rounds"] == 3 and data["event"]["generals_public"] is True
    assert len(data["players"]) == 64 and len(data["standings"]) == 64
    stored = {(r.number, t.number): [s.registration_id for s in t.seats]
              for r in rounds.rounds_of(event) for t in rounds.with_tables(r).tables}
    assert len(data["tables"]) == len(stored) == 48
    for t in data["tables"]:
        assert [s["player_id"] for s in t["seats"]] == stored[(t["round"], t["table"])]
        assert [s["starting_player"] for s in t["seats"]] == [True] + [False] * (len(t["seats"]) - 1)
        assert {s["outcome"] for s in t["seats"]} <= {"survived", "eliminated", "draw"}
        assert ("draw" in {s["outcome"] for s in t["seats"]}) == (t["result"]["draw"] is not None)
        assert sorted(s["eliminated_order"] for s in t["seats"] if s["outcome"] == "eliminated") == \
            list(range(1, len(t["result"]["eliminated"]) + 1))
        assert sum(s["votes_received"] for s in t["seats"]) == len(t["votes"]) == len(t["seats"])
    assert data["players"][0]["general"] == ["Kenrith, the Returned King"]
    assert data["players"][0]["name"] == MARKUP
    assert data["drops"] == [{"player_id": regs[5].id, "after_round": 1}]
    standings = rounds.standings(event)
    assert [r["player_id"] for r in data["standings"]] == [r.player for r in standings]
    assert all(set(r["tiebreakers"]) == set(standings[0].tiebreakers) for r in data["standings"])

    table = list(csv.DictReader(io.StringIO(client.get(f"/api/v1/events/{event.id}/open-data.csv")
                                            .get_data(as_text=True))))
    assert len(table) == sum(len(t["seats"]) for t in data["tables"]) == 64 * 3 - 2     # the dropped player
    assert tuple(table[0]) == open_data.CSV_COLUMNS
    assert Counter(r["starting_player"] for r in table)["1"] == 48
    assert {r["name"] for r in table if r["player_id"] == str(regs[0].id)} == {MARKUP}


def test_nothing_private_is_in_it(api, client, sixty_four, db):
    event, regs = sixty_four
    texts = [api.get(f"/events/{event.id}/open-data").get_data(as_text=True),
             client.get(f"/api/v1/events/{event.id}/open-data.csv").get_data(as_text=True)]
    for reg in regs:
        for text in texts:
            for secret in (reg.access_code, reg.contact, reg.player_id):
                assert secret not in text
    assert all("access_code" not in t and "contact" not in t and "notes" not in t for t in texts)


def test_public_exactly_when_the_standings_are(api, client, db, make_event, judge, token, other_token, make_player):
    event = make_event(name="Not yet")
    for i in range(8):
        make_player(event, f"P{i}")
    for path in (f"/events/{event.id}/open-data", "/events/999999/open-data"):
        refused(api.get(path), 404)
    refused(api.get(f"/events/{event.id}/open-data", token=other_token), 404)
    refused(api.get(f"/events/{event.id}/open-data", token="bad"), 401)
    assert client.get(f"/api/v1/events/{event.id}/open-data.csv").status_code == 404
    staff_view = api.get(f"/events/{event.id}/open-data", token=token).get_json()
    assert staff_view["tables"] == [] and staff_view["event"]["generals_public"] is False

    for reg in event.registrations:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    db.session.commit()
    refused(api.get(f"/events/{event.id}/open-data"), 404)            # a draft is not public
    rounds.publish_round(rnd, judge)
    db.session.commit()
    data = api.get(f"/events/{event.id}/open-data").get_json()
    assert [t["result"] for t in data["tables"]] == [None, None]
    assert all(s["outcome"] is None for t in data["tables"] for s in t["seats"])
    assert client.get(f"/api/v1/events/{event.id}/open-data.csv").headers["Content-Type"] == \
        "text/csv; charset=utf-8"


def test_the_schema_files_are_generated_from_the_declared_models():
    for name in FILES:
        assert _schema(name) == json.loads(json.dumps(json_schema(name))), \
            "run .venv/bin/python -m tournament.events.open_data_models"


def _export(kind, seats, result, votes=()):
    return {"event": {"id": 1, "name": "E", "date": None, "status": "finished", "mode": "duel" if kind == "match"
                      else "pods", "variant": "none", "pod_size": 4, "scoring_profile": "x", "top_cut": 0},
            "players": [{"player_id": p, "name": f"n{p}", "general": [f"G{p}"]} for p in seats],
            "rounds": [{"number": 1, "stage": "swiss", "tables": [
                {"number": 1, "kind": kind, "seats": [{"seat": i + 1, "player_id": p} for i, p in enumerate(seats)],
                 "result": result, "votes": list(votes)}]}], "drops": []}


def test_outcomes_per_seat_pure():
    draw = {"state": "confirmed", "survivors": [3, 4], "eliminated": [2, 1], "draw": "time", "games": []}
    doc = open_data.event_document(_export("pod", [4, 3, 2, 1], draw), [], generals_public=False)
    seats = doc["tables"][0]["seats"]
    assert [(s["player_id"], s["outcome"], s["eliminated_order"]) for s in seats] == \
        [(4, "draw", None), (3, "draw", None), (2, "eliminated", 1), (1, "eliminated", 2)]
    assert all(s["general"] == [] for s in seats) and doc["players"][0]["general"] == []
    match = {"state": "confirmed", "survivors": [], "eliminated": [], "draw": None, "games": [7, None, 8]}
    doc = open_data.event_document(_export("match", [7, 8], match), [], generals_public=True)
    assert [(s["outcome"], s["game_wins"], s["general"]) for s in doc["tables"][0]["seats"]] == \
        [("draw", 1, ["G7"]), ("draw", 1, ["G8"])]
    jsonschema.validate(doc, _schema(), cls=jsonschema.Draft202012Validator)
    text = open_data.to_csv(doc)
    assert text.splitlines()[1].startswith("1,1,swiss,1,match,1,1,7,n7,G7,confirmed,draw,,1,,,")
    doc["players"][0]["name"] = "=HYPERLINK(\"http://x\")"                   # a spreadsheet formula as a name
    rows = list(csv.DictReader(io.StringIO(open_data.to_csv(doc))))
    assert rows[0]["name"] == "'=HYPERLINK(\"http://x\")" and rows[1]["name"] == "n8"


def test_a_duel_event_with_a_bye(api, db, make_round, judge):
    event, rnd, _regs = make_round(players=5, start=True, mode="duel", ruleset="duel-cn")
    match = next(t for t in rnd.tables if t.kind == "match")
    ids = [s.registration_id for s in match.seats]
    rounds.report_duel_games(match, [ids[1], ids[0], ids[1]], user=judge)
    db.session.commit()
    data = api.get(f"/events/{event.id}/open-data").get_json()
    jsonschema.validate(data, _schema(), cls=jsonschema.Draft202012Validator)
    tables = {t["table"]: t for t in data["tables"]}
    bye = next(t for t in data["tables"] if t["kind"] == "bye")
    assert bye["result"] is None and [s["outcome"] for s in bye["seats"]] == ["bye"]
    played = tables[match.number]
    assert [(s["player_id"], s["outcome"], s["game_wins"]) for s in played["seats"]] == \
        [(ids[0], "loss", 1), (ids[1], "win", 2)]
    assert played["result"]["games"] == [ids[1], ids[0], ids[1]] and played["votes"] == []
