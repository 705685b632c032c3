"""Commander Brackets: what a deck holds that sets its lowest possible bracket.

Wizards' brackets (1 Exhibition ... 5 cEDH) are about intent, which no list
can show; what a list can show is a floor: Game Changers, extra-turn cards,
mass land denial and known two-card combos each rule out the lower brackets.
The floor and its reasons are findings for the player and staff to read,
never a verdict. Pure functions over plain data; the lists are dated files
in tournament/data/brackets/.
"""
from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Iterable, Iterator

import ijson

from tournament.cards.domain import Card
from tournament.cards.names import name_key
from tournament.decks.domain import N_, Text, TextList, _n, json_value

DATA = Path(__file__).resolve().parent.parent / "data" / "brackets"
COUNTS = ("game_changers", "extra_turns", "mass_land_denial", "two_card_combos")
_EXTRA_TURN = re.compile(r"\btakes? (?:an|one|two|three|that many) extra turns?\b|\bextra turn after this one\b", re.I)
_REMINDER = re.compile(r"\([^()]*\)")

# The words of brackets.json that players read, marked for the extractor (translated where they are shown):
# the brackets' names and why each floor holds. A text the file gains later shows in English until translated.
BRACKET_NAMES = (N_("Exhibition"), N_("Core"), N_("Upgraded"), N_("Optimized"), N_("cEDH"))
FLOOR_WHYS = (
    N_("bracket 1 has no extra-turn cards"),
    N_("brackets 1 and 2 have no Game Changers; bracket 3 allows up to three"),
    N_("brackets 1 and 2 have no two-card combos; bracket 4 if it can win early"),
    N_("brackets 2 and 3 keep extra-turn cards to low quantities, not chained (the project reads four or more as "
       "more than low)"),
    N_("bracket 3 allows at most three Game Changers"),
    N_("brackets 1 to 3 have no mass land denial"),
)
_KINDS = {
    "game_changers": _n("%(num)d Game Changer (%(cards)s)", "%(num)d Game Changers (%(cards)s)"),
    "extra_turns": _n("%(num)d extra-turn card (%(cards)s)", "%(num)d extra-turn cards (%(cards)s)"),
    "mass_land_denial": _n("%(num)d mass land denial card (%(cards)s)", "%(num)d mass land denial cards (%(cards)s)"),
    "two_card_combos": _n("%(num)d two-card combo (%(combos)s)", "%(num)d two-card combos (%(combos)s)"),
}


@dataclass(frozen=True)
class Combo:
    cards: tuple[str, str]
    produces: tuple[str, ...]
    id: str = ""


@dataclass(frozen=True)
class BracketRules:
    names: dict[int, str]
    floors: tuple[dict, ...]
    game_changers: frozenset[str]          # name keys
    mass_land_denial: frozenset[str]
    combos: dict[str, tuple[Combo, ...]]   # name key of either card -> combos using it
    as_of: str
    combo_source: str
    undeclared: int = 2        # the bracket pods seat a player at who declared none and whose deck has no floor


@dataclass
class BracketReport:
    floor: int
    reasons: list[str] = field(default_factory=list)       # "3 Game Changers (…): at least bracket 3 (why)"
    causes: list[str] = field(default_factory=list)        # "3 Game Changers (…)", for short texts
    # reasons and causes are Texts (English strings that can be worded again in the reader's language)
    game_changers: list[str] = field(default_factory=list)
    extra_turns: list[str] = field(default_factory=list)
    mass_land_denial: list[str] = field(default_factory=list)
    two_card_combos: list[dict] = field(default_factory=list)
    as_of: str = ""

    @property
    def name(self) -> str:
        return bracket_rules().names.get(self.floor, "")

    def to_json(self) -> dict:
        return {"floor": self.floor, "name": self.name, "reasons": [str(r) for r in self.reasons],
                "causes": [str(c) for c in self.causes],
                "game_changers": list(self.game_changers), "extra_turns": list(self.extra_turns),
                "mass_land_denial": list(self.mass_land_denial), "two_card_combos": list(self.two_card_combos),
                "as_of": self.as_of,
                # the same reasons and causes as messages for the reader's language (tournament/decks/messages.py)
                "reason_texts": [json_value(r) for r in self.reasons],
                "cause_texts": [json_value(c) for c in self.causes]}


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def read_combos(stream: IO[bytes]) -> Iterator[Combo]:
    """Two-card combos from Commander Spellbook's variants.json export (or our file in its shape), streamed:
    the real export is hundreds of megabytes. Only public variants of exactly two cards and no templates."""
    for variant in ijson.items(stream, "variants.item"):
        if not isinstance(variant, dict) or variant.get("status", "OK") not in ("OK", "E"):
            continue
        uses = variant.get("uses") or []
        if len(uses) != 2 or variant.get("requires"):
            continue
        names = tuple(((u.get("card") or {}).get("name") or "") for u in uses if isinstance(u, dict))
        if len(names) != 2 or not all(names) or any((u.get("quantity") or 1) != 1 for u in uses):
            continue
        produces = tuple(str((p.get("feature") or {}).get("name") or "") for p in variant.get("produces") or ()
                         if isinstance(p, dict))
        yield Combo(cards=names, produces=tuple(p for p in produces if p), id=str(variant.get("id") or ""))


