"""Event, registration and decklist inputs, each declared once: bounds, choices, messages and descriptions.

The API parses bodies with these models (tournament.web.api.operation), the operations validate with them
(clean_event_fields), the web forms read their bounds from them (tournament.events.forms) and the OpenAPI
document is generated from them. Each field's checker refuses with the sentence the pages and the API show
(a tournament.errors.Refused, which pydantic lets through untouched), then pydantic checks the declared
bounds, which are also the JSON Schema's.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import date as Date, datetime, timezone
from typing import Annotated, Any, ClassVar, Literal

import pydantic
from flask_babel import gettext as _, lazy_gettext as _l
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic.json_schema import WithJsonSchema

from ..cards.names import name_key
from ..decks.rulesets import UnknownRuleset, get_ruleset, list_rulesets
from ..errors import Refused
from ..i18n import LANGUAGES, message_text
from ..rounds.pairing.cut import CUT_DEAL, CUT_DRAW, CUT_SEATING, CUT_TOP40, POD_CUTS
from ..rounds.pairing.pods import ODD_PODS
from ..rounds.pairing.domain import LEFTOVER_POLICIES
from ..scoring import get_profile
from ..scoring.draws import END_OF_ROUND
from ..timezones import valid_zone, zone_names
from . import names
from .models import (BYE_POINTS, ENTRY_FEE_LENGTH, EVENT_NAME_LENGTH, MODES, PAPER_SIZES, PLANNED_ROUNDS, PLAYER_CAP,
                     POD_SIZES, ROUND_MINUTES, SCORING_PROFILES, SIDEBOARD_MINUTES, STATUSES, SWAP_SECONDS, VARIANTS,
                     VENUE_LENGTH)

DUEL_CUTS = (4, 8)
TOP_CUTS = (0, *sorted({*DUEL_CUTS, *POD_CUTS}))
MAX_PRIZE_CONDITIONS = 20
PRIZE_KINDS = ("max", "min", "sum", "count")
MAX_BANLIST_EDITS = 500
CARD_NAME_LENGTH = 200
DEADLINE_YEARS = (2000, 2999)
TURNS = (1, 30)
POINTS = (0, 100)
BRACKETS = (1, 5)
NOTES_LENGTH = 5000

# Text as the server reads it (clean_text): trimmed, any script, no control characters; FILLED: not only spaces.
_NO_CONTROL = "\\u0000-\\u001f\\u007f-\\u009f"
LINE = f"^[^{_NO_CONTROL}]*$"
TEXT = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"          # also tabs and line breaks
FILLED = f"^[^{_NO_CONTROL}]*[^\\s{_NO_CONTROL}][^{_NO_CONTROL}]*$"
_DECK_CONTROL = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f\\ufffd"
DECKLIST_TEXT = f"^[^{_DECK_CONTROL}]*[^\\s{_DECK_CONTROL}][^{_DECK_CONTROL}]*$"   # lines of text, not empty


# ----------------------------------------------------------------- the checkers (each refuses in words)

def clean_text(value, field: str, label: str, max_len: int, required: bool = False) -> str:
    """Trimmed single-line text in any script; control characters and oversize input refused."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise Refused(_("%(label)s must be text.", label=label), field=field)
    value = names.tidy(unicodedata.normalize("NFC", value.strip()))    # no bidi controls, one line
    if not names.readable(value):
        value = ""                      # only blanks, fillers or format characters: nothing anyone could read
    if required and not value:
        raise Refused(_("%(label)s is required.", label=label), field=field)
    if len(value) > max_len:
        raise Refused(_("%(label)s is %(length)s characters; the limit is %(limit)s.", label=label,
                        length=format(len(value), ","), limit=max_len), field=field)
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        raise Refused(_("%(label)s contains control characters; type it again as plain text.", label=label),
                      field=field)
    return value


