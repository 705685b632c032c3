from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField, SelectField, StringField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..events.forms import Form, options
from .operations import SCORING_WORDS


class SeriesForm(Form):
    name = StringField(_l("Name"), validators=[DataRequired(message=_l("Give the series a name.")), Length(max=200)])
    scoring = SelectField(_l("Series points"), choices=options(SCORING_WORDS.items()), default="placement")
    points_table = StringField(_l("Placement points, 1st place first"), default="5, 3, 2, 1",
                               validators=[Length(max=400, message=_l("The points table is at most 400 characters."))])
    attendance_points = IntegerField(_l("Points for each event played"), default=0, validators=[
        Optional(), NumberRange(min=0, max=1000, message=_l("Points for attending are between 0 and 1000."))])


class AddEventForm(Form):
    event_id = SelectField(_l("Event"), coerce=int, choices=[], validate_choice=False)


class DecisionForm(Form):
    """Same person or not, and removing an event: the button is the input (and the CSRF token)."""
