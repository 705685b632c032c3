"""The base document: builds a PDF from a story of flowables and returns the bytes.

Every page carries the event's name, the document's title, the round, the
page number and the time of printing. Paper is the event's: A4 or Letter.
Every word printed is a message in the document's language: `self._("Page %(number)s", number=n)`
translates through the data's `info.words` (English when the data was built by hand).
"""
from __future__ import annotations

from datetime import timezone
from io import BytesIO

from zoneinfo import ZoneInfo

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, Table, TableStyle

from . import fonts
from ..timezones import valid_zone
from .data import N_, DocInfo

rl_config.useA85 = 0          # binary streams: smaller files, and no slow pure-Python ASCII85 step

PAPER = {"A4": A4, "LETTER": LETTER}
MARGIN = 15 * mm
HEADER = 12 * mm
FOOTER = 10 * mm

BASE = ParagraphStyle("base", fontName=fonts.REGULAR, fontSize=10, leading=12.5)
STYLES = {
    "body": BASE,
    "small": ParagraphStyle("small", parent=BASE, fontSize=8, leading=10),
    "cell": ParagraphStyle("cell", parent=BASE, fontSize=10, leading=12),
    "cell-bold": ParagraphStyle("cell-bold", parent=BASE, fontName=fonts.BOLD, fontSize=10, leading=12),
    "head": ParagraphStyle("head", parent=BASE, fontName=fonts.BOLD, fontSize=9, leading=11),
    "title": ParagraphStyle("title", parent=BASE, fontName=fonts.BOLD, fontSize=18, leading=22, spaceAfter=6),
    "h2": ParagraphStyle("h2", parent=BASE, fontName=fonts.BOLD, fontSize=13, leading=16, spaceBefore=8,
                         spaceAfter=4),
    "h3": ParagraphStyle("h3", parent=BASE, fontName=fonts.BOLD, fontSize=11, leading=13, spaceBefore=4,
                         spaceAfter=2),
    "big": ParagraphStyle("big", parent=BASE, fontSize=16, leading=19),
    "box": ParagraphStyle("box", parent=BASE, fontSize=13, leading=14),
    "big-bold": ParagraphStyle("big-bold", parent=BASE, fontName=fonts.BOLD, fontSize=16, leading=19),
    "big-right": ParagraphStyle("big-right", parent=BASE, fontName=fonts.BOLD, fontSize=16, leading=19,
                                alignment=TA_RIGHT),
    "huge": ParagraphStyle("huge", parent=BASE, fontName=fonts.BOLD, fontSize=24, leading=29,
                           alignment=TA_CENTER),
    "center": ParagraphStyle("center", parent=BASE, alignment=TA_CENTER),
    "bullet": ParagraphStyle("bullet", parent=BASE, leftIndent=12, bulletIndent=2, spaceAfter=2),
}

GRID = colors.HexColor("#888888")
SHADE = colors.HexColor("#eeeeee")


def para(text, style: str = "body", bold: bool | None = None) -> Paragraph:
    """A Paragraph of plain text: escaped (markup prints literally), with per-script font runs."""
    st = STYLES[style]
    if bold is None:
        bold = st.fontName == fonts.BOLD
    bullet = "\u2022" if style == "bullet" else None
    return Paragraph(fonts.markup("" if text is None else str(text), bold), st, bulletText=bullet)


def number_text(value) -> str:
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.3f}".rstrip("0").rstrip(".")
    return str(value)


class CutLine(Flowable):
    """A dashed line across the frame with scissors: cut here."""

    def __init__(self, space: float = 4 * mm):
        super().__init__()
        self.space = space

    def wrap(self, available_width, available_height):
        self.width = available_width
        return available_width, 2 * self.space

    def draw(self):
        c = self.canv
        y = self.space
        c.saveState()
        c.setStrokeColor(GRID)
        c.setDash(4, 3)
        c.line(0, y, self.width, y)
        c.setFillColor(colors.white)
        c.rect(6 * mm - 1, y - 5, 12, 10, stroke=0, fill=1)
        c.setFillColor(colors.black)
        c.setFont(fonts.REGULAR, 10)
        c.drawString(6 * mm, y - 3.5, "\u2702")
        c.restoreState()


