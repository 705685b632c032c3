"""The card database: import, re-import, refusal, resolution, the CLI and the first page."""
import gzip
import http.server
import json
import threading
from functools import partial

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from tests.cardfiles import mtgjson_cards, write_mtgjson, write_scryfall
from tests.conftest import ATOMIC_CARDS
from tournament.cards.models import Card as CardRow, CardImport, CardName
from tournament.cards.repository import DbCardPool


def card_count(db):
    return db.session.execute(sa.select(sa.func.count()).select_from(CardRow)).scalar()


def test_import_then_reimport_updates_in_place(db, load_cards, tmp_path):
    path = tmp_path / "AtomicCards.json"
    write_mtgjson(path)
    first = load_cards(path)
    assert first.card_count == card_count(db) == len(mtgjson_cards())
    ids = dict(db.session.execute(sa.select(CardRow.name, CardRow.id)).all())

    cards = mtgjson_cards()
    cards["Lightning Bolt"][0]["text"] = "Lightning Bolt deals 3 damage to any target. (errata)"
    write_mtgjson(path, cards)
    load_cards(path)
    assert card_count(db) == len(cards)
    assert dict(db.session.execute(sa.select(CardRow.name, CardRow.id)).all()) == ids
    bolt = DbCardPool().get("lightning bolt")
    assert bolt.text.endswith("(errata)")
    names = db.session.execute(sa.select(sa.func.count()).select_from(CardName)).scalar()
    load_cards(path)
    assert db.session.execute(sa.select(sa.func.count()).select_from(CardName)).scalar() == names


def test_truncated_file_leaves_card_data_untouched(db, runner, load_cards, tmp_path):
    good = tmp_path / "AtomicCards.json"
    write_mtgjson(good)
    load_cards(good)
    before = card_count(db)
    cards = {f"Card {i}": [{"name": f"Card {i}", "type": "Instant", "colorIdentity": []}] for i in range(5000)}
    bad = tmp_path / "AtomicCards.json.gz"
    raw = gzip.compress(json.dumps({"data": cards}).encode())
    bad.write_bytes(raw[: int(len(raw) * 0.9)])
    result = runner.invoke(args=["cards", "import", str(bad)])
    assert result.exit_code == 1
    assert "damaged or truncated" in result.output
    assert "not changed" in result.output
    db.session.rollback()
    assert card_count(db) == before
    assert db.session.execute(sa.select(sa.func.count()).select_from(CardImport)).scalar() == 1


def test_wrong_file_is_refused_by_the_cli(runner, tmp_path):
    path = tmp_path / "deck.json"
    path.write_text('{"name": "my deck", "cards": []}')
    result = runner.invoke(args=["cards", "import", str(path)])
    assert result.exit_code == 1
    assert "not an MTGJSON AtomicCards file" in result.output
    result = runner.invoke(args=["cards", "import", str(tmp_path / "missing.json")])
    assert result.exit_code != 0 and "No file" in result.output


