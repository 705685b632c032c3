"""Reading card files: MTGJSON AtomicCards, Scryfall bulk data, our starter file.

Each reader is a generator of `Card`, streaming its input with ijson so memory
stays bounded whatever the file size. A file that is not what it claims to be
raises `CardFileError` with a message for the organizer.
"""
from __future__ import annotations

import bz2
import dataclasses
import gzip
import io
import lzma
import zipfile
from pathlib import Path
from typing import IO, Iterator

import ijson

from .domain import MELD_RESULT, Card, Face, copy_limit_for, could_be_commander, sort_colors, split_type_line

FORMATS = ("vintage", "commander", "duel", "legacy")
_LEGALITY_WORDS = {"legal": "Legal", "restricted": "Restricted", "banned": "Banned", "not_legal": "Not Legal"}
# Scryfall layouts that are not cards a deck can hold.
# MTGJSON's foreignData languages -> the language codes the app uses (Scryfall's `lang` is mapped the same way).
LANGUAGES = {
    "Japanese": "ja", "Chinese Simplified": "zh_Hans", "Chinese Traditional": "zh_Hant", "Korean": "ko",
    "German": "de", "French": "fr", "Italian": "it", "Spanish": "es", "Portuguese (Brazil)": "pt",
    "Russian": "ru",
}
_SCRYFALL_LANGS = {"ja": "ja", "zhs": "zh_Hans", "zht": "zh_Hant", "ko": "ko", "de": "de", "fr": "fr",
                   "it": "it", "es": "es", "pt": "pt", "ru": "ru"}
_SCRYFALL_SKIP = {"token", "double_faced_token", "emblem", "art_series", "vanguard", "planar", "reversible_card"}


class CardFileError(Exception):
    """The file cannot be imported; the message says why and what to do."""


def open_card_file(path: str | Path) -> IO[bytes]:
    """Open a card file, unpacking .gz, .xz, .bz2 and .zip by their content."""
    path = Path(path)
    try:
        raw = open(path, "rb")
    except OSError as e:
        raise CardFileError(f"Cannot open {path}: {e.strerror or e}.") from e
    head = raw.read(6)
    raw.seek(0)
    if head.startswith(b"\x1f\x8b"):
        return gzip.open(raw)
    if head.startswith(b"\xfd7zXZ"):
        return lzma.open(raw)
    if head.startswith(b"BZh"):
        return bz2.open(raw)
    if head.startswith(b"PK"):
        archive = zipfile.ZipFile(raw)
        members = [n for n in archive.namelist() if n.lower().endswith(".json")]
        if not members:
            raise CardFileError(f"{path.name} is a zip archive with no .json file inside.")
        return archive.open(members[0])
    return raw


def detect_format(stream: IO[bytes]) -> str:
    """'mtgjson', 'scryfall' or 'starter', from the first bytes of the JSON."""
    peek = stream.peek(4096)[:4096] if hasattr(stream, "peek") else b""
    text = peek.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"["):
        return "scryfall"
    if b'"tournament-starter-cards"' in text:
        return "starter"
    if text.startswith(b"{"):
        return "mtgjson"
    raise CardFileError("This is not a card file: expected MTGJSON AtomicCards or Scryfall bulk JSON.")


def read_cards(path: str | Path) -> Iterator[Card]:
    """Cards from any supported file, detected by content."""
    stream = io.BufferedReader(open_card_file(path), buffer_size=1 << 16)
    try:
        fmt = detect_format(stream)
        reader = {"mtgjson": read_mtgjson, "scryfall": read_scryfall, "starter": read_starter}[fmt]
        yield from reader(stream)
    except (ijson.JSONError, ijson.IncompleteJSONError, EOFError, lzma.LZMAError, OSError,
            zipfile.BadZipFile, UnicodeDecodeError) as e:
        raise CardFileError(f"The card file is damaged or truncated ({e}). Download it again.") from e
    finally:
        stream.close()


