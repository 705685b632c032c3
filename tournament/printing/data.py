"""What each document prints, as plain data: no Flask, no database.

tournament.printing.operations builds these from the database; the benchmark
and tests build them by hand. The words a document prints are messages
(marked with N_() or written as self._("...") in documents.py and base.py);
`DocInfo.words` translates them: flask_babel's gettext under the document's
language when operations builds the data, English when the data is built by hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable


def N_(message: str) -> str:
    """Marks a message for the catalogs (scripts/translations.py); it is translated where it is printed."""
    return message


def english(message: str, /, **values) -> str:
    """gettext without a catalog: the message itself, its %(name)s placeholders filled in."""
    return message % values if values else message


def english_plural(singular: str, plural: str, num: int, /, **values) -> str:
    """ngettext without a catalog (English: one and other); %(num)d is the count."""
    values.setdefault("num", num)
    return (singular if num == 1 else plural) % values


@dataclass(frozen=True)
class Words:
    """A printout's language: how its messages are translated and its numbers written.

    operations.build_document passes flask_babel's gettext / ngettext and renders under
    force_locale(language); built by hand, a document prints English."""
    language: str = "en"                                   # en, ja, zh_Hans, cs
    gettext: Callable[..., str] = english                  # gettext(message, **values)
    ngettext: Callable[..., str] = english_plural          # ngettext(singular, plural, num, **values)
    number: Callable[[object], str] | None = None          # a point total or tiebreaker; None: base.number_text


@dataclass(frozen=True)
class DocInfo:
    """What every page's header and footer carry."""
    event_name: str
    paper_size: str = "A4"                 # "A4" or "Letter"
    round_number: int | None = None
    printed_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    stage: str = ""                        # "top8" ... shown next to the round
    zone: str = "UTC"                      # the event's time zone: the "Printed" stamp is on its clock
    words: Words = field(default_factory=Words)
    printed_text: str = ""                 # the time of printing in the document's language ("": as printed_at)
    stage_label: str = ""                  # the stage in the document's language ("": the stage as it is)


@dataclass(frozen=True)
class SeatLine:
    seat: int
    name: str
    player_id: int = 0


@dataclass(frozen=True)
class TableLine:
    number: int
    kind: str                              # "pod", "match" or "bye"
    seats: tuple[SeatLine, ...]
    extra_minutes: int = 0                 # the table's time extension


@dataclass(frozen=True)
class PairingsData:
    info: DocInfo
    mode: str                              # "pods" or "duel"
    tables: tuple[TableLine, ...]
    stage_note: str = ""                   # a pod top cut's stage: who waits, who plays


@dataclass(frozen=True)
class StandingLine:
    rank: int
    name: str
    points: float
    tiebreakers: dict
    record: str
    votes: int = 0


@dataclass(frozen=True)
class StandingsData:
    info: DocInfo
    profile_name: str
    columns: tuple[str, ...]               # tiebreaker names, in the profile's order
    uses_votes: bool
    rows: tuple[StandingLine, ...]
    after_round: int | None = None
    column_names: tuple[str, ...] = ()     # the columns' headings in the document's language (): the names
    legend: tuple[tuple[str, str], ...] = ()   # (heading, what it means and its formula) per tiebreaker column
    winner: str = ""                       # the top cut's winner (the final's), once the final has a result


@dataclass(frozen=True)
class PrizeCondition:
    id: str
    name: str
    kind: str = "max"                      # max, min, sum, count


@dataclass(frozen=True)
class SlipsData:
    info: DocInfo
    mode: str
    tables: tuple[TableLine, ...]
    prize_conditions: tuple[PrizeCondition, ...] = ()
    uses_votes: bool = True
    best_of: int = 3


@dataclass(frozen=True)
class PrizeSlip:
    title: str                             # "1st place" / a prize condition's name
    name: str                              # the winner
    detail: str = ""                       # "12 points" / "value 27"


@dataclass(frozen=True)
class PrizeSlipsData:
    info: DocInfo
    slips: tuple[PrizeSlip, ...]


@dataclass(frozen=True)
class CardLine:
    count: int
    name: str


@dataclass(frozen=True)
class DeckSheet:
    player: str
    ruleset_name: str
    status: str                            # "legal", "illegal" or "missing"
    generals: tuple[str, ...] = ()
    main: tuple[tuple[str, tuple[CardLine, ...]], ...] = ()      # (type, cards) groups in print order
    sideboard: tuple[CardLine, ...] = ()
    summary: str = ""
    findings: tuple[tuple[str, str], ...] = ()                    # (severity, message)
    submitted: str = ""
    main_count: int = 0
    sideboard_count: int = 0


@dataclass(frozen=True)
class DecklistsData:
    info: DocInfo
    sheets: tuple[DeckSheet, ...]


@dataclass(frozen=True)
class DeckCheckLine:
    name: str
    status: str
    generals: str
    errors: int
    warnings: int
    summary: str


@dataclass(frozen=True)
class DeckCheckData:
    info: DocInfo
    ruleset_name: str
    rows: tuple[DeckCheckLine, ...]


@dataclass(frozen=True)
class RulesData:
    info: DocInfo
    ruleset_name: str
    ruleset_source: str
    deck_rules: tuple[str, ...]
    game_rules: tuple[str, ...]            # mulligan, life and general damage, tax, poison ...
    swap_rule: str
    banlist: tuple[str, ...]
    banlist_added: tuple[str, ...] = ()
    banlist_removed: tuple[str, ...] = ()
    banlist_note: str = ""                 # e.g. the card data's Commander banlist
    banned_as_general: tuple[str, ...] = ()
    scoring_name: str = ""
    scoring_rules: tuple[str, ...] = ()
    prize_conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class PosterData:
    """The wall poster: the event's page as a QR code, for players to register and find their table."""
    info: DocInfo
    url: str
    venue: str = ""


@dataclass(frozen=True)
class Receipt:
    name: str
    code: str
    url: str


@dataclass(frozen=True)
class ReceiptsData:
    """Every player's receipt at once: name, access code and the QR code of their page."""
    info: DocInfo
    receipts: tuple[Receipt, ...]
