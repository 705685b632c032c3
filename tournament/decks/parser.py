"""Decklist text -> ParsedDeck, read the way players actually paste and export.

Pure functions: no Flask, no database, no card database. The parser knows
sections, counts and markers, never card types; moving Scheme cards found by
type is a later step, after names are resolved.

Formats: Arena/MTGO/Moxfield/Archidekt/Deckstats/TappedOut text (also Forge,
XMage ``.dck`` and Magic Workstation ``.mwDeck`` lines), CSV exports (Moxfield,
Archidekt, Dragon Shield; after Excel's ``sep=,`` line too), MTGO ``.dek`` and
Cockatrice ``.cod`` XML. The content decides which, never the file name.

Rules for the ambiguous cases:

* Line numbers are 1-based and count every physical line of the submission.
* A recognised header (``Commander``, ``Deck``, ``Sideboard (10)``,
  ``SIDEBOARD:``, ``// Main``, ``# Sideboard``, ``[Commander]`` ...) switches
  the section. A ``//`` or ``#`` line that is not a header is a comment and is
  skipped. A Commander/Companion section that already holds a card is ended
  (back to the main deck) by a blank line, a comment (``// Ramp``) or a
  card-type header (``Creatures (30)``): "Commander, 1 Atraxa, blank, 1 Sol
  Ring, ..." means the deck has begun. Partners are listed together.
* ``*CMDR*``, an Archidekt ``[Commander]`` category and a Deckstats
  ``#!Commander`` note make the card a general whatever section it is in;
  ``[Sideboard]`` and ``[Maybeboard]`` categories move it to those sections,
  and an Archidekt category marked ``{noDeck}`` ("Cuts{noDeck}{noPrice}")
  puts it outside the deck, with the maybeboard.
* XMage ``.dck`` metadata (``NAME:``, ``LAYOUT MAIN:(...)``) is skipped; its
  ``SB:`` lines are the sideboard, where XMage keeps the commander (the deck
  check reads a one- or two-card sideboard as the command zone).
* MTGGoldfish's printing treatments (``<extended>``, ``<borderless>``, ...)
  are not part of the name; neither are the ``《》`` brackets around a name
  written the way Japanese and Chinese players do (``《ゴブリンの長槍使い/Goblin
  Piker》``: the card look-up reads both languages).
* Lines under Arena's ``About`` (or Forge's ``[metadata]``) name the deck and
  are skipped.
* Apart from ending a general's section, blank lines mean something only in a
  text with no section headers and no ``SB:``/``CM:``/``Commander:`` prefixes:
    - general on top: when nothing is marked as the general, no header
      precedes the first card, and the first blank-separated block is a single
      card with count 1 followed by more cards, that card is the general;
    - MTGO sideboard (only when there are no headers of any kind): among the
      blocks that still hold main-deck cards, if there are at least two, the
      last one is the sideboard -- except that a last block of one card with
      count 1, when no general was found, is the general (MTGO keeps the
      general in the sideboard).
* MTGO ``.dek``: ``Sideboard="true"`` is the sideboard, except that a
  sideboard of exactly one card with quantity 1 is the general (MTGO's way).
* Dungeons (``DUNGEON_NAMES``) go to ``dungeons`` from any section except the
  maybeboard, which is not part of the deck.
* Counts below 1 or above 999, a count with no name and over-long lines are
  reported as UnparsedLine; only blank lines, comments, headers and XMage
  metadata (checked before the line length) are skipped.
* A count comes first (``1 Sol Ring``, ``1x``, ``1 x``) or last (``Sol Ring
  x1``); a set code in brackets before the name (``1 [M21] Mutavault``) is
  dropped.
* Notes after a card: `` - note`` and `` # note`` are never part of a card
  name and are left out (ParsedDeck.notes); `` // note`` may be a split card's
  second half, so the card data decides (ParsedDeck.fallbacks, settled in
  the checks). A count-less line of a few plain words right above a counted
  card line, in a list whose card lines mostly have counts, is a category
  heading when no card has that name (ParsedDeck.fallbacks too).
"""
from __future__ import annotations

import codecs
import csv
import dataclasses
import re
from pathlib import PurePath
from xml.parsers import expat

from tournament.cards.names import name_key
from tournament.decks.domain import N_, DeckInputError, Entry, Number, ParsedDeck, ReadNote, Text, UnparsedLine
from tournament.games.dungeons import load_dungeons

MAX_BYTES = 1_000_000
MAX_LINES = 2000
MAX_LINE_LENGTH = 500
MAX_COUNT = 999

DUNGEON_NAMES = tuple(sorted(d.name for d in load_dungeons().values()))   # tournament/data/dungeons/
_DUNGEON_KEYS = frozenset(name_key(n) for n in DUNGEON_NAMES)
# name_key costs microseconds; screening by the last letters lets almost every card skip it.
_DUNGEON_ENDINGS = tuple({n.lower()[-4:] for n in DUNGEON_NAMES})

_ABOUT = "about"        # Arena "About" / Forge "[metadata]": deck name, not cards

