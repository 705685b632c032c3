"""Import and export: the pure readers/writers, the operations and the `flask event` commands."""
from __future__ import annotations

import codecs
import csv
import io
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa

from tournament.errors import Forbidden, Refused
from tournament.events import exchange as ex
from tournament.events import exchange_ops as xops
from tournament.events import operations as ops
from tournament.events.models import AuditEntry, Decklist, Event, Registration

DECKS = Path(__file__).resolve().parents[2] / "tournament" / "data" / "demo_decks"
KENRITH = (DECKS / "kenrith.txt").read_text(encoding="utf-8")
ILLEGAL = (DECKS / "phelddagrif-illegal.txt").read_text(encoding="utf-8")
NAMES = ["山田太郎", "Šárka Dvořáková", "<b>Bobby</b> Tables"]


def _cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def players_csv(rows, header=("name", "contact", "player_id", "decklist"), delimiter=",", bom=False) -> bytes:
    lines = [delimiter.join(header)]
    lines += [delimiter.join(_cell(str(v)) for v in row) for row in rows]
    data = "\r\n".join(lines).encode("utf-8") + b"\r\n"
    return codecs.BOM_UTF8 + data if bom else data


def counts(db) -> tuple[int, int, int, int]:
    return tuple(db.session.execute(sa.select(sa.func.count()).select_from(t)).scalar()
                 for t in (Event, Registration, Decklist, AuditEntry))


# ================================================================ pure: players CSV

def test_semicolons_bom_aliases_and_a_multiline_decklist_cell():
    data = players_csv([[NAMES[0], "taro@example.jp", "1001", "Commander\n1 Kenrith, the Returned King\n\n1 Sol Ring"],
                        [NAMES[1], "", "1002", ""],
                        [NAMES[2], "+420 777", "", ""]],
                       header=("Player name", "E-Mail", "DCI #", "Deck list", "Table"), delimiter=";", bom=True)
    result = ex.read_players_csv(data)
    assert result.delimiter == ";"
    assert result.columns == {"name": "Player name", "contact": "E-Mail", "player_id": "DCI #", "decklist": "Deck list"}
    assert [r.name for r in result.rows] == NAMES
    assert [r.row for r in result.rows] == [2, 3, 4]
    assert result.rows[0].decklist == "Commander\n1 Kenrith, the Returned King\n\n1 Sol Ring"
    assert result.rows[2].contact == "+420 777"
    assert result.problems == []


@pytest.mark.parametrize("header, field", [("Name", "name"), ("PLAYER", "name"), ("player_name", "name"),
                                           ("Email", "contact"), ("Contact", "contact"), ("DCI", "player_id"),
                                           ("Player ID", "player_id"), ("id", "player_id"), ("Deck", "decklist")])
def test_header_aliases(header, field):
    other = "Name" if field != "name" else "Email"
    result = ex.read_players_csv(f"{header},{other}\nx,y\n".encode())
    assert result.columns[field] == header


def test_row_numbers_follow_the_spreadsheet_and_blank_rows_are_skipped():
    data = b'name,decklist\n\n"A","1 Sol Ring\n1 Mana Crypt"\n,\nB,\n'
    result = ex.read_players_csv(data)
    assert [(r.row, r.name) for r in result.rows] == [(3, "A"), (5, "B")]


def test_tab_delimited_utf16_from_excel_unicode_text():
    data = codecs.BOM_UTF16_LE + "Name\tEmail\r\n山田太郎\tt@example.jp\r\n".encode("utf-16-le")
    assert [(r.name, r.contact) for r in ex.read_players_csv(data).rows] == [("山田太郎", "t@example.jp")]


