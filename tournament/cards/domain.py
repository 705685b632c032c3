"""Card facts as plain data: what deck checks, pairing and printing read.

No Flask or database here. Importers turn MTGJSON or Scryfall records into
`Card`; the database stores them; deck checks receive them back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

COLOR_ORDER = "WUBRG"
MELD_RESULT = "meld_result"     # our layout for a meld card's result; MTGJSON and Scryfall call both halves "meld"
SUPERTYPES = ("Basic", "Legendary", "Ongoing", "Snow", "World", "Host", "Elite")
NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
_ANY_NUMBER = re.compile(r"a deck can have any number of cards named", re.I)
_UP_TO = re.compile(r"a deck can have up to (\w+) cards named", re.I)
_CAN_BE_COMMANDER = re.compile(r"can be your commander", re.I)


def sort_colors(colors) -> tuple[str, ...]:
    """WUBRG order, so identities compare and print the same everywhere."""
    return tuple(c for c in COLOR_ORDER if c in set(colors))


@dataclass(frozen=True, slots=True)
class Face:
    name: str
    mana_cost: str = ""
    type_line: str = ""
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    text: str = ""
    colors: tuple[str, ...] = ()
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v)
                for k in self.__slots__ if (v := getattr(self, k)) not in (None, "", ())}

    @classmethod
    def from_dict(cls, d: dict) -> "Face":
        return cls(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items()})


@dataclass(frozen=True, slots=True)
class Card:
    """One card as the rules see it: the front face decides type and eligibility.

    `copy_limit` is how many copies a singleton deck may hold: 1 normally,
    None for "any number" (basic lands, Relentless Rats), 7 for Seven Dwarves.
    """
    name: str
    layout: str = "normal"
    faces: tuple[Face, ...] = ()
    mana_value: float = 0.0
    color_identity: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    legalities: dict = field(default_factory=dict)
    can_be_commander: bool = False
    is_funny: bool = False
    copy_limit: int | None = 1
    oracle_id: str | None = None
    foreign_names: tuple[tuple[str, str], ...] = ()     # (language, printed name): extra look-up keys

    @property
    def is_meld_result(self) -> bool:
        """The melded back of two cards (Brisela, Voice of Nightmares): it exists only on the battlefield."""
        return self.layout == MELD_RESULT

    @property
    def front(self) -> Face:
        return self.faces[0] if self.faces else Face(self.name)

    @property
    def face_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.faces)

    @property
    def mana_cost(self) -> str:
        return self.front.mana_cost

    @property
    def type_line(self) -> str:
        return self.front.type_line

    @property
    def supertypes(self) -> tuple[str, ...]:
        return self.front.supertypes

    @property
    def types(self) -> tuple[str, ...]:
        return self.front.types

    @property
    def subtypes(self) -> tuple[str, ...]:
        return self.front.subtypes

    @property
    def text(self) -> str:
        return self.front.text

    @property
    def full_type_line(self) -> str:
        return " // ".join(f.type_line for f in self.faces) if self.faces else ""

    @property
    def is_rebalanced(self) -> bool:
        """Arena's rebalanced versions ("A-Blood Artist") are not paper cards."""
        return self.name.startswith("A-")

    @property
    def paper_name(self) -> str:
        return " // ".join(n[2:] if n.startswith("A-") else n for n in self.name.split(" // "))

    def legality(self, fmt: str) -> str:
        return self.legalities.get(fmt, "Not Legal")

    def to_json(self) -> dict:
        """The shape `cards lookup` prints and the API returns."""
        return {
            "name": self.name,
            "face_names": list(self.face_names),
            "layout": self.layout,
            "mana_cost": self.mana_cost,
            "mana_value": self.mana_value,
            "type_line": self.full_type_line,
            "color_identity": list(self.color_identity),
            "colors": list(self.colors),
            "keywords": list(self.keywords),
            "text": "\n//\n".join(f.text for f in self.faces) if self.faces else "",
            "legalities": dict(sorted(self.legalities.items())),
            "can_be_commander": self.can_be_commander,
            "is_funny": self.is_funny,
            "copy_limit": self.copy_limit,
        }


def split_type_line(type_line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """'Legendary Creature — Elf Druid' -> supertypes, types, subtypes."""
    left, _, right = type_line.partition("—")
    words = left.split()
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w not in SUPERTYPES)
    return supertypes, types, tuple(right.split())


def copy_limit_for(supertypes, text: str) -> int | None:
    """How many copies a deck may hold, from the card's own words."""
    if "Basic" in supertypes or _ANY_NUMBER.search(text or ""):
        return None
    m = _UP_TO.search(text or "")
    if m:
        word = m.group(1).lower()
        return NUMBER_WORDS.get(word) or (int(word) if word.isdigit() else 1)
    return 1


def could_be_commander(front: Face) -> bool:
    """Today's Commander rule: a legendary creature, or text that says so."""
    return (("Legendary" in front.supertypes and "Creature" in front.types)
            or bool(_CAN_BE_COMMANDER.search(front.text or "")))