_BOARD_HEADERS = {
    "commander": "commander", "commanders": "commander",
    "deck": "main", "main": "main", "mainboard": "main", "main deck": "main", "maindeck": "main",
    "sideboard": "sideboard", "side board": "sideboard",
    "maybeboard": "maybeboard", "maybe": "maybeboard", "considering": "maybeboard",
    "companion": "companion", "companions": "companion",
    "scheme": "scheme", "schemes": "scheme",
    "dungeon": "dungeon", "dungeons": "dungeon",
    "about": _ABOUT, "metadata": _ABOUT,
}
# Headers in the words of the seeds' communities (ジェネラル, generál, 主将): lists from Japan, China and
# Czechia are written with them.
_LOCAL_HEADERS = {
    "ジェネラル": "commander", "統率者": "commander", "統率": "commander", "コマンダー": "commander",
    "メインデッキ": "main", "メイン": "main", "デッキ": "main", "サイドボード": "sideboard", "サイド": "sideboard",
    "主将": "commander", "指挥官": "commander", "指揮官": "commander", "主牌": "main", "主牌组": "main",
    "套牌": "main", "备牌": "sideboard", "備牌": "sideboard", "副牌": "sideboard",
    "generál": "commander", "generálové": "commander", "velitel": "commander", "balíček": "main",
    "hlavní balíček": "main", "sideboard": "sideboard",
}
_LOCAL_HEADER = re.compile(r"[\[【\s]*(\w[\w ]*?)[\]】\s]*[:：]?\s*(?:[(（]\s*\d+\s*[)）])?\s*[:：]?")
_TYPE_HEADERS = frozenset({
    "creature", "creatures", "instant", "instants", "sorcery", "sorceries",
    "artifact", "artifacts", "enchantment", "enchantments", "planeswalker", "planeswalkers",
    "land", "lands", "battle", "battles", "spells",
})
# "Commander: Atraxa, Praetors' Voice" and MTGO's "SB: 1 Negate".
_INLINE_BOARDS = {
    "sb": "sideboard", "sideboard": "sideboard", "cm": "commander",
    "commander": "commander", "commanders": "commander", "companion": "companion",
}
_CATEGORY_FLAGS = {
    "commander": "commander", "commanders": "commander",
    "sideboard": "sideboard", "maybeboard": "maybeboard", "considering": "maybeboard",
}
_LIST_FOR = {
    "commander": "commanders", "main": "main", "sideboard": "sideboard", "companion": "companions",
    "scheme": "schemes", "dungeon": "dungeons", "maybeboard": "ignored",
}

# The common card line, read by one regex: optional MTGO prefix, count, name, then
# Arena/Moxfield/Archidekt trailers in their usual order:
#   [SB:] 1[x] Name [(SET) [collector]] [*F* ...] [[Category]] [^Tag^]
# Groups: prefix, count, name, stars, category. Anything else takes the general path.
_NAME_CHARS = r"[^\s(\[*^#|:<](?:[^(\[*^#|:<\n]*[^\s(\[*^#|:<])?"
_CARD_LINE = (
    r"[ \t]*(?:((?i:sb|cm)):[ \t]*)?([1-9]\d{0,2})(?:[ \t]*[xX](?=[ \t]))?[ \t]+(" + _NAME_CHARS + r")"
    r"(?:[ \t]+\([A-Za-z0-9]{2,6}\)(?:[ \t]+[A-Za-z0-9][A-Za-z0-9\-★†]*)?)?"
    r"((?:[ \t]+\*[A-Za-z]{1,8}\*)*)"
    r"(?:[ \t]+\[([^\[\]\n]*)\])?"
    r"(?:[ \t]+\^[^^\n]*\^)?[ \t]*")
# One match per line over the whole text: (line, prefix, count, name, stars,
# category), the last five empty unless it is a common card line. One findall
# costs less than a fullmatch per line.
_LINES = re.compile(r"^(" + _CARD_LINE + r"|.*)$", re.M)
_HEADER = re.compile(r"\[?\s*([A-Za-z][A-Za-z ]*?)\s*\]?\s*:?\s*(?:\(\s*\d+\s*\))?\s*:?")
_INLINE = re.compile(r"([A-Za-z]+)\s*:\s*(\S.*)")
_COUNT = re.compile(r"(-?\d+)(?:\s*[xX](?=\s|$))?(?:\s+|$)")
_COUNT_AFTER = re.compile(r"\s+(?:[xX]\s*(\d{1,3})|(\d{1,3})[xX])$")     # "Sol Ring x1", "Mountain 39x"
_SET_FIRST = re.compile(r"\[[A-Za-z0-9]{2,6}\]\s+(?=\S)")                 # Magic Workstation "1 [M21] Mutavault"
# A bare category heading above a group ("Removal", "Card Draw:", "Ramp (10)"): a few plain words.
_HEADING = re.compile(r"[A-Za-z][A-Za-z&/+\- ]{0,29}:?")
_MAX_NOTE = 80
_SPECIAL = re.compile(r"[(\[*^#|<]")
_XMAGE_META = re.compile(r"(?:NAME|LAYOUT [A-Z]+)\s*:")
_BRACKETS = "《》【】「」『』"
# Trailing markers, matched on the reversed line so each one is an anchored match
# instead of a search from every position: *F* *E* *CMDR*, (F), ^Tag,#37d67a^,
# [CMR] 472, [Ramp], [Commander{top}], (CMR) 472, (PLST) LRW-123.
_COLLECTOR_REV = r"(?:[A-Za-z0-9\-★†]*[A-Za-z0-9]\s+)?"
_TAIL_REV = re.compile(
    r"\s*(?:\*(?P<star>[A-Za-z]{1,8})\*"
    r"|\)[FE]\("
    r"|>[A-Za-z0-9][A-Za-z0-9 \-]{0,20}<"
    r"|\^[^^]*\^"
    r"|" + _COLLECTOR_REV + r"\](?P<cat>[^\[\]]*)\["
    r"|" + _COLLECTOR_REV + r"\)[A-Za-z0-9]{2,6}\("
    r"|\)\d\("                                          # Magic Workstation's art variant: "Plains (2)"
    r")")
