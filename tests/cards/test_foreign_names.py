"""Cards written as players in Japan, China and Czechia write them.

Seed 000 writes `《ゴブリンの長槍使い/Goblin Piker》`; players paste the same, or
only the printed name (`1 祖神兽`) when the card file carries foreign names
(MTGJSON foreignData, Scryfall all-cards printed_name). The card files here
are written by the test; the shared AtomicCards file carries no foreignData.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.cardfiles import mtgjson_face, scryfall_record, write_mtgjson, write_scryfall
from tournament.cards.importers import read_cards
from tournament.cards.names import bilingual_parts, lookup_keys, name_key
from tournament.cards.pool import MemoryCardPool
from tournament.cards.repository import DbCardPool
from tournament.decks.checks import check_deck
from tournament.decks.parser import parse_decklist

ATOMIC = Path(__file__).resolve().parents[2].parent / "shared" / "cards" / "AtomicCards.json.gz"


def foreign(language, name, **extra):
    return {"language": language, "name": name, "text": "…", "type": "…", **extra}


def card_file_cards():
    return {
        "Progenitus": [mtgjson_face(
            "Progenitus", "Legendary Creature — Hydra Avatar", "{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}",
            "Protection from everything", "WUBRG", leadershipSkills={"commander": True}, mv=10,
            foreignData=[foreign("Chinese Simplified", "祖神兽"), foreign("Japanese", "始祖ドラゴン"),
                         foreign("German", "Progenitus")])],
        "Goblin Piker": [mtgjson_face(
            "Goblin Piker", "Creature — Goblin Warrior", "{1}{R}", "Goblin Piker can't block.", "R", mv=2,
            foreignData=[foreign("Japanese", "ゴブリンの長槍使い"), foreign("Chinese Simplified", "鬼怪长枪手")])],
        "Lightning Bolt": [mtgjson_face(
            "Lightning Bolt", "Instant", "{R}", "Lightning Bolt deals 3 damage to any target.", "R", mv=1,
            foreignData=[foreign("Japanese", "稲妻"), foreign("Chinese Simplified", "闪电击")])],
        "Forest": [mtgjson_face("Forest", "Basic Land — Forest", "", "({T}: Add {G}.)", "G", [],
                                foreignData=[foreign("Japanese", "森")])],
        "Mountain": [mtgjson_face("Mountain", "Basic Land — Mountain", "", "({T}: Add {R}.)", "R", [],
                                  foreignData=[foreign("Japanese", "山")])],
    }


@pytest.fixture
def card_file(tmp_path):
    path = tmp_path / "AtomicCards-with-foreign.json"
    write_mtgjson(path, card_file_cards())
    return path


JAPANESE_LIST = """ジェネラル
1 《祖神兽/Progenitus》

