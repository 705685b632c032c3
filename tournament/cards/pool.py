"""Looking cards up by the names players write.

`CardPool` is what deck checks need: resolve many names at once, and suggest
names for one that matched nothing. `MemoryCardPool` serves tests and
benchmarks; `tournament.cards.repository.DbCardPool` serves the app with one
query per deck.
"""
from __future__ import annotations

from typing import Iterable, Protocol

from rapidfuzz import fuzz, process

from .domain import Card
from .names import keys_for, name_key


class CardPool(Protocol):
    def resolve(self, names: Iterable[str]) -> dict[str, Card | None]: ...
    def suggest(self, name: str, limit: int = 5) -> list[str]: ...


class SuggestionIndex:
    """Did-you-mean over every key, built once per card-data version."""

    def __init__(self, pairs: Iterable[tuple[str, str]]):
        self._display: dict[str, str] = {}
        for key, display in pairs:
            self._display.setdefault(key, display)
        self._keys = list(self._display)

    def suggest(self, name: str, limit: int = 5, cutoff: float = 70) -> list[str]:
        key = name_key(name)
        if not key:
            return []
        hits = process.extract(key, self._keys, scorer=fuzz.ratio, limit=limit * 3, score_cutoff=cutoff)
        out: list[str] = []
        for k, _score, _i in hits:
            display = self._display[k]
            if display not in out:
                out.append(display)
            if len(out) == limit:
                break
        return out


class MemoryCardPool:
    def __init__(self, cards: Iterable[Card]):
        self._by_key: dict[str, tuple[int, Card]] = {}
        pairs = []
        for card in cards:
            for key, prio in keys_for(card):
                held = self._by_key.get(key)
                if held is None or prio < held[0]:
                    self._by_key[key] = (prio, card)
            pairs.append((name_key(card.name), card.name))
        self._suggestions: SuggestionIndex | None = None
        self._pairs = pairs

    def __len__(self) -> int:
        return len({id(c) for _p, c in self._by_key.values()})

    def resolve(self, names: Iterable[str]) -> dict[str, Card | None]:
        out = {}
        for name in names:
            hit = self._by_key.get(name_key(name))
            out[name] = hit[1] if hit else None
        return out

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        if self._suggestions is None:
            self._suggestions = SuggestionIndex(self._pairs)
        return self._suggestions.suggest(name, limit)