def _int(value, field: str, label: str, lo: int, hi: int) -> int:
    """A whole number (JSON's 5 or 5.0; never the text "5", true or null) from lo to hi."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise Refused(_("%(label)s must be a whole number from %(lo)s to %(hi)s.", label=label, lo=lo, hi=hi),
                      field=field)
    number = int(value) if abs(value) < 10**12 else lo - 1
    if not lo <= number <= hi or (isinstance(value, float) and value != number):
        raise Refused(_("%(label)s must be a whole number from %(lo)s to %(hi)s.", label=label, lo=lo, hi=hi),
                      field=field)
    return number


def _choice(value, field: str, label: str, choices) -> str:
    if value not in choices:
        raise Refused(_("%(label)s must be one of: %(choices)s.", label=label, choices=", ".join(map(str, choices))),
                      field=field)
    return value


def _bool(value, field: str, label: str) -> bool:
    if isinstance(value, bool):
        return value
    raise Refused(_("%(label)s must be true or false.", label=label), field=field)


def _date(value, field: str) -> Date | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, Date):
        return value
    try:
        return Date.fromisoformat(str(value))
    except ValueError:
        raise Refused(_("The date must look like 2026-12-05."), field=field) from None


def _deadline(value, field: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, datetime):
        try:
            value = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            raise Refused(_("The decklist deadline must look like 2026-12-05T10:00 (UTC, or with an offset)."),
                          field=field) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    try:
        value = value.astimezone(timezone.utc)
    except OverflowError:
        value = None
    if value is None or not DEADLINE_YEARS[0] <= value.year <= DEADLINE_YEARS[1]:
        # a year like 9999 is a typo, and it would not fit the event's clock once shifted into its time zone
        raise Refused(_("The decklist deadline must fall between the years %(first)s and %(last)s.",
                        first=DEADLINE_YEARS[0], last=DEADLINE_YEARS[1]), field=field)
    return value


def _names(value, field: str, label: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise Refused(_("%(label)s must be a list of card names.", label=label), field=field)
    names = [clean_text(v, field, label, CARD_NAME_LENGTH) for v in value]
    names = list(dict.fromkeys(n for n in names if n))
    if len(names) > MAX_BANLIST_EDITS:
        raise Refused(_("%(label)s lists %(count)s cards; the limit is %(limit)s.", label=label, count=len(names),
                        limit=MAX_BANLIST_EDITS), field=field)
    return names


def _zone(value) -> str:
    if not valid_zone(value) or value not in zone_names():
        raise Refused(_("Unknown time zone: use a name like Europe/Prague, Asia/Tokyo or UTC."), field="timezone")
    return value


def _language(value) -> str | None:
    """The event's default language for its public pages and printouts (None: English)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value not in LANGUAGES:
        raise Refused(_("Choose one of the languages listed."), field="language")
    return value


def _prize_conditions(value) -> list[dict]:
    """Organizer-defined alternate prizes: [{"id", "name", "kind"}], kind one of PRIZE_KINDS."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_PRIZE_CONDITIONS:
        raise Refused(_("Prize conditions must be a list of at most %(limit)s.", limit=MAX_PRIZE_CONDITIONS),
                      field="prize_conditions")
    out, seen = [], set()
    for item in value:
        if not isinstance(item, dict):
            raise Refused(_("Each prize condition needs a name."), field="prize_conditions")
        if set(item) - {"id", "name", "kind"}:
            raise Refused(_("A prize condition has an id, a name and a kind, nothing else."), field="prize_conditions")
        name = clean_text(item.get("name"), "prize_conditions", _("A prize condition's name"), 100, required=True)
        cid = clean_text(item.get("id"), "prize_conditions", _("A prize condition's id"), 60)
        cid = cid or name_key(name)[:60] or f"prize{len(out) + 1}"
        kind = item.get("kind", "max")
        if not isinstance(kind, str) or kind not in PRIZE_KINDS:
            raise Refused(_("A prize condition's kind is max (highest value wins), min (lowest), sum (most in "
                            "total) or count (most claims)."), field="prize_conditions")
        if cid in seen:
            raise Refused(_("Two prize conditions are both called %(name)s.", name=name), field="prize_conditions")
        seen.add(cid)
        out.append({"id": cid, "name": name, "kind": kind})
    return out


def _ruleset(value) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise Refused(_("Unknown ruleset. Choose one of: %(rulesets)s.",
                        rulesets=", ".join(r.id for r in list_rulesets())), field="ruleset")
    try:
        return get_ruleset(value).id
    except (UnknownRuleset, TypeError) as e:
        raise Refused(message_text(e.args[0]) if isinstance(e, UnknownRuleset) and e.args else str(e),
                      field="ruleset") from None


# ----------------------------------------------------------------- field declarations

def _checked(check):
    """A BeforeValidator calling `check(value, field_name)`: the field's own refusal, in words."""
    return BeforeValidator(lambda value, info: check(value, info.field_name))


