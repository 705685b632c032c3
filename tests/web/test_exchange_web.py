"""Import and export pages: uploads, downloads, refusals, permissions, CSRF."""
from __future__ import annotations

import codecs
import csv
import io
import json
import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from tournament.events import exchange as ex
from tournament.events.models import AuditEntry, Decklist, Event, Registration

DECKS = Path(__file__).resolve().parents[2] / "tournament" / "data" / "demo_decks"
KENRITH = (DECKS / "kenrith.txt").read_text(encoding="utf-8")
NAMES = ["山田太郎", "Šárka Dvořáková", "<b>Bobby</b> Tables"]


def _cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def players_csv(rows, header=("name", "contact", "player_id", "decklist"), delimiter=",", bom=False) -> bytes:
    lines = [delimiter.join(header)] + [delimiter.join(_cell(str(v)) for v in row) for row in rows]
    data = "\r\n".join(lines).encode("utf-8") + b"\r\n"
    return codecs.BOM_UTF8 + data if bom else data


def counts(db) -> tuple[int, ...]:
    return tuple(db.session.execute(sa.select(sa.func.count()).select_from(t)).scalar()
                 for t in (Event, Registration, Decklist, AuditEntry))


def upload(client, url, data: bytes, filename="players.csv", action="import", **extra):
    form = {"file": (io.BytesIO(data), filename), "action": action, **extra}
    return client.post(url, data=form, content_type="multipart/form-data")


@pytest.fixture
def event(make_event):
    return make_event(name="Friday <Night> EDH")


@pytest.fixture
def as_organizer(login, organizer):
    login(organizer)
    return organizer


# ================================================================ players CSV

def test_the_form_is_shown_to_the_owner(client, as_organizer, event):
    response = client.get(f"/events/{event.id}/import-players")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and 'enctype="multipart/form-data"' in page
    assert "Friday &lt;Night&gt; EDH" in page and 'name="csrf_token"' in page


def test_upload_registers_the_players_and_redirects_to_the_event(db, client, starter_cards, as_organizer, event):
    data = players_csv([[NAMES[0], "taro@example.jp", "1001", KENRITH], [NAMES[1], "", "1002", ""],
                        [NAMES[2], "", "", ""]], header=("Player", "E-Mail", "DCI", "Deck"), delimiter=";", bom=True)
    response = upload(client, f"/events/{event.id}/import-players", data)
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/events/{event.id}")
    regs = Registration.query.filter_by(event_id=event.id).order_by(Registration.id).all()
    assert [r.name for r in regs] == NAMES
    assert regs[0].deck.legal and regs[0].contact == "taro@example.jp"


def test_preview_shows_rows_as_text_and_stores_nothing(db, client, as_organizer, event):
    before = counts(db)
    response = upload(client, f"/events/{event.id}/import-players", players_csv([[n, "", "", ""] for n in NAMES]),
                      action="preview")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "3 players can be imported" in page
    assert "&lt;b&gt;Bobby&lt;/b&gt; Tables" in page and "<b>Bobby</b>" not in page
    assert "山田太郎" in page
    assert counts(db) == before


@pytest.mark.parametrize("data, status, message", [
    (b"", 400, "The file is empty"),
    (bytes(range(256)) * 8, 400, "not a text file"),
    (b"email,dci\na@b.c,1\n", 400, "No name column"),
    (b"name\n" + b"x" * 1_100_000, 413, "the limit is 1.0 MB"),
    (b"name\n" + b"x" * 2_100_000, 413, "The file is larger than 1 MB"),
    (("name\n" + "".join(f"P{i}\n" for i in range(5_001))).encode(), 400, "more than 5,000 players"),
    (players_csv([["A", "", "", ""], ["x" * 10_000, "", "", ""]]), 400,
     "The name is 10,000 characters; the limit is 100."),
    (players_csv([["A", "", "7", ""], ["B", "", "7", ""]]), 400, "Player ID 7 is also in row 2"),
    (players_csv([["A", "", "42", ""]]), 400, "Player ID 42 is already registered for this event (Already Here)"),
    (b"name\nA\n\xff\xfeB\n", 400, "not UTF-8 text (the first bad byte is on line 3)"),
])
def test_bad_uploads_get_a_clear_4xx_and_store_nothing(db, client, as_organizer, event, make_player, data, status,
                                                       message):
    make_player(event, "Already Here", player_id="42")
    before = counts(db)
    response = upload(client, f"/events/{event.id}/import-players", data)
    page = response.get_data(as_text=True)
    assert response.status_code == status, page
    assert message in page
    assert counts(db) == before


def test_row_problems_are_listed_with_their_row_numbers(db, client, as_organizer, event):
    rows = [["ok", "", "", ""], ["<script>x</script>" * 10, "", "", ""], ["", "a@b.c", "", ""]]
    response = upload(client, f"/events/{event.id}/import-players", players_csv(rows))
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "2 rows have problems; nothing was imported." in page
    assert re.search(r"<strong>Row 3</strong>: The name is 180 characters", page)
    assert re.search(r"<strong>Row 4</strong>: The name is required", page)
    assert "<script>" not in page


