"""A store's league: three events add up by the placement table, one player is recognised across them, a
player's history, an export that imports back to the same standings, and the bad inputs around it."""
from __future__ import annotations

import io
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tournament.errors import Refused
from tournament.events import operations as events
from tournament.events.models import AuditEntry
from tournament.rounds import operations as rounds
from tournament.series import operations as series_ops
from tournament.rounds.pairing.cut import StageOutcome, final_places
from tournament.series.domain import parse_points_table, series_standings, Placement
from tournament.series.models import Series, SeriesPlayer, SeriesResult

from tests.conftest import play_pod_rounds

TABLE = [5, 3, 2, 1]


def play_event(db, make_event, judge, organizer, name, date, players, seed=3, finish=True, **settings):
    """An event of `players` [(name, player ID or None)], two rounds of pods where seat 1 survives, finished."""
    event = make_event(name=name, date=date, scoring_profile="survival", **settings)
    for player_name, player_id in players:
        data = {"name": player_name, **({"player_id": player_id} if player_id else {})}
        events.check_in(events.register_player(event, data, user=judge), judge)
    play_pod_rounds(db, event, judge, count=2, seed=seed)
    if finish:
        rounds.finish_event(event, organizer)
    db.session.commit()
    return event


def expected_points(event_list, table=TABLE):
    """Each player's series points by name, from each event's own standings (these events have no cut)."""
    out: dict[str, int] = {}
    for event in event_list:
        names = {r.id: r.name for r in event.registrations}
        for place, row in enumerate(rounds.standings(event), 1):
            out[names[row.player]] = out.get(names[row.player], 0) + (table[place - 1] if place <= len(table) else 0)
    return out


@pytest.fixture
def league(db, make_event, organizer, judge):
    """A series of three finished events: Ann plays all three with player ID 111; Bořek plays all three with no
    player ID (recognised by name once confirmed); the others change."""
    series = series_ops.create_series(organizer, {"name": "Winter league", "points_table": "5, 3, 2, 1"})
    field = [("Ann Example", "111"), ("Bořek Novák", None)]
    played = []
    for i, date in enumerate(["2026-11-01", "2026-11-08", "2026-11-15"], 1):
        others = [(f"Guest {i}-{k}", None) for k in range(6)]
        name_of_ann = "Ann Example" if i != 2 else "Anne Example"        # a new spelling, the same player ID
        players = [(name_of_ann, "111"), field[1], *others]
        event = play_event(db, make_event, judge, organizer, f"League night {i}", date, players, seed=i)
        series_ops.add_event(series, organizer, event.id)
        db.session.commit()
        played.append(event)
    return series, played


def test_three_events_add_up_by_the_placement_table(db, league, organizer):
    series, played = league
    rows = series_ops.series_standings(series)["rows"]
    by_name = {r.name: r for r in rows}
    ann = by_name["Ann Example"]
    assert ann.events == 3 and "Anne Example" not in by_name           # recognised by player ID, new spelling
    # Bořek is three people until the organizer confirms: two name matches are waiting.
    waiting = series_ops.pending(series)
    assert [(r.name, r.candidate.name) for r in waiting] == [("Bořek Novák", "Bořek Novák")] * 2
    assert sum(1 for r in rows if r.name == "Bořek Novák") == 3
    for r in waiting:
        series_ops.decide(series, organizer, r.id, same=True)
    db.session.commit()
    rows = series_ops.series_standings(series)["rows"]
    borek = [r for r in rows if r.name == "Bořek Novák"]
    assert len(borek) == 1 and borek[0].events == 3
    expected = expected_points(played)
    expected["Ann Example"] += expected.pop("Anne Example")
    assert {r.name: r.points for r in rows} == expected
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert len(rows) == 2 + 3 * 6
    assert series_ops.pending(series) == []


def test_a_name_match_can_be_two_people_and_is_decided_once(db, league, organizer):
    series, _ = league
    first, second = series_ops.pending(series)
    series_ops.decide(series, organizer, first.id, same=False)
    db.session.commit()
    with pytest.raises(Refused, match="decided already"):
        series_ops.decide(series, organizer, first.id, same=True)
    rows = series_ops.series_standings(series)["rows"]
    assert sum(1 for r in rows if r.name == "Bořek Novák") == 3
    actions = [e.action for e in db.session.execute(sa.select(AuditEntry)).scalars()]
    assert "series.different_person" in actions


