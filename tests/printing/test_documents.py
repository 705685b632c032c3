"""Every document renders from the database; names in every script round-trip through text extraction."""
from __future__ import annotations

import unicodedata
from datetime import datetime, timezone

import pytest
from flask import current_app

from tournament.printing import operations as ops
from tournament.printing.base import TextRows
from tournament.printing.data import DocInfo, PairingsData, SeatLine, TableLine
from tournament.printing.documents import DOCUMENTS, PairingsByName, PairingsByTable, name_key
from tournament.printing import fonts
from tournament.rounds import operations as rounds
from tournament.rounds.presenting import column_name

from pdf_helpers import ILLEGAL, KENRITH, NAMES, pdf_text, squash


def seated(event, number):
    rnd = rounds.get_round(event, number)
    names = {r.id: r.name for r in event.registrations}
    return rnd, [(t.number, t.kind, s.seat, names[s.registration_id]) for t in rnd.tables for s in t.seats]


def test_pairings_by_table_show_every_name_table_and_seat(pods_event):
    rnd, seats = seated(pods_event, 2)
    pdf, filename = ops.build_document(pods_event, "pairings-by-table", 2)
    text = pdf_text(pdf)
    assert filename == f"event-{pods_event.id}-pairings-by-table-round-2.pdf"
    flat = squash(text)
    assert len(seats) == len(NAMES)
    for table, _kind, seat, name in seats:
        assert squash(name) in flat, name
        assert f"Table {table}" in text and f"Seat {seat}" in text
    # each table's block lists its seats in order, the table number first
    for t in rnd.tables:
        names = [squash(n) for tn, _k, _s, n in seats if tn == t.number]
        positions = [flat.index(n) for n in names]
        assert positions == sorted(positions)
        assert flat.index(f"Table{t.number}") < positions[0]
    assert "Friday <i>EDH</i> 金曜日" in text          # the event name on every page, literally
    assert "Round 2" in text and "Page 1" in text and "Printed " in text


def test_pairings_by_name_are_alphabetical_with_table_and_seat(pods_event):
    _rnd, seats = seated(pods_event, 2)
    text = pdf_text(ops.build_document(pods_event, "pairings-by-name", 2)[0])
    flat = squash(text)
    ordered = sorted(seats, key=lambda s: name_key(s[3]))
    positions = [flat.index(squash(s[3])) for s in ordered]
    assert positions == sorted(positions)
    # name -> table and seat: the numbers follow the names column
    numbers = text.split()
    for table, _k, seat, _n in seats:
        assert str(table) in numbers and str(seat) in numbers


@pytest.mark.parametrize("name", NAMES)
def test_every_script_round_trips(name):
    data = PairingsData(DocInfo("Scripts", "A4", 1), "pods", (TableLine(1, "pod", (SeatLine(1, name),)),))
    for cls in (PairingsByTable, PairingsByName):
        text = pdf_text(cls(data).render())
        assert name in text


RIGHT_TO_LEFT = ["محمد الراشد", "דוד לוי", "لا إله"]


def _drawn_line(text: str) -> str:
    return next(line.strip() for line in text.splitlines()
                if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in line))


@pytest.mark.parametrize("name", RIGHT_TO_LEFT)
def test_arabic_and_hebrew_names_print_shaped_and_right_to_left(name):
    """A PDF holds glyphs in drawing order, left to right: read back from the right, with the joined
    Arabic forms taken apart again (NFKC), they must give the name as typed."""
    data = PairingsData(DocInfo("Scripts", "A4", 1), "pods", (TableLine(1, "pod", (SeatLine(1, name),)),))
    for cls in (PairingsByTable, PairingsByName):
        drawn = _drawn_line(pdf_text(cls(data).render()))
        assert unicodedata.normalize("NFKC", drawn[::-1]) == name, drawn
        if any(unicodedata.bidirectional(ch) == "AL" for ch in name):
            assert any(0xFE70 <= ord(ch) <= 0xFEFF for ch in drawn)         # joined, not isolated letters
        assert not fonts.needs_fallback(drawn)                              # no missing-glyph boxes


def test_left_to_right_text_is_left_alone():
    for text in ("Šárka Dvořáková", "山田太郎", "Table 12 · seat 3", ""):
        assert fonts.visual(text) is text


