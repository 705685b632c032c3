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


def merge_stats(all_stats: Iterable[Mapping]) -> dict:
    """The series' numbers: each event's stats summed (meta by players, win rates by games, cut conversion)."""
    players = games = cut_players = 0
    meta: dict[str, int] = {}
    commanders: dict[str, list[int]] = {}
    seats: dict[int, list[int]] = {}
    conversion: dict[str, list[int]] = {}
    any_cut = False
    for s in all_stats:
        players += int(s.get("players", 0))
        games += int(s.get("games", 0))
        for m in s.get("meta", ()):
            meta[m["commander"]] = meta.get(m["commander"], 0) + int(m["players"])
        for c in s.get("commanders", ()):
            _add(commanders, c["commander"], c["games"], c["wins"])
        for st in s.get("seats", ()):
            _add(seats, int(st["seat"]), st["games"], st["wins"])
        if s.get("top_cut"):
            any_cut = True
            cut_players += int(s["top_cut"].get("players", 0))
            for c in s["top_cut"].get("commanders", ()):
                _add(conversion, c["commander"], c["players"], c["in_cut"])
    return summary(players, games, meta, commanders, seats, (cut_players, conversion) if any_cut else None)


def _add(table: dict, key, total, hits) -> None:
    row = table.setdefault(key, [0, 0])
    row[0] += int(total)
    row[1] += int(hits)


def commander_text(commanders: Sequence[str]) -> str:
    return " + ".join(sorted(commanders)) or NO_LIST
