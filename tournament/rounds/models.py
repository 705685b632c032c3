from __future__ import annotations

import sqlalchemy as sa

from ..cards.models import utcnow
from ..extensions import db

ROUND_STATUSES = ("draft", "published", "finished")
TABLE_KINDS = ("pod", "match", "bye")
RESULT_STATES = ("reported", "disputed", "confirmed")


class Round(db.Model):
    """A round's pairing, replayable from its seed; a draft is visible to staff only."""
    __tablename__ = "round"

    id = sa.Column(sa.Integer, primary_key=True)
    event_id = sa.Column(sa.Integer, sa.ForeignKey("event.id", ondelete="CASCADE"), nullable=False, index=True)
    number = sa.Column(sa.Integer, nullable=False)
    stage = sa.Column(sa.String(20), nullable=False, default="swiss")   # swiss | pods | top8 | top4 ...
    seed = sa.Column(sa.BigInteger, nullable=False)
    status = sa.Column(sa.String(20), nullable=False, default="draft")
    why = sa.Column(sa.JSON, nullable=False, default=list)
    created_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    published_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    started_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    ends_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    finished_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    paused_at = sa.Column(sa.DateTime(timezone=True), nullable=True)    # the clock stopped here; ends_at moves on resume
    # bumps with every seating correction (swap, move, late arrival, removal): two judges correcting at once
    # compare and set it, so one correction is stored and the other is refused with a 409 (operations.seating)
    seating_revision = sa.Column(sa.Integer, nullable=False, default=0, server_default="0")

    event = db.relationship("Event")
    tables = db.relationship("GameTable", back_populates="round", cascade="all, delete-orphan",
                             order_by="GameTable.number")

    __table_args__ = (
        sa.UniqueConstraint("event_id", "number", name="uq_round_event_number"),
        sa.CheckConstraint("status in ('draft', 'published', 'finished')", name="status"),
    )


class GameTable(db.Model):
    """A pod, a 1v1 match, or a bye (a table of one)."""
    __tablename__ = "game_table"

    id = sa.Column(sa.Integer, primary_key=True)
    round_id = sa.Column(sa.Integer, sa.ForeignKey("round.id", ondelete="CASCADE"), nullable=False, index=True)
    number = sa.Column(sa.Integer, nullable=False)
    kind = sa.Column(sa.String(10), nullable=False)
    result_state = sa.Column(sa.String(20), nullable=True)      # NULL: no result yet
    result_by = sa.Column(sa.String(120), nullable=True)
    result_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    result_revision = sa.Column(sa.Integer, nullable=False, default=0, server_default="0")  # bumps per version
    started_at = sa.Column(sa.DateTime(timezone=True), nullable=True)  # the game (and its swap window) began
    extra_minutes = sa.Column(sa.Integer, nullable=False, default=0, server_default="0")  # a judge's time extension
    draw_kind = sa.Column(sa.String(20), nullable=True)     # a drawn pod: time | intentional | board (data/draws.json)
    archenemy_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="SET NULL"),
                             nullable=True)    # an Archenemy pod's archenemy (scored as archenemy vs team)
    time_called_at = sa.Column(sa.DateTime(timezone=True), nullable=True)   # a match ended at time (the MTR)

    round = db.relationship(Round, back_populates="tables")
    seats = db.relationship("Seat", back_populates="table", cascade="all, delete-orphan", order_by="Seat.seat")
    games = db.relationship("DuelGame", cascade="all, delete-orphan", order_by="DuelGame.number")
    votes = db.relationship("Vote", cascade="all, delete-orphan")
    prize_claims = db.relationship("PrizeClaim", cascade="all, delete-orphan")
    confirmations = db.relationship("ResultConfirmation", cascade="all, delete-orphan",
                                    order_by="ResultConfirmation.id")
    reports = db.relationship("ResultReport", cascade="all, delete-orphan", order_by="ResultReport.revision")

    __table_args__ = (
        sa.UniqueConstraint("round_id", "number", name="uq_game_table_round_number"),
        sa.CheckConstraint("kind in ('pod', 'match', 'bye')", name="kind"),
    )