def _legalities(raw: dict | None) -> dict:
    return {k: _LEGALITY_WORDS.get(v.lower().replace(" ", "_"), v) for k, v in (raw or {}).items()}


def card_from_mtgjson(name: str, faces: list[dict]) -> Card:
    if not isinstance(faces, list) or not faces or not all(isinstance(f, dict) for f in faces):
        raise CardFileError(f"Card {name!r} has no faces: this is not an MTGJSON AtomicCards file.")
    faces = sorted(faces, key=lambda f: f.get("side") or "a")
    first = faces[0]
    built = tuple(
        Face(
            name=f.get("faceName") or f.get("name") or name,
            mana_cost=f.get("manaCost") or "",
            type_line=f.get("type") or "",
            supertypes=tuple(f.get("supertypes") or ()),
            types=tuple(f.get("types") or ()),
            subtypes=tuple(f.get("subtypes") or ()),
            text=f.get("text") or "",
            colors=sort_colors(f.get("colors") or ()),
            power=f.get("power"), toughness=f.get("toughness"), loyalty=f.get("loyalty"),
        )
        for f in faces
    )
    if "type" not in first and "types" not in first:
        raise CardFileError(f"Card {name!r} has no type: this is not an MTGJSON AtomicCards file.")
    skills = first.get("leadershipSkills") or {}
    layout = first.get("layout") or "normal"
    if layout == "meld" and all(f.get("side") == "b" for f in faces):
        layout = MELD_RESULT
    return Card(
        name=name,
        layout=layout,
        faces=built,
        mana_value=float(first.get("manaValue", first.get("convertedManaCost", 0)) or 0),
        color_identity=sort_colors(first.get("colorIdentity") or ()),
        colors=sort_colors({c for f in faces for c in f.get("colors") or ()}),
        keywords=tuple(dict.fromkeys(k for f in faces for k in f.get("keywords") or ())),
        legalities=_legalities(first.get("legalities")),
        can_be_commander=(layout != MELD_RESULT and (bool(skills.get("commander")) if "commander" in skills
                                                      else could_be_commander(built[0]))),
        is_funny=bool(first.get("isFunny")),
        copy_limit=copy_limit_for(built[0].supertypes, built[0].text),
        oracle_id=(first.get("identifiers") or {}).get("scryfallOracleId"),
        foreign_names=_mtgjson_foreign(first),
    )


def _mtgjson_foreign(first: dict) -> tuple[tuple[str, str], ...]:
    """Printed names per language from `foreignData` (AtomicCards and AllPrintings carry it)."""
    out: dict[tuple[str, str], None] = {}
    for entry in first.get("foreignData") or ():
        if not isinstance(entry, dict):
            continue
        language = LANGUAGES.get(entry.get("language") or "")
        for printed in (entry.get("name"), entry.get("faceName")):
            if language and isinstance(printed, str) and printed.strip():
                out[(language, " ".join(printed.split()))] = None
    return tuple(out)


def read_mtgjson(stream: IO[bytes]) -> Iterator[Card]:
    count = 0
    for name, faces in ijson.kvitems(stream, "data", use_float=True):
        count += 1
        yield card_from_mtgjson(name, faces)
    if not count:
        raise CardFileError("No cards under \"data\": this is not an MTGJSON AtomicCards file.")


def _scryfall_face(d: dict, fallback_colors=()) -> Face:
    type_line = d.get("type_line") or ""
    sup, types, sub = split_type_line(type_line)
    return Face(
        name=d.get("name") or "", mana_cost=d.get("mana_cost") or "", type_line=type_line,
        supertypes=sup, types=types, subtypes=sub, text=d.get("oracle_text") or "",
        colors=sort_colors(d.get("colors") if d.get("colors") is not None else fallback_colors),
        power=d.get("power"), toughness=d.get("toughness"), loyalty=d.get("loyalty"),
    )


