"""Series: a league of events. Create and edit one, add events, record a finished event's places, decide who is
who across events, and read its standings, a player's history, its stats, its export and an import.

An event counts once it has finished: its places are recorded then (finishing it, setting its status to
finished, or adding a finished event) and stay as they were. A player is the same person as in an earlier event
by player ID; by name only once the organizer confirms it (until then the two count apart).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import sqlalchemy as sa
from flask_babel import gettext as _, lazy_gettext as _l

from ..auth.models import User
from ..cards.models import utcnow
from ..cards.names import name_key
from ..errors import Forbidden, NotFound, Refused
from ..events.exchange import ExchangeInputError, dump_event_json, iso, load_export, parse_timestamp
from ..events.models import Decklist, Event, Registration
from ..events.operations import actor_name, clean_text, get_event, log, require_staff, valid_id
from ..extensions import db
from ..i18n import message_text
from ..rounds import operations as rounds_ops
from . import domain
from .models import SERIES_SCORING, Series, SeriesEvent, SeriesPlayer, SeriesResult

FORMAT = "edh-tournament-series"
VERSION = 1
MAX_SERIES_BYTES = 20_000_000
MAX_EVENTS = 500
MAX_RESULTS_PER_EVENT = 5_000
DEFAULT_TABLE = [5, 3, 2, 1]
SCORING_WORDS = {"placement": _l("Placement points"), "event_points": _l("Each event's own points")}


# ----------------------------------------------------------------- who may do what

def may_manage_series(user: User | None, series: Series) -> bool:
    return user is not None and user.active and series.organizer_id == user.id


def require_series_owner(user: User | None, series: Series) -> User:
    """A series is its organizer's: only they add events, decide who is who and change its table."""
    if user is None or not user.active:
        raise Refused(_("Log in as the series' organizer first."), status=401)
    if series.organizer_id != user.id:
        raise Forbidden(_("This series belongs to another organizer."))
    return user


def get_series(series_id) -> Series:
    series = db.session.get(Series, series_id) if valid_id(series_id) else None
    if series is None:
        raise NotFound(_("There is no such series."))
    return series


def series_of(user: User) -> list[Series]:
    return list(db.session.execute(sa.select(Series).where(Series.organizer_id == user.id)
                                   .order_by(Series.created_at.desc(), Series.id.desc())).scalars())


# ----------------------------------------------------------------- settings

def _points_table(value) -> list[int]:
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        value = ", ".join(map(str, value))
    if not isinstance(value, str):
        raise Refused(_("Write the points table as whole numbers from 1st place down, e.g. 5, 3, 2, 1."),
                      field="points_table")
    try:
        return domain.parse_points_table(value.strip())
    except ValueError as e:
        raise Refused(message_text(e.args[0]) if e.args else str(e), field="points_table") from None


def _attendance(value) -> int:
    if value in (None, ""):
        return 0
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise Refused(_("Points for attending are a whole number (0 for none)."),
                      field="attendance_points") from None
    if not 0 <= number <= 1000:
        raise Refused(_("Points for attending are between 0 and 1000."), field="attendance_points")
    return number


def clean_series_fields(data: dict, partial: bool = False) -> dict:
    if not isinstance(data, dict):
        raise Refused(_("Send the series' settings as fields."))
    out = {}
    if not partial or "name" in data:
        out["name"] = clean_text(data.get("name"), "name", _("The series' name"), 200, required=True)
    if not partial or "scoring" in data:
        scoring = data.get("scoring") or "placement"
        if scoring not in SERIES_SCORING:
            raise Refused(_("Choose placement points or each event's own points."), field="scoring")
        out["scoring"] = scoring
    if not partial or "points_table" in data:
        out["points_table"] = _points_table(data.get("points_table") or DEFAULT_TABLE)
    if not partial or "attendance_points" in data:
        out["attendance_points"] = _attendance(data.get("attendance_points"))
    return out


def create_series(user: User, data: dict) -> Series:
    require_staff(user, None, organizer_only=True)
    series = Series(organizer_id=user.id, **clean_series_fields(data))
    db.session.add(series)
    db.session.flush()
    log(None, actor_name(user), "series.create", series=series.id, name=series.name)
    return series