@pytest.mark.parametrize("data, message", [
    (b"", "empty"),
    (b"  \r\n\r\n", "empty"),
    (codecs.BOM_UTF8, "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "not a text file"),
    (b"name,contact\n", "no players"),
    (b"email,player id\na@b.c,1\n", "No name column"),
    ("name\nŠárka\n".encode("cp1250"), "not UTF-8 text (the first bad byte is on line 2)"),
    (b'name,contact\n"Open quote,x\nB,y\n', "Row 2: a quoted cell that starts on line 2 is never closed"),
])
def test_unreadable_files_are_refused_with_a_reason(data, message):
    with pytest.raises(ex.ExchangeInputError) as info:
        ex.read_players_csv(data)
    assert message in info.value.message


def test_missing_name_column_lists_what_was_found():
    with pytest.raises(ex.ExchangeInputError, match='Found: "Email", "DCI"'):
        ex.read_players_csv(b"Email,DCI\na@b.c,1\n")


def test_two_name_columns_are_refused():
    with pytest.raises(ex.ExchangeInputError, match='"Name" and "Player"'):
        ex.read_players_csv(b"Name,Player\na,b\n")


def test_size_and_row_limits():
    big = b"name\n" + b"x" * 1_000_001
    with pytest.raises(ex.ExchangeInputError) as info:
        ex.read_players_csv(big)
    assert info.value.kind == "too_large" and "the limit is 1.0 MB" in info.value.message
    rows = "name\n" + "".join(f"Player {i}\n" for i in range(5_001))
    with pytest.raises(ex.ExchangeInputError, match="more than 5,000 players"):
        ex.read_players_csv(rows.encode())
    assert len(ex.read_players_csv(rows.rsplit("Player 5000", 1)[0].encode()).rows) == 5_000


def test_duplicate_ids_and_extra_cells_are_row_problems():
    data = b"name,player_id\nA,7\nB,8\nC,7\nD,9,surprise\nE,8\n"
    problems = ex.read_players_csv(data).problems
    assert [str(p) for p in problems] == [
        "Row 4: Player ID 7 is also in row 2; each player ID may appear once.",
        "Row 5: It has 3 cells but the header has 2 columns. Is a cell with a comma or semicolon missing its quotes?",
        "Row 6: Player ID 8 is also in row 3; each player ID may appear once.",
    ]


def test_formula_cells_are_escaped_on_write_and_unescaped_on_read():
    data = ex.write_csv([{"name": "=HYPERLINK(\"x\")", "contact": "+420 777", "decklist": "1 Sol Ring"}],
                        columns=("name", "contact", "decklist"))
    cells = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))[1]
    assert cells == ["'=HYPERLINK(\"x\")", "'+420 777", "1 Sol Ring"]
    back = ex.read_players_csv(data).rows[0]
    assert (back.name, back.contact) == ("=HYPERLINK(\"x\")", "+420 777")


# ================================================================ pure: event JSON

def test_event_json_is_checked_before_anything_else():
    ok = {"format": ex.FORMAT, "version": ex.VERSION, "settings": {}}
    assert ex.load_event_json(json.dumps(ok).encode()) == ok
    cases = [
        (b"", "empty"),
        (b"{\"format\": ", "not valid JSON (line 1"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"[1, 2]", "not an export"),
        (json.dumps({"name": "x"}).encode(), "has no format marker"),
        (json.dumps({"format": "someone-else", "version": 1}).encode(), 'is marked "someone-else"'),
        (json.dumps({"format": ex.FORMAT}).encode(), "no valid version"),
        (json.dumps({"format": ex.FORMAT, "version": "1"}).encode(), "no valid version"),
        (json.dumps({"format": ex.FORMAT, "version": 99}).encode(), "version 99, made by a newer version"),
        (json.dumps({"format": ex.FORMAT, "version": 0}).encode(), "does not know"),
        (b"[" * 100_000, "not valid JSON"),
    ]
    for data, message in cases:
        with pytest.raises(ex.ExchangeInputError) as info:
            ex.load_event_json(data)
        assert message in info.value.message, (data[:30], info.value.message)
    with pytest.raises(ex.ExchangeInputError) as info:
        ex.load_event_json(b" " * (ex.MAX_EVENT_BYTES + 1))
    assert info.value.kind == "too_large" and "at most 20.0 MB" in info.value.message


