"""Web forms for events, registrations, decklists and the check-in desk.

The forms check the shape of the input (types, lengths, choices) so every
field's problem shows next to it at once; the operations still decide what
is allowed and their refusals are mapped back onto these fields.
"""
from __future__ import annotations

from zoneinfo import ZoneInfo

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField, DateField, DateTimeLocalField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError

from ..decks.rulesets import list_rulesets
from ..scoring import default_prize_conditions
from ..scoring.draws import end_of_round_procedures
from ..timezones import local, machine_zone, valid_zone, zone_names
from .models import MODES, PAPER_SIZES, SCORING_PROFILES, STATUSES, VARIANTS

MODE_LABELS = {"pods": "Pods (multiplayer)", "duel": "Duel (1v1, best of three)"}
STATUS_LABELS = {"registration": "Registration open", "running": "Running", "finished": "Finished"}
SCORING_LABELS = {"democratic": "Democratic (votes)", "survival": "Survival", "cedh": "cEDH (win/draw)",
                  "mtr": "MTR (match points)"}
VARIANT_LABELS = {"none": "None (normal Commander)", "archenemy": "Archenemy (one archenemy per pod against a team)",
                  "supervillain_rumble": "Supervillain Rumble (every player an archenemy)"}
LEFTOVER_LABELS = {"threes": "Pods of 3 (everyone plays)", "fives": "Pods of 5 (everyone plays)",
                   "byes": "Byes for the players left over"}
PRIZE_KIND_WORDS = {"max": "highest", "min": "lowest", "sum": "total", "count": "count"}
PRIZE_WORDS = {v: k for k, v in PRIZE_KIND_WORDS.items()} | {k: k for k in PRIZE_KIND_WORDS}
ROUNDS_MESSAGE = "The number of rounds must be a whole number from 1 to 30, or empty to decide as you go."
BYE_MESSAGE = "Points for a bye must be a whole number from 0 to 100, or empty for the scoring profile's."
MAX_DECKLIST_CHARS = 1_000_000


class ChoiceField(SelectField):
    """A select whose refusal names the allowed values."""

    def pre_validate(self, form):
        choices = [c if isinstance(c, SelectChoice) else SelectChoice(*c) for c in self.choices or ()]
        if self.data not in {c.value for c in choices}:
            allowed = ", ".join(c.label for c in choices if c.value != "") or "none"
            raise ValidationError(f"Choose one of: {allowed}.")


class ZoneField(SelectField):
    """The event's time zone, one of the IANA names (some 600: the refusal names none of them)."""

    def pre_validate(self, form):
        if not valid_zone(self.data):
            raise ValidationError("Unknown time zone: choose one like Europe/Prague, Asia/Tokyo or UTC.")


TURNS_MESSAGE = "The turns at time must be a whole number from 1 to 30, or empty."
BRACKET_CHOICES = [("", "—"), ("1", "1 Exhibition"), ("2", "2 Core"), ("3", "3 Upgraded"), ("4", "4 Optimized"),
                   ("5", "5 cEDH")]


def options(pairs) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def whole_number(label: str, lo: int, hi: int, default: int) -> IntegerField:
    message = f"{label} must be a whole number from {lo} to {hi}."
    return IntegerField(label, default=default, invalid_value_message=message,
                        validators=[InputRequired(message), NumberRange(lo, hi, message)])


def text(label: str, max_len: int, required: bool = False, **kw) -> StringField:
    validators = [Length(max=max_len, message=f"{label} may be at most {max_len} characters.")]
    if required:
        validators.insert(0, DataRequired(f"{label} is required."))
    return StringField(label, validators=validators, **kw)


