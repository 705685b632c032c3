from urllib.parse import urlsplit

from flask import Blueprint, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from ..errors import Refused
from ..events.forms import options
from ..i18n import LANGUAGES
from ..web import EXPIRED, form_failed, refuse_into, staff_required
from .access import begin_session
from .forms import ConfirmForm, LanguageForm, LoginForm, PasswordForm
from .operations import authenticate, change_password, end_sessions, set_language

bp = Blueprint("auth", __name__, url_prefix="/auth")


def _safe_next(target: str | None) -> str:
    """Only same-site paths: a login link must not bounce to another site."""
    if not target or not target.startswith("/") or target.startswith("//") or urlsplit(target).netloc:
        return url_for("events.list_events")
    return target


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    status = 200
    if form.validate_on_submit():
        try:
            user = authenticate(form.name.data, form.password.data, request.remote_addr or "")
        except Refused as e:
            form.password.errors = [e.message]
            status = e.status
        else:
            begin_session(user)
            return redirect(_safe_next(request.args.get("next")))
    elif request.method == "POST":
        status = 400
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
def logout():
    session.clear()
    flash(_("You are logged out."))
    return redirect(url_for("auth.login"))


@bp.route("/account", methods=["GET", "POST"])
@staff_required
def account():
    """Change the password (every other session ends) or log out on every device."""
    form, status = PasswordForm(), 200
    if form.validate_on_submit():
        try:
            change_password(g.user, form.current.data, form.password.data)
        except Refused as e:
            status = refuse_into(form, e)
        else:
            begin_session(g.user)
            flash(_("Password changed. Every other device has been logged out."))
            return redirect(url_for("auth.account"))
    elif request.method == "POST":
        status = form_failed(form)
    page = render_template("auth/account.html", form=form, everywhere_form=ConfirmForm(formdata=None),
                           language_form=_language_form(formdata=None))
    return page, status


def _language_form(**kwargs) -> LanguageForm:
    form = LanguageForm(**kwargs, language=g.user.language or "")
    form.language.choices = options([("", _("As the page chooses (switcher, browser)")), *LANGUAGES.items()])
    return form


@bp.post("/account/language")
@staff_required
def account_language():
    form = _language_form()
    if not form.validate_on_submit():
        raise Refused(EXPIRED)
    set_language(g.user, form.language.data)
    flash(_("Language saved: every page you open shows it."))
    return redirect(url_for("auth.account"))


@bp.post("/logout-everywhere")
@staff_required
def logout_everywhere():
    if not ConfirmForm().validate():
        raise Refused(_("This form has expired. Reload the page and try again."))
    end_sessions(g.user)
    session.clear()
    flash(_("You are logged out on every device, this one included."))
    return redirect(url_for("auth.login"))