_XMAGE_SET = re.compile(r"\[[A-Za-z0-9]*:[^\]]*\]\s*")
_NOTE = re.compile(r"\s#(.*)$")
_CONTROL_CHARS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f"        # every control character but tab and line breaks
_CONTROL = re.compile(f"[{_CONTROL_CHARS}]")
_UNREADABLE = re.compile(f"[{_CONTROL_CHARS}\ufffd]")     # ... and U+FFFD, debris of a bad decoding
_CSV_COUNT = re.compile(r"(-?\d+)\s*[xX]?")
_MARKUP = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.I)

_COUNT_COLUMNS = frozenset({"count", "quantity", "qty"})
_NAME_COLUMNS = frozenset({"name", "card name", "card", "cardname"})
_BOARD_COLUMNS = frozenset({"board", "section"})
_CATEGORY_COLUMNS = frozenset({"category", "categories", "tags"})
_CSV_BOARDS = {
    "": "main", "main": "main", "mainboard": "main", "main deck": "main", "maindeck": "main", "deck": "main",
    "side": "sideboard", "sideboard": "sideboard",
    "commander": "commander", "commanders": "commander",
    "maybe": "maybeboard", "maybeboard": "maybeboard", "considering": "maybeboard",
    "companion": "companion", "companions": "companion",
    "scheme": "scheme", "schemes": "scheme", "dungeon": "dungeon", "dungeons": "dungeon",
}

_NOT_UTF8 = Text(N_("The file is not UTF-8 text, and it does not read as Windows-1252 either. Save it as UTF-8 "
                    "(in Notepad: File, Save as, Encoding: UTF-8; in Excel: Save as \"CSV UTF-8\") or export "
                    "the deck again as text, then upload it again, or paste the list into the box."))
_BINARY = Text(N_("This is not a text decklist: it contains binary data. Export the deck as text (one card per "
                  "line) from your deck site and paste or upload that."))
_EMPTY = Text(N_('The decklist is empty. Paste the deck, one card per line, like "1 Sol Ring".'))


# ---------------------------------------------------------------- public API

def parse_decklist(text: str) -> ParsedDeck:
    """Parse a pasted decklist; CSV or .dek XML pasted into the box is recognised too."""
    text, lines, dirty = _checked_lines(text)
    return _dispatch(text, lines, dirty, "")


def parse_upload(data: bytes, filename: str | None = None) -> ParsedDeck:
    """Parse an uploaded file: MTGO .dek or Cockatrice .cod XML, a CSV export, or text (Arena, MTGO,
    Magic Workstation .mwDeck, XMage .dck, Forge ...).

    The content decides; the file name only breaks ties (a ``.csv`` with no
    recognisable header is refused rather than read as card names).
    """
    text, encoding = decode_decklist(data)
    text, lines, dirty = _checked_lines(text)
    deck = _dispatch(text, lines, dirty, PurePath(filename).suffix.lower() if filename else "")
    if encoding is not None:
        deck.notes.insert(0, ReadNote(None, "encoding", encoding))
    return deck


def first_control_line(text: str) -> int | None:
    """The line of the first character a text decklist never holds (a control character other than tab
    and line breaks, or U+FFFD left by a bad decoding), or None: what the API refuses outright."""
    found = _UNREADABLE.search(text)
    return None if found is None else text.count("\n", 0, found.start()) + 1


def read_decklist_text(data: bytes) -> str:
    """Decode an upload: UTF-8 (BOM optional), UTF-16/32 with BOM, BOM-less UTF-16, Windows-1252."""
    return decode_decklist(data)[0]


def decode_decklist(data: bytes) -> tuple[str, str | None]:
    """(the text, None) for UTF-8/16/32; (the text, "Windows-1252") for a Notepad "ANSI" file in a Western
    language, read that way rather than refused: it is what Windows' Notepad saved for years, card names
    only ever need its accented Latin letters ("Lim-Dûl", "Jötun"), and the player is warned to check them.
    Bytes that do not read as Latin text that way (Shift-JIS, GBK, binary) are refused with how to save
    the file as UTF-8."""
    if len(data) > MAX_BYTES:
        raise DeckInputError(_too_big(len(data)))
    try:
        if data.startswith(codecs.BOM_UTF8):
            return data[3:].decode("utf-8"), None
        if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
            return data.decode("utf-32"), None
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return data.decode("utf-16"), None
    except UnicodeDecodeError:
        raise DeckInputError(_NOT_UTF8) from None
    if b"\x00" in data:
        encoding = _bomless_utf16(data)
        if encoding is None:
            raise DeckInputError(_BINARY)
        try:
            return data.decode(encoding), None
        except UnicodeDecodeError:
            raise DeckInputError(_BINARY) from None
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    text = _windows_1252(data)
    if text is None:
        raise DeckInputError(_NOT_UTF8)
    return text, WINDOWS_1252


WINDOWS_1252 = "Windows-1252"
# What a Western-language "ANSI" file holds beyond ASCII: accented letters and typographic punctuation.
_LATIN_EXTRA = re.compile(r"[^\x00-\x7f\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2022\u2026"
                          r"\u2122\u0152\u0153\u0160\u0161\u017d\u017e\u0178]")
_TWO_ACCENTS = re.compile(r"[\u0080-\uffff]{2,}")        # Latin card names never have two in a row