@dataclass(frozen=True)
class Range:
    """A whole-number field's bounds, where the forms read them (bounds())."""
    lo: int
    hi: int


def whole(bounds: tuple[int, int], label, description: str | None = None, null: bool = False):
    """A whole number within `bounds` (the JSON Schema's minimum and maximum, the form's NumberRange)."""
    lo, hi = bounds
    check = (lambda v, f: None if v is None else _int(v, f, str(label), lo, hi)) if null else \
        (lambda v, f: _int(v, f, str(label), lo, hi))
    number = Annotated[int, Field(ge=lo, le=hi)]
    return Annotated[number | None if null else number, _checked(check), Range(lo, hi),
                     Field(description=description)]


def line(max_len: int, label, required: bool = False, null: bool = False, description: str | None = None):
    """One line of text as clean_text reads it: trimmed, any script, no control characters."""
    schema: dict[str, Any] = {"type": ["string", "null"] if null else "string", "maxLength": max_len,
                              "pattern": FILLED if required else LINE}
    if required:
        schema["minLength"] = 1
    if description:
        schema["description"] = description
    kind = str | None if null else str
    return Annotated[kind, _checked(lambda v, f: clean_text(v, f, str(label), max_len, required=required)),
                     Field(max_length=max_len), WithJsonSchema(schema)]


def choice(choices: tuple, label, description: str | None = None):
    return Annotated[Literal[choices], _checked(lambda v, f: _choice(v, f, str(label), choices)),
                     Field(description=description)]


def flag(label, description: str | None = None):
    return Annotated[bool, _checked(lambda v, f: _bool(v, f, str(label))), Field(description=description)]


def bounds(model: type[BaseModel], name: str) -> tuple[int, int]:
    """(minimum, maximum) declared for a whole-number field: what the web form's NumberRange reads."""
    found = next(m for m in model.model_fields[name].metadata if isinstance(m, Range))
    return found.lo, found.hi


def max_length(model: type[BaseModel], name: str) -> int:
    return next(m.max_length for m in model.model_fields[name].metadata if hasattr(m, "max_length"))


def _drop_null_defaults(schema: dict) -> None:
    """Fields that may be left out default to None in Python; the document says they are optional instead."""
    for prop in schema.get("properties", {}).values():
        if prop.get("default", "") is None:
            del prop["default"]


class Body(BaseModel):
    """A JSON body: unknown fields refused in words ("Unknown event field(s): x."), required ones by name."""
    model_config = ConfigDict(extra="forbid", json_schema_extra=_drop_null_defaults)
    what: ClassVar[str] = "body"
    missing: ClassVar[dict[str, Any]] = {}          # field -> the message when it is not sent

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, data):
        if not isinstance(data, dict):
            raise Refused(_("Event settings must be an object of fields.") if cls.what == "event" else
                          "The body must be a JSON object.")
        names = {f.alias or name for name, f in cls.model_fields.items()}
        unknown = sorted(map(str, set(data) - names))
        if unknown:
            fields = ", ".join(unknown)
            if cls.what == "event":
                raise Refused(_("Unknown event field(s): %(fields)s.", fields=fields))
            if cls.what == "registration":
                raise Refused(_("Unknown registration field(s): %(fields)s.", fields=fields))
            raise Refused(f"Unknown {cls.what} field(s): {fields}.", field=unknown[0])
        for name, message in cls.missing.items():
            if name not in data:
                raise Refused(str(message), field=name)
        return data


