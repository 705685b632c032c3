"""Decklist parsing: what players paste and upload, read into ParsedDeck."""
from __future__ import annotations

import codecs
import dataclasses
import json
import random
import re

import pytest

from tests.conftest import SHARED

from tournament.decks.domain import DeckInputError, Entry, ParsedDeck, SECTIONS
from tournament.decks.parser import (
    DUNGEON_NAMES, MAX_LINES, parse_decklist, parse_upload, read_decklist_text,
)

DECKS = SHARED / "decks"
EXPECTED = json.loads((DECKS / "expected.json").read_text()) if DECKS.exists() else {}
SAMPLE_FILES = sorted(DECKS.glob("*.txt")) if DECKS.exists() else []

LIST_SECTIONS = {
    "commanders": "commander", "main": "main", "sideboard": "sideboard", "companions": "companion",
    "schemes": "scheme", "dungeons": "dungeon", "ignored": "maybeboard",
}


def cards(entries: list[Entry]) -> list[tuple[int, str]]:
    return [(e.count, e.name) for e in entries]


def total(entries: list[Entry]) -> int:
    return sum(e.count for e in entries)


def every_entry(deck: ParsedDeck) -> list[Entry]:
    return sorted((e for attr in LIST_SECTIONS for e in getattr(deck, attr)), key=lambda e: e.line)


def assert_sections_consistent(deck: ParsedDeck) -> None:
    for attr, section in LIST_SECTIONS.items():
        assert all(e.section == section for e in getattr(deck, attr)), attr
    assert all(e.section in SECTIONS for e in every_entry(deck))


# ---------------------------------------------------------------- sample decks

@pytest.mark.skipif(not SAMPLE_FILES, reason="shared sample decks not available")
@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_sample_deck_parses_cleanly(path):
    text = path.read_text(encoding="utf-8")
    deck = parse_decklist(text)

    assert deck.unparsed == []
    assert [e.name for e in deck.commanders] == [EXPECTED[path.stem]["commander"].strip()]
    assert total(deck.main) + total(deck.commanders) == 100
    assert_sections_consistent(deck)
    # Every card the file lists is accounted for, independently of the parser's sectioning.
    listed = sum(int(m.group(1)) for m in re.finditer(r"^(?:SB:\s*)?(\d+)x?\s", text, re.M))
    assert total(every_entry(deck)) == listed


@pytest.mark.skipif(not SAMPLE_FILES, reason="shared sample decks not available")
@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_sample_deck_entries_point_at_their_lines(path):
    lines = path.read_text(encoding="utf-8").split("\n")
    for entry in every_entry(parse_decklist("\n".join(lines))):
        assert lines[entry.line - 1] == entry.raw
        assert entry.name in entry.raw


@pytest.mark.skipif(not SAMPLE_FILES, reason="shared sample decks not available")
@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_sample_deck_reads_the_same_on_the_general_path(path):
    """A very long line sends every line down the general path; the cards must not change."""
    text = path.read_text(encoding="utf-8")
    quick = parse_decklist(text)
    slow = parse_decklist(text.rstrip("\n") + "\n\n" + "x" * 600 + "\n")
    assert [u.reason for u in slow.unparsed] == ["line too long"]
    for attr in LIST_SECTIONS:
        assert getattr(slow, attr) == getattr(quick, attr), attr


def test_sideboard_sample_sections():
    deck = parse_decklist(
        "// Commander\n1 Boris Devilboon\n// Main\n1 Keeper of the Dead\n19 Swamp\n"
        "SB: 1 Revel in Riches\nSB: 1 Thumbscrews\n")
    assert cards(deck.commanders) == [(1, "Boris Devilboon")]
    assert cards(deck.main) == [(1, "Keeper of the Dead"), (19, "Swamp")]
    assert cards(deck.sideboard) == [(1, "Revel in Riches"), (1, "Thumbscrews")]


# ---------------------------------------------------------------- line forms

