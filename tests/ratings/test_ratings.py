"""Ratings (openskill Plackett-Luce): deterministic from the results, a correction re-rates (and undoing it gives
the same ratings back), shown on the series page, the player's history and the API; and the series' open data."""
from __future__ import annotations

import json
import random

import jsonschema
import pytest

from tests.api.apidoc import Checked, refused
from tournament.events import operations as events
from tournament.events.open_data_models import SCHEMAS
from tournament.ratings import domain
from tournament.rounds import operations as rounds
from tournament.series import operations as series_ops


def test_pod_and_match_places():
    assert domain.pod_places([3], [1, 2, 4]) == {3: 1, 4: 2, 2: 3, 1: 4}
    assert domain.pod_places([3, 4], [1, 2]) == {3: 1, 4: 1, 2: 3, 1: 4}        # a draw: survivors tie
    assert domain.match_places([7, 8], [7, None, 8]) == {7: 1, 8: 1}             # 1-1-1: a draw
    assert domain.match_places([7, 8], [8, 8]) == {7: 2, 8: 1}


def test_ratings_are_deterministic_and_follow_the_results():
    rng = random.Random(4)
    games = []
    for _ in range(60):
        pod = rng.sample(range(12), 4)
        games.append(domain.Game(domain.pod_places(pod[:1], pod[1:])))
    games.append(domain.Game(domain.match_places([0, 1], [0, None])))
    first = domain.rate(games)
    assert domain.rate(list(games)) == first
    assert domain.rate([domain.Game(dict(reversed(list(g.places.items())))) for g in games]) == first
    assert sum(r.games for r in first.values()) == 60 * 4 + 2
    drawn = domain.rate([domain.Game({"a": 1, "b": 1})])
    assert drawn["a"].mu == drawn["b"].mu == pytest.approx(25)
    won = domain.rate([domain.Game(domain.pod_places(["w"], ["x", "y", "z"]))])
    assert won["w"].mu > won["z"].mu > won["y"].mu > won["x"].mu
    rows = domain.ranked(won, {"w": "W", "x": "X", "y": "Y", "z": "Z"})
    assert [r["name"] for r in rows] == ["W", "Z", "Y", "X"] and rows[0]["rank"] == 1


def _event(db, make_round, judge, organizer, name, seed):
    event, rnd, regs = make_round(players=8, start=True, name=name, seed=seed)
    for t in rnd.tables:
        ids = [s.registration_id for s in t.seats]
        rounds.report_pod_result(t, ids[:1], ids[1:], user=judge)
    rounds.finish_round(rnd, judge)
    rounds.finish_event(event, organizer)
    db.session.commit()
    return event, rnd


@pytest.fixture
def league(db, client, make_round, judge, organizer):
    first, rnd = _event(db, make_round, judge, organizer, "Week 1", 3)
    second, _r = _event(db, make_round, judge, organizer, "Week 2", 11)
    series = series_ops.create_series(organizer, {"name": "League <b>x</b>"})
    for e in (first, second):
        series_ops.add_event(series, organizer, e.id)
    for result in series_ops.pending(series):                                 # the same names: the same people
        series_ops.decide(series, organizer, result.id, True)
    db.session.commit()
    return series, first, rnd


def _set_winner(table, winner: int) -> None:
    """A finished event's result as a later correction leaves it (the rows the ratings are read from), logged as
    every correction is (which bumps the event's state version)."""
    losers = [s for s in table.seats if s.registration_id != winner]
    for s in table.seats:
        s.survived = s.registration_id == winner
        s.eliminated_order = None if s.survived else losers.index(s) + 1
    events.log(table.round.event, "judge:Jan Judge", "result.correct", round=table.round.number, table=table.number)


