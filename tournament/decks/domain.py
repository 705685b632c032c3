"""Decklists as plain data: what the parser produces and the checks read."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

SECTIONS = ("commander", "main", "sideboard", "companion", "scheme", "dungeon", "maybeboard")


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a decklist that names a card.

    `name` is the card name as written, cleaned of counts, set codes and
    markers; `line` is 1-based in the submitted text.
    """
    count: int
    name: str
    line: int
    section: str
    raw: str = ""


@dataclass(frozen=True, slots=True)
class UnparsedLine:
    line: int
    text: str
    reason: str
    why: Text | None = None        # the reason as a translatable message (reason == str(why))


@dataclass(frozen=True, slots=True)
class ReadNote:
    """How the reader took part of a line that is not a card, for a warning: `kind` is "note" (words after a
    card: "1 Sol Ring - ramp"), "header" (a category heading: "Removal") or "encoding" (the file was read as
    Windows-1252; `text` names the encoding)."""
    line: int | None
    kind: str
    text: str


@dataclass(slots=True)
class ParsedDeck:
    commanders: list[Entry] = field(default_factory=list)
    main: list[Entry] = field(default_factory=list)
    sideboard: list[Entry] = field(default_factory=list)
    companions: list[Entry] = field(default_factory=list)
    schemes: list[Entry] = field(default_factory=list)
    dungeons: list[Entry] = field(default_factory=list)
    ignored: list[Entry] = field(default_factory=list)      # maybeboard
    unparsed: list[UnparsedLine] = field(default_factory=list)
    notes: list[ReadNote] = field(default_factory=list)
    # line -> (the name to read instead, or None for a category heading; the words left out) when the line's
    # whole name is no card: "1 Sol Ring // ramp" is Sol Ring unless "Sol Ring // ramp" is a (split) card,
    # and a bare "Removal" above a group is a heading unless a card is named so. Only the card data can tell.
    fallbacks: dict[int, tuple[str | None, str]] = field(default_factory=dict)

    def entries(self):
        """Every entry that names a card the deck owns (maybeboard excluded)."""
        return [*self.commanders, *self.main, *self.sideboard, *self.companions, *self.schemes]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem with a deck, worded for the player who submitted it.

    `message` is the English sentence; `template` and `params` are what it was made from
    (message == template % params, with the player's spelling put beside the card when `written` is set),
    so tournament/decks/messages.py can word it again in the reader's language. A plural message also
    has `forms`, its (singular, plural) pair chosen by params["num"]."""
    code: str
    severity: str          # "error" makes the deck illegal; "warning" does not
    message: str
    card: str | None = None
    line: int | None = None
    suggestions: tuple[str, ...] = ()
    written: str | None = None     # the card as the player wrote it, when in another language
    template: str | None = None
    params: Mapping | None = None
    forms: tuple[str, str] | None = None

    @classmethod
    def of(cls, code: str, severity: str, text: Text, **fields) -> Finding:
        """A finding worded by a Text."""
        return cls(code, severity, str(text), template=text.template, params=text.params, forms=text.forms,
                   **fields)

    def to_json(self) -> dict:
        out = {"code": self.code, "severity": self.severity, "card": self.card, "line": self.line,
               "message": self.message, "suggestions": list(self.suggestions), "written": self.written,
               "template": self.template,
               "params": None if self.params is None else {k: json_value(v) for k, v in self.params.items()}}
        if self.forms:
            out["forms"] = list(self.forms)
        return out


class DeckInputError(ValueError):
    """The submission cannot be read at all (empty, binary, too large). `text`, when given, is the message
    as a Text, for the reader's language."""

    def __init__(self, message, text: Text | None = None):
        super().__init__(str(message))
        self.text = text if text is not None else (message if isinstance(message, Text) else None)


# ---------------------------------------------------------------- messages for the reader's language

def N_(text: str) -> str:
    """Marks an English message template for the extractor (scripts/translations.py); it is translated where
    it is shown (tournament/decks/messages.py), not here: this package does not import Flask."""
    return text


def _n(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural message (singular, plural), chosen by the parameter `num`."""
    return singular, plural


class Text(str):
    """An English sentence or phrase that remembers the template and parameters it was made from.

    Text(N_("%(card)s is banned under %(ruleset)s."), card=..., ruleset=...) is the English string, so it
    can stand wherever a string did (messages, joins, JSON); a parameter that is itself words is a Text too,
    and is worded again with the sentence. `Text(_n(singular, plural), num=n, ...)` picks by n.
    """

    def __new__(cls, template, /, **params):
        forms = None
        if isinstance(template, tuple):
            forms = template
            template = forms[0] if params["num"] == 1 else forms[1]
        self = super().__new__(cls, template % params if params else template)
        self.template, self.params, self.forms = template, params, forms
        return self

    def to_json(self) -> dict:
        out = {"template": self.template}
        if self.params:
            out["params"] = {k: json_value(v) for k, v in self.params.items()}
        if self.forms:
            out["forms"] = list(self.forms)
        return out


# How each kind of list is joined in English: "and" as in "white, blue and green", "clauses" for predicates
# of one subject ("is a Swamp: black, and has {R} ..."), "comma"/"semicolon" for shown names (with "…" when
# there are more), "plus" for the two cards of a combo, "words" for type words ("legendary artifact") and
# "types" for basic land types ("Swamp Mountain").
_JOINS = {"clauses": ", and ", "comma": ", ", "semicolon": "; ", "plus": " + ", "words": " ", "types": " "}


def english_list(items: list[str], style: str, more: bool = False) -> str:
    if style == "and":
        text = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    else:
        text = _JOINS[style].join(items)
    return (text + _JOINS[style].rstrip() + " …") if more else text


class TextList(str):
    """Items (names, numbers or Texts) joined as a list, in English and again in the reader's language."""

    def __new__(cls, items: Iterable, style: str = "and", more: bool = False):
        items = list(items)
        self = super().__new__(cls, english_list([str(i) for i in items], style, more))
        self.items, self.style, self.more = items, style, more
        return self

    def to_json(self) -> dict:
        out = {"list": [json_value(i) for i in self.items]}
        if self.style != "and":
            out["style"] = self.style
        if self.more:
            out["more"] = True
        return out


class Number(str):
    """A count shown with thousands separators ("2,000")."""

    def __new__(cls, value: int):
        self = super().__new__(cls, f"{value:,}")
        self.value = value
        return self

    def to_json(self) -> dict:
        return {"number": self.value}


def json_value(value):
    """A message parameter as plain JSON: Texts, lists and numbers as dicts, the rest as it is."""
    if isinstance(value, (Text, TextList, Number)):
        return value.to_json()
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return value