@pytest.mark.parametrize("line, count, name", [
    ("1 Sol Ring", 1, "Sol Ring"),
    ("1x Sol Ring", 1, "Sol Ring"),
    ("1X Sol Ring", 1, "Sol Ring"),
    ("Sol Ring", 1, "Sol Ring"),
    ("10 Island", 10, "Island"),
    ("12x Mountain", 12, "Mountain"),
    ("1 Sol Ring (CMR) 472", 1, "Sol Ring"),
    ("1 Sol Ring (CMR)", 1, "Sol Ring"),
    ("1 Sol Ring [CMR]", 1, "Sol Ring"),
    ("1 Sol Ring [CMR] 472", 1, "Sol Ring"),
    ("1 Sol Ring (cmr) 472", 1, "Sol Ring"),
    ("1 Lightning Bolt (2XM) 123a", 1, "Lightning Bolt"),
    ("1 Lightning Bolt (PLST) LRW-123", 1, "Lightning Bolt"),
    ("1 Sol Ring (CMR) 472 *F*", 1, "Sol Ring"),
    ("1 Sol Ring (CMR) 472 *E*", 1, "Sol Ring"),
    ("1 Sol Ring *F*", 1, "Sol Ring"),
    ("1 Sol Ring (F)", 1, "Sol Ring"),
    ("1x Sol Ring (cmr) 472 *F* [Ramp] ^Have,#37d67a^", 1, "Sol Ring"),
    ("1x Sol Ring [Ramp,Removal]", 1, "Sol Ring"),
    ("1x Sol Ring ^Have,#37d67a^", 1, "Sol Ring"),
    ("1\tSol Ring", 1, "Sol Ring"),
    ("   1   Sol   Ring   ", 1, "Sol Ring"),
    ("\t1x\tSol Ring\t", 1, "Sol Ring"),
    ("1 Fire // Ice", 1, "Fire // Ice"),
    ("1 Fire/Ice", 1, "Fire/Ice"),
    ("1 Fire // Ice (MH2) 290 *F*", 1, "Fire // Ice"),
    ("1 Kokusho, the Evening Star", 1, "Kokusho, the Evening Star"),
    ("1 Lion's Eye Diamond", 1, "Lion's Eye Diamond"),
    ("1 Lion’s Eye Diamond", 1, "Lion’s Eye Diamond"),
    ("1 Lim-Dûl's Vault", 1, "Lim-Dûl's Vault"),
    ("1 Circle of Protection: Red", 1, "Circle of Protection: Red"),
    ("1 B.F.M. (Big Furry Monster)", 1, "B.F.M. (Big Furry Monster)"),
    ("1 Sol Ring|C21|263", 1, "Sol Ring"),
    ("1 [C21:263] Sol Ring", 1, "Sol Ring"),
    ("999 Relentless Rats", 999, "Relentless Rats"),
])
def test_card_line_forms(line, count, name):
    deck = parse_decklist(line)
    assert deck.unparsed == []
    assert cards(deck.main) == [(count, name)]
    assert deck.main[0].raw == line
    assert deck.main[0].line == 1


@pytest.mark.parametrize("line", [
    "1 Atraxa, Praetors' Voice *CMDR*",
    "1 Atraxa, Praetors' Voice (CMR) 2 *F* *CMDR*",
    "1x Atraxa, Praetors' Voice *CMDR*",
    "1x Atraxa, Praetors' Voice [Commander]",
    "1x Atraxa, Praetors' Voice (cmr) 2 [Commander{top}]",
    "1x Atraxa, Praetors' Voice [Commander{top},Legends] ^Have,#37d67a^",
    "1 Atraxa, Praetors' Voice #!Commander",
    "CM: 1 Atraxa, Praetors' Voice",
    "Commander: Atraxa, Praetors' Voice",
])
def test_general_markers(line):
    deck = parse_decklist(f"Deck\n1 Sol Ring\n{line}\n1 Arcane Signet")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert deck.commanders[0].line == 3
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet")]
    assert_sections_consistent(deck)


def test_cmdr_marker_wins_over_the_section_it_is_in():
    deck = parse_decklist("Sideboard\n1 Negate\n1 Atraxa, Praetors' Voice *CMDR*")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.sideboard) == [(1, "Negate")]


@pytest.mark.parametrize("line, attr", [
    ("1x Negate [Sideboard]", "sideboard"),
    ("1x Negate [Sideboard{noDeck}]", "sideboard"),
    ("1x Negate [Maybeboard{noDeck}{noPrice}]", "ignored"),
    ("1x Negate [Ramp]", "main"),
])
def test_archidekt_categories_choose_the_section(line, attr):
    deck = parse_decklist(line)
    assert cards(getattr(deck, attr)) == [(1, "Negate")]
    assert_sections_consistent(deck)


def test_bracket_inside_a_name_is_kept_and_only_trailing_groups_are_stripped():
    deck = parse_decklist("1 Our Market Research [Ramp] (UNH) 12")
    assert cards(deck.main) == [(1, "Our Market Research")]


