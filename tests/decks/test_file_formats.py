"""Every deck file a player brings, read and checked against the real card data; and what is stored of it.

The files in tests/decks/files are one real 100-card Commander deck (Kamiz, Obscura Oculus, from the shared
sample deck003, legal under `commander`) written the way each client or site writes it: Cockatrice .cod,
Magic Workstation .mwDeck, XMage .dck, an Excel-saved Archidekt CSV starting with "sep=,", a Dragon Shield
collection CSV, quantities after the name, notes and category headings, and a Notepad "ANSI" file.
"""
from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from tests.conftest import SHARED

from tournament.cards.importers import read_cards
from tournament.cards.pool import MemoryCardPool
from tournament.decks.checks import MAX_FINDINGS_BYTES, MAX_GENERALS_LISTED, check_deck
from tournament.decks.domain import DeckInputError
from tournament.decks.parser import parse_decklist, parse_upload, read_decklist_text
from tournament.decks.storage import STORED_TEXT_MAX, stored_text

FILES = Path(__file__).resolve().parent / "files"
ATOMIC = SHARED / "cards" / "AtomicCards.json.gz"
GENERAL = "Kamiz, Obscura Oculus"

if not ATOMIC.exists():
    pytest.skip(f"{ATOMIC} not found", allow_module_level=True)


@pytest.fixture(scope="module")
def pool() -> MemoryCardPool:
    return MemoryCardPool(read_cards(ATOMIC))


def check(data: bytes, name: str | None, pool, ruleset="commander"):
    return check_deck(parse_upload(data, name), pool, ruleset)


def codes(result) -> list[str]:
    return [f.code for f in result.findings]


# ---------------------------------------------------------------- one test per format, a real file each

@pytest.mark.parametrize("name, warnings", [
    ("kamiz.cod", []),
    ("kamiz.mwDeck", ["COMMANDER_FROM_SIDEBOARD"]),
    ("kamiz.dck", ["COMMANDER_FROM_SIDEBOARD"]),
    ("kamiz-excel.csv", []),
    ("kamiz-quantities.txt", []),
    ("kamiz-notes.txt", ["READ_AS_NOTE", "READ_AS_HEADING"]),
    ("kamiz-ansi.txt", ["ENCODING"]),
])
def test_each_format_reads_the_whole_deck_and_finds_it_legal(pool, name, warnings):
    data = (FILES / name).read_bytes()
    result = check(data, name, pool)
    assert result.legal, [f.message for f in result.findings]
    assert result.commanders == [GENERAL]
    assert result.main_count == 99
    assert sorted(codes(result)) == sorted(warnings)
    # found by its content, not its suffix: the same deck with no file name, or a wrong one
    for other in (None, "deck.txt"):
        again = check(data, other, pool)
        assert (again.legal, again.commanders, again.main_count) == (True, [GENERAL], 99), other


def test_cockatrice_general_in_the_side_zone_and_tokens_are_not_deck_cards():
    deck = parse_upload((FILES / "kamiz.cod").read_bytes(), "kamiz.cod")
    assert [(e.count, e.name) for e in deck.commanders] == [(1, GENERAL)]
    assert deck.sideboard == [] and deck.unparsed == []
    names = {e.name for e in deck.entries()}
    assert "Thopter" not in names and "Clue" not in names
    assert sum(e.count for e in deck.main) == 99
    text = (FILES / "kamiz.cod").read_text()
    first = deck.main[0]
    assert text.splitlines()[first.line - 1].strip().startswith(f'<card number="1" name="{first.name}"')


def test_cockatrice_with_two_partners_in_the_side_zone_reads_them_as_the_command_zone(pool):
    cod = ('<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n<zone name="main">\n'
           '<card number="1" name="Sol Ring"/>\n<card number="97" name="Island"/>\n</zone>\n<zone name="side">\n'
           '<card number="1" name="Thrasios, Triton Hero"/>\n<card number="1" name="Tymna the Weaver"/>\n'
           '</zone>\n</cockatrice_deck>\n')
    result = check(cod.encode(), "partners.cod", pool)
    assert set(result.commanders) == {"Thrasios, Triton Hero", "Tymna the Weaver"}
    assert result.legal and result.main_count == 98


def test_magic_workstation_keeps_one_word_names_and_the_sb_general():
    deck = parse_upload((FILES / "kamiz.mwDeck").read_bytes(), "kamiz.mwDeck")
    assert deck.unparsed == []
    names = [e.name for e in deck.main]
    assert "Mutavault" in names and "Sea Gate Wreckage" in names
    assert not any("[" in n or n.endswith("(1)") for n in names)
    assert [(e.count, e.name) for e in deck.sideboard] == [(1, GENERAL)]
    assert ("13", "Swamp") in {(str(e.count), e.name) for e in deck.main}


def test_set_codes_before_the_name_do_not_eat_one_word_names():
    deck = parse_decklist("1 [M21] Mutavault\n1 [M21] Orcish Cannonade\n1 [C21:263] Sol Ring\n")
    assert [(e.count, e.name) for e in deck.main] == [(1, "Mutavault"), (1, "Orcish Cannonade"), (1, "Sol Ring")]


