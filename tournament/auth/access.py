"""Who is asking: the logged-in staff member (session) or a bearer token (API)."""
from __future__ import annotations

from functools import wraps

import time

from flask import current_app, g, redirect, request, session, url_for

from ..extensions import db
from ..web import json_error, json_request, throttle
from .models import User
from .operations import end_session, session_live, session_valid, start_session, user_for_token


def begin_session(user: User) -> None:
    """A fresh session for this user: its login's id (kept on the server), version and start time are checked
    on every request."""
    end_session(session.get("sid"))       # a login over an earlier one on this browser ends that one
    _clear_session()
    throttle.remember_login(user.name)
    session["user_id"] = user.id
    session["sid"] = start_session(user, current_app.permanent_session_lifetime)
    session["sv"] = user.session_version
    session["since"] = int(time.time())
    session.permanent = True


def finish_session() -> None:
    """Log this browser out: the login ends on the server too, so a copy of the cookie is refused after."""
    end_session(session.get("sid"))
    _clear_session()


def _clear_session() -> None:
    """Nothing of the login is left; the browser keeps what spares it other people's limits (throttle)."""
    kept = throttle.kept_marks()
    session.clear()
    session.update(kept)


def load_user() -> None:
    g.user = None
    auth = request.headers.get("Authorization", "")
    if auth.lower().startswith("bearer "):
        g.user = user_for_token(auth[7:].strip())
        g.via_token = True
        return
    g.via_token = False
    user_id = session.get("user_id")
    if not isinstance(user_id, int):
        return
    user = db.session.get(User, user_id)
    if session_valid(user, session.get("sv"), session.get("since"), current_app.permanent_session_lifetime) \
            and session_live(user, session.get("sid")):
        g.user = user
    else:
        _clear_session()     # logged out elsewhere, password changed, account disabled, or too old


def login_required(view):
    @wraps(view)
    def wrapped(*args, **kwargs):
        if g.get("user") is None:
            return redirect(url_for("auth.login", next=request.full_path if request.query_string else request.path))
        return view(*args, **kwargs)
    return wrapped


def staff_required(view):
    """Staff pages: logged out -> the login page (or a 401 JSON message for fetch())."""
    page = login_required(view)

    @wraps(view)
    def wrapped(*args, **kwargs):
        if g.get("user") is None and json_request():
            from flask_babel import gettext as _
            return json_error(_("Log in as an organizer or judge first."), 401)
        return page(*args, **kwargs)
    return wrapped
