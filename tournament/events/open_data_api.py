"""Open data through the API: an event's and a series' pods and matches with seat order, generals, results, votes,
drops and standings, as JSON (format "edh-open-data", version 1; its JSON Schema is
tournament/data/schemas/open-data-v1.schema.json) or as CSV, one row per seat. Public where the standings are."""
from __future__ import annotations

from flask import Response

from ..series import loading as series_loading
from ..web.api import bp, operation, optional_staff_user
from . import loading, open_data, open_data_ops as ops
from .api_access import public, shaped
from .open_data_models import OpenData, OpenSeriesData

TAGS = ["export"]
CSV_SCHEMA = {"type": "string", "description": "CSV with a header row, one row per seat: "
                                               + ", ".join(open_data.CSV_COLUMNS) + "."}
RULE = ("Public once the event's first round is published (as its standings); the event's staff at any time. The "
        "same for everyone: votes as the public sees them, generals only where the event shows its decklists. "
        "Never an access code, a contact or a player ID.")


def _csv(text: str, name: str) -> Response:
    return Response(text.encode("utf-8"), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"',
                             "Content-Type": "text/csv; charset=utf-8"})


def series_public(rh) -> bool:
    """Everyone (a series page is public); a token, when sent, must be valid."""
    rh.api_user = optional_staff_user()
    return True


@bp.get("/events/<int:event_id>/open-data")
@operation("events_open_data", "The event's open data (format edh-open-data, version 1).", tags=TAGS,
           load=(loading.event,), policy=public, public=True, response=OpenData, errors="401 404",
           description="Every published round's pods and matches with seat order (seat 1 starts), generals, "
                       "results, votes, drops and the standings. " + RULE)
def events_open_data(rh):
    return shaped(OpenData, ops.event_document(rh.event, rh.api_user))


@bp.get("/events/<int:event_id>/open-data.csv")
@operation("events_open_data_csv", "The event's open data as CSV, one row per seat.", tags=TAGS,
           load=(loading.event,), policy=public, public=True, response=CSV_SCHEMA, response_media="text/csv",
           errors="401 404", description=RULE)
def events_open_data_csv(rh):
    return _csv(open_data.to_csv(ops.event_document(rh.event, rh.api_user)), f"event-{rh.event.id}-open-data.csv")


@bp.get("/series/<int:series_id>/open-data")
@operation("series_open_data", "The series' open data: its events' open data and who is who across them.",
           tags=TAGS, load=series_loading.series, policy=series_public, public=True, response=OpenSeriesData,
           errors="401 404", description="Each recorded event whose standings are public (for its staff: all). "
                                         + RULE)
def series_open_data(rh):
    return shaped(OpenSeriesData, ops.series_document(rh.series, rh.api_user))


@bp.get("/series/<int:series_id>/open-data.csv")
@operation("series_open_data_csv", "The series' open data as CSV, one row per seat of each event.", tags=TAGS,
           load=series_loading.series, policy=series_public, public=True, response=CSV_SCHEMA,
           response_media="text/csv", errors="401 404", description=RULE)
def series_open_data_csv(rh):
    return _csv(open_data.to_csv(ops.series_document(rh.series, rh.api_user)),
                f"series-{rh.series.id}-open-data.csv")
