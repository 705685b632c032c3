"""Names people read at the desk, on the projector and on printouts: nothing blank, nothing that reorders or
breaks the line, and a warning when a new name looks like one already there. Pure: no Flask, no database.

- **Blank-looking names** are empty: a name needs one character a person can see. Format characters, spaces,
  the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the blank Braille pattern (U+2800) are letters or
  symbols to Unicode but print as nothing.
- **Bidi controls are removed** (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, LRM, RLM,
  ALM): an override (RLO) turns "Anna" and everything after it on the line around, in lists, the projector
  and the printed pairings. Right-to-left names need none of them: the characters carry their own direction,
  and the pages isolate each name (dir="auto").
- **Line and paragraph separators** (U+2028, U+2029) become a space: a name is one line.
- **Joiners are kept only where they join**: ZWJ (U+200D) makes emoji sequences (👩‍👧) and Indic conjuncts
  and half-forms, ZWNJ (U+200C) is spelling in Persian and other Arabic-script languages and breaks a
  conjunct in Indic scripts; removing those would misspell a real name. So a joiner stays between two
  characters of a joining or Brahmic script, after a virama, or (ZWJ) between two emoji. Elsewhere (between
  Latin letters, at either end, doubled) it changes nothing on screen and only makes "Anna" differ from
  "Anna", so it goes. Skeletons ignore joiners, so a kept one hides no look-alike.
- **Look-alikes** (UTS #39): two names whose *skeletons* are equal look the same although their letters
  differ (a Cyrillic "О" for a Latin "O", "rn" for "m", "1" for "l"). The skeleton is Unicode's: NFD, each
  character replaced by its prototype from Unicode's confusables.txt, NFD again. The data comes from the
  `confusable_homoglyphs` package (pure Python, so the Windows laptop installs it like everything else;
  it ships confusables.txt but computes no skeleton, so it is computed here). PyICU's SpoofChecker has the
  same skeleton but needs the ICU C library, a compiled install this app does not otherwise need.
"""
from __future__ import annotations

import json
import os
import unicodedata
from functools import lru_cache
from typing import Iterable

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
LINE_SEPARATORS = frozenset("\u2028\u2029")
ZWJ, ZWNJ = "\u200d", "\u200c"
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
_INVISIBLE_CATEGORIES = ("Cf", "Zs", "Zl", "Zp", "Mn", "Me")   # not Cc: refused as control characters; not Co/Cn: shown as boxes
_JOINING_SCRIPT_RANGES = ((0x0600, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF), (0x0700, 0x074F),
                          (0x07C0, 0x07FF), (0x1800, 0x18AF), (0x10D00, 0x10D3F),      # Arabic-like: joining
                          (0x0900, 0x0DFF), (0x0F00, 0x0FFF), (0x1000, 0x109F), (0x1780, 0x17FF),
                          (0xA8E0, 0xA8FF), (0x11000, 0x111FF))     # Indic and other Brahmic: conjuncts


def visible(ch: str) -> bool:
    """A character a reader sees on its own: a letter, digit, punctuation or symbol that is not a blank."""
    return ch not in BLANK_LETTERS and unicodedata.category(ch) not in _INVISIBLE_CATEGORIES


def readable(text: str) -> bool:
    return any(visible(ch) for ch in text)


def _after_virama(text: str, i: int) -> bool:
    return i > 0 and unicodedata.combining(text[i - 1]) == 9      # canonical combining class 9: a virama


def _pictographic(ch: str) -> bool:
    return unicodedata.category(ch) == "So" or ch == "\ufe0f" or 0x1F3FB <= ord(ch) <= 0x1F3FF


def _joining_script(ch: str) -> bool:
    return any(lo <= ord(ch) <= hi for lo, hi in _JOINING_SCRIPT_RANGES)


def _joiner_joins(text: str, i: int) -> bool:
    """Whether the joiner at text[i] has an effect where it stands (see the module's notes)."""
    if i == 0 or i == len(text) - 1 or text[i + 1] in (ZWJ, ZWNJ) or not visible(text[i + 1]) \
            and not _after_virama(text, i):
        return False
    before, after = text[i - 1], text[i + 1]
    if _after_virama(text, i):
        return True
    if _pictographic(before) and _pictographic(after):
        return text[i] == ZWJ
    return _joining_script(before) and _joining_script(after)


def tidy(text: str) -> str:
    """A name as it is kept: bidi controls out, line separators as spaces, joiners only where they join."""
    if text.isascii():
        return text
    kept = []
    for i, ch in enumerate(text):
        if ch in BIDI_CONTROLS:
            continue
        if ch in LINE_SEPARATORS:
            kept.append(" ")
        elif ch in (ZWJ, ZWNJ):
            if _joiner_joins(text, i):
                kept.append(ch)
        else:
            kept.append(ch)
    return "".join(kept).strip()


# ----------------------------------------------------------------- UTS #39 skeletons

@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """character -> its prototype, from confusables.txt as confusable_homoglyphs ships it. The package keeps,
    for each entry of the file, the source under its prototype and the prototype under the source; a
    prototype is the one of a pair that other characters also point to (for a lone pair, the smaller)."""
    import confusable_homoglyphs
    path = os.path.join(os.path.dirname(confusable_homoglyphs.__file__), "confusables.json")
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)

    def bare(s: str) -> str:
        return s.replace("\u200e", "")        # the file wraps right-to-left characters in LRMs for display
    graph = {bare(k): [bare(x["c"]) for x in v] for k, v in raw.items()}
    out: dict[str, str] = {}
    for char, linked in graph.items():
        if len(char) != 1 or len(linked) != 1:
            continue                          # a prototype (many sources) maps to itself
        target = linked[0]
        back = graph.get(target, [])
        if len(back) > 1 or target < char:
            out[char] = target
    return out


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text) if ch not in (ZWJ, ZWNJ))
    return unicodedata.normalize("NFD", mapped)


def skeleton(text: str) -> str:
    """UTS #39's skeleton of a name, then case-folded and taken again: equal keys look alike in some case
    ("OIga" with a capital i is "Olga"; "ОLGA" in Cyrillic capitals is "olga")."""
    return _skeleton(_skeleton(tidy(text)).casefold()).replace(" ", "")


def lookalike(name: str, others: Iterable[str], key=None) -> str | None:
    """The first of `others` that looks like `name` without being the same name (same `key`, when given:
    the exact same-name check answers that one)."""
    mine = skeleton(name)
    own_key = key(name) if key else name
    for other in others:
        if skeleton(other) == mine and (key(other) if key else other) != own_key:
            return other
    return None