def card_from_scryfall(d: dict) -> Card | None:
    if not isinstance(d, dict) or "name" not in d or "layout" not in d:
        raise CardFileError("A record has no name or layout: this is not a Scryfall bulk card file.")
    if d["layout"] in _SCRYFALL_SKIP or d.get("set_type") in ("token", "memorabilia"):
        return None
    if d.get("card_faces"):
        faces = tuple(_scryfall_face(f, d.get("colors") or ()) for f in d["card_faces"])
    else:
        faces = (_scryfall_face(d),)
    colors = d.get("colors")
    if colors is None:
        colors = {c for f in faces for c in f.colors}
    layout = d["layout"]
    if layout == "meld" and any(isinstance(p, dict) and p.get("component") == "meld_result"
                                and p.get("name") == d["name"] for p in d.get("all_parts") or ()):
        layout = MELD_RESULT
    return Card(
        name=d["name"],
        layout=layout,
        faces=faces,
        mana_value=float(d.get("cmc") or 0),
        color_identity=sort_colors(d.get("color_identity") or ()),
        colors=sort_colors(colors),
        keywords=tuple(d.get("keywords") or ()),
        legalities=_legalities(d.get("legalities")),
        can_be_commander=layout != MELD_RESULT and could_be_commander(faces[0]),
        is_funny=d.get("set_type") == "funny",
        copy_limit=copy_limit_for(faces[0].supertypes, faces[0].text),
        oracle_id=d.get("oracle_id"),
    )


def read_scryfall(stream: IO[bytes]) -> Iterator[Card]:
    """oracle-cards has one record per card; default-cards and all-cards one per printing (deduplicated).
    all-cards also holds printings in other languages: their `printed_name` becomes a look-up key."""
    cards: dict[str, Card] = {}
    printed: dict[str, dict[tuple[str, str], None]] = {}
    for record in ijson.items(stream, "item", use_float=True):
        card = card_from_scryfall(record)
        if card is None:
            continue
        cards.setdefault(card.name, card)
        language = _SCRYFALL_LANGS.get(record.get("lang") or "en")
        for name in _scryfall_printed(record) if language else ():
            printed.setdefault(card.name, {})[(language, name)] = None
    for name, card in cards.items():
        yield dataclasses.replace(card, foreign_names=tuple(printed[name])) if name in printed else card


def _scryfall_printed(record: dict) -> list[str]:
    names = [record.get("printed_name")] + [f.get("printed_name") for f in record.get("card_faces") or ()
                                            if isinstance(f, dict)]
    return [" ".join(n.split()) for n in names if isinstance(n, str) and n.strip()]


def card_from_starter(d: dict) -> Card:
    faces = []
    for f in d.get("faces") or [{"name": d["name"]}]:
        sup, types, sub = split_type_line(f.get("type_line") or "")
        faces.append(Face(
            name=f["name"], mana_cost=f.get("mana_cost") or "", type_line=f.get("type_line") or "",
            supertypes=sup, types=types, subtypes=sub, text=f.get("text") or "",
            colors=sort_colors(f.get("colors") or ()),
            power=f.get("power"), toughness=f.get("toughness"), loyalty=f.get("loyalty"),
        ))
    return Card(
        name=d["name"], layout=d.get("layout") or "normal", faces=tuple(faces),
        mana_value=float(d.get("mana_value") or 0),
        color_identity=sort_colors(d.get("color_identity") or ()),
        colors=sort_colors(d.get("colors") or ()),
        keywords=tuple(d.get("keywords") or ()),
        legalities=_legalities(d.get("legalities")),
        can_be_commander=could_be_commander(faces[0]),
        is_funny=bool(d.get("is_funny")),
        copy_limit=copy_limit_for(faces[0].supertypes, faces[0].text),
    )


def read_starter(stream: IO[bytes]) -> Iterator[Card]:
    for record in ijson.items(stream, "cards.item", use_float=True):
        if not isinstance(record, dict) or "name" not in record:
            raise CardFileError("A starter card record has no name.")
        yield card_from_starter(record)


STARTER_FILE = Path(__file__).resolve().parent.parent / "data" / "starter_cards.json"
