"""Reading card files, without a database."""
import bz2
import gzip
import json
import lzma
import zipfile

import pytest

from tests.cardfiles import write_mtgjson, write_scryfall
from tournament.cards.importers import CardFileError, read_cards


def by_name(cards):
    return {c.name: c for c in cards}


def test_mtgjson_cards_keep_faces_identity_and_flags(tmp_path):
    path = tmp_path / "AtomicCards.json"
    write_mtgjson(path)
    cards = by_name(read_cards(path))
    fire = cards["Fire // Ice"]
    assert fire.face_names == ("Fire", "Ice")
    assert fire.color_identity == ("U", "R")
    assert fire.layout == "split"
    assert cards["Delver of Secrets // Insectile Aberration"].front.name == "Delver of Secrets"
    assert cards["Phelddagrif"].can_be_commander
    assert cards["Phelddagrif"].color_identity == ("W", "U", "G")
    assert cards["Relentless Rats"].copy_limit is None
    assert cards["Seven Dwarves"].copy_limit == 7
    assert cards["Forest"].copy_limit is None
    assert cards["Lightning Bolt"].copy_limit == 1
    assert cards["Blacker Lotus"].is_funny
    assert cards["Lightning Bolt"].legality("vintage") == "Legal"
    assert cards["Blacker Lotus"].legality("vintage") == "Not Legal"


@pytest.mark.parametrize("pack", ["gz", "xz", "bz2", "zip"])
def test_compressed_files_read_the_same(tmp_path, pack):
    plain = tmp_path / "AtomicCards.json"
    write_mtgjson(plain)
    raw = plain.read_bytes()
    packed = tmp_path / f"AtomicCards.json.{pack}"
    if pack == "gz":
        packed.write_bytes(gzip.compress(raw))
    elif pack == "xz":
        packed.write_bytes(lzma.compress(raw))
    elif pack == "bz2":
        packed.write_bytes(bz2.compress(raw))
    else:
        with zipfile.ZipFile(packed, "w") as z:
            z.writestr("AtomicCards.json", raw)
    assert by_name(read_cards(packed)).keys() == by_name(read_cards(plain)).keys()


def test_scryfall_oracle_file_skips_tokens_and_duplicate_printings(tmp_path):
    path = tmp_path / "oracle-cards.json"
    write_scryfall(path)
    cards = list(read_cards(path))
    names = [c.name for c in cards]
    assert names.count("Lightning Bolt") == 1
    assert "Goblin" not in names
    named = by_name(cards)
    borrower = named["Brazen Borrower // Petty Theft"]
    assert borrower.face_names == ("Brazen Borrower", "Petty Theft")
    assert borrower.types == ("Creature",)
    kenrith = named["Kenrith, the Returned King"]
    assert kenrith.can_be_commander and kenrith.supertypes == ("Legendary",)
    assert kenrith.color_identity == ("W", "U", "B", "R", "G")
    assert named["Teferi, Temporal Archmage"].can_be_commander
    assert named["Shadowborn Apostle"].copy_limit is None
    assert named["Blacker Lotus"].is_funny
    assert named["Lightning Bolt"].legality("commander") == "Legal"


@pytest.mark.parametrize("content, words", [
    (b"", "not a card file"),
    (b"hello world", "not a card file"),
    (b'{"meta": {}, "nodata": {}}', "not an MTGJSON"),
    (b'{"meta": {}, "data": {"Bolt": 5}}', "not an MTGJSON"),
    (b'[{"foo": 1}]', "not a Scryfall"),
    (b'{"meta": {}, "data": {"Bolt": [{"name": "Bolt", "type": "Instant"}], "Shock": [{"na', "truncated"),
    (b"\x00\x01\x02binary", "not a card file"),
])
def test_bad_files_are_refused_with_a_reason(tmp_path, content, words):
    path = tmp_path / "cards.json"
    path.write_bytes(content)
    with pytest.raises(CardFileError, match=words):
        list(read_cards(path))


def test_truncated_gzip_is_refused(tmp_path):
    plain = tmp_path / "a.json"
    write_mtgjson(plain)
    packed = gzip.compress(plain.read_bytes())
    path = tmp_path / "AtomicCards.json.gz"
    path.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(CardFileError, match="damaged or truncated"):
        list(read_cards(path))


def test_missing_file_is_refused(tmp_path):
    with pytest.raises(CardFileError, match="Cannot open"):
        list(read_cards(tmp_path / "nope.json"))


def test_starter_file_reads():
    from tournament.cards.importers import STARTER_FILE
    if not STARTER_FILE.exists():
        pytest.skip("starter file not written yet")
    cards = by_name(read_cards(STARTER_FILE))
    assert len(cards) > 100
    assert json.loads(STARTER_FILE.read_text(encoding="utf-8"))["format"] == "tournament-starter-cards"