@pytest.mark.parametrize("line, reason", [
    ("0 Sol Ring", "count 0"),
    ("-1 Sol Ring", "count -1"),
    ("1000 Relentless Rats", "count 1000 is more than 999"),
    ("1", "no card name"),
    ("1 ", "no card name"),
    ("1x", "no card name"),
    ("2 (CMR) 472", "no card name"),
])
def test_unreadable_lines_are_reported(line, reason):
    deck = parse_decklist(f"1 Sol Ring\n{line}\n1 Arcane Signet")
    assert [(u.line, u.reason) for u in deck.unparsed] == [(2, reason)]
    assert deck.unparsed[0].text == line.strip()
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet")]


def test_count_only_line_with_space_is_reported_not_dropped():
    deck = parse_decklist("Deck\n1 \n1 Sol Ring")
    assert [(u.line, u.text, u.reason) for u in deck.unparsed] == [(2, "1", "no card name")]


# ---------------------------------------------------------------- headers

@pytest.mark.parametrize("header, attr", [
    ("Commander", "commanders"),
    ("Commanders", "commanders"),
    ("COMMANDER", "commanders"),
    ("Commander:", "commanders"),
    ("Commander (1)", "commanders"),
    ("// Commander", "commanders"),
    ("//Commander", "commanders"),
    ("# Commander", "commanders"),
    ("[Commander]", "commanders"),
    ("Deck", "main"),
    ("Deck (99)", "main"),
    ("Main", "main"),
    ("Mainboard", "main"),
    ("Main Deck", "main"),
    ("// Main", "main"),
    ("Sideboard", "sideboard"),
    ("SIDEBOARD:", "sideboard"),
    ("Sideboard (10)", "sideboard"),
    ("sideboard", "sideboard"),
    ("# Sideboard", "sideboard"),
    ("//Sideboard", "sideboard"),
    ("  Sideboard  ", "sideboard"),
    ("Maybeboard", "ignored"),
    ("Companion", "companions"),
    ("Schemes", "schemes"),
    ("Scheme", "schemes"),
    ("Dungeons", "dungeons"),
    ("Dungeon", "dungeons"),
])
def test_header_forms(header, attr):
    deck = parse_decklist(f"1 Arcane Signet\n{header}\n1 Sol Ring\n")
    entries = getattr(deck, attr)
    assert (entries[-1].count, entries[-1].name, entries[-1].line) == (1, "Sol Ring", 3)
    assert deck.unparsed == []
    assert_sections_consistent(deck)


def test_arena_export_with_all_sections():
    text = ("About\nName My Gitrog Deck\n\nCommander\n1 The Gitrog Monster (SOI) 245\n\n"
            "Companion\n1 Lurrus of the Dream-Den (IKO) 226\n\n"
            "Deck\n1 Sol Ring (CMR) 472\n36 Forest\n\nSideboard\n1 Negate (M20) 69\n\n"
            "Maybeboard\n1 Dark Ritual\n")
    deck = parse_decklist(text)
    assert deck.unparsed == []
    assert cards(deck.commanders) == [(1, "The Gitrog Monster")]
    assert cards(deck.companions) == [(1, "Lurrus of the Dream-Den")]
    assert cards(deck.main) == [(1, "Sol Ring"), (36, "Forest")]
    assert cards(deck.sideboard) == [(1, "Negate")]
    assert cards(deck.ignored) == [(1, "Dark Ritual")]
    assert deck.ignored[0].section == "maybeboard"
    assert [e.line for e in deck.entries()] == [5, 11, 12, 15, 8]
    assert "Dark Ritual" not in [e.name for e in deck.entries()]


def test_partners_under_one_commander_header():
    deck = parse_decklist("Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n\nDeck\n1 Sol Ring")
    assert cards(deck.commanders) == [(1, "Thrasios, Triton Hero"), (1, "Tymna the Weaver")]
    assert cards(deck.main) == [(1, "Sol Ring")]


def test_comments_that_are_not_headers_are_skipped():
    deck = parse_decklist("// Commander\n1 Atraxa, Praetors' Voice\n// Ramp\n1 Sol Ring\n# my notes\n"
                          "//\n#\n1 Arcane Signet")
    assert deck.unparsed == []
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet")]
    assert [e.line for e in deck.main] == [4, 8]