# ================================================================ operations: players CSV

def test_import_players_registers_everyone_and_checks_decklists(db, starter_cards, make_event, organizer):
    event = make_event()
    data = players_csv([[NAMES[0], "taro@example.jp", "1001", KENRITH],
                        [NAMES[1], "", "1002", ILLEGAL],
                        [NAMES[2], "", "", ""]], delimiter=";", bom=True)
    result = xops.import_players(event, organizer, data)
    db.session.commit()
    regs = {r.name: r for r in event.registrations}
    assert list(regs) == NAMES and len(result.registrations) == 3
    assert regs[NAMES[0]].deck_status == "legal" and regs[NAMES[0]].player_id == "1001"
    assert regs[NAMES[1]].deck_status == "illegal"
    assert regs[NAMES[2]].deck_status == "missing" and regs[NAMES[2]].player_id is None
    assert all(len(r.access_code) == ops.ACCESS_CODE_LENGTH for r in regs.values())
    actions = db.session.execute(sa.select(AuditEntry.action).where(AuditEntry.event_id == event.id)).scalars().all()
    assert actions.count("registration.create") == 3 and "players.import" in actions


def test_dry_run_stores_nothing(db, make_event, organizer):
    event = make_event()
    before = counts(db)
    result = xops.import_players(event, organizer, players_csv([["A", "", "1", ""], ["B", "", "2", ""]]), dry_run=True)
    assert [r.name for r in result.rows] == ["A", "B"] and result.registrations == []
    assert counts(db) == before


@pytest.mark.parametrize("data, status, message", [
    (b"", 400, "The file is empty"),
    (bytes(range(256)) * 4, 400, "not a text file"),
    (b"email,dci\na@b.c,1\n", 400, "No name column"),
    (b"name\n" + b"x" * 1_100_000, 413, "the limit is 1.0 MB"),
    (("name\n" + "".join(f"P{i}\n" for i in range(5_001))).encode(), 400, "more than 5,000 players"),
    (players_csv([["A", "", "", ""], ["x" * 10_000, "", "", ""]]), 400,
     "Row 3: The name is 10,000 characters; the limit is 100."),
    (players_csv([["A", "", "7", ""], ["B", "", "8", ""], ["C", "", "7", ""]]), 400,
     "Row 4: Player ID 7 is also in row 2"),
    (b"name\nA\n\xc3\x28\n", 400, "not UTF-8 text (the first bad byte is on line 3)"),
    (players_csv([["A", "", "", ""], ["", "a@b.c", "", ""]]), 400, "Row 3: The name is required."),
    (players_csv([["A\x07", "", "", ""]]), 400, "Row 2: The name contains control characters"),
    (players_csv([["A", "x" * 300, "", ""]]), 400, "Row 2: The contact is 300 characters"),
    (players_csv([["A", "", "", "1 Sol Ring\n" * 2_001]]), 400, "Row 2: The decklist cannot be read"),
])
def test_bad_player_files_store_nothing(db, make_event, make_player, organizer, data, status, message):
    event = make_event()
    make_player(event, "Already Here", player_id="42")
    before = counts(db)
    with pytest.raises(Refused) as info:
        xops.import_players(event, organizer, data)
    assert message in info.value.message and info.value.status == status
    assert counts(db) == before          # not even pending in the session
    db.session.rollback()
    assert counts(db) == before


def test_player_ids_already_registered_are_named_with_their_rows(db, make_event, make_player, organizer):
    event = make_event()
    make_player(event, "Already Here", player_id="42")
    before = counts(db)
    with pytest.raises(xops.ImportRefused) as info:
        xops.import_players(event, organizer, players_csv([["A", "", "1", ""], ["B", "", "42", ""]]))
    assert [str(p) for p in info.value.problems] == [
        "Row 3: Player ID 42 is already registered for this event (Already Here)."]
    assert info.value.summary == "1 row has a problem; nothing was imported."
    assert counts(db) == before