def test_a_correction_re_rates_and_undoing_it_gives_the_same_ratings(db, client, league, make_round, judge):
    series, _first, rnd = league
    api = Checked(client)
    url = f"/series/{series.id}/ratings"
    before = api.get(url).get_json()["ratings"]
    assert len(before) == 8 and all(r["games"] == 2 for r in before)
    assert api.get(url).get_json()["ratings"] == before                       # nothing stored, same answer
    table = rounds.with_tables(rnd).tables[0]
    ids = [s.registration_id for s in table.seats]
    _set_winner(table, ids[-1])
    db.session.commit()
    assert api.get(url).get_json()["ratings"] != before
    _set_winner(table, ids[0])
    db.session.commit()
    assert api.get(url).get_json()["ratings"] == before

    # across the server: a running event's staff correction re-rates at once, and undoing it restores the ratings
    event, live, _regs = make_round(players=8, start=True, name="Week 3", seed=5)
    table = rounds.with_tables(live).tables[0]
    ids = [s.registration_id for s in table.seats]
    rounds.report_pod_result(table, ids[:1], ids[1:], user=judge)
    db.session.commit()
    everyone = api.get("/ratings").get_json()["ratings"]
    assert len(everyone) == 8 and sorted(r["games"] for r in everyone) == [2] * 4 + [3] * 4
    rounds.report_pod_result(table, ids[-1:], ids[:-1], user=judge)           # staff correct: the last seat won
    db.session.commit()
    assert api.get("/ratings").get_json()["ratings"] != everyone
    rounds.report_pod_result(table, ids[:1], ids[1:], user=judge)
    db.session.commit()
    assert api.get("/ratings").get_json()["ratings"] == everyone

    page = api.get(f"{url}?limit=3").get_json()
    assert page["ratings"] == before[:3] and page["next_offset"] == 3
    refused(api.get("/series/999999/ratings"), 404)
    refused(api.get(f"{url}?limit=0"), 400, field="limit")


def test_ratings_on_the_series_page_and_the_players_history(db, client, league):
    series, _first, _rnd = league
    series.players[0].name = "<script>alert(1)</script>"
    db.session.commit()
    page = client.get(f"/series/{series.id}").get_data(as_text=True)
    assert 'id="series-ratings"' in page and page.count("data-rated-person=") == 8
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    best = series_ops.series_standings(series)["rows"][0].person
    history = client.get(f"/series/{series.id}/players/{best}").get_data(as_text=True)
    assert 'id="history-rating"' in history and "2 games" in history
    assert 'id="history-server-rating"' in history and "of 8) from 2 games" in history
    standings = client.get(f"/events/{_first.id}/standings").get_data(as_text=True)
    assert f'href="/api/v1/events/{_first.id}/open-data.csv"' in standings


def test_the_series_open_data(client, league):
    series, first, _rnd = league
    api = Checked(client)
    data = api.get(f"/series/{series.id}/open-data").get_json()
    schema = json.loads((SCHEMAS / "open-data-series-v1.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)
    assert [e["event"]["name"] for e in data["events"]] == ["Week 1", "Week 2"]
    assert len(data["people"]) == 8 and all(len(p["entries"]) == 2 for p in data["people"])
    regs = {r.id for r in first.registrations}
    assert all(any(x["player_id"] in regs for x in p["entries"]) for p in data["people"])
    csv = client.get(f"/api/v1/series/{series.id}/open-data.csv")
    assert csv.status_code == 200 and len(csv.get_data(as_text=True).strip().splitlines()) == 1 + 16
    refused(api.get("/series/999999/open-data"), 404)
    texts = [api.get(f"/series/{series.id}/open-data").get_data(as_text=True), csv.get_data(as_text=True)]
    for reg in first.registrations:
        assert all(reg.access_code not in t for t in texts)


def test_a_player_id_is_never_shown(db, client, league):
    _series, first, _rnd = league
    first.registrations[0].player_id = "PID-SECRET-1"
    first.registrations[0].contact = "secret@example.org"
    db.session.commit()
    text = Checked(client).get("/ratings").get_data(as_text=True)
    assert "PID-SECRET" not in text and "secret@example.org" not in text and "id:" not in text
