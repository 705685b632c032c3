"""The starter card file and demo decks, checked against real card data.

`tournament/data/starter_cards.json` is written for the project by hand. When
the shared MTGJSON-shaped file `../shared/cards/AtomicCards.json.gz` is present
(it never enters the project), every starter card is compared with it: the
fields deck checks rely on (colour identity, front type line, layout,
legalities) must agree.
"""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
DATA = PROJECT / "tournament" / "data"
STARTER = DATA / "starter_cards.json"
DECKS = DATA / "demo_decks"
ATOMIC = PROJECT.parent / "shared" / "cards" / "AtomicCards.json.gz"

# Cards that cannot be compared because the shared file lacks them (its README:
# Commander Legends is missing). Each one listed must really be absent.
ABSENT_FROM_SHARED_FILE: set[str] = set()


def _load_starter() -> dict:
    return json.loads(STARTER.read_text(encoding="utf-8"))


STARTER_CARDS = _load_starter()["cards"]
STARTER_NAMES = [c["name"] for c in STARTER_CARDS]
BY_NAME = {c["name"]: c for c in STARTER_CARDS}


@pytest.fixture(scope="module")
def atomic() -> dict:
    if not ATOMIC.exists():
        pytest.skip(f"{ATOMIC} not present")
    with gzip.open(ATOMIC, "rt", encoding="utf-8") as fh:
        return json.load(fh)["data"]


def _front(faces: list[dict]) -> dict:
    for f in faces:
        if f.get("side") in (None, "a"):
            return f
    return faces[0]


# ------------------------------------------------------------------ file shape

def test_file_shape():
    doc = _load_starter()
    assert doc["format"] == "tournament-starter-cards"
    assert doc["version"] == 1
    assert 170 <= len(STARTER_CARDS) <= 220
    assert len(set(STARTER_NAMES)) == len(STARTER_NAMES), "duplicate card names"
    layouts = {"normal", "split", "transform", "modal_dfc", "adventure", "flip", "meld", "saga",
               "scheme", "aftermath", "class"}
    for c in STARTER_CARDS:
        assert c["layout"] in layouts, c["name"]
        assert c["faces"], c["name"]
        face_names = [f["name"] for f in c["faces"]]
        if len(face_names) == 1:
            assert face_names[0] == c["name"]
        else:
            assert c["name"] == " // ".join(face_names)
        assert c["color_identity"] == [x for x in "WUBRG" if x in c["color_identity"]], c["name"]
        assert set(c["legalities"]) >= {"vintage", "commander", "duel"}, c["name"]


# ------------------------------------------------------------------ against real data

@pytest.mark.parametrize("name", STARTER_NAMES)
def test_card_matches_real_data(atomic, name):
    mine = BY_NAME[name]
    if name in ABSENT_FROM_SHARED_FILE:
        assert name not in atomic, f"{name} is in the shared file now: remove it from the exception list"
        return
    assert name in atomic, f"{name!r} is not a card name in the real data"
    faces = atomic[name]
    real = _front(faces)
    assert set(mine["color_identity"]) == set(real.get("colorIdentity", [])), "color identity"
    assert mine["faces"][0]["type_line"] == real["type"], "front type line"
    assert mine["layout"] == real["layout"], "layout"
    assert bool(mine.get("is_funny")) == bool(real.get("isFunny")), "is_funny"
    real_leg = real.get("legalities") or {}
    for fmt in ("vintage", "commander"):
        assert mine["legalities"][fmt] == real_leg.get(fmt, "Not Legal"), f"legality {fmt}"


# ------------------------------------------------------------------ demo decks

_LINE = re.compile(r"^(\d+)\s+(.+?)\s*$")


def _parse_deck(path: Path) -> dict[str, list[tuple[int, str]]]:
    sections: dict[str, list[tuple[int, str]]] = {}
    current = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _LINE.match(line)
        if not m:
            current = line.lower()
            sections.setdefault(current, [])
            continue
        sections[current].append((int(m.group(1)), m.group(2)))
    return sections


@pytest.mark.parametrize("deck", ["kenrith.txt", "phelddagrif-illegal.txt"])
def test_demo_deck_names_starter_cards_only(deck):
    sections = _parse_deck(DECKS / deck)
    assert set(sections) == {"commander", "deck"}
    for entries in sections.values():
        for _, name in entries:
            assert name in BY_NAME, f"{deck}: {name!r} is not in the starter file"
    total = sum(q for entries in sections.values() for q, _ in entries)
    assert total == 100


def test_kenrith_deck_is_100_and_uses_no_banned_card():
    sections = _parse_deck(DECKS / "kenrith.txt")
    assert sections["commander"] == [(1, "Kenrith, the Returned King")]
    assert sum(q for q, _ in sections["deck"]) == 99
    for q, name in sections["deck"]:
        card = BY_NAME[name]
        assert card["legalities"]["vintage"] in ("Legal", "Restricted"), name
        basic = card["faces"][0]["type_line"].startswith("Basic ")
        assert q == 1 or basic, f"{name} more than once"
        assert set(card["color_identity"]) <= set(BY_NAME["Kenrith, the Returned King"]["color_identity"])


def test_phelddagrif_deck_holds_the_seed_000_illegal_cards():
    sections = _parse_deck(DECKS / "phelddagrif-illegal.txt")
    assert sections["commander"] == [(1, "Phelddagrif")]
    general = set(BY_NAME["Phelddagrif"]["color_identity"])
    outside = {name for _, name in sections["deck"] if not set(BY_NAME[name]["color_identity"]) <= general}
    assert outside == {"Goblin Piker", "Elves of Deep Shadow", "Talisman of Dominance", "Life // Death",
                       "Degavolver", "Underground River", "Godless Shrine", "Badlands",
                       "Madblind Mountain", "Boros Guildmage"}
