"""Card look-ups against the database: one query per batch of names."""
from __future__ import annotations

import threading
from typing import Iterable

import sqlalchemy as sa

from ..extensions import db
from .domain import Card
from .models import Card as CardRow, CardImport, CardName, row_to_card
from .names import name_key
from .pool import SuggestionIndex

_CARD_COLUMNS = [c for c in CardRow.__table__.columns]


class DbCardPool:
    """Resolves a deck's names in one query; did-you-mean from a per-process index.

    The suggestion index is rebuilt when the latest card import changes, so a
    running server picks up a `cards import` done from the command line.
    """

    _lock = threading.Lock()
    _index: tuple[object, SuggestionIndex] | None = None

    def __init__(self, session=None):
        self.session = session or db.session

    def fetch_keys(self, keys: Iterable[str]) -> dict[str, Card]:
        keys = list({k for k in keys if k})
        if not keys:
            return {}
        stmt = (sa.select(CardName.key, CardName.priority, *_CARD_COLUMNS)
                .join(CardRow, CardRow.id == CardName.card_id)
                .where(CardName.key.in_(keys)))
        best: dict[str, tuple[int, object]] = {}
        for row in self.session.execute(stmt):
            held = best.get(row.key)
            if held is None or row.priority < held[0]:
                best[row.key] = (row.priority, row)
        return {k: row_to_card(r) for k, (_p, r) in best.items()}

    def resolve(self, names: Iterable[str]) -> dict[str, Card | None]:
        names = list(dict.fromkeys(names))
        keyed = {n: name_key(n) for n in names}
        found = self.fetch_keys(keyed.values())
        return {n: found.get(k) for n, k in keyed.items()}

    def get(self, name: str) -> Card | None:
        return self.resolve([name])[name]

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        return self._suggestions().suggest(name, limit)

    def _suggestions(self) -> SuggestionIndex:
        version = (self.session.execute(sa.select(sa.func.max(CardImport.id))).scalar(),
                   self.session.execute(sa.select(sa.func.count()).select_from(CardRow)).scalar())
        with self._lock:
            cached = DbCardPool._index
            if cached is None or cached[0] != version:
                rows = self.session.execute(
                    sa.select(CardName.key, CardRow.name).join(CardRow, CardRow.id == CardName.card_id)
                    .order_by(CardName.priority))
                DbCardPool._index = cached = (version, SuggestionIndex(rows))
            return cached[1]
