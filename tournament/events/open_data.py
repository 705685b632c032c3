"""Open data for analysts, pure (no Flask, no database): an event's (or a series') pods and matches with their seat
order, generals, results, votes, drops and standings, in the documented format "edh-open-data", version 1
(JSON Schema: tournament/data/schemas/open-data-v1.schema.json), and the same as CSV, one row per seat.

The input is plain data: the event's export (events.export_api.export_document: players, rounds, tables, seats,
results, votes, drops) and its standings as plain rows. Nothing private goes in: players are the event's
registration numbers and their names as the standings show them; never an access code, a contact, notes or a
player ID. Generals are given only where the event shows its decklists (`generals_public`).

Within version 1 fields are only added; a change of shape is a new version."""
from __future__ import annotations

import csv
import io
from typing import Iterable, Mapping, Sequence

FORMAT = "edh-open-data"
VERSION = 1
CSV_COLUMNS = ("event_id", "round", "stage", "table", "kind", "seat", "starting_player", "player_id", "name",
               "general", "result_state", "outcome", "eliminated_order", "game_wins", "draw", "votes_received",
               "rank", "points", "dropped_after_round")


def _outcome(kind: str, player: int, result: Mapping | None) -> dict:
    """One seat's result: pods survived/eliminated (the first out is 1); matches win/loss/draw by games won."""
    if kind == "bye":
        return {"outcome": "bye", "eliminated_order": None, "game_wins": None}
    if result is None:
        return {"outcome": None, "eliminated_order": None, "game_wins": None}
    if kind == "pod":
        eliminated = list(result.get("eliminated") or [])
        if player in eliminated:
            return {"outcome": "eliminated", "eliminated_order": eliminated.index(player) + 1, "game_wins": None}
        survived = player in (result.get("survivors") or [])
        outcome = ("draw" if result.get("draw") else "survived") if survived else None
        return {"outcome": outcome, "eliminated_order": None, "game_wins": None}
    games = list(result.get("games") or [])
    wins = sum(1 for w in games if w == player)
    others = max((sum(1 for w in games if w == o) for o in {w for w in games if w not in (None, player)}), default=0)
    outcome = "win" if wins > others else "loss" if wins < others else "draw"
    return {"outcome": outcome, "eliminated_order": None, "game_wins": wins}


def _table(round_number: int, stage: str, table: Mapping, generals: Mapping[int, list[str]]) -> dict:
    kind, result = table["kind"], table.get("result")
    received: dict[int, int] = {}
    for v in table.get("votes") or []:
        received[v["votee"]] = received.get(v["votee"], 0) + 1
    seats = []
    for s in sorted(table["seats"], key=lambda s: s["seat"]):
        pid = s["player_id"]
        seats.append({"seat": s["seat"], "starting_player": s["seat"] == 1, "player_id": pid,
                      "general": list(generals.get(pid, [])), **_outcome(kind, pid, result),
                      "votes_received": received.get(pid, 0) if kind == "pod" else None})
    clean = None
    if result is not None:
        clean = {"state": result["state"], "survivors": list(result.get("survivors") or []),
                 "eliminated": list(result.get("eliminated") or []), "draw": result.get("draw"),
                 "games": list(result.get("games") or [])}
    return {"round": round_number, "stage": stage, "table": table["number"], "kind": kind, "seats": seats,
            "result": clean, "votes": [{"voter": v["voter"], "votee": v["votee"]} for v in table.get("votes") or []]}