# ----------------------------------------------------------------- event settings

class PrizeCondition(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_drop_null_defaults)
    id: Annotated[str | None, Field(default=None), WithJsonSchema(
        {"type": ["string", "null"], "maxLength": 60, "pattern": LINE})]
    name: Annotated[str, WithJsonSchema({"type": "string", "maxLength": 100, "minLength": 1, "pattern": FILLED})]
    kind: Literal[PRIZE_KINDS] = "max"


def _rulesets_enum(schema: dict) -> None:
    schema["enum"] = [r.id for r in list_rulesets()]


Name = line(EVENT_NAME_LENGTH, _l("The event name"), required=True, description="Any script; trimmed.")
Ruleset = Annotated[str, _checked(lambda v, f: _ruleset(v)),
                    Field(description="A ruleset id.", json_schema_extra=_rulesets_enum)]
TopCut = Annotated[Literal[TOP_CUTS], _checked(lambda v, f: _choice(_int(v, f, str(_l("The top cut")), 0, 40), f,
                                                                     str(_l("The top cut")), TOP_CUTS)),
                   Field(description="Duel: single elimination after Swiss (4 or 8). Pods: 4, 7, 10, 13, 16 or 40, "
                                     "the top seeds waiting for later stages, a final pod of 4.")]
Zone = Annotated[str, _checked(lambda v, f: _zone(v)), Field(
    description="IANA time zone of the event's pages and printouts (default the server's).",
    json_schema_extra=lambda s: s.update(enum=list(zone_names())))]


EntryFee = Annotated[str | None, _checked(lambda v, f: clean_text(v, f, str(_l("The entry fee")), ENTRY_FEE_LENGTH)
                                          or None),
                     WithJsonSchema({
                         "type": ["string", "null"], "maxLength": ENTRY_FEE_LENGTH, "pattern": LINE,
                         "description": "A note shown at the desk and on the registration page (\"€10, cash or "
                                        "card\"); null or empty: none."})]


# The scoring profiles by their names, as the pages, the rules sheet and the standings call them.
PROFILE_NAMES = "Scoring profile: " + "; ".join(f"{p}: {get_profile(p).name}" for p in SCORING_PROFILES) + "."


