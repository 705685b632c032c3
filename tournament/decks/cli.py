"""`flask deck ...`: check a decklist file against a ruleset from the command line.

Exit status: 0 the deck is legal, 1 it is not, 2 the input cannot be read
(missing file, empty, binary, too large, not UTF-8) or the ruleset is unknown;
in that last case the message goes to stderr and nothing to stdout.
"""
from __future__ import annotations

import json
from pathlib import Path

import click
from flask.cli import with_appcontext

from ..lifecycle import one_transaction

from .checks import DeckCheck, check_deck, color_words
from .domain import DeckInputError
from .rulesets import UnknownRuleset, get_ruleset, list_rulesets

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


@click.group(help="Decklists: check a deck against a ruleset.")
def deck():
    pass


def _fail(ctx: click.Context, message: str) -> None:
    click.echo(f"Error: {message}", err=True)
    ctx.exit(EXIT_UNREADABLE)


def _read(ctx: click.Context, path: str) -> tuple[bytes, str | None]:
    if path == "-":
        with click.open_file("-", "rb") as stdin:
            return stdin.read(), None
    p = Path(path)
    try:
        return p.read_bytes(), p.name
    except FileNotFoundError:
        _fail(ctx, f"No file at {path}.")
    except IsADirectoryError:
        _fail(ctx, f"{path} is a directory, not a decklist file.")
    except OSError as e:
        _fail(ctx, f"Cannot read {path}: {e.strerror or e}.")
    raise AssertionError("unreachable")


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
    for title, group in (("Errors", result.errors), ("Warnings", result.warnings)):
        if group:
            lines.append(f"{title} ({len(group)}):")
            for f in group:
                where = f"line {f.line}" if f.line is not None else "deck"
                lines.append(f"  {where:>9}  {f.code}: {f.message}")
    return "\n".join(lines)


@deck.command("check", help="Check a decklist (a file, or - for stdin). Exit 0 legal, 1 illegal, "
                            "2 unreadable input or unknown ruleset.")
@click.argument("path")
@click.option("--ruleset", "ruleset_id", required=True,
              help="Ruleset id: " + ", ".join(r.id for r in list_rulesets()) + ".")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--ban", multiple=True, metavar="NAME", help="Add a card to the event's banlist (repeatable).")
@click.option("--unban", multiple=True, metavar="NAME", help="Remove a card from the banlist (repeatable).")
@click.pass_context
@with_appcontext
@one_transaction
def check_command(ctx, path, ruleset_id, as_json, ban, unban):
    from ..cards.repository import DbCardPool
    from .parser import parse_upload

    try:
        ruleset = get_ruleset(ruleset_id)
    except UnknownRuleset as e:
        _fail(ctx, str(e))
    data, filename = _read(ctx, path)
    try:
        parsed = parse_upload(data, filename)
    except DeckInputError as e:
        _fail(ctx, str(e))
    except UnicodeError:
        _fail(ctx, "The file is not UTF-8 text. Export the deck as plain text and try again.")
    pool = DbCardPool()
    result = check_deck(parsed, pool, ruleset, banlist_add=ban, banlist_remove=unban)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        click.echo(report(result, "stdin" if path == "-" else path, ruleset))
    if not result.legal and any(f.code == "UNKNOWN_CARD" for f in result.findings) \
            and pool.resolve(["Island"])["Island"] is None:
        click.echo("Hint: the card database looks empty; run `flask cards import` first.", err=True)
    ctx.exit(EXIT_LEGAL if result.legal else EXIT_ILLEGAL)

