"""The event's versioned data export for analysts, and its audit log, on the API.

GET /api/v1/events/<id>/export answers the documented format "edh-tournament-export", version 1: the event, its
players with their generals (from their decklists), every published round's tables in seat order with the result
and the votes, the drops and the penalties. It is public as the statistics page is (once the event has finished and publishes
its decklists), and always for the event's staff. A later change of shape is a new version number; fields are only
ever added within a version."""
from __future__ import annotations

from datetime import date as Date
from typing import Literal, Optional

import pydantic
import sqlalchemy as sa
from flask_babel import gettext as _
from pydantic import Field

from ..errors import NotFound
from ..extensions import db
from ..penalties import operations as penalty_ops
from ..penalties.schemas import ExportPenalty
from ..rounds import operations as round_ops
from ..web.api import Output, bp, operation
from . import audit, loading, operations as ops
from .api_access import MAX_PAGE, UtcDateTime, public, shaped, staff
from .models import AuditEntry, Decklist

FORMAT = "edh-tournament-export"
VERSION = 1


Out = Output


class ExportEvent(Out):
    id: int
    name: str
    date: Optional[Date]
    venue: str
    status: str
    ruleset: str
    mode: Literal["pods", "duel"]
    variant: str
    pod_size: int
    scoring_profile: str
    round_minutes: int
    top_cut: int
    prize_conditions: list[dict]
    player_cap: Optional[int] = Field(description="The most players who held a place; null: no cap.")
    entry_fee: Optional[str] = Field(description="The entry-fee note; null: none.")


class ExportPlayer(Out):
    player_id: int
    name: str
    general: list[str] = Field(description="The commander(s) of the player's decklist; empty without one.")
    color_identity: list[str]
    legal: Optional[bool] = Field(description="Whether the decklist is legal; null without one.")
    dropped: bool
    waitlisted: bool = Field(description="Still on the waitlist: never had a place, never paired.")
    paid: Optional[bool] = Field(description="The desk marked the entry fee paid; null for readers who are not "
                                             "the event's staff.")


class ExportSeat(Out):
    seat: int = Field(description="1 takes the first turn.")
    player_id: int
    general: list[str]


class ExportPrize(Out):
    condition: str
    holder: int
    value: Optional[float]


class ExportResult(Out):
    state: Literal["reported", "disputed", "confirmed"]
    survivors: list[int] = Field(description="Pods: the players left at the end.")
    eliminated: list[int] = Field(description="Pods: the first out first.")
    draw: Optional[str] = Field(description="Pods: time, intentional or board for a drawn game; null otherwise.")
    archenemy: Optional[int]
    prizes: list[ExportPrize]
    games: list[Optional[int]] = Field(description="Matches: each game's winner; null for a drawn game.")
    time_called: bool = Field(description="Matches: the match ended at time (decided by the games won).")


class ExportVote(Out):
    voter: int
    votee: int


class ExportTable(Out):
    number: int
    kind: Literal["pod", "match", "bye"]
    seats: list[ExportSeat] = Field(description="In seat order.")
    result: Optional[ExportResult] = Field(description="Null while the table has no result (and for a bye).")
    votes: list[ExportVote] = Field(description="Empty while the votes are hidden or not scored.")


class ExportRound(Out):
    number: int
    stage: str
    status: Literal["published", "finished"]
    tables: list[ExportTable]


class ExportDrop(Out):
    player_id: int
    at: UtcDateTime
    after_round: int = Field(description="The last round published before the drop (0: before round 1).")


class Export(Out):
    format: Literal["edh-tournament-export"]
    version: Literal[1]
    event: ExportEvent
    players: list[ExportPlayer]
    rounds: list[ExportRound] = Field(description="The published rounds; drafts are never exported.")
    drops: list[ExportDrop]
    penalties: list[ExportPenalty] = Field(description="Every penalty given, oldest first; withdrawn ones marked.")


def _export_visible(rh) -> bool:
    """The statistics page's rule: staff at any time; everyone once the event has finished and publishes its
    decklists."""
    public(rh)
    if not rh.staff and not ops.decklists_public(rh.event):
        raise NotFound(_("The event's data is public once it has finished and published its decklists."))
    return True


def _decks(event) -> dict[int, dict]:
    deck_ids = {r.deck_id: r.id for r in event.registrations if r.deck_id is not None}
    if not deck_ids:
        return {}
    rows = db.session.execute(sa.select(Decklist.id, Decklist.result, Decklist.legal)
                              .where(Decklist.id.in_(list(deck_ids))))
    return {deck_ids[i]: {"general": [str(c) for c in (result or {}).get("commanders") or []],
                          "color_identity": [str(c) for c in (result or {}).get("color_identity") or []],
                          "legal": bool(legal)} for i, result, legal in rows}


def _result(t) -> dict | None:
    if t.kind == "bye" or t.result_state is None:
        return None
    order = sorted((s for s in t.seats if s.eliminated_order), key=lambda s: s.eliminated_order)
    return {"state": t.result_state, "survivors": [s.registration_id for s in t.seats if s.survived],
            "eliminated": [s.registration_id for s in order], "draw": t.draw_kind, "archenemy": t.archenemy_id,
            "prizes": [{"condition": c.condition, "holder": c.holder_id, "value": c.value} for c in t.prize_claims],
            "games": [g.winner_id for g in t.games], "time_called": t.time_called_at is not None}


def _votes(t, staff: bool) -> list[dict]:
    if t.kind != "pod" or not (staff or round_ops.votes_visible(t)):
        return []
    return [{"voter": v.voter_id, "votee": v.votee_id} for v in sorted(t.votes, key=lambda v: v.voter_id)]


