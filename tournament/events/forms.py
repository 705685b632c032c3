"""Web forms for events, registrations, decklists and the check-in desk.

The forms check the shape of the input (types, lengths, choices) so every
field's problem shows next to it at once; the operations still decide what
is allowed and their refusals are mapped back onto these fields.
"""
from __future__ import annotations

from collections.abc import Mapping
from zoneinfo import ZoneInfo

from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField, DateField, DateTimeLocalField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError

from ..decks.rulesets import list_rulesets
from ..scoring import UnknownScoringProfile, default_prize_conditions, get_profile
from ..scoring.draws import end_of_round_procedures
from ..i18n import LANGUAGES, data_text
from ..timezones import local, machine_zone, valid_zone, zone_names
from .models import ENTRY_FEE_LENGTH, MODES, PAPER_SIZES, SCORING_PROFILES, STATUSES, VARIANTS
from .schemas import EVENT_SETTINGS, EventSettings, bounds, max_length

POD_SIZES, SWAP_SECONDS, ROUND_MINUTES, PLANNED_ROUNDS, BYE_POINTS, TURNS, WIN_POINTS, SIDEBOARD_MINUTES = (
    bounds(EventSettings, name) for name in ("pod_size", "swap_seconds", "round_minutes", "planned_rounds",
                                             "bye_points", "end_of_round_turns", "archenemy_win_points",
                                             "sideboard_minutes"))
NAME_LENGTH, VENUE_LENGTH = max_length(EventSettings, "name"), max_length(EventSettings, "venue")
PLAYER_CAP = bounds(EventSettings, "player_cap")

MODE_LABELS = {"pods": _l("Pods (multiplayer)"), "duel": _l("Duel (1v1, best of three)")}
STATUS_LABELS = {"registration": _l("Registration open"), "running": _l("Running"), "finished": _l("Finished")}


class _ProfileNames(Mapping):
    """A scoring profile's name in the reader's language: the profile's own name (tournament/data/scoring/),
    the one the rules sheet, the standings and the API say too."""

    def __getitem__(self, key: str) -> str:
        try:
            return data_text(get_profile(key).name)
        except UnknownScoringProfile:
            raise KeyError(key) from None

    def __iter__(self):
        return iter(SCORING_PROFILES)

    def __len__(self) -> int:
        return len(SCORING_PROFILES)


SCORING_LABELS = _ProfileNames()
VARIANT_LABELS = {"none": _l("None (normal Commander)"),
                  "archenemy": _l("Archenemy (one archenemy per pod against a team)"),
                  "supervillain_rumble": _l("Supervillain Rumble (every player an archenemy)")}
LEFTOVER_LABELS = {"threes": _l("Pods of 3 (everyone plays)"), "fives": _l("Pods of 5 (everyone plays)"),
                   "byes": _l("Byes for the players left over")}
# the words a prize line ends with: typed by organizers and read back by prize_lines, so never translated
PRIZE_KIND_WORDS = {"max": "highest", "min": "lowest", "sum": "total", "count": "count"}
PRIZE_WORDS = {v: k for k, v in PRIZE_KIND_WORDS.items()} | {k: k for k in PRIZE_KIND_WORDS}
# The messages' words are in the catalogs as they stand (the numbers are the declared bounds; a bound changed in
# tournament.events.schemas needs its sentence changed and translated, `scripts/translations.py update`).
ROUNDS_MESSAGE = _l("The number of rounds must be a whole number from 1 to 30, or empty to decide as you go.")
BYE_MESSAGE = _l("Points for a bye must be a whole number from 0 to 100, or empty for the scoring profile's.")
CAP_MESSAGE = _l("The player cap must be a whole number from 1 to 50000, or empty for no cap.")
MAX_DECKLIST_CHARS = 1_000_000
DECKLIST_TOO_LONG = _l("The decklist is too long; the limit is 1 MB. Paste only the deck.")


class ChoiceField(SelectField):
    """A select whose refusal names the allowed values."""

    def pre_validate(self, form):
        choices = [c if isinstance(c, SelectChoice) else SelectChoice(*c) for c in self.choices or ()]
        if self.data not in {c.value for c in choices}:
            allowed = ", ".join(str(c.label) for c in choices if c.value != "") or _("none")
            raise ValidationError(_("Choose one of: %(allowed)s.", allowed=allowed))


