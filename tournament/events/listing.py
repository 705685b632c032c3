"""The events anyone may find on the home page: those open for registration or under way (their registration
page and, once a round is published, their standings are public), soonest first."""
from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ..extensions import db
from ..rounds.models import Round
from .models import Event

CURRENT = ("registration", "running")
LIMIT = 50


@dataclass(frozen=True)
class ListedEvent:
    event: Event
    registration_open: bool        # the registration page takes players
    standings: bool                # a round is published: the standings are public


def current_events(limit: int = LIMIT) -> list[ListedEvent]:
    """Events open for registration or running, by date (undated last), at most `limit`."""
    stmt = (sa.select(Event).where(Event.status.in_(CURRENT))
            .order_by(Event.date.asc().nulls_last(), Event.id.desc()).limit(limit))
    events = list(db.session.execute(stmt).scalars())
    if not events:
        return []
    published = set(db.session.execute(sa.select(Round.event_id).where(
        Round.event_id.in_([e.id for e in events]), Round.status != "draft").distinct()).scalars())
    return [ListedEvent(e, e.status == "registration", e.id in published) for e in events]
