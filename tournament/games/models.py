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


class TrackerGame(db.Model):
    """A table's game now: the fold of its live events up to `seq`, so a tap reads and writes one row.

    The events stay the record (undo refolds them); this row is rebuilt from them whenever it is
    missing or does not match them (seq is not the last live event's, last_seq not the last event's).
    """
    __tablename__ = "tracker_game"

    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True)
    state = sa.Column(sa.JSON, nullable=False)                 # tracker.State.to_snapshot()
    seq = sa.Column(sa.Integer, nullable=False)                # the last live (not undone) event folded in
    last_seq = sa.Column(sa.Integer, nullable=False)           # the last event stored, undone or not: next is +1
    revision = sa.Column(sa.Integer, nullable=False)           # counts the writes (compare-and-set, see below)
    updated_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    # Writers take the table's lock first; should one not, its UPDATE ... WHERE revision = <read> matches
    # nothing, SQLAlchemy raises StaleDataError and the request lifecycle retries it: no tap is lost.
    __mapper_args__ = {"version_id_col": revision}
