"""Open data, read from the database: an event's export and standings as plain data for the pure builder
(tournament.events.open_data), and a series' events with who is who across them. Public where the standings are:
an event once its first round is published (rounds' `standings_visible`); a series' events likewise. The document
is the same for everyone (staff included): votes as the public sees them, generals only where the event shows its
decklists."""
from __future__ import annotations

from ..auth.models import User
from ..extensions import db
from ..rounds import operations as round_ops
from . import open_data
from .models import Event
from .operations import decklists_public


def _record(tally) -> dict:
    if tally is None:
        return {}
    if tally.survived is not None:
        return {"survived": tally.survived, "played": tally.played, "byes": tally.byes}
    return {"wins": tally.wins, "losses": tally.losses, "draws": tally.draws, "intentional": tally.intentional,
            "byes": tally.byes}


def standings_rows(event: Event) -> list[dict]:
    rows, _unplayed = round_ops.shown_standings(event, round_ops.scored_tables(event))
    return [{"rank": r.rank, "player_id": r.player, "name": r.name, "points": r.points,
             "tiebreakers": dict(r.tiebreakers), "record": _record(r.tally)} for r in rows]


def event_document(event: Event, user: User | None) -> dict:
    """The event's open data; a 404 (as the standings) before its first round is published, except for staff."""
    round_ops.require_standings_visible(event, user)
    from .export_api import export_document      # the export's reading of rounds, tables and decks, written once
    return open_data.event_document(export_document(event, staff=False), standings_rows(event),
                                    generals_public=decklists_public(event))


def series_events(series) -> list[tuple[Event, dict[int, int]]]:
    """The series' recorded events that still exist, oldest first, each with its players' series person
    (registration id -> person id): by the player ID they registered with, else by name."""
    out = []
    for recorded in series.events:
        event = db.session.get(Event, recorded.event_id) if recorded.event_id is not None else None
        if event is None:
            continue
        by_id = {r.player_id: r.id for r in event.registrations if r.player_id}
        by_name: dict[str, list[int]] = {}
        for r in sorted(event.registrations, key=lambda r: r.id):
            by_name.setdefault(r.name, []).append(r.id)
        person_of: dict[int, int] = {}
        for res in recorded.results:
            reg = by_id.get(res.player_id) if res.player_id else None
            if reg is None:
                reg = next((i for i in by_name.get(res.name, []) if i not in person_of), None)
            if reg is not None:
                person_of[reg] = res.series_player_id
        out.append((event, person_of))
    return out


def series_document(series, user: User | None) -> dict:
    """The series' open data: each recorded event whose standings the reader may see."""
    docs, entries = [], {}
    for event, person_of in series_events(series):
        if not round_ops.standings_visible(event, user):
            continue
        docs.append(event_document(event, user))
        for reg, person in person_of.items():
            entries.setdefault(person, []).append((event.id, reg))
    names = {p.id: p.name for p in series.players}
    people = [{"person_id": p, "name": names.get(p, ""), "entries": e} for p, e in sorted(entries.items())]
    return open_data.series_document({"id": series.id, "name": series.name, "people": people}, docs)
