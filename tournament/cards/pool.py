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
from .names import choose, is_printed, keys_for, lookup_keys, name_key


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
        self._by_key: dict[str, list[tuple[int, Card]]] = {}
        pairs = []
        for card in cards:
            for key, prio in keys_for(card):
                self._by_key.setdefault(key, []).append((prio, card))
                if not is_printed(prio):          # did-you-mean stays in English: thousands fewer keys
                    pairs.append((prio, key, card.name))
        for held in self._by_key.values():
            held.sort(key=lambda pc: pc[0])
        self._suggestions: SuggestionIndex | None = None
        self._pairs = [(key, name) for _p, key, name in sorted(pairs, key=lambda pkn: pkn[0])]

    def __len__(self) -> int:
        return len({id(c) for held in self._by_key.values() for _p, c in held})

    def resolve(self, names: Iterable[str]) -> dict[str, Card | None]:
        out = {}
        by_key = self._by_key
        for name in names:
            held = by_key.get(name_key(name))
            if held is None:
                held = next((by_key[k] for k in lookup_keys(name)[1:] if k in by_key), None)
            out[name] = (held[0][1] if len(held) == 1 else choose(name, held)) if held else None
        return out

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        if self._suggestions is None:
            self._suggestions = SuggestionIndex(self._pairs)
        return self._suggestions.suggest(name, limit)
