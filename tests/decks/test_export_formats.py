"""Decklists written the way each tool exports them, checked against the real card data.

Each case is one a new user met (issue 11's table): the list is in the tool's
own format, and the check must read it as the tool meant and name the real
cause of any problem.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tournament.cards.importers import read_cards
from tournament.cards.pool import MemoryCardPool
from tournament.decks.checks import check_deck
from tournament.decks.parser import parse_decklist, parse_upload

ATOMIC = Path(__file__).resolve().parents[2].parent / "shared" / "cards" / "AtomicCards.json.gz"
if not ATOMIC.exists():
    pytest.skip(f"{ATOMIC} not found", allow_module_level=True)


@pytest.fixture(scope="module")
def pool() -> MemoryCardPool:
    return MemoryCardPool(read_cards(ATOMIC))


def check(pool, text, ruleset="commander", filename=None):
    deck = parse_upload(text.encode(), filename) if filename else parse_decklist(text)
    return check_deck(deck, pool, ruleset)


def messages(result, code):
    return [f.message for f in result.findings if f.code == code]


def test_a_meld_result_as_general_is_refused_with_the_reason(pool):
    # Arena/Moxfield text export.
    text = "Commander\n1 Brisela, Voice of Nightmares (EMN) 15\n\nDeck\n50 Plains (ZNR) 266\n49 Island (ZNR) 268\n"
    result = check(pool, text)
    assert not result.legal
    [reason] = messages(result, "COMMANDER_INELIGIBLE")
    assert "melded result of two cards" in reason and "cannot be your general" in reason


def test_a_meld_result_in_the_deck_is_not_legal_but_its_halves_are(pool):
    text = ("Commander\n1 Thalia, Guardian of Thraben\n\nDeck\n1 Brisela, Voice of Nightmares\n"
            "1 Bruna, the Fading Light\n1 Gisela, the Broken Blade\n96 Plains\n")
    result = check(pool, text)
    assert [(f.code, f.card) for f in result.errors] == [("NOT_LEGAL", "Brisela, Voice of Nightmares")]
    assert "list the two cards that meld" in result.errors[0].message


def test_the_un_card_with_a_blank_name_is_found_and_not_legal(pool):
    text = "Commander\n1 Krenko, Mob Boss\n\nDeck\n1 _____\n98 Mountain\n"
    result = check(pool, text)
    assert "UNKNOWN_CARD" not in result.codes
    [reason] = messages(result, "NOT_LEGAL")
    assert reason.startswith("_____ is an Un-set")


ARCHIDEKT = """1x Krenko, Mob Boss (ddt) 1 [Commander{top}]
1x Goblin Piker (m10) 144 [Creature]
97x Mountain (m10) 242 [Land]
1x Lightning Bolt (2ed) 143 [Burn]
1x Swords to Plowshares (2ed) 39 [Cuts{noDeck}{noPrice}]
1x Counterspell (2ed) 55 [Maybeboard{noDeck}{noPrice}]
"""


def test_archidekt_categories_left_out_of_the_deck_are_outside_it(pool):
    result = check(pool, ARCHIDEKT)
    assert result.legal, [f.message for f in result.errors]
    assert result.main_count == 99
    [ignored] = messages(result, "IGNORED")
    assert "2 cards" in ignored and "lines 5 and 6" in ignored


def test_archidekt_nodeck_in_the_csv_export_too(pool):
    csv = ("Quantity,Name,Finish,Categories,Edition Code,Collector Number\n"
           "1,\"Krenko, Mob Boss\",Normal,Commander,ddt,1\n"
           "98,Mountain,Normal,Land,m10,242\n"
           "1,Lightning Bolt,Normal,Burn,2ed,143\n"
           "1,Swords to Plowshares,Normal,Cuts{noDeck}{noPrice},2ed,39\n")
    result = check(pool, csv, filename="krenko.csv")
    assert result.legal, [f.message for f in result.errors]


MTGO_DEK_PARTNERS = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NetDeckID>0</NetDeckID>
  <PreconstructedDeckID>0</PreconstructedDeckID>
  <Cards CatID="78913" Quantity="1" Sideboard="false" Name="Sol Ring" Annotation="0" />
  <Cards CatID="62531" Quantity="97" Sideboard="false" Name="Island" Annotation="0" />
  <Cards CatID="81959" Quantity="1" Sideboard="true" Name="Thrasios, Triton Hero" Annotation="0" />
  <Cards CatID="62241" Quantity="1" Sideboard="true" Name="Tymna the Weaver" Annotation="0" />
</Deck>
"""