class EventForm(FlaskForm):
    name = text("The event name", 200, required=True)
    date = DateField("Date", validators=[Optional()], invalid_value_message="The date must look like 2026-12-05.")
    venue = text("The venue", 200)
    ruleset = ChoiceField("Ruleset")
    banlist_add = TextAreaField("Cards added to the banlist (one per line)",
                                validators=[Length(max=100_000, message="The banlist additions are too long.")])
    banlist_remove = TextAreaField("Cards taken off the banlist (one per line)",
                                   validators=[Length(max=100_000, message="The banlist removals are too long.")])
    mode = ChoiceField("Mode", choices=options((m, MODE_LABELS[m]) for m in MODES))
    pod_size = whole_number("The pod size", 3, 5, 4)
    sideboard_enabled = BooleanField("Sideboards allowed", default=True)
    swap_seconds = whole_number("The swap window (seconds)", 0, 3600, 180)
    scoring_profile = ChoiceField("Scoring profile")
    round_minutes = whole_number("The round length (minutes)", 10, 600, 90)
    decklist_deadline = DateTimeLocalField(
        "Decklist deadline", validators=[Optional()],
        format=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
        invalid_value_message="The decklist deadline must look like 2026-12-05T10:00 (the event's time zone).")
    timezone = ZoneField("Time zone")
    max_bracket = ChoiceField("Highest Commander bracket allowed", choices=options(
        [("", "any")] + BRACKET_CHOICES[1:]), default="")
    planned_rounds = IntegerField("Number of rounds", validators=[Optional(), NumberRange(1, 30, ROUNDS_MESSAGE)],
                                  invalid_value_message=ROUNDS_MESSAGE)
    paper_size = ChoiceField("Paper size", choices=options((p, p) for p in PAPER_SIZES))
    status = ChoiceField("Status", choices=options((s, STATUS_LABELS[s]) for s in STATUSES), default="registration")
    variant = ChoiceField("Variant", choices=options((v, VARIANT_LABELS[v]) for v in VARIANTS), default="none")
    archenemy_win_points = whole_number("Archenemy win points", 0, 100, 3)
    team_win_points = whole_number("Team win points", 0, 100, 1)
    leftover_policy = ChoiceField("When the players do not divide into full pods", default="threes",
                                  choices=options((p, LEFTOVER_LABELS[p]) for p in LEFTOVER_LABELS))
    top_cut = ChoiceField("Top cut", coerce=int, default=0, choices=options(
        [(0, "No top cut"), (4, "Top 4"), (7, "Top 7 (pods)"), (8, "Top 8 (1v1)"), (10, "Top 10 (pods)"),
         (13, "Top 13 (pods)"), (16, "Top 16 (pods)"), (40, "Top 40 (pods)")]))
    cut_seating = ChoiceField("Seats in a pod top cut", default="seed", choices=options(
        [("seed", "Assigned by seed (the best seed in seat 1)"), ("choice", "Chosen in seed order")]))
    bye_points = IntegerField("Points for a bye", validators=[Optional(), NumberRange(0, 100, BYE_MESSAGE)],
                              invalid_value_message=BYE_MESSAGE)
    hide_votes = BooleanField("Hide a table's votes until all its players have voted", default=True)
    bracket_pods = BooleanField("Seat pods within the brackets players declared", default=False)
    end_of_round = ChoiceField("When time is called (pods)", default="finish_turn", choices=options(
        (k, v["name"]) for k, v in end_of_round_procedures().items()))
    end_of_round_turns = IntegerField("Turns for “a few more turns” or the turn limit",
                                      validators=[Optional(), NumberRange(1, 30, TURNS_MESSAGE)],
                                      invalid_value_message=TURNS_MESSAGE)
    intentional_draws = BooleanField("Intentional draws allowed", default=True)
    publish_decklists = BooleanField("Publish every decklist when the event has finished", default=False)
    prize_conditions = TextAreaField("Alternate prizes", validators=[Length(max=20_000, message="The prize list is too long.")])

    def __init__(self, *args, new: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset.choices = options((r.id, r.name) for r in list_rulesets())
        scoring = [(p, SCORING_LABELS.get(p, p)) for p in SCORING_PROFILES]
        if new:
            scoring.insert(0, ("", "The mode's default (democratic for pods, MTR for duel)"))
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
                raise ValidationError(f"Line {n}: “{kind.strip()}” is not how a prize is won: write highest, "
                                      f"lowest, total or count after the |.")

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

    def settings(self) -> dict:
        """The settings as plain values for create_event / update_event."""
        data = {name: getattr(self, name).data for name in SETTINGS}
        data["venue"] = data["venue"] or ""
        data["banlist_add"] = (data["banlist_add"] or "").splitlines()
        data["banlist_remove"] = (data["banlist_remove"] or "").splitlines()
        data["prize_conditions"] = prize_lines(data["prize_conditions"] or "")
        data["max_bracket"] = int(data["max_bracket"]) if data["max_bracket"] else None
        if data["decklist_deadline"] is not None and valid_zone(data["timezone"]):
            data["decklist_deadline"] = data["decklist_deadline"].replace(tzinfo=ZoneInfo(data["timezone"]))
        if self.new and not data["scoring_profile"]:
            del data["scoring_profile"]
        return data


SETTINGS = ("name", "date", "venue", "ruleset", "banlist_add", "banlist_remove", "mode", "pod_size",
            "sideboard_enabled", "swap_seconds", "scoring_profile", "round_minutes", "decklist_deadline",
            "paper_size", "status", "variant", "archenemy_win_points", "team_win_points", "leftover_policy",
            "top_cut", "bye_points", "hide_votes", "prize_conditions", "publish_decklists", "timezone", "planned_rounds",
            "max_bracket", "bracket_pods", "cut_seating", "end_of_round", "end_of_round_turns", "intentional_draws")


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


class CopyEventForm(FlaskForm):
    name = text("The new event's name", 200)


class RegistrationForm(FlaskForm):
    name = text("Your name", 100, required=True)
    contact = text("Contact (e-mail or phone, optional)", 200)
    player_id = text("Player ID (optional)", 40)
    decklist = TextAreaField("Decklist (paste it, optional)", validators=[
        Length(max=MAX_DECKLIST_CHARS, message="The decklist is too long; the limit is 1 MB. Paste only the deck.")])
    upload = FileField("…or upload a decklist file (.txt, .dek, .csv)")
    declared_bracket = ChoiceField("Your deck's Commander bracket (optional)", choices=options(BRACKET_CHOICES),
                                   default="")
    back = StringField()   # desk or dashboard, for staff late registrations
    same_name_ok = BooleanField("This is a different person with the same name")

    def player_data(self) -> dict:
        data = {"name": self.name.data, "contact": self.contact.data or "", "player_id": self.player_id.data or "",
                "same_name_ok": bool(self.same_name_ok.data),
                "declared_bracket": int(self.declared_bracket.data) if self.declared_bracket.data else None}
        if self.decklist.data and self.decklist.data.strip() and not uploaded(self.upload):
            data["decklist"] = self.decklist.data
        return data


class DecklistForm(FlaskForm):
    decklist = TextAreaField("Paste your decklist", validators=[
        Length(max=MAX_DECKLIST_CHARS, message="The decklist is too long; the limit is 1 MB. Paste only the deck.")])
    upload = FileField("…or upload a file (.txt, .dek, .csv)")

    def validate_decklist(self, field):
        if not (field.data or "").strip() and not uploaded(self.upload):
            raise ValidationError("Paste your decklist or choose a file to upload.")


class ActionForm(FlaskForm):
    """Check in, drop and their undo: the button itself is the input (and the CSRF token)."""
    q = StringField()


class NotesForm(FlaskForm):
    notes = TextAreaField("Notes", validators=[Length(max=5000, message="Notes may be at most 5000 characters.")])
    q = StringField()


STAFF_ROLE_LABELS = {"judge": "Judge (desk, rounds, results)", "organizer": "Co-organizer (also settings and staff)"}


class StaffForm(FlaskForm):
    name = StringField("Account name", validators=[DataRequired(message="Type the staff account's name."),
                                                   Length(max=80)])
    role = SelectField("Role", choices=options(STAFF_ROLE_LABELS.items()), default="judge")


def uploaded(field) -> bool:
    """A file was chosen (browsers send an empty, nameless part when none was)."""
    f = field.data
    return bool(f is not None and getattr(f, "filename", None))
