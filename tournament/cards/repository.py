"""Card look-ups against the database: one query per batch of names."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Iterable

import sqlalchemy as sa

from ..extensions import db
from .domain import Card
from .models import Card as CardRow, CardImport, CardName, row_to_card
from .names import PRINTED_NAME, UNSET_PENALTY, choose, lookup_keys

PRINTED_PRIORITIES = (PRINTED_NAME, PRINTED_NAME + UNSET_PENALTY)
from .pool import SuggestionIndex

_CARD_COLUMNS = [c for c in CardRow.__table__.columns]
_UNKNOWN = object()


class DbCardPool:
    """Resolves a deck's names in one or two queries; did-you-mean from a per-process index.

    Cards already read are cached per process by id; every import adds a
    `card_import` row, and the cache empties when the latest one changes, so a
    re-import from the command line is seen at once by a running server.

    The suggestion index is rebuilt when the latest card import changes, so a
    running server picks up a `cards import` done from the command line.
    """

    CACHE_SIZE = 40_000
    _lock = threading.Lock()
    _index: tuple[object, SuggestionIndex] | None = None
    _cache: OrderedDict[int, Card] = OrderedDict()
    _cache_version: object = None

    def __init__(self, session=None):
        self.session = session or db.session
        self._version = _UNKNOWN   # the latest card import, read once per pool (one deck check or request)

    def fetch_keys(self, keys: Iterable[str]) -> dict[str, list[tuple[int, Card]]]:
        """Every card each key may mean, best first. One query, plus one for cards not cached yet."""
        keys = list({k for k in keys if k})
        if not keys:
            return {}
        version = sa.select(sa.func.max(CardImport.id)).scalar_subquery()
        stmt = sa.select(CardName.key, CardName.priority, CardName.card_id, version).where(CardName.key.in_(keys))
        found: dict[str, list[tuple[int, int]]] = {}
        data_version = None
        for key, priority, card_id, data_version in self.session.connection().execute(stmt):
            found.setdefault(key, []).append((priority, card_id))
        if found:
            self._version = data_version
        cards = self._cards_by_id({card_id for held in found.values() for _p, card_id in held}, data_version)
        return {k: sorted(((p, cards[i]) for p, i in held), key=lambda pc: pc[0]) for k, held in found.items()}

    def _cards_by_id(self, wanted: set[int], data_version) -> dict[int, Card]:
        cls = DbCardPool
        out: dict[int, Card] = {}
        with self._lock:
            if cls._cache_version != data_version:
                cls._cache.clear()
                cls._cache_version = data_version
            cache = cls._cache
            for card_id in wanted:
                hit = cache.get(card_id)
                if hit is not None:
                    out[card_id] = hit
                    cache.move_to_end(card_id)
        missing = [i for i in wanted if i not in out]
        if missing:
            rows = self.session.connection().execute(sa.select(*_CARD_COLUMNS).where(CardRow.id.in_(missing))).all()
            with self._lock:
                for row in rows:
                    card = out[row.id] = row_to_card(row)
                    if cls._cache_version == data_version:
                        cache[row.id] = card
                while len(cache) > self.CACHE_SIZE:
                    cache.popitem(last=False)
        return out

    @classmethod
    def clear_cache(cls) -> None:
        with cls._lock:
            cls._cache.clear()
            cls._cache_version = None
            cls._index = None

    def resolve(self, names: Iterable[str]) -> dict[str, Card | None]:
        names = list(dict.fromkeys(names))
        keyed = {n: lookup_keys(n) for n in names}
        found = self.fetch_keys(k for keys in keyed.values() for k in keys)
        out: dict[str, Card | None] = {}
        for n, keys in keyed.items():
            k = next((k for k in keys if k in found), None)
            out[n] = choose(n, found[k]) if k is not None else None
        return out

    def get(self, name: str) -> Card | None:
        return self.resolve([name])[name]

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        return self._suggestions().suggest(name, limit)

    def _suggestions(self) -> SuggestionIndex:
        if self._version is _UNKNOWN:
            self._version = self.session.execute(sa.select(sa.func.max(CardImport.id))).scalar()
        version = self._version
        with self._lock:
            cached = DbCardPool._index
            if cached is None or cached[0] != version:
                rows = self.session.execute(
                    sa.select(CardName.key, CardRow.name).join(CardRow, CardRow.id == CardName.card_id)
                    .where(CardName.priority.not_in(PRINTED_PRIORITIES))       # did-you-mean stays in English
                    .order_by(CardName.priority))
                DbCardPool._index = cached = (version, SuggestionIndex(rows))
            return cached[1]