def test_mtgo_dek_with_two_partners_in_the_sideboard(pool):
    result = check(pool, MTGO_DEK_PARTNERS, filename="partners.dek")
    assert result.commanders == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    assert result.errors == [] or {f.code for f in result.errors} == {"COLOR_IDENTITY"}
    assert result.sideboard_count == 0
    [how] = messages(result, "COMMANDER_FROM_SIDEBOARD")
    assert "Thrasios, Triton Hero and Tymna the Weaver were read as your generals" in how
    assert all(f.severity == "warning" for f in result.findings if f.code == "COMMANDER_FROM_SIDEBOARD")


def test_mtgo_text_with_two_partners_after_the_blank_line(pool):
    text = "1 Sol Ring\n97 Island\n\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n"
    result = check(pool, text, filename="partners.txt")
    assert result.legal, [f.message for f in result.errors]
    assert result.commanders == ["Thrasios, Triton Hero", "Tymna the Weaver"]


def test_a_real_sideboard_is_not_read_as_generals(pool):
    # Two sideboard cards that cannot be commanders together stay a sideboard, and the list needs a general.
    text = "1 Sol Ring\n97 Island\n\n1 Counterspell\n1 Brainstorm\n"
    result = check(pool, text)
    assert "NO_COMMANDER" in result.codes
    assert messages(result, "COMMANDER_FROM_SIDEBOARD") == []
    # Two legendary creatures without partner are not a pair either.
    text = "1 Sol Ring\n97 Island\n\n1 Krenko, Mob Boss\n1 Talrand, Sky Summoner\n"
    assert "NO_COMMANDER" in check(pool, text).codes


XMAGE_DCK = """NAME:Krenko Goblins
1 [M10:146] Lightning Bolt
1 [M10:144] Goblin Piker
97 [M10:242] Mountain
SB: 1 [DDT:1] Krenko, Mob Boss
LAYOUT MAIN:(1,4)(NONE,false,50)|([M10:146])([M10:144])([M10:242],[M10:242])
LAYOUT SIDEBOARD:(1,1)(NONE,false,50)|([DDT:1])
"""


def test_xmage_dck_reads_its_layout_lines_as_metadata_and_its_sb_general(pool):
    result = check(pool, XMAGE_DCK, filename="krenko.dck")
    assert result.legal, [f.message for f in result.findings]
    assert result.commanders == ["Krenko, Mob Boss"]
    assert result.main_count == 99
    assert "UNPARSED_LINE" not in {f.code for f in result.findings}


# "Download > Exact card versions": the deck, a blank line, then the commander (MTGO's layout).
MTGGOLDFISH = """1 Barge In <extended> [ELD]
1 Lightning Bolt <retro> [STA]
1 Goblin Guide <borderless> [ZNR]
1 Embercleave <showcase> [ELD]
1 Goblin Piker <prerelease> [M10]
1 Sol Ring <timeshifted> [TSR]
93 Mountain [ZNR]

1 Krenko, Mob Boss [DDT]
"""


def test_mtggoldfish_exact_versions_drop_the_treatment_from_the_name(pool):
    result = check(pool, MTGGOLDFISH, filename="goldfish.txt")
    assert "UNKNOWN_CARD" not in result.codes, [f.message for f in result.errors]
    assert result.commanders == ["Krenko, Mob Boss"]
    assert result.legal, [f.message for f in result.errors]


@pytest.mark.parametrize("card, cause", [
    ("Transguild Courier", "says it is all colours"),
    ("Sphinx of the Guildpact", "says it is all colours"),
    ("Dryad Arbor", "green colour indicator"),
    ("Garruk the Slayer", "black and green colour indicator"),
    ("Westvale Abbey // Ormendahl, Profane Prince", "black colour indicator on its back face, Ormendahl"),
    ("Crimson Kobolds", "red colour indicator"),
])
def test_colour_identity_names_the_colour_indicator_or_all_colours_text(pool, card, cause):
    text = f"Commander\n1 Thalia, Guardian of Thraben\n\nDeck\n1 {card}\n98 Plains\n"
    if card == "Crimson Kobolds" or card == "Dryad Arbor":
        text = f"Commander\n1 Talrand, Sky Summoner\n\nDeck\n1 {card}\n98 Island\n"
    [message] = messages(check(pool, text), "COLOR_IDENTITY")
    assert cause in message
    assert "colour identity includes" not in message
