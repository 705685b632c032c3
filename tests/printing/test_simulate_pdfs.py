"""scripts/simulate_event.py --pdf-dir writes every document for every round."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pdf_helpers import pdf_text, squash

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "simulate_event.py"


def test_simulate_writes_every_document(tmp_path):
    names = tmp_path / "names.txt"
    players = ["山田太郎", "王小明", "Šárka Dvořáková", "<b>Bobby</b> Tables", "김민준", "Иван Петров", "Ann"]
    names.write_text("\n".join(players), encoding="utf-8")
    out = subprocess.run([sys.executable, str(SCRIPT), "--json", "--players", "7", "--rounds", "2", "--names",
                          str(names), "--pdf-dir", str(tmp_path / "pdf")], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    files = {Path(p).name for p in result["pdfs"]}
    for slug in ("pairings-by-table", "pairings-by-name", "result-slips", "standings"):
        assert {f"event-1-{slug}-round-1.pdf", f"event-1-{slug}-round-2.pdf"} <= files
    assert {"event-1-rules.pdf", "event-1-prize-slips.pdf", "event-1-decklists.pdf",
            "event-1-deck-check-report.pdf"} <= files
    for slug in ("pairings-by-table", "pairings-by-name", "standings"):
        flat = squash(pdf_text((tmp_path / "pdf" / f"event-1-{slug}-round-2.pdf").read_bytes()))
        for name in players:
            assert squash(name) in flat, (slug, name)