class Seat(db.Model):
    """A player at a table; `seat` 1 takes the first turn."""
    __tablename__ = "seat"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False, index=True)
    round_id = sa.Column(sa.Integer, sa.ForeignKey("round.id", ondelete="CASCADE"), nullable=False)
    registration_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=False,
                                index=True)
    seat = sa.Column(sa.Integer, nullable=False)
    survived = sa.Column(sa.Boolean, nullable=True)              # pods: NULL until a result
    eliminated_order = sa.Column(sa.Integer, nullable=True)      # 1 = first out

    table = db.relationship(GameTable, back_populates="seats")
    registration = db.relationship("Registration")

    __table_args__ = (
        sa.UniqueConstraint("round_id", "registration_id", name="uq_seat_round_registration"),
        sa.UniqueConstraint("table_id", "seat", name="uq_seat_table_seat"),
    )


class DuelGame(db.Model):
    """One reported game of a best-of-three match; winner NULL is a draw (an unfinished game at time is one)."""
    __tablename__ = "duel_game"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    number = sa.Column(sa.Integer, nullable=False)
    winner_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=True)
    started_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    reported_at = sa.Column(sa.DateTime(timezone=True), nullable=True)     # sideboarding for the next game opens
    reported_by = sa.Column(sa.String(120), nullable=True)                 # "player:ID" or staff, as the log names

    __table_args__ = (
        sa.UniqueConstraint("table_id", "number", name="uq_duel_game_table_number"),
        sa.CheckConstraint("number between 1 and 3", name="number"),
    )


class Vote(db.Model):
    """Democratic vote: one per voter per game, for another player at the table."""
    __tablename__ = "vote"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    voter_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=False)
    votee_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=False)
    cast_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (
        sa.UniqueConstraint("table_id", "voter_id", name="uq_vote_table_voter"),
        sa.CheckConstraint("voter_id <> votee_id", name="not_self"),
    )


class PrizeClaim(db.Model):
    """An alternate prize condition's holder (and value) at a table."""
    __tablename__ = "prize_claim"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    condition = sa.Column(sa.String(60), nullable=False)
    holder_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=False)
    value = sa.Column(sa.Float, nullable=True)

    __table_args__ = (sa.UniqueConstraint("table_id", "condition", name="uq_prize_claim_table_condition"),)


class ResultReport(db.Model):
    """Every version of a table's result, with who and when: a dispute shows them side by side."""
    __tablename__ = "result_report"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    revision = sa.Column(sa.Integer, nullable=False)
    actor = sa.Column(sa.String(120), nullable=False)
    registration_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="SET NULL"), nullable=True)
    staff = sa.Column(sa.Boolean, nullable=False, default=False)
    result = sa.Column(sa.JSON, nullable=False, default=dict)
    at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (sa.UniqueConstraint("table_id", "revision", name="uq_result_report_table_revision"),)


class ResultConfirmation(db.Model):
    """A player agreeing with one revision of the table's result: a row each, so none is lost."""
    __tablename__ = "result_confirmation"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False,
                         index=True)
    registration_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=False)
    revision = sa.Column(sa.Integer, nullable=False)
    at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (sa.UniqueConstraint("table_id", "registration_id", "revision",
                                          name="uq_result_confirmation_table_player"),)


class SentForm(db.Model):
    """A player's result report or vote sent with a send key (a phone's queued form, sent again when the
    connection came back): the key is kept so the same form sent again is the same write, stored once."""
    __tablename__ = "sent_form"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    key = sa.Column(sa.String(64), nullable=False)
    kind = sa.Column(sa.String(20), nullable=False)          # result | vote
    actor = sa.Column(sa.String(120), nullable=False)
    at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    __table_args__ = (sa.UniqueConstraint("table_id", "kind", "key", name="uq_sent_form_table_kind_key"),)