def export_document(event, staff: bool) -> dict:
    decks = _decks(event)
    rounds = [round_ops.with_tables(r) for r in round_ops.rounds_of(event) if r.status != "draft"]

    def general(reg_id):
        return decks.get(reg_id, {}).get("general", [])

    drops = []
    for r in event.registrations:
        if r.dropped_at is None:
            continue
        when = r.dropped_at.replace(tzinfo=None)
        after = [x.number for x in rounds if x.published_at is not None and x.published_at.replace(tzinfo=None) <= when]
        drops.append({"player_id": r.id, "at": r.dropped_at, "after_round": max(after, default=0)})
    return {
        "format": FORMAT, "version": VERSION,
        "event": {"id": event.id, "name": event.name, "date": event.date, "venue": event.venue or "",
                  "status": event.status, "ruleset": event.ruleset, "mode": event.mode, "variant": event.variant,
                  "pod_size": event.pod_size, "scoring_profile": event.scoring_profile,
                  "round_minutes": event.round_minutes, "top_cut": event.top_cut or 0,
                  "prize_conditions": list(event.prize_conditions or []), "player_cap": event.player_cap,
                  "entry_fee": event.entry_fee or None},
        "players": [{"player_id": r.id, "name": r.name, "general": general(r.id),
                     "color_identity": decks.get(r.id, {}).get("color_identity", []),
                     "legal": decks[r.id]["legal"] if r.id in decks else None, "dropped": r.dropped_at is not None,
                     "waitlisted": bool(r.waitlisted), "paid": (r.paid_at is not None) if staff else None}
                    for r in sorted(event.registrations, key=lambda r: r.id)],
        "rounds": [{"number": rnd.number, "stage": rnd.stage, "status": rnd.status, "tables": [
            {"number": t.number, "kind": t.kind,
             "seats": [{"seat": s.seat, "player_id": s.registration_id, "general": general(s.registration_id)}
                       for s in t.seats],
             "result": _result(t), "votes": _votes(t, staff)} for t in rnd.tables]} for rnd in rounds],
        "drops": sorted(drops, key=lambda d: (d["at"], d["player_id"])),
        "penalties": penalty_ops.exported(event, staff),
    }


@bp.get("/events/<int:event_id>/export")
@operation("events_export", "The event's data for analysts (format edh-tournament-export, version 1).",
           tags=["export"], load=(loading.event,), policy=_export_visible, public=True, response=Export,
           errors="401 404",
           description="Players with their generals, every published round's tables in seat order with results "
                       "and votes, and the drops. Public once the event has finished and publishes its decklists "
                       "(as its statistics page); the event's staff at any time. Within version 1 fields are only "
                       "added, never changed or removed.")
def events_export(rh):
    return shaped(Export, export_document(rh.event, rh.staff))


# ----------------------------------------------------------------- the audit log

class LogQuery(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    limit: int = Field(100, ge=1, le=MAX_PAGE, description="At most this many entries.")
    offset: int = Field(0, ge=0, le=10_000_000, description="Skip this many entries first (newest first).")
    action: Optional[str] = Field(None, min_length=1, max_length=60, pattern=r"^[a-z_.]+$",
                                  description="Only this action, like result.report.")
    table: Optional[int] = Field(None, ge=1, le=100_000, description="Only entries about this table number.")
    round: Optional[int] = Field(None, ge=1, le=100_000, description="Only entries about this round number.")


class LogEntry(Out):
    id: int
    at: UtcDateTime
    actor: str = Field(description="'player:ID', 'judge:NAME', 'organizer:NAME', 'system', ...")
    who: str = Field(description="The actor in words.")
    action: str
    kind: str = Field(description="The action's group, as the log page filters it.")
    text: str = Field(description="What happened, in words.")
    round: Optional[int]
    table: Optional[int]
    details: dict


class LogPage(Out):
    entries: list[LogEntry]
    next_offset: Optional[int]


@bp.get("/events/<int:event_id>/log")
@operation("events_log", "The event's audit log, newest first: who did what and when.", tags=["log"],
           load=(loading.event,), policy=staff, query=LogQuery, response=LogPage, errors="400 401 403 404")
def events_log(rh):
    q = rh.query
    select = sa.select(AuditEntry).where(AuditEntry.event_id == rh.event.id).order_by(AuditEntry.id.desc())
    if q.action is not None:
        select = select.where(AuditEntry.action == q.action)
    names = {r.id: r.name for r in rh.event.registrations}
    if q.table is None and q.round is None:
        rows = list(db.session.execute(select.offset(q.offset).limit(q.limit + 1)).scalars())
        more = len(rows) > q.limit
        rows = rows[:q.limit]
    else:
        wanted = [e for e in db.session.execute(select).scalars()
                  if (q.table is None or (e.details or {}).get("table") == q.table)
                  and (q.round is None or (e.details or {}).get("round") == q.round)]
        rows = wanted[q.offset:q.offset + q.limit]
        more = q.offset + len(rows) < len(wanted)
    entries = [{"id": e.id, "at": e.at, "actor": e.actor, "who": audit.actor_words(e.actor, names),
                "action": e.action, "kind": audit.ACTIONS.get(e.action, ("Other", ""))[0],
                "text": audit.sentence(e, names), "round": _int((e.details or {}).get("round")),
                "table": _int((e.details or {}).get("table")), "details": dict(e.details or {})} for e in rows]
    return shaped(LogPage, {"entries": entries, "next_offset": q.offset + len(rows) if more else None})


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
