"""Rounds and top cut suggested by attendance, from the table in tournament/data/rounds_by_attendance.json.

Pure: no Flask, no database. The organizer's settings page and the API show the suggestion for the players
checked in (or registered, before anyone is); the organizer decides (planned_rounds, top_cut)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "rounds_by_attendance.json"


@dataclass(frozen=True)
class Suggestion:
    players: int
    rounds: int
    top_cut: int
    low: int             # the table's row: from `low` players
    high: int | None     # to `high` (None: and more)


@lru_cache(maxsize=1)
def table() -> dict:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    for mode in ("pods", "duel"):
        rows = data[mode]
        for before, after in zip(rows, rows[1:]):      # rows follow each other without gaps or overlaps
            assert before["players"][1] is not None and before["players"][1] + 1 == after["players"][0], mode
        assert rows[-1]["players"][1] is None, mode
    return data


def source() -> str:
    return table()["source"]


def suggest(mode: str, players: int) -> Suggestion | None:
    """The row of the table for this many players (None: nobody yet)."""
    if players < 1:
        return None
    rows = table()["duel" if mode == "duel" else "pods"]
    row = next((r for r in rows if r["players"][1] is None or players <= r["players"][1]), rows[-1])
    low, high = row["players"]
    return Suggestion(players=players, rounds=row["rounds"], top_cut=row["top_cut"], low=low, high=high)
