"""Decklists as plain data: what the parser produces and the checks read."""
from __future__ import annotations

from dataclasses import dataclass, field

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

    def entries(self):
        """Every entry that names a card the deck owns (maybeboard excluded)."""
        return [*self.commanders, *self.main, *self.sideboard, *self.companions, *self.schemes]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem with a deck, worded for the player who submitted it."""
    code: str
    severity: str          # "error" makes the deck illegal; "warning" does not
    message: str
    card: str | None = None
    line: int | None = None
    suggestions: tuple[str, ...] = ()
    written: str | None = None     # the card as the player wrote it, when in another language

    def to_json(self) -> dict:
        return {"code": self.code, "severity": self.severity, "card": self.card, "line": self.line,
                "message": self.message, "suggestions": list(self.suggestions), "written": self.written}


class DeckInputError(ValueError):
    """The submission cannot be read at all (empty, binary, too large)."""
