"""Series arithmetic, pure: the series standings by the organizer's table (an event's final places come from
rounds.pairing.cut.final_places), and the series' numbers summed from its events' stats."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from ..decks.domain import N_, Text
from ..scoring.stats import NO_LIST, summary

MAX_TABLE = 64


def parse_points_table(text: str) -> list[int]:
    """'5, 3, 2, 1' (or spaces, slashes) -> [5, 3, 2, 1]: points for 1st, 2nd, ...; ValueError says what is wrong
    (its message a Text, for the reader's language)."""
    parts = [p for p in text.replace("/", ",").replace(";", ",").replace(" ", ",").split(",") if p]
    if not parts:
        raise ValueError(Text(N_("Enter the points for 1st, 2nd, 3rd … place, e.g. 5, 3, 2, 1.")))
    if len(parts) > MAX_TABLE:
        raise ValueError(Text(N_("The table has %(count)s places; the limit is %(limit)s."), count=len(parts),
                              limit=MAX_TABLE))
    out = []
    for p in parts:
        if not p.isdigit() or len(p) > 4:
            raise ValueError(Text(N_("“%(value)s” is not a whole number of points: write the table as 5, 3, 2, 1."),
                                  value=p[:20]))
        out.append(int(p))
    if any(b > a for a, b in zip(out, out[1:])):
        raise ValueError(Text(N_("A lower place cannot score more than a higher one: write the table from 1st place "
                                 "down.")))
    return out


def placement_points(place: int, table: Sequence[int]) -> int:
    return table[place - 1] if 1 <= place <= len(table) else 0


@dataclass(frozen=True)
class Placement:
    """One person's line in one recorded event (`event`: its position in the series, 0 first)."""
    person: int
    event: int
    place: int
    points: float = 0.0
    players: int = 0


@dataclass
class SeriesRow:
    rank: int
    person: int
    name: str
    points: float
    events: int
    best: int
    places: dict[int, int] = field(default_factory=dict)        # event position -> place
    event_points: dict[int, float] = field(default_factory=dict)


def result_points(p: Placement, scoring: str, table: Sequence[int], attendance: int) -> float:
    base = placement_points(p.place, table) if scoring == "placement" else p.points
    return base + attendance


def series_standings(placements: Iterable[Placement], names: Mapping[int, str], scoring: str,
                     table: Sequence[int], attendance: int = 0) -> list[SeriesRow]:
    """Points summed over the events each person played; ties by events played, then the best place, then the
    sum of places (lower first), then name. Equal on all of them share a rank."""
    rows: dict[int, SeriesRow] = {}
    for p in placements:
        row = rows.get(p.person)
        if row is None:
            row = rows[p.person] = SeriesRow(0, p.person, names.get(p.person, f"player {p.person}"), 0.0, 0, p.place)
        pts = result_points(p, scoring, table, attendance)
        row.points += pts
        row.events += 1
        row.best = min(row.best, p.place)
        row.places[p.event] = p.place
        row.event_points[p.event] = pts

    def key(r: SeriesRow):
        return (-round(r.points, 6), -r.events, r.best, sum(r.places.values()))

    ordered = sorted(rows.values(), key=lambda r: (*key(r), r.name.casefold(), r.person))
    for i, r in enumerate(ordered):
        r.points = round(r.points, 2)
        r.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(r) else i + 1
    return ordered


STATS_COUNT_LIMIT = 10_000_000     # far over any series: a count past it is not an export's
STATS_ROWS_LIMIT = 20_000
STATS_NAME_LIMIT = 300


def _count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= STATS_COUNT_LIMIT:
        raise ValueError(f"{what} is not a whole number from 0 to {STATS_COUNT_LIMIT:,}")
    return value


def _rows(raw, what: str, fields: tuple[str, ...]) -> list[dict]:
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > STATS_ROWS_LIMIT:
        raise ValueError(f"“{what}” is not a list (of at most {STATS_ROWS_LIMIT:,} rows)")
    for row in raw:
        if not isinstance(row, dict) or not all(f in row for f in fields):
            raise ValueError(f"a row of “{what}” lacks one of {', '.join(fields)}")
    return raw


def _commander(value, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= STATS_NAME_LIMIT \
            or any(ord(ch) < 32 or 0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise ValueError(f"a commander in “{what}” is not a name of 1 to {STATS_NAME_LIMIT} characters")
    return value


def _tally(table: dict, key, total: int, hits: int, what: str) -> None:
    if hits > total:
        raise ValueError(f"“{what}” counts more wins than games")
    _add(table, key, total, hits)


def clean_stats(raw) -> dict:
    """An event's stats block as an export or an import carries it, checked and recomputed from its counts
    (the shares and rates are derived, never taken from the file). ValueError says what is wrong."""
    if raw is None or raw == {}:
        return {}
    if not isinstance(raw, Mapping):
        raise ValueError("the stats are not an object")
    meta: dict[str, int] = {}
    for m in _rows(raw.get("meta"), "meta", ("commander", "players")):
        name = _commander(m["commander"], "meta")
        meta[name] = meta.get(name, 0) + _count(m["players"], "a meta row's players")
    commanders: dict[str, list[int]] = {}
    for c in _rows(raw.get("commanders"), "commanders", ("commander", "games", "wins")):
        _tally(commanders, _commander(c["commander"], "commanders"), _count(c["games"], "games"),
               _count(c["wins"], "wins"), "commanders")
    seats: dict[int, list[int]] = {}
    for st in _rows(raw.get("seats"), "seats", ("seat", "games", "wins")):
        seat = _count(st["seat"], "a seat")
        if not 1 <= seat <= MAX_TABLE:
            raise ValueError(f"a seat is not from 1 to {MAX_TABLE}")
        _tally(seats, seat, _count(st["games"], "games"), _count(st["wins"], "wins"), "seats")
    conversion = None
    if raw.get("top_cut"):
        cut = raw["top_cut"]
        if not isinstance(cut, Mapping):
            raise ValueError("“top_cut” is not an object")
        rows: dict[str, list[int]] = {}
        for c in _rows(cut.get("commanders"), "top_cut", ("commander", "players", "in_cut")):
            _tally(rows, _commander(c["commander"], "top_cut"), _count(c["players"], "players"),
                   _count(c["in_cut"], "in_cut"), "top_cut")
        conversion = (_count(cut.get("players", 0), "the top cut's players"), rows)
    return summary(_count(raw.get("players", 0), "players"), _count(raw.get("games", 0), "games"), meta,
                   commanders, seats, conversion)


def merge_stats(all_stats: Iterable[Mapping]) -> dict:
    """The series' numbers: each event's stats summed (meta by players, win rates by games, cut conversion).
    A block that does not read as stats (stored before imports were checked) is left out, never an error."""
    players = games = cut_players = 0
    meta: dict[str, int] = {}
    commanders: dict[str, list[int]] = {}
    seats: dict[int, list[int]] = {}
    conversion: dict[str, list[int]] = {}
    any_cut = False
    for raw in all_stats:
        try:
            s = clean_stats(raw)
        except ValueError:
            continue
        players += s.get("players", 0)
        games += s.get("games", 0)
        for m in s.get("meta", ()):
            meta[m["commander"]] = meta.get(m["commander"], 0) + m["players"]
        for c in s.get("commanders", ()):
            _add(commanders, c["commander"], c["games"], c["wins"])
        for st in s.get("seats", ()):
            _add(seats, st["seat"], st["games"], st["wins"])
        if s.get("top_cut"):
            any_cut = True
            cut_players += s["top_cut"]["players"]
            for c in s["top_cut"]["commanders"]:
                _add(conversion, c["commander"], c["players"], c["in_cut"])
    return summary(players, games, meta, commanders, seats, (cut_players, conversion) if any_cut else None)


def _add(table: dict, key, total, hits) -> None:
    row = table.setdefault(key, [0, 0])
    row[0] += int(total)
    row[1] += int(hits)


def commander_text(commanders: Sequence[str]) -> str:
    return " + ".join(sorted(commanders)) or NO_LIST
