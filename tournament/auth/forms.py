from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length


class LoginForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=80)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=200)])


class PasswordForm(FlaskForm):
    current = PasswordField("Current password", validators=[DataRequired(message="Type your current password."),
                                                            Length(max=200)])
    password = PasswordField("New password", validators=[DataRequired(message="Type the new password."),
                                                         Length(max=200)])
    repeat = PasswordField("New password again", validators=[
        DataRequired(message="Type the new password again."),
        EqualTo("password", message="The two new passwords are not the same.")])


class ConfirmForm(FlaskForm):
    """A button that changes something: the CSRF token is its only input."""


class LanguageForm(FlaskForm):
    language = SelectField(_l("Language"), choices=[], validate_choice=False)