def open_combo_file(path: Path) -> IO[bytes]:
    raw = open(path, "rb")
    if raw.read(2) == b"\x1f\x8b":
        raw.seek(0)
        return gzip.open(raw)
    raw.seek(0)
    return raw


def write_combos(combos: Iterable[Combo], path: Path, source: str) -> int:
    """Store combos in the export's own shape, cut down to what the check reads."""
    variants = [{"id": c.id, "status": "OK", "uses": [{"card": {"name": n}, "quantity": 1} for n in c.cards],
                 "requires": [], "produces": [{"feature": {"name": p}} for p in c.produces]} for c in combos]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"source": source, "variants": variants}, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
    return len(variants)


@lru_cache(maxsize=4)
def bracket_rules(combo_file: str | None = None, stamp: int = 0) -> BracketRules:
    """The dated lists; `combo_file` is an imported Commander Spellbook export, else the starter file
    (`stamp`, the file's modification time, makes a new import a new cache entry)."""
    brackets = _load("brackets.json")
    game_changers = _load("game_changers.json")
    path = Path(combo_file) if combo_file and Path(combo_file).exists() else DATA / "combos.json"
    with open_combo_file(path) as stream:
        combos = list(read_combos(stream))
    by_card: dict[str, list[Combo]] = {}
    for combo in combos:
        for n in combo.cards:
            by_card.setdefault(name_key(n), []).append(combo)
    return BracketRules(
        names={int(k): v["name"] for k, v in brackets["brackets"].items()},
        floors=tuple(brackets["floors"]),
        game_changers=frozenset(name_key(n) for n in game_changers["cards"]),
        mass_land_denial=frozenset(name_key(n) for n in _load("mass_land_denial.json")["cards"]),
        combos={k: tuple(v) for k, v in by_card.items()},
        as_of=game_changers["as_of"],
        combo_source=path.name,
        undeclared=int(brackets.get("undeclared", 2)),
    )


def _keys(card: Card) -> tuple[str, ...]:
    return (name_key(card.name), name_key(card.faces[0].name)) if card.faces else (name_key(card.name),)


_EXTRA_TURN_SEEN: dict[tuple[str, str], bool] = {}


def is_extra_turn(card: Card) -> bool:
    """An extra-turn card by its own rules text (Time Warp, Nexus of Fate), reminder text aside."""
    memo = (card.name, card.text)
    hit = _EXTRA_TURN_SEEN.get(memo)
    if hit is None:
        faces = card.faces or (card.front,)
        hit = any("extra turn" in (f.text or "") and _EXTRA_TURN.search(_REMINDER.sub("", f.text))
                  for f in faces)
        if len(_EXTRA_TURN_SEEN) < 100_000:
            _EXTRA_TURN_SEEN[memo] = hit
    return hit


def bracket_report(cards: Iterable[Card], rules: BracketRules | None = None) -> BracketReport:
    """The deck's bracket floor, 1 to 4 (bracket 5 is a matter of intent and metagame), with its reasons."""
    rules = rules or bracket_rules()
    deck = list({c.name: c for c in cards}.values())
    found: dict[str, list] = {k: [] for k in COUNTS}
    keys = {k: c.name for c in deck for k in _keys(c)}
    for card in deck:
        ks = _keys(card)
        if any(k in rules.game_changers for k in ks):
            found["game_changers"].append(card.name)
        if any(k in rules.mass_land_denial for k in ks):
            found["mass_land_denial"].append(card.name)
        if is_extra_turn(card):
            found["extra_turns"].append(card.name)
    seen: set[tuple[str, str]] = set()
    for key, name in keys.items():
        for combo in rules.combos.get(key, ()):
            a, b = (keys.get(name_key(n)) for n in combo.cards)
            if a and b and a != b and (pair := tuple(sorted((a, b)))) not in seen:
                seen.add(pair)
                found["two_card_combos"].append({"cards": list(pair), "produces": list(combo.produces)})
    return _floor(found, rules)


def _floor(found: dict[str, list], rules: BracketRules) -> BracketReport:
    """The highest bracket any count reaches; one reason per kind of card, the strongest, highest first."""
    reached: dict[str, dict] = {}
    for rule in rules.floors:
        if len(found[rule["count"]]) >= rule["at_least"]:
            best = reached.get(rule["count"])
            if best is None or rule["bracket"] > best["bracket"]:
                reached[rule["count"]] = rule
    ordered = sorted(reached.values(), key=lambda r: -r["bracket"])
    reasons = [Text(N_("%(what)s: at least bracket %(bracket)d (%(why)s)"), what=_what(r["count"], found[r["count"]]),
                    bracket=r["bracket"], why=Text(r["why"])) for r in ordered]
    floor = max((r["bracket"] for r in ordered), default=1)
    causes = [_what(r["count"], found[r["count"]]) for r in ordered]
    return BracketReport(floor=floor, reasons=reasons, causes=causes, as_of=rules.as_of, **found)


def _what(count: str, items: list) -> Text:
    n = len(items)
    if count == "two_card_combos":
        shown = TextList([TextList(c["cards"], "plus") for c in items[:3]], "semicolon", more=n > 3)
        return Text(_KINDS[count], num=n, combos=shown)
    return Text(_KINDS[count], num=n, cards=TextList(items[:5], "comma", more=n > 5))