def test_every_bad_row_is_reported_at_once(make_event, organizer):
    rows = [["ok", "", "", ""], ["", "", "", ""], ["x" * 101, "", "", ""], ["fine", "y" * 201, "", ""]]
    with pytest.raises(xops.ImportRefused) as info:
        xops.import_players(make_event(), organizer, players_csv(rows))
    # the blank row 3 is skipped, not an error
    assert [p.row for p in info.value.problems] == [4, 5]
    assert info.value.message.startswith("2 rows have problems; nothing was imported. Row 4: The name is 101")


def test_only_the_owner_imports_players(db, make_event, make_user, judge):
    event = make_event()
    data = players_csv([["A", "", "", ""]])
    with pytest.raises(Forbidden):
        xops.import_players(event, make_user("Other Organizer"), data)
    with pytest.raises(Forbidden):
        xops.import_players(event, judge, data)
    with pytest.raises(Refused) as info:
        xops.import_players(event, None, data)
    assert info.value.status == 401


def test_finished_events_take_no_players_and_running_ones_take_late_entries(db, make_event, organizer):
    event = make_event(status="finished")
    with pytest.raises(Refused, match="finished"):
        xops.import_players(event, organizer, players_csv([["A", "", "", ""]]))
    running = make_event(status="running")
    xops.import_players(running, organizer, players_csv([["A", "", "", ""]]))
    assert running.registrations[0].late is True


# ================================================================ operations: export and re-import

@pytest.fixture
def full_event(db, starter_cards, make_event, make_player, organizer, judge):
    """An event with every kind of state: decklists (legal, illegal, resubmitted), check-ins, a drop, notes."""
    deadline = datetime(2026, 12, 5, 9, 30, tzinfo=timezone.utc)
    event = make_event(name="Šárka's <Friday> EDH", date="2026-12-05", venue="Hráčská 3, Brno", ruleset="edh-2010",
                       banlist_add=["Mana Crypt"], banlist_remove=["Coalition Victory"], pod_size=5,
                       sideboard_enabled=False, swap_seconds=120, scoring_profile="survival", round_minutes=75,
                       decklist_deadline=deadline.isoformat(), paper_size="Letter", max_bracket=4, bracket_pods=True)
    taro = make_player(event, NAMES[0], decklist=ILLEGAL, contact="taro@example.jp", player_id="1001")
    ops.submit_decklist(taro, KENRITH.encode(), user=judge)          # resubmitted by a judge
    sarka = make_player(event, NAMES[1], decklist=ILLEGAL, player_id="1002", declared_bracket=3)
    bobby = make_player(event, NAMES[2])
    ops.check_in(taro, judge)
    ops.check_in(sarka, judge)
    ops.drop(sarka, judge)
    ops.set_notes(bobby, organizer, "Arrives late; <script>alert(1)</script>")
    ops.update_event(event, organizer, {"status": "running"})
    late = ops.register_player(event, {"name": "Late Larry", "decklist": KENRITH}, user=judge)
    db.session.commit()
    assert late.late and taro.deck.legal and not sarka.deck.legal
    return event


def _snapshot(event: Event) -> dict:
    """Everything that must survive a round trip, without ids."""
    settings = {k: getattr(event, k) for k in ops.EVENT_FIELDS}
    if settings["decklist_deadline"] is not None:
        settings["decklist_deadline"] = ex.iso(settings["decklist_deadline"])
    players = []
    for reg in event.registrations:
        decks = Decklist.query.filter_by(registration_id=reg.id).order_by(Decklist.id).all()
        players.append({
            "name": reg.name, "contact": reg.contact, "player_id": reg.player_id, "late": reg.late,
            "checked_in_at": ex.iso(reg.checked_in_at), "dropped_at": ex.iso(reg.dropped_at), "notes": reg.notes,
            "created_at": ex.iso(reg.created_at), "deck_status": reg.deck_status,
            "declared_bracket": reg.declared_bracket,
            "current": decks.index(reg.deck) if reg.deck else None,
            "decklists": [(d.text, d.ruleset, d.legal, d.result, ex.iso(d.submitted_at), d.submitted_by,
                           d.bracket_floor)
                          for d in decks],
        })
    return {"settings": settings, "players": players}


