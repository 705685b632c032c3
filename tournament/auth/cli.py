"""`flask user ...`: staff accounts and API tokens."""
import click
from flask.cli import with_appcontext
import sqlalchemy as sa

from ..errors import Refused
from ..extensions import db
from ..lifecycle import one_transaction
from .models import ROLES, User
from .operations import create_user, issue_token


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


@user.command("token", help="Print a new API bearer token for a user.")
@click.argument("name")
@with_appcontext
@one_transaction
def token_command(name):
    u = db.session.execute(sa.select(User).where(User.name == name)).scalar()
    if u is None:
        raise click.ClickException(f"No user named {name}.")
    token = issue_token(u)
    click.echo(token)