def _windows_1252(data: bytes) -> str | None:
    """The bytes as Windows-1252 when they read as Latin text that way, else None: Shift-JIS and GBK bytes
    decode to runs of accented letters and symbols, binary to control characters."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    high = sum(1 for ch in text if ord(ch) > 0x7f)
    if _LATIN_EXTRA.search(text) or _TWO_ACCENTS.search(text) or (high > 8 and high * 20 > len(text)):
        return None
    return text


# ---------------------------------------------------------------- input checks

def _too_big(size: int) -> Text:
    return Text(N_("The decklist is %(size).1f MB; the limit is %(limit)d MB. Paste only the deck."),
                size=size / 1_000_000, limit=MAX_BYTES // 1_000_000)


def _bomless_utf16(data: bytes) -> str | None:
    """Notepad-style UTF-16 without a BOM: mostly-ASCII text leaves every other byte NUL."""
    if len(data) < 4 or len(data) % 2:
        return None
    half = len(data) // 2
    if data[1::2].count(0) >= 0.9 * half:
        return "utf-16-le"
    if data[0::2].count(0) >= 0.9 * half:
        return "utf-16-be"
    return None


def _checked_lines(text: str) -> tuple[str, list[str], bool]:
    """Refuse what cannot be a decklist; return normalised text, its lines, and
    whether some lines carry control characters."""
    if len(text) > MAX_BYTES // 4:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_BYTES:
            raise DeckInputError(_too_big(size))
    if "\x00" in text:
        raise DeckInputError(_BINARY)
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise DeckInputError(_EMPTY)
    bad = len(_CONTROL.findall(text)) + text.count("\ufffd")
    if bad * 10 > len(text):
        raise DeckInputError(_BINARY)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    while not lines[-1].strip():
        lines.pop()
    if len(lines) > MAX_LINES:
        raise DeckInputError(Text(N_("The decklist has %(count)s lines; the limit is %(limit)s. Paste only the "
                                     "deck."), count=Number(len(lines)), limit=Number(MAX_LINES)))
    return text, lines, bad > 0


def _dispatch(text: str, lines: list[str], dirty: bool, suffix: str) -> ParsedDeck:
    deck = _parse_any(text, lines, dirty, suffix)
    if not deck.unparsed and not any(getattr(deck, attr) for attr in _LIST_FOR.values()):
        raise DeckInputError(Text(N_('The decklist has no card lines, only headers or comments. Paste the deck, '
                                     'one card per line, like "1 Sol Ring".')))
    return deck


def _parse_any(text: str, lines: list[str], dirty: bool, suffix: str) -> ParsedDeck:
    """The reader the content asks for: XML by its root element, CSV by its header row (after Excel's
    "sep=," line), text otherwise. The suffix only decides a refusal's wording."""
    first_at, first = _first_line(lines, 0)
    if first.startswith("<"):
        low = first[:15].lower()
        if low.startswith(("<!doctype html", "<html")):
            raise DeckInputError(Text(N_("This is a web page, not a decklist. Use your deck site's export (text, "
                                         "CSV, MTGO .dek or Cockatrice .cod) and paste or upload that.")))
        if low.startswith(("<?xml", "<deck", "<!doctype", "<cockatrice")) or suffix in (".dek", ".cod"):
            return _parse_xml(text, lines)
    separator = _SEP_LINE.fullmatch(first)
    if separator is not None:                      # Excel's "sep=," line (Dragon Shield's export has it)
        if first_at + 1 >= len(lines):
            raise DeckInputError(_NO_CSV_HEADER)
        first_at, first = _first_line(lines, first_at + 1)
    header = _csv_header(first, separator.group(1) if separator else None)
    if header is not None:
        return _parse_csv(lines, first_at, *header)
    if separator is not None or (suffix == ".csv" and ("," in first or ";" in first)):
        raise DeckInputError(_NO_CSV_HEADER)
    return _parse_text(text, lines, dirty)


_SEP_LINE = re.compile(r'"?sep=(.)"?[,;\t]*', re.I)
_NO_CSV_HEADER = Text(N_("The CSV file has no header row with Count (or Quantity) and Name columns. Export it "
                         "again from your deck site or collection app, or paste the list as text."))


def _first_line(lines: list[str], start: int) -> tuple[int, str]:
    """The first line from `start` that is not blank, stripped, and its index (the last line if none)."""
    for i in range(start, len(lines)):
        if lines[i].strip():
            return i, lines[i].strip()
    return len(lines) - 1, ""


# ---------------------------------------------------------------- placing cards

def _lists(deck: ParsedDeck) -> dict[str, list[Entry]]:
    return {section: getattr(deck, attr) for section, attr in _LIST_FOR.items()}


def _is_dungeon(name: str) -> bool:
    return name.lower().endswith(_DUNGEON_ENDINGS) and name_key(name) in _DUNGEON_KEYS


def _place(lists: dict[str, list[Entry]], count: int, name: str, line: int, section: str, raw: str) -> None:
    if section != "maybeboard" and _is_dungeon(name):
        section = "dungeon"
    lists[section].append(_make_entry(count, name, line, section, raw))


def _entry_maker():
    """Entry(...) goes through object.__setattr__ per field (it is frozen); setting
    the slots directly takes about half the time, and a deck makes a hundred."""
    names = ("count", "name", "line", "section", "raw")
    if tuple(f.name for f in dataclasses.fields(Entry)) != names:
        return Entry
    set_count, set_name, set_line, set_section, set_raw = (Entry.__dict__[n].__set__ for n in names)
    new = object.__new__

    def make(count: int, name: str, line: int, section: str, raw: str) -> Entry:
        entry = new(Entry)
        set_count(entry, count)
        set_name(entry, name)
        set_line(entry, line)
        set_section(entry, section)
        set_raw(entry, raw)
        return entry
    return make


