from flask_babel import lazy_gettext as _l
from wtforms import SelectField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from ..events.forms import Form


class LoginForm(Form):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=80)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])


class PasswordForm(Form):
    current = PasswordField(_l("Current password"), validators=[
        DataRequired(message=_l("Type your current password.")), Length(max=200)])
    password = PasswordField(_l("New password"), validators=[DataRequired(message=_l("Type the new password.")),
                                                             Length(max=200)])
    repeat = PasswordField(_l("New password again"), validators=[
        DataRequired(message=_l("Type the new password again.")),
        EqualTo("password", message=_l("The two new passwords are not the same."))])


class ConfirmForm(Form):
    """A button that changes something: the CSRF token is its only input."""


class LanguageForm(Form):
    language = SelectField(_l("Language"), choices=[], validate_choice=False)
