"""The four inputs that answered 500 (audit, second round) answer 400 with a message; a stored stats block that
does not read as stats cannot break the series' stats page."""
from __future__ import annotations

import io
import json

import pytest
import sqlalchemy as sa

from tournament.series import operations as series_ops
from tournament.series.domain import clean_stats, merge_stats
from tournament.series.models import Series, SeriesEvent


def _series_file(**event) -> bytes:
    return json.dumps({"format": "edh-tournament-series", "version": 1, "series": {"name": "League"},
                       "players": [{"key": 1, "name": "Ann"}],
                       "events": [{"name": "Night 1", "results": [{"player": 1, "name": "Ann", "place": 1}],
                                   **event}]}).encode()


def _upload(client, url, body, name="file.json"):
    return client.post(url, data={"file": (io.BytesIO(body), name)}, content_type="multipart/form-data")


@pytest.mark.parametrize("next_value", ["/events\r\nSet-Cookie: x=1", "/events%0d%0aLocation:%20//evil", "/a\nb"])
def test_a_line_break_in_the_login_return_address_is_a_400_with_a_message(client, db, organizer, next_value):
    query = next_value if "%" in next_value else next_value.replace("\r", "%0D").replace("\n", "%0A")
    for response in (client.get(f"/auth/login?next={query}"),
                     client.post(f"/auth/login?next={query}", data={"name": organizer.name,
                                                                    "password": "correct horse battery"})):
        assert response.status_code == 400
        assert "log-in link is damaged" in response.get_data(as_text=True)
        assert "Set-Cookie" not in response.headers or "x=1" not in response.headers["Set-Cookie"]
    with client.session_transaction() as s:
        assert "user_id" not in s                   # refused before any log-in


@pytest.mark.parametrize("target", ["//evil.example/", "/\\evil.example/", "https://evil.example/"])
def test_the_login_never_returns_to_another_site(client, db, organizer, target):
    response = client.post("/auth/login", query_string={"next": target},
                           data={"name": organizer.name, "password": "correct horse battery"})
    assert response.status_code == 302 and response.headers["Location"] == "/events"


def test_a_lone_surrogate_in_an_imported_event_file_is_a_400(client, db, organizer, login):
    login(organizer)
    body = b'{"format": "edh-tournament-event", "version": 1, "settings": {"name": "\\ud800"}}'
    response = _upload(client, "/events/import", body)
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert "broken character" in response.get_data(as_text=True)


@pytest.mark.parametrize("stamp", ["+99999-01-01T00:00:00Z", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00",
                                   "1200-01-01T00:00:00Z", "yesterday", 12])
def test_an_impossible_recorded_at_in_a_series_import_is_a_400(client, db, organizer, login, stamp):
    login(organizer)
    response = _upload(client, "/series/import", _series_file(recorded_at=stamp))
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert "recorded_at" in response.get_data(as_text=True)
    assert db.session.execute(sa.select(sa.func.count()).select_from(Series)).scalar() == 0


BAD_STATS = [
    "not an object",
    {"players": "many"},
    {"players": -1},
    {"players": 10 ** 30},
    {"meta": {"commander": "Atraxa"}},
    {"meta": [{"commander": "Atraxa"}]},
    {"meta": [{"commander": ["Atraxa"], "players": 1}]},
    {"commanders": [{"commander": "Atraxa", "games": 1, "wins": 5}]},
    {"seats": [{"seat": "first", "games": 1, "wins": 0}]},
    {"seats": [{"seat": 0, "games": 1, "wins": 0}]},
    {"top_cut": {"players": 4, "commanders": [{"commander": "Atraxa"}]}},
    {"top_cut": [1, 2]},
    {"meta": [{"commander": "A\u0000B", "players": 1}]},
]


@pytest.mark.parametrize("stats", BAD_STATS)
def test_a_malformed_stats_block_in_a_series_import_is_a_400_and_nothing_is_stored(client, db, organizer, login,
                                                                                    stats):
    login(organizer)
    response = _upload(client, "/series/import", _series_file(stats=stats))
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert "statistics cannot be read" in response.get_data(as_text=True)
    assert db.session.execute(sa.select(sa.func.count()).select_from(Series)).scalar() == 0


def test_good_stats_are_stored_recomputed_from_their_counts(client, db, organizer, login):
    stats = {"players": 4, "games": 1, "meta": [{"commander": "Atraxa", "players": 4, "share": 999}],
             "commanders": [{"commander": "Atraxa", "games": 4, "wins": 1, "win_rate": "lies"}],
             "seats": [{"seat": 1, "games": 1, "wins": 1, "win_rate": 1.0}]}
    login(organizer)
    response = _upload(client, "/series/import", _series_file(stats=stats))
    assert response.status_code == 302, response.get_data(as_text=True)[:300]
    stored = db.session.execute(sa.select(SeriesEvent)).scalar_one().stats
    assert stored["meta"] == [{"commander": "Atraxa", "players": 4, "share": 100.0}]
    assert stored["commanders"][0]["win_rate"] == 25.0


@pytest.mark.parametrize("stats", BAD_STATS[1:])
def test_a_stored_bad_stats_block_leaves_the_stats_page_working_for_everyone(app, client, db, organizer, stats):
    """A block stored before imports were checked (or written into the database by hand) is left out."""
    series = series_ops.create_series(organizer, {"name": "Old league"})
    db.session.flush()
    good = {"players": 2, "games": 1, "meta": [{"commander": "Kenrith", "players": 2}],
            "commanders": [{"commander": "Kenrith", "games": 2, "wins": 1}], "seats": []}
    for name, block in (("Bad", stats), ("Good", good)):
        db.session.add(SeriesEvent(series_id=series.id, name=name, mode="pods", decklists_public=True, stats={},
                                   recorded_by="test"))
    db.session.flush()
    db.session.execute(sa.update(SeriesEvent).where(SeriesEvent.name == "Bad").values(stats=stats))
    db.session.execute(sa.update(SeriesEvent).where(SeriesEvent.name == "Good").values(stats=good))
    db.session.commit()
    response = app.test_client().get(f"/series/{series.id}/stats")
    assert response.status_code == 200
    assert "Kenrith" in response.get_data(as_text=True)


def test_merge_skips_what_is_not_stats_and_sums_the_rest():
    good = {"players": 2, "games": 1, "meta": [{"commander": "Kenrith", "players": 2}]}
    merged = merge_stats([good, {"players": "x"}, "junk", None, good])
    assert merged["players"] == 4 and merged["meta"][0]["players"] == 4
    with pytest.raises(ValueError):
        clean_stats({"seats": [{"seat": True, "games": 1, "wins": 0}]})