def test_no_file_is_a_400(db, client, as_organizer, event):
    response = client.post(f"/events/{event.id}/import-players", data={"action": "import"},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and "Choose a file to upload." in response.get_data(as_text=True)


def test_stale_csrf_token_is_refused_and_stores_nothing(app, db, client, as_organizer, event):
    app.config["WTF_CSRF_ENABLED"] = True
    before = counts(db)
    response = upload(client, f"/events/{event.id}/import-players", players_csv([["A", "", "", ""]]),
                      csrf_token="stale-token")
    assert response.status_code == 400 and "expired" in response.get_data(as_text=True)
    response = upload(client, "/events/import", b"{}", filename="event.json", csrf_token="stale-token")
    assert response.status_code == 400
    response = upload(client, f"/events/{event.id}/import-players", players_csv([["A", "", "", ""]]))
    assert response.status_code == 400          # no token at all
    assert counts(db) == before
    # a fresh token from the page works
    page = client.get(f"/events/{event.id}/import-players").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    response = upload(client, f"/events/{event.id}/import-players", players_csv([["A", "", "", ""]]), csrf_token=token)
    assert response.status_code == 302
    assert Registration.query.count() == 1


def test_only_the_owner_imports_players(db, client, login, event, make_user, judge):
    before = counts(db)
    response = upload(client, f"/events/{event.id}/import-players", players_csv([["A", "", "", ""]]))
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    login(make_user("Other Organizer"))
    assert client.get(f"/events/{event.id}/import-players").status_code == 403
    assert upload(client, f"/events/{event.id}/import-players", players_csv([["A", "", "", ""]])).status_code == 403
    login(judge)
    assert upload(client, f"/events/{event.id}/import-players", players_csv([["A", "", "", ""]])).status_code == 403
    assert client.get("/events/9999/import-players").status_code == 404
    assert counts(db) == before


# ================================================================ exports

def test_exports_download_with_a_file_name(db, client, as_organizer, event, make_player):
    for name in NAMES:
        make_player(event, name)
    response = client.get(f"/events/{event.id}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == f"attachment; filename=event-{event.id}-friday-night-edh.json"
    assert response.headers["Cache-Control"] == "no-store"
    document = json.loads(response.data)
    assert document["format"] == ex.FORMAT and [p["name"] for p in document["players"]] == NAMES

    response = client.get(f"/events/{event.id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == f"attachment; filename=event-{event.id}-friday-night-edh.csv"
    rows = list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"), newline="")))
    assert [r["name"] for r in rows] == NAMES


def test_non_ascii_event_names_get_a_safe_file_name(db, client, as_organizer, make_event):
    event = make_event(name="山田カップ")
    disposition = client.get(f"/events/{event.id}/export.json").headers["Content-Disposition"]
    assert disposition == f"attachment; filename=event-{event.id}-event.json"


def test_judges_may_export_other_organizers_may_not(db, client, login, event, make_user, judge):
    assert client.get(f"/events/{event.id}/export.json").status_code == 302      # anonymous: log in first
    login(make_user("Organizer B"))
    assert client.get(f"/events/{event.id}/export.json").status_code == 403
    response = client.get(f"/events/{event.id}/export.csv")
    assert response.status_code == 403 and "another organizer" in response.get_data(as_text=True)
    login(judge)
    assert client.get(f"/events/{event.id}/export.json").status_code == 200
    assert client.get(f"/events/{event.id}/export.csv").status_code == 200
    assert client.get("/events/9999/export.csv").status_code == 404


# ================================================================ import an exported event

def test_import_an_export_as_a_new_event(db, client, starter_cards, as_organizer, event, make_player, judge):
    reg = make_player(event, NAMES[0], decklist=KENRITH, player_id="1001")
    from tournament.events import operations as ops
    ops.check_in(reg, judge)
    db.session.commit()
    data = client.get(f"/events/{event.id}/export.json").data
    assert client.get("/events/import").status_code == 200
    response = upload(client, "/events/import", data, filename="event.json")
    assert response.status_code == 302
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert response.headers["Location"].endswith(f"/events/{new_id}") and new_id != event.id
    new = db.session.get(Event, new_id)
    assert new.name == event.name and new.organizer_id == as_organizer.id
    (copy,) = new.registrations
    assert (copy.name, copy.player_id, copy.deck.legal) == (NAMES[0], "1001", True)
    assert copy.checked_in_at is not None and copy.access_code != reg.access_code   # the old code is in use
    with client.session_transaction() as session:
        flashes = [m for _c, m in session.get("_flashes", [])]
    assert any("new access code" in m for m in flashes)


@pytest.mark.parametrize("data, status, message", [
    (b"", 400, "The file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", 400, "not UTF-8 JSON"),
    (b'{"format": "edh-tournament-event", "version": 1, ', 400, "not valid JSON"),
    (b'{"players": []}', 400, "not an event export from this tournament manager"),
    (b'{"format": "edh-tournament-event", "version": 7}', 400, "version 7, made by a newer version"),
    (b'{"format": "edh-tournament-event", "version": 1, "settings": {"name": "x", "ruleset": "modern"}}', 400,
     "The event settings: Unknown ruleset"),
    (b'{"format": "edh-tournament-event", "version": 1, "settings": {"name": "x", "ruleset": "edh-2010"},'
     b' "players": [{"name": "A", "player_id": "1"}, {"name": "B", "player_id": "1"}]}', 400,
     "<strong>Player 2 (B)</strong>: Player ID 1 is also in player 1"),
    (b" " * 20_000_001, 413, "an event export may be at most 20.0 MB"),
    (b" " * 21_500_000, 413, "The file is larger than 20 MB"),
])
def test_bad_event_files_are_refused_and_store_nothing(db, client, as_organizer, data, status, message):
    before = counts(db)
    response = upload(client, "/events/import", data, filename="event.json")
    page = response.get_data(as_text=True)
    assert response.status_code == status, page[:500]
    assert message in page
    assert counts(db) == before


def test_only_organizers_import_events(db, client, login, judge):
    assert client.get("/events/import").status_code == 302
    login(judge)
    assert client.get("/events/import").status_code == 403
    response = upload(client, "/events/import", b'{"format": "edh-tournament-event", "version": 1}',
                      filename="event.json")
    assert response.status_code == 403
