"""Reading and writing player lists (CSV) and whole-event exports (JSON, CSV).

Pure functions over bytes, plain dicts and dataclasses: no Flask, no database.
The operations in ``exchange_ops`` load and store; this module only reads,
checks the shape of, and writes files.

Players CSV (import)
    A header row, then one row per player. Columns, matched case-insensitively
    and ignoring spaces and punctuation: ``name`` (required; also *Player*,
    *Player name*, *Full name*), ``contact`` (*Email*, *E-mail*, *Phone*),
    ``player_id`` (*DCI*, *DCI number*, *Player ID*, *ID*) and ``decklist``
    (*Deck*, *Deck list*; a multi-line quoted cell). Other columns are ignored
    and reported. Delimiter ``,``, ``;`` or tab, chosen from the header row.
    UTF-8 with or without a BOM (Excel's "CSV UTF-8"), or UTF-16 with a BOM
    (Excel's "Unicode text"). Rows are numbered as a spreadsheet shows them:
    the header is row 1, and a multi-line cell stays in its row. Blank rows
    are skipped.

Event export (JSON)
    ``{"format": FORMAT, "version": VERSION, "exported_at", "exported_by",
    "event": {...}, "settings": {...}, "players": [...], "audit_log": [...],
    "rounds": [], "stats": {...}}`` (stats: meta share, win rates by commander and seat, top-cut
    conversion; written for readers, ignored on import). Additions that older readers may ignore (new keys,
    rounds filled in by later features) keep the version; a reader ignores
    keys it does not know. Only an incompatible change raises VERSION.

Spreadsheet safety: a written cell that starts with ``= + - @``, a tab or a
carriage return is prefixed with ``'`` so that spreadsheet programs show it
as text instead of running it as a formula; reading a CSV removes that
prefix again.
"""
from __future__ import annotations

import codecs
import csv
import io
import json
import re
from dataclasses import dataclass, field
from datetime import date as Date, datetime, timezone
from typing import Iterable, Iterator

FORMAT = "edh-tournament-event"
VERSION = 1

MAX_PLAYERS_BYTES = 1_000_000           # players CSV
MAX_PLAYER_ROWS = 5_000
MAX_EVENT_BYTES = 20_000_000            # exported event JSON
MAX_PROBLEMS_LISTED = 50

PLAYER_FIELDS = ("name", "contact", "player_id", "decklist")
HEADER_ALIASES = {
    "name": ("name", "player", "playername", "playersname", "fullname", "participant"),
    "contact": ("contact", "email", "emailaddress", "mail", "phone", "contactinfo"),
    "player_id": ("playerid", "dci", "dcinumber", "dcino", "dciid", "id", "pid"),
    "decklist": ("decklist", "deck", "list", "cards"),
}
_ALIAS_TO_FIELD = {alias: f for f, aliases in HEADER_ALIASES.items() for alias in aliases}

EXPORT_CSV_COLUMNS = ("name", "contact", "player_id", "access_code", "checked_in", "dropped", "late",
                      "waitlisted", "paid", "deck_status", "commanders", "decklist")

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_DELIMITERS = (",", ";", "\t")


class ExchangeInputError(ValueError):
    """A file that cannot be read at all. ``kind``: "too_large", "unreadable" or "wrong_format"."""

    def __init__(self, message: str, kind: str = "unreadable"):
        super().__init__(message)
        self.message = message
        self.kind = kind


@dataclass(frozen=True)
class RowProblem:
    """What is wrong with one row (or player, or entry) of an import."""
    row: int
    message: str
    label: str = "Row"
    name: str = ""           # the player's name, when the row is not enough to find them

    def __str__(self) -> str:
        who = f" ({self.name})" if self.name else ""
        return f"{self.label} {self.row}{who}: {self.message}"


@dataclass(frozen=True)
class PlayerRow:
    row: int                 # spreadsheet row number (header = 1)
    name: str
    contact: str = ""
    player_id: str = ""
    decklist: str = ""

    def fields(self) -> dict:
        return {"name": self.name, "contact": self.contact, "player_id": self.player_id,
                "decklist": self.decklist}