_make_entry = _entry_maker()


def _count_problem(count: int) -> Text | None:
    if count < 1:
        return Text(N_("count %(count)s"), count=count)
    if count > MAX_COUNT:
        return Text(N_("count %(count)s is more than %(max)s"), count=count, max=MAX_COUNT)
    return None


def _unparsed(number: int, text: str, why: Text) -> UnparsedLine:
    """A line that names no card, and why (a Text, for the reader's language)."""
    return UnparsedLine(number, text, str(why), why)


_TOO_LONG = Text(N_("line too long"))
_CONTROL_CHARACTERS = Text(N_("control characters in the line"))
_NO_NAME = Text(N_("no card name"))


def _shown(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _category_flag(categories: str) -> str | None:
    """Archidekt categories ("Ramp,Commander{top}"): the general wins, then sideboard/maybeboard, then a
    category the deck leaves out ("Cuts{noDeck}{noPrice}"), which puts the card outside the deck."""
    low = categories.lower()
    if "commander" not in low and "board" not in low and "considering" not in low and "{nodeck}" not in low:
        return None
    found = None
    for part in low.replace(";", ",").split(","):
        flag = _CATEGORY_FLAGS.get(part.split("{", 1)[0].strip())
        if flag is None and "{nodeck}" in part:
            flag = "maybeboard"
        if flag == "commander":
            return flag
        found = found or flag
    return found


# ---------------------------------------------------------------- plain text

def _header(text: str) -> str | None:
    """The section a header line opens, "type" for a card-type header, else None."""
    m = _HEADER.fullmatch(text)
    if m is None:
        if text.isascii() or (m := _LOCAL_HEADER.fullmatch(text)) is None:
            return None
        return _LOCAL_HEADERS.get(" ".join(m.group(1).casefold().split()))
    word = " ".join(m.group(1).lower().split())
    section = _BOARD_HEADERS.get(word)
    if section is None and word in _TYPE_HEADERS:
        return "type"
    return section


def _strip_markers(rest: str) -> tuple[str, str | None, str | None]:
    """Remove set codes, collector numbers, foil marks and tags from a card line: (the rest, a section flag
    or None, a "# note" or None)."""
    flag = note = None
    if "|" in rest:                                  # Forge "Sol Ring|C21|1"
        rest = rest.split("|", 1)[0]
    if rest.startswith("["):                         # XMage "[C21:263] Sol Ring", Magic Workstation "[M21] Mutavault"
        m = _XMAGE_SET.match(rest) or _SET_FIRST.match(rest)
        if m:
            rest = rest[m.end():]
    m = _NOTE.search(rest) if "#" in rest else None  # Deckstats "#!Commander", a player's "# ramp"
    if m:
        if "!commander" in m.group(1).lower():
            flag = "commander"
        elif m.group(1).strip():
            note = m.group(1).strip()
        rest = rest[:m.start()]
    backwards = rest[::-1]
    at = 0
    while (m := _TAIL_REV.match(backwards, at)) is not None:
        star, cat = m.group("star", "cat")
        if star is not None:
            if star.upper() == "RDMC":
                flag = "commander"
        elif cat and flag != "commander":
            flag = _category_flag(cat[::-1]) or flag
        at = m.end()
    if at:
        rest = backwards[at:][::-1]
    return rest, flag, note


def _read_card(text: str) -> tuple[int, str, str | None, str | None, bool] | Text:
    """(count, name, flag, note, whether a count was written) for a card line, or why it cannot be read.
    The count comes first ("1 Sol Ring", "1x", "1 x") or last ("Sol Ring x1")."""
    m = _COUNT.match(text)
    written = m is not None
    if m:
        rest = text[m.end():]
        count = int(m.group(1))
    else:
        rest = text
        after = _COUNT_AFTER.search(text) if text[-1] in "xX0123456789" else None
        if after is not None:
            count, rest, written = int(after.group(1) or after.group(2)), text[:after.start()], True
        else:
            count = 1
    if written and (problem := _count_problem(count)):
        return problem
    flag = note = None
    if _SPECIAL.search(rest):
        rest, flag, note = _strip_markers(rest)
    name = " ".join(rest.split())
    if not name.isascii():
        name = name.strip(_BRACKETS + " ")
    if not name:
        return _NO_NAME
    return count, name, flag, note, written


class _TextRead:
    """Where one pass over a text decklist stands: the section lines go to, what the text has shown so far
    (headers, prefixes, a marked general) and where its blank-separated blocks start, which the blank-line
    conventions need afterwards; and the lines with no count, which may be category headings."""
    __slots__ = ("lists", "unparsed", "notes", "fallbacks", "section", "held", "board_header", "any_header",
                 "prefixed", "marked", "header_first", "seen", "gap", "block_starts", "fast", "quick", "counted",
                 "countless", "headed", "bare")

    def __init__(self, deck: ParsedDeck, fast: bool):
        self.lists = _lists(deck)
        self.unparsed = deck.unparsed
        self.notes = deck.notes
        self.fallbacks = deck.fallbacks
        self.section = "main"
        self.held = 0                       # cards the current section held when it was opened
        self.board_header = self.any_header = self.prefixed = self.marked = self.header_first = False
        self.seen = self.gap = False
        self.block_starts: list[int] = []   # line numbers where the 2nd, 3rd... blank-separated block begins
        self.fast = fast                    # no control characters and no over-long line anywhere
        self.quick = fast                   # ... and not in an About section: common card lines take the quick path
        self.counted = self.countless = 0   # card lines with a count written, and without
        self.headed: list[tuple[int, str]] = []  # count-less plain words right above a counted card line
        self.bare: tuple[int, str] | None = None  # the last non-blank line, when it was count-less plain words


def _parse_text(text: str, lines: list[str], dirty: bool) -> ParsedDeck:
    """One pass over the lines; blank-line conventions and category headings are settled afterwards."""
    deck = ParsedDeck()
    fast = not dirty and max(map(len, lines)) <= MAX_LINE_LENGTH
    if not fast and not dirty:               # XMage's LAYOUT lines are long, and metadata
        fast = all(len(line) <= MAX_LINE_LENGTH or _XMAGE_META.match(line.lstrip()) for line in lines)
    r = _TextRead(deck, fast)
    for number, (line, prefix, count, name, stars, category) in enumerate(_LINES.findall(text), 1):
        if r.quick and count:
            _quick_card(r, number, line, prefix, count, name, stars, category)
        else:
            _text_line(r, number, line, dirty)
    if r.block_starts and not r.board_header and not r.prefixed:
        _settle_blocks(deck, r.block_starts, r.marked, r.header_first, r.any_header)
    if r.headed and r.counted > 2 * r.countless:
        for number, words in r.headed:                 # the card data decides: see ParsedDeck.fallbacks
            deck.fallbacks[number] = (None, words)
    return deck


def _quick_card(r: _TextRead, number: int, line: str, prefix: str, count: str, name: str, stars: str,
                category: str) -> None:
    """A common card line, already split by the one regex (_LINES): most lines of most lists take this path,
    which is why it reads the regex's groups instead of the line."""
    count = 1 if count == "1" else int(count)
    if "  " in name or "\t" in name:
        name = " ".join(name.split())
    if not name.isascii():
        name = " ".join(name.split()).strip(_BRACKETS + " ")
    if "/" in name or " - " in name:
        name = _after_name(r, number, name)
    sec = r.section
    if prefix:
        r.prefixed = True
        sec = _INLINE_BOARDS[prefix.lower()]
    if category and (flag := _category_flag(category)) is not None:
        sec = flag
        r.marked = r.marked or flag == "commander"
    if stars and "CMDR" in stars.upper():
        sec = "commander"
        r.marked = True
    _note_card(r, number)
    r.counted += 1
    if r.bare is not None:
        r.headed.append(r.bare)
        r.bare = None
    if name.lower().endswith(_DUNGEON_ENDINGS) and sec != "maybeboard" and name_key(name) in _DUNGEON_KEYS:
        sec = "dungeon"
    r.lists[sec].append(_make_entry(count, name, number, sec, line))


def _after_name(r: _TextRead, number: int, name: str) -> str:
    """A note after the card's name: " - ramp" is never part of a card name, so it is left out (and said);
    " // ramp" may be a split card's second half, so the card data decides (ParsedDeck.fallbacks)."""
    if " - " in name:
        head, _, note = name.partition(" - ")
        if head.strip():
            r.notes.append(ReadNote(number, "note", _shown(note.strip(), _MAX_NOTE)))
            name = head.strip()
    if "//" in name and name.isascii():
        head, _, note = name.partition("//")
        if head.strip() and note.strip():
            r.fallbacks[number] = (head.strip(), _shown(note.strip(), _MAX_NOTE))
    return name


def _note_card(r: _TextRead, number: int) -> None:
    """A card line: the first after a blank line starts a new block; the very first notes whether a header
    came before it (a general on top is read only when none did)."""
    if r.gap:
        r.block_starts.append(number)
        r.gap = False
    elif not r.seen:
        r.header_first = r.any_header
        r.seen = True


def _text_line(r: _TextRead, number: int, line: str, dirty: bool) -> None:
    """Any line the quick path does not take: blank, too long, control characters, comment, header,
    XMage metadata, an inline board prefix ("Commander: X") or a card line with unusual markers."""
    s = line.strip()
    if not s:
        r.gap = r.seen
        _end_general_section(r)         # "Commander, 1 X, blank, 1 Sol Ring...": the deck has begun
        return
    r.bare = None
    if s[0] in "NL" and _XMAGE_META.match(s):     # XMage's NAME: and LAYOUT lines (long ones too)
        return
    if len(s) > MAX_LINE_LENGTH:
        r.unparsed.append(_unparsed(number, _shown(s), _TOO_LONG))
        return
    if dirty and _CONTROL.search(s):
        r.unparsed.append(_unparsed(number, _shown(s), _CONTROL_CHARACTERS))
        return
    read = _line_kind(r, s)
    if read is None:
        return
    opened, line_section, s = read
    if opened is not None:
        _open_section(r, opened)
    elif r.section != _ABOUT or line_section is not None:
        _card_line(r, number, s, line_section, line)


def _end_general_section(r: _TextRead) -> None:
    """A Commander/Companion section that already holds a card ends at a blank line or a comment."""
    if r.section in ("commander", "companion") and len(r.lists[r.section]) > r.held:
        r.section = "main"
        r.held = len(r.lists[r.section])


def _line_kind(r: _TextRead, s: str) -> tuple[str | None, str | None, str] | None:
    """(the section a header opens or None, the section an inline prefix names or None, the rest of the
    line); None for a line to skip (a comment, XMage metadata)."""
    first = s[0]
    if first == "/" or first == "#":
        opened = _header(s.lstrip("/#").strip())
        if opened is None:
            _end_general_section(r)
            return None
        return opened, None, s
    if first.isdigit() or first == "-":
        return None, None, s
    if first in "NL" and _XMAGE_META.match(s):
        return None
    opened = _header(s)
    if opened is None and ":" in s:
        m = _INLINE.fullmatch(s)
        if m and m.group(1).lower() in _INLINE_BOARDS:
            r.prefixed = True
            return None, _INLINE_BOARDS[m.group(1).lower()], m.group(2)
    return opened, None, s


def _open_section(r: _TextRead, opened: str) -> None:
    """A header: a board header switches the section; a card-type header ("Creatures (30)") only ends a
    general's section (or the About section)."""
    r.any_header = True
    if opened == "type":
        if r.section in ("commander", "companion", _ABOUT):
            r.section = "main"
    else:
        r.board_header = True
        r.section = opened
    r.quick = r.fast and r.section != _ABOUT
    if r.section != _ABOUT:
        r.held = len(r.lists[r.section])


def _card_line(r: _TextRead, number: int, s: str, line_section: str | None, line: str) -> None:
    """A card line read the careful way (markers, set codes, odd counts), or an unparsed line saying why not."""
    got = _read_card(s)
    if type(got) is Text:
        r.unparsed.append(_unparsed(number, _shown(s), got))
        return
    count, name, flag, note, written = got
    if note is not None:
        r.notes.append(ReadNote(number, "note", _shown(note, _MAX_NOTE)))
    if "/" in name or " - " in name:
        name = _after_name(r, number, name)
    if flag is not None:
        line_section = flag
        if flag == "commander":
            r.marked = True
    _note_card(r, number)
    if written:
        r.counted += 1
        if r.bare is not None:
            r.headed.append(r.bare)
    else:
        r.countless += 1
        section = line_section or r.section
        if section not in ("commander", "companion") and not line_section and _HEADING.fullmatch(name) \
                and len(name.split()) <= 4:
            r.bare = (number, name)
    _place(r.lists, count, name, number, line_section or r.section, line)


def _settle_blocks(deck: ParsedDeck, block_starts: list[int], marked: bool,
                   header_first: bool, any_header: bool) -> None:
    """Blank-line conventions for header-less pastes (see the module docstring)."""
    entries = sorted((*deck.commanders, *deck.main, *deck.sideboard, *deck.companions,
                      *deck.schemes, *deck.dungeons, *deck.ignored), key=lambda e: e.line)
    blocks: list[list[Entry]] = [[]]
    starts = iter(block_starts)
    next_start = next(starts)
    for entry in entries:
        if next_start is not None and entry.line >= next_start:
            blocks.append([])
            next_start = next(starts, None)
        blocks[-1].append(entry)
    moves: dict[int, str] = {}       # id(entry) -> new section

    first = blocks[0]
    on_top = (not marked and not header_first and len(first) == 1 and first[0].count == 1
              and first[0].section == "main" and sum(e.count for b in blocks[1:] for e in b) > 1)
    if on_top:
        moves[id(first[0])] = "commander"
    if not any_header:
        mains = [[e for e in b if e.section == "main" and id(e) not in moves] for b in blocks]
        mains = [b for b in mains if b]
        if len(mains) >= 2:
            last = mains[-1]
            if len(last) == 1 and last[0].count == 1 and not marked and not on_top:
                moves[id(last[0])] = "commander"
            else:
                moves.update((id(e), "sideboard") for e in last)
    if not moves:
        return
    moved = [e for e in deck.main if id(e) in moves]
    deck.main[:] = [e for e in deck.main if id(e) not in moves]
    lists = _lists(deck)
    for e in moved:
        section = moves[id(e)]
        lists[section].append(Entry(e.count, e.name, e.line, section, e.raw))
    for section in ("commander", "sideboard"):
        lists[section].sort(key=lambda e: e.line)


# ---------------------------------------------------------------- CSV

def _csv_header(line: str, separator: str | None = None
                ) -> tuple[str, int, int, int | None, tuple[int, ...]] | None:
    """(delimiter, count, name, board, category columns) when `line` is a CSV export header."""
    low = line.lower()
    if "name" not in low and "card" not in low:
        return None
    for delimiter in ((separator,) if separator else (",", ";", "\t")):
        if delimiter not in line:
            continue
        cells = [" ".join(c.lower().split()) for c in next(csv.reader([line], delimiter=delimiter))]
        count = next((i for i, c in enumerate(cells) if c in _COUNT_COLUMNS), None)
        name = next((i for i, c in enumerate(cells) if c in _NAME_COLUMNS), None)
        if count is None or name is None:
            continue
        board = next((i for i, c in enumerate(cells) if c in _BOARD_COLUMNS), None)
        categories = tuple(i for i, c in enumerate(cells) if c in _CATEGORY_COLUMNS)
        return delimiter, count, name, board, categories
    return None


def _cell(row: list[str], i: int | None) -> str:
    return row[i].strip() if i is not None and i < len(row) else ""


def _parse_csv(lines: list[str], header_at: int, delimiter: str, count_col: int, name_col: int,
               board_col: int | None, category_cols: tuple[int, ...]) -> ParsedDeck:
    """Moxfield/Archidekt CSV; line numbers are the physical line a row starts on."""
    deck = ParsedDeck()
    lists = _lists(deck)
    reader = csv.reader(lines[header_at + 1:], delimiter=delimiter)
    before = 0
    for row in reader:
        number = header_at + 2 + before
        before = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        raw = lines[number - 1]
        if len(raw) > MAX_LINE_LENGTH:
            deck.unparsed.append(_unparsed(number, _shown(raw.strip()), _TOO_LONG))
            continue
        count = 0
        count_text = _cell(row, count_col)
        m = _CSV_COUNT.fullmatch(count_text)
        if m is None:
            problem = (Text(N_("count %(count)s is not a number"), count=repr(count_text)) if count_text
                       else Text(N_("no count")))
        else:
            count = int(m.group(1))
            problem = _count_problem(count)
        name = " ".join(_cell(row, name_col).split())
        if problem is None and not name:
            problem = _NO_NAME
        section = _CSV_BOARDS.get(" ".join(_cell(row, board_col).lower().split()))
        if problem is None and section is None:
            problem = Text(N_("unknown board %(board)s"), board=repr(_cell(row, board_col)))
        if problem is not None:
            deck.unparsed.append(_unparsed(number, _shown(raw.strip()), problem))
            continue
        for i in category_cols:
            flag = _category_flag(_cell(row, i))
            if flag == "commander":
                section = flag
                break
            if flag and section == "main":
                section = flag
        _place(lists, count, name, number, section, raw)
    return deck


# ---------------------------------------------------------------- MTGO .dek and Cockatrice .cod

def _parse_xml(text: str, lines: list[str]) -> ParsedDeck:
    """MTGO .dek (``<Deck>`` with ``<Cards Quantity Name Sideboard>``) or Cockatrice .cod
    (``<cockatrice_deck>`` with ``<zone name="main|side|tokens">`` holding ``<card number name>``), read
    with expat (what ElementTree uses underneath) for exact line numbers.

    Both clients keep the general in the sideboard: a sideboard of exactly one card with quantity 1 is the
    general. Cockatrice's tokens zone holds play aids, not deck cards, and is left out. DOCTYPE and ENTITY
    declarations are refused outright: deck files never have them, and that closes entity-expansion and
    external-entity attacks.
    """
    deck = ParsedDeck()
    rows = []
    for number, attrs in _xml_cards(text):
        row = _dek_row(number, attrs, lines, deck.unparsed)
        if row is not None:
            rows.append(row)
    side = [r for r in rows if r[3] == "sideboard"]
    if len(side) == 1 and side[0][0] == 1:
        side[0][3] = "commander"
    lists = _lists(deck)
    for count, name, number, section, raw in rows:
        _place(lists, count, name, number, section, raw)
    return deck


_COD_ZONES = {"main": "false", "side": "true", "sideboard": "true"}


def _xml_cards(text: str) -> list[tuple[int, dict[str, str]]]:
    """The cards of an MTGO or Cockatrice deck, each with its line number, as .dek attributes (Quantity,
    Name, Sideboard); DeckInputError for a file that is not valid XML, neither deck, or declares a DOCTYPE
    or entities."""
    refused = DeckInputError(Text(N_("The deck file declares a DOCTYPE or entities, which MTGO and Cockatrice "
                                     "deck files never do. Export the deck again, or paste it as text.")))
    if _MARKUP.search(text):
        raise refused
    parser = expat.ParserCreate()
    root: list[str] = []
    zone: list[str | None] = [None]
    cards: list[tuple[int, dict[str, str]]] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if not root:
            root.append(tag)
        elif root[0] == "Deck":
            if tag == "Cards":
                cards.append((parser.CurrentLineNumber, attrs))
        elif tag == "zone":
            zone[0] = _COD_ZONES.get(attrs.get("name", "").strip().lower())
        elif tag == "card" and zone[0] is not None:
            cards.append((parser.CurrentLineNumber, {"Quantity": attrs.get("number", "1"),
                                                     "Name": attrs.get("name", ""), "Sideboard": zone[0]}))

    def end(tag: str) -> None:
        if tag == "zone":
            zone[0] = None

    def refuse(*_args) -> None:
        raise refused

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise DeckInputError(Text(N_("The deck file is not valid XML (%(error)s, line %(line)s). Export the deck "
                                     "again from MTGO or Cockatrice, or paste it as text."),
                                  error=expat.ErrorString(exc.code), line=exc.lineno)) from None
    if root not in (["Deck"], ["cockatrice_deck"]):
        raise DeckInputError(Text(N_("This XML file is not a deck file we read: it starts with <%(tag)s>, not "
                                     "<Deck> (MTGO .dek) or <cockatrice_deck> (Cockatrice .cod). Export the deck "
                                     "as one of those, or paste it as text."),
                                  tag=root[0] if root else "?"))
    return cards


def _dek_row(number: int, attrs: dict[str, str], lines: list[str], unparsed: list[UnparsedLine]) -> list | None:
    """[count, name, line, section, raw] for one <Cards> element, or None after noting in `unparsed` why it
    names no card (a quantity that is not a number or out of range, no name)."""
    raw = lines[number - 1].strip() if number <= len(lines) else ""
    quantity = attrs.get("Quantity", "1").strip()
    name = " ".join(attrs.get("Name", "").split())
    if len(raw) > MAX_LINE_LENGTH:
        raw = f'<Cards Quantity="{quantity}" Name="{_shown(name)}" />'
    problem = None
    if not quantity.lstrip("-").isdigit():
        problem = Text(N_("quantity %(quantity)s is not a number"), quantity=repr(quantity))
    else:
        problem = _count_problem(int(quantity))
    if problem is None and not name:
        problem = _NO_NAME
    if problem is not None:
        unparsed.append(_unparsed(number, _shown(raw), problem))
        return None
    sideboard = attrs.get("Sideboard", "false").strip().lower() == "true"
    return [int(quantity), name, number, "sideboard" if sideboard else "main", raw]
