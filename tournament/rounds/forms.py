"""Web forms for rounds: the organizer's buttons, swaps, result entry, and the player's report and vote.

The forms check the shape of the input (whole numbers, known choices, no
gaps); which players may be chosen where is the operations' decision, so a
player id from another table reaches the operation and comes back as its
refusal, with its message and status.
"""
from __future__ import annotations

import json
from functools import lru_cache

from flask import g
from flask_babel import get_locale, gettext as _, lazy_gettext as _l
from markupsafe import Markup
from wtforms import BooleanField, FloatField, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, Regexp, ValidationError
from wtforms.widgets import HiddenInput, Select, html_params

from ..errors import Refused
from ..i18n import data_text
from ..scoring.draws import draw_kinds

from ..events.forms import Form as _Form, options
from ..events.operations import MAX_ID
from .schemas import SEND_KEY_LENGTH, SEND_KEY_PATTERN, LateArrivalIn, MoveIn, bounds
MAX_PRIZE_VALUE = 1_000_000_000
NOT_PLAYED = ""
DRAW = "draw"


def _player_id(value):
    """A player id as posted by a select or checkbox: a positive whole number; empty is None."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 10:
        number = int(value.strip())
    else:
        raise ValueError(_("Choose a player from the list."))
    if not 0 < number <= MAX_ID:
        raise ValueError(_("Choose a player from the list."))
    return number


class SharedOptions(Select):
    """A select whose options are drawn once per request for the same players and choice: the round page's
    seating corrections hold four selects of every seated player (2,000 options each at a big event)."""

    def __call__(self, field, **kwargs):
        kwargs.setdefault("id", field.id)
        flags = getattr(field, "flags", {})
        for k in dir(flags):
            if k in self.validation_attrs and k not in kwargs:
                kwargs[k] = getattr(flags, k)
        drawn = g.setdefault("drawn_options", {})
        key = (tuple(field.choices), field.data)
        if key not in drawn:
            drawn[key] = "".join(self.render_option(choice) for choice in field.iter_choices())
        return Markup(f"<select {html_params(name=field.name, **kwargs)}>{drawn[key]}</select>")


class PlayerField(SelectField):
    """One player, chosen from a select. Membership (at this table, in this round) is the operation's check."""
    widget = SharedOptions()

    def __init__(self, label=None, validators=None, **kwargs):
        super().__init__(label, validators, coerce=_player_id, validate_choice=False, **kwargs)

    def process_formdata(self, valuelist):
        if valuelist:
            try:
                self.data = _player_id(valuelist[0])
            except ValueError as e:
                self.data = None
                raise ValueError(str(e)) from None


class PlayersField(SelectMultipleField):
    """Several players (checkboxes sharing one name)."""

    def __init__(self, label=None, validators=None, **kwargs):
        super().__init__(label, validators, coerce=_player_id, validate_choice=False, **kwargs)

    def process_formdata(self, valuelist):
        try:
            self.data = [v for v in (_player_id(x) for x in valuelist) if v is not None]
        except ValueError as e:
            self.data = []
            raise ValueError(str(e)) from None

    def process_data(self, value):
        self.data = list(value or [])


def _game_value(value):
    """A game's result: a winner's player id, 'draw', or '' (not played)."""
    if value is None or value == NOT_PLAYED:
        return NOT_PLAYED
    if value == DRAW:
        return DRAW
    try:
        return _player_id(value)
    except ValueError:
        raise ValueError(_("Choose the game's winner, a draw, or not played.")) from None


class GameField(SelectField):
    """One game of a match; a game left out of the post is not played."""

    def __init__(self, label=None, validators=None, **kwargs):
        super().__init__(label, validators, coerce=_game_value, validate_choice=False, default=NOT_PLAYED, **kwargs)

    def process_data(self, value):
        self.data = _game_value(value)

    def process_formdata(self, valuelist):
        self.data = NOT_PLAYED
        if valuelist:
            try:
                self.data = _game_value(valuelist[0])
            except ValueError as e:
                self.data = NOT_PLAYED
                raise ValueError(str(e)) from None


