"""The series API: a staff member's series, a series and its standings (public, as its page), and what its
organizer does on the series page (create it, change its settings, add and remove events); the same loaders,
policies and operations as the pages."""
from __future__ import annotations

from datetime import date as Date
from typing import Annotated, Literal, Optional

from pydantic import Field

from ..events.api_access import Page, UtcDateTime, page, shaped, token_user
from ..web.api import Input, Output, bp, by_token, operation, optional_staff_user
from . import loading, operations as ops

TAGS = ["series"]
SERIES_URL = "/series/<int:series_id>"


owner = by_token(loading.owner)


def public(rh) -> bool:
    optional_staff_user()
    return True


Points = Annotated[int, Field(ge=0, le=9999)]


Out = Output


class SeriesIn(Input):
    name: str = Field(min_length=1, max_length=200)
    scoring: Literal["placement", "event_points"] = Field("placement", description="Placement points by the "
                                                          "points table, or each event's own standings points.")
    points_table: list[Points] = Field(default_factory=lambda: list(ops.DEFAULT_TABLE), min_length=1, max_length=64,
                                       description="Placement points, 1st place first (a lower place never more).")
    attendance_points: int = Field(0, ge=0, le=1000, description="Points for each event played.")


class SeriesPatch(Input):
    name: Optional[str] = Field(None, min_length=1, max_length=200)
    scoring: Optional[Literal["placement", "event_points"]] = None
    points_table: Optional[list[Points]] = Field(None, min_length=1, max_length=64)
    attendance_points: Optional[int] = Field(None, ge=0, le=1000)


class AddEventIn(Input):
    event_id: int = Field(ge=1, le=2147483647, description="One of your events that is in no series yet.")


class SeriesEventOut(Out):
    id: int = Field(description="The recorded event's id in the series.")
    event_id: Optional[int] = Field(description="The event on this server (null: imported or deleted).")
    name: str
    date: Optional[Date]
    mode: str
    players: int
    recorded_at: UtcDateTime


class ComingEventOut(Out):
    event_id: int
    name: str
    date: Optional[Date]
    status: str


class SeriesSummary(Out):
    id: int
    name: str
    scoring: Literal["placement", "event_points"]
    points_table: list[int]
    attendance_points: int
    created_at: UtcDateTime


class SeriesOut(SeriesSummary):
    events: list[SeriesEventOut] = Field(description="The finished events that count, in order.")
    coming: list[ComingEventOut] = Field(description="Events of the series not finished yet.")


class SeriesList(Out):
    series: list[SeriesSummary]


class SeriesStandingOut(Out):
    rank: int
    person_id: int
    name: str
    points: float
    events: int = Field(description="Events played.")
    best: int = Field(description="The best place.")
    places: dict[str, int] = Field(description="Recorded event id -> place.")


class SeriesStandingsOut(Out):
    standings: list[SeriesStandingOut]
    next_offset: Optional[int]


def summary(series) -> dict:
    return {"id": series.id, "name": series.name, "scoring": series.scoring,
            "points_table": list(series.points_table or []), "attendance_points": series.attendance_points or 0,
            "created_at": series.created_at}


def series_json(series) -> dict:
    table = ops.series_standings(series)
    return shaped(SeriesOut, {**summary(series),
            "events": [{"id": e.id, "event_id": e.event_id, "name": e.name, "date": e.date, "mode": e.mode,
                        "players": table["sizes"].get(i, 0), "recorded_at": e.recorded_at}
                       for i, e in enumerate(table["events"])],
            "coming": [{"event_id": e.id, "name": e.name, "date": e.date, "status": e.status}
                       for e in table["coming"]]})


@bp.get("/series")
@operation("series_list", "Your series (the token's organizer's).", tags=TAGS, policy=token_user,
           response=SeriesList, errors="401")
def series_list(rh):
    return shaped(SeriesList, {"series": [summary(s) for s in ops.series_of(rh.user)]})


@bp.post("/series")
@operation("series_create", "Create a series.", tags=TAGS, policy=token_user, body=SeriesIn, response=SeriesOut,
           status=201, errors="400 401 403 415", example={"name": "Spring league", "points_table": [5, 3, 2, 1]})
def series_create(rh):
    return series_json(ops.create_series(rh.user, rh.body.model_dump()))


@bp.get(SERIES_URL)
@operation("series_get", "A series: its settings, the events that count and those coming.", tags=TAGS,
           load=loading.series, policy=public, public=True, response=SeriesOut, errors="401 404")
def series_get(rh):
    return series_json(rh.series)


@bp.patch(SERIES_URL)
@operation("series_update", "Change a series' settings.", tags=TAGS, load=loading.series, policy=owner,
           body=SeriesPatch, response=SeriesOut, errors="400 401 403 404 415", example={"attendance_points": 1})
def series_update(rh):
    ops.update_series(rh.series, rh.user, rh.body.model_dump(exclude_unset=True, exclude_none=True))
    return series_json(rh.series)


@bp.get(f"{SERIES_URL}/standings")
@operation("series_standings", "The series standings.", tags=TAGS, load=loading.series, policy=public,
           public=True, query=Page, response=SeriesStandingsOut, errors="400 401 404")
def series_standings(rh):
    table = ops.series_standings(rh.series)
    ids = [e.id for e in table["events"]]
    rows, next_offset = page(table["rows"], rh.query)
    return {"next_offset": next_offset, "standings": [
        {"rank": r.rank, "person_id": r.person, "name": r.name, "points": float(r.points), "events": r.events,
         "best": r.best, "places": {str(ids[i]): place for i, place in r.places.items() if i < len(ids)}}
        for r in rows]}


@bp.post(f"{SERIES_URL}/events")
@operation("series_add_event", "Add one of your events to the series (a finished one is recorded at once).",
           tags=TAGS, load=loading.series, policy=owner, body=AddEventIn, response=SeriesOut, status=201,
           errors="400 401 403 404 409 415", example={"event_id": 1})
def series_add_event(rh):
    ops.add_event(rh.series, rh.user, rh.body.event_id)
    return series_json(rh.series)


@bp.delete(f"{SERIES_URL}/events/<int:series_event_id>")
@operation("series_remove_event", "Take a recorded event out of the series: its places stop counting.",
           tags=TAGS, load=loading.series, policy=owner, response=SeriesOut, errors="401 403 404")
def series_remove_event(rh):
    ops.remove_event(rh.series, rh.user, series_event_id=rh.url["series_event_id"])
    return series_json(rh.series)
