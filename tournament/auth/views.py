from urllib.parse import urlsplit

from flask import Blueprint, flash, g, redirect, render_template, request, session, url_for

from ..errors import Refused
from .forms import LoginForm
from .operations import authenticate

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
            session.clear()
            session["user_id"] = user.id
            session.permanent = True
            return redirect(_safe_next(request.args.get("next")))
    elif request.method == "POST":
        status = 400
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
def logout():
    session.clear()
    flash("You are logged out.")
    return redirect(url_for("auth.login"))
