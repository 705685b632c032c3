"""`flask print DOCUMENT --event ID [--round N] [--lang LANG] -o FILE.pdf`: write one printout.

    flask --app wsgi print pairings-by-table --event 3 --round 2 -o pairings.pdf
    flask --app wsgi print rules --event 3 -o -          (-o - writes the PDF to stdout)
    flask --app wsgi print rules --event 3 --lang ja -o rules-ja.pdf

--lang is en, ja, zh_Hans or cs; without it the document is in the event's language, else English.

Register with ``app.cli.add_command(tournament.printing.cli.print_document)``.
"""
from __future__ import annotations

import click
from flask.cli import with_appcontext

from ..web.lifecycle import one_transaction

from ..errors import Refused
from ..events.operations import get_event
from ..i18n import LANGUAGES, language_code
from .documents import DOCUMENTS
from .operations import build_document


def _language(_ctx, _param, value):
    """--lang: one of LANGUAGES (ja-JP, zh-Hans ... are read too); None: the event's language."""
    if value is None:
        return None
    code = language_code(value)
    if code is None:
        raise click.BadParameter(f"choose one of {', '.join(LANGUAGES)}, not {value!r}.")
    return code


@click.command("print", help="Write a printable document as PDF. DOCUMENT is one of: " + ", ".join(DOCUMENTS) + ".")
@click.argument("document")
@click.option("--event", "event_id", required=True, help="The event's id.")
@click.option("--round", "round_number", default=None, help="The round (default: the latest).")
@click.option("--lang", "language", default=None, callback=_language, metavar="LANG",
              help="The document's language: " + ", ".join(LANGUAGES) + " (default: the event's language, "
                   "else English).")
@click.option("--table", default=None, help="Result slips: this table's only.")
@click.option("-o", "--output", required=True, help="The PDF file to write; - for stdout.")
@with_appcontext
@one_transaction
def print_document(document, event_id, round_number, language, table, output):
    try:
        event_number = int(str(event_id).strip())
    except ValueError:
        raise click.ClickException(f"--event must be an event's id (a number), not {event_id!r}.") from None
    try:
        event = get_event(event_number)
        pdf, _name = build_document(event, document, round_number, language=language, table=table)
    except Refused as e:
        raise click.ClickException(e.message) from None
    if output == "-":
        click.get_binary_stream("stdout").write(pdf)
        return
    try:
        with open(output, "wb") as f:
            f.write(pdf)
    except OSError as e:
        raise click.ClickException(f"Cannot write {output}: {e.strerror or e}.") from None
    click.echo(f"Wrote {output} ({len(pdf) // 1024} KiB).", err=True)
