"""Shared by the printing tests: names in every script, deck texts, PDF text extraction."""
from __future__ import annotations

from io import BytesIO
from pathlib import Path

from pdfminer.high_level import extract_text


ROOT = Path(__file__).resolve().parents[2]
KENRITH = (ROOT / "tournament" / "data" / "demo_decks" / "kenrith.txt").read_text(encoding="utf-8")
ILLEGAL = (ROOT / "tournament" / "data" / "demo_decks" / "phelddagrif-illegal.txt").read_text(encoding="utf-8")

NAMES = ["Šárka Dvořáková", "山田太郎", "王小明", "김민준", "Иван Петров", "<b>Bobby</b> Tables", "Zoë Müller",
         "Ben Smith"]
PRIZES = [{"id": "combat_damage", "name": "Most combat damage dealt in one turn", "kind": "max"},
          {"id": "general_damage_win", "name": "Won by general damage", "kind": "count"}]


def pdf_text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    return extract_text(BytesIO(pdf))


def squash(text: str) -> str:
    """Extracted text without whitespace: names split over runs or lines still match."""
    return "".join(text.split())
