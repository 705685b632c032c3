"""Commander Brackets: the dated lists, the floor at each boundary, the event maximum, the declared bracket,
and the Commander Spellbook importer. Decks go through the real parser and the real card data."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tournament.cards.importers import read_cards
from tournament.cards.names import name_key
from tournament.cards.pool import MemoryCardPool
from tournament.decks.brackets import DATA, bracket_report, bracket_rules, open_combo_file, read_combos
from tournament.decks.checks import check_deck
from tournament.decks.parser import parse_decklist

ATOMIC = Path(__file__).resolve().parents[2].parent / "shared" / "cards" / "AtomicCards.json.gz"
if not ATOMIC.exists():
    pytest.skip(f"{ATOMIC} not found", allow_module_level=True)

# Printed after the shared card data (early 2022) or missing from its subset: checked by hand on Scryfall.
NOT_IN_SHARED_DATA = {"Orcish Bowmasters", "The One Ring", "Opposition Agent", "Jeska's Will",
                      "Harbinger of the Seas"}


@pytest.fixture(scope="module")
def cards():
    return {c.name: c for c in read_cards(ATOMIC)}


@pytest.fixture(scope="module")
def pool(cards):
    return MemoryCardPool(cards.values())


def _names_in(cards) -> set[str]:
    keys = set()
    for c in cards.values():
        keys.add(name_key(c.name))
        keys.update(name_key(f.name) for f in c.faces)
    return keys


@pytest.mark.parametrize("file", ["game_changers.json", "mass_land_denial.json"])
def test_every_listed_name_is_a_card(cards, file):
    data = json.loads((DATA / file).read_text(encoding="utf-8"))
    assert data["source"] and data["as_of"] == "2026-02-09"
    known = _names_in(cards)
    missing = {n for n in data["cards"] if name_key(n) not in known}
    assert missing <= NOT_IN_SHARED_DATA, missing
    assert len(data["cards"]) == len(set(data["cards"]))


def test_the_game_changers_are_the_list_of_october_2025_with_februarys_two():
    data = json.loads((DATA / "game_changers.json").read_text(encoding="utf-8"))
    assert len(data["cards"]) == 53
    added = {n for h in data["history"] for n in h.get("added", ())}
    assert added == {"Farewell", "Biorhythm"} and len(set(data["cards"]) - added) == 51
    removed = {n for h in data["history"] for n in h.get("removed", ())}
    assert not removed & set(data["cards"])


def test_every_starter_combo_card_is_a_card(cards):
    known = _names_in(cards)
    with open_combo_file(DATA / "combos.json") as stream:
        combos = list(read_combos(stream))
    assert len(combos) >= 20
    assert {n for c in combos for n in c.cards if name_key(n) not in known} == set()


def deck(general, cards, filler="Island"):
    text = f"Commander\n1 {general}\n\nDeck\n" + "".join(f"1 {c}\n" for c in cards)
    return text + f"{99 - len(cards)} {filler}\n"


def floor_of(pool, general, cards, filler="Island", **kw):
    return check_deck(parse_decklist(deck(general, cards, filler)), pool, "commander", **kw)


GC = ["Rhystic Study", "Cyclonic Rift", "Mystical Tutor", "Force of Will"]
TURNS = ["Time Warp", "Temporal Manipulation", "Capture of Jingzhou", "Time Stretch"]


@pytest.mark.parametrize("cards_in, floor, reason", [
    ([], 1, None),
    (["Sol Ring", "Counterspell"], 1, None),
    (TURNS[:1], 2, "1 extra-turn card (Time Warp): at least bracket 2"),
    (TURNS[:3], 2, "3 extra-turn cards"),
    (TURNS, 4, "4 extra-turn cards (Time Warp, Temporal Manipulation, Capture of Jingzhou, Time Stretch): at least "
               "bracket 4"),
    (GC[:1], 3, "1 Game Changer (Rhystic Study): at least bracket 3"),
    (GC[:3], 3, "3 Game Changers (Rhystic Study, Cyclonic Rift, Mystical Tutor): at least bracket 3"),
    (GC, 4, "4 Game Changers (Rhystic Study, Cyclonic Rift, Mystical Tutor, Force of Will): at least bracket 4"),
    (["Armageddon"], 4, "1 mass land denial card (Armageddon): at least bracket 4"),
    (["Painter's Servant", "Grindstone"], 3, "1 two-card combo (Grindstone + Painter's Servant): at least bracket 3"),
])
def test_each_bracket_boundary(pool, cards_in, floor, reason):
    general = "Teferi, Temporal Archmage" if "Armageddon" not in cards_in else "Brago, King Eternal"
    result = floor_of(pool, general, cards_in)
    assert result.bracket["floor"] == floor
    if reason is None:
        assert result.bracket["reasons"] == []
    else:
        assert any(r.startswith(reason) for r in result.bracket["reasons"]), result.bracket["reasons"]
    assert result.legal, [f.message for f in result.errors]      # a floor alone is never an error


def test_the_floor_counts_the_general_and_only_the_strongest_reason_per_kind(pool):
    result = floor_of(pool, "Urza, Lord High Artificer", GC + ["Time Warp"])
    assert result.bracket["floor"] == 4
    assert [r.split(" (")[0] for r in result.bracket["reasons"]] == ["4 Game Changers", "1 extra-turn card"]
    # A general on the list counts: Braids is a Game Changer.
    assert floor_of(pool, "Braids, Cabal Minion", [], "Swamp").bracket["game_changers"] == ["Braids, Cabal Minion"]


def test_the_event_maximum_makes_a_higher_floor_an_error(pool):
    over = floor_of(pool, "Teferi, Temporal Archmage", GC, max_bracket=3)
    assert not over.legal
    [error] = [f for f in over.errors if f.code == "BRACKET"]
    assert error.message.startswith("This event allows decks up to bracket 3; this list is at least bracket 4 "
                                    "(Optimized): 4 Game Changers")
    assert floor_of(pool, "Teferi, Temporal Archmage", GC[:3], max_bracket=3).legal
    assert floor_of(pool, "Teferi, Temporal Archmage", GC, max_bracket=4).legal


def test_a_declared_bracket_below_the_floor_is_a_warning(pool):
    result = floor_of(pool, "Teferi, Temporal Archmage", GC[:2], declared_bracket=2)
    assert result.legal
    [warning] = [f for f in result.findings if f.code == "BRACKET"]
    assert warning.severity == "warning" and warning.message.startswith("You declared bracket 2, but this list is "
                                                                        "at least bracket 3")
    assert not [f for f in floor_of(pool, "Teferi, Temporal Archmage", GC[:2], declared_bracket=3).findings
                if f.code == "BRACKET"]


def spellbook_export(path: Path) -> None:
    """A file in the real export's shape: a 2-card combo, a 3-card one, one needing a template, one not public."""
    def use(name):
        return {"card": {"id": 1, "name": name, "oracleId": "x", "typeLine": "…"}, "zoneLocations": ["B"],
                "battlefieldCardState": "", "mustBeCommander": False, "quantity": 1}
    variants = [
        {"id": "1-2", "status": "OK", "uses": [use("Sol Ring"), use("Counterspell")], "requires": [],
         "produces": [{"feature": {"id": 2, "name": "Infinite magic", "uncountable": False}, "quantity": 1}],
         "identity": "U", "bracketTag": "P", "legalities": {"commander": True}},
        {"id": "1-2-3", "status": "OK", "uses": [use("Sol Ring"), use("Counterspell"), use("Brainstorm")],
         "requires": [], "produces": [], "identity": "U"},
        {"id": "4-5", "status": "OK", "uses": [use("Brainstorm"), use("Ponder")],
         "requires": [{"template": {"id": 1, "name": "A sac outlet"}, "quantity": 1}], "produces": []},
        {"id": "6-7", "status": "NR", "uses": [use("Opt"), use("Ponder")], "requires": [], "produces": []},
    ]
    data = {"timestamp": "2026-11-30T00:00:00Z", "version": "5", "variants": variants, "aliases": []}
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(data, f)