def _audit(event: Event) -> list[tuple]:
    entries = AuditEntry.query.filter_by(event_id=event.id).order_by(AuditEntry.id).all()
    return [(a.actor, a.action, ex.iso(a.at)) for a in entries]


def test_json_round_trip_recreates_the_event_field_by_field(db, full_event, make_user):
    original = _snapshot(full_event)
    codes = [r.access_code for r in full_event.registrations]
    audit = _audit(full_event)
    data = xops.export_event(full_event, full_event.organizer, "json").data
    document = json.loads(data)
    assert document["format"] == ex.FORMAT and document["version"] == ex.VERSION and document["rounds"] == []
    assert [p["access_code"] for p in document["players"]] == codes
    db.session.delete(full_event)          # so the access codes are free again
    db.session.commit()

    importer = make_user("Ingrid Importer")
    result = xops.import_event(importer, data)
    db.session.commit()
    event = result.event
    assert event.organizer_id == importer.id
    assert result.players == 4 and result.decklists == 4 and result.notes == []
    recreated = _snapshot(event)
    assert recreated["settings"] == original["settings"]
    for before, after in zip(original["players"], recreated["players"], strict=True):
        for key in before:
            assert after[key] == before[key], (before["name"], key)
    assert [r.access_code for r in event.registrations] == codes
    # the exported log comes first, then event.create and event.import of the importer
    new_audit = _audit(event)
    importer_actor = "organizer:Ingrid Importer"
    # each exported entry is marked as the file's word, never as signed by an account here
    assert [a for a in new_audit if a[0] != importer_actor] == [("imported:" + a[0], *a[1:]) for a in audit]
    assert [a[1] for a in new_audit if a[0] == importer_actor] == ["event.create", "event.import"]
    # registration ids in the log point at the new registrations
    new_ids = {r.id for r in event.registrations}
    logged = [a.details["registration"] for a in AuditEntry.query.filter_by(event_id=event.id)
              if "registration" in (a.details or {})]
    assert logged and set(logged) <= new_ids


def test_importing_while_the_original_exists_gives_new_codes_and_says_so(db, full_event, organizer):
    data = xops.export_event(full_event, organizer, "json").data
    before = counts(db)
    result = xops.import_event(organizer, data)
    db.session.commit()
    old = {r.access_code for r in full_event.registrations}
    new = {r.access_code for r in result.event.registrations}
    assert not old & new and len(new) == 4
    assert len(result.notes) == 1 and result.notes[0].startswith("4 players got a new access code")
    assert NAMES[0] in result.notes[0]
    assert counts(db)[0] == before[0] + 1


def test_import_rechecks_decklists_against_current_card_data(db, full_event, organizer):
    document = json.loads(xops.export_event(full_event, organizer, "json").data)
    for player in document["players"]:
        for deck in player["decklists"]:
            deck["legal"] = not deck["legal"]              # what an old card database might have said
            deck["result"] = {"legal": deck["legal"], "findings": []}
    result = xops.import_event(organizer, json.dumps(document).encode())
    assert any("changed legality" in n for n in result.notes)
    for old, new in zip(full_event.registrations, result.event.registrations):
        assert (new.deck.legal, new.deck.result) == (old.deck.legal, old.deck.result) if old.deck else new.deck is None