def test_xmage_layout_lines_over_500_characters_are_metadata_not_errors():
    text = (FILES / "kamiz.dck").read_text()
    assert max(len(line) for line in text.splitlines()) > 500
    deck = parse_upload(text.encode(), "kamiz.dck")
    assert deck.unparsed == []
    assert sum(e.count for e in deck.main) == 99


def test_excel_sep_line_then_the_header():
    deck = parse_upload((FILES / "kamiz-excel.csv").read_bytes(), "kamiz-excel.csv")
    assert deck.unparsed == []
    assert [e.name for e in deck.commanders] == [GENERAL]
    assert deck.commanders[0].line == 3              # sep=, is line 1, the header line 2


def test_dragon_shield_collection_export_with_sep_line():
    deck = parse_upload((FILES / "kamiz-dragonshield.csv").read_bytes(), "kamiz-dragonshield.csv")
    assert deck.unparsed == []
    assert sum(e.count for e in deck.main) == 100      # the export does not mark the general
    assert deck.main[0].name == GENERAL and deck.main[0].line == 3


def test_sep_line_with_no_header_is_refused_with_what_to_do():
    with pytest.raises(DeckInputError, match="no header row.*Export it again"):
        parse_upload(b"sep=,\n1,Sol Ring\n", "deck.csv")


@pytest.mark.parametrize("line, expected", [
    ("Sol Ring x1", (1, "Sol Ring")), ("Mountain x39", (39, "Mountain")), ("1 x Sol Ring", (1, "Sol Ring")),
    ("1x Sol Ring", (1, "Sol Ring")), ("1 X Sol Ring", (1, "Sol Ring")), ("Mountain 39x", (39, "Mountain")),
    ("1 Xenagos, the Reveler", (1, "Xenagos, the Reveler")), ("Ring of Xathrid", (1, "Ring of Xathrid")),
    ("Sol Ring x 2", (2, "Sol Ring")),
])
def test_quantities_before_or_after_the_name(line, expected):
    deck = parse_decklist(f"Deck\n{line}\n")
    assert [(e.count, e.name) for e in deck.main] == [expected]


def test_quantity_after_the_name_out_of_range_is_an_unparsed_line():
    deck = parse_decklist("Deck\nSol Ring x0\n1 Arcane Signet\n")
    assert [u.line for u in deck.unparsed] == [2]


def test_with_quantities_after_names_the_real_fault_is_found(pool):
    text = (FILES / "kamiz-quantities.txt").read_text().replace("Morphling x1", "Lightning Bolt x1")
    assert "Lightning Bolt x1" in text
    result = check(text.encode(), None, pool)
    assert codes(result) == ["COLOR_IDENTITY"]
    assert result.findings[0].card == "Lightning Bolt"


def test_notes_after_cards_are_left_out_and_said(pool):
    result = check((FILES / "kamiz-notes.txt").read_bytes(), "kamiz-notes.txt", pool)
    note = next(f for f in result.findings if f.code == "READ_AS_NOTE")
    assert note.severity == "warning" and note.line == 5
    assert "“blocker”" in note.message and "“value”" in note.message and "“draw engine”" in note.message
    heading = next(f for f in result.findings if f.code == "READ_AS_HEADING")
    assert "“Removal”" in heading.message and "“Card Draw:”" in heading.message
    assert "Far // Away" in {e.name for e in parse_decklist((FILES / "kamiz-notes.txt").read_text()).main}


def test_a_split_card_and_a_heading_that_is_a_card_stay_cards(pool):
    text = "Commander\n1 Kamiz, Obscura Oculus\n\nDeck\n1 Far // Away\nCounterspell\n1 Sol Ring\n1 Arcane Signet\n"
    result = check(text.encode(), None, pool)
    assert "READ_AS_HEADING" not in codes(result) and "READ_AS_NOTE" not in codes(result)
    assert result.main_count == 4


def test_a_misspelt_count_less_card_is_not_taken_for_a_heading(pool):
    # a comma or apostrophe is no heading, and a list mostly without counts has no headings
    text = "Deck\nKamiz, Obscura Ocullus\n1 Sol Ring\n1 Arcane Signet\n1 Mind Stone\n"
    assert "UNKNOWN_CARD" in codes(check(text.encode(), None, pool))
    text = "Deck\nRamp\nSol Ring\nArcane Signet\nMind Stoen\n1 Island\n"
    found = codes(check(text.encode(), None, pool))
    assert found.count("UNKNOWN_CARD") == 2 and "READ_AS_HEADING" not in found


def test_sol_ring_slash_slash_note_reads_sol_ring(pool):
    result = check(b"Commander\n1 Kamiz, Obscura Oculus\nDeck\n1 Sol Ring // ramp\n1 Sol Ring - fast mana\n"
                   b"1 Arcane Signet # rock\n", None, pool)
    assert "UNKNOWN_CARD" not in codes(result)
    assert "SINGLETON" in codes(result)            # both lines are the same card
    assert next(f for f in result.findings if f.code == "READ_AS_NOTE").params["num"] == 3