class PrintDocument:
    """One printable document. Subclasses set `slug`, `title` (a message: N_("...")) and build `story()`."""
    slug = "document"
    title = N_("Document")
    needs_round = False           # the document is about one round (pairings, slips)
    uses_round = False            # a round may be given (standings after round N)
    data_type: type | None = None

    def __init__(self, data):
        self.data = data
        self.info: DocInfo = data.info

    # -- page geometry
    @property
    def pagesize(self):
        return PAPER.get(str(self.info.paper_size or "A4").upper(), A4)

    @property
    def frame_width(self) -> float:
        return self.pagesize[0] - 2 * MARGIN

    @property
    def frame_height(self) -> float:
        return self.pagesize[1] - 2 * MARGIN - HEADER - FOOTER

    # -- the document's language
    def _(self, message: str, /, **values) -> str:
        """A message in the document's language, its %(name)s placeholders filled in."""
        return self.info.words.gettext(message, **values)

    def _n(self, singular: str, plural: str, num: int, /, **values) -> str:
        """A message with a count (%(num)d) in the document's language."""
        return self.info.words.ngettext(singular, plural, num, **values)

    def number(self, value) -> str:
        """A point total or a tiebreaker as the document's language writes numbers."""
        return (self.info.words.number or number_text)(value)

    @property
    def heading(self) -> str:
        """The document's title in its language."""
        return self._(self.title)

    # -- what subclasses write
    def story(self) -> list:
        raise NotImplementedError

    def round_text(self) -> str:
        if self.info.round_number is None:
            return ""
        if self.info.stage and self.info.stage not in ("swiss", "pods"):
            return self._("Round %(number)s — %(stage)s", number=self.info.round_number,
                          stage=self.info.stage_label or self.info.stage)
        return self._("Round %(number)s", number=self.info.round_number)

    def printed_text(self) -> str:
        """When the document was printed, on the event's clock: 2026-12-05 10:30 CET."""
        if self.info.printed_text:
            return self.info.printed_text
        printed = self.info.printed_at
        if printed.tzinfo is None:
            printed = printed.replace(tzinfo=timezone.utc)
        zone = ZoneInfo(self.info.zone) if valid_zone(self.info.zone) else timezone.utc
        return printed.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")

    # -- building
    def _decorate(self, canvas, doc) -> None:
        w, h = self.pagesize
        canvas.saveState()
        top = h - MARGIN - 9
        fonts.draw_string(canvas, MARGIN, top, self.info.event_name, 11, bold=True)
        right = " · ".join(t for t in (self.heading, self.round_text()) if t)
        fonts.draw_string(canvas, w - MARGIN, top, right, 10, align="right")
        canvas.setStrokeColor(GRID)
        canvas.setLineWidth(0.5)
        canvas.line(MARGIN, h - MARGIN - HEADER + 3 * mm, w - MARGIN, h - MARGIN - HEADER + 3 * mm)
        stamp = self._("Printed %(time)s", time=self.printed_text())
        fonts.draw_string(canvas, MARGIN, MARGIN, stamp, 8)
        fonts.draw_string(canvas, w - MARGIN, MARGIN, self._("Page %(number)s", number=doc.page), 8, align="right")
        if self.info.round_number is not None:
            fonts.draw_string(canvas, w / 2, MARGIN, self.round_text(), 8, align="center")
        canvas.restoreState()

    def render(self) -> bytes:
        """The PDF as bytes."""
        fonts.register_fonts()
        buf = BytesIO()
        subject = " · ".join(t for t in (self.heading, self.round_text()) if t)
        doc = BaseDocTemplate(buf, pagesize=self.pagesize, leftMargin=MARGIN, rightMargin=MARGIN,
                              topMargin=MARGIN + HEADER, bottomMargin=MARGIN + FOOTER,
                              title=f"{self.info.event_name}: {subject}", author="EDH Tournament",
                              subject=subject, creator="EDH Tournament (ReportLab)")
        frame = Frame(MARGIN, MARGIN + FOOTER, self.frame_width, self.frame_height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=self._decorate)])
        story = self.story()
        if not story:
            story = [para(self._("Nothing to print."))]
        doc.build(story)
        return buf.getvalue()

    # -- helpers for subclasses
    def table(self, rows, widths, header: bool = True, zebra: bool = False, extra=(), repeat: bool = True,
              nosplit: bool = False, rules: bool = True) -> Table:
        """`rules`: a thin line under every row (off for a boxed slip, whose border must stay unbroken)."""
        t = Table(rows, colWidths=widths, repeatRows=1 if header and repeat else 0, hAlign="LEFT")
        cmds = [("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]
        if rules:
            cmds.append(("LINEBELOW", (0, 0), (-1, -1), 0.25, GRID))
        if header:
            cmds += [("BACKGROUND", (0, 0), (-1, 0), SHADE), ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black)]
        if zebra and len(rows) > 2:
            cmds.append(("ROWBACKGROUNDS", (0, 1 if header else 0), (-1, -1), [colors.white, SHADE]))
        if nosplit:
            cmds.append(("NOSPLIT", (0, 0), (-1, -1)))
        t.setStyle(TableStyle(cmds + list(extra)))
        return t

    def long_table(self, header: list, rows: list, widths, row_height: float, zebra: bool = True) -> list:
        """A long table as page-sized chunks, each with the header row: splitting one huge table
        costs time that grows with the square of its length."""
        per_page = max(5, int((self.frame_height - 40) // row_height) - 1)
        out = []
        for i in range(0, len(rows), per_page):
            out.append(self.table([header] + rows[i:i + per_page], widths, zebra=zebra))
        return out


MIN_SIZE = 8          # no printed name or cell below 8 pt: a longer one wraps onto more lines instead


def wrap_text(text: str, room: float, size: float, bold: bool = False) -> list[str]:
    """`text` cut into lines no wider than `room` at `size`: at spaces where it can, else between characters."""
    lines, line = [], ""
    for word in text.replace("\n", " ").split(" "):
        candidate = f"{line} {word}" if line else word
        if fonts.string_width(candidate, size, bold) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:                      # a word wider than the line: break it between characters
            if line and fonts.string_width(line + ch, size, bold) > room:
                lines.append(line)
                line = ""
            line += ch
    if line:
        lines.append(line)
    return lines or [""]


def cell_layout(text: str, room: float, size: float, bold: bool = False) -> tuple[float, list[str]]:
    """(font size, lines) of a table cell: one line at `size`, or a little smaller down to 8 pt, else
    wrapped onto several lines at a readable size (never below MIN_SIZE)."""
    w = fonts.string_width(text, size, bold)
    if w <= room or room <= 0:
        return size, [text]
    shrunk = size * room / w
    if shrunk >= MIN_SIZE:
        return shrunk, [text]
    wrap_size = max(MIN_SIZE, min(size, 9))
    return wrap_size, wrap_text(text, room, wrap_size, bold)


class TextRows(Flowable):
    """A fast table of plain-text cells: for thousands of rows (pairings, standings).

    Cells are drawn straight on the canvas with per-script font runs; a cell too wide for its column is set
    a little smaller (down to 8 pt), and past that wraps onto more lines, its row taller: never cut, never
    below 8 pt. `groups` are row indexes that start a group (a pod): a rule is drawn above them and a page
    break never falls inside a group.
    """

    def __init__(self, rows, widths, size: float = 10, header=None, bold=(), align=None, zebra: bool = False,
                 groups=None, pad: float = 3, clean: bool = False):
        super().__init__()
        self.rows = rows if clean else [tuple("" if c is None else str(c) for c in r) for r in rows]
        self.widths = list(widths)
        self.size = size
        self.header = tuple(header) if header else None
        self.bold = set(bold)
        self.align = list(align or ["left"] * len(self.widths))
        self.zebra = zebra
        self.groups = sorted(set(groups)) if groups is not None else None
        self.pad = pad
        self.row_height = size * 1.55
        self.width = sum(self.widths)
        self.heights = [self._height(r) for r in self.rows]

    def _kw(self):
        return dict(size=self.size, header=self.header, bold=self.bold, align=self.align, zebra=self.zebra,
                    pad=self.pad, clean=True)

    def _height(self, cells, bold_all: bool = False) -> float:
        """A row's height: one line, or as many as its most wrapped cell needs."""
        lines = 1
        for i, (text, width) in enumerate(zip(cells, self.widths)):
            bold, room = bold_all or i in self.bold, width - 2 * self.pad
            if text and fonts.string_width(text, self.size, bold) > room:
                lines = max(lines, len(cell_layout(text, room, self.size, bold)[1]))
        if lines == 1:
            return self.row_height
        return self.row_height + (lines - 1) * max(MIN_SIZE, min(self.size, 9)) * 1.2

    def _header_height(self) -> float:
        return self._height(self.header, bold_all=True) if self.header else 0

    def wrap(self, available_width, available_height):
        self.height = self._header_height() + sum(self.heights)
        return self.width, self.height

    def _fit(self, available_height) -> int:
        room, fit = available_height - self._header_height(), 0
        for h in self.heights:
            if room < h:
                break
            room -= h
            fit += 1
        return fit

    def split(self, available_width, available_height):
        fit = self._fit(available_height)
        if fit <= 0 or fit >= len(self.rows):
            return [] if fit <= 0 else [self]
        groups = None
        if self.groups is not None:
            starts = [g for g in self.groups if 0 < g <= fit]
            if not starts:
                return []
            fit = starts[-1]
            groups = ([g for g in self.groups if g < fit], [g - fit for g in self.groups if g >= fit])
        first = TextRows(self.rows[:fit], self.widths, groups=groups[0] if groups else None, **self._kw())
        rest = TextRows(self.rows[fit:], self.widths, groups=groups[1] if groups else None, **self._kw())
        return [first, rest]

    def _cell(self, c, x, y, text, width, bold, align) -> None:
        if not text:
            return
        size, lines = cell_layout(text, width - 2 * self.pad, self.size, bold)
        for n, line in enumerate(lines):
            w = fonts.string_width(line, size, bold)
            if align == "right":
                tx = x + width - self.pad - w
            elif align == "center":
                tx = x + (width - w) / 2
            else:
                tx = x + self.pad
            for font, chunk in fonts.runs(line, bold):
                c.setFont(font, size)
                c.drawString(tx, y - n * size * 1.2, chunk)
                tx += pdfmetrics.stringWidth(chunk, font, size)

    def _row(self, c, top, cells, bold_all=False) -> None:
        baseline = top - self.row_height + (self.row_height - self.size) / 2 + self.size * 0.22
        x = 0
        for i, (text, width) in enumerate(zip(cells, self.widths)):
            self._cell(c, x, baseline, text, width, bold_all or i in self.bold, self.align[i])
            x += width

    def draw(self):
        c = self.canv
        top = self.height
        c.saveState()
        c.setLineWidth(0.25)
        c.setStrokeColor(GRID)
        if self.header:
            rh = self._header_height()
            c.setFillColor(SHADE)
            c.rect(0, top - rh, self.width, rh, stroke=0, fill=1)
            c.setFillColor(colors.black)
            self._row(c, top, self.header, bold_all=True)
            c.setStrokeColor(colors.black)
            c.setLineWidth(0.8)
            c.line(0, top - rh, self.width, top - rh)
            c.setLineWidth(0.25)
            c.setStrokeColor(GRID)
            top -= rh
        starts = set(self.groups or ())
        for i, (cells, rh) in enumerate(zip(self.rows, self.heights)):
            self._draw_row(c, i, top, cells, rh, i in starts)
            top -= rh
        c.restoreState()

    def _draw_row(self, c, i, top, cells, rh, starts_group) -> None:
        if self.zebra and i % 2:
            c.setFillColor(SHADE)
            c.rect(0, top - rh, self.width, rh, stroke=0, fill=1)
            c.setFillColor(colors.black)
        if starts_group:
            c.setStrokeColor(colors.black)
            c.setLineWidth(0.8)
            c.line(0, top, self.width, top)
            c.setLineWidth(0.25)
            c.setStrokeColor(GRID)
        self._row(c, top, cells)
        c.line(0, top - rh, self.width, top - rh)