@dataclass
class PlayersFile:
    rows: list[PlayerRow]
    problems: list[RowProblem] = field(default_factory=list)
    columns: dict[str, str] = field(default_factory=dict)      # our field -> the header as written
    ignored_columns: list[str] = field(default_factory=list)
    delimiter: str = ","


# ----------------------------------------------------------------- helpers

def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def header_key(header: str) -> str:
    """'Player Name' -> 'playername', 'E-Mail' -> 'email', 'DCI #' -> 'dci'."""
    return re.sub(r"[^0-9a-z]", "", header.casefold())


def escape_cell(value) -> str:
    """Text for a spreadsheet cell that is never run as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def unescape_cell(text: str) -> str:
    if text.startswith("'") and text[1:].startswith(_FORMULA_STARTS):
        return text[1:]
    return text


def iso(value) -> str | None:
    """A date or datetime as ISO 8601 text; naive datetimes are taken as UTC."""
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc).isoformat()
    if isinstance(value, Date):
        return value.isoformat()
    raise TypeError(f"not a date: {value!r}")


TIMESTAMP_YEARS = (1970, 2999)


def parse_timestamp(value) -> datetime | None:
    """ISO 8601 text (``Z`` or an offset; none means UTC) -> aware UTC datetime. ValueError if not."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise ValueError("not a timestamp")
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        moment = moment.astimezone(timezone.utc)
    except OverflowError:           # 0001-01-01T00:00+14:00: before the first representable moment
        raise ValueError("out of range") from None
    if not TIMESTAMP_YEARS[0] <= moment.year <= TIMESTAMP_YEARS[1]:
        raise ValueError("out of range")    # shown in every time zone later: far years overflow there
    return moment


def decode_text(data: bytes, what: str = "The file") -> str:
    """UTF-8 (BOM optional) or UTF-16 with a BOM; anything else is refused with a reason."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise ExchangeInputError(f"{what} starts like UTF-16 text but is not; save it again as "
                                     "CSV UTF-8.") from None
    if b"\x00" in data:
        raise ExchangeInputError(f"{what} is not a text file (it looks like a spreadsheet, picture or other "
                                 "binary file). Save it as CSV UTF-8 and upload that.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise ExchangeInputError(f"{what} is not UTF-8 text (the first bad byte is on line {line}). In Excel "
                                 "choose \"CSV UTF-8 (comma delimited)\" when saving; in LibreOffice choose the "
                                 "Unicode (UTF-8) character set.") from None


# ----------------------------------------------------------------- players CSV

def sniff_delimiter(text: str) -> str:
    """The delimiter used most in the header line: ',', ';' or tab (',' when tied or none)."""
    header = text.split("\n", 1)[0]
    counts = {d: header.count(d) for d in _DELIMITERS}
    best = max(_DELIMITERS, key=lambda d: (counts[d], d == ","))
    return best if counts[best] else ","


def _map_header(cells: list[str]) -> tuple[dict[int, str], dict[str, str], list[str]]:
    by_index: dict[int, str] = {}
    columns: dict[str, str] = {}
    ignored: list[str] = []
    for i, cell in enumerate(cells):
        written = unescape_cell(cell).strip()
        target = _ALIAS_TO_FIELD.get(header_key(written))
        if target is None:
            if written:
                ignored.append(written)
            continue
        if target in columns:
            raise ExchangeInputError(f"Two columns both hold the {target.replace('_', ' ')}: "
                                     f"\"{columns[target]}\" and \"{written}\". Keep one and upload again.")
        columns[target] = written
        by_index[i] = target
    return by_index, columns, ignored


_EMPTY_PLAYERS_FILE = ("The file is empty. Upload a CSV file with a header row (name, contact, player_id, decklist) "
                       "and one row per player.")


def read_players_csv(data: bytes, max_bytes: int = MAX_PLAYERS_BYTES,
                     max_rows: int = MAX_PLAYER_ROWS) -> PlayersFile:
    """Read a players CSV into rows. Whole-file problems raise ExchangeInputError;
    problems of single rows (wrong number of cells, duplicate player IDs) are
    collected in ``problems`` with their row numbers. Field contents (length,
    control characters, decklist syntax) are checked by the operation."""
    text = _players_text(data, max_bytes)
    delimiter = sniff_delimiter(text.lstrip("\r\n"))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header: dict[int, str] | None = None
    columns: dict[str, str] = {}
    ignored: list[str] = []
    width = 0
    rows: list[PlayerRow] = []
    problems: list[RowProblem] = []
    for row_number, cells in _csv_rows(reader):
        if header is None:
            header, columns, ignored = _players_header(cells, row_number)
            width = len(cells)
            continue
        if len(rows) + len(problems) >= max_rows:
            raise ExchangeInputError(f"The file has more than {max_rows:,} players; the limit is {max_rows:,} per "
                                     "file. Split it into several files.")
        row = _player_row(cells, row_number, header, width)
        (problems if isinstance(row, RowProblem) else rows).append(row)
    if header is None:
        raise ExchangeInputError(_EMPTY_PLAYERS_FILE)
    if not rows and not problems:
        raise ExchangeInputError("The file has a header row but no players.")
    problems.extend(duplicate_player_ids(rows))
    problems.sort(key=lambda p: p.row)
    return PlayersFile(rows=rows, problems=problems, columns=columns, ignored_columns=ignored,
                       delimiter=delimiter)


def _players_text(data: bytes, max_bytes: int) -> str:
    """The upload as text, refused when it is too large, empty or not UTF-8 / UTF-16 text."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("read_players_csv takes bytes")
    if len(data) > max_bytes:
        raise ExchangeInputError(f"The file is {_mb(len(data))}; the limit is {_mb(max_bytes)}. Split it into "
                                 "smaller files.", kind="too_large")
    if not data.strip():
        raise ExchangeInputError(_EMPTY_PLAYERS_FILE)
    text = decode_text(bytes(data))
    if not text.strip():
        raise ExchangeInputError(_EMPTY_PLAYERS_FILE)
    return text