OUT_OF_DATE = _l("This form is out of date: reload the page and try again.")


def _hidden_number(label) -> IntegerField:
    message = OUT_OF_DATE
    return IntegerField(label, widget=HiddenInput(), invalid_value_message=message,
                        validators=[InputRequired(message), NumberRange(1, MAX_ID, message)])


def _hidden_revision(required: bool = True) -> IntegerField:
    """The result revision the player saw: a confirmation of something else is refused."""
    message = OUT_OF_DATE
    return IntegerField(_l("Revision"), widget=HiddenInput(), invalid_value_message=message,
                        validators=[InputRequired(message) if required else Optional(),
                                    NumberRange(0, MAX_ID, message)])


def _send_key() -> StringField:
    """The key a phone sends with a report or vote it kept while offline (PlayerResultIn.send_key's bounds):
    the same key again is the same write. Empty (a page without scripts): no key. The pattern ends at the very end
    (Python's "$" would also take a key with a newline after it, which the API's pattern refuses)."""
    return StringField(_l("Send key"), widget=HiddenInput(),
                       validators=[Optional(strip_whitespace=False),
                                   Length(*SEND_KEY_LENGTH, message=OUT_OF_DATE),
                                   Regexp(SEND_KEY_PATTERN.removesuffix("$") + r"\Z", message=OUT_OF_DATE)])


# ----------------------------------------------------------------- organizer

class RoundActionForm(_Form):
    """Pair, publish, start, finish, delete: the button is the input (and the CSRF token)."""
    override_decks = BooleanField(_l("Seat them anyway (recorded in the event log)"))


SEATING_REVISION_MESSAGE = OUT_OF_DATE
TABLE_MESSAGE = _l("Enter a table number from the round, like 3, or leave it empty for a new table.")
SEAT_MESSAGE = _l("Enter a seat number, like 2, or leave it empty for the next free seat.")


def _seating_revision() -> IntegerField:
    """The round's seating revision the page was drawn from: a correction of another seating is refused."""
    return IntegerField(_l("Revision"), widget=HiddenInput(), invalid_value_message=SEATING_REVISION_MESSAGE,
                        validators=[Optional(), NumberRange(0, 1_000_000_000, SEATING_REVISION_MESSAGE)])


def _table_number(label, model) -> IntegerField:
    return IntegerField(label, invalid_value_message=TABLE_MESSAGE,
                        validators=[Optional(), NumberRange(*bounds(model, "table"), message=TABLE_MESSAGE)])


def _seat_number(model) -> IntegerField:
    return IntegerField(_l("Seat"), invalid_value_message=SEAT_MESSAGE,
                        validators=[Optional(), NumberRange(*bounds(model, "seat"), message=SEAT_MESSAGE)])


class _ChosenPlayer:
    def validate_player(self, field):
        if field.data is None:
            raise ValidationError(_("Choose a player."))

    def fill(self, players: list[tuple[int, str]]):
        self.player.choices = [("", _("Choose a player"))] + list(players)
        return self


class MoveForm(_ChosenPlayer, _Form):
    """Move a seated player (MoveIn's bounds)."""
    player = PlayerField(_l("Player"), validators=[InputRequired(_l("Choose a player."))])
    table = _table_number(_l("To table (empty: a new table)"), MoveIn)
    seat = _seat_number(MoveIn)
    revision = _seating_revision()


class LateArrivalForm(_ChosenPlayer, _Form):
    """Seat a late arrival (LateArrivalIn's bounds)."""
    player = PlayerField(_l("Late arrival"), validators=[InputRequired(_l("Choose a player."))])
    table = _table_number(_l("At table (empty: a new table)"), LateArrivalIn)
    seat = _seat_number(LateArrivalIn)
    revision = _seating_revision()


REMOVE_CHOICES = (("round", _l("Remove from this round only (paired again next round)")),
                  ("drop", _l("Drop from the event")))


