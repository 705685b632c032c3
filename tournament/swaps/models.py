"""Swap windows, the deck each player plays in each game, and every swap made (undone ones kept)."""
from __future__ import annotations

import sqlalchemy as sa

from ..cards.models import utcnow
from ..extensions import db


class SwapWindow(db.Model):
    """When a table's game lets players swap: the stored deadline (NULL: until the game starts)."""
    __tablename__ = "swap_window"

    id = sa.Column(sa.Integer, primary_key=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False)
    game = sa.Column(sa.Integer, nullable=False, default=1)
    opens_at = sa.Column(sa.DateTime(timezone=True), nullable=False)
    deadline = sa.Column(sa.DateTime(timezone=True), nullable=True)
    closed_at = sa.Column(sa.DateTime(timezone=True), nullable=True)     # the game started (duel games 2, 3)

    __table_args__ = (
        sa.UniqueConstraint("table_id", "game", name="uq_swap_window_table_game"),
        sa.CheckConstraint("game between 1 and 3", name="game"),
    )


class DeckVersion(db.Model):
    """The deck a player plays in one game at one table: registered list plus that game's swaps."""
    __tablename__ = "deck_version"

    id = sa.Column(sa.Integer, primary_key=True)
    registration_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=False,
                                index=True)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False,
                         index=True)
    game = sa.Column(sa.Integer, nullable=False, default=1)
    decklist_id = sa.Column(sa.Integer, sa.ForeignKey("decklist.id", ondelete="SET NULL"), nullable=True)
    generals = sa.Column(sa.JSON, nullable=False, default=list)
    main = sa.Column(sa.JSON, nullable=False, default=dict)          # card name -> count
    sideboard = sa.Column(sa.JSON, nullable=False, default=dict)
    general_count = sa.Column(sa.Integer, nullable=False)
    main_count = sa.Column(sa.Integer, nullable=False)
    deck_size = sa.Column(sa.Integer, nullable=False)                # general(s) + main, fixed for the version
    revision = sa.Column(sa.Integer, nullable=False, default=1)      # optimistic lock: bumped by every change
    created_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    updated_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    __mapper_args__ = {"version_id_col": revision}
    __table_args__ = (
        sa.UniqueConstraint("registration_id", "table_id", "game", name="uq_deck_version_registration_table_game"),
        sa.CheckConstraint("main_count + general_count = deck_size", name="deck_size"),
        sa.CheckConstraint("game between 1 and 3", name="game"),
    )


class Swap(db.Model):
    """One card out of the main deck for one card in from the sideboard, with who entered it."""
    __tablename__ = "swap"

    id = sa.Column(sa.Integer, primary_key=True)
    registration_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"), nullable=False)
    table_id = sa.Column(sa.Integer, sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False,
                         index=True)
    game = sa.Column(sa.Integer, nullable=False, default=1)
    card_out = sa.Column(sa.String(200), nullable=False)
    card_in = sa.Column(sa.String(200), nullable=False)
    entered_by = sa.Column(sa.String(120), nullable=False)          # "player" or "judge:NAME" / "organizer:NAME"
    at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    override_reason = sa.Column(sa.String(500), nullable=True)      # a judge's swap after the deadline
    undone_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    undone_by = sa.Column(sa.String(120), nullable=True)
    undo_reason = sa.Column(sa.String(500), nullable=True)

    registration = db.relationship("Registration")
    table = db.relationship("GameTable")

    __table_args__ = (
        sa.CheckConstraint("card_out <> card_in", name="different_cards"),
        sa.CheckConstraint("game between 1 and 3", name="game"),
        sa.Index("ix_swap_registration_table_game", "registration_id", "table_id", "game"),
    )