def test_import_tolerates_extra_keys_and_missing_optional_ones(db, starter_cards, organizer):
    document = {
        "format": ex.FORMAT, "version": 1, "added_by_a_later_version": {"x": 1},
        "settings": {"name": "Minimal", "ruleset": "edh-2010", "future_setting": True},
        "players": [{"name": "Only A Name", "shoe_size": 44},
                    {"name": "With Deck", "decklists": [{"text": KENRITH}], "checked_in_at": "2026-12-05T10:00:00Z"}],
        "rounds": [{"number": 1, "pods": []}],
    }
    result = xops.import_event(organizer, json.dumps(document).encode())
    a, b = result.event.registrations
    assert a.deck is None and b.deck.legal and b.deck.submitted_by == "import"
    assert ex.iso(b.checked_in_at) == "2026-12-05T10:00:00+00:00"
    assert any("1 round(s)" in n for n in result.notes)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["players"][1].update(name="x" * 10_000), "Player 2 (xxxx"),
    (lambda d: d["players"][2].update(player_id=d["players"][0]["player_id"] or "1001") or
     d["players"][0].update(player_id="1001"), "Player 3 (<b>Bobby</b> Tables): Player ID 1001 is also in player 1"),
    (lambda d: d["players"][0].update(checked_in_at="yesterday"), "Player 1 (山田太郎): The check-in time is not"),
    (lambda d: d["players"][0]["decklists"][0].update(text="\x00\x01\x02"),
     "Player 1 (山田太郎): Decklist 1 cannot be read"),
    (lambda d: d["players"][0].update(current_decklist=999_999), "current decklist 999999 is not among"),
    (lambda d: d["players"].append("not a player"), "Player 5: Each player must be an object"),
    (lambda d: d["audit_log"].append({"actor": "", "action": "x"}), "Audit entry"),
    (lambda d: d["settings"].update(pod_size=9), "The event settings: The pod size"),
    (lambda d: d.update(settings=None), "no event settings"),
    (lambda d: d.update(players={"a": 1}), "players in the file must be a list"),
])
def test_bad_exports_are_refused_and_store_nothing(db, full_event, organizer, change, message):
    document = json.loads(xops.export_event(full_event, organizer, "json").data)
    change(document)
    before = counts(db)
    with pytest.raises(Refused) as info:
        xops.import_event(organizer, json.dumps(document).encode())
    assert message in info.value.message and info.value.status == 400
    assert counts(db) == before


def test_export_needs_staff_and_import_needs_an_organizer(db, full_event, make_user, judge):
    other = make_user("Other Organizer")
    with pytest.raises(Forbidden):
        xops.export_event(full_event, other, "csv")
    assert xops.export_event(full_event, judge, "csv").data
    with pytest.raises(Refused) as info:
        xops.export_event(full_event, None, "json")
    assert info.value.status == 401
    data = xops.export_event(full_event, judge, "json").data
    with pytest.raises(Forbidden):
        xops.import_event(judge, data)


def test_csv_export_has_every_player_and_opens_with_the_csv_module(db, full_event, organizer):
    export = xops.export_event(full_event, organizer, "csv")
    assert export.filename == f"event-{full_event.id}-sarka-s-friday-edh.csv"
    assert export.data.startswith(codecs.BOM_UTF8)
    rows = list(csv.DictReader(io.StringIO(export.data.decode("utf-8-sig"), newline="")))
    assert list(rows[0]) == list(ex.EXPORT_CSV_COLUMNS)
    assert [r["name"] for r in rows] == NAMES + ["Late Larry"]
    by_name = {r["name"]: r for r in rows}
    assert by_name[NAMES[0]]["checked_in"] == "yes" and by_name[NAMES[0]]["deck_status"] == "legal"
    assert by_name[NAMES[0]]["commanders"] == "Kenrith, the Returned King"
    assert by_name[NAMES[0]]["decklist"] == KENRITH
    assert by_name[NAMES[1]]["dropped"] == "yes" and by_name[NAMES[1]]["deck_status"] == "illegal"
    assert by_name[NAMES[2]]["deck_status"] == "missing" and by_name[NAMES[2]]["decklist"] == ""
    assert by_name["Late Larry"]["late"] == "yes"
    codes = {r.name: r.access_code for r in full_event.registrations}
    assert all(by_name[n]["access_code"] == c for n, c in codes.items())


