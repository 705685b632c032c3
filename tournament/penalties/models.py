"""A penalty given to a player: the infraction, the penalty, the round (and duel game) it applies to, who gave it
and when; a withdrawn penalty is kept with who withdrew it and why."""
from __future__ import annotations

import sqlalchemy as sa

from ..cards.models import utcnow
from ..extensions import db

PENALTIES = ("warning", "game_loss", "match_loss", "disqualification")
LOSSES = ("game", "match")          # what a penalty does to the results of its round (NULL: nothing)
NOTE_LENGTH = 1000
KEY_LENGTH = 64
INFRACTION_LENGTH = 60


class Penalty(db.Model):
    __tablename__ = "penalty"

    id = sa.Column(sa.Integer, primary_key=True)
    event_id = sa.Column(sa.Integer, sa.ForeignKey("event.id", ondelete="CASCADE"), nullable=False, index=True)
    registration_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=False,
                                index=True)
    kind = sa.Column(sa.String(20), nullable=False)                 # PENALTIES
    infraction = sa.Column(sa.String(INFRACTION_LENGTH), nullable=False)   # an id of data/infractions.json
    round_number = sa.Column(sa.Integer, nullable=True)             # the round it was given in (NULL: none)
    table_number = sa.Column(sa.Integer, nullable=True)             # the player's table then, as it was
    game = sa.Column(sa.Integer, nullable=True)                     # a duel game loss: the game lost (1-3)
    loss = sa.Column(sa.String(10), nullable=True)                  # LOSSES: what it does to that round's result
    note = sa.Column(sa.Text, nullable=False, default="")
    key = sa.Column(sa.String(KEY_LENGTH), nullable=True)           # the form's (or client's) one-time key
    given_by = sa.Column(sa.String(120), nullable=False)            # "judge:NAME" / "organizer:NAME"
    at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    withdrawn_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    withdrawn_by = sa.Column(sa.String(120), nullable=True)
    withdraw_reason = sa.Column(sa.String(NOTE_LENGTH), nullable=True)

    registration = db.relationship("Registration")

    __table_args__ = (
        sa.UniqueConstraint("event_id", "key", name="uq_penalty_event_key"),
        sa.CheckConstraint(f"kind in ({', '.join(map(repr, PENALTIES))})", name="kind"),
        sa.CheckConstraint(f"loss is null or loss in ({', '.join(map(repr, LOSSES))})", name="loss"),
        sa.CheckConstraint("game is null or game between 1 and 3", name="game"),
    )
