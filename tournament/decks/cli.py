"""`flask deck ...`: check decklist files against a ruleset from the command line.

`flask deck check a.txt b.dek c.csv [-] --ruleset ID [--json]` checks every file in one process (one app
start, one card cache). With --json it prints one JSON object per line: {"file", "legal", "ruleset",
"commanders", "color_identity", "main_count", "sideboard_count", "findings", "summary", "bracket"}.
`flask deck combos import variants.json.gz` keeps the two-card combos of Commander Spellbook's export for
the bracket floor.

Exit status: 0 every deck is legal, 1 one is not, 2 an input cannot be read (missing file, empty,
binary, too large, not UTF-8) or the ruleset is unknown. An unreadable file's message goes to stderr,
never to stdout; the other files are still checked.
"""
from __future__ import annotations

import json
from pathlib import Path

import click
from flask.cli import with_appcontext

from ..web.lifecycle import one_transaction

from .checks import DeckCheck, check_deck, color_words
from .domain import DeckInputError
from .rulesets import UnknownRuleset, get_ruleset, list_rulesets

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


@click.group(help="Decklists: check a deck against a ruleset.")
def deck():
    pass


class Unreadable(Exception):
    """This input cannot be checked; the message says why."""


def _fail(ctx: click.Context, message: str) -> None:
    click.echo(f"Error: {message}", err=True)
    ctx.exit(EXIT_UNREADABLE)


def _read(path: str) -> tuple[bytes, str | None]:
    if path == "-":
        with click.open_file("-", "rb") as stdin:
            return stdin.read(), None
    p = Path(path)
    try:
        return p.read_bytes(), p.name
    except FileNotFoundError:
        raise Unreadable(f"No file at {path}.") from None
    except IsADirectoryError:
        raise Unreadable(f"{path} is a directory, not a decklist file.") from None
    except OSError as e:
        raise Unreadable(f"Cannot read {path}: {e.strerror or e}.") from None


def _parsed(path: str):
    from .parser import parse_upload
    data, filename = _read(path)
    try:
        return parse_upload(data, filename)
    except DeckInputError as e:
        raise Unreadable(str(e)) from None
    except UnicodeError:
        raise Unreadable("The file is not UTF-8 text. Export the deck as plain text and try again.") from None


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


@deck.command("check", help="Check decklists (files, or - for stdin). Exit 0 all legal, 1 one illegal, "
                            "2 an unreadable input or an unknown ruleset.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--ruleset", "ruleset_id", required=True,
              help="Ruleset id: " + ", ".join(r.id for r in list_rulesets()) + ".")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per file, a line each.")
@click.option("--ban", multiple=True, metavar="NAME", help="Add a card to the event's banlist (repeatable).")
@click.option("--unban", multiple=True, metavar="NAME", help="Remove a card from the banlist (repeatable).")
@click.option("--max-bracket", type=click.IntRange(1, 5), default=None,
              help="The event's maximum Commander bracket: a higher bracket floor is an error.")
@click.pass_context
@with_appcontext
@one_transaction
def check_command(ctx, paths, ruleset_id, as_json, ban, unban, max_bracket):
    from ..cards.repository import DbCardPool
    from .operations import app_bracket_rules

    try:
        ruleset = get_ruleset(ruleset_id)
    except UnknownRuleset as e:
        _fail(ctx, str(e))
    pool = DbCardPool()
    limits = {"max_bracket": max_bracket, "brackets": app_bracket_rules()}
    outcomes = [_check_one(path, pool, ruleset, ban, unban, as_json, i == 0, limits) for i, path in enumerate(paths)]
    if EXIT_ILLEGAL in outcomes and pool.resolve(["Island"])["Island"] is None:
        click.echo("Hint: the card database looks empty; run `flask cards import` first.", err=True)
    ctx.exit(max(outcomes))


def _check_one(path: str, pool, ruleset, ban, unban, as_json: bool, first: bool, limits: dict) -> int:
    """Check one input and print its result; its exit status."""
    source = "stdin" if path == "-" else path
    try:
        parsed = _parsed(path)
    except Unreadable as e:
        click.echo(f"Error: {source}: {e}", err=True)
        return EXIT_UNREADABLE
    result = check_deck(parsed, pool, ruleset, banlist_add=ban, banlist_remove=unban, **limits)
    if as_json:
        click.echo(json.dumps({"file": source, **result.to_json()}, ensure_ascii=False))
    else:
        click.echo(("" if first else "\n") + report(result, source, ruleset))
    return EXIT_LEGAL if result.legal else EXIT_ILLEGAL


@deck.group("combos", help="Two-card combos for the Commander Brackets floor.")
def combos():
    pass


@combos.command("import", help="Keep the two-card combos of Commander Spellbook's variants.json export "
                               "(https://json.commanderspellbook.com/variants.json, .gz too) for every deck check.")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
@with_appcontext
def combos_import(ctx, path):
    import ijson

    from .operations import combo_path, import_combos
    try:
        count = import_combos(path)
    except (ValueError, ijson.JSONError, ijson.IncompleteJSONError, OSError, EOFError) as e:
        _fail(ctx, f"{path.name}: {e}")
    click.echo(f"Kept {count:,} two-card combos from {path.name} in {combo_path()}; deck checks use them now.")