def test_card_type_headers_close_the_commander_section():
    deck = parse_decklist("Commander (1)\n1 Atraxa, Praetors' Voice\n\nCreatures (2)\n1 Llanowar Elves\n"
                          "1 Birds of Paradise\n\nLands (36)\n36 Forest\n\nSideboard (1)\n1 Negate")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Llanowar Elves"), (1, "Birds of Paradise"), (36, "Forest")]
    assert cards(deck.sideboard) == [(1, "Negate")]


def test_scheme_cards_move_only_under_a_schemes_header():
    deck = parse_decklist("Deck\n1 Sol Ring\n1 Your Inescapable Doom\nSchemes\n1 All in Good Time")
    assert cards(deck.schemes) == [(1, "All in Good Time")]
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Your Inescapable Doom")]


# ---------------------------------------------------------------- SB:/CM: prefixes

def test_mtgo_prefixes():
    deck = parse_decklist("CM: 1 Atraxa, Praetors' Voice\n1 Sol Ring\nSB: 1 Negate\nSB:1 Duress\n"
                          "sb: 2 Pyroblast (EMA) 142\nSideboard: 1 Naturalize")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring")]
    assert cards(deck.sideboard) == [(1, "Negate"), (1, "Duress"), (2, "Pyroblast"), (1, "Naturalize")]
    assert [e.line for e in deck.sideboard] == [3, 4, 5, 6]
    assert deck.sideboard[0].raw == "SB: 1 Negate"


# ---------------------------------------------------------------- blank-line conventions

def test_mtgo_main_blank_sideboard():
    deck = parse_decklist("1 Sol Ring\n1 Arcane Signet\n\n1 Negate\n1 Duress\n")
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet")]
    assert cards(deck.sideboard) == [(1, "Negate"), (1, "Duress")]
    assert deck.commanders == []
    assert [e.line for e in deck.sideboard] == [4, 5]


def test_several_blank_lines_count_as_one_break():
    deck = parse_decklist("\n\n1 Sol Ring\n1 Arcane Signet\n\n\n\n1 Negate\n1 Duress\n\n")
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet")]
    assert cards(deck.sideboard) == [(1, "Negate"), (1, "Duress")]


def test_general_on_top_then_blank_then_the_deck():
    deck = parse_decklist("Atraxa, Praetors' Voice\n\n1 Sol Ring\n1 Arcane Signet\n36 Forest")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet"), (36, "Forest")]
    assert deck.sideboard == []


def test_general_on_top_with_a_sideboard_at_the_end():
    deck = parse_decklist("1 Atraxa, Praetors' Voice\n\n1 Sol Ring\n36 Forest\n\n1 Negate")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring"), (36, "Forest")]
    assert cards(deck.sideboard) == [(1, "Negate")]


def test_mtgo_keeps_the_general_alone_after_the_blank_line():
    deck = parse_decklist("1 Sol Ring\n1 Arcane Signet\n36 Forest\n\n1 Atraxa, Praetors' Voice")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert deck.sideboard == []


def test_marked_general_then_blank_does_not_make_the_deck_a_sideboard():
    deck = parse_decklist("1 Atraxa, Praetors' Voice *CMDR*\n\n1 Sol Ring\n36 Forest")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring"), (36, "Forest")]
    assert deck.sideboard == []


def test_marked_general_and_mtgo_sideboard():
    deck = parse_decklist("1 Atraxa, Praetors' Voice *CMDR*\n1 Sol Ring\n36 Forest\n\n1 Negate")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring"), (36, "Forest")]
    assert cards(deck.sideboard) == [(1, "Negate")]


def test_a_single_block_is_all_main_deck():
    deck = parse_decklist("1 Atraxa, Praetors' Voice\n1 Sol Ring\n36 Forest\n")
    assert deck.commanders == [] and deck.sideboard == []
    assert total(deck.main) == 38


def test_blank_lines_in_a_file_with_headers_mean_nothing():
    deck = parse_decklist("Deck\n1 Sol Ring\n\n1 Arcane Signet\n\n1 Negate\n")
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet"), (1, "Negate")]
    assert deck.sideboard == [] and deck.commanders == []


def test_blank_lines_with_sb_prefixes_mean_nothing():
    deck = parse_decklist("1 Atraxa, Praetors' Voice\n\n1 Sol Ring\n\n1 Arcane Signet\nSB: 1 Negate")
    assert cards(deck.main) == [(1, "Atraxa, Praetors' Voice"), (1, "Sol Ring"), (1, "Arcane Signet")]
    assert cards(deck.sideboard) == [(1, "Negate")]
    assert deck.commanders == []


