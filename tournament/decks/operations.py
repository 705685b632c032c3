"""The app's side of Commander Brackets: which combo list the checks use, and importing a new one.

The starter list ships in tournament/data/brackets/combos.json; an organizer
imports Commander Spellbook's real export into the instance folder, where
every worker of this installation reads it.
"""
from __future__ import annotations

from pathlib import Path

from flask import current_app

from .brackets import BracketRules, bracket_rules, open_combo_file, read_combos, write_combos

COMBO_FILE = "combos.json"


def combo_path() -> Path:
    return Path(current_app.instance_path) / COMBO_FILE


def app_bracket_rules() -> BracketRules:
    """The lists with this installation's imported combos, re-read when a new import lands."""
    path = combo_path()
    stamp = path.stat().st_mtime_ns if path.exists() else 0
    return bracket_rules(str(path) if stamp else None, stamp)


def import_combos(source: Path) -> int:
    """Keep the two-card combos of a Commander Spellbook export (variants.json, .gz too); how many."""
    with open_combo_file(source) as stream:
        combos = list(read_combos(stream))
    if not combos:
        raise ValueError(f"{source.name} has no two-card combos under \"variants\": this is not Commander "
                         "Spellbook's variants.json export.")
    return write_combos(combos, combo_path(), source=f"Commander Spellbook export {source.name}")