def test_a_different_player_id_is_never_offered_as_the_same_person(db, make_event, organizer, judge):
    series = series_ops.create_series(organizer, {"name": "IDs"})
    for i in (1, 2):
        event = play_event(db, make_event, judge, organizer, f"Night {i}", f"2026-10-0{i}",
                           [("Eva Král", f"90{i}"), *((f"P{i}{k}", None) for k in range(3))], seed=i)
        series_ops.add_event(series, organizer, event.id)
    db.session.commit()
    assert series_ops.pending(series) == []
    assert sum(1 for r in series_ops.series_standings(series)["rows"] if r.name == "Eva Král") == 2


def test_history_page_lists_events_places_and_commanders(app, client, db, league, organizer, login):
    series, played = league
    for r in series_ops.pending(series):
        series_ops.decide(series, organizer, r.id, same=True)
    db.session.commit()
    borek = db.session.execute(sa.select(SeriesPlayer).where(SeriesPlayer.name == "Bořek Novák")).scalar_one()
    page = app.test_client().get(f"/series/{series.id}/players/{borek.id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for event in played:
        assert event.name in text
    assert text.count(" of 8</td>") == 3
    assert "not public" in text                     # these events did not publish their decklists
    assert app.test_client().get(f"/series/{series.id}/players/999999").status_code == 404
    login(organizer)
    staff_view = client.get(f"/series/{series.id}/players/{borek.id}").get_data(as_text=True)
    assert "(no decklist)" in staff_view            # staff see the commanders (none were submitted here)


def test_export_imports_back_to_the_same_standings(app, client, db, league, organizer, login):
    series, _ = league
    first, _second = series_ops.pending(series)
    series_ops.decide(series, organizer, first.id, same=True)        # one decided, one still waiting
    db.session.commit()
    before = [(r.rank, r.name, r.points, r.events, r.best) for r in series_ops.series_standings(series)["rows"]]
    login(organizer)
    response = client.get(f"/series/{series.id}/export.json")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    document = json.loads(response.data)
    assert document["format"] == "edh-tournament-series" and len(document["events"]) == 3
    assert all("stats" in e and "results" in e for e in document["events"])
    upload = client.post("/series/import", data={"file": (io.BytesIO(response.data), "series.json")},
                         content_type="multipart/form-data")
    assert upload.status_code == 302, upload.get_data(as_text=True)
    imported = db.session.execute(sa.select(Series).where(Series.id != series.id)).scalar_one()
    after = [(r.rank, r.name, r.points, r.events, r.best) for r in series_ops.series_standings(imported)["rows"]]
    assert after == before
    assert len(series_ops.pending(imported)) == 1                   # the undecided match is still to decide
    again = series_ops.series_document(imported, organizer)
    def without_keys(rows):
        return [{k: v for k, v in r.items() if k != "player"} for r in rows]
    assert without_keys(again["standings"]) == without_keys(document["standings"])
    assert again["series"] == document["series"]


@pytest.mark.parametrize("body, message", [
    (b"", "empty"),
    (b"{not json", "not valid JSON"),
    (json.dumps({"format": "edh-tournament-event", "version": 1}).encode(), "not a series export"),
    (json.dumps({"format": "edh-tournament-series", "version": 99}).encode(), "newer version"),
    (json.dumps({"format": "edh-tournament-series", "version": 1, "series": {"name": "X"}, "players": [],
                 "events": [{"name": "E", "results": [{"player": 5, "name": "A", "place": 1}]}]}).encode(),
     "names a player the file does not list"),
    (json.dumps({"format": "edh-tournament-series", "version": 1, "series": {"name": "X", "points_table": "9, x"},
                 "players": [], "events": []}).encode(), "not a whole number"),
])
def test_a_broken_import_says_what_is_wrong_and_stores_nothing(client, db, organizer, login, body, message):
    login(organizer)
    response = client.post("/series/import", data={"file": (io.BytesIO(body), "series.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert db.session.execute(sa.select(sa.func.count()).select_from(Series)).scalar() == 0


def test_the_series_page_is_public_and_managed_by_its_organizer_only(app, client, db, league, organizer, judge,
                                                                     make_user, login):
    series, played = league
    public = app.test_client().get(f"/series/{series.id}")
    text = public.get_data(as_text=True)
    assert public.status_code == 200 and "Ann Example" in text and 'id="pending"' not in text
    assert 'id="series-settings"' not in text
    other = make_user("Other Organizer")
    login(other)
    result = series_ops.pending(series)[0]
    assert client.post(f"/series/{series.id}/results/{result.id}/same").status_code == 403
    assert client.get(f"/series/{series.id}/export.json").status_code == 403
    assert client.post(f"/series/{series.id}/events", data={"event_id": played[0].id}).status_code == 403
    client.post("/auth/logout")
    login(organizer)
    page = client.get(f"/series/{series.id}").get_data(as_text=True)
    assert 'id="pending"' in page and 'id="series-settings"' in page
    assert client.post(f"/series/{series.id}/results/{result.id}/same").status_code == 302
    assert client.post(f"/series/{series.id}/results/{result.id}/same").status_code == 409


def test_hostile_names_are_shown_as_text(app, db, make_event, organizer, judge):
    series = series_ops.create_series(organizer, {"name": "<script>alert(1)</script> league"})
    event = play_event(db, make_event, judge, organizer, "Night", "2026-10-01",
                       [("<img src=x onerror=alert(1)>", None), *((f"P{k}", None) for k in range(3))])
    series_ops.add_event(series, organizer, event.id)
    db.session.commit()
    text = app.test_client().get(f"/series/{series.id}").get_data(as_text=True)
    assert "<img src=x" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "<script>alert(1)</script>" not in text


def test_an_event_counts_once_finished_and_stops_counting_when_reopened(db, make_event, organizer, judge):
    series = series_ops.create_series(organizer, {"name": "Live"})
    event = play_event(db, make_event, judge, organizer, "Night", "2026-10-01",
                       [(f"P{k}", None) for k in range(8)], finish=False)
    series_ops.add_event(series, organizer, event.id)
    db.session.commit()
    assert series_ops.series_standings(series)["rows"] == []
    assert [e.name for e in series_ops.series_standings(series)["coming"]] == ["Night"]
    rounds.finish_event(event, organizer)
    db.session.commit()
    assert len(series_ops.series_standings(series)["rows"]) == 8
    events.update_event(event, organizer, {"status": "running"})
    db.session.commit()
    assert series_ops.series_standings(series)["rows"] == []
    assert db.session.execute(sa.select(sa.func.count()).select_from(SeriesPlayer)).scalar() == 0
    events.update_event(event, organizer, {"status": "finished"})
    db.session.commit()
    assert len(series_ops.series_standings(series)["rows"]) == 8
    other = series_ops.create_series(organizer, {"name": "Other"})
    with pytest.raises(Refused, match="another series"):
        series_ops.add_event(other, organizer, event.id)
    with pytest.raises(Refused, match="already"):
        series_ops.add_event(series, organizer, event.id)


def test_removing_an_event_takes_its_places_out(db, league, organizer):
    series, played = league
    recorded = series.events[0]
    series_ops.remove_event(series, organizer, series_event_id=recorded.id)
    db.session.commit()
    rows = series_ops.series_standings(series)["rows"]
    assert all(r.events <= 2 for r in rows) and played[0].series_id is None
    assert not any(r.name.startswith("Guest 1-") for r in rows)


@pytest.mark.parametrize("text, message", [
    ("", "Enter the points"), ("5, three", "not a whole number"), ("1, 2", "cannot score more"),
    (", ".join(["1"] * 65), "the limit is 64"), ("-1", "not a whole number"),
])
def test_a_bad_points_table_is_refused_with_a_reason(db, organizer, text, message):
    with pytest.raises(Refused, match=message):
        series_ops.create_series(organizer, {"name": "T", "points_table": text or " "})


def test_points_tables_read_the_way_organizers_write_them():
    assert parse_points_table("5/3/2/1") == [5, 3, 2, 1]
    assert parse_points_table("10 6 4 2 1 1") == [10, 6, 4, 2, 1, 1]


def test_event_points_and_attendance_points():
    placements = [Placement(1, 0, 1, 9.0), Placement(2, 0, 2, 6.0), Placement(2, 1, 1, 7.0)]
    names = {1: "A", 2: "B"}
    placement = series_standings(placements, names, "placement", [5, 3], attendance=1)
    assert [(r.name, r.points, r.events) for r in placement] == [("B", 10, 2), ("A", 6, 1)]
    own = series_standings(placements, names, "event_points", [], attendance=0)
    assert [(r.name, r.points) for r in own] == [("B", 13.0), ("A", 9.0)]


def test_final_places_put_the_cut_first_by_how_far_each_got():
    order = list(range(1, 13))                       # standings at the cut: 1 is the best seed
    stages = [StageOutcome(frozenset(range(1, 8)), frozenset({6}), False),          # top 7: 1-3 wait, 6 goes on
              StageOutcome(frozenset({1, 2, 3, 6}), frozenset({3}), True)]           # the final: 3 wins
    assert final_places(order, stages) == [3, 1, 2, 6, 4, 5, 7, 8, 9, 10, 11, 12]
    duel = [StageOutcome(frozenset(range(1, 5)), frozenset({1, 4}), False), StageOutcome(frozenset({1, 4}), frozenset({4}), True)]
    assert final_places(order, duel)[:4] == [4, 1, 2, 3]
    assert final_places(order, []) == order


def test_a_pod_top_cut_event_places_its_final_winner_first(db, make_event, organizer, judge):
    event = play_event(db, make_event, judge, organizer, "Cut night", "2026-10-01",
                       [(f"P{k:02d}", None) for k in range(12)], finish=False, top_cut=4)
    seeds = [r.player for r in rounds.standings(event)]
    final = rounds.pair_top_cut_round(event, judge)
    rounds.publish_round(final, judge)
    rounds.start_round(final, judge)
    [table] = final.tables
    ids = [s.registration_id for s in table.seats]
    rounds.report_pod_result(table, [ids[-1]], ids[:-1], user=judge)      # the fourth seed wins the final
    rounds.finish_round(final, judge)
    rounds.finish_event(event, organizer)
    db.session.commit()
    places = [reg.id for reg, _place, _pts in series_ops.event_places(event)]
    assert places[0] == seeds[3] and places[1:4] == seeds[:3] and places[4:] == seeds[4:]


def test_many_same_person_clicks_at_once_store_one_decision(app, db, league, organizer):
    series, _ = league
    result_id = series_ops.pending(series)[0].id
    series_id = series.id
    login_client = app.test_client()
    assert login_client.post("/auth/login", data={"name": organizer.name, "password": "correct horse battery"}
                             ).status_code == 302
    cookie = login_client.get_cookie("session").value
    db.session.remove()

    def click(_):
        c = app.test_client()
        c.set_cookie("session", cookie)
        return c.post(f"/series/{series_id}/results/{result_id}/same").status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(click, range(16)))
    assert statuses.count(302) == 1 and set(statuses) <= {302, 409}, statuses
    result = db.session.get(SeriesResult, result_id)
    assert result.candidate_id is None
    entries = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "series.same_person")).scalars()
    assert len(list(entries)) == 1


def test_series_stats_sum_the_events_and_stay_private_until_published(app, client, db, league, organizer, login):
    series, played = league
    public = app.test_client().get(f"/series/{series.id}/stats").get_data(as_text=True)
    assert 'id="stats-partial"' in public and "From 0 of the 3 events" in public
    login(organizer)
    text = client.get(f"/series/{series.id}/stats").get_data(as_text=True)
    stats, counted, recorded = series_ops.series_stats(series, staff=True)
    assert counted == recorded == 3
    assert stats["players"] == sum(e.stats["players"] for e in series.events) == 24
    assert stats["games"] == sum(rounds.event_stats(e)["games"] for e in played)
    assert sum(s["games"] for s in stats["seats"]) == sum(len(t.seats) for e in played
                                                          for t in rounds.scored_tables(e) if t.kind == "pod")
    assert 'id="meta"' in text and "stats-partial" not in text


def _form_values(page: str, form_id: str) -> dict[str, str]:
    """The values a browser would send back from the form `form_id` as rendered, unchanged."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        inside, values, select = False, {}, None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "form":
                self.inside = a.get("id") == form_id
            elif self.inside and tag == "input" and a.get("name"):
                self.values[a["name"]] = a.get("value", "")
            elif self.inside and tag == "select":
                self.select = a.get("name")
            elif self.inside and tag == "option" and self.select and ("selected" in a or self.select not in self.values):
                self.values[self.select] = a.get("value", "")

        def handle_endtag(self, tag):
            if tag == "form":
                self.inside = False
            elif tag == "select":
                self.select = None

    reader = Reader()
    reader.feed(page)
    return reader.values


def test_the_settings_save_unchanged_as_the_page_shows_them(client, db, league, organizer, login):
    series, _ = league
    login(organizer)
    page = client.get(f"/series/{series.id}").get_data(as_text=True)
    values = _form_values(page, "series-form")
    assert values["points_table"] == "5, 3, 2, 1"
    response = client.post(f"/series/{series.id}/settings", data=values)
    assert response.status_code == 302, response.get_data(as_text=True)
    db.session.refresh(series)
    assert series.points_table == TABLE and series.name == values["name"]