def test_the_spellbook_importer_keeps_public_two_card_combos_only(tmp_path):
    path = tmp_path / "variants.json.gz"
    spellbook_export(path)
    with open_combo_file(path) as stream:
        combos = list(read_combos(stream))
    assert [(c.cards, c.produces) for c in combos] == [(("Sol Ring", "Counterspell"), ("Infinite magic",))]


def test_an_imported_export_is_what_the_app_checks_with(runner, app, tmp_path, cards):
    path = tmp_path / "variants.json.gz"
    spellbook_export(path)
    result = runner.invoke(args=["deck", "combos", "import", str(path)])
    assert result.exit_code == 0, result.output
    assert "Kept 1 two-card combos" in result.output
    from tournament.decks.operations import app_bracket_rules
    with app.app_context():
        rules = app_bracket_rules()
    report = bracket_report([cards["Sol Ring"], cards["Counterspell"]], rules)
    assert report.two_card_combos == [{"cards": ["Counterspell", "Sol Ring"], "produces": ["Infinite magic"]}]
    assert bracket_report([cards["Painter's Servant"], cards["Grindstone"]], rules).two_card_combos == []
    assert bracket_report([cards["Painter's Servant"], cards["Grindstone"]], bracket_rules()).two_card_combos


def test_a_file_that_is_not_an_export_is_refused(runner, tmp_path):
    path = tmp_path / "cards.json"
    path.write_text('{"data": {}}')
    result = runner.invoke(args=["deck", "combos", "import", str(path)])
    assert result.exit_code == 2
    assert "not Commander Spellbook's variants.json export" in result.output