class EventSettings(Body):
    """Every setting of an event; only the fields sent are read (PATCH changes only those)."""
    what: ClassVar[str] = "event"

    name: Name = None
    date: Annotated[Date | None, _checked(_date), Field(description="YYYY-MM-DD")] = None
    venue: line(VENUE_LENGTH, _l("The venue"), null=True, description="null: none.") = None
    ruleset: Ruleset = None
    banlist_add: Annotated[list[str] | None, _checked(lambda v, f: _names(v, f, str(_l("Cards added to the banlist")))),
                           WithJsonSchema({"type": ["array", "null"], "items": {
                               "type": "string", "maxLength": CARD_NAME_LENGTH, "pattern": LINE},
                               "description": "Card names; null: none."})] = None
    banlist_remove: Annotated[list[str] | None,
                              _checked(lambda v, f: _names(v, f, str(_l("Cards removed from the banlist")))),
                              WithJsonSchema({"type": ["array", "null"], "items": {
                                  "type": "string", "maxLength": CARD_NAME_LENGTH, "pattern": LINE},
                                  "description": "Card names; null: none."})] = None
    mode: choice(MODES, _l("The mode")) = None
    pod_size: whole(POD_SIZES, _l("The pod size"), "Players per pod (pods mode).") = None
    sideboard_enabled: flag(_l("Sideboards")) = None
    swap_seconds: whole(SWAP_SECONDS, _l("The swap window"), "Seconds of the sideboard swap window.") = None
    sideboard_minutes: whole(SIDEBOARD_MINUTES, _l("Sideboarding between games"),
                             "1v1: minutes of sideboarding before games 2 and 3 (from the previous game's report "
                             "until a player starts the game; default 3).") = None
    scoring_profile: choice(SCORING_PROFILES, _l("The scoring profile"), PROFILE_NAMES) = None
    round_minutes: whole(ROUND_MINUTES, _l("The round length"), "Minutes per round.") = None
    decklist_deadline: Annotated[datetime | None, _checked(_deadline), Field(
        description="ISO 8601; without an offset it is UTC. Between the years 2000 and 2999.")] = None
    paper_size: choice(PAPER_SIZES, _l("The paper size")) = None
    status: choice(STATUSES, _l("The status")) = None
    leftover_policy: choice(LEFTOVER_POLICIES, _l("Leftover players"), "Pods mode: players left over fill tables "
                            "of 3, make pods of 5, or get byes.") = None
    top_cut: TopCut = None
    bye_points: whole(BYE_POINTS, _l("Bye points"), "Points for a bye; null: the scoring profile's.",
                      null=True) = None
    prize_conditions: Annotated[list[PrizeCondition] | None, _checked(lambda v, f: _prize_conditions(v)), Field(
        description="Alternate prize conditions (at most 20, with different names and ids); the seed's four by "
                    "default; null: none.")] = None
    hide_votes: flag(_l("Hiding votes"), "Hide votes from the table until every player there voted.") = None
    publish_decklists: flag(_l("Publishing the decklists"),
                            "Once the event has finished, everyone may see the lists.") = None
    timezone: Zone = None
    planned_rounds: whole(PLANNED_ROUNDS, _l("The number of rounds"),
                          "Shown as \"round 2 of 5\"; null: decided as it goes.", null=True) = None
    player_cap: whole(PLAYER_CAP, _l("The player cap"), "The most players who hold a place; more registrations join "
                      "the waitlist in order and move up when a place frees (a drop before round 1, a higher cap). "
                      "null: no cap. Lower than the players holding a place now: refused (409).", null=True) = None
    entry_fee: EntryFee = None
    variant: choice(VARIANTS, _l("The variant"), "The event's game variant; the table tracker starts games in it "
                    "unless told otherwise (the archenemy and each scheme deck are given at the table: "
                    "tracker_start).") = None
    archenemy_win_points: whole(POINTS, _l("Archenemy win points"), "Archenemy games: the archenemy's points when "
                                "alive at the end with every team member out (default 3).") = None
    team_win_points: whole(POINTS, _l("Team win points"), "Archenemy games: each team member's points, eliminated "
                           "ones too, when the archenemy is out (default 1).") = None
    max_bracket: whole(BRACKETS, _l("The maximum bracket"), "Commander Brackets: a deck whose bracket floor is "
                       "higher is not legal here; null: any bracket.", null=True) = None
    bracket_pods: flag(_l("Pods within brackets"), "Seat pods within the Commander brackets players declared (else "
                       "their deck's floor, else 2).") = None
    cut_seating: choice(CUT_SEATING, _l("Seats in the top cut"),
                        "Seats in a pod top cut: assigned by seed, or chosen in seed order.") = None
    cut_draw: choice(CUT_DRAW, _l("A drawn top cut pod"),
                     "Pod top cut, a drawn pod: table (the highest-ranked player at the table goes on, as the "
                     "multiplayer addendum says; default) or survivor (the best seed among those left).") = None
    cut_deal: choice(CUT_DEAL, _l("Dealing top cut pods"),
                     "Pod top cut: snake (top 16: pod 1 gets seeds 1, 8, 9, 16; default) or straight (1, 5, 9, "
                     "13).") = None
    cut_top40: choice(CUT_TOP40, _l("The shape of a top 40"),
                      "Pod top 40: ten_pods (seeds 1-40 play ten pods, the ten winners a top 10; default) or "
                      "sixteen_wait (EDH_matchmaker's first stage: seeds 1-16 wait while 17-40 play six pods; the "
                      "six winners join the 16 for a top 22: seeds 1-2 wait, five pods; then a top 7 and the "
                      "final). EDH_matchmaker cuts those 22 to a top 16 by standings, which drops the six winners; "
                      "here all 22 go on.") = None
    odd_pods: choice(ODD_PODS, _l("Place of the smaller pods"),
                     "Pods, later rounds: the pods of another size (3-pods among 4s) at low standings (default) or "
                     "high standings.") = None
    end_of_round: choice(END_OF_ROUND, _l("The end-of-round procedure"),
                         "Pods: what happens when time is called (tournament/data/draws.json).") = None
    end_of_round_turns: whole(TURNS, _l("The turns at time"), "Turns for extra_turns (default 5) or turn_limit.",
                              null=True) = None
    intentional_draws: flag(_l("Intentional draws"), "Pods: whether a result may be an intentional draw.") = None
    language: Annotated[Literal[tuple(k for k in LANGUAGES if k != "en") + ("en",)] | None, _checked(
        lambda v, f: _language(v)), Field(description="The default language of the event's public pages and "
                                                      "printouts; null: English. A reader's own choice (switcher, "
                                                      "browser) comes first on pages.")] = None

    def fields(self) -> dict:
        """The settings sent, cleaned (for the Event's columns)."""
        return self.model_dump(exclude_unset=True)