def test_general_on_top_needs_one_copy_of_one_card():
    deck = parse_decklist("2 Sol Ring\n\n1 Arcane Signet\n36 Forest")
    assert deck.commanders == []
    assert cards(deck.main) == [(2, "Sol Ring")]
    assert cards(deck.sideboard) == [(1, "Arcane Signet"), (36, "Forest")]


# ---------------------------------------------------------------- dungeons and maybeboard

@pytest.mark.parametrize("name", DUNGEON_NAMES)
def test_dungeons_are_kept_apart_wherever_listed(name):
    deck = parse_decklist(f"Commander\n1 Sefris of the Hidden Ways\nDeck\n1 {name}\n1 Sol Ring\n"
                          f"Sideboard\n1 {name}\n1 Negate")
    assert cards(deck.dungeons) == [(1, name), (1, name)]
    assert [e.line for e in deck.dungeons] == [4, 7]
    assert name not in [e.name for e in deck.main + deck.sideboard + deck.commanders]
    assert all(e.name != name for e in deck.entries())
    assert_sections_consistent(deck)


@pytest.mark.parametrize("spelling", [
    "lost mine of phandelver", "DUNGEON OF THE MAD-MAGE", "Tomb of Annihilation (AFR) 1",
    "1x Undercity [Dungeon]", "Dungeon of the Mad Mage *F*",
])
def test_dungeon_names_match_loosely(spelling):
    deck = parse_decklist(f"1 Sol Ring\n{spelling}")
    assert len(deck.dungeons) == 1
    assert cards(deck.main) == [(1, "Sol Ring")]


def test_cards_that_only_sound_like_dungeons_stay():
    deck = parse_decklist("1 Undercity Informer\n1 Dungeon Geists\n1 Pondering Mage")
    assert deck.dungeons == []
    assert total(deck.main) == 3


def test_maybeboard_is_ignored_even_for_dungeons():
    deck = parse_decklist("Deck\n1 Sol Ring\nMaybeboard\n1 Dark Ritual\n1 Undercity")
    assert cards(deck.ignored) == [(1, "Dark Ritual"), (1, "Undercity")]
    assert all(e.section == "maybeboard" for e in deck.ignored)
    assert deck.dungeons == []
    assert [e.name for e in deck.entries()] == ["Sol Ring"]


# ---------------------------------------------------------------- CSV

MOXFIELD_CSV = (
    '"Count","Tradelist Count","Name","Edition","Condition","Language","Foil","Tags",'
    '"Last Modified","Collector Number","Alter","Proxy","Purchase Price"\n'
    '"1","0","Atraxa, Praetors\' Voice","cmr","Near Mint","English","","","2024-01-01 10:00:00.000000",'
    '"2","False","False",""\n'
    '"1","0","Sol Ring","cmr","Near Mint","English","foil","Ramp","2024-01-01 10:00:00.000000",'
    '"472","False","False",""\n'
    '"36","0","Forest","unf","Near Mint","English","","","2024-01-01 10:00:00.000000",'
    '"239","False","False",""\n'
)


def test_moxfield_csv():
    deck = parse_upload(MOXFIELD_CSV.encode(), "atraxa.csv")
    assert deck.unparsed == []
    assert cards(deck.main) == [(1, "Atraxa, Praetors' Voice"), (1, "Sol Ring"), (36, "Forest")]
    assert [e.line for e in deck.main] == [2, 3, 4]
    assert deck.main[1].raw.startswith('"1","0","Sol Ring"')


def test_csv_is_recognised_when_pasted():
    assert cards(parse_decklist(MOXFIELD_CSV).main)[2] == (36, "Forest")


ARCHIDEKT_CSV = (
    "Quantity,Name,Finish,Condition,Category,Edition Code,Collector Number\n"
    "1,\"Atraxa, Praetors' Voice\",Normal,NM,Commander,cmr,2\n"
    "1,Sol Ring,Foil,NM,Ramp,cmr,472\n"
    "\n"
    "1,Negate,Normal,NM,Sideboard,m20,69\n"
    "1,Dark Ritual,Normal,NM,\"Maybeboard,Ramp\",a25,82\n"
    "1,Undercity,Normal,NM,Dungeon,clb,1\n"
    "35,Forest,Normal,NM,Land,unf,239\n"
)


