"""`flask event ...`: export an event to a file, import an exported event or a players CSV.

    flask --app wsgi event export 3 --format json -o friday.json     (-o - writes to stdout)
    flask --app wsgi event import friday.json --organizer "Olga Organizer"
    flask --app wsgi event import-players 3 players.csv --organizer "Olga Organizer" [--dry-run]

Register with ``app.cli.add_command(tournament.events.cli.event)``.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click
import sqlalchemy as sa
from flask.cli import with_appcontext

from ..auth.models import User
from ..errors import Refused
from ..extensions import db
from ..web.lifecycle import one_transaction
from .exchange import MAX_EVENT_BYTES, MAX_PLAYERS_BYTES, ExchangeInputError, load_event_json
from .exchange_ops import MAX_IMPORT_DECKLISTS, ImportRefused, build_export, import_event, import_players
from .operations import get_event


@click.group(help="Events: export and import.")
def event():
    pass


def _organizer(name: str) -> User:
    user = db.session.execute(sa.select(User).where(User.name == name)).scalar()
    if user is None:
        raise click.ClickException(f"No user named {name}.")
    if user.role != "organizer":
        raise click.ClickException(f"{name} is a {user.role}; only an organizer can own an imported event.")
    return user


def _read(path: str, limit: int) -> bytes:
    if path == "-":
        with click.open_file("-", "rb") as stdin:
            return stdin.read(limit + 1)
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > limit and p.is_file():
            raise click.ClickException(f"{path} is {size / 1_000_000:.1f} MB; the limit is "
                                       f"{limit / 1_000_000:.1f} MB.")
        with p.open("rb") as f:
            return f.read(limit + 1)       # one byte over the limit is enough to refuse it
    except FileNotFoundError:
        raise click.ClickException(f"No file at {path}.") from None
    except IsADirectoryError:
        raise click.ClickException(f"{path} is a directory, not a file.") from None
    except OSError as e:
        raise click.ClickException(f"Cannot read {path}: {e.strerror}.") from None


def _fail(e: Refused):
    if isinstance(e, ImportRefused):
        lines = [e.summary] + [f"  {p}" for p in e.listed]
        if len(e.problems) > len(e.listed):
            lines.append(f"  ... and {len(e.problems) - len(e.listed)} more.")
        raise click.ClickException("\n".join(lines))
    raise click.ClickException(e.message)


@event.command("export", help="Write an event to FILE as JSON (everything) or CSV (one row per player).")
@click.argument("event_id", type=int)
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True)
@click.option("-o", "--output", required=True, help="The file to write; - for standard output.")
@with_appcontext
@one_transaction
def export_command(event_id, fmt, output):
    try:
        export = build_export(get_event(event_id), fmt, "cli")
    except Refused as e:
        _fail(e)
    if output == "-":
        with click.open_file("-", "wb") as stdout:
            stdout.write(export.data)
        return
    try:
        Path(output).write_bytes(export.data)
    except OSError as e:
        raise click.ClickException(f"Cannot write {output}: {e.strerror}.") from None
    click.echo(f"Wrote {output} ({len(export.data):,} bytes).")


def _player_count(data: bytes) -> int:
    """For the progress bar only: how many players the file lists (0 when it cannot tell)."""
    try:
        players = load_event_json(data).get("players")
    except (ExchangeInputError, AttributeError):
        return 0
    return len(players) if isinstance(players, list) else 0


@event.command("import", help="Create a new event from a JSON file made by `event export`.")
@click.argument("file")
@click.option("--organizer", required=True, help="The organizer who will own the new event.")
@with_appcontext
@one_transaction
def import_command(file, organizer):
    user = _organizer(organizer)
    data = _read(file, MAX_EVENT_BYTES)
    try:
        with click.progressbar(length=_player_count(data), label="Re-checking players' decklists",
                               file=sys.stderr) as bar:
            result = import_event(user, data, max_decklists=MAX_IMPORT_DECKLISTS, progress=bar.update)
    except Refused as e:
        _fail(e)
    click.echo(f"Imported event {result.event.id} \u201c{result.event.name}\u201d: {result.players} players, "
               f"{result.decklists} decklists.")
    for note in result.notes:
        click.echo(f"Note: {note}")


@event.command("import-players", help="Register every player of a CSV file in an event (all or none).")
@click.argument("event_id", type=int)
@click.argument("file")
@click.option("--organizer", required=True, help="The event's organizer.")
@click.option("--dry-run", is_flag=True, help="Only check the file.")
@with_appcontext
@one_transaction
def import_players_command(event_id, file, organizer, dry_run):
    user = _organizer(organizer)
    try:
        result = import_players(get_event(event_id), user, _read(file, MAX_PLAYERS_BYTES), dry_run=dry_run)
    except Refused as e:
        _fail(e)
    if dry_run:
        click.echo(f"{len(result.rows)} players can be imported; nothing was stored (--dry-run).")
    else:
        click.echo(f"Imported {len(result.registrations)} players into event {event_id}.")
    if result.file.ignored_columns:
        click.echo(f"Ignored columns: {', '.join(result.file.ignored_columns)}.")
