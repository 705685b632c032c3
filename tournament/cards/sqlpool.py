"""Card look-ups straight from the database, without the web app: what `python -m tournament.decks check`
uses to start in a fraction of a second. The same queries and name rules as DbCardPool (repository.py), in
plain SQL on the columns they read: SQLite through the standard library, other databases through SQLAlchemy
(no Flask extension, no ORM models imported).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from .domain import Card, Face
from .names import PRINTED_NAME, UNSET_PENALTY, choose, lookup_keys
from .pool import SuggestionIndex


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


_CARD_FIELDS = ("id", "name", "layout", "mana_value", "color_identity", "colors", "keywords", "legalities",
                "can_be_commander", "is_funny", "copy_limit", "faces", "oracle_id")
_JSON_FIELDS = ("keywords", "legalities", "faces")


class _Row:
    """A `card` row from plain SQL: JSON columns decoded (SQLite hands them over as text), booleans as bools."""

    def __init__(self, values):
        for field, value in zip(_CARD_FIELDS, values):
            if field in _JSON_FIELDS and isinstance(value, str):
                value = json.loads(value)
            elif field in ("can_be_commander", "is_funny"):
                value = bool(value)
            setattr(self, field, value)


def sqlite_query(path: str):
    """A query function on the SQLite file read-only with the standard library (no SQLAlchemy to import:
    the command starts in half the time); None when the file is missing."""
    import sqlite3
    if not Path(path).is_file():
        return None
    connection = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
    return lambda sql, params: connection.execute(sql, params).fetchall()


def sqlalchemy_query(connection):
    """A query function on a SQLAlchemy connection (PostgreSQL, or any URL SQLAlchemy reads)."""
    import sqlalchemy as sa
    return lambda sql, params: connection.execute(sa.text(sql), params).fetchall()


class SqlCardPool:
    """CardPool over plain SQL (`query(sql, params)` -> rows): one query for a deck's names, one for the
    cards they name, with the same name rules as DbCardPool."""

    def __init__(self, query):
        self.query = query
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
        found: dict[str, list[tuple[int, int]]] = {}
        for chunk in _chunks(sorted(keys), 900):          # SQLite's bound-parameter limit
            marks, params = _in(chunk)
            for key, priority, card_id in self.query(
                    f"SELECT key, priority, card_id FROM card_name WHERE key IN ({marks})", params):
                found.setdefault(key, []).append((priority, card_id))
        missing = sorted({i for held in found.values() for _p, i in held} - self._cards.keys())
        for chunk in _chunks(missing, 900):
            marks, params = _in(chunk)
            for values in self.query(f"SELECT {', '.join(_CARD_FIELDS)} FROM card WHERE id IN ({marks})", params):
                row = _Row(values)
                self._cards[row.id] = card_from_row(row)
        return {k: sorted(((p, self._cards[i]) for p, i in held), key=lambda pc: pc[0]) for k, held in found.items()}

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        if self._index is None:
            rows = self.query("SELECT card_name.key, card.name FROM card_name JOIN card ON card.id = card_name.card_id "
                              "WHERE card_name.priority NOT IN (:p0, :p1) ORDER BY card_name.priority",
                              {"p0": PRINTED_NAME, "p1": PRINTED_NAME + UNSET_PENALTY})
            self._index = SuggestionIndex(rows)
        return self._index.suggest(name, limit)

    def has_cards(self) -> bool:
        return bool(self.query("SELECT id FROM card LIMIT 1", {}))


def _in(values: list) -> tuple[str, dict]:
    params = {f"p{i}": v for i, v in enumerate(values)}
    return ", ".join(f":{k}" for k in params), params


def _chunks(items: list, size: int):
    for i in range(0, len(items), size):
        yield items[i:i + size]
