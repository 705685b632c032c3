"""TrueType fonts for every script, registered once with ReportLab.

DejaVu Sans (Debian `fonts-dejavu-core`) prints Latin with diacritics,
Cyrillic, Greek and the symbols on the slips; WenQuanYi Micro Hei (Debian
`fonts-wqy-microhei`, a TrueType collection with glyf outlines) prints
Japanese, Chinese and Korean. Text is split into runs by which font has each
character, so a name mixing scripts prints with no missing-glyph boxes; Arabic
and Hebrew are shaped and put in drawing order first (`visual`).

Fonts are looked up in the directories of the PRINT_FONT_DIRS setting (or
environment variable, separated by os.pathsep) and then at the usual Debian
paths.
"""
from __future__ import annotations

import os
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

import arabic_reshaper
from bidi import get_display
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "PrintSans"
BOLD = "PrintSans-Bold"
CJK = "PrintCJK"

SYSTEM_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/truetype/wqy",
    "/usr/share/fonts/truetype",
    "/usr/share/fonts",
    "/usr/local/share/fonts",
)


@dataclass(frozen=True)
class FontFile:
    name: str            # the ReportLab font name
    filename: str
    package: str         # the Debian package that installs it
    subfont: int = 0     # index in a .ttc collection


FONT_FILES = (
    FontFile(REGULAR, "DejaVuSans.ttf", "fonts-dejavu-core"),
    FontFile(BOLD, "DejaVuSans-Bold.ttf", "fonts-dejavu-core"),
    FontFile(CJK, "wqy-microhei.ttc", "fonts-wqy-microhei"),
)


class FontsMissing(RuntimeError):
    """A font file printing needs is not installed."""


_lock = threading.Lock()
_registered: dict[str, TTFont] = {}


def font_dirs(extra=None) -> list[Path]:
    dirs: list[str] = []
    for value in (extra, os.environ.get("PRINT_FONT_DIRS")):
        if isinstance(value, str):
            dirs.extend(d for d in value.split(os.pathsep) if d)
        elif value:
            dirs.extend(str(d) for d in value)
    dirs.extend(SYSTEM_DIRS)
    return [Path(d) for d in dirs]


def find_font(filename: str, dirs: list[Path]) -> Path | None:
    for d in dirs:
        p = d / filename
        if p.is_file():
            return p
    for d in dirs:                       # one level of subfolders (/usr/share/fonts/truetype/*/)
        if d.is_dir():
            for p in d.glob(f"*/{filename}"):
                if p.is_file():
                    return p
    return None


def register_fonts(extra_dirs=None) -> None:
    """Register the three fonts once per process; raise FontsMissing naming the Debian package."""
    if len(_registered) == len(FONT_FILES):
        return
    with _lock:
        if len(_registered) == len(FONT_FILES):
            return
        dirs = font_dirs(extra_dirs)
        missing = []
        found = {}
        for f in FONT_FILES:
            path = find_font(f.filename, dirs)
            if path is None:
                missing.append(f)
            else:
                found[f] = path
        if missing:
            packages = sorted({f.package for f in missing})
            raise FontsMissing(
                "Printing needs the font file(s) " + ", ".join(f.filename for f in missing)
                + ". Install the Debian package(s) with: apt-get install -y " + " ".join(packages)
                + " (or put the files in a folder named by the PRINT_FONT_DIRS setting).")
        for f, path in found.items():
            font = TTFont(f.name, str(path), subfontIndex=f.subfont)
            pdfmetrics.registerFont(font)
            _registered[f.name] = font
        pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
        _covered.cache_clear()
        runs.cache_clear()
        markup.cache_clear()


@lru_cache(maxsize=1 << 16)
def _covered(font_name: str, ch: str) -> bool:
    return ord(ch) in _registered[font_name].face.charToGlyph


def _right_to_left(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def visual(text: str) -> str:
    """Text in the order a PDF draws it. Arabic letters take their joined forms (arabic-reshaper) and
    right-to-left runs are reordered by the Unicode bidi algorithm (python-bidi), so "محمد الراشد"
    prints joined and reads right to left; text without Hebrew or Arabic is returned unchanged."""
    if not any(_right_to_left(ch) for ch in text):
        return text
    return get_display(arabic_reshaper.reshape(text))


@lru_cache(maxsize=1 << 16)
def runs(text: str, bold: bool = False) -> tuple[tuple[str, str], ...]:
    """Split text (in drawing order, see `visual`) into (font name, text) runs: DejaVu where it has
    the glyph, else WenQuanYi."""
    main = BOLD if bold else REGULAR
    out: list[tuple[str, str]] = []
    cur_font, buf = main, []
    for ch in visual(text):
        if ch.isspace():
            font = cur_font
        elif _covered(main, ch):
            font = main
        elif _covered(CJK, ch):
            font = CJK
        else:
            font = main                  # neither has it: DejaVu's missing-glyph box
        if font != cur_font and buf:
            out.append((cur_font, "".join(buf)))
            buf = []
        cur_font = font
        buf.append(ch)
    if buf:
        out.append((cur_font, "".join(buf)))
    return tuple(out)


@lru_cache(maxsize=1 << 15)
def markup(text: str, bold: bool = False) -> str:
    """Paragraph markup for plain text: escaped (so `<b>` prints literally), with font runs."""
    text = "" if text is None else str(text)
    parts = []
    for font, chunk in runs(text, bold):
        chunk = escape(chunk)
        if font == CJK:
            parts.append(f'<font face="{CJK}">{chunk}</font>')
        else:
            parts.append(chunk)
    return "".join(parts)


def needs_fallback(text: str, bold: bool = False) -> bool:
    main = BOLD if bold else REGULAR
    return any(not (ch.isspace() or _covered(main, ch)) for ch in text)


def string_width(text: str, size: float, bold: bool = False) -> float:
    return sum(pdfmetrics.stringWidth(chunk, font, size) for font, chunk in runs(text, bold))


def draw_string(canvas, x: float, y: float, text: str, size: float, bold: bool = False,
                align: str = "left") -> None:
    """Draw plain text on a canvas with font runs (page headers and footers)."""
    parts = runs(text, bold)
    if align != "left":
        width = sum(pdfmetrics.stringWidth(c, f, size) for f, c in parts)
        x -= width if align == "right" else width / 2
    for font, chunk in parts:
        canvas.setFont(font, size)
        canvas.drawString(x, y, chunk)
        x += pdfmetrics.stringWidth(chunk, font, size)
