"""`flask user ...`: staff accounts and API tokens."""
import re
from datetime import timedelta
from types import SimpleNamespace

import click
import sqlalchemy as sa
from flask.cli import with_appcontext

from ..errors import Refused
from ..extensions import db
from ..web.lifecycle import one_transaction
from ..timezones import local_text, machine_zone
from .models import ROLES, ApiToken, User
from .operations import check_password_policy, create_user, end_sessions, issue_token, revoke_tokens, set_disabled

_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_expiry(text: str) -> timedelta | None:
    """'30d', '12h', '90m', '2w', or 'never'."""
    text = (text or "").strip().lower()
    if text == "never":
        return None
    match = re.fullmatch(r"(\d{1,5})\s*([mhdw])", text)
    if not match or int(match.group(1)) == 0:
        raise click.BadParameter("Write it as a number and a unit, e.g. 30d, 12h, 90m or 2w; or 'never'.")
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def _user(name: str) -> User:
    user = db.session.execute(sa.select(User).where(User.name == name)).scalar()
    if user is None:
        raise click.ClickException(f"No user named {name}.")
    return user


@click.group(help="Organizer and judge accounts.")
def user():
    pass


@user.command("create", help="Create an organizer or judge; prompts for the password.")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.password_option(help="Asked for when omitted.")
@with_appcontext
@one_transaction
def create_command(name, role, password):
    try:
        u = create_user(name, password, role)
    except Refused as e:
        raise click.ClickException(e.message)
    click.echo(f"Created {u.role} {u.name}.")


@user.command("password", help="Set a new password for a user (they are logged out everywhere).")
@click.argument("name")
@click.password_option(help="Asked for when omitted.")
@with_appcontext
@one_transaction
def password_command(name, password):
    u = _user(name)
    try:
        check_password_policy(password, u.name)
    except Refused as e:
        raise click.ClickException(e.message)
    u.set_password(password)
    end_sessions(u)
    click.echo(f"New password set for {u.name}; every session of theirs has ended.")


@user.command("disable", help="Disable an account: no login, and its sessions and tokens stop working.")
@click.argument("name")
@with_appcontext
@one_transaction
def disable_command(name):
    set_disabled(_user(name), True)
    click.echo(f"{name} is disabled.")


@user.command("enable", help="Enable a disabled account again (its old tokens stay revoked only if revoked).")
@click.argument("name")
@with_appcontext
@one_transaction
def enable_command(name):
    set_disabled(_user(name), False)
    click.echo(f"{name} is enabled.")


@user.command("logout", help="End every session of a user (all devices).")
@click.argument("name")
@with_appcontext
@one_transaction
def logout_command(name):
    end_sessions(_user(name))
    click.echo(f"Every session of {name} has ended.")


@user.command("token", help="Print a new API bearer token for a user (30 days unless --expires says otherwise).")
@click.argument("name")
@click.option("--expires", "expires", default="30d", show_default=True, help="e.g. 30d, 12h, 90m, 2w or never.")
@click.option("--label", default="", help="What the token is for, shown by `user tokens`.")
@with_appcontext
@one_transaction
def token_command(name, expires, label):
    u = _user(name)
    if not u.active:
        raise click.ClickException(f"{name} is disabled; enable the account first.")
    click.echo(issue_token(u, parse_expiry(expires), label))


@user.command("tokens", help="List a user's API tokens (never the tokens themselves).")
@click.argument("name")
@with_appcontext
def tokens_command(name):
    u = _user(name)
    here = SimpleNamespace(timezone=machine_zone())
    rows = db.session.execute(sa.select(ApiToken).where(ApiToken.user_id == u.id).order_by(ApiToken.id)).scalars()
    for t in rows:
        state = "revoked" if t.revoked_at else f"expires {local_text(t.expires_at, here)}" if t.expires_at else "no expiry"
        used = f"last used {local_text(t.last_used_at, here)}" if t.last_used_at else "never used"
        click.echo(f"{t.id}\t{t.label or '-'}\tcreated {local_text(t.created_at, here)}\t{state}\t{used}")


@user.command("revoke", help="Revoke a user's API tokens: all of them, or one with --id.")
@click.argument("name")
@click.option("--id", "token_id", type=int, help="Only this token (its id from `user tokens`).")
@with_appcontext
@one_transaction
def revoke_command(name, token_id):
    count = revoke_tokens(_user(name), token_id)
    if token_id is not None and count == 0:
        raise click.ClickException(f"{name} has no live token with id {token_id}.")
    click.echo(f"Revoked {count} token{'s' if count != 1 else ''} of {name}.")
