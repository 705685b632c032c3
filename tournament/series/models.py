"""A series: a store's league of events. Each finished event's placements are recorded in it (they stay as they
were when it finished); players are the same person across events by player ID, else by name once confirmed."""
from __future__ import annotations

import sqlalchemy as sa

from ..cards.models import utcnow
from ..extensions import db

SERIES_SCORING = ("placement", "event_points")


class Series(db.Model):
    __tablename__ = "series"

    id = sa.Column(sa.Integer, primary_key=True)
    organizer_id = sa.Column(sa.Integer, sa.ForeignKey("user.id"), nullable=False, index=True)
    name = sa.Column(sa.String(200), nullable=False)
    scoring = sa.Column(sa.String(20), nullable=False, default="placement")      # SERIES_SCORING
    points_table = sa.Column(sa.JSON, nullable=False, default=list)              # placement points, 1st first
    attendance_points = sa.Column(sa.Integer, nullable=False, default=0)         # per event played
    created_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    organizer = db.relationship("User")
    events = db.relationship("SeriesEvent", back_populates="series", cascade="all, delete-orphan",
                             order_by="(SeriesEvent.date, SeriesEvent.id)")
    players = db.relationship("SeriesPlayer", back_populates="series", cascade="all, delete-orphan",
                              order_by="SeriesPlayer.id")

    __table_args__ = (
        sa.CheckConstraint("scoring in ('placement', 'event_points')", name="scoring"),
        sa.CheckConstraint("attendance_points >= 0", name="attendance_points"),
    )


class SeriesPlayer(db.Model):
    """One person across the series' events."""
    __tablename__ = "series_player"

    id = sa.Column(sa.Integer, primary_key=True)
    series_id = sa.Column(sa.Integer, sa.ForeignKey("series.id", ondelete="CASCADE"), nullable=False, index=True)
    name = sa.Column(sa.String(100), nullable=False)
    search_key = sa.Column(sa.String(200), nullable=False, default="")
    player_id = sa.Column(sa.String(40), nullable=True)

    series = db.relationship(Series, back_populates="players")

    __table_args__ = (sa.UniqueConstraint("series_id", "player_id", name="uq_series_player_id"),)


class SeriesEvent(db.Model):
    """An event as the series counts it: recorded when it finished (or came in an imported series)."""
    __tablename__ = "series_event"

    id = sa.Column(sa.Integer, primary_key=True)
    series_id = sa.Column(sa.Integer, sa.ForeignKey("series.id", ondelete="CASCADE"), nullable=False, index=True)
    event_id = sa.Column(sa.Integer, sa.ForeignKey("event.id", ondelete="SET NULL"), nullable=True, unique=True)
    name = sa.Column(sa.String(200), nullable=False)
    date = sa.Column(sa.Date, nullable=True)
    mode = sa.Column(sa.String(10), nullable=False, default="pods")
    decklists_public = sa.Column(sa.Boolean, nullable=False, default=False)
    stats = sa.Column(sa.JSON, nullable=False, default=dict)                     # scoring.stats.event_stats
    recorded_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    recorded_by = sa.Column(sa.String(120), nullable=False)

    series = db.relationship(Series, back_populates="events")
    results = db.relationship("SeriesResult", back_populates="series_event", cascade="all, delete-orphan",
                              order_by="SeriesResult.place")


class SeriesResult(db.Model):
    """A player's place in one recorded event. `candidate_id`: an earlier person of the same name this may be,
    waiting for the organizer to confirm (until then the two count apart)."""
    __tablename__ = "series_result"

    id = sa.Column(sa.Integer, primary_key=True)
    series_event_id = sa.Column(sa.Integer, sa.ForeignKey("series_event.id", ondelete="CASCADE"), nullable=False,
                                index=True)
    series_player_id = sa.Column(sa.Integer, sa.ForeignKey("series_player.id", ondelete="CASCADE"), nullable=False,
                                 index=True)
    candidate_id = sa.Column(sa.Integer, sa.ForeignKey("series_player.id", ondelete="SET NULL"), nullable=True)
    name = sa.Column(sa.String(100), nullable=False)           # as registered at that event
    player_id = sa.Column(sa.String(40), nullable=True)
    place = sa.Column(sa.Integer, nullable=False)
    points = sa.Column(sa.Float, nullable=False, default=0)     # the event's own standings points
    commanders = sa.Column(sa.JSON, nullable=False, default=list)

    series_event = db.relationship(SeriesEvent, back_populates="results")
    player = db.relationship(SeriesPlayer, foreign_keys=[series_player_id])
    candidate = db.relationship(SeriesPlayer, foreign_keys=[candidate_id])

    __table_args__ = (sa.UniqueConstraint("series_event_id", "series_player_id", name="uq_series_result_player"),)
