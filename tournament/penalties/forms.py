"""The staff page's penalty form: its choices and bounds are the schema's (tournament.penalties.schemas); the
operation validates what it reads with that same declaration."""
from __future__ import annotations

import secrets

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, IntegerField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..events.forms import ChoiceField, Form
from ..i18n import data_text
from .domain import infractions
from .models import NOTE_LENGTH
from .schemas import GAMES, KEY_LENGTH, ROUNDS

ROUND_MESSAGE = _l("The round must be a whole number from 1 to 1000, or empty.")
GAME_MESSAGE = _l("The game must be 1, 2 or 3, or empty.")
NOTE_MESSAGE = _l("The note may be at most 1000 characters.")
REASON_MESSAGE = _l("The reason may be at most 1000 characters.")


class PenaltyForm(Form):
    registration_id = ChoiceField(_l("Player"), coerce=str, validators=[DataRequired(_l("Choose the player."))])
    infraction = ChoiceField(_l("Infraction"), coerce=str, validators=[DataRequired(_l("Choose the infraction."))])
    penalty = ChoiceField(_l("Penalty"), coerce=str, default="")
    round = IntegerField(_l("Round"), validators=[Optional(), NumberRange(*ROUNDS, ROUND_MESSAGE)],
                         invalid_value_message=ROUND_MESSAGE)
    game = IntegerField(_l("Game (1v1 game loss)"), validators=[Optional(), NumberRange(*GAMES, GAME_MESSAGE)],
                        invalid_value_message=GAME_MESSAGE)
    note = TextAreaField(_l("Note"), validators=[Length(max=NOTE_LENGTH, message=NOTE_MESSAGE)])
    key = HiddenField(validators=[Length(max=KEY_LENGTH)])

    def __init__(self, players, penalty_names, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.registration_id.choices = [("", "—")] + [(str(r.id), r.name) for r in players]
        self.infraction.choices = [("", "—")] + [(k, data_text(v["name"])) for k, v in infractions().items()]
        self.penalty.choices = [("", _l("The infraction's default"))] + list(penalty_names.items())
        if not self.key.data:
            self.key.data = secrets.token_urlsafe(16)

    def values(self) -> dict:
        """What the schema reads (tournament.penalties.schemas.PenaltyIn)."""
        return {"registration_id": int(self.registration_id.data) if self.registration_id.data.isdigit() else 0,
                "infraction": self.infraction.data, "penalty": self.penalty.data or None,
                "round": self.round.data, "game": self.game.data, "note": self.note.data or "",
                "key": self.key.data or None}


class WithdrawForm(Form):
    reason = StringField(_l("Why withdraw it"), validators=[
        DataRequired(_l("Say why the penalty is withdrawn.")), Length(max=NOTE_LENGTH, message=REASON_MESSAGE)])