class RemoveForm(_ChosenPlayer, _Form):
    """Remove a no-show (RemoveIn)."""
    player = PlayerField(_l("No-show"), validators=[InputRequired(_l("Choose a player."))])
    how = SelectField(_l("How"), choices=options(REMOVE_CHOICES), default="round",
                      validators=[InputRequired(_l("Choose how to remove the player."))])
    revision = _seating_revision()


class UnpublishForm(_Form):
    revision = _seating_revision()


class SwapForm(_Form):
    first = PlayerField(_l("First player"), validators=[InputRequired(_l("Choose the first player."))])
    second = PlayerField(_l("Second player"), validators=[InputRequired(_l("Choose the second player."))])
    revision = _seating_revision()

    def validate_first(self, field):
        if field.data is None:
            raise ValidationError(_("Choose the first player."))

    def validate_second(self, field):
        if field.data is None:
            raise ValidationError(_("Choose the second player."))

    def fill(self, seated: list[tuple[int, str]]) -> "SwapForm":
        choices = [("", _("Choose a player"))] + [(rid, label) for rid, label in seated]
        self.first.choices = choices
        self.second.choices = choices
        return self


# ----------------------------------------------------------------- results

def names_of(table) -> list[tuple[int, str]]:
    return [(s.registration_id, s.registration.name) for s in table.seats]


class PodResultForm(_Form):
    """Survivors (checkboxes), an optional elimination order per player, votes, prize claims, and why a game
    with nobody or several players left was drawn."""
    survivors = PlayersField(_l("Survived"))
    draw = SelectField(_l("If drawn"), default="", validate_choice=True)
    revision = _hidden_revision(required=False)      # the result the form was filled from

    seat_ids: list[int] = []
    conditions: list[dict] = []
    with_votes = False
    with_prizes = False
    with_archenemy = False

    def order_field(self, rid: int):
        return self[f"order_{rid}"]

    def vote_field(self, rid: int):
        return self[f"vote_{rid}"] if self.with_votes else None

    def prize_fields(self):
        """(condition, holder field, value field) in the event's order."""
        if not self.with_prizes:
            return []
        return [(c, self[f"prize_{i}_holder"], self[f"prize_{i}_value"]) for i, c in enumerate(self.conditions)]

    def eliminated(self) -> list[int]:
        """Players with an elimination number, first out first; the numbers must differ."""
        numbered = [(self.order_field(rid).data, rid) for rid in self.seat_ids
                    if self.order_field(rid).data is not None]
        numbers = [n for n, _rid in numbered]
        if len(set(numbers)) != len(numbers):
            raise Refused(_("Two players have the same elimination number: number them 1 (first out), 2, 3 …"),
                          field="eliminated")
        return [rid for _n, rid in sorted(numbered)]

    def votes(self) -> dict[int, int]:
        if not self.with_votes:
            return {}
        return {rid: self.vote_field(rid).data for rid in self.seat_ids if self.vote_field(rid).data is not None}

    def prizes(self) -> dict | None:
        if not self.with_prizes:
            return None
        out = {}
        for condition, holder, value in self.prize_fields():
            if holder.data is None:
                if value.data is not None:
                    raise Refused(_("%(prize)s: choose the player who holds it.", prize=condition["name"]),
                                  field="prizes")
                out[condition["id"]] = None
                continue
            claim = {"holder": holder.data}
            if value.data is not None:
                claim["value"] = value.data
            out[condition["id"]] = claim
        return out

    def archenemy_choice(self):
        """The archenemy chosen (None: not an Archenemy game), or KEEP when the form has or sent no such field."""
        from .operations import KEEP
        return self.archenemy.data if self.with_archenemy and self.archenemy.raw_data else KEEP

    def fill(self, table) -> "PodResultForm":
        """Show what is stored for the table (GET)."""
        self.revision.data = table.result_revision or 0
        self.survivors.data = [s.registration_id for s in table.seats if s.survived]
        self.draw.data = table.draw_kind or ""
        if self.with_archenemy:
            self.archenemy.data = table.archenemy_id
        for s in table.seats:
            self.order_field(s.registration_id).data = s.eliminated_order
        if self.with_votes:
            for v in table.votes:
                if v.voter_id in self.seat_ids:
                    self.vote_field(v.voter_id).data = v.votee_id
        claims = {c.condition: c for c in table.prize_claims}
        for condition, holder, value in self.prize_fields():
            claim = claims.get(condition["id"])
            holder.data = claim.holder_id if claim else None
            value.data = claim.value if claim else None
        return self


