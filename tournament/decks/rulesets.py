"""Rulesets and banlists, read from `tournament/data` (rules as data, not code).

A ruleset is one JSON file in `data/rulesets/`; a banlist is one text file in
`data/banlists/` (one English card name per line, `#` comments). Files are
read once per process. An event stores its ruleset id plus its own banlist
edits; `effective_banlist` combines the two.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping

from tournament.cards.names import name_key
from tournament.decks.domain import N_, Text

DATA = Path(__file__).resolve().parent.parent / "data"
RULESET_DIR = DATA / "rulesets"
BANLIST_DIR = DATA / "banlists"

COMMANDER_RULES = ("legendary-creature", "commander")
GENERAL_TAX_KINDS = ("per-cast", "death-counter")
MODES = ("multiplayer", "duel")
COMPANION_RULES = ("sideboard", "outside")


class UnknownRuleset(LookupError):
    """An id that names no ruleset; the message (a Text, for the reader's language) lists the valid ones."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "Unknown ruleset."


class RulesetFileError(ValueError):
    """A ruleset or banlist file in tournament/data is malformed."""


@dataclass(frozen=True, eq=False)
class PoolRule:
    """Which cards exist for a ruleset: a format's legality, plus named exceptions."""
    format: str
    allow: tuple[str, ...]
    extra_allowed: tuple[str, ...] = ()
    reject_funny: bool = True
    extra_keys: frozenset[str] = frozenset()

    def allows(self, card) -> bool:
        return (card.legalities.get(self.format, "Not Legal") in self.allow
                or (bool(self.extra_keys) and card_key(card.name) in self.extra_keys))


@dataclass(frozen=True, eq=False)
class Ruleset:
    """One ruleset an event can choose. Hashed by identity: loaded once, shared."""
    id: str
    name: str
    source: str
    mode: str                           # "multiplayer" pods or "duel" (1v1)
    best_of: int
    deck_size: int                      # including the general(s)
    sideboard_max: int
    sideboard_exact: bool
    singleton_includes_sideboard: bool
    companion: str                      # "sideboard": a companion is a sideboard card; "outside": one allowed apart
    commander_rules: str                # "legendary-creature" or "commander"
    max_generals: int
    pool: PoolRule
    banlist_ids: tuple[str, ...]
    banlist: tuple[str, ...]            # names from the banlist files
    banlist_from_card_data: str | None  # a format: cards with legality "Banned" there are banned
    banned_as_general_ids: tuple[str, ...]
    banned_as_general: tuple[str, ...]
    general_tax_kind: str               # "per-cast" or "death-counter"
    general_tax_amount: int
    starting_life: int
    general_damage: int
    poison_threshold: int
    sideboard_swap_minutes: int | None
    notes: tuple[str, ...] = ()
    raw: Mapping = field(default_factory=dict, repr=False)
    banned_as_general_keys: frozenset[str] = field(default=frozenset(), repr=False)

    def to_json(self) -> dict:
        """The ruleset as the API and the rules sheet show it."""
        return {
            "id": self.id, "name": self.name, "source": self.source, "mode": self.mode,
            "best_of": self.best_of, "deck_size": self.deck_size, "sideboard_max": self.sideboard_max,
            "sideboard_exact": self.sideboard_exact,
            "singleton_includes_sideboard": self.singleton_includes_sideboard,
            "companion": self.companion, "commander_rules": self.commander_rules,
            "max_generals": self.max_generals,
            "pool": {"format": self.pool.format, "allow": list(self.pool.allow),
                     "extra_allowed": list(self.pool.extra_allowed), "reject_funny": self.pool.reject_funny},
            "banlists": list(self.banlist_ids), "banlist": list(self.banlist),
            "banlist_from_card_data": self.banlist_from_card_data,
            "banned_as_general": list(self.banned_as_general),
            "general_tax": {"kind": self.general_tax_kind, "amount": self.general_tax_amount},
            "starting_life": self.starting_life, "general_damage": self.general_damage,
            "poison_threshold": self.poison_threshold, "sideboard_swap_minutes": self.sideboard_swap_minutes,
            "notes": list(self.notes),
        }


@lru_cache(maxsize=1 << 16)
def card_key(name: str) -> str:
    """`name_key`, memoised: deck checks ask for the same few thousand names again and again."""
    return name_key(name)


# ---------------------------------------------------------------- loading

def read_banlist(banlist_id: str, directory: Path | None = None) -> tuple[str, ...]:
    path = (directory or BANLIST_DIR) / f"{banlist_id}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise RulesetFileError(f"Banlist {banlist_id!r} not found at {path}.") from e
    names = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line and line not in names:
            names.append(line)
    return tuple(names)


def _req(d: dict, key: str, path: Path):
    if key not in d:
        raise RulesetFileError(f"{path.name}: missing {key!r}.")
    return d[key]


def ruleset_from_dict(d: dict, path: Path = Path("<ruleset>"), banlist_dir: Path | None = None) -> Ruleset:
    pool = _req(d, "pool", path)
    extra = tuple(pool.get("extra_allowed") or ())
    tax = d.get("general_tax") or {}
    banlist_ids = tuple(d.get("banlists") or ())
    general_ids = tuple(d.get("banned_as_general") or ())
    banlist = tuple(dict.fromkeys(n for b in banlist_ids for n in read_banlist(b, banlist_dir)))
    generals = tuple(dict.fromkeys(n for b in general_ids for n in read_banlist(b, banlist_dir)))
    ruleset = Ruleset(
        id=_req(d, "id", path), name=_req(d, "name", path), source=d.get("source", ""),
        mode=d.get("mode", "multiplayer"), best_of=int(d.get("best_of", 1)),
        deck_size=int(_req(d, "deck_size", path)), sideboard_max=int(_req(d, "sideboard_max", path)),
        sideboard_exact=bool(d.get("sideboard_exact", False)),
        singleton_includes_sideboard=bool(d.get("singleton_includes_sideboard", True)),
        companion=d.get("companion", "sideboard"),
        commander_rules=_req(d, "commander_rules", path), max_generals=int(d.get("max_generals", 1)),
        pool=PoolRule(format=_req(pool, "format", path), allow=tuple(_req(pool, "allow", path)),
                      extra_allowed=extra, reject_funny=bool(pool.get("reject_funny", True)),
                      extra_keys=frozenset(name_key(n) for n in extra)),
        banlist_ids=banlist_ids, banlist=banlist,
        banlist_from_card_data=d.get("banlist_from_card_data"),
        banned_as_general_ids=general_ids, banned_as_general=generals,
        general_tax_kind=tax.get("kind", "per-cast"), general_tax_amount=int(tax.get("amount", 2)),
        starting_life=int(d.get("starting_life", 40)), general_damage=int(d.get("general_damage", 21)),
        poison_threshold=int(d.get("poison_threshold", 10)),
        sideboard_swap_minutes=d.get("sideboard_swap_minutes"),
        notes=tuple(d.get("notes") or ()), raw=d,
        banned_as_general_keys=frozenset(name_key(n) for n in generals),
    )
    for attr, allowed in (("commander_rules", COMMANDER_RULES), ("general_tax_kind", GENERAL_TAX_KINDS),
                          ("mode", MODES), ("companion", COMPANION_RULES)):
        if getattr(ruleset, attr) not in allowed:
            raise RulesetFileError(f"{path.name}: {attr} must be one of {', '.join(allowed)}, "
                                   f"not {getattr(ruleset, attr)!r}.")
    return ruleset


@lru_cache(maxsize=None)
def _load(directory: Path, banlist_dir: Path) -> dict[str, Ruleset]:
    out: dict[str, Ruleset] = {}
    for path in sorted(directory.glob("*.json")):
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise RulesetFileError(f"{path.name} is not valid JSON: {e}") from e
        ruleset = ruleset_from_dict(d, path, banlist_dir)
        if ruleset.id != path.stem:
            raise RulesetFileError(f"{path.name}: id {ruleset.id!r} does not match the file name.")
        out[ruleset.id] = ruleset
    return out


def load_rulesets() -> dict[str, Ruleset]:
    """Every ruleset by id (read once per process)."""
    return _load(RULESET_DIR, BANLIST_DIR)


def list_rulesets() -> list[Ruleset]:
    return [load_rulesets()[k] for k in sorted(load_rulesets())]


def get_ruleset(ruleset_id) -> Ruleset:
    """The ruleset with this id; a Ruleset passes through unchanged."""
    if isinstance(ruleset_id, Ruleset):
        return ruleset_id
    rulesets = load_rulesets()
    try:
        return rulesets[ruleset_id]
    except (KeyError, TypeError):
        raise UnknownRuleset(Text(N_("Unknown ruleset %(name)s. Valid rulesets: %(valid)s."), name=repr(ruleset_id),
                                  valid=", ".join(sorted(rulesets)))) from None


# ---------------------------------------------------------------- banlists with event edits

@dataclass(frozen=True, eq=False)
class Banlist:
    """A ruleset's banlist with an event's edits applied.

    `names` is the list as printed (file names plus added, minus removed).
    When the ruleset takes its banlist from the card data (`commander`),
    `card_data_format` is that format and a card is banned when its legality
    there is "Banned" unless the event removed it.
    """
    ruleset_id: str
    names: tuple[str, ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]
    keys: frozenset[str]
    removed_keys: frozenset[str]
    card_data_format: str | None = None

    def is_banned(self, card) -> bool:
        key = card_key(card.name)
        if key in self.keys:
            return True
        front = card.faces[0].name if card.faces else card.name
        if front != card.name and card_key(front) in self.keys:
            return True
        if self.card_data_format and card.legalities.get(self.card_data_format) == "Banned":
            return key not in self.removed_keys
        return False

    def is_unbanned(self, card) -> bool:
        """The event took this card off the list (it may then pass a 'Banned' legality)."""
        return bool(self.removed_keys) and card_key(card.name) in self.removed_keys

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset_id, "names": list(self.names), "added": list(self.added),
                "removed": list(self.removed), "card_data_format": self.card_data_format}