def _required_name_and_ruleset(schema: dict) -> None:
    _drop_null_defaults(schema)
    schema["required"] = ["name", "ruleset"]


TOP_CUT_RULE = ("The top cut must fit the mode: a duel's is 0, 4 or 8 (single elimination), a pod event's 0, 4, 7, "
                "10, 13, 16 or 40; another is refused (400).")


class EventCreate(EventSettings):
    """A new event: name and ruleset required. Unknown fields are refused. Duel events default to mtr scoring."""
    model_config = ConfigDict(json_schema_extra=_required_name_and_ruleset, title="EventCreate")
    missing: ClassVar[dict[str, Any]] = {"name": _l("The name is required."), "ruleset": _l("The ruleset is required.")}


class EventUpdate(EventSettings):
    """Only the fields sent change. A top cut must fit the event's mode (stored or sent): 400 otherwise."""
    model_config = ConfigDict(title="EventUpdate")


EVENT_SETTINGS = tuple(EventSettings.model_fields)


class EventCopy(Body):
    """Optional; the copy is named "NAME (copy)" by default."""
    what: ClassVar[str] = "copy"
    name: Annotated[str | None, _checked(lambda v, f: None if v is None else clean_text(
        v, f, str(_l("The event name")), EVENT_NAME_LENGTH, required=True)), WithJsonSchema({
            "type": ["string", "null"], "maxLength": EVENT_NAME_LENGTH, "minLength": 1, "pattern": FILLED})] = None


# ----------------------------------------------------------------- registrations, notes, decklists

def _text_only(label, field_name: str | None = None):
    def check(value, f):
        if value is not None and not isinstance(value, str):
            raise Refused(_("%(label)s must be text.", label=str(label)), field=field_name or f)
        return value
    return _checked(check)


class RegistrationCreate(Body):
    """A player's registration; the operation (register_player) checks every field in words."""
    what: ClassVar[str] = "registration"
    name: line(100, _l("Your name"), required=True, description="Any script.")
    contact: line(200, _l("The contact"), null=True) = None
    player_id: line(40, _l("The player ID"), null=True, description="Unique within the event.") = None
    declared_bracket: Annotated[Any, WithJsonSchema({
        "type": ["integer", "null"], "minimum": BRACKETS[0], "maximum": BRACKETS[1],
        "description": "The Commander bracket the player declares for the deck."})] = None
    decklist: Annotated[Any, WithJsonSchema({"type": ["string", "null"], "pattern": DECKLIST_TEXT,
                                             "description": "Checked at once; the result is in `deck`."})] = None
    same_name_ok: Annotated[Any, WithJsonSchema({
        "type": "boolean", "description": "A name already registered is refused (409, a double registration or "
                                          "a retry) unless this says it is a different person."})] = None
    missing: ClassVar[dict[str, Any]] = {"name": _l("Your name is required.")}


