from urllib.parse import urlsplit

from flask import Blueprint, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _, lazy_gettext as _l

from ..events.forms import options
from ..i18n import LANGUAGES
from ..web import EXPIRED, error_response
from .access import begin_session, finish_session, staff_required
from ..web.handler import FormRefused, handler
from .forms import ConfirmForm, LanguageForm, LoginForm, PasswordForm
from .operations import authenticate, change_password, end_sessions, set_language

bp = Blueprint("auth", __name__, url_prefix="/auth")


def _safe_next(target: str | None) -> str:
    """Only same-site paths: a login link must not bounce to another site (`//host`, `/\\host`: browsers read
    a backslash as a slash)."""
    if not target or not target.startswith("/") or target[1:2] in ("/", "\\") or urlsplit(target).netloc:
        return url_for("events.list_events")
    return target


def _damaged_next(target: str | None) -> bool:
    """A return address with a line break or another control character: no page has one, and a redirect
    header cannot carry it (a header injection attempt, or a link mangled on its way)."""
    return bool(target) and any(ord(ch) < 32 or ord(ch) == 127 for ch in target)


def _login_page(rh, status=200):
    return render_template("auth/login.html", form=rh.form), status


def _on_login_refused(rh, e):
    """A wrong name or password (or a disabled account, or too many tries) under the password field."""
    if not isinstance(e, FormRefused):
        rh.form.password.errors = [e.message]
    return _login_page(rh, e.status)


@bp.route("/login", methods=["GET", "POST"])
@handler(form=lambda rh: LoginForm(), refused=_on_login_refused)
def login(rh):
    if _damaged_next(request.args.get("next")):
        return error_response(_("This log-in link is damaged: the page to return to holds a line break. Open the "
                                "log-in page from the menu instead."), 400)
    if request.method == "GET":
        return _login_page(rh)
    user = authenticate(rh.form.name.data, rh.form.password.data, request.remote_addr or "")
    begin_session(user)
    return redirect(_safe_next(request.args.get("next")))


@bp.post("/logout")
@handler()
def logout(rh):
    finish_session()
    flash(_("You are logged out."))
    return redirect(url_for("auth.login"))


def _account_page(rh, status=200):
    page = render_template("auth/account.html", form=rh.form, everywhere_form=ConfirmForm(formdata=None),
                           language_form=_language_form(formdata=None))
    return page, status


@bp.route("/account", methods=["GET", "POST"])
@staff_required
@handler(form=lambda rh: PasswordForm(), refused=lambda rh, e: _account_page(rh, e.status))
def account(rh):
    """Change the password (every other session ends) or log out on every device."""
    if request.method == "GET":
        return _account_page(rh)
    change_password(rh.user, rh.form.current.data, rh.form.password.data)
    begin_session(rh.user)
    flash(_("Password changed. Every other device has been logged out."))
    return redirect(url_for("auth.account"))


def _language_form(**kwargs) -> LanguageForm:
    form = LanguageForm(**kwargs, language=g.user.language or "")
    form.language.choices = options([("", _("As the page chooses (switcher, browser)")), *LANGUAGES.items()])
    return form


def expired_or_refused(expired_message):
    """How a button's refusal renders: a form that did not validate has expired (this message, 400); any
    other refusal as itself. A page message, or JSON for fetch()."""
    def render(rh, e):
        if isinstance(e, FormRefused):
            return error_response(expired_message, 400)
        return error_response(e.message, e.status, e.field)
    return render


@bp.post("/account/language")
@staff_required
@handler(form=lambda rh: _language_form(), refused=expired_or_refused(EXPIRED))
def account_language(rh):
    set_language(rh.user, rh.form.language.data)
    flash(_("Language saved: every page you open shows it."))
    return redirect(url_for("auth.account"))


@bp.post("/logout-everywhere")
@staff_required
@handler(form=lambda rh: ConfirmForm(),
         refused=expired_or_refused(_l("This form has expired. Reload the page and try again.")))
def logout_everywhere(rh):
    end_sessions(rh.user)
    finish_session()
    flash(_("You are logged out on every device, this one included."))
    return redirect(url_for("auth.login"))