def update_series(series: Series, user: User, data: dict) -> Series:
    require_series_owner(user, series)
    fields = clean_series_fields(data, partial=True)
    changed = sorted(k for k, v in fields.items() if getattr(series, k) != v)
    for key in changed:
        setattr(series, key, fields[key])
    db.session.flush()
    if changed:
        log(None, actor_name(user), "series.update", series=series.id, fields=changed)
    return series


# ----------------------------------------------------------------- events in a series

def events_to_add(series: Series, user: User) -> list[Event]:
    """The organizer's events that are in no series yet."""
    return list(db.session.execute(sa.select(Event).where(Event.organizer_id == user.id, Event.series_id.is_(None))
                                   .order_by(Event.date.desc().nulls_last(), Event.id.desc())).scalars())


def add_event(series: Series, user: User, event_id) -> Event:
    require_series_owner(user, series)
    event = get_event(event_id)
    require_staff(user, event, organizer_only=True)
    if event.series_id == series.id:
        raise Refused(_("“%(name)s” is in this series already.", name=event.name), status=409, field="event_id")
    if event.series_id is not None:
        raise Refused(_("“%(name)s” counts in another series; remove it there first.", name=event.name), status=409,
                      field="event_id")
    event.series_id = series.id
    log(event, actor_name(user), "series.add_event", series=series.id)
    if event.status == "finished":
        record_event(series, event, actor_name(user))
    return event


def remove_event(series: Series, user: User, series_event_id: int | None = None, event_id: int | None = None) -> str:
    """Take an event out of the series: its places stop counting (a live event may be added again)."""
    require_series_owner(user, series)
    name = None
    if event_id is not None:
        event = db.session.get(Event, event_id)
        if event is None or event.series_id != series.id:
            raise NotFound(_("That event is not in this series."))
        event.series_id = None
        name = event.name
        log(event, actor_name(user), "series.remove_event", series=series.id)
        recorded = _recorded(event)
    else:
        recorded = db.session.get(SeriesEvent, series_event_id) if valid_id(series_event_id) else None
        if recorded is None or recorded.series_id != series.id:
            raise NotFound(_("That event is not in this series."))
        if recorded.event_id is not None:
            return remove_event(series, user, event_id=recorded.event_id)
        name = recorded.name
        log(None, actor_name(user), "series.remove_event", series=series.id, name=name)
    if recorded is not None:
        _unrecord(recorded)
    return name


def _recorded(event: Event) -> SeriesEvent | None:
    return db.session.execute(sa.select(SeriesEvent).where(SeriesEvent.event_id == event.id)).scalar()


def event_status_changed(event: Event, actor: str) -> None:
    """Called when an event's status changes: finished, it is recorded in its series; reopened, it stops
    counting until it finishes again."""
    if event.series_id is None:
        return
    if event.status == "finished":
        record_event(db.session.get(Series, event.series_id), event, actor)
    elif (recorded := _recorded(event)) is not None:
        _unrecord(recorded)


def _unrecord(recorded: SeriesEvent) -> None:
    series = recorded.series
    db.session.delete(recorded)
    db.session.flush()
    _drop_unplaced(series)


def _drop_unplaced(series: Series) -> None:
    """People with no place left in the series (their only event was removed) are forgotten."""
    placed = sa.select(SeriesResult.series_player_id).join(SeriesEvent).where(SeriesEvent.series_id == series.id)
    db.session.execute(sa.delete(SeriesPlayer).where(SeriesPlayer.series_id == series.id,
                                                     SeriesPlayer.id.not_in(placed)))
    db.session.expire(series, ["players"])


# ----------------------------------------------------------------- recording an event's places

