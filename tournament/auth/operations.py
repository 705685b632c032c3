"""Accounts, tokens and login throttling."""
from __future__ import annotations

import secrets
import unicodedata
from datetime import datetime, timedelta, timezone
from functools import lru_cache

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _, lazy_gettext as _l
from werkzeug.security import check_password_hash, generate_password_hash
from zxcvbn import zxcvbn
from zxcvbn.frequency_lists import FREQUENCY_LISTS

from ..cards.models import utcnow
from ..timezones import as_utc
from ..errors import Refused
from ..extensions import db
from ..web import throttle
from .models import ROLES, ApiToken, StaffSession, User

MIN_PASSWORD_LENGTH = 10
MIN_PASSWORD_SCORE = 2       # zxcvbn: 0 too guessable ... 4 very unguessable
TOKEN_TOUCH_INTERVAL = timedelta(minutes=5)
ZXCVBN_WARNINGS = {     # zxcvbn's warnings (English only there), in the reader's language
    "Straight rows of keys are easy to guess.": _l("Straight rows of keys are easy to guess."),
    "Short keyboard patterns are easy to guess.": _l("Short keyboard patterns are easy to guess."),
    'Repeats like "aaa" are easy to guess.': _l('Repeats like "aaa" are easy to guess.'),
    'Repeats like "abcabcabc" are only slightly harder to guess than "abc".':
        _l('Repeats like "abcabcabc" are only slightly harder to guess than "abc".'),
    'Sequences like "abc" or "6543" are easy to guess.': _l('Sequences like "abc" or "6543" are easy to guess.'),
    "Recent years are easy to guess.": _l("Recent years are easy to guess."),
    "Dates are often easy to guess.": _l("Dates are often easy to guess."),
    "This is a top-10 common password.": _l("This is a top-10 common password."),
    "This is a top-100 common password.": _l("This is a top-100 common password."),
    "This is a very common password.": _l("This is a very common password."),
    "This is similar to a commonly used password.": _l("This is similar to a commonly used password."),
    "A word by itself is easy to guess.": _l("A word by itself is easy to guess."),
    "Names and surnames by themselves are easy to guess.": _l("Names and surnames by themselves are easy to guess."),
    "Common names and surnames are easy to guess.": _l("Common names and surnames are easy to guess."),
}


def create_user(name: str, password: str, role: str) -> User:
    from ..events.names import readable, tidy
    name = tidy((name or "").strip())
    if not readable(name) or len(name) > 80 or any(unicodedata.category(ch) == "Cc" for ch in name):
        raise Refused(_("A user name is 1 to 80 characters you can see."))
    if role not in ROLES:
        raise Refused(_("Role must be one of: %(roles)s.", roles=", ".join(ROLES)))
    check_password_policy(password, name)
    if db.session.execute(sa.select(User.id).where(User.name == name)).first():
        raise Refused(_("There is already a user named %(name)s.", name=name))
    user = User(name=name, role=role)
    user.set_password(password)
    db.session.add(user)
    db.session.flush()
    return user


@lru_cache(maxsize=1)
def _common_passwords() -> frozenset[str]:
    return frozenset(FREQUENCY_LISTS["passwords"])


def check_password_policy(password, name: str = "") -> None:
    """At least 10 characters, not one of the 30,000 most common passwords, not guessable from the name
    (zxcvbn's estimate), so a password on a venue laptop survives an online guessing attempt."""
    password = password or ""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise Refused(_("The password needs at least %(length)s characters; a few words make a good one.",
                        length=MIN_PASSWORD_LENGTH), field="password")
    if len(password) > 200:
        raise Refused(_("The password may be at most 200 characters."), field="password")
    if password.lower() in _common_passwords():
        raise Refused(_("That is one of the most common passwords. Choose another: a few unrelated words work well."),
                      field="password")
    strength = zxcvbn(password[:100], user_inputs=[name, *name.split(), "".join(name.split())])
    rest = _without_name(password, name)
    if rest is not None and (not any(ch.isalpha() for ch in rest)
                             or zxcvbn(rest[:100])["score"] < MIN_PASSWORD_SCORE):
        raise Refused(_("That password is mostly your name; with a number or a year added it is still easy to "
                        "guess. Choose words that have nothing to do with you."), field="password")
    if strength["score"] < MIN_PASSWORD_SCORE:
        warning = strength["feedback"]["warning"]
        why = str(ZXCVBN_WARNINGS.get(warning, warning)) if warning else _("It is easy to guess.")
        raise Refused(_("That password is too easy to guess. %(why)s Add another word or two.", why=why),
                      field="password")


def _without_name(password: str, name: str) -> str | None:
    """The password with the account's name (whole, joined, or any part of 3 letters or more) taken out, any
    case; None if no part of the name is in it. A guesser tries "<name>2027" and "<name>-1" first."""
    parts = {name, "".join(name.split()), *(p for p in name.split() if len(p) >= 3)}
    parts = sorted((p.casefold() for p in parts if len(p) >= 3), key=len, reverse=True)
    rest = password.casefold()
    found = False
    for part in parts:
        if part in rest:
            rest = rest.replace(part, " ")
            found = True
    return " ".join(rest.split()) if found else None