メインデッキ
1 《ゴブリンの長槍使い/Goblin Piker》
ゴブリンの長槍使い/Goblin Piker
1 稲妻
50 山
46 Forest
"""


def test_bilingual_forms_split_into_english_and_printed():
    assert bilingual_parts("ゴブリンの長槍使い/Goblin Piker") == ("Goblin Piker", "ゴブリンの長槍使い")
    assert bilingual_parts("《Goblin Piker／ゴブリンの長槍使い》") == ("Goblin Piker", "ゴブリンの長槍使い")
    assert bilingual_parts("Fire/Ice") is None                        # a split card, not two languages
    assert bilingual_parts("Lim-Dûl's Vault") is None
    assert lookup_keys("ゴブリンの長槍使い/Goblin Piker")[1] == name_key("Goblin Piker")


@pytest.mark.parametrize("header, section", [
    ("ジェネラル", "commanders"), ("統率者 (1)", "commanders"), ("主将：", "commanders"), ("Generál:", "commanders"),
    ("【サイドボード】", "sideboard"), ("备牌 (10)", "sideboard"), ("Hlavní balíček", "main")])
def test_section_headers_in_the_players_languages(header, section):
    deck = parse_decklist(f"1 Sol Ring\n{header}\n1 Atraxa, Praetors' Voice\n")
    assert [e.name for e in getattr(deck, section)][-1] == "Atraxa, Praetors' Voice"
    assert deck.unparsed == []


def test_foreign_names_come_from_the_card_file(card_file):
    cards = {c.name: c for c in read_cards(card_file)}
    assert ("zh_Hans", "祖神兽") in cards["Progenitus"].foreign_names
    assert ("ja", "ゴブリンの長槍使い") in cards["Goblin Piker"].foreign_names
    pool = MemoryCardPool(cards.values())
    got = pool.resolve(["祖神兽", "始祖ドラゴン", "鬼怪长枪手", "《稲妻》", "Progenitus", "森の妖精"])
    assert [c and c.name for c in got.values()] == [
        "Progenitus", "Progenitus", "Goblin Piker", "Lightning Bolt", "Progenitus", None]


def _japanese_check(pool):
    deck = parse_decklist(JAPANESE_LIST)
    return check_deck(deck, pool, "commander")


def test_a_japanese_list_checks_with_the_printed_names(card_file):
    result = _japanese_check(MemoryCardPool(read_cards(card_file)))
    assert result.commanders == ["Progenitus"]
    assert result.main_count == 99
    assert "UNKNOWN_CARD" not in result.codes
    assert result.codes == {"SINGLETON"}           # Goblin Piker is listed twice, in both spellings
    [twice] = result.errors
    assert twice.card == "Goblin Piker" and twice.written == "ゴブリンの長槍使い"
    assert twice.message.startswith("Goblin Piker (ゴブリンの長槍使い): 2 copies (lines 5 and 6)")


def test_findings_show_the_players_spelling_beside_the_english_name(card_file):
    pool = MemoryCardPool(read_cards(card_file))
    text = "Commander\n1 Goblin Piker\n\nDeck\n1 祖神兽\n1 稲妻\n97 山\n"
    result = check_deck(parse_decklist(text), pool, "commander")
    by_card = {f.card: f for f in result.findings if f.card}
    ineligible = by_card["Goblin Piker"]
    assert ineligible.code == "COMMANDER_INELIGIBLE" and ineligible.written is None
    colour = by_card["Progenitus"]
    assert colour.code == "COLOR_IDENTITY" and colour.written == "祖神兽"
    assert colour.message.startswith("Progenitus (祖神兽) has {W}")
    assert colour.to_json()["written"] == "祖神兽"
    assert "Lightning Bolt" not in by_card


def test_the_database_resolves_printed_names_too(load_cards, card_file, app):
    load_cards(card_file, source="mtgjson")
    with app.app_context():
        result = _japanese_check(DbCardPool())
    assert result.commanders == ["Progenitus"]
    assert "UNKNOWN_CARD" not in result.codes
    with app.app_context():
        got = DbCardPool().resolve(["祖神兽", "鬼怪长枪手", "ゴブリンの長槍使い/Goblin Piker", "Goblin Piker"])
    assert [c and c.name for c in got.values()] == ["Progenitus", "Goblin Piker", "Goblin Piker", "Goblin Piker"]


def test_an_english_name_wins_over_a_printed_name_that_spells_the_same(tmp_path):
    cards = card_file_cards()
    cards["Progenitus"][0]["foreignData"].append(foreign("French", "Forest"))
    path = tmp_path / "clash.json"
    write_mtgjson(path, cards)
    assert MemoryCardPool(read_cards(path)).resolve(["Forest"])["Forest"].name == "Forest"


def test_scryfall_all_cards_printed_names_become_keys(tmp_path):
    bolt = dict(name="Lightning Bolt", type_line="Instant", mana="{R}", text="Lightning Bolt deals 3 damage.",
                ci="R", cmc=1)
    records = [scryfall_record(**bolt, lang="en"),
               scryfall_record(**bolt, lang="ja", printed_name="稲妻"),
               scryfall_record(**bolt, lang="zhs", printed_name="闪电击"),
               scryfall_record(**bolt, lang="ph", printed_name="Phyrexian bolt")]
    path = tmp_path / "all-cards.json"
    write_scryfall(path, records)
    [card] = list(read_cards(path))
    assert set(card.foreign_names) == {("ja", "稲妻"), ("zh_Hans", "闪电击")}
    assert MemoryCardPool([card]).resolve(["闪电击"])["闪电击"].name == "Lightning Bolt"


@pytest.mark.skipif(not ATOMIC.exists(), reason="shared card data not found")
def test_the_bilingual_form_resolves_against_the_real_card_data_without_foreign_names():
    pool = MemoryCardPool(read_cards(ATOMIC))
    text = ("Commander\n1 《クレンコ/Krenko, Mob Boss》\n\nDeck\n1 《ゴブリンの長槍使い/Goblin Piker》\n"
            "1 《稲妻/Lightning Bolt》\n1 《剣を鍬に/Swords to Plowshares》\n96 《山/Mountain》\n")
    result = check_deck(parse_decklist(text), pool, "commander")
    assert result.commanders == ["Krenko, Mob Boss"]
    assert [(f.code, f.card, f.written) for f in result.errors] == [
        ("COLOR_IDENTITY", "Swords to Plowshares", "剣を鍬に")]
    assert result.errors[0].message.startswith("Swords to Plowshares (剣を鍬に) has {W}")


def test_a_split_card_written_in_both_languages(card_file):
    assert bilingual_parts("《火+氷/Fire // Ice》") == ("Fire // Ice", "火+氷")
    assert bilingual_parts("火/氷/Fire/Ice") == ("Fire // Ice", "火 // 氷")
    assert lookup_keys("《火+氷/Fire // Ice》")[1] == name_key("Fire // Ice")


def test_did_you_mean_stays_in_english(card_file, load_cards, app):
    cards = list(read_cards(card_file))
    pool = MemoryCardPool(cards)
    assert pool.suggest("Progenitis")[:1] == ["Progenitus"]
    assert pool.suggest("祖神兽兽") == []                 # printed names resolve exactly, but are not suggested
    load_cards(card_file, source="mtgjson")
    with app.app_context():
        db_pool = DbCardPool()
        assert db_pool.suggest("祖神兽兽") == [] and db_pool.suggest("Goblin Pikr")[:1] == ["Goblin Piker"]
        assert db_pool.resolve(["祖神兽"])["祖神兽"].name == "Progenitus"
