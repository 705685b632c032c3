"""The layering the request lifecycle relies on: views, API handlers and CLI commands never end a transaction."""
from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tournament"
FORBIDDEN = re.compile(r"\b(?:db\.)?session\.(commit|rollback|flush)\(|\.flush\(\)")


def thin_layers() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if p.name in ("views.py", "api.py", "cli.py") or p.name.endswith("_views.py"))


def test_views_api_and_cli_never_commit_flush_or_roll_back():
    files = thin_layers()
    assert len(files) >= 10
    offenders = [f"{p.relative_to(PACKAGE)}:{n}: {line.strip()}" for p in files
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if FORBIDDEN.search(line)]
    assert offenders == []