class ZoneField(SelectField):
    """The event's time zone, one of the IANA names (some 600: the refusal names none of them)."""

    def pre_validate(self, form):
        if not valid_zone(self.data):
            raise ValidationError(_("Unknown time zone: choose one like Europe/Prague, Asia/Tokyo or UTC."))


TURNS_MESSAGE = _l("The turns at time must be a whole number from 1 to 30, or empty.")
BRACKET_CHOICES = [("", "—"), ("1", _l("1 Exhibition")), ("2", _l("2 Core")), ("3", _l("3 Upgraded")),
                   ("4", _l("4 Optimized")), ("5", _l("5 cEDH"))]


class Form(FlaskForm):
    """A form whose errors are plain text once it has validated: messages given as lazy_gettext (translated
    when shown) become str, so pages escape them like any text and " ".join() and isinstance(e, str) work.
    Its hidden CSRF token carries no id: a page has many forms, and an id may be used once per page."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        token = self._fields.get("csrf_token")
        if token is not None:
            token.id = False            # WTForms leaves an attribute whose value is False out of the markup

    def validate(self, extra_validators=None):
        valid = super().validate(extra_validators)
        for field in self._fields.values():
            if any(not isinstance(e, str) for e in field.errors):
                field.errors = [e if isinstance(e, (str, dict, list, tuple)) else str(e) for e in field.errors]
        return valid


def options(pairs) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def whole_number(label, bounds: tuple[int, int], default: int, message) -> IntegerField:
    """A whole number within the setting's declared bounds (tournament.events.schemas); `message`: the whole
    sentence, e.g. "The pod size must be a whole number from 3 to 5." """
    lo, hi = bounds
    return IntegerField(label, default=default, invalid_value_message=message,
                        validators=[InputRequired(message), NumberRange(lo, hi, message)])


def text(label, max_len: int, too_long, required=None, **kw) -> StringField:
    """`too_long`, `required`: the whole sentences ("Your name may be at most 100 characters.", "Your name is
    required."); no `required`: the field may be empty."""
    validators = [Length(max=max_len, message=too_long)]
    if required is not None:
        validators.insert(0, DataRequired(required))
    return StringField(label, validators=validators, **kw)


class EventForm(Form):
    name = text(_l("The event name"), NAME_LENGTH, _l("The event name may be at most 200 characters."),
                required=_l("The event name is required."))
    date = DateField(_l("Date"), validators=[Optional()],
                     invalid_value_message=_l("The date must look like 2026-12-05."))
    venue = text(_l("The venue"), VENUE_LENGTH, _l("The venue may be at most 200 characters."))
    ruleset = ChoiceField(_l("Ruleset"))
    banlist_add = TextAreaField(_l("Cards added to the banlist (one per line)"),
                                validators=[Length(max=100_000, message=_l("The banlist additions are too long."))])
    banlist_remove = TextAreaField(_l("Cards taken off the banlist (one per line)"),
                                   validators=[Length(max=100_000, message=_l("The banlist removals are too long."))])
    mode = ChoiceField(_l("Mode"), choices=options((m, MODE_LABELS[m]) for m in MODES))
    pod_size = whole_number(_l("The pod size"), POD_SIZES, 4, _l("The pod size must be a whole number from 3 to 5."))
    sideboard_enabled = BooleanField(_l("Sideboards allowed"), default=True)
    swap_seconds = whole_number(_l("The swap window (seconds)"), SWAP_SECONDS, 180,
                                _l("The swap window (seconds) must be a whole number from 0 to 3600."))
    sideboard_minutes = IntegerField(                 # empty: unchanged (a new event: 3)
        _l("Sideboarding between games (minutes)"), default=3,
        invalid_value_message=_l("Sideboarding between games (minutes) must be a whole number from 1 to 60."),
        validators=[Optional(), NumberRange(*SIDEBOARD_MINUTES, _l("Sideboarding between games (minutes) must be a "
                                                                   "whole number from 1 to 60."))])
    scoring_profile = ChoiceField(_l("Scoring profile"))
    round_minutes = whole_number(_l("The round length (minutes)"), ROUND_MINUTES, 90,
                                 _l("The round length (minutes) must be a whole number from 10 to 600."))
    decklist_deadline = DateTimeLocalField(
        _l("Decklist deadline"), validators=[Optional()],
        format=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
        invalid_value_message=_l("The decklist deadline must look like 2026-12-05T10:00 (the event's time zone)."))
    timezone = ZoneField(_l("Time zone"))
    language = ChoiceField(_l("Language of the public pages and printouts"), choices=options(
        [("", _l("English (each reader's own language first)"))] + [(k, v) for k, v in LANGUAGES.items() if k != "en"]),
        default="")
    max_bracket = ChoiceField(_l("Highest Commander bracket allowed"), choices=options(
        [("", _l("any"))] + BRACKET_CHOICES[1:]), default="")
    planned_rounds = IntegerField(_l("Number of rounds"), validators=[Optional(), NumberRange(*PLANNED_ROUNDS, ROUNDS_MESSAGE)],
                                  invalid_value_message=ROUNDS_MESSAGE)
    paper_size = ChoiceField(_l("Paper size"), choices=options((p, p) for p in PAPER_SIZES))
    player_cap = IntegerField(_l("Player cap"), validators=[Optional(), NumberRange(*PLAYER_CAP, CAP_MESSAGE)],
                              invalid_value_message=CAP_MESSAGE)
    entry_fee = text(_l("Entry fee"), ENTRY_FEE_LENGTH, _l("The entry fee may be at most 200 characters."))
    status = ChoiceField(_l("Status"), choices=options((s, STATUS_LABELS[s]) for s in STATUSES),
                         default="registration")
    variant = ChoiceField(_l("Variant"), choices=options((v, VARIANT_LABELS[v]) for v in VARIANTS), default="none")
    archenemy_win_points = whole_number(_l("Archenemy win points"), WIN_POINTS, 3,
                                        _l("Archenemy win points must be a whole number from 0 to 100."))
    team_win_points = whole_number(_l("Team win points"), bounds(EventSettings, "team_win_points"), 1,
                                   _l("Team win points must be a whole number from 0 to 100."))
    leftover_policy = ChoiceField(_l("When the players do not divide into full pods"), default="threes",
                                  choices=options((p, LEFTOVER_LABELS[p]) for p in LEFTOVER_LABELS))
    top_cut = ChoiceField(_l("Top cut"), coerce=int, default=0, choices=options(
        [(0, _l("No top cut")), (4, _l("Top 4")), (7, _l("Top 7 (pods)")), (8, _l("Top 8 (1v1)")),
         (10, _l("Top 10 (pods)")), (13, _l("Top 13 (pods)")), (16, _l("Top 16 (pods)")),
         (40, _l("Top 40 (pods)"))]))
    cut_seating = ChoiceField(_l("Seats in a pod top cut"), default="seed", choices=options(
        [("seed", _l("Assigned by seed (the best seed in seat 1)")), ("choice", _l("Chosen in seed order"))]))
    cut_draw = ChoiceField(_l("A drawn top cut pod"), default="table", choices=options(
        [("table", _l("The highest-ranked player at the table goes on")),
         ("survivor", _l("The best seed among the players left goes on"))]))
    cut_deal = ChoiceField(_l("Dealing top cut pods"), default="snake", choices=options(
        [("snake", _l("Snake (top 16: 1-8-9-16)")), ("straight", _l("Straight (top 16: 1-5-9-13)"))]))
    cut_top40 = ChoiceField(_l("The shape of a top 40"), default="ten_pods", choices=options(
        [("ten_pods", _l("Ten pods, then a top 10")),
         ("sixteen_wait", _l("Seeds 1-16 wait, 17-40 play six pods, then a top 22"))]))
    odd_pods = ChoiceField(_l("Place of the smaller pods"), default="low", choices=options(
        [("low", _l("At the bottom of the standings")), ("high", _l("At the top of the standings"))]))
    bye_points = IntegerField(_l("Points for a bye"), validators=[Optional(), NumberRange(*BYE_POINTS, BYE_MESSAGE)],
                              invalid_value_message=BYE_MESSAGE)
    hide_votes = BooleanField(_l("Hide a table's votes until all its players have voted"), default=True)
    bracket_pods = BooleanField(_l("Seat pods within the brackets players declared"), default=False)
    end_of_round = ChoiceField(_l("When time is called (pods)"), default="finish_turn", choices=options(
        (k, v["name"]) for k, v in end_of_round_procedures().items()))
    end_of_round_turns = IntegerField(_l("Turns for “a few more turns” or the turn limit"),
                                      validators=[Optional(), NumberRange(*TURNS, TURNS_MESSAGE)],
                                      invalid_value_message=TURNS_MESSAGE)
    intentional_draws = BooleanField(_l("Intentional draws allowed"), default=True)
    publish_decklists = BooleanField(_l("Publish every decklist when the event has finished"), default=False)
    prize_conditions = TextAreaField(_l("Alternate prizes"),
                                     validators=[Length(max=20_000, message=_l("The prize list is too long."))])

    # what the page's inputs say (min, max, maxlength): the settings' declared bounds
    BOUNDS = {name: bounds(EventSettings, name) for name in (
        "pod_size", "swap_seconds", "round_minutes", "planned_rounds", "end_of_round_turns", "bye_points",
        "archenemy_win_points", "team_win_points", "sideboard_minutes", "player_cap")}
    MAX_LENGTH = {"name": NAME_LENGTH, "venue": VENUE_LENGTH, "entry_fee": ENTRY_FEE_LENGTH}

    def __init__(self, *args, new: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset.choices = options((r.id, data_text(r.name)) for r in list_rulesets())
        self.end_of_round.choices = options((k, data_text(v["name"])) for k, v in end_of_round_procedures().items())
        scoring = [(p, SCORING_LABELS.get(p, p)) for p in SCORING_PROFILES]
        if new:
            scoring.insert(0, ("", _("The mode's default (democratic for pods, MTR for duel)")))
        self.scoring_profile.choices = options(scoring)
        self.timezone.choices = options((z, z.replace("_", " ")) for z in zone_names())
        self.new = new
        if new and not self.is_submitted():
            self.timezone.data = machine_zone()
        if new and not self.is_submitted():
            self.prize_conditions.data = prize_text(default_prize_conditions())

    def validate_prize_conditions(self, field):
        for n, line in enumerate((field.data or "").splitlines(), 1):
            name, _bar, kind = line.partition("|")
            if kind.strip() and kind.strip().casefold() not in PRIZE_WORDS:
                raise ValidationError(_("Line %(number)s: “%(kind)s” is not how a prize is won: write highest, "
                                        "lowest, total or count after the |.", number=n, kind=kind.strip()))

    def fill(self, event) -> None:
        """Show an event's stored settings (GET of the edit page)."""
        for name in SETTINGS:
            if name not in ("banlist_add", "banlist_remove", "prize_conditions"):
                getattr(self, name).data = getattr(event, name)
        self.bye_points.data = None if event.bye_points is None else int(event.bye_points)
        deadline = local(event.decklist_deadline, event)
        self.decklist_deadline.data = deadline.replace(tzinfo=None) if deadline else None
        self.banlist_add.data = "\n".join(event.banlist_add or [])
        self.banlist_remove.data = "\n".join(event.banlist_remove or [])
        self.prize_conditions.data = prize_text(event.prize_conditions or [])
        self.max_bracket.data = str(event.max_bracket) if event.max_bracket else ""
        self.language.data = event.language or ""

    def settings(self) -> dict:
        """The settings as plain values for create_event / update_event."""
        data = {name: getattr(self, name).data for name in SETTINGS}
        data["venue"] = data["venue"] or ""
        data["entry_fee"] = data["entry_fee"] or None
        data["banlist_add"] = (data["banlist_add"] or "").splitlines()
        data["banlist_remove"] = (data["banlist_remove"] or "").splitlines()
        data["prize_conditions"] = prize_lines(data["prize_conditions"] or "")
        data["max_bracket"] = int(data["max_bracket"]) if data["max_bracket"] else None
        data["language"] = data["language"] or None
        if data["decklist_deadline"] is not None and valid_zone(data["timezone"]):
            data["decklist_deadline"] = data["decklist_deadline"].replace(tzinfo=ZoneInfo(data["timezone"]))
        if self.new and not data["scoring_profile"]:
            del data["scoring_profile"]
        if data["sideboard_minutes"] is None:
            del data["sideboard_minutes"]
        return data


SETTINGS = EVENT_SETTINGS      # the form has a field for every setting the schema declares


def prize_text(conditions: list[dict]) -> str:
    return "\n".join(f"{c['name']} | {PRIZE_KIND_WORDS.get(c.get('kind'), 'highest')}" for c in conditions)


def prize_lines(text: str) -> list[dict]:
    """The form's prize lines ("Most damage in one hit | highest") as the operation's conditions; a line
    without a kind is "highest", an unknown kind is sent on for the operation to refuse in words."""
    out = []
    for line in text.splitlines():
        name, _bar, kind = line.partition("|")
        if name.strip():
            kind = kind.strip().casefold()
            out.append({"name": name.strip(), "kind": PRIZE_WORDS.get(kind, kind) if kind else "max"})
    return out


class CopyEventForm(Form):
    name = text(_l("The new event's name"), 200, _l("The new event's name may be at most 200 characters."))


class RegistrationForm(Form):
    name = text(_l("Your name"), 100, _l("Your name may be at most 100 characters."),
                required=_l("Your name is required."))
    contact = text(_l("Contact (e-mail or phone, optional)"), 200,
                   _l("Contact (e-mail or phone, optional) may be at most 200 characters."))
    player_id = text(_l("Player ID (optional)"), 40, _l("Player ID (optional) may be at most 40 characters."))
    decklist = TextAreaField(_l("Decklist (paste it, optional)"), validators=[
        Length(max=MAX_DECKLIST_CHARS, message=DECKLIST_TOO_LONG)])
    upload = FileField(_l("…or upload a decklist file (.txt, .dek, .csv)"))
    declared_bracket = ChoiceField(_l("Your deck's Commander bracket (optional)"), choices=options(BRACKET_CHOICES),
                                   default="")
    back = StringField()   # desk or dashboard, for staff late registrations
    same_name_ok = BooleanField(_l("This is a different person with the same name"))

    def player_data(self) -> dict:
        data = {"name": self.name.data, "contact": self.contact.data or "", "player_id": self.player_id.data or "",
                "same_name_ok": bool(self.same_name_ok.data),
                "declared_bracket": int(self.declared_bracket.data) if self.declared_bracket.data else None}
        if self.decklist.data and self.decklist.data.strip() and not uploaded(self.upload):
            data["decklist"] = self.decklist.data
        return data


class DecklistForm(Form):
    decklist = TextAreaField(_l("Paste your decklist"), validators=[
        Length(max=MAX_DECKLIST_CHARS, message=DECKLIST_TOO_LONG)])
    upload = FileField(_l("…or upload a file (.txt, .dek, .csv)"))

    def validate_decklist(self, field):
        if not (field.data or "").strip() and not uploaded(self.upload):
            raise ValidationError(_("Paste your decklist or choose a file to upload."))


class ActionForm(Form):
    """Check in, drop and their undo: the button itself is the input (and the CSRF token)."""
    q = StringField()


class NotesForm(Form):
    notes = TextAreaField(_l("Notes"), validators=[Length(max=5000, message=_l("Notes may be at most 5000 characters."))])
    q = StringField()


class RenameForm(Form):
    """The desk corrects a player's name (tournament.events.schemas.RegistrationRename declares it)."""
    name = text(_l("Name"), 100, _l("The name may be at most 100 characters."),
                required=_l("Type the player's name."))
    same_name_ok = BooleanField(_l("This is a different person with the same name"))


class AddressForm(Form):
    """The address phones open (tournament.web.links.clean_address reads it)."""
    public_url = StringField(_l("The address phones open"),
                             validators=[Length(max=200, message=_l("The address may be at most 200 characters."))])


STAFF_ROLE_LABELS = {"judge": _l("Judge (desk, rounds, results)"),
                     "organizer": _l("Co-organizer (also settings and staff)")}


class StaffForm(Form):
    name = StringField(_l("Account name"), validators=[DataRequired(message=_l("Type the staff account's name.")),
                                                       Length(max=80)])
    role = SelectField(_l("Role"), choices=options(STAFF_ROLE_LABELS.items()), default="judge")


def uploaded(field) -> bool:
    """A file was chosen (browsers send an empty, nameless part when none was)."""
    f = field.data
    return bool(f is not None and getattr(f, "filename", None))