def change_password(user: User, current: str, new: str) -> None:
    """A new password ends every other session and stays usable in this one (see begin_session)."""
    throttle.spend("password_check", user.id)
    if not user.check_password(current or ""):
        raise Refused(_("The current password is not right."), status=400, field="current")
    throttle.forget("password_check", user.id)
    if new == current:
        raise Refused(_("The new password is the same as the current one."), field="password")
    check_password_policy(new, user.name)
    user.set_password(new)
    end_sessions(user)


def end_sessions(user: User) -> None:
    """Log the user out everywhere: every session cookie issued before now stops working."""
    user.session_version = (user.session_version or 1) + 1
    db.session.execute(sa.delete(StaffSession).where(StaffSession.user_id == user.id))
    db.session.flush()


def start_session(user: User, max_age: timedelta) -> str:
    """A new login of this user: the nonce its cookie carries (only the nonce's hash is stored). Logins older
    than max_age, anyone's, are cleared on the way."""
    nonce = secrets.token_urlsafe(32)
    db.session.execute(sa.delete(StaffSession).where(StaffSession.created_at < utcnow() - max_age))
    db.session.add(StaffSession(id=StaffSession.hash(nonce), user_id=user.id))
    db.session.flush()
    return nonce


def end_session(nonce) -> None:
    """Log out this login: its cookie, and every copy of it, stops working."""
    if isinstance(nonce, str) and nonce:
        db.session.execute(sa.delete(StaffSession).where(StaffSession.id == StaffSession.hash(nonce)))
        db.session.flush()


def session_live(user: User, nonce) -> bool:
    """The login this cookie names is still on the server (not logged out, not ended everywhere)."""
    if not isinstance(nonce, str) or not nonce or len(nonce) > 100:
        return False
    row = db.session.get(StaffSession, StaffSession.hash(nonce))
    return row is not None and row.user_id == user.id


def set_disabled(user: User, disabled: bool) -> None:
    """A disabled account cannot log in, and its sessions and tokens stop working at once."""
    user.disabled_at = utcnow() if disabled else None
    end_sessions(user)


def session_valid(user: User | None, version, since, max_age: timedelta) -> bool:
    """A session cookie counts only for an active user, at their current session version, within max_age
    of its login (a copied cookie cannot be kept alive by using it)."""
    if user is None or not user.active or version != user.session_version:
        return False
    try:
        started = datetime.fromtimestamp(float(since), timezone.utc)
    except (TypeError, ValueError, OverflowError, OSError):
        return False
    return timedelta(0) <= utcnow() - started <= max_age


def issue_token(user: User, expires_in: timedelta | None = None, label: str = "") -> str:
    token = secrets.token_urlsafe(32)
    expires = utcnow() + expires_in if expires_in else None
    db.session.add(ApiToken(user_id=user.id, token_hash=ApiToken.hash(token), expires_at=expires, label=label[:80]))
    db.session.flush()
    return token


def revoke_tokens(user: User, token_id: int | None = None) -> int:
    """Revoke one of the user's tokens (by id) or all of them; returns how many were live."""
    stmt = sa.select(ApiToken).where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
    if token_id is not None:
        stmt = stmt.where(ApiToken.id == token_id)
    rows = list(db.session.execute(stmt).scalars())
    for row in rows:
        row.revoked_at = utcnow()
    db.session.flush()
    return len(rows)


def user_for_token(token: str) -> User | None:
    row = db.session.execute(sa.select(ApiToken).where(ApiToken.token_hash == ApiToken.hash(token))).scalar()
    now = utcnow()
    if row is None or row.revoked_at is not None or not row.user.active:
        return None
    if row.expires_at is not None and as_utc(row.expires_at) <= now:
        return None
    last = as_utc(row.last_used_at)
    if last is None or now - last > TOKEN_TOUCH_INTERVAL:
        row.last_used_at = now   # not on every request: a read must not take the write lock
    return row.user


@lru_cache(maxsize=4)
def _dummy_hash(method: str) -> str:
    return generate_password_hash(secrets.token_hex(16), method=method)


def _password_matches(user: User | None, password: str) -> bool:
    """As slow for an unknown name as for a real one, so timing does not tell which staff names exist."""
    if user is None:
        check_password_hash(_dummy_hash(current_app.config["PASSWORD_HASH_METHOD"]), password)
        return False
    return user.check_password(password)


def authenticate(name: str, password: str, address: str) -> User:
    """The user, or Refused. Every try counts against (name, address), so a guesser waits longer and
    longer while the real owner on another network is not locked out; a success clears the count. Wrong
    passwords also count against the address whatever the name (a password sprayed over every staff name),
    except from a browser that has logged in with this name before."""
    name = (name or "").strip()[:80]
    address = (address or "unknown")[:64]
    known = throttle.knows_login(name)
    if not known:
        throttle.check("login_address", address)
    throttle.spend("login", name.casefold(), address)
    user = db.session.execute(sa.select(User).where(User.name == name)).scalar()
    if not _password_matches(user, password or ""):
        if not known:
            throttle.count("login_address", address)
        raise Refused(_("Wrong name or password."), status=401)
    if not user.active:
        raise Refused(_("This account is disabled. Ask the organizer to enable it again."), status=403)
    throttle.forget("login", name.casefold(), address)
    return user


def set_language(user: User, code) -> User:
    """A staff member's own language for every page (empty: as the page chooses: switcher, browser, event)."""
    from ..i18n import LANGUAGES
    if code is None or code == "":
        user.language = None
        return user
    if not isinstance(code, str) or code not in LANGUAGES:
        raise Refused(_("Choose one of the languages listed."), field="language")
    user.language = code
    return user