def test_archidekt_csv_categories():
    deck = parse_upload(ARCHIDEKT_CSV.encode(), "deck.csv")
    assert deck.unparsed == []
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring"), (35, "Forest")]
    assert cards(deck.sideboard) == [(1, "Negate")]
    assert cards(deck.ignored) == [(1, "Dark Ritual")]
    assert cards(deck.dungeons) == [(1, "Undercity")]
    assert [e.line for e in every_entry(deck)] == [2, 3, 5, 6, 7, 8]
    assert_sections_consistent(deck)


def test_csv_board_column_and_bad_rows():
    text = ("qty;card name;board\n"
            "1;Atraxa, Praetors' Voice;commanders\n"
            "1;Sol Ring;mainboard\n"
            "x;Arcane Signet;mainboard\n"
            "0;Command Tower;mainboard\n"
            "1;;mainboard\n"
            "1;Negate;sideboard\n"
            "1;Dark Ritual;maybeboard\n"
            "1;Plains;attic\n"
            "2;Island;\n")
    deck = parse_decklist(text)
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring"), (2, "Island")]
    assert cards(deck.sideboard) == [(1, "Negate")]
    assert cards(deck.ignored) == [(1, "Dark Ritual")]
    assert [(u.line, u.reason) for u in deck.unparsed] == [
        (4, "count 'x' is not a number"), (5, "count 0"), (6, "no card name"),
        (9, "unknown board 'attic'"),
    ]


def test_csv_row_with_a_quoted_line_break_keeps_physical_line_numbers():
    text = 'Count,Name,Tags\n1,Sol Ring,"Ramp\nArtifacts"\n1,Arcane Signet,\n'
    deck = parse_decklist(text)
    assert [(e.name, e.line) for e in deck.main] == [("Sol Ring", 2), ("Arcane Signet", 4)]


def test_csv_file_without_a_header_is_refused():
    with pytest.raises(DeckInputError, match="Count"):
        parse_upload(b"1,Sol Ring\n1,Arcane Signet\n", "deck.csv")


def test_a_card_line_with_commas_is_not_csv():
    deck = parse_decklist("1 Kokusho, the Evening Star\n1 Name of the Wind, Storm")
    assert cards(deck.main) == [(1, "Kokusho, the Evening Star"), (1, "Name of the Wind, Storm")]


# ---------------------------------------------------------------- MTGO .dek

DEK = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NetDeckID>0</NetDeckID>
  <PreconstructedDeckID>0</PreconstructedDeckID>
  <Cards CatID="12345" Quantity="1" Sideboard="false" Name="Sol Ring" Annotation="0" />
  <Cards CatID="12346" Quantity="36" Sideboard="false" Name="Forest" Annotation="0" />
  <Cards CatID="12347" Quantity="1" Sideboard="false" Name="Tomb of Annihilation" Annotation="0" />
  <Cards CatID="12348" Quantity="1" Sideboard="true" Name="Negate" Annotation="0" />
  <Cards CatID="12349" Quantity="2" Sideboard="true" Name="Duress" Annotation="0" />