@lru_cache(maxsize=1024)
def _pod_form_class(base: type, seat_ids: tuple, conditions: str, with_votes: bool, with_prizes: bool,
                    with_archenemy: bool, _language: str) -> type:
    """The form class of a table's seats (its fields are named by registration id), built once per seats,
    settings and language, not on every report (building a form class costs a fifth of a result post)."""
    n = len(seat_ids)
    attrs = {"seat_ids": list(seat_ids), "conditions": json.loads(conditions), "with_votes": with_votes,
             "with_prizes": with_prizes, "with_archenemy": with_archenemy}
    if with_archenemy:
        attrs["archenemy"] = PlayerField(_("Archenemy"), validators=[Optional()])
    for rid in seat_ids:
        message = _("An elimination number is a whole number from 1 to %(max)s (1 = first out), or empty.", max=n)
        attrs[f"order_{rid}"] = IntegerField(_("Out"), validators=[Optional(), NumberRange(1, n, message)],
                                             invalid_value_message=message)
        if with_votes:
            attrs[f"vote_{rid}"] = PlayerField(_("Vote"), validators=[Optional()])
    if with_prizes:
        limit = f"{MAX_PRIZE_VALUE:,}"
        value_message = _("A prize value is a number from 0 to %(max)s.", max=limit)
        for i, _c in enumerate(attrs["conditions"]):
            attrs[f"prize_{i}_holder"] = PlayerField(_("Holder"), validators=[Optional()])
            attrs[f"prize_{i}_value"] = FloatField(_("Value"), invalid_value_message=value_message,
                                                   validators=[Optional(), NumberRange(0, MAX_PRIZE_VALUE,
                                                                                       value_message)])
    return type("PodResultFormForTable", (base,), attrs)


def pod_result_form(table, conditions: list[dict], *, with_votes: bool, with_prizes: bool = True,
                    with_archenemy: bool = False, prefix: str = "", fill: bool = False, base: type = PodResultForm,
                    **kwargs) -> PodResultForm:
    seated = names_of(table)
    form_class = _pod_form_class(base, tuple(rid for rid, _name in seated), json.dumps(list(conditions or [])),
                                 with_votes, with_prizes and bool(conditions), with_archenemy, str(get_locale()))
    form = form_class(prefix=prefix, **kwargs)
    others = {rid: [(o, name) for o, name in seated if o != rid] for rid, _name in seated}
    if with_votes:
        for rid, _name in seated:
            form.vote_field(rid).choices = [("", _("no vote"))] + others[rid]
    for _c, holder, _v in form.prize_fields():
        holder.choices = [("", _("nobody"))] + seated
    form.survivors.choices = seated
    allowed = table.round.event.intentional_draws is not False or table.draw_kind == "intentional"
    form.draw.choices = [("", "—")] + [(k, data_text(v["name"])) for k, v in draw_kinds().items()
                                        if k != "intentional" or allowed]
    if with_archenemy:
        form.archenemy.choices = [("", _("nobody (not an Archenemy game)"))] + seated
    if fill:
        form.fill(table)
    return form