@dataclass
class _People:
    """The series' people, looked up by player ID and by name, while one event is recorded."""
    series: Series
    by_id: dict[str, SeriesPlayer]
    by_name: dict[str, list[SeriesPlayer]]
    used: set[int]

    @classmethod
    def of(cls, series: Series) -> "_People":
        people = list(db.session.execute(sa.select(SeriesPlayer).where(SeriesPlayer.series_id == series.id)
                                         .order_by(SeriesPlayer.id)).scalars())
        by_name: dict[str, list[SeriesPlayer]] = {}
        for p in people:
            by_name.setdefault(p.search_key, []).append(p)
        return cls(series, {p.player_id: p for p in people if p.player_id}, by_name, set())

    def new(self, name: str, player_id: str | None) -> SeriesPlayer:
        person = SeriesPlayer(series_id=self.series.id, name=name, search_key=name_key(name), player_id=player_id)
        db.session.add(person)
        db.session.flush()
        if player_id:
            self.by_id[player_id] = person
        self.by_name.setdefault(person.search_key, []).append(person)
        return person

    def place(self, name: str, player_id: str | None, decided: dict[str, int]) -> tuple[SeriesPlayer, int | None]:
        """(the person this entry is, an earlier person of the same name it may be: to confirm)."""
        key = name_key(name)
        person = self.by_id.get(player_id) if player_id else None
        if person is None and key in decided:
            person = db.session.get(SeriesPlayer, decided[key])
        if person is not None and person.id not in self.used:
            self.used.add(person.id)
            return person, None
        candidates = [p for p in self.by_name.get(key, ()) if p.id not in self.used
                      and not (player_id and p.player_id and p.player_id != player_id)]
        person = self.new(name, player_id)
        self.used.add(person.id)
        return person, candidates[0].id if candidates else None


def _commanders(event: Event, players: set[int]) -> dict[int, list[str]]:
    deck_of = {r.deck_id: r.id for r in event.registrations if r.deck_id is not None and r.id in players}
    if not deck_of:
        return {}
    rows = db.session.execute(sa.select(Decklist.id, Decklist.result).where(Decklist.id.in_(list(deck_of))))
    return {deck_of[i]: list((result or {}).get("commanders") or []) for i, result in rows}


def event_places(event: Event) -> list[tuple[Registration, int, float]]:
    """(registration, place, the event's points) for everyone who played, first place first."""
    regs = {r.id: r for r in event.registrations}
    return [(regs[r.player], r.rank, r.points) for r in rounds_ops.final_standings(event) if r.player in regs]


def record_event(series: Series, event: Event, actor: str) -> SeriesEvent:
    """Record a finished event's places in its series (again, if it was recorded before: people already
    decided stay decided)."""
    decided: dict[str, int] = {}
    if (before := _recorded(event)) is not None:
        decided = {name_key(r.name): r.series_player_id for r in before.results if r.candidate_id is None}
        db.session.delete(before)
        db.session.flush()
    places = event_places(event)
    recorded = SeriesEvent(series_id=series.id, event_id=event.id, name=event.name, date=event.date, mode=event.mode,
                           decklists_public=bool(event.publish_decklists), stats=rounds_ops.event_stats(event),
                           recorded_by=actor)
    db.session.add(recorded)
    db.session.flush()
    people = _People.of(series)
    commanders = _commanders(event, {reg.id for reg, _p, _pts in places})
    for reg, place, points in places:
        person, candidate = people.place(reg.name, reg.player_id, decided)
        db.session.add(SeriesResult(series_event_id=recorded.id, series_player_id=person.id, candidate_id=candidate,
                                    name=reg.name, player_id=reg.player_id, place=place, points=points,
                                    commanders=commanders.get(reg.id, [])))
    db.session.flush()
    _drop_unplaced(series)
    log(event, actor, "series.record", series=series.id, players=len(places))
    return recorded


# ----------------------------------------------------------------- who is who

def pending(series: Series) -> list[SeriesResult]:
    """Results whose player has the name of an earlier person: the same person, or not?"""
    return list(db.session.execute(
        sa.select(SeriesResult).join(SeriesEvent).where(SeriesEvent.series_id == series.id,
                                                        SeriesResult.candidate_id.is_not(None))
        .order_by(SeriesEvent.date, SeriesEvent.id, SeriesResult.place)).scalars())


