"""`flask backup` and `flask restore FILE`: the SQLite database at the venue."""
from __future__ import annotations

from pathlib import Path

import click
from flask.cli import with_appcontext

from . import backups
from .errors import Refused


@click.command("backup", help="Copy the SQLite database into instance/backups/ now (the newest 20 are kept).")
@click.option("--list", "show", is_flag=True, help="List the backups instead, newest first.")
@with_appcontext
def backup_command(show):
    if show:
        for path in backups.backups():
            click.echo(f"{path}  {path.stat().st_size:,} bytes")
        return
    try:
        path = backups.backup("manual")
    except Refused as e:
        raise click.ClickException(e.message)
    click.echo(str(path))


@click.command("restore", help="Replace the database's content with FILE, a backup of this schema. "
                               "Stop the server first.")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def restore_command(file, yes):
    if not yes:
        click.confirm(f"Replace everything in the database with {file}?", abort=True)
    try:
        safety = backups.restore(file)
    except Refused as e:
        raise click.ClickException(e.message)
    click.echo(f"Restored {file}. The database as it was is kept in {safety}.")