class DuelResultForm(_Form):
    game1 = GameField(_l("Game %(number)s", number=1))
    game2 = GameField(_l("Game %(number)s", number=2))
    game3 = GameField(_l("Game %(number)s", number=3))
    time = BooleanField(_l("Time was called: the match ended with these games"))
    revision = _hidden_revision(required=False)      # the result the form was filled from

    def games(self):
        return [self.game1, self.game2, self.game3]

    def winners(self) -> list[int | None]:
        """Played games in order: the winner's id, or None for a draw. No gaps."""
        values = [f.data for f in self.games()]
        while values and values[-1] == NOT_PLAYED:
            values.pop()
        if not values:
            raise Refused(_("Enter at least game 1: its winner, or a draw."), field="game1")
        for i, v in enumerate(values, 1):
            if v == NOT_PLAYED:
                raise Refused(_("Game %(number)s is marked as not played but a later game has a result. "
                                "Enter the games in order.", number=i), field=f"game{i}")
        return [None if v == DRAW else v for v in values]

    def fill(self, table) -> "DuelResultForm":
        self.revision.data = table.result_revision or 0
        for field, game in zip(self.games(), table.games):
            field.data = DRAW if game.winner_id is None else game.winner_id
        self.time.data = table.time_called_at is not None
        return self


def duel_result_form(table, *, prefix: str = "", fill: bool = False, base: type = DuelResultForm,
                     **kwargs) -> DuelResultForm:
    form = base(prefix=prefix, **kwargs)
    choices = [(NOT_PLAYED, _("not played"))] + \
              [(rid, _("%(name)s won", name=name)) for rid, name in names_of(table)] + [(DRAW, _("draw"))]
    for field in form.games():
        field.choices = choices
    if fill:
        form.fill(table)
    return form


# ----------------------------------------------------------------- the player's page

class TableRefForm(_Form):
    """Which round and table a player's form is about (hidden fields, checked against the seat)."""
    round = _hidden_number(_l("Round"))
    table = _hidden_number(_l("Table"))


class PlayerPodResultForm(PodResultForm):
    round = _hidden_number(_l("Round"))
    table = _hidden_number(_l("Table"))
    send_key = _send_key()


class PlayerDuelResultForm(DuelResultForm):
    round = _hidden_number(_l("Round"))
    table = _hidden_number(_l("Table"))
    send_key = _send_key()


class ConfirmForm(TableRefForm):
    revision = _hidden_revision()


class VoteForm(TableRefForm):
    votee = PlayerField(_l("Your vote: the player who made the game most fun"),
                        validators=[InputRequired(_l("Choose the player you vote for."))])
    send_key = _send_key()

    def validate_votee(self, field):
        if field.data is None:
            raise ValidationError(_("Choose the player you vote for."))


# ----------------------------------------------------------------- a match, game by game (the player's page)

def _game_bounds() -> tuple[int, int]:
    """GameReportIn's bounds of a game's number (the API parses with them; this form reads them)."""
    from .schemas import GameReportIn
    meta = GameReportIn.model_fields["game"].metadata
    return (next(m.ge for m in meta if hasattr(m, "ge")), next(m.le for m in meta if hasattr(m, "le")))


class GameReportForm(TableRefForm):
    """One game of a match as it ends (GameReportIn's fields): its number, its winner or a draw (the button pressed),
    and whether time was called."""
    game = IntegerField(_l("Game"), widget=HiddenInput(), invalid_value_message=OUT_OF_DATE,
                        validators=[InputRequired(OUT_OF_DATE), NumberRange(*_game_bounds(), OUT_OF_DATE)])
    winner = GameField(_l("Winner"))
    time = BooleanField(_l("Time was called: this was the match's last game"))

    def validate_winner(self, field):
        if field.data == NOT_PLAYED:
            raise ValidationError(_("Choose the game's winner, or a draw."))

    def winner_id(self) -> int | None:
        return None if self.winner.data == DRAW else self.winner.data


class EndAtTimeForm(TableRefForm):
    """Time was called between games: the match ends with the games played."""


class StartGameForm(TableRefForm):
    game = IntegerField(_l("Game"), widget=HiddenInput(), invalid_value_message=OUT_OF_DATE,
                        validators=[InputRequired(OUT_OF_DATE), NumberRange(2, _game_bounds()[1], OUT_OF_DATE)])