def _csv_rows(reader) -> Iterator[tuple[int, list[str]]]:
    """(row number, cells) for each row that is not blank (blank rows still count); a row the csv module
    cannot read refuses the file, saying where it starts and what to check."""
    row_number = 0
    while True:
        start_line = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise _unreadable_row(e, row_number + 1, start_line) from None
        row_number += 1
        if any(c.strip() for c in cells):
            yield row_number, cells


def _unreadable_row(e: csv.Error, row_number: int, start_line: int) -> ExchangeInputError:
    """What went wrong reading a row, in the words of a spreadsheet user: a huge cell or an unclosed quote."""
    if "field larger than field limit" in str(e):
        return ExchangeInputError(f"Row {row_number}: a cell is longer than {csv.field_size_limit():,} "
                                  "characters, or a quote is never closed.")
    if "unexpected end of data" in str(e):
        return ExchangeInputError(f"Row {row_number}: a quoted cell that starts on line {start_line} is "
                                  "never closed. Check the quotes in that row.")
    return ExchangeInputError(f"Row {row_number} (line {start_line}) cannot be read as CSV: {e}. Check "
                              "the quotes in that row: a cell with quotes inside must be quoted as a "
                              "whole, with each inner quote doubled.")


def _players_header(cells: list[str], row_number: int) -> tuple[dict[int, str], dict[str, str], list[str]]:
    """The header row's columns (see _map_header); a file must have a name column."""
    header, columns, ignored = _map_header(cells)
    if "name" not in columns:
        found = ", ".join(f"\"{c.strip()}\"" for c in cells if c.strip())
        raise ExchangeInputError(
            f"No name column. Row {row_number} must be a header row naming the columns: name (or Player, "
            f"Player name), and optionally contact (Email), player_id (DCI, ID) and decklist. Found: "
            f"{found or 'nothing'}.")
    return header, columns, ignored


def _player_row(cells: list[str], row_number: int, header: dict[int, str], width: int) -> PlayerRow | RowProblem:
    """One player's row, or the row's problem when it has more filled cells than the header has columns
    (usually a cell with a comma or semicolon that lost its quotes)."""
    extra = [c for c in cells[width:] if c.strip()]
    if extra:
        columns_word = "column" if width == 1 else "columns"
        return RowProblem(row_number, f"It has {len(cells)} cells but the header has {width} {columns_word}. "
                                      "Is a cell with a comma or semicolon missing its quotes?")
    values = {target: unescape_cell(cells[i]) if i < len(cells) else "" for i, target in header.items()}
    return PlayerRow(row=row_number, name=values.get("name", ""), contact=values.get("contact", ""),
                     player_id=values.get("player_id", "").strip(), decklist=values.get("decklist", ""))


