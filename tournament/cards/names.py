"""Card-name keys: how a name a player typed meets the name a card has.

The key ignores case, accents, punctuation and spacing, so "aether vial",
"Dandan", "Fire/Ice" and "Lim-Dul's Vault" find their cards. A name that is
all punctuation (the Un-card "_____") keys as itself without spaces.

Players in Japan and China write a card in both languages, as seed 000 does
(`《ゴブリンの長槍使い/Goblin Piker》`): `lookup_keys` tries the whole name,
then its English part, then its printed part, which a card file's foreign
names answer to.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_ASCII_NOISE = re.compile(r"[^a-z0-9]+")

_LIGATURES = str.maketrans({
    "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
    "ß": "ss", "ł": "l", "Ł": "l", "đ": "d", "ı": "i",
})


@lru_cache(maxsize=200_000)
def name_key(name: str) -> str:
    if name.isascii():
        key = _ASCII_NOISE.sub("", name.lower())
    else:
        text = unicodedata.normalize("NFKD", name.translate(_LIGATURES))
        key = "".join(ch for ch in text.casefold() if ch.isalnum() and not unicodedata.combining(ch))
    return key or "".join(name.split()).casefold()


_BRACKETS = "《》【】「」『』〈〉"
_SLASHES = re.compile(r"\s*[/／]\s*")


def bilingual_parts(name: str) -> tuple[str, str] | None:
    """(English, printed) for "ゴブリンの長槍使い/Goblin Piker" written either way round, else None. A split or
    two-faced card keeps its own slashes on each side ("火+氷/Fire // Ice"); one written in Latin letters
    only ("Fire/Ice", "Fire // Ice") is not bilingual."""
    if name.isascii():
        return None
    parts = [p for p in _SLASHES.split(name.strip(_BRACKETS + " ")) if p]
    latin = [_latin(p) for p in parts]
    for k in range(1, len(parts)):
        if len(set(latin[:k])) == 1 and len(set(latin[k:])) == 1 and latin[0] != latin[k]:
            first, second = " // ".join(parts[:k]), " // ".join(parts[k:])
            return (first, second) if latin[0] else (second, first)
    return None


def _latin(text: str) -> bool:
    """Written in Latin letters (accents allowed): the English side of a bilingual name."""
    return all(ord(ch) < 0x250 or not ch.isalpha() for ch in text)


def printed_part(written: str) -> str | None:
    """The part of a written name in another language, or None when it is all in Latin letters."""
    if _latin(written):
        return None
    parts = bilingual_parts(written)
    return parts[1] if parts else written.strip(_BRACKETS + " ")


def lookup_keys(name: str) -> tuple[str, ...]:
    """The keys a written name may mean, best first: the whole name, then the parts of a bilingual one."""
    whole = name_key(name)
    parts = bilingual_parts(name)
    if parts is None:
        return (whole,)
    return tuple(dict.fromkeys((whole, name_key(parts[0]), name_key(parts[1]))))


# Priority of a key when two cards share it: a card's full name beats a front
# face, which beats other faces, and any real card beats an un-set card
# ("Wasteland" is not "Waste Land" unless spelled so).
FULL_NAME, FRONT_FACE, OTHER_FACE, PRINTED_NAME = 0, 1, 2, 3
UNSET_PENALTY = 10


def keys_for(card) -> list[tuple[str, int]]:
    """Every key a card answers to, with its priority.

    Meld back faces are left out: they belong to two cards and are never in a deck.
    Printed names in other languages come last, so an English name always wins.
    """
    keys: dict[str, int] = {name_key(card.name): FULL_NAME}
    faces = card.face_names
    for i, face in enumerate(faces):
        if card.layout == "meld" and i > 0:
            continue
        prio = FRONT_FACE if i == 0 else OTHER_FACE
        k = name_key(face)
        if k and keys.get(k, 99) > prio:
            keys[k] = prio
    for _language, printed in card.foreign_names:
        k = name_key(printed)
        if k and k not in keys:
            keys[k] = PRINTED_NAME
    penalty = UNSET_PENALTY if card.is_funny else 0
    return [(k, p + penalty) for k, p in keys.items()]


def is_printed(priority: int) -> bool:
    """A key from a printed name in another language (un-set cards carry the penalty on top)."""
    return priority % UNSET_PENALTY == PRINTED_NAME


def choose(typed: str, candidates):
    """The card a typed name means among cards sharing its key: an exact spelling first, then priority."""
    if len(candidates) == 1:
        return candidates[0][1]
    folded = typed.strip().casefold()
    exact = [(p, c) for p, c in candidates
             if folded == c.name.casefold() or any(folded == f.casefold() for f in c.face_names)]
    return min(exact or candidates, key=lambda pc: pc[0])[1]
