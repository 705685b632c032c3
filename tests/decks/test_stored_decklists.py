"""What a submitted decklist costs the database: near a real deck's size whatever the player uploads, and a
large upload stored in short form still reads back as the deck that was checked."""
from __future__ import annotations

import json
import random
import string

from tournament.decks.parser import parse_decklist
from tournament.decks.storage import STORED_TEXT_MAX
from tournament.events import operations as ops
from tournament.events.models import Decklist

DEMO = __import__("pathlib").Path(__file__).resolve().parents[2] / "tournament" / "data" / "demo_decks"


def row_size(db, deck_id: int) -> int:
    db.session.expire_all()
    row = db.session.get(Decklist, deck_id)
    return len(row.text.encode()) + len(json.dumps(row.result, ensure_ascii=False).encode())


def junk(rnd: random.Random, n: int) -> str:
    return "Z" + "".join(rnd.choices(string.ascii_letters + " ", k=n)).strip()


def test_a_1_mb_list_stores_a_small_multiple_of_a_real_deck(db, make_event, make_player, starter_cards):
    event = make_event()
    real = make_player(event, "Real Rita")          # a real 100-card list with ten findings, every one kept
    ops.submit_decklist(real, (DEMO / "phelddagrif-illegal.txt").read_bytes())
    db.session.commit()
    assert not real.deck.legal and not any("more" in f["message"] for f in real.deck.result["findings"])
    real_size = row_size(db, real.deck_id)

    rnd = random.Random(28)
    hostile = ("Commander\n" + "\n".join(f"1 {junk(rnd, 480)}" for _ in range(1999))).encode()[:999_000]
    mallory = make_player(event, "Mallory <b>Hostile</b>")
    ops.submit_decklist(mallory, hostile)
    db.session.commit()
    stored = db.session.get(Decklist, mallory.deck_id)
    assert not stored.legal and len(hostile) > 900_000
    assert row_size(db, mallory.deck_id) < 5 * real_size, (row_size(db, mallory.deck_id), real_size)
    assert len(stored.result["commanders"]) == 10
    assert len(stored.text.encode()) <= STORED_TEXT_MAX
    # the short form keeps each kept card on its line: the findings' line numbers still point at it
    kept = parse_decklist(stored.text)
    first = next(f for f in stored.result["findings"] if f["code"] == "UNKNOWN_CARD")
    assert next(e for e in kept.commanders if e.line == first["line"]).name.startswith(first["card"][:60])


def test_a_large_legal_export_is_stored_as_its_cards_and_stays_legal(db, make_event, make_player, starter_cards):
    event = make_event()
    reg = make_player(event, "Csv Carl")
    lines = [line for line in (DEMO / "kenrith.txt").read_text().splitlines()]
    deck = parse_decklist("\n".join(lines))
    rows = ["Count,Name,Category,Notes"]
    for e in deck.commanders + deck.main:
        cat = "Commander" if e.section == "commander" else "Main"
        rows.append(f'{e.count},"{e.name}",{cat},"{"sleeved, played since the prerelease, keep " * 2}"')
    data = "\n".join(rows).encode()
    assert len(data) > STORED_TEXT_MAX
    submission = ops.submit_decklist(reg, data, filename="kenrith.csv")
    db.session.commit()
    stored = db.session.get(Decklist, reg.deck_id)
    assert stored.legal and submission.result["legal"]
    assert len(stored.text.encode()) < STORED_TEXT_MAX and stored.text.startswith("Deck\n")
    again = parse_decklist(stored.text)
    assert sorted((e.count, e.name) for e in again.entries()) == sorted((e.count, e.name) for e in deck.entries())
    # the same upload again is recognised as unchanged: nothing new is stored
    ops.submit_decklist(reg, data, filename="kenrith.csv")
    db.session.commit()
    assert db.session.query(Decklist).filter_by(registration_id=reg.id).count() == 1


def test_swaps_read_a_stored_list_with_notes_and_headings_as_the_check_did(db, make_event, make_player,
                                                                           starter_cards):
    from tournament.swaps.operations import registered_lists
    text = (DEMO / "kenrith.txt").read_text()
    text = text.replace("1 Command Tower\n", "1 Command Tower // always\n", 1)
    text = text.replace("1 Exotic Orchard\n", "Mana\n1 Exotic Orchard - fixing\n", 1)
    event = make_event()
    reg = make_player(event, "Noted Nora")
    submission = ops.submit_decklist(reg, text.encode())
    db.session.commit()
    codes = {f["code"] for f in submission.result["findings"]}
    assert submission.result["legal"] and {"READ_AS_NOTE", "READ_AS_HEADING"} <= codes, [(f["code"], f["message"][:150]) for f in submission.result["findings"]]
    lists = registered_lists(reg)
    assert "Command Tower" in lists.main and "Exotic Orchard" in lists.main
    assert not any("always" in name or "fixing" in name or name == "Mana" for name in lists.main)
