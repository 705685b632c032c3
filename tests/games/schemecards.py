"""Real scheme cards for the Archenemy tests: every Scheme card of ../shared/cards/AtomicCards.json.gz and a few
other cards, read from that file when a test asks (nothing of it is copied into the project)."""
from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path

import pytest

ATOMIC_CARDS = Path(__file__).resolve().parents[2].parent / "shared" / "cards" / "AtomicCards.json.gz"
OTHER_CARDS = ("Lightning Bolt", "Sol Ring", "Phelddagrif")


@functools.lru_cache(maxsize=1)
def real_cards() -> dict:
    """{"schemes": [names: two ongoing ones, then the others], "ongoing": [...], "file": the MTGJSON subset}."""
    data = json.load(gzip.open(ATOMIC_CARDS))["data"]
    schemes = {name: faces for name, faces in data.items() if "Scheme" in faces[0].get("types", [])}
    ongoing = sorted(name for name, faces in schemes.items() if "Ongoing" in faces[0].get("supertypes", []))
    subset = {**schemes, **{name: data[name] for name in OTHER_CARDS}}
    plain = sorted(set(schemes) - set(ongoing))
    return {"schemes": ongoing[:2] + plain + ongoing[2:], "ongoing": ongoing,
            "file": {"meta": {"date": "2022-04-25", "version": "5.2.0"}, "data": subset}}


def scheme_list(names, copies=2, count=20) -> str:
    """A pasted scheme list: `count` cards, `copies` of each name (the last name fewer when it does not divide)."""
    lines, left = [], count
    for name in names:
        if left <= 0:
            break
        n = min(copies, left)
        lines.append(f"{n} {name}")
        left -= n
    return "\n".join(lines)


def write_subset(path) -> None:
    """The scheme cards and OTHER_CARDS as an MTGJSON file at `path` (for `cards import`)."""
    Path(path).write_text(json.dumps(real_cards()["file"]), encoding="utf-8")


@pytest.fixture
def scheme_cards(load_cards, tmp_path):
    """Load the real scheme cards (and OTHER_CARDS) into this test's database; returns real_cards()."""
    if not ATOMIC_CARDS.exists():
        pytest.skip(f"{ATOMIC_CARDS} not found")
    path = tmp_path / "AtomicSchemes.json"
    write_subset(path)
    load_cards(path, source="mtgjson")
    return real_cards()
