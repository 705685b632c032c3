"""Who is asking: the logged-in staff member (session) or a bearer token (API)."""
from __future__ import annotations

from functools import wraps

from flask import g, redirect, request, session, url_for

from ..extensions import db
from .models import User
from .operations import user_for_token


def load_user() -> None:
    g.user = None
    auth = request.headers.get("Authorization", "")
    if auth.lower().startswith("bearer "):
        g.user = user_for_token(auth[7:].strip())
        g.via_token = True
        return
    g.via_token = False
    user_id = session.get("user_id")
    if isinstance(user_id, int):
        g.user = db.session.get(User, user_id)


def login_required(view):
    @wraps(view)
    def wrapped(*args, **kwargs):
        if g.get("user") is None:
            return redirect(url_for("auth.login", next=request.full_path if request.query_string else request.path))
        return view(*args, **kwargs)
    return wrapped
