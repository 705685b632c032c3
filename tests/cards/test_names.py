"""Name keys and the in-memory pool: how typed names meet card names."""
import pytest

from tournament.cards.domain import Card, Face
from tournament.cards.names import name_key
from tournament.cards.pool import MemoryCardPool


@pytest.mark.parametrize("typed, real", [
    ("aether vial", "Æther Vial"),
    ("Dandan", "Dandân"),
    ("Marton Stromgald", "Márton Stromgald"),
    ("Urza’s Tower", "Urza's Tower"),
    ("Fire/Ice", "Fire // Ice"),
    ("Fire / Ice", "Fire // Ice"),
    ("LIGHTNING   BOLT", "Lightning Bolt"),
    ("Lim-Dul's Vault", "Lim-Dûl's Vault"),
])
def test_keys_ignore_case_accents_and_punctuation(typed, real):
    assert name_key(typed) == name_key(real)


def test_different_cards_keep_different_keys():
    assert name_key("Fire // Ice") != name_key("Fire")
    assert name_key("Lightning Bolt") != name_key("Lightning Blast")


def test_pool_resolves_faces_and_prefers_full_names():
    delver = Card("Delver of Secrets // Insectile Aberration", "transform",
                  (Face("Delver of Secrets"), Face("Insectile Aberration")))
    bruna = Card("Bruna, the Fading Light // Brisela, Voice of Nightmares", "meld",
                 (Face("Bruna, the Fading Light"), Face("Brisela, Voice of Nightmares")))
    gisela = Card("Gisela, the Broken Blade // Brisela, Voice of Nightmares", "meld",
                  (Face("Gisela, the Broken Blade"), Face("Brisela, Voice of Nightmares")))
    fire = Card("Fire", faces=(Face("Fire"),))
    fire_ice = Card("Fire // Ice", "split", (Face("Fire"), Face("Ice")))
    pool = MemoryCardPool([delver, bruna, gisela, fire, fire_ice])
    got = pool.resolve(["delver of secrets", "Bruna, the Fading Light", "Brisela, Voice of Nightmares",
                        "Fire", "Fire/Ice", "Ice"])
    assert got["delver of secrets"] is delver
    assert got["Bruna, the Fading Light"] is bruna
    assert got["Brisela, Voice of Nightmares"] is None
    assert got["Fire"] is fire
    assert got["Fire/Ice"] is fire_ice
    assert got["Ice"] is fire_ice


def test_suggestions_for_a_typo():
    pool = MemoryCardPool([Card("Lightning Bolt"), Card("Lightning Blast"), Card("Counterspell")])
    assert pool.resolve(["Lightnign Bolt"])["Lightnign Bolt"] is None
    assert pool.suggest("Lightnign Bolt")[0] == "Lightning Bolt"
    assert pool.suggest("zzzzzzzz") == []
    assert pool.suggest("") == []


def test_a_real_card_wins_over_an_unset_card_with_the_same_key_unless_spelled_exactly():
    wasteland = Card("Wasteland", faces=(Face("Wasteland"),))
    waste_land = Card("Waste Land", faces=(Face("Waste Land"),), is_funny=True)
    for cards in ([wasteland, waste_land], [waste_land, wasteland]):
        got = MemoryCardPool(cards).resolve(["Wasteland", "wasteland", "Waste Land", "waste-land"])
        assert got["Wasteland"] is wasteland and got["wasteland"] is wasteland
        assert got["Waste Land"] is waste_land
        assert got["waste-land"] is wasteland