class Notes(Body):
    """Replace the staff notes; an empty string clears them."""
    what: ClassVar[str] = "notes"
    notes: Annotated[Any, WithJsonSchema({"type": "string", "maxLength": NOTES_LENGTH, "pattern": TEXT})]
    missing: ClassVar[dict[str, Any]] = {"notes": "Send {\"notes\": \"...\"}; an empty string clears the notes."}


class DecklistSubmission(Body):
    what: ClassVar[str] = "decklist"
    decklist: Annotated[Any, WithJsonSchema({
        "type": "string", "pattern": DECKLIST_TEXT,
        "description": "Text, Arena/MTGO export, .dek XML or CSV; at most 1 MB; no control characters besides tabs "
                       "and line breaks."})]
    filename: line(255, "The file name", null=True,
                   description="The uploaded file's name; breaks ties between formats.") = None
    missing: ClassVar[dict[str, Any]] = {"decklist": "Send {\"decklist\": \"...\"} with the list as text."}

    @pydantic.field_validator("decklist", mode="before")
    @classmethod
    def _text(cls, value):
        if not isinstance(value, str):
            raise Refused(_("The decklist must be text."), field="decklist")
        return value


MAX_QUERY = 200
MAX_SEARCH_RESULTS = 100
MAX_OFFSET = 9_999_999


class RegistrationQuery(BaseModel):
    """The check-in desk's search."""
    model_config = ConfigDict(json_schema_extra=_drop_null_defaults)
    q: Annotated[str, Field(max_length=MAX_QUERY, description="Part of a name (any script; case, accents and spaces "
                            "ignored), an access code, or a player ID. Empty: everyone.")] = ""
    limit: Annotated[int, Field(ge=1, le=MAX_SEARCH_RESULTS)] = 30
    offset: Annotated[int, Field(ge=0, le=MAX_OFFSET,
                                 description="Skip this many matches (the previous page's next_offset).")] = 0

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data):
        """Query values are text: plain ASCII digits only (never "1.5", "-1" or "１")."""
        data = dict(data)
        query = data.get("q", "")
        if len(query) > MAX_QUERY:
            raise Refused(f"The search is {len(query):,} characters; at most {MAX_QUERY}.", field="q")
        for name, lo, hi, digits in (("limit", 1, MAX_SEARCH_RESULTS, 3), ("offset", 0, MAX_OFFSET, 7)):
            if name not in data:
                continue
            raw = data[name].strip()
            number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= digits else None
            if number is None or not lo <= number <= hi:
                raise Refused(f"{name} must be a whole number from {lo} to {hi}.", field=name)
            data[name] = number
        return {k: v for k, v in data.items() if k in ("q", "limit", "offset")}


# ----------------------------------------------------------------- corrections at the desk

NAME_LENGTH = 100


class RegistrationRename(Body):
    """A player's name corrected (the desk's most common fix); pages and printouts show it at once, the log keeps
    the old and the new. The same name as another player of the event is refused (409) unless `same_name_ok`."""
    what: ClassVar[str] = "rename"
    name: line(NAME_LENGTH, _l("The name"), required=True, description="Any script; trimmed.")
    same_name_ok: Annotated[bool, _checked(lambda v, f: _bool(v, f, str(_l("The same-name box")))), Field(
        description="Another player of the event has this name and this is a different person.")] = False
    missing: ClassVar[dict[str, Any]] = {"name": _l("Type the player's name.")}


class PublicAddress(Body):
    """The address phones open, for the event's links and QR codes (receipts, the poster); null or "": the address
    the server found when it started. Refused (409) while the server's PUBLIC_URL sets it."""
    what: ClassVar[str] = "address"
    public_url: Annotated[str | None, WithJsonSchema({
        "type": ["string", "null"], "maxLength": 200, "pattern": LINE,
        "description": "http(s)://host[:port], e.g. http://192.168.1.20:5000; not a loopback or unspecified "
                       "address (127.0.0.1, 2130706433, [::1], localhost, 0.0.0.0)."})] = None
    missing: ClassVar[dict[str, Any]] = {"public_url": "Send {\"public_url\": \"http://192.168.1.20:5000\"}."}