def test_scryfall_import(db, runner, tmp_path):
    path = tmp_path / "oracle-cards-20261130.json"
    write_scryfall(path)
    result = runner.invoke(args=["cards", "import", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "6"
    imp = db.session.execute(sa.select(CardImport)).scalar_one()
    assert imp.source == "scryfall" and imp.card_count == 6


def test_resolving_a_deck_costs_one_or_two_queries(app, db, load_cards, tmp_path):
    path = tmp_path / "AtomicCards.json"
    write_mtgjson(path)
    load_cards(path)
    deck = ["Fire/Ice", "dandan", "Delver of Secrets", "Nope", "Forest"] * 20
    statements = []
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(db.engine, "before_cursor_execute", listener)
    try:
        got = DbCardPool().resolve(deck)
        cold = len(statements)
        again = DbCardPool().resolve(deck)
    finally:
        event.remove(db.engine, "before_cursor_execute", listener)
    assert cold == 2
    assert len(statements) - cold == 1
    assert again == got
    assert got["Fire/Ice"].name == "Fire // Ice"
    assert got["dandan"].name == "Dandân"
    assert got["Delver of Secrets"].layout == "transform"
    assert got["Nope"] is None


def test_reimport_is_seen_by_a_warm_cache(db, load_cards, tmp_path):
    path = tmp_path / "AtomicCards.json"
    write_mtgjson(path)
    load_cards(path)
    assert DbCardPool().get("Lightning Bolt").text.startswith("Lightning Bolt deals 3")
    cards = mtgjson_cards()
    cards["Lightning Bolt"][0]["text"] = "Changed by errata."
    write_mtgjson(path, cards)
    load_cards(path)
    assert DbCardPool().get("Lightning Bolt").text == "Changed by errata."


def test_lookup_prints_json_or_suggestions(runner, load_cards, tmp_path):
    path = tmp_path / "AtomicCards.json"
    write_mtgjson(path)
    load_cards(path)
    result = runner.invoke(args=["cards", "lookup", "fire/ice"])
    assert result.exit_code == 0
    card = json.loads(result.stdout)
    assert card["name"] == "Fire // Ice"
    assert card["color_identity"] == ["U", "R"]
    assert card["type_line"] == "Instant // Instant"
    assert card["legalities"]["vintage"] == "Legal"
    result = runner.invoke(args=["cards", "lookup", "Lightnign", "Bolt"])
    assert result.exit_code == 1
    assert "Did you mean: Lightning Bolt" in result.stdout


def test_starter_cards_load_once(db, runner):
    result = runner.invoke(args=["cards", "starter"])
    assert result.exit_code == 0, result.output
    loaded = card_count(db)
    assert loaded > 100
    result = runner.invoke(args=["cards", "starter"])
    assert "not needed" in result.output
    assert card_count(db) == loaded


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def file_server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_download_mtgjson_from_a_local_server(db, runner, file_server, tmp_path):
    root, base = file_server
    plain = tmp_path / "x.json"
    write_mtgjson(plain)
    (root / "AtomicCards.json.gz").write_bytes(gzip.compress(plain.read_bytes()))
    result = runner.invoke(args=["cards", "download", "--url", f"{base}/AtomicCards.json.gz"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == str(len(mtgjson_cards()))
    assert card_count(db) == len(mtgjson_cards())


def test_download_scryfall_follows_the_bulk_index(db, app, runner, file_server):
    root, base = file_server
    write_scryfall(root / "oracle-cards-1.json")
    (root / "bulk.json").write_text(json.dumps({"object": "bulk_data", "type": "oracle_cards",
                                                "download_uri": f"{base}/oracle-cards-1.json"}))
    app.config["CARD_DOWNLOAD_URLS"] = {**app.config["CARD_DOWNLOAD_URLS"], "scryfall": f"{base}/bulk.json"}
    result = runner.invoke(args=["cards", "download", "--source", "scryfall"])
    assert result.exit_code == 0, result.output
    assert card_count(db) == 6


def test_download_failure_keeps_the_cards(db, runner, load_cards, file_server, tmp_path):
    _root, base = file_server
    path = tmp_path / "AtomicCards.json"
    write_mtgjson(path)
    load_cards(path)
    result = runner.invoke(args=["cards", "download", "--url", f"{base}/missing.json.gz"])
    assert result.exit_code == 1
    assert "Download from" in result.output and "not changed" in result.output
    assert card_count(db) == len(mtgjson_cards())


def test_first_page_shows_status_and_search(client, load_cards, tmp_path):
    path = tmp_path / "AtomicCards.json"
    write_mtgjson(path)
    load_cards(path)
    page = client.get("/").get_data(as_text=True)
    assert f"<strong>{len(mtgjson_cards())}</strong> cards" in page
    assert "AtomicCards.json" in page
    page = client.get("/?q=dandan").get_data(as_text=True)
    assert "Dandân" in page and 'id="card-result"' in page
    page = client.get("/?q=Lightnign+Bolt").get_data(as_text=True)
    assert "Did you mean" in page and "Lightning Bolt" in page
    page = client.get("/?q=%3Cscript%3Ealert(1)%3C/script%3E").get_data(as_text=True)
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert client.get("/?q=" + "x" * 10000).status_code == 200


def test_empty_database_page_explains_what_to_do(client):
    page = client.get("/").get_data(as_text=True)
    assert "No cards yet" in page and "cards import" in page


@pytest.mark.slow
def test_real_atomic_cards_import_and_every_name_example(db, runner):
    result = runner.invoke(args=["cards", "import", str(ATOMIC_CARDS)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "23711"
    pool = DbCardPool()
    expected = {
        "aether vial": "Aether Vial",
        "Dandan": "Dandân",
        "Marton Stromgald": "Márton Stromgald",
        "Urza’s Tower": "Urza's Tower",
        "Delver of Secrets": "Delver of Secrets // Insectile Aberration",
        "Brazen Borrower": "Brazen Borrower // Petty Theft",
        "Budoka Pupil": "Budoka Pupil // Ichiga, Who Topples Oaks",
        "Bruna, the Fading Light": "Bruna, the Fading Light // Brisela, Voice of Nightmares",
        "Collision": "Collision // Colossus",
        "Fire // Ice": "Fire // Ice",
        "Fire/Ice": "Fire // Ice",
        "Fire / Ice": "Fire // Ice",
    }
    got = pool.resolve(expected)
    assert {typed: card.name for typed, card in got.items()} == expected
    assert pool.resolve(["Lightnign Bolt"])["Lightnign Bolt"] is None
    assert pool.suggest("Lightnign Bolt")[0] == "Lightning Bolt"
    assert pool.get("Wasteland").name == "Wasteland" and not pool.get("Wasteland").is_funny
    assert pool.get("Waste Land").is_funny
    assert pool.get("Relentless Rats").copy_limit is None
    assert pool.get("Seven Dwarves").copy_limit == 7
    assert pool.get("A-Blood Artist").is_rebalanced
    assert not pool.get("Budoka Pupil").can_be_commander
    # A second import updates in place.
    result = runner.invoke(args=["cards", "import", str(ATOMIC_CARDS)])
    assert result.stdout.strip() == "23711"
    assert db.session.execute(sa.select(sa.func.count()).select_from(CardRow)).scalar() == 23711


def test_suggestions_for_a_deck_read_the_data_version_once(app, db, load_cards, tmp_path):
    path = tmp_path / "AtomicCards.json"
    write_mtgjson(path)
    load_cards(path)
    pool = DbCardPool()
    pool.resolve(["Lightnign Bolt", "Fire/Ice"])
    pool.suggest("Lightnign Bolt")     # builds the index
    statements = []
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(db.engine, "before_cursor_execute", listener)
    try:
        for typo in ("Lightnign Bolt", "Relentles Rats", "Dandann", "Sevn Dwarves"):
            assert pool.suggest(typo)
    finally:
        event.remove(db.engine, "before_cursor_execute", listener)
    assert statements == []