def event_document(export: Mapping, standings: Sequence[Mapping], generals_public: bool) -> dict:
    """The event's open data from its export (export_document's shape) and its standings rows (rank, player_id,
    name, points, tiebreakers, record, dropped)."""
    ev = export["event"]
    generals = {p["player_id"]: list(p.get("general") or []) for p in export["players"]} if generals_public else {}
    after = {d["player_id"]: d["after_round"] for d in export.get("drops") or []}
    names = {p["player_id"]: p["name"] for p in export["players"]}
    tables = [_table(r["number"], r["stage"], t, generals) for r in export["rounds"] for t in r["tables"]]
    return {
        "format": FORMAT, "version": VERSION,
        "event": {"id": ev["id"], "name": ev["name"], "date": _date(ev.get("date")), "status": ev["status"],
                  "mode": ev["mode"], "variant": ev.get("variant", "none"), "pod_size": ev["pod_size"],
                  "scoring_profile": ev["scoring_profile"], "top_cut": ev.get("top_cut", 0),
                  "rounds": len(export["rounds"]), "generals_public": bool(generals_public)},
        "players": [{"player_id": pid, "name": names[pid], "general": list(generals.get(pid, [])),
                     "dropped": pid in after, "dropped_after_round": after.get(pid)} for pid in sorted(names)],
        "tables": tables,
        "drops": [{"player_id": d["player_id"], "after_round": d["after_round"]} for d in export.get("drops") or []],
        "standings": [{"rank": int(r["rank"]), "player_id": r["player_id"], "name": r["name"],
                       "points": float(r["points"]),
                       "tiebreakers": {str(k): float(v) for k, v in (r.get("tiebreakers") or {}).items()},
                       "record": {str(k): int(v) for k, v in (r.get("record") or {}).items()},
                       "dropped": r["player_id"] in after} for r in standings],
    }


def series_document(series: Mapping, events: Iterable[Mapping]) -> dict:
    """A series' open data: its events' documents (each as event_document makes it), oldest first, and each
    person of the series with the player number they had at each event (`entries`)."""
    return {"format": FORMAT, "version": VERSION, "series": {"id": series["id"], "name": series["name"]},
            "people": [{"person_id": p["person_id"], "name": p["name"],
                        "entries": [{"event_id": e, "player_id": pid} for e, pid in p["entries"]]}
                       for p in series.get("people", [])],
            "events": [{k: v for k, v in doc.items() if k not in ("format", "version")} for doc in events]}


def _date(value) -> str | None:
    return value.isoformat() if hasattr(value, "isoformat") else value


def csv_rows(document: Mapping) -> list[dict]:
    """One row per seat of every table (a bye is one row), in round, table and seat order; a series' document
    gives its events' rows one event after another."""
    events = document["events"] if "events" in document else [document]
    rows = []
    for doc in events:
        names = {p["player_id"]: p["name"] for p in doc["players"]}
        after = {p["player_id"]: p["dropped_after_round"] for p in doc["players"]}
        ranked = {r["player_id"]: r for r in doc["standings"]}
        for t in doc["tables"]:
            for s in t["seats"]:
                pid, standing = s["player_id"], ranked.get(s["player_id"], {})
                rows.append({"event_id": doc["event"]["id"], "round": t["round"], "stage": t["stage"],
                             "table": t["table"], "kind": t["kind"], "seat": s["seat"],
                             "starting_player": int(s["starting_player"]), "player_id": pid,
                             "name": names.get(pid, ""), "general": " + ".join(s["general"]),
                             "result_state": (t["result"] or {}).get("state", ""), "outcome": s["outcome"] or "",
                             "eliminated_order": _blank(s["eliminated_order"]), "game_wins": _blank(s["game_wins"]),
                             "draw": (t["result"] or {}).get("draw") or "",
                             "votes_received": _blank(s["votes_received"]),
                             "rank": _blank(standing.get("rank")), "points": _blank(standing.get("points")),
                             "dropped_after_round": _blank(after.get(pid))})
    return rows


def _blank(value):
    return "" if value is None else value


def to_csv(document: Mapping) -> str:
    """The document's seats as CSV (RFC 4180, a header row, UTF-8). A cell that a spreadsheet would read as a
    formula (a name starting with =, +, - or @) is quoted with a leading apostrophe."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in csv_rows(document):
        writer.writerow({k: _safe(v) for k, v in row.items()})
    return out.getvalue()


def _safe(value):
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
