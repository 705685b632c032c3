"""`flask cards ...`: import, download and look up cards."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ..web.lifecycle import one_transaction
from .importers import STARTER_FILE, CardFileError
from .operations import download_card_file, import_cards, load_starter_cards_if_empty
from .repository import DbCardPool


@click.group(help="The card database.")
def cards():
    pass


def _run_import(path, source=None) -> None:
    with click.progressbar(length=0, label="Importing", file=sys.stderr, show_pos=True,
                           show_percent=False) as bar:
        def progress(n):
            bar.update(n - bar.pos)
        try:
            result = import_cards(path, source=source, progress=progress,
                                  batch_size=current_app.config["CARD_IMPORT_BATCH"])
        except CardFileError as e:
            raise click.ClickException(f"{e} The card data was not changed.")
    click.echo(f"{result.card_count}")
    click.echo(f"Stored {result.card_count} cards from {result.filename} in {result.seconds:.1f} s; "
               f"{result.total_cards} cards in the database.", err=True)


@cards.command("import", help="Import MTGJSON AtomicCards (.json/.gz/.xz/.zip) or a Scryfall bulk file.")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--source", type=click.Choice(["mtgjson", "scryfall", "starter"]), default=None,
              help="Recorded as the data's source; detected from the file when omitted.")
@with_appcontext
@one_transaction
def import_command(path, source):
    if not path.exists():
        raise click.ClickException(f"No file at {path}.")
    _run_import(path, source)


@cards.command("starter", help="Load the project's starter cards if the card table is empty.")
@with_appcontext
@one_transaction
def starter_command():
    try:
        result = load_starter_cards_if_empty()
    except CardFileError as e:
        raise click.ClickException(str(e))
    if result:
        click.echo(f"Loaded {result.card_count} starter cards from {STARTER_FILE.name}.")
    else:
        click.echo("Card data present; starter cards not needed.")


@cards.command("download", help="Download the current card file and import it.")
@click.option("--source", type=click.Choice(["mtgjson", "scryfall"]), default="mtgjson", show_default=True)
@click.option("--url", default=None, help="Fetch from this address instead (a mirror).")
@with_appcontext
@one_transaction
def download_command(source, url):
    urls = dict(current_app.config["CARD_DOWNLOAD_URLS"])
    if url:
        urls[source] = url
    bar = None

    def on_start(length):
        nonlocal bar
        bar = click.progressbar(length=length or 0, label=f"Downloading from {source}", file=sys.stderr)
        bar.__enter__()

    try:
        path = download_card_file(source, urls, current_app.instance_path, on_start=on_start,
                                  on_chunk=lambda n: bar.update(n))
    except CardFileError as e:
        raise click.ClickException(f"{e} The card data was not changed.")
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    _run_import(path, source)


@cards.command("lookup", help="Print a card as JSON, or did-you-mean suggestions (exit 1).")
@click.argument("name", nargs=-1, required=True)
@with_appcontext
@one_transaction
def lookup_command(name):
    name = " ".join(name)
    pool = DbCardPool()
    card = pool.get(name)
    if card is None:
        suggestions = pool.suggest(name)
        click.echo(f"No card named {name!r}." + (" Did you mean: " + "; ".join(suggestions) + "?" if suggestions else ""))
        sys.exit(1)
    click.echo(json.dumps(card.to_json(), ensure_ascii=False, indent=2))
