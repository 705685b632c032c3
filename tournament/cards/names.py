"""Card-name keys: how a name a player typed meets the name a card has.

The key ignores case, accents, punctuation and spacing, so "aether vial",
"Dandan", "Fire/Ice" and "Lim-Dul's Vault" find their cards.
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
        return _ASCII_NOISE.sub("", name.lower())
    text = unicodedata.normalize("NFKD", name.translate(_LIGATURES))
    return "".join(ch for ch in text.casefold() if ch.isalnum() and not unicodedata.combining(ch))


# Priority of a key when two cards share it: a card's full name beats a front
# face, which beats other faces, and any real card beats an un-set card
# ("Wasteland" is not "Waste Land" unless spelled so).
FULL_NAME, FRONT_FACE, OTHER_FACE = 0, 1, 2
UNSET_PENALTY = 10


def keys_for(card) -> list[tuple[str, int]]:
    """Every key a card answers to, with its priority.

    Meld back faces are left out: they belong to two cards and are never in a deck.
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
    penalty = UNSET_PENALTY if card.is_funny else 0
    return [(k, p + penalty) for k, p in keys.items()]


def choose(typed: str, candidates):
    """The card a typed name means among cards sharing its key: an exact spelling first, then priority."""
    if len(candidates) == 1:
        return candidates[0][1]
    folded = typed.strip().casefold()
    exact = [(p, c) for p, c in candidates
             if folded == c.name.casefold() or any(folded == f.casefold() for f in c.face_names)]
    return min(exact or candidates, key=lambda pc: pc[0])[1]
