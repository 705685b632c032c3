"""What the API answers, as pydantic models: the OpenAPI document's response schemas (tournament.web.openapi).
The serializers build the plain dicts these describe; tests/api check every response against them."""
from __future__ import annotations

from copy import copy
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import Field, create_model
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from ..web.api import Output

from ..events.models import MODES, STATUSES
from ..events.schemas import EventSettings

Count = Annotated[int, Field(ge=0)]
Color = Literal["W", "U", "B", "R", "G"]


Out = Output


class Health(Out):
    status: Literal["ok"]


class Counters(Out):
    """Check-in desk counters for one event."""
    registered: Count
    checked_in: Count
    dropped: Count
    legal_decks: Count
    illegal_decks: Count
    missing_decks: Count
    waitlisted: Count = Field(description="Players on the waitlist (not counted above).")
    paid: Count = Field(description="Players holding a place whom the desk marked as paid.")


def _required(field: FieldInfo) -> FieldInfo:
    shown = copy(field)
    shown.default = PydanticUndefined
    shown._attributes_set = {k: v for k, v in field._attributes_set.items() if k != "default"}
    return shown


class StructureSuggestion(Out):
    """A row of tournament/data/rounds_by_attendance.json (pods: the cEDH table; 1v1: MTR Appendix E)."""
    basis: Literal["checked_in", "registered"] = Field(description="Counted from the players checked in; before "
                                                                   "anyone is, from those holding a place.")
    players: Count
    rounds: int = Field(ge=1)
    top_cut: Count
    table_row: list[int | None] = Field(description="The row's smallest and largest attendance (null: no limit).")
    source: str


# An event as answered: every setting as EventSettings declares it (required: all are shown), and what is stored.
Event = create_model(
    "Event", __base__=Out,
    id=(int, ...),
    **{name: (field.annotation, _required(field)) for name, field in EventSettings.model_fields.items()},
    decklists_locked=(bool, Field(description="Past the deadline: only staff may change lists.")),
    suggested_structure=(StructureSuggestion | None, Field(
        description="The Swiss rounds and top cut suggested for the attendance (the organizer decides: "
                    "planned_rounds, top_cut); null before anyone registered.")),
    created_at=(datetime, ...),
    counters=(Counters | None, Field(None, description="Only for staff who run the event.")),
)


class EventList(Out):
    events: list[Event]


class EventBrief(Out):
    id: int
    name: str
    date: date | None
    venue: str
    ruleset: str
    mode: Literal[MODES]
    status: Literal[STATUSES]
    decklist_deadline: datetime | None
    decklists_locked: bool


class Finding(Out):
    code: str = Field(description="UNKNOWN_CARD, COLOR_IDENTITY, SINGLETON, ... (see decks/checks.py)")
    severity: Literal["error", "warning"]
    card: str | None
    line: int | None = Field(description="The decklist line the finding is about.")
    message: str
    suggestions: list[str] = Field(description="Did-you-mean card names.")
    written: str | None = Field(None, description="The card as the player wrote it, when in another language "
                                                  "(ゴブリンの長槍使い).")
    template: str | None = Field(None, description="The English message with %(name)s placeholders, the catalogs' "
                                                   "msgid: a client translates it and fills in `params` (`message` is "
                                                   "it filled in, in English).")
    params: dict[str, Any] | None = Field(None, description="The template's values: card names, counts, lines, and "
                                                            "nested translatable phrases as {template, params}.")
    forms: list[str] | None = Field(None, description="A plural message's singular and plural English templates.")


class DeckCheck(Out):
    """The deck check of the latest submitted list; illegal when any finding is an error."""
    legal: bool
    ruleset: str
    commanders: list[str]
    color_identity: list[Color]
    main_count: Count
    sideboard_count: Count
    findings: list[Finding]
    summary: dict[str, Any] = Field(description="Deck size, types, mana curve, sections, banlist edits.")
    bracket: dict[str, Any] | None = Field(None, description="Commander Brackets: floor (1-4), name, reasons, the "
                                           "Game Changers, extra-turn cards, mass land denial cards and two-card "
                                           "combos found, as_of (the lists' date).")
    submitted_at: datetime
    submitted_by: str = Field(description="\"player\" or \"ROLE:NAME\" of the staff member.")


class PlayerLinks(Out):
    page: str | None = Field(description="The player's web page (receipt QR code).")
    api: str = Field(description="GET this with no token for the player's registration.")


class _Registration(Out):
    id: int
    event_id: int
    name: str = Field(description="Exactly as registered (not HTML-escaped).")
    contact: str
    player_id: str | None
    declared_bracket: int | None = Field(description="Commander bracket the player declared.")
    access_code: str = Field(description="The player's credential for /players/{code}.")
    late: bool
    checked_in: bool
    checked_in_at: datetime | None
    dropped: bool
    dropped_at: datetime | None
    deck_status: Literal["missing", "legal", "illegal"]
    waitlisted: bool = Field(description="On the waitlist: no place yet, not paired, cannot check in.")
    waitlist_place: int | None = Field(description="1 for the first player waiting; null when not waiting.")
    promoted_at: datetime | None = Field(description="When the player moved up from the waitlist to a place.")
    paid: bool = Field(description="The desk marked the entry fee paid.")
    paid_at: datetime | None
    created_at: datetime


class RegistrationSummary(_Registration):
    """One row of the check-in desk."""
    notes: str = Field(description="Staff notes.")


class Registration(RegistrationSummary):
    """Everything staff see about one registration, with the latest deck check."""
    links: PlayerLinks
    decklist: str | None = Field(description="The latest submitted list as text.")
    deck: DeckCheck | None


class PlayerRegistration(_Registration):
    """A player's own registration (no staff notes)."""
    links: PlayerLinks
    decklist: str | None = Field(description="The latest submitted list as text.")
    deck: DeckCheck | None
    event: EventBrief


class EventAddress(Out):
    public_url: str | None = Field(description="The address staff set for this event; null: none set.")
    address: str | None = Field(description="The address links and QR codes use now (PUBLIC_URL, else the one "
                                            "set, else the one found at start); null: none is known.")


class RegistrationSearch(Out):
    event_id: int
    query: str
    counters: Counters
    offset: int
    limit: int
    next_offset: int | None = Field(description="The offset of the next page; null on the last page.")
    registrations: list[RegistrationSummary]