def _clean(names: Iterable[str]) -> tuple[str, ...]:
    if isinstance(names, str):
        names = [names]
    out: dict[str, str] = {}
    for n in names or ():
        n = " ".join(str(n).split())
        if n and name_key(n):
            out.setdefault(name_key(n), n)
    return tuple(out.values())


@lru_cache(maxsize=256)
def _effective(ruleset: Ruleset, add: tuple[str, ...], remove: tuple[str, ...]) -> Banlist:
    removed_keys = frozenset(name_key(n) for n in remove)
    names = {name_key(n): n for n in ruleset.banlist if name_key(n) not in removed_keys}
    for n in add:
        names.setdefault(name_key(n), n)
    return Banlist(ruleset_id=ruleset.id, names=tuple(sorted(names.values(), key=str.casefold)),
                   added=add, removed=remove, keys=frozenset(names), removed_keys=removed_keys,
                   card_data_format=ruleset.banlist_from_card_data)


def effective_banlist(ruleset, add: Iterable[str] = (), remove: Iterable[str] = ()) -> Banlist:
    """The ruleset's banlist plus `add` minus `remove`; names compare by `name_key`.

    A name both added and removed ends up banned (adding is the later, explicit act).
    """
    return _effective(get_ruleset(ruleset), _clean(add), _clean(remove))