</Deck>
"""


def test_mtgo_dek():
    deck = parse_upload(DEK.encode(), "deck.dek")
    assert deck.unparsed == []
    assert cards(deck.main) == [(1, "Sol Ring"), (36, "Forest")]
    assert cards(deck.sideboard) == [(1, "Negate"), (2, "Duress")]
    assert cards(deck.dungeons) == [(1, "Tomb of Annihilation")]
    assert [e.line for e in every_entry(deck)] == [5, 6, 7, 8, 9]
    assert 'Name="Sol Ring"' in deck.main[0].raw


def test_mtgo_dek_recognised_by_content_and_when_pasted():
    assert cards(parse_upload(DEK.encode("utf-8-sig"), "deck.txt").main)[0] == (1, "Sol Ring")
    assert cards(parse_decklist(DEK).main)[0] == (1, "Sol Ring")


def test_mtgo_dek_with_the_general_alone_in_the_sideboard():
    dek = ('<?xml version="1.0"?><Deck><Cards Quantity="1" Sideboard="false" Name="Sol Ring"/>'
           '<Cards Quantity="1" Sideboard="true" Name="Atraxa, Praetors\' Voice"/></Deck>')
    deck = parse_upload(dek.encode(), "deck.dek")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert deck.sideboard == []


def test_mtgo_dek_bad_quantity_is_reported():
    dek = ('<Deck>\n<Cards Quantity="lots" Sideboard="false" Name="Sol Ring"/>\n'
           '<Cards Quantity="1" Sideboard="false"/>\n<Cards Quantity="1" Name="Forest"/>\n</Deck>')
    deck = parse_upload(dek.encode(), "deck.dek")
    assert [(u.line, u.reason) for u in deck.unparsed] == [
        (2, "quantity 'lots' is not a number"), (3, "no card name")]
    assert cards(deck.main) == [(1, "Forest")]


@pytest.mark.parametrize("xml", [
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n'
    '<Deck><Cards Quantity="1" Name="&lol2;"/></Deck>',
    '<?xml version="1.0"?>\n<!DOCTYPE Deck SYSTEM "file:///etc/passwd">\n<Deck/>',
    '<?xml version="1.0"?>\n<!doctype Deck>\n<Deck/>',
])
def test_dek_with_doctype_or_entities_is_refused(xml):
    with pytest.raises(DeckInputError, match="DOCTYPE"):
        parse_upload(xml.encode(), "evil.dek")


def test_broken_dek_is_refused_with_a_reason():
    with pytest.raises(DeckInputError, match="not valid XML"):
        parse_upload(b'<?xml version="1.0"?>\n<Deck><Cards Name="Sol Ring">\n', "deck.dek")
    with pytest.raises(DeckInputError, match="not a deck file we read"):
        parse_upload(b'<?xml version="1.0"?>\n<Collection/>\n', "deck.dek")


def test_old_text_dek_is_read_as_text():
    deck = parse_upload(b"1 Sol Ring\n36 Forest\n", "deck.dek")
    assert cards(deck.main) == [(1, "Sol Ring"), (36, "Forest")]


def test_web_page_is_refused():
    with pytest.raises(DeckInputError, match="web page"):
        parse_upload(b"<!DOCTYPE html><html><body>deck</body></html>", "deck.html")


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("text", ["", "   ", "\n\n\n", " \t \n  \r\n", "\ufeff"])
def test_empty_decklist_is_refused(text):
    with pytest.raises(DeckInputError, match="empty"):
        parse_decklist(text)
    with pytest.raises(DeckInputError, match="empty"):
        parse_upload(text.encode())


def test_binary_garbage_is_refused():
    data = random.Random(7).randbytes(4096) + b"\x00\x00"
    with pytest.raises(DeckInputError, match="not a text decklist"):
        parse_upload(data, "deck.txt")


def test_binary_garbage_pasted_as_text_is_refused():
    with pytest.raises(DeckInputError, match="not a text decklist"):
        parse_decklist("1 Sol Ring\x00\x00\x00")
    with pytest.raises(DeckInputError, match="not a text decklist"):
        parse_decklist("".join(chr(c) for c in range(1, 32) if c not in (9, 10, 13)) * 10)


def test_a_stray_control_character_spoils_only_its_line():
    deck = parse_decklist("1 Sol Ring\n1 Arcane\x07 Signet\n" + "1 Island\n" * 30)
    assert [(u.line, u.reason) for u in deck.unparsed] == [(2, "control characters in the line")]
    assert total(deck.main) == 31


def test_five_megabyte_paste_is_refused_with_its_size():
    paste = "1 Sol Ring\n" * 454_545 + "xxxxx"
    assert len(paste) == 5_000_000
    with pytest.raises(DeckInputError) as excinfo:
        parse_decklist(paste)
    assert str(excinfo.value) == "The decklist is 5.0 MB; the limit is 1 MB. Paste only the deck."
    with pytest.raises(DeckInputError, match="5.0 MB"):
        parse_upload(paste.encode())


def test_too_many_lines_is_refused():
    with pytest.raises(DeckInputError, match="2,001 lines"):
        parse_decklist("1 Island\n" * (MAX_LINES + 1))
    assert total(parse_decklist("1 Island\n" * MAX_LINES + "\n\n\n").main) == MAX_LINES


def test_ten_thousand_character_line_is_reported_not_raised():
    deck = parse_decklist("Deck\n1 Sol Ring\n" + "A" * 10_000 + "\n1 Arcane Signet")
    assert [(u.line, u.reason) for u in deck.unparsed] == [(3, "line too long")]
    assert len(deck.unparsed[0].text) < 200
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet")]


def test_windows_1252_is_read_with_a_note_naming_the_encoding():
    deck = parse_upload("1 Lim-Dûl's Vault\n".encode("cp1252"), "deck.txt")
    assert cards(deck.main) == [(1, "Lim-Dûl's Vault")]
    assert [(n.kind, n.text) for n in deck.notes] == [("encoding", "Windows-1252")]


def test_bytes_that_are_neither_utf8_nor_latin_text_are_refused_with_how_to_save_utf8():
    with pytest.raises(DeckInputError) as excinfo:
        parse_upload("ジェネラル\n1 ゴブリンの長槍使い\n".encode("shift_jis"), "deck.txt")
    message = str(excinfo.value)
    assert "not UTF-8" in message and "Encoding: UTF-8" in message


def test_utf8_with_bom():
    data = codecs.BOM_UTF8 + "Commander\n1 Jötun Grunt\n".encode()
    deck = parse_upload(data, "deck.txt")
    assert cards(deck.commanders) == [(1, "Jötun Grunt")]
    assert deck.commanders[0].line == 2
    assert read_decklist_text(data) == "Commander\n1 Jötun Grunt\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_bom(encoding):
    bom = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}.get(encoding, b"")
    data = bom + "Commander\r\n1 Jötun Grunt\r\n\r\nDeck\r\n1 Sol Ring\r\n".encode(encoding)
    deck = parse_upload(data, "deck.txt")
    assert cards(deck.commanders) == [(1, "Jötun Grunt")]
    assert [(e.name, e.line) for e in deck.main] == [("Sol Ring", 5)]


def test_utf16_without_bom_from_notepad():
    deck = parse_upload("1 Sol Ring\n1 Arcane Signet\n".encode("utf-16-le"), "deck.txt")
    assert cards(deck.main) == [(1, "Sol Ring"), (1, "Arcane Signet")]


# ---------------------------------------------------------------- line numbers and raw text

def test_line_numbers_count_every_line():
    text = "\n// my deck\nCommander\n1 Atraxa, Praetors' Voice\n\n\nDeck\n1 Sol Ring\n0 Bad\n1 Forest\r\n"
    deck = parse_decklist(text)
    assert [(e.name, e.line) for e in every_entry(deck)] == [
        ("Atraxa, Praetors' Voice", 4), ("Sol Ring", 8), ("Forest", 10)]
    assert deck.unparsed[0].line == 9


def test_windows_and_old_mac_line_endings():
    for newline in ("\r\n", "\r"):
        deck = parse_decklist(newline.join(["Commander", "1 Atraxa, Praetors' Voice", "", "Deck", "1 Sol Ring"]))
        assert [(e.name, e.line) for e in every_entry(deck)] == [
            ("Atraxa, Praetors' Voice", 2), ("Sol Ring", 5)]
        assert deck.main[0].raw == "1 Sol Ring"


def test_raw_keeps_the_line_as_written():
    deck = parse_decklist("  1x Sol Ring (CMR) 472 *F*  \n")
    assert deck.main[0].raw == "  1x Sol Ring (CMR) 472 *F*  "


def test_entries_are_ordinary_frozen_entries():
    entry = parse_decklist("1 Sol Ring").main[0]
    assert entry == Entry(1, "Sol Ring", 1, "main", "1 Sol Ring")
    assert type(entry) is Entry
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.count = 2


# ---------------------------------------------------------------- where the general's section ends

def test_blank_line_after_the_general_starts_the_deck():
    deck = parse_decklist("Commander\n1 Atraxa, Praetors' Voice\n\n1 Sol Ring\n36 Forest\n\n1 Negate")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring"), (36, "Forest"), (1, "Negate")]
    assert deck.sideboard == []


def test_blank_line_between_header_and_general_keeps_the_section():
    deck = parse_decklist("Commander\n\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring")
    assert cards(deck.commanders) == [(1, "Atraxa, Praetors' Voice")]
    assert cards(deck.main) == [(1, "Sol Ring")]


@pytest.mark.parametrize("text", ["// just a note\n", "Commander\nDeck\nSideboard\n", "<Deck></Deck>",
                                  "Count,Name\n"])
def test_a_list_with_no_card_lines_is_refused(text):
    with pytest.raises(DeckInputError, match="no card lines"):
        parse_decklist(text)


def test_a_line_starting_with_angle_bracket_is_not_xml():
    deck = parse_decklist("<3 my deck\n1 Sol Ring")
    assert cards(deck.main) == [(1, "<3 my deck"), (1, "Sol Ring")]


def test_first_control_line_names_the_line_the_api_refuses():
    from tournament.decks.parser import first_control_line
    assert first_control_line("1 Sol Ring\n1 Forest\t(foil)\r\n") is None
    assert first_control_line("1 Sol Ring\n1 Arcane\x07 Signet") == 2
    assert first_control_line("Commander\n\n1 Caf\ufffd\n") == 3
    assert first_control_line("") is None