def decide(series: Series, user: User, result_id: int, same: bool) -> SeriesResult:
    """The organizer says whether a result's player is the earlier person of that name. Decided once: a second
    click (or a colleague's at the same moment) is told it was decided already."""
    require_series_owner(user, series)
    result = db.session.get(SeriesResult, result_id) if valid_id(result_id) else None
    if result is None or result.series_event.series_id != series.id:
        raise NotFound(_("There is no such result in this series."))
    candidate_id = result.candidate_id
    if candidate_id is None:
        raise Refused(_("Whether %(name)s is the same person was decided already.", name=result.name), status=409)
    candidate = db.session.get(SeriesPlayer, candidate_id)
    if same and db.session.execute(sa.select(SeriesResult.id).where(
            SeriesResult.series_event_id == result.series_event_id,
            SeriesResult.series_player_id == candidate_id)).first():
        raise Refused(_("%(name)s already has a place in %(event)s: these are two people.", name=candidate.name,
                        event=result.series_event.name), status=409)
    values = {"candidate_id": None, **({"series_player_id": candidate_id} if same else {})}
    done = db.session.execute(sa.update(SeriesResult).where(SeriesResult.id == result.id,
                                                            SeriesResult.candidate_id == candidate_id)
                              .values(**values).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        raise Refused(_("Whether %(name)s is the same person was decided already.", name=result.name), status=409)
    former = result.series_player_id
    db.session.expire(result)
    if same:
        _merge_into(candidate, db.session.get(SeriesPlayer, former))
    log(None, actor_name(user), "series.same_person" if same else "series.different_person", series=series.id,
        result=result.id, name=result.name, event_name=result.series_event.name, person=candidate.name)
    return result


def _merge_into(person: SeriesPlayer, former: SeriesPlayer | None) -> None:
    """`former` was this entry's own person until confirmed: it goes, its player ID passes on."""
    if former is None or former.id == person.id:
        return
    left = db.session.execute(sa.select(SeriesResult.id).where(SeriesResult.series_player_id == former.id)).first()
    if left:
        return
    player_id = former.player_id
    db.session.delete(former)
    db.session.flush()
    if player_id and not person.player_id:
        person.player_id = player_id
        db.session.flush()


# ----------------------------------------------------------------- reading a series

def _placements(series: Series, events: list[SeriesEvent]) -> tuple[list[domain.Placement], dict[int, int]]:
    position = {e.id: i for i, e in enumerate(events)}
    sizes: dict[int, int] = {}
    rows = list(db.session.execute(sa.select(SeriesResult.series_event_id, SeriesResult.series_player_id,
                                             SeriesResult.place, SeriesResult.points)
                                   .join(SeriesEvent).where(SeriesEvent.series_id == series.id)))
    for e, _p, _pl, _pts in rows:
        sizes[e] = sizes.get(e, 0) + 1
    return [domain.Placement(person, position[e], place, points, sizes[e]) for e, person, place, points in rows], sizes


def series_standings(series: Series) -> dict:
    events = list(series.events)
    placements, sizes = _placements(series, events)
    names = {p.id: p.name for p in series.players}
    rows = domain.series_standings(placements, names, series.scoring, series.points_table or [],
                                   series.attendance_points)
    live = list(db.session.execute(sa.select(Event).where(Event.series_id == series.id, Event.status != "finished")
                                   .order_by(Event.date, Event.id)).scalars())
    return {"rows": rows, "events": events, "sizes": {i: sizes.get(e.id, 0) for i, e in enumerate(events)},
            "coming": live}


def person_of(series: Series, person_id) -> SeriesPlayer:
    person = db.session.get(SeriesPlayer, person_id) if valid_id(person_id) else None
    if person is None or person.series_id != series.id:
        raise NotFound(_("There is no such player in this series."))
    return person


def history(series: Series, person: SeriesPlayer, staff: bool) -> list[dict]:
    """A player's events in the series: place, of how many, the points it gave, and the commanders played (for
    staff, and for everyone where the event published its decklists)."""
    events = list(series.events)
    position = {e.id: i for i, e in enumerate(events)}
    sizes = dict(db.session.execute(sa.select(SeriesResult.series_event_id, sa.func.count())
                                    .join(SeriesEvent).where(SeriesEvent.series_id == series.id)
                                    .group_by(SeriesResult.series_event_id)).all())
    results = db.session.execute(sa.select(SeriesResult).where(SeriesResult.series_player_id == person.id)).scalars()
    out = []
    for r in sorted(results, key=lambda r: position[r.series_event_id]):
        e = r.series_event
        placement = domain.Placement(person.id, position[e.id], r.place, r.points, sizes[e.id])
        out.append({"event": e, "name": r.name, "place": r.place, "players": sizes[e.id],
                    "points": round(domain.result_points(placement, series.scoring, series.points_table or [],
                                                         series.attendance_points), 2),
                    "event_points": r.points, "pending": r.candidate_id is not None,
                    "commanders": domain.commander_text(r.commanders) if staff or e.decklists_public else None})
    return out


def series_stats(series: Series, staff: bool) -> tuple[dict, int, int]:
    """(the numbers summed over the events, events counted, events recorded): the public sees the events that
    published their decklists."""
    events = list(series.events)
    counted = [e for e in events if staff or e.decklists_public]
    return domain.merge_stats(e.stats or {} for e in counted), len(counted), len(events)


# ----------------------------------------------------------------- export and import

def series_document(series: Series, user: User) -> dict:
    require_series_owner(user, series)
    return {
        "format": FORMAT, "version": VERSION, "exported_at": iso(datetime.now(timezone.utc)),
        "exported_by": actor_name(user),
        "series": {"name": series.name, "scoring": series.scoring, "points_table": list(series.points_table or []),
                   "attendance_points": series.attendance_points},
        "players": [{"key": p.id, "name": p.name, "player_id": p.player_id} for p in series.players],
        "events": [{"name": e.name, "date": e.date.isoformat() if e.date else None, "mode": e.mode,
                    "decklists_public": e.decklists_public, "recorded_at": iso(e.recorded_at),
                    "recorded_by": e.recorded_by, "stats": e.stats or {},
                    "results": [{"player": r.series_player_id, "candidate": r.candidate_id, "name": r.name,
                                 "player_id": r.player_id, "place": r.place, "points": r.points,
                                 "commanders": list(r.commanders or [])} for r in e.results]}
                   for e in series.events],
        "standings": [{"rank": r.rank, "player": r.person, "name": r.name, "points": r.points, "events": r.events}
                      for r in series_standings(series)["rows"]],
    }


def export_series(series: Series, user: User) -> tuple[bytes, str]:
    data = dump_event_json(series_document(series, user))
    slug = "".join(ch if ch.isalnum() else "-" for ch in series.name.lower()).strip("-")[:60] or "series"
    return data, f"series-{slug}.json"


def _field(raw: dict, key: str, kind, where: str, required: bool = True):
    value = raw.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise Refused(_("%(where)s: “%(key)s” is missing or of the wrong kind. Export the series again.", where=where,
                        key=key))
    return value


def _read_people(document: dict) -> dict:
    raw_people = document.get("players")
    if not isinstance(raw_people, list):
        raise Refused(_("The series export has no list of players. Export the series again."))
    people = {}
    for i, raw in enumerate(raw_people, 1):
        where = _("Player %(number)s", number=i)
        if not isinstance(raw, dict):
            raise Refused(_("%(where)s is not a player. Export the series again.", where=where))
        key = _field(raw, "key", int, where)
        name = clean_text(_field(raw, "name", str, where), "file", _("%(where)s's name", where=where), 100,
                          required=True)
        player_id = raw.get("player_id")
        player_id = clean_text(player_id, "file", _("%(where)s's player ID", where=where), 40) or None \
            if player_id else None
        if key in people:
            raise Refused(_("%(where)s has the key %(key)s of an earlier player. Export the series again.",
                            where=where, key=key))
        if player_id and any(p["player_id"] == player_id for p in people.values()):
            raise Refused(_("%(where)s has the player ID %(player_id)s of an earlier player. Export the series "
                            "again.", where=where, player_id=player_id))
        people[key] = {"name": name, "player_id": player_id}
    return people


def _read_result(raw, where: str, people: dict) -> dict:
    if not isinstance(raw, dict):
        raise Refused(_("%(where)s is not a result. Export the series again.", where=where))
    person = _field(raw, "player", int, where)
    candidate = _field(raw, "candidate", int, where, required=False)
    if person not in people or (candidate is not None and candidate not in people):
        raise Refused(_("%(where)s names a player the file does not list. Export the series again.", where=where))
    place = _field(raw, "place", int, where)
    points = raw.get("points", 0)
    if place < 1 or isinstance(points, bool) or not isinstance(points, (int, float)) or abs(points) > 1e6:
        raise Refused(_("%(where)s has an impossible place or points. Export the series again.", where=where))
    commanders = raw.get("commanders") or []
    if not isinstance(commanders, list) or len(commanders) > 3 or not all(isinstance(c, str) for c in commanders):
        raise Refused(_("%(where)s has commanders that are not a short list of names. Export the series again.",
                        where=where))
    return {"person": person, "candidate": candidate, "place": place, "points": float(points),
            "name": clean_text(_field(raw, "name", str, where), "file", _("%(where)s's name", where=where), 100,
                               required=True),
            "player_id": clean_text(raw.get("player_id") or "", "file", _("%(where)s's player ID", where=where),
                                    40) or None,
            "commanders": [clean_text(c, "file", _("%(where)s's commander", where=where), 200) for c in commanders]}


def _read_event(raw, number: int, people: dict) -> dict:
    where = _("Event %(number)s", number=number)
    if not isinstance(raw, dict):
        raise Refused(_("%(where)s is not an event. Export the series again.", where=where))
    results = raw.get("results")
    if not isinstance(results, list) or len(results) > MAX_RESULTS_PER_EVENT:
        raise Refused(_("%(where)s has no list of results (or more than %(limit)s).", where=where,
                        limit=format(MAX_RESULTS_PER_EVENT, ",")))
    read = [_read_result(r, _("%(where)s, result %(number)s", where=where, number=i), people)
            for i, r in enumerate(results, 1)]
    if len({r["person"] for r in read}) != len(read):
        raise Refused(_("%(where)s places one player twice. Export the series again.", where=where))
    date = raw.get("date")
    try:
        date = datetime.strptime(date, "%Y-%m-%d").date() if date else None
    except (TypeError, ValueError):
        raise Refused(_("%(where)s's date is not a date (YYYY-MM-DD).", where=where)) from None
    try:
        stats = domain.clean_stats(raw.get("stats"))
    except ValueError as e:
        raise Refused(_("%(where)s's statistics cannot be read (%(reason)s). Export the series again.", where=where,
                        reason=str(e))) from None
    try:
        recorded_at = parse_timestamp(raw.get("recorded_at")) or utcnow()
    except ValueError:
        raise Refused(_("%(where)s's “recorded_at” is not a date and time like 2026-12-05T10:00:00+00:00.",
                        where=where)) from None
    return {"name": clean_text(_field(raw, "name", str, where), "file", _("%(where)s's name", where=where), 200,
                               required=True),
            "date": date, "mode": raw.get("mode") if raw.get("mode") in ("pods", "duel") else "pods",
            "decklists_public": raw.get("decklists_public") is True,
            "stats": stats, "results": read, "recorded_at": recorded_at,
            "recorded_by": clean_text(raw.get("recorded_by") or "import", "file",
                                      _("%(where)s's recorder", where=where), 120)}


def import_series(user: User, data: bytes) -> Series:
    """A series from its export: the same settings, people, places and stats (its events come as recorded
    results, not as live events)."""
    require_staff(user, None, organizer_only=True)
    try:
        document = load_export(data, FORMAT, VERSION, "series", MAX_SERIES_BYTES)
    except ExchangeInputError as e:
        raise Refused(str(e), status=413 if e.kind == "too_large" else 400) from None
    raw = document.get("series")
    if not isinstance(raw, dict):
        raise Refused(_("The series export has no settings. Export the series again."))
    people = _read_people(document)
    raw_events = document.get("events")
    if not isinstance(raw_events, list) or len(raw_events) > MAX_EVENTS:
        raise Refused(_("The series export has no list of events (or more than %(limit)s).", limit=MAX_EVENTS))
    events = [_read_event(e, i, people) for i, e in enumerate(raw_events, 1)]
    series = create_series(user, raw)
    new_id = {}
    for key, p in people.items():
        person = SeriesPlayer(series_id=series.id, name=p["name"], search_key=name_key(p["name"]),
                              player_id=p["player_id"])
        db.session.add(person)
        db.session.flush()
        new_id[key] = person.id
    for e in events:
        recorded = SeriesEvent(series_id=series.id, name=e["name"], date=e["date"], mode=e["mode"],
                               decklists_public=e["decklists_public"], stats=e["stats"],
                               recorded_at=e["recorded_at"], recorded_by=e["recorded_by"])
        db.session.add(recorded)
        db.session.flush()
        for r in e["results"]:
            db.session.add(SeriesResult(series_event_id=recorded.id, series_player_id=new_id[r["person"]],
                                        candidate_id=new_id.get(r["candidate"]), name=r["name"],
                                        player_id=r["player_id"], place=r["place"], points=r["points"],
                                        commanders=r["commanders"]))
    db.session.flush()
    _drop_unplaced(series)
    log(None, actor_name(user), "series.import", series=series.id, events=len(events), players=len(people))
    return series
