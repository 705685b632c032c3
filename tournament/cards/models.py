from __future__ import annotations

from datetime import datetime, timezone

import sqlalchemy as sa

from ..extensions import db
from .domain import Card as CardData
from .sqlpool import card_from_row


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Card(db.Model):
    """One card with its faces; the front face's facts are also columns for search."""
    __tablename__ = "card"

    id = sa.Column(sa.Integer, primary_key=True)
    name = sa.Column(sa.String(200), nullable=False, unique=True)
    layout = sa.Column(sa.String(32), nullable=False, default="normal")
    mana_cost = sa.Column(sa.String(100), nullable=False, default="")
    mana_value = sa.Column(sa.Float, nullable=False, default=0)
    type_line = sa.Column(sa.String(300), nullable=False, default="")
    supertypes = sa.Column(sa.JSON, nullable=False, default=list)
    types = sa.Column(sa.JSON, nullable=False, default=list)
    subtypes = sa.Column(sa.JSON, nullable=False, default=list)
    text = sa.Column(sa.Text, nullable=False, default="")
    color_identity = sa.Column(sa.String(5), nullable=False, default="")
    colors = sa.Column(sa.String(5), nullable=False, default="")
    keywords = sa.Column(sa.JSON, nullable=False, default=list)
    legalities = sa.Column(sa.JSON, nullable=False, default=dict)
    can_be_commander = sa.Column(sa.Boolean, nullable=False, default=False)
    is_funny = sa.Column(sa.Boolean, nullable=False, default=False)
    copy_limit = sa.Column(sa.Integer, nullable=True)   # NULL: any number
    faces = sa.Column(sa.JSON, nullable=False, default=list)
    oracle_id = sa.Column(sa.String(36), nullable=True)
    updated_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    def to_data(self) -> CardData:
        return row_to_card(self)


class CardName(db.Model):
    """Every normalised name a card answers to (full name, each face)."""
    __tablename__ = "card_name"

    key = sa.Column(sa.String(200), primary_key=True)
    card_id = sa.Column(sa.Integer, sa.ForeignKey("card.id", ondelete="CASCADE"), primary_key=True, index=True)
    priority = sa.Column(sa.SmallInteger, nullable=False)


class CardImport(db.Model):
    """Which file the card data came from and when: shown on the first page."""
    __tablename__ = "card_import"

    id = sa.Column(sa.Integer, primary_key=True)
    source = sa.Column(sa.String(20), nullable=False)
    filename = sa.Column(sa.String(500), nullable=False)
    card_count = sa.Column(sa.Integer, nullable=False)
    started_at = sa.Column(sa.DateTime(timezone=True), nullable=False)
    finished_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)


def card_to_row(card: CardData) -> dict:
    front = card.front
    return {
        "name": card.name, "layout": card.layout, "mana_cost": front.mana_cost,
        "mana_value": card.mana_value, "type_line": card.full_type_line,
        "supertypes": list(front.supertypes), "types": list(front.types), "subtypes": list(front.subtypes),
        "text": front.text, "color_identity": "".join(card.color_identity), "colors": "".join(card.colors),
        "keywords": list(card.keywords), "legalities": card.legalities,
        "can_be_commander": card.can_be_commander, "is_funny": card.is_funny,
        "copy_limit": card.copy_limit, "faces": [f.to_dict() for f in card.faces],
        "oracle_id": card.oracle_id,
    }


def row_to_card(row) -> CardData:
    return card_from_row(row)