def test_windows_1252_warning_names_the_encoding(pool):
    result = check((FILES / "kamiz-ansi.txt").read_bytes(), "kamiz-ansi.txt", pool)
    encoding = next(f for f in result.findings if f.code == "ENCODING")
    assert "Windows-1252" in encoding.message and "UTF-8" in encoding.message
    assert "Lim-Dûl the Necromancer" in read_decklist_text((FILES / "kamiz-ansi.txt").read_bytes())


def test_shift_jis_is_refused_with_how_to_save_as_utf8():
    with pytest.raises(DeckInputError, match="Save it as UTF-8"):
        parse_upload("ジェネラル\n1 ゴブリンの長槍使い\n".encode("shift_jis"), "deck.txt")


# ---------------------------------------------------------------- stored size

def stored_size(data: bytes, pool, ruleset="commander") -> int:
    deck = parse_upload(data, None)
    result = check_deck(deck, pool, ruleset).to_json()
    text = stored_text(read_decklist_text(data), deck)
    return len(text.encode()) + len(json.dumps(result, ensure_ascii=False).encode())


def hostile_lists() -> dict[str, bytes]:
    rnd = random.Random(28)

    def junk(n):
        return "Z" + "".join(rnd.choices(string.ascii_letters + " ", k=n)).strip()
    lists = {
        "2,000 generals": "Commander\n" + "\n".join(f"1 {junk(480)}" for _ in range(1999)),
        "2,000 unknown cards": "\n".join(f"1 {junk(480)}" for _ in range(2000)),
        "2,000 over-long lines": "\n".join(f"1 {junk(505)}" for _ in range(1980)),
        "a huge maybeboard": "Deck\n1 Sol Ring\nMaybeboard\n" + "\n".join(f"1 {junk(480)}" for _ in range(1990)),
        "huge CSV": "Count,Name,Notes\n" + "\n".join(f"1,{junk(100)},{junk(380)}" for _ in range(1990)),
    }
    return {k: v.encode()[:999_000] for k, v in lists.items()}


def test_a_1_mb_hostile_list_stores_less_than_a_small_multiple_of_a_real_100_card_list(pool):
    # the reference: a real 100-card list with ten findings (each kept), as stored
    real = stored_size((SHARED / "decks" / "phelddagrif-edh-2010.txt").read_bytes(), pool, "edh-2010")
    assert real < 12_000
    for name, data in hostile_lists().items():
        assert len(data) > 900_000
        size = stored_size(data, pool)
        assert size < 5 * real, (name, size, real)


def test_a_stored_check_of_2000_generals_names_a_few_and_stays_illegal(pool):
    data = hostile_lists()["2,000 generals"]
    result = check_deck(parse_upload(data), pool, "commander")
    assert not result.legal and len(result.commanders) == MAX_GENERALS_LISTED
    stored = result.to_json()
    assert stored["findings"][-1]["message"].startswith("… and ")
    assert len(json.dumps(stored)) < MAX_FINDINGS_BYTES + 4_000        # the findings budget and the rest


def test_a_small_list_is_stored_as_uploaded():
    text = (FILES / "kamiz-notes.txt").read_text()
    assert stored_text(text, parse_decklist(text)) == text


def test_a_large_file_is_stored_as_its_cards_on_their_lines_and_reads_back_the_same(pool):
    rows = (FILES / "kamiz-excel.csv").read_text().splitlines()
    rows[1] += ",Notes"
    rows[2:] = [row + ',"' + "bought at the prerelease, sleeved in black dragon shields " * 2 + '"' for row in rows[2:]]
    text = "\n".join(rows) + "\n"
    assert len(text.encode()) > STORED_TEXT_MAX
    deck = parse_upload(text.encode(), "big.csv")
    kept = stored_text(text, deck)
    assert len(kept.encode()) <= STORED_TEXT_MAX
    again = parse_decklist(kept)

    def entries(d):
        return sorted((e.count, e.name, e.line, e.section) for e in d.entries())
    assert entries(again) == entries(deck)
    assert check_deck(again, pool, "commander").to_json() == check_deck(deck, pool, "commander").to_json()


def test_a_large_header_less_text_keeps_its_blocks_apart():
    # line 1 holds a card, so gaps are "//" lines: no blank line can move a card to another section
    comments = "\n".join("// " + "why this deck plays what it plays, at some length. " * 6 for _ in range(30))
    cards = "\n".join(f"1 Card number {i}" for i in range(60))
    text = f"1 Atraxa, Praetors' Voice\n\n{comments}\n{cards}\n\n1 Negate\n1 Duress\n"
    assert len(text.encode()) > STORED_TEXT_MAX
    deck = parse_decklist(text)
    assert [e.name for e in deck.commanders] == ["Atraxa, Praetors' Voice"]
    assert [e.name for e in deck.sideboard] == ["Negate", "Duress"]
    kept = stored_text(text, deck)
    assert "\n\n" not in kept.strip() and len(kept.encode()) < STORED_TEXT_MAX
    again = parse_decklist(kept)
    assert sorted((e.count, e.name, e.line, e.section) for e in again.entries()) == \
        sorted((e.count, e.name, e.line, e.section) for e in deck.entries())
