"""Checking decklist files from the command line, without the web app.

`python -m tournament.decks check a.txt b.cod c.csv [-] --ruleset ID [--json]` and `flask deck check` run
this same code; the first imports only the parser, the checks and the card tables (no Flask, no app start),
so one file is checked in a fraction of a second. Every file is checked in one process (one database
connection, one card cache).

Exit status: 0 every deck is legal, 1 one is not, 2 an input cannot be read (missing file, empty, binary,
too large, neither UTF-8 nor Windows-1252 text) or the ruleset is unknown. An unreadable file's message goes
to stderr, never to stdout, and says what to do; the other files are still checked.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from .checks import DeckCheck, check_deck, color_words
from .domain import DeckInputError
from .rulesets import UnknownRuleset, get_ruleset, list_rulesets

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


class Unreadable(Exception):
    """This input cannot be checked; the message says why and what to do."""


def fail(ctx: click.Context, message: str) -> None:
    click.echo(f"Error: {message}", err=True)
    ctx.exit(EXIT_UNREADABLE)


def read_input(path: str) -> tuple[bytes, str | None]:
    if path == "-":
        with click.open_file("-", "rb") as stdin:
            return stdin.read(), None
    p = Path(path)
    try:
        return p.read_bytes(), p.name
    except FileNotFoundError:
        raise Unreadable(f"No file at {path}. Check the path and the file name.") from None
    except IsADirectoryError:
        raise Unreadable(f"{path} is a directory, not a decklist file. Name the files in it instead.") from None
    except OSError as e:
        raise Unreadable(f"Cannot read {path}: {e.strerror or e}. Check that the file can be opened.") from None


def parsed_input(path: str):
    from .parser import parse_upload
    data, filename = read_input(path)
    try:
        return parse_upload(data, filename)
    except DeckInputError as e:
        raise Unreadable(str(e)) from None


def report(result: DeckCheck, source: str, ruleset) -> str:
    """The readable report: verdict, general, counts, then each finding with its line."""
    lines = []
    verdict = "LEGAL" if result.legal else "NOT LEGAL"
    lines.append(f"{source}: {verdict} under {ruleset.name} ({ruleset.id})")
    if result.commanders:
        label = "General" if len(result.commanders) == 1 else "Generals"
        lines.append(f"{label}: {', '.join(result.commanders)} ({color_words(result.color_identity)})")
    gen = result.summary.get("sections", {}).get("commander", 0)
    side = f"; sideboard {result.sideboard_count}/{ruleset.sideboard_max}" if ruleset.sideboard_max else ""
    lines.append(f"Deck: {result.main_count} + {gen} general = {result.main_count + gen} "
                 f"(needs {ruleset.deck_size}){side}")
    bracket = result.bracket or {}
    if bracket:
        lines.append(f"Bracket: at least {bracket['floor']} ({bracket['name']})"
                     + "".join(f"\n  {reason}" for reason in bracket["reasons"]))
    for title, group in (("Errors", result.errors), ("Warnings", result.warnings)):
        if group:
            lines.append(f"{title} ({len(group)}):")
            for f in group:
                where = f"line {f.line}" if f.line is not None else "deck"
                lines.append(f"  {where:>9}  {f.code}: {f.message}")
    return "\n".join(lines)


def check_paths(ctx: click.Context, paths, ruleset_id: str, as_json: bool, ban, unban, max_bracket,
                pool, brackets, has_cards) -> None:
    """Check every input, print each result, exit with the worst status."""
    try:
        ruleset = get_ruleset(ruleset_id)
    except UnknownRuleset as e:
        fail(ctx, str(e))
    limits = {"max_bracket": max_bracket, "brackets": brackets}
    outcomes = [check_one(path, pool, ruleset, ban, unban, as_json, i == 0, limits) for i, path in enumerate(paths)]
    if EXIT_ILLEGAL in outcomes and not has_cards():
        click.echo("Hint: the card database looks empty; run `flask cards import` first.", err=True)
    ctx.exit(max(outcomes))


def check_one(path: str, pool, ruleset, ban, unban, as_json: bool, first: bool, limits: dict) -> int:
    """Check one input and print its result; its exit status."""
    source = "stdin" if path == "-" else path
    try:
        parsed = parsed_input(path)
    except Unreadable as e:
        click.echo(f"Error: {source}: {e}", err=True)
        return EXIT_UNREADABLE
    result = check_deck(parsed, pool, ruleset, banlist_add=ban, banlist_remove=unban, **limits)
    if as_json:
        click.echo(json.dumps({"file": source, **result.to_json()}, ensure_ascii=False))
    else:
        click.echo(("" if first else "\n") + report(result, source, ruleset))
    return EXIT_LEGAL if result.legal else EXIT_ILLEGAL


def check_options(command):
    """The options `deck check` takes, declared once for both entries."""
    for option in reversed((
        click.argument("paths", nargs=-1, required=True, metavar="PATH..."),
        click.option("--ruleset", "ruleset_id", required=True,
                     help="Ruleset id: " + ", ".join(r.id for r in list_rulesets()) + "."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object per file, a line each."),
        click.option("--ban", multiple=True, metavar="NAME", help="Add a card to the event's banlist (repeatable)."),
        click.option("--unban", multiple=True, metavar="NAME", help="Remove a card from the banlist (repeatable)."),
        click.option("--max-bracket", type=click.IntRange(1, 5), default=None,
                     help="The event's maximum Commander bracket: a higher bracket floor is an error."),
    )):
        command = option(command)
    return command


CHECK_HELP = ("Check decklists (files, or - for stdin): text, CSV, MTGO .dek, Cockatrice .cod, Magic Workstation "
              ".mwDeck, XMage .dck. Exit 0 all legal, 1 one illegal, 2 an unreadable input or an unknown ruleset.")


@click.group(help="Decklists: check a deck against a ruleset, without starting the web app.")
def main():
    pass


@main.command("check", help=CHECK_HELP)
@check_options
@click.option("--database", "database", default=None, metavar="URL",
              help="The database holding the cards (default: DATABASE_URL, else instance/tournament.sqlite).")
@click.pass_context
def light_check(ctx, paths, ruleset_id, as_json, ban, unban, max_bracket, database):
    from tournament.cards.sqlpool import database_url, instance_folder
    from .brackets import bracket_rules
    url = database or database_url()
    combos = Path(instance_folder()) / "combos.json"
    stamp = combos.stat().st_mtime_ns if combos.exists() else 0
    brackets = bracket_rules(str(combos) if stamp else None, stamp)
    run = (ctx, paths, ruleset_id, as_json, ban, unban, max_bracket, brackets)
    if url.startswith("sqlite:///") and "?" not in url:
        _check_on_sqlite(url, run)
    else:
        _check_on_sqlalchemy(url, run)


_NO_DATABASE = ("Set DATABASE_URL or INSTANCE_PATH as for the app, or give --database; run `flask db upgrade` and "
                "`flask cards import` first if there is no card database yet.")


def _check_on_sqlite(url: str, run) -> None:
    import sqlite3

    from tournament.cards.sqlpool import SqlCardPool, sqlite_query
    ctx, path = run[0], url[len("sqlite:///"):]
    query = sqlite_query(path)
    if query is None:
        fail(ctx, f"There is no card database at {path}. {_NO_DATABASE}")
    pool = SqlCardPool(query)
    try:
        check_paths(*run[:7], pool, run[7], pool.has_cards)
    except sqlite3.DatabaseError as e:
        fail(ctx, f"Cannot read the card database at {path} ({e}). {_NO_DATABASE}")


def _check_on_sqlalchemy(url: str, run) -> None:
    import sqlalchemy as sa

    from tournament.cards.sqlpool import SqlCardPool, sqlalchemy_query
    ctx = run[0]
    engine = sa.create_engine(url)
    where = engine.url.render_as_string(hide_password=True)
    try:
        with engine.connect() as connection:
            pool = SqlCardPool(sqlalchemy_query(connection))
            check_paths(*run[:7], pool, run[7], pool.has_cards)
    except sa.exc.DBAPIError as e:
        fail(ctx, f"Cannot read the card database at {where} ({str(getattr(e, 'orig', e)).strip()}). {_NO_DATABASE}")