def duplicate_player_ids(rows: Iterable[PlayerRow], label: str = "Row") -> list[RowProblem]:
    """A problem for every row whose player ID an earlier row already has."""
    first: dict[str, int] = {}
    problems = []
    for row in rows:
        pid = row.player_id.strip()
        if not pid:
            continue
        if pid in first:
            problems.append(RowProblem(row.row, f"Player ID {pid} is also in {label.lower()} {first[pid]}; each "
                                                "player ID may appear once.", label,
                                       name="" if label == "Row" else row.name[:40]))
        else:
            first[pid] = row.row
    return problems


# ----------------------------------------------------------------- writing CSV

def write_csv(rows: Iterable[dict], columns: Iterable[str] = EXPORT_CSV_COLUMNS) -> bytes:
    """UTF-8 with a BOM (so Excel shows every script), comma-delimited, every cell spreadsheet-safe."""
    columns = list(columns)
    out = io.StringIO(newline="")
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([escape_cell(_cell(row.get(c))) for c in columns])
    return codecs.BOM_UTF8 + out.getvalue().encode("utf-8")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    return str(value)


# ----------------------------------------------------------------- event JSON

def dump_event_json(document: dict) -> bytes:
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


def load_event_json(data: bytes, max_bytes: int = MAX_EVENT_BYTES) -> dict:
    """Bytes of an event export -> its document, after checking the size, the format marker and the version."""
    return load_export(data, FORMAT, VERSION, "event", max_bytes)


def load_export(data: bytes, fmt: str, version_read: int, what: str, max_bytes: int) -> dict:
    """Bytes of an export (`what`: "event", "series") -> its document, after checking the size, the format
    marker and the version."""
    if len(data) > max_bytes:
        raise ExchangeInputError(f"The file is {_mb(len(data))}; {_an(what)} export may be at most {_mb(max_bytes)}.",
                                 kind="too_large")
    if not data.strip():
        raise ExchangeInputError("The file is empty. Choose a file made by \"Export JSON\".")
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ExchangeInputError(f"This is not {_an(what)} export: the file is not UTF-8 JSON text. Choose a file "
                                 "made by \"Export JSON\".", kind="wrong_format") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as e:
        raise ExchangeInputError(f"The file is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}). "
                                 f"Was it cut short or edited by hand? Export the {what} again.",
                                 kind="wrong_format") from None
    except (RecursionError, ValueError):
        raise ExchangeInputError(f"The file is not valid JSON. Export the {what} again.", kind="wrong_format") from None
    try:
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:      # "\ud800": JSON allows a lone surrogate escape, no database stores one
        raise ExchangeInputError("The file holds a broken character (a lone \\ud800-\\udfff escape), which no "
                                 f"text can hold. Was it edited by hand? Export the {what} again.",
                                 kind="wrong_format") from None
    except (RecursionError, ValueError):
        raise ExchangeInputError(f"The file is not valid JSON. Export the {what} again.", kind="wrong_format") from None
    if not isinstance(document, dict):
        raise ExchangeInputError(f"This is not {_an(what)} export from this tournament manager: the file holds JSON "
                                 "but not an export. Choose a file made by \"Export JSON\".", kind="wrong_format")
    marker = document.get("format")
    if marker != fmt:
        shown = "has no format marker" if marker is None else f"is marked {json.dumps(marker)[:60]}"
        raise ExchangeInputError(f"This is not {_an(what)} export from this tournament manager: the file {shown} "
                                 f"(an export says \"format\": \"{fmt}\").", kind="wrong_format")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ExchangeInputError(f"This {what} export has no valid version number; this program reads version "
                                 f"{version_read}.", kind="wrong_format")
    if version > version_read:
        raise ExchangeInputError(f"This {what} export is version {version}, made by a newer version of the "
                                 f"program; this one reads version {version_read}. Update the program first.",
                                 kind="wrong_format")
    if version < 1:
        raise ExchangeInputError(f"This {what} export has version {version}, which this program does not know; it "
                                 f"reads version {version_read}.", kind="wrong_format")
    return document


def _an(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word