def test_exported_csv_imports_as_players_of_another_event(db, full_event, make_event, organizer):
    data = xops.export_event(full_event, organizer, "csv").data
    target = make_event(name="Next week")
    result = xops.import_players(target, organizer, data)
    assert [r.name for r in result.registrations] == NAMES + ["Late Larry"]
    assert "access_code" in result.file.ignored_columns
    assert [r.deck_status for r in result.registrations] == [r.deck_status for r in full_event.registrations]


# ================================================================ the `flask event` commands

@pytest.fixture
def cli(app):
    from tournament.events.cli import event
    if "event" not in app.cli.commands:
        app.cli.add_command(event)
    return app


def test_cli_export_and_import_round_trip(db, cli, runner, full_event, organizer, tmp_path):
    out = tmp_path / "event.json"
    result = runner.invoke(args=["event", "export", str(full_event.id), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_bytes())["format"] == ex.FORMAT
    before = _snapshot(full_event)
    result = runner.invoke(args=["event", "import", str(out), "--organizer", organizer.name])
    assert result.exit_code == 0, result.output
    assert "4 players, 4 decklists" in result.output and "new access code" in result.output
    new = db.session.execute(sa.select(Event).order_by(Event.id.desc())).scalars().first()
    assert new.id != full_event.id and _snapshot(new) == before

    csv_out = tmp_path / "event.csv"
    result = runner.invoke(args=["event", "export", str(full_event.id), "--format", "csv", "-o", str(csv_out)])
    assert result.exit_code == 0, result.output
    assert len(list(csv.reader(io.StringIO(csv_out.read_text("utf-8-sig"))))) == 5
    result = runner.invoke(args=["event", "export", str(full_event.id), "-o", "-"])
    assert json.loads(result.stdout_bytes)["settings"]["name"] == full_event.name


def test_cli_refusals_store_nothing(db, cli, runner, full_event, organizer, judge, tmp_path):
    before = counts(db)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else", "version": 1}')
    result = runner.invoke(args=["event", "import", str(bad), "--organizer", organizer.name])
    assert result.exit_code == 1 and "not an event export" in result.output
    result = runner.invoke(args=["event", "import", str(bad), "--organizer", judge.name])
    assert result.exit_code == 1 and "only an organizer" in result.output
    result = runner.invoke(args=["event", "import", str(tmp_path / "missing.json"), "--organizer", organizer.name])
    assert result.exit_code == 1 and "No file at" in result.output
    result = runner.invoke(args=["event", "export", "999", "-o", str(tmp_path / "x.json")])
    assert result.exit_code == 1 and "No such event" in result.output
    players = tmp_path / "players.csv"
    players.write_bytes(players_csv([["A", "", "1", ""], ["B", "", "1", ""]]))
    result = runner.invoke(args=["event", "import-players", str(full_event.id), str(players),
                                 "--organizer", organizer.name])
    assert result.exit_code == 1 and "Row 3: Player ID 1 is also in row 2" in result.output
    assert counts(db) == before


def test_cli_import_players(db, cli, runner, make_event, organizer, tmp_path):
    event = make_event()
    players = tmp_path / "players.csv"
    players.write_bytes(players_csv([[n, "", "", ""] for n in NAMES], delimiter=";", bom=True))
    result = runner.invoke(args=["event", "import-players", str(event.id), str(players), "--organizer",
                                 organizer.name, "--dry-run"])
    assert result.exit_code == 0 and "3 players can be imported" in result.output
    assert Registration.query.count() == 0
    result = runner.invoke(args=["event", "import-players", str(event.id), str(players), "--organizer", organizer.name])
    assert result.exit_code == 0, result.output
    assert sorted(r.name for r in Registration.query) == sorted(NAMES)


def test_cli_refuses_oversized_files_by_their_size(db, cli, runner, organizer, tmp_path):
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(ex.MAX_EVENT_BYTES + 5_000_000)
    result = runner.invoke(args=["event", "import", str(big), "--organizer", organizer.name])
    assert result.exit_code == 1 and "is 25.0 MB; the limit is 20.0 MB" in result.output
    assert Event.query.count() == 0
