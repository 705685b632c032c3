"""The layering the request handler relies on, read from the source with ast (nothing is imported or run).

Views, API handlers and CLI commands never end a transaction, never catch a refusal and never roll back:
tournament.web.handler loads, authorizes, runs, and on a refusal rolls back and renders it as the view
declared; tournament.web.lifecycle commits once.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tournament"
REFUSALS = {"Refused", "NotFound", "Forbidden", "FormRefused", "DeckInputError", "ImportRefused"}
ROLLBACK_HELPERS = {"start_over", "refusal", "refuse_into", "_player_refused", "refused_json", "form_failed"}
TRANSACTION_METHODS = {"commit", "rollback", "flush"}


def thin_layers() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if p.name in ("views.py", "api.py", "cli.py") or p.name.endswith(("_views.py", "_api.py"))
                  or p.parent.name == "api"
                  if p.parent.name != "web")


def _names(node) -> set[str]:
    """The exception names an `except` clause catches (Refused, errors.Refused, (A, B), Exception)."""
    if node is None:
        return {"<bare>"}
    if isinstance(node, ast.Tuple):
        return set().union(*(_names(e) for e in node.elts))
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.Name):
        return {node.id}
    return set()


def offences(path: Path) -> list[str]:
    """A view or API module's refusal handling and transaction ends; a CLI command's transaction ends (a command
    prints a refusal as its error: one_transaction rolls it back)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    web = path.name != "cli.py"
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ExceptHandler) and web:
            caught = _names(node.type)
            if caught & (REFUSALS | {"Exception", "BaseException", "<bare>"}):
                found.append(f"{where}: except {', '.join(sorted(caught))}")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ROLLBACK_HELPERS and web:
                found.append(f"{where}: calls {name}()")
            elif isinstance(func, ast.Attribute) and name in TRANSACTION_METHODS and "session" in ast.unparse(func):
                found.append(f"{where}: {ast.unparse(func)}()")
    return found


def test_thin_layers_neither_catch_refusals_nor_end_transactions():
    files = thin_layers()
    assert len(files) >= 12
    assert [o for p in files for o in offences(p)] == []


def test_the_check_finds_what_it_forbids(tmp_path):
    bad = tmp_path / "views.py"
    bad.write_text("def v():\n    try:\n        op()\n    except errors.Refused as e:\n        start_over()\n"
                   "    db.session.commit()\n    try:\n        op()\n    except (ValueError, NotFound):\n        pass\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        assert len(offences(bad)) == 4
    finally:
        PACKAGE = saved
