"""Card look-ups straight from the database, without the web app: what `python -m tournament.decks check`
uses to start in a fraction of a second. The same queries and name rules as DbCardPool (repository.py), on
SQLAlchemy Core tables that mirror the columns they read, so no Flask extension is imported.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

import sqlalchemy as sa

from .domain import Card, Face
from .names import PRINTED_NAME, UNSET_PENALTY, choose, lookup_keys
from .pool import SuggestionIndex

_meta = sa.MetaData()
CARD = sa.Table(
    "card", _meta,
    sa.Column("id", sa.Integer, primary_key=True), sa.Column("name", sa.String),
    sa.Column("layout", sa.String), sa.Column("mana_value", sa.Float), sa.Column("color_identity", sa.String),
    sa.Column("colors", sa.String), sa.Column("keywords", sa.JSON), sa.Column("legalities", sa.JSON),
    sa.Column("can_be_commander", sa.Boolean), sa.Column("is_funny", sa.Boolean),
    sa.Column("copy_limit", sa.Integer), sa.Column("faces", sa.JSON), sa.Column("oracle_id", sa.String),
)
CARD_NAME = sa.Table("card_name", _meta, sa.Column("key", sa.String), sa.Column("card_id", sa.Integer),
                     sa.Column("priority", sa.SmallInteger))
CARD_IMPORT = sa.Table("card_import", _meta, sa.Column("id", sa.Integer))


def card_from_row(row) -> Card:
    """A card from its database row (the `card` table's columns)."""
    return Card(
        name=row.name, layout=row.layout, faces=tuple(Face.from_dict(f) for f in row.faces),
        mana_value=row.mana_value, color_identity=tuple(row.color_identity), colors=tuple(row.colors),
        keywords=tuple(row.keywords), legalities=dict(row.legalities),
        can_be_commander=row.can_be_commander, is_funny=row.is_funny,
        copy_limit=row.copy_limit, oracle_id=row.oracle_id,
    )


def database_url(instance_path: str | None = None) -> str:
    """The app's database: DATABASE_URL, else the SQLite file in the instance folder (INSTANCE_PATH, else
    instance/ beside the package), as create_app chooses it."""
    from tournament.config import database_url_from_env
    if url := database_url_from_env(os.environ.get("DATABASE_URL")):
        return url
    return "sqlite:///" + str(Path(instance_folder(instance_path)) / "tournament.sqlite")


def instance_folder(instance_path: str | None = None) -> str:
    path = instance_path or os.environ.get("INSTANCE_PATH")
    return os.path.abspath(path) if path else str(Path(__file__).resolve().parents[2] / "instance")


class SqlCardPool:
    """CardPool over a SQLAlchemy connection: one query for a deck's names, one for the cards they name."""

    def __init__(self, connection):
        self.connection = connection
        self._cards: dict[int, Card] = {}
        self._index: SuggestionIndex | None = None

    def resolve(self, names: Iterable[str]) -> dict[str, Card | None]:
        names = list(dict.fromkeys(names))
        keyed = {n: lookup_keys(n) for n in names}
        found = self._fetch_keys({k for keys in keyed.values() for k in keys if k})
        out: dict[str, Card | None] = {}
        for n, keys in keyed.items():
            k = next((k for k in keys if k in found), None)
            out[n] = choose(n, found[k]) if k is not None else None
        return out

    def _fetch_keys(self, keys: set[str]) -> dict[str, list[tuple[int, Card]]]:
        if not keys:
            return {}
        found: dict[str, list[tuple[int, int]]] = {}
        for chunk in _chunks(sorted(keys), 900):          # SQLite's bound-parameter limit
            stmt = sa.select(CARD_NAME.c.key, CARD_NAME.c.priority, CARD_NAME.c.card_id) \
                .where(CARD_NAME.c.key.in_(chunk))
            for key, priority, card_id in self.connection.execute(stmt):
                found.setdefault(key, []).append((priority, card_id))
        missing = sorted({i for held in found.values() for _p, i in held} - self._cards.keys())
        for chunk in _chunks(missing, 900):
            for row in self.connection.execute(sa.select(CARD).where(CARD.c.id.in_(chunk))):
                self._cards[row.id] = card_from_row(row)
        return {k: sorted(((p, self._cards[i]) for p, i in held), key=lambda pc: pc[0]) for k, held in found.items()}

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        if self._index is None:
            rows = self.connection.execute(
                sa.select(CARD_NAME.c.key, CARD.c.name).join(CARD, CARD.c.id == CARD_NAME.c.card_id)
                .where(CARD_NAME.c.priority.not_in((PRINTED_NAME, PRINTED_NAME + UNSET_PENALTY)))
                .order_by(CARD_NAME.c.priority))
            self._index = SuggestionIndex(rows)
        return self._index.suggest(name, limit)

    def has_cards(self) -> bool:
        return self.connection.execute(sa.select(CARD.c.id).limit(1)).first() is not None


def _chunks(items: list, size: int):
    for i in range(0, len(items), size):
        yield items[i:i + size]
