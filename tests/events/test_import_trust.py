"""An imported file is not trusted: its codes must be real codes, its log stays the file's word, and a large
file is re-checked on the server's command line, not inside a web request."""
from __future__ import annotations

import io
import json

import sqlalchemy as sa
import pytest

from tournament.errors import Refused
from tournament.events import exchange_ops as xops
from tournament.events.models import AuditEntry, Decklist, Event, Registration

PASSWORD = "correct horse battery"    # conftest.PASSWORD


@pytest.fixture
def exported(db, make_event, make_player, organizer):
    event = make_event(name="Source")
    for name in ("Anna", "Bert", "Cyril"):
        make_player(event, name, decklist="1 Forest")
    return json.loads(xops.export_event(event, organizer, "json").data)


def forged(document, codes=("2222", "abcd-efg1", None)):
    """Codes an attacker would like to know in advance, and log entries signed with a local name."""
    doc = json.loads(json.dumps(document))
    for player, code in zip(doc["players"], codes):
        player["access_code"] = code
    doc["audit_log"].append({"actor": "organizer:Olga Organizer", "action": "result.override",
                             "details": {"table": 1}, "at": "2026-11-30T10:00:00+00:00"})
    doc["audit_log"].append({"actor": "player:999999", "action": "vote", "details": {}, "at": None})
    return json.dumps(doc).encode()


def test_codes_outside_the_alphabet_or_length_are_replaced_and_the_notes_say_so(db, exported, organizer):
    result = xops.import_event(organizer, forged(exported))
    codes = [r.access_code for r in result.event.registrations]
    assert "2222" not in codes and all(xops.valid_code(c) for c in codes)
    assert len(set(codes)) == 3
    assert any("access code this app does not make" in n and "Anna" in n and "Bert" in n for n in result.notes)


def test_imported_log_entries_are_kept_apart_from_local_ones(client, db, exported, organizer, login):
    result = xops.import_event(organizer, forged(exported))
    db.session.commit()
    entries = db.session.execute(sa.select(AuditEntry).where(AuditEntry.event_id == result.event.id)
                                 .order_by(AuditEntry.id)).scalars().all()
    local = [e for e in entries if not e.actor.startswith("imported:")]
    assert [e.action for e in local] == ["event.create", "event.import"]
    assert all(e.actor == "organizer:Olga Organizer" for e in local)
    forged_entry = next(e for e in entries if e.action == "result.override")
    assert forged_entry.actor == "imported:organizer:Olga Organizer" and forged_entry.details["imported"] is True
    assert next(e for e in entries if e.action == "vote").actor == "imported:player"
    login(organizer)
    page = client.get(f"/events/{result.event.id}/log").get_data(as_text=True)
    assert "Olga Organizer (organizer, from an imported file)" in page
    assert "Olga Organizer (organizer)</td>" in page          # the import itself, by the local account


def many_decklists(document, per_player: int) -> bytes:
    doc = json.loads(json.dumps(document))
    for player in doc["players"]:
        player["decklists"] = [{"text": f"{n + 1} Forest", "ruleset": "edh-2010"} for n in range(per_player)]
        player.pop("current_decklist", None)
    return json.dumps(doc).encode()


def test_a_web_import_with_too_many_decklists_points_to_the_command_line(client, db, exported, organizer, login,
                                                                         monkeypatch):
    data = many_decklists(exported, 100)             # 3 players x 100 = 300 submissions
    login(organizer)
    before = db.session.execute(sa.select(sa.func.count()).select_from(Event)).scalar()
    monkeypatch.setattr(xops, "WEB_IMPORT_DECKLISTS", 299)
    response = client.post("/events/import", data={"file": (io.BytesIO(data), "big.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 413
    assert "flask --app wsgi event import FILE" in response.get_data(as_text=True)
    assert db.session.execute(sa.select(sa.func.count()).select_from(Event)).scalar() == before
    monkeypatch.setattr(xops, "WEB_IMPORT_DECKLISTS", 300)
    response = client.post("/events/import", data={"file": (io.BytesIO(data), "big.json")},
                           content_type="multipart/form-data")
    assert response.status_code in (200, 302)
    assert db.session.execute(sa.select(sa.func.count()).select_from(Event)).scalar() == before + 1


def test_the_web_limit_is_a_thousand_and_the_cap_fifty_thousand(db, exported, organizer):
    with pytest.raises(Refused) as e:
        xops.import_event(organizer, many_decklists(exported, 334))       # 1,002 submissions
    assert e.value.status == 413 and "1,002 decklist submissions" in e.value.message
    with pytest.raises(Refused) as e:
        xops._refuse_too_many_decklists(50_001, xops.MAX_IMPORT_DECKLISTS)
    assert "at most 50,000" in e.value.message


def test_the_command_line_imports_a_large_file_with_progress(db, runner, exported, organizer, tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_bytes(many_decklists(exported, 100))
    monkeypatch.setattr(xops, "WEB_IMPORT_DECKLISTS", 10)     # the web would refuse this file; the CLI takes it
    result = runner.invoke(args=["event", "import", str(path), "--organizer", organizer.name])
    assert result.exit_code == 0, result.output
    assert "Re-checking players' decklists" in result.output and "3 players, 300 decklists" in result.output
    new = db.session.execute(sa.select(Event).order_by(Event.id.desc())).scalars().first()
    stored = db.session.execute(sa.select(sa.func.count()).select_from(Decklist).join(
        Registration, Decklist.registration_id == Registration.id).where(Registration.event_id == new.id)).scalar()
    assert stored == 300


def test_hostile_details_in_an_imported_log_do_not_break_the_log_page(client, db, exported, organizer, login):
    doc = json.loads(json.dumps(exported))
    doc["audit_log"] = [
        {"actor": "judge:<b>Mallory</b>", "action": "event.update", "details": {"fields": 5}},
        {"actor": "judge:x", "action": "registration.create", "details": {"registration": [1], "name": {"a": 1}}},
        {"actor": "judge:x", "action": "event.import", "details": {"players": "all", "round": {"n": 1}}},
        {"actor": "player:abc", "action": "checkin", "details": {"table": [3]}},
    ]
    result = xops.import_event(organizer, json.dumps(doc).encode())
    db.session.commit()
    login(organizer)
    response = client.get(f"/events/{result.event.id}/log")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "&lt;b&gt;Mallory&lt;/b&gt; (judge, from an imported file)" in page and "<b>Mallory" not in page
    assert "changed the settings: nothing" in page