def test_markup_prints_literally():
    name = "<b>Bobby</b> Tables & <font face='x'>Co</font>"
    data = PairingsData(DocInfo(name, "A4", 1), "pods", (TableLine(1, "pod", (SeatLine(1, name),)),))
    text = pdf_text(PairingsByTable(data).render())
    assert text.count(name) >= 2            # page header and the table
    assert fonts.markup("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"


def test_cjk_glyphs_come_from_the_cjk_font():
    fonts.register_fonts()
    assert fonts.runs("Šárka 山田") == ((fonts.REGULAR, "Šárka "), (fonts.CJK, "山田"))
    assert fonts.runs("Иван 김민준") == ((fonts.REGULAR, "Иван "), (fonts.CJK, "김민준"))
    assert not fonts.needs_fallback("Šárka Dvořáková Иван Петров")


def test_name_sort_works_for_every_script():
    names = ["Zoë", "zoe", "Ábel", "Abel", "Иван", "山田", "김", "Émile", "Eve"]
    ordered = sorted(names, key=name_key)
    assert ordered.index("Abel") < ordered.index("Ábel") < ordered.index("Émile") < ordered.index("Eve")
    assert ordered.index("Zoë") < ordered.index("Иван")


def test_long_tables_split_across_pages_and_keep_pods_together():
    tables = tuple(TableLine(n, "pod", tuple(SeatLine(s, f"Player {n}-{s}") for s in range(1, 5)))
                   for n in range(1, 61))
    data = PairingsData(DocInfo("Big", "Letter", 1), "pods", tables)
    text = pdf_text(PairingsByTable(data).render())
    assert "Page 3" in text
    for n in range(1, 61):
        assert f"Player {n}-4" in text
    rows = TextRows([("a",)] * 10, [100], groups=[0, 4, 8])
    first, rest = rows.split(100, rows.row_height * 6)
    assert len(first.rows) == 4 and len(rest.rows) == 6 and rest.groups == [0, 4]


def test_each_document_renders_for_pods(pods_event):
    current_app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"        # the QR poster points there
    now = datetime(2026, 5, 1, 18, 30, tzinfo=timezone.utc)
    for slug in DOCUMENTS:
        pdf, _name = ops.build_document(pods_event, slug, None, now=now)
        text = pdf_text(pdf)
        assert "Printed 2026-05-01 18:30 UTC" in text and "Page 1" in text, slug
        flat = squash(text)
        if slug in ("pairings-by-table", "pairings-by-name", "standings", "decklists", "deck-check-report"):
            for name in NAMES:
                assert squash(name) in flat, (slug, name)


def test_each_document_renders_for_duel(duel_event):
    current_app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"        # the QR poster points there
    for slug in DOCUMENTS:
        text = pdf_text(ops.build_document(duel_event, slug, None)[0])
        assert "Duel Night" in text, slug
        flat = squash(text)
        if slug in ("pairings-by-table", "pairings-by-name", "standings"):
            for name in NAMES[:5]:
                assert squash(name) in flat, (slug, name)


def test_standings_show_the_profiles_columns_and_votes(pods_event):
    text = pdf_text(ops.build_document(pods_event, "standings", 1)[0])
    rows = rounds.standings(pods_event)
    for column in rows[0].tiebreakers:
        assert squash(column_name(column)) in squash(text)
    assert "Votes" in text and "Standings after round 1" in text
    # democratic scoring breaks ties by votes: one Votes column, headed as on the page (it was printed twice,
    # once as the raw key "votes")
    # (the legend under the table then says what each column means: "Votes: Votes: how many times ...")
    table, _sep, legend = text.partition("Votes: Votes:")
    assert table.count("Votes") == 1 and "\nvotes\n" not in text and legend


def test_result_slips_have_boxes_votes_prizes_and_signatures(pods_event):
    text = pdf_text(ops.build_document(pods_event, "result-slips", 2)[0])
    rnd = rounds.get_round(pods_event, 2)
    assert text.count("Signature") == len(rnd.tables) and text.count("Votes for") == 2 * len(rnd.tables)      # the column and the hint
    assert all(n in text for n in NAMES if "<" not in n)        # one row per seat: vote and signature in it
    assert squash("Every player signs to confirm") in squash(text)
    assert squash("Most combat damage dealt in one turn") in squash(text)
    assert "Won by general damage" in text and "☐" in text and "✂" in text


def test_a_tables_extension_is_on_its_slip(db, pods_event):
    rnd = rounds.get_round(pods_event, 2)
    extended, other = rnd.tables[0], rnd.tables[1]
    extended.extra_minutes = 5
    db.session.commit()
    text = pdf_text(ops.build_document(pods_event, "result-slips", 2)[0])
    assert f"Table {extended.number} · Round 2" in text and "time extension +5 min" in text
    assert text.count("time extension") == 1


def test_duel_slips_have_three_games(duel_event):
    text = pdf_text(ops.build_document(duel_event, "result-slips", 1)[0])
    assert "Game1won" in squash(text) and "Game3won" in squash(text) and "Signature" in text
    table = pdf_text(ops.build_document(duel_event, "pairings-by-table", 1)[0])
    assert "Byes" in table


def test_prize_slips_have_placings_and_prize_leaders(pods_event):
    text = pdf_text(ops.build_document(pods_event, "prize-slips")[0])
    assert "1st place" in text and "points" in text
    assert "Most combat damage dealt in one turn" in text and "value 14" in text


def test_decklists_and_rules_sheet(pods_event, starter_cards, make_player, judge):
    make_player(pods_event, "Deck Owner Kenrith", decklist=KENRITH, staff=judge)
    make_player(pods_event, "Deck Owner Illegal", decklist=ILLEGAL, staff=judge)
    decks = pdf_text(ops.build_document(pods_event, "decklists")[0])
    assert "Kenrith, the Returned King" in decks and "Land (" in decks and "No decklist submitted." in decks
    report = pdf_text(ops.build_document(pods_event, "deck-check-report")[0])
    assert "illegal" in report and "missing" in report
    rules = squash(pdf_text(ops.build_document(pods_event, "rules")[0]))
    for words in ("Sol Ring (added by the organizer)", "Taken off the list by the organizer (legal here): Balance",
                  "partial Paris mulligan", "starts at 40 life", "21 or more", "180 seconds (3 minutes)",
                  "Democratic", "Most combat damage dealt in one turn"):
        assert squash(words) in rules, words


def test_missing_fonts_name_the_debian_package(monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "_registered", {})
    monkeypatch.setattr(fonts, "SYSTEM_DIRS", (str(tmp_path),))
    monkeypatch.delenv("PRINT_FONT_DIRS", raising=False)
    with pytest.raises(fonts.FontsMissing) as e:
        fonts.register_fonts()
    assert "fonts-dejavu-core" in str(e.value) and "fonts-wqy-microhei" in str(e.value)
    assert "PRINT_FONT_DIRS" in str(e.value)
