"""Deck findings in the reader's language: each finding keeps the English template it was made from and its
parameters, and tournament/decks/messages.py words it again (card names as the card data has them)."""
from __future__ import annotations

import json

import pytest
from flask_babel import force_locale

from tests.cardfiles import LEGAL, mtgjson_face, write_mtgjson
from tournament.cards.importers import read_cards
from tournament.cards.pool import MemoryCardPool
from tournament.decks.brackets import bracket_report
from tournament.decks.checks import check_deck
from tournament.decks.domain import DeckInputError, Finding
from tournament.decks.messages import (bracket_causes, bracket_reasons, colour_words, finding_text,
                                       input_error_text, text_of)
from tournament.decks.parser import parse_decklist

LIST = """Commander
1 Phelddagrif

Deck
1 Primeval Titan
1 Goblin Piker
1 稲妻
1 Lightnin Bolt
2 Llanowar Elves
1 Island
1 Doubling Season
1 Rhystic Study
80 Forest
"""
NAMES = ("Primeval Titan", "Goblin Piker", "Lightning Bolt", "Llanowar Elves", "Phelddagrif")
CODES = {"BANNED", "COLOR_IDENTITY", "UNKNOWN_CARD", "DECK_SIZE", "SINGLETON", "BRACKET"}


def _cards():
    return {
        "Phelddagrif": [mtgjson_face("Phelddagrif", "Legendary Creature — Phelddagrif", "{1}{G}{W}{U}",
                                     "{G}: Phelddagrif gains trample until end of turn.", "GUW",
                                     leadershipSkills={"commander": True}, mv=4)],
        "Primeval Titan": [mtgjson_face("Primeval Titan", "Creature — Giant", "{4}{G}{G}", "Trample", "G", mv=6,
                                        legalities={**LEGAL, "commander": "Banned"})],
        "Goblin Piker": [mtgjson_face("Goblin Piker", "Creature — Goblin Warrior", "{1}{R}", "Goblin Piker can't block.",
                                      "R", mv=2)],
        "Lightning Bolt": [mtgjson_face("Lightning Bolt", "Instant", "{R}", "Lightning Bolt deals 3 damage to any target.",
                                        "R", mv=1, foreignData=[{"language": "Japanese", "name": "稲妻", "text": "…",
                                                                 "type": "…"}])],
        "Llanowar Elves": [mtgjson_face("Llanowar Elves", "Creature — Elf Druid", "{G}", "{T}: Add {G}.", "G", mv=1)],
        "Doubling Season": [mtgjson_face("Doubling Season", "Enchantment", "{4}{G}", "If an effect would create one "
                                         "or more tokens under your control, it creates twice that many instead.",
                                         "G", mv=5)],
        "Rhystic Study": [mtgjson_face("Rhystic Study", "Enchantment", "{2}{U}", "Whenever an opponent casts a "
                                       "spell, you may draw a card unless that player pays {1}.", "U", mv=3)],
        "Island": [mtgjson_face("Island", "Basic Land — Island", "", "({T}: Add {U}.)", "U", [])],
        "Forest": [mtgjson_face("Forest", "Basic Land — Forest", "", "({T}: Add {G}.)", "G", [])],
    }


@pytest.fixture
def result(tmp_path):
    path = tmp_path / "cards.json"
    write_mtgjson(path, _cards())
    pool = MemoryCardPool(read_cards(path))
    return check_deck(parse_decklist(LIST), pool, "commander", max_bracket=2)


def _stored(result):
    return [json.loads(json.dumps(f.to_json())) for f in result.findings]


def test_every_finding_keeps_its_template_and_parameters(result):
    assert CODES <= {f.code for f in result.findings}
    for f in result.findings:
        assert f.template and f.params is not None, f
        english = f.template % f.params if f.params else f.template
        if f.written:
            english = english.replace(f.card, f"{f.card} ({f.written})", 1)
        assert english == f.message
        stored = f.to_json()
        assert json.loads(json.dumps(stored))["template"] == f.template


def test_in_english_the_text_is_the_stored_message(app, result):
    for f in _stored(result):
        assert finding_text(f) == f["message"]                  # outside a request: English
    with app.app_context(), force_locale("en"):
        for f, finding in zip(_stored(result), result.findings):
            assert finding_text(f) == f["message"]
            assert finding_text(finding) == finding.message
    bolt = next(f for f in result.findings if f.card == "Lightning Bolt")
    assert bolt.written == "稲妻" and finding_text(bolt).startswith("Lightning Bolt (稲妻) ")


def test_findings_stored_before_templates_keep_their_english(app):
    old = {"code": "BANNED", "severity": "error", "card": "Sol Ring", "line": 3, "message": "Sol Ring is banned.",
           "suggestions": [], "written": None}
    broken = {**old, "template": "%(card)s is banned under %(ruleset)s.", "params": {"card": "Sol Ring"}}
    with app.app_context(), force_locale("ja"):
        assert finding_text(old) == "Sol Ring is banned."
        assert finding_text(broken) == "Sol Ring is banned."        # formatting failed: the stored sentence
    assert finding_text(Finding("X", "error", "Plain.")) == "Plain."


def test_bracket_reasons_colours_and_input_errors_have_english_texts(app, result):
    stored = json.loads(json.dumps(result.to_json()))["bracket"]
    assert stored["reasons"] == ["1 Game Changer (Rhystic Study): at least bracket 3 (brackets 1 and 2 have no Game "
                                 "Changers; bracket 3 allows up to three)"]
    assert bracket_reasons(stored) == stored["reasons"] and bracket_causes(stored) == stored["causes"]
    with app.app_context(), force_locale("en"):
        assert bracket_reasons(stored) == stored["reasons"]
    empty = json.loads(json.dumps(bracket_report([]).to_json()))
    assert bracket_reasons(empty) == [] and bracket_reasons({"reasons": ["Old text"]}) == ["Old text"]
    with pytest.raises(DeckInputError) as raised:
        parse_decklist("")
    assert input_error_text(raised.value) == str(raised.value)
    with app.app_context(), force_locale("en"):
        assert colour_words(["W", "U", "G"]) == "white, blue and green"
        assert colour_words([]) == "colourless"
        assert text_of("plain") == "plain"


def test_in_japanese_the_findings_are_translated_and_keep_the_card_names(app, result):
    """Passes once the catalogs hold the deck messages (/tmp/i18n/decks.json merged by the lead)."""
    stored = {f["code"]: f for f in _stored(result)}
    with app.app_context(), force_locale("ja"):
        for code in CODES:
            f = stored[code]
            text = finding_text(f)
            assert text != f["message"], code
            for name in NAMES:
                if name in f["message"]:
                    assert name in text, (code, name, text)
            if f.get("written"):
                assert f["written"] in text
        assert colour_words(["W", "U", "G"]) != "white, blue and green"
