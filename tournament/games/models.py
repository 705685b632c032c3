from __future__ import annotations

import sqlalchemy as sa

from ..cards.models import utcnow
from ..extensions import db


class TrackerEvent(db.Model):
    """One change in a table's game log; the game's state is the fold of its live (not undone) events."""
    __tablename__ = "tracker_event"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False, index=True)
    seq = sa.Column(sa.Integer, nullable=False)
    kind = sa.Column(sa.String(30), nullable=False)
    payload = sa.Column(sa.JSON, nullable=False, default=dict)
    actor = sa.Column(sa.String(120), nullable=False)
    at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    undone = sa.Column(sa.Boolean, nullable=False, default=False)
    undone_by = sa.Column(sa.String(120), nullable=True)

    __table_args__ = (sa.UniqueConstraint("table_id", "seq", name="uq_tracker_event_table_seq"),)
