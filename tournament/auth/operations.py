"""Accounts, tokens and login throttling."""
from __future__ import annotations

import secrets
from datetime import timedelta, timezone

import sqlalchemy as sa

from ..cards.models import utcnow
from ..errors import Refused
from ..extensions import db
from ..lifecycle import keep_changes_on_refusal
from .models import ROLES, ApiToken, LoginAttempt, User

MAX_FAILED_LOGINS = 5
LOGIN_WINDOW = timedelta(minutes=15)
TOKEN_TOUCH_INTERVAL = timedelta(minutes=5)


def create_user(name: str, password: str, role: str) -> User:
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise Refused("A user name is 1 to 80 characters.")
    if role not in ROLES:
        raise Refused(f"Role must be one of: {', '.join(ROLES)}.")
    if len(password or "") < 8:
        raise Refused("The password needs at least 8 characters.")
    if db.session.execute(sa.select(User.id).where(User.name == name)).first():
        raise Refused(f"There is already a user named {name}.")
    user = User(name=name, role=role)
    user.set_password(password)
    db.session.add(user)
    db.session.flush()
    return user


def issue_token(user: User) -> str:
    token = secrets.token_urlsafe(32)
    db.session.add(ApiToken(user_id=user.id, token_hash=ApiToken.hash(token)))
    db.session.flush()
    return token


def user_for_token(token: str) -> User | None:
    row = db.session.execute(sa.select(ApiToken).where(ApiToken.token_hash == ApiToken.hash(token))).scalar()
    if row is None:
        return None
    now = utcnow()
    last = row.last_used_at
    if last is not None and last.tzinfo is None:
        last = last.replace(tzinfo=timezone.utc)
    if last is None or now - last > TOKEN_TOUCH_INTERVAL:
        row.last_used_at = now   # not on every request: a read must not take the write lock
    return row.user


def login_blocked(name: str, address: str) -> bool:
    since = utcnow() - LOGIN_WINDOW
    failures = db.session.execute(
        sa.select(sa.func.count()).select_from(LoginAttempt)
        .where(LoginAttempt.at >= since, sa.or_(LoginAttempt.name == name, LoginAttempt.address == address))
    ).scalar()
    return failures >= MAX_FAILED_LOGINS


def authenticate(name: str, password: str, address: str) -> User:
    """The user, or Refused; failures are recorded and throttle further tries."""
    name = (name or "").strip()[:80]
    address = (address or "unknown")[:64]
    if login_blocked(name, address):
        raise Refused("Too many failed logins. Wait 15 minutes, or ask the organizer to reset your password.",
                      status=429)
    user = db.session.execute(sa.select(User).where(User.name == name)).scalar()
    if user is None or not user.check_password(password or ""):
        db.session.add(LoginAttempt(name=name, address=address))
        db.session.flush()
        keep_changes_on_refusal()      # the failed attempt is what throttles the next ones
        raise Refused("Wrong name or password.", status=401)
    db.session.execute(sa.delete(LoginAttempt).where(LoginAttempt.name == name))
    return user
