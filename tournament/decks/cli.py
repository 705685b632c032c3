"""`flask deck ...`: check decklist files against a ruleset from the command line.

`flask deck check a.txt b.dek c.cod [-] --ruleset ID [--json]` checks every file in one process (one app
start, one card cache); `python -m tournament.decks check` is the same check without starting the app
(tournament/decks/checking.py, which has the exit statuses). With --json it prints one JSON object per line:
{"file", "legal", "ruleset", "commanders", "color_identity", "main_count", "sideboard_count", "findings",
"summary", "bracket"}.
`flask deck combos import variants.json.gz` keeps the two-card combos of Commander Spellbook's export for
the bracket floor.
"""
from __future__ import annotations

from pathlib import Path

import click
from flask.cli import with_appcontext

from ..web.lifecycle import one_transaction

from .checking import (CHECK_HELP, EXIT_ILLEGAL, EXIT_LEGAL, EXIT_UNREADABLE, Unreadable, check_options,  # noqa: F401
                       check_paths, fail as _fail, report)


@click.group(help="Decklists: check a deck against a ruleset.")
def deck():
    pass


@deck.command("check", help=CHECK_HELP)
@check_options
@click.pass_context
@with_appcontext
@one_transaction
def check_command(ctx, paths, ruleset_id, as_json, ban, unban, max_bracket):
    from ..cards.repository import DbCardPool
    from .operations import app_bracket_rules

    pool = DbCardPool()
    check_paths(ctx, paths, ruleset_id, as_json, ban, unban, max_bracket, pool, app_bracket_rules(),
                lambda: pool.resolve(["Island"])["Island"] is not None)


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
