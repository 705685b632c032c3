"""How rounds are shown: clocks, table views, names in order, prize leaders (shared by pages and PDFs)."""
from __future__ import annotations

import json
import unicodedata
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path

from ..scoring.draws import draw_name, end_of_round_text as procedure_text
from ..scoring import UnknownScoringProfile, get_profile
from ..timezones import as_utc
from . import operations as ops


def name_key(name: str) -> str:
    """Alphabetical order by the name as written, for every script (no locale needed)."""
    return unicodedata.normalize("NFKD", name or "").casefold()




def iso_utc(value: datetime | None) -> str:
    """A stored time as ISO 8601 in UTC (what rounds.js reads); SQLite hands back naive UTC times."""
    value = as_utc(value)
    return value.isoformat(timespec="seconds").replace("+00:00", "Z") if value else ""


def timer_info(rnd, table=None) -> dict:
    """What the page needs to show the round clock: the stored deadline (a table's own when it has an
    extension), the server's time now, and whether the clock is paused (then the time left stands)."""
    now = datetime.now(timezone.utc)
    ends = as_utc(rnd.ends_at) if rnd is not None else None
    extra = (table.extra_minutes or 0) if table is not None else 0
    if ends is not None and extra:
        ends += timedelta(minutes=extra)
    paused = as_utc(rnd.paused_at) if rnd is not None else None
    remaining = max(0, int((ends - (paused or now)).total_seconds())) if ends else None
    return {"ends_at": iso_utc(ends), "now": iso_utc(now), "minutes": rnd.event.round_minutes if rnd else 0,
            "started": ends is not None, "finished": rnd is not None and rnd.status == "finished",
            "remaining": remaining, "paused": paused is not None, "extra": extra,
            "after_time": end_of_round_text(rnd.event) if rnd is not None else "",
            "text": clock_text(remaining) if remaining is not None else clock_text(60 * (rnd.event.round_minutes
                                                                                      if rnd else 0))}


def end_of_round_text(event) -> str:
    """What the players do when time is called: for pods the event's end-of-round procedure
    (tournament/data/draws.json), for 1v1 the scoring profile's `time_called` (the MTR)."""
    if event.mode == "pods":
        return procedure_text(event.end_of_round, event.end_of_round_turns)
    try:
        return str(get_profile(event.scoring_profile).raw.get("time_called") or "Time!")
    except UnknownScoringProfile:
        return "Time!"


def clock_text(seconds: int) -> str:
    h, rest = divmod(max(0, seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def prize_rows(event, names: dict[int, str], tables=None) -> list[dict]:
    """The leaders per alternate prize condition ({condition id: [(player, value)]} from scoring), to print.

    `tables`: the event's scored tables when the page has loaded them already (ops.scored_tables)."""
    board = ops.prize_board(event, tables) or {}
    rows = []
    for condition in event.prize_conditions or []:
        leaders = board.get(condition["id"]) or []
        rows.append({"id": condition["id"], "name": condition["name"], "kind": condition.get("kind", "max"),
                     "leaders": [names.get(p, f"#{p}") for p, _v in leaders],
                     "value": leaders[0][1] if leaders else None})
    return rows


def table_view(table, names: dict[int, str]) -> dict:
    return {"number": table.number, "kind": table.kind, "table": table,
            "seats": [{"seat": s.seat, "id": s.registration_id, "name": names.get(s.registration_id, "?"),
                       "survived": s.survived, "out": s.eliminated_order} for s in table.seats]}


def result_view(table, names: dict[int, str]) -> dict:
    """Who confirmed the current result, and every reported version (a dispute shows them side by side)."""
    return {"confirmed_by": sorted((names.get(i, "?") for i in ops.confirmers(table)), key=name_key),
            "entered_by": actor_text(table.result_by, names),
            "disputed": table.result_state == "disputed",
            "versions": [{"revision": r.revision, "by": actor_text(r.actor, names), "at": r.at, "staff": r.staff,
                          "text": version_text(table.kind, r.result or {}, names),
                          "current": r.revision == table.result_revision} for r in table.reports]}


def actor_text(actor: str | None, names: dict[int, str], staff_as: str | None = None) -> str:
    """Who an audit actor ("player:12", "judge:Jan Judge") is, in words. `staff_as`: what players are shown
    instead of a staff member's name (the player page says "a judge")."""
    actor = actor or ""
    kind, _, who = actor.partition(":")
    if kind == "player":
        return names.get(int(who), "a player") if who.isdigit() else "a player"
    if not actor:
        return ""
    return staff_as or who or actor


def version_text(kind: str, result: dict, names: dict[int, str]) -> str:
    """One reported version in words: "survived: A, B; drawn (intentional draw)" or "games: A, draw"."""
    if not result:
        return "(not recorded)"
    if kind == "match":
        games = ["draw" if w is None else names.get(w, "?") for w in result.get("games") or []]
        return "games won: " + ", ".join(games)
    survivors = [names.get(p, "?") for p in result.get("survivors") or []]
    text = "survived: " + (", ".join(survivors) or "nobody")
    if result.get("eliminated"):
        text += "; out in order: " + ", ".join(names.get(p, "?") for p in result["eliminated"])
    if draw_name(result.get("draw")):
        text += f"; drawn ({draw_name(result['draw']).lower()})"
    return text


@lru_cache(maxsize=1)
def tiebreaker_words() -> dict[str, str]:
    """What each standings column means (tournament/data/standings/tiebreakers.json)."""
    path = Path(__file__).resolve().parents[1] / "data" / "standings" / "tiebreakers.json"
    return dict(json.loads(path.read_text(encoding="utf-8"))["tiebreakers"])
