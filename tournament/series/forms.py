from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, StringField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..events.forms import options
from .operations import SCORING_WORDS


class SeriesForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(message="Give the series a name."), Length(max=200)])
    scoring = SelectField("Series points", choices=options(SCORING_WORDS.items()), default="placement")
    points_table = StringField("Placement points, 1st place first", default="5, 3, 2, 1",
                               validators=[Length(max=400, message="The points table is at most 400 characters.")])
    attendance_points = IntegerField("Points for each event played", default=0, validators=[
        Optional(), NumberRange(min=0, max=1000, message="Points for attending are between 0 and 1000.")])


class AddEventForm(FlaskForm):
    event_id = SelectField("Event", coerce=int, choices=[], validate_choice=False)


class DecisionForm(FlaskForm):
    """Same person or not, and removing an event: the button is the input (and the CSRF token)."""
