"""One class per printed document; each takes plain data (tournament.printing.data) and returns PDF bytes.

    pdf = PairingsByTable(pairings_data).render()
    pdf = render("standings", standings_data)

Pure layout: every word is a message, translated through the data (`self._("Table %(number)s", number=n)`,
titles and labels marked with N_()); tournament.printing.operations gives the data its language.
"""
from __future__ import annotations

import unicodedata

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Spacer, Table, TableStyle

from . import data as d
from .base import CutLine, PrintDocument, TextRows, para
from .data import N_

BOX = "\u2610"          # ☐

# A deck's status and a finding's severity are codes in the data; these are the words printed for them.
DECK_STATUS = {"legal": N_("legal"), "illegal": N_("illegal"), "missing": N_("missing")}
SEVERITY = {"error": N_("error"), "warning": N_("warning")}
# The card types a decklist groups by (tournament.decks.checks.TYPE_ORDER, then Other).
CARD_TYPES = {"Creature": N_("Creature"), "Planeswalker": N_("Planeswalker"), "Battle": N_("Battle"),
              "Land": N_("Land"), "Instant": N_("Instant"), "Sorcery": N_("Sorcery"), "Artifact": N_("Artifact"),
              "Enchantment": N_("Enchantment"), "Other": N_("Other")}


def name_key(name: str) -> tuple:
    """Alphabetical by the name as written, for every script, with no locale: NFKD, accents last."""
    decomposed = unicodedata.normalize("NFKD", name or "")
    base = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return (base, decomposed.casefold(), name or "")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ----------------------------------------------------------------- 1. pairings by table

class PairingsByTable(PrintDocument):
    slug = "pairings-by-table"
    title = N_("Pairings by table")
    needs_round = True
    data_type = d.PairingsData

    def story(self) -> list:
        data: d.PairingsData = self.data
        _ = self._
        out = [para(_("%(title)s — %(round)s", title=self.heading, round=self.round_text()), "title")]
        if getattr(data, "stage_note", ""):
            out.append(para(data.stage_note, "body"))
        tables = [t for t in data.tables if t.kind != "bye"]
        byes = [t for t in data.tables if t.kind == "bye"]
        w = self.frame_width
        if not data.tables:
            out.append(para(_("This round has no tables.")))
        if data.mode == "duel" or any(t.kind == "match" for t in tables):
            rows = []
            versus = _("vs")
            for t in tables:
                names = [s.name for s in t.seats] + [""] * (2 - len(t.seats))
                rows.append((_("Table %(number)s", number=t.number), names[0], versus, names[1]))
            if rows:
                out.append(TextRows(rows, [24 * mm, (w - 36 * mm) / 2, 12 * mm, (w - 36 * mm) / 2], size=11,
                                    header=(_("Table"), _("Player (seat 1)"), "", _("Player (seat 2)")), bold=(0,),
                                    align=["left", "left", "center", "left"], zebra=True))
        else:
            rows, groups = [], []
            for t in tables:
                groups.append(len(rows))
                for i, s in enumerate(t.seats):
                    rows.append((_("Table %(number)s", number=t.number) if i == 0 else "",
                                 _("Seat %(number)s", number=s.seat), s.name))
            if rows:
                out.append(TextRows(rows, [26 * mm, 20 * mm, w - 46 * mm], size=11, bold=(0,), groups=groups,
                                    header=(_("Table"), _("Seat"), _("Player"))))
        if byes:
            waiting = self.info.stage.startswith("top") and data.mode == "pods"
            out.append(para(_("Top seeds waiting for the next stage") if waiting else _("Byes"), "h2"))
            rows = [(_("Table %(number)s", number=t.number), _("waits") if waiting else _("bye"),
                     ", ".join(s.name for s in t.seats))
                    for t in byes]
            out.append(TextRows(rows, [26 * mm, 20 * mm, w - 46 * mm], size=11, bold=(0,)))
        return out


# ----------------------------------------------------------------- 2. pairings by name

class PairingsByName(PrintDocument):
    slug = "pairings-by-name"
    title = N_("Pairings by name")
    needs_round = True
    data_type = d.PairingsData

    def story(self) -> list:
        data: d.PairingsData = self.data
        _ = self._
        entries = []
        for t in data.tables:
            for s in t.seats:
                entries.append((name_key(s.name), t.number, s.seat, s, t))
        entries.sort(key=lambda e: e[:3])
        w = self.frame_width
        duel = data.mode == "duel"
        header = (_("Name"), _("Table"), _("Seat"))
        widths = [w - 50 * mm, 25 * mm, 25 * mm]
        align = ["left", "right", "right"]
        if duel:
            header += (_("Opponent"),)
            widths = [(w - 50 * mm) * 0.55, 25 * mm, 25 * mm, (w - 50 * mm) * 0.45]
            align.append("left")
        rows = []
        bye_word = _("bye")
        for _key, _number, _seat, s, t in entries:
            bye = t.kind == "bye"
            row = (s.name, str(t.number), bye_word if bye else str(s.seat))
            if duel:
                row += ("—" if bye else ", ".join(o.name for o in t.seats if o is not s),)
            rows.append(row)
        out = [para(_("%(title)s — %(round)s", title=self.heading, round=self.round_text()), "title")]
        if not rows:
            out.append(para(_("This round has no players seated.")))
            return out
        return out + [TextRows(rows, widths, size=16, header=header, align=align, zebra=True, bold=(1,))]


# ----------------------------------------------------------------- 3. standings

class Standings(PrintDocument):
    slug = "standings"
    title = N_("Standings")
    uses_round = True
    data_type = d.StandingsData

    def story(self) -> list:
        data: d.StandingsData = self.data
        _ = self._
        heading = (_("Standings after round %(number)s", number=data.after_round) if data.after_round
                   else self.heading)
        out = [para(heading, "title")]
        if data.winner:
            out.append(para(_("%(name)s won the final and the event.", name=data.winner), "h2"))
        out += [para(_("Scoring: %(name)s", name=data.profile_name), "small"), Spacer(1, 3 * mm)]
        cols = list(data.columns)
        names = list(data.column_names) if len(data.column_names) == len(cols) else cols
        header = ("#", _("Name"), _("Points"), *names, _("Record")) + ((_("Votes"),) if data.uses_votes else ())
        rows = []
        number = self.number
        for r in data.rows:
            row = (str(r.rank), r.name, number(r.points),
                   *(number(r.tiebreakers.get(c, "")) for c in cols), r.record)
            if data.uses_votes:
                row += (str(r.votes),)
            rows.append(row)
        w = self.frame_width
        fixed = 12 * mm + 16 * mm + 20 * mm * len(cols) + 30 * mm + (14 * mm if data.uses_votes else 0)
        name_w = max(40 * mm, w - fixed)
        widths = [12 * mm, name_w, 16 * mm] + [20 * mm] * len(cols) + [30 * mm]
        if data.uses_votes:
            widths.append(14 * mm)
        if not rows:
            return out + [para(_("No results yet."))]
        align = ["right", "left"] + ["right"] * (len(widths) - 2)
        legend = [para(f"{name}: {words}", "small") for name, words in data.legend if words]
        return out + [TextRows(rows, widths, size=10, header=header, align=align, zebra=True, bold=(2,)),
                      Spacer(1, 3 * mm), *legend]


# ----------------------------------------------------------------- 4. result slips

class ResultSlips(PrintDocument):
    slug = "result-slips"
    title = N_("Result slips")
    needs_round = True
    data_type = d.SlipsData

    def story(self) -> list:
        data: d.SlipsData = self.data
        slips = [t for t in data.tables if t.kind != "bye"]
        if not slips:
            return [para(self._("This round has no tables to report."))]
        return three_per_page((self._match_slip(t) if t.kind == "match" else self._pod_slip(t) for t in slips),
                              self.frame_width, self.frame_height)

    def _title(self, t: d.TableLine) -> list:
        values = dict(number=t.number, round=self.round_text(), event=self.info.event_name)
        if t.extra_minutes:
            text = self._("Table %(number)s · %(round)s · %(event)s · time extension +%(minutes)s min",
                          minutes=t.extra_minutes, **values)
        else:
            text = self._("Table %(number)s · %(round)s · %(event)s", **values)
        return [para(text, "h3")]

    def _signatures(self, t: d.TableLine) -> list:
        w = self.frame_width
        signature = self._("Signature: ________________________")
        rows = [[para(f"{s.name}", "cell"), para(signature, "cell")] for s in t.seats]
        return [para(self._("Signatures: every player confirms the result"), "small"),
                self.table(rows, [w * 0.45, w * 0.55], header=False,
                           extra=[("LINEBELOW", (0, 0), (-1, -1), 0, colors.white)])]

    def _pod_slip(self, t: d.TableLine) -> list:
        """One table per pod, small enough for three on a page: each seat's row has the boxes to tick, the
        vote and the player's signature."""
        data: d.SlipsData = self.data
        _ = self._
        w = self.frame_width
        heads = [_("Seat"), _("Player"), _("Survived"), _("Out (order)")]
        fixed = [11 * mm, 0, 20 * mm, 20 * mm]
        if data.uses_votes:
            heads.append(_("Votes for"))
            fixed.append(34 * mm)
        heads.append(_("Signature"))
        fixed.append(32 * mm)
        fixed[1] = w - sum(fixed)
        rows = [[para(str(s.seat), "cell"), para(s.name, "cell"), para(BOX, "box"), para(f"{BOX} #__", "box")]
                + ([para("", "cell")] if data.uses_votes else []) + [para("", "cell")] for s in t.seats]
        block = self._title(t) + [self.table([[para(h, "head") for h in heads]] + rows, fixed)]
        hint = (_("Survived: tick. Out: the order players were eliminated (1 = first out). Votes for: the one "
                  "other player who made the game most fun. Every player signs to confirm.") if data.uses_votes
                else _("Survived: tick. Out: the order players were eliminated (1 = first out). Every player "
                       "signs to confirm."))
        block.append(para(hint, "small"))
        if data.prize_conditions:
            block.append(self._prize_lines(data.prize_conditions))
        return block

    def _prize_lines(self, conditions):
        """The alternate prize conditions, two to a line: the condition, then blanks for the holder and value."""
        w = self.frame_width
        blank = self._("Player: ____________  Value: ____")
        cells = [[para(c.name, "small"), para(blank, "small")] for c in conditions]
        rows = [sum(cells[i:i + 2], []) + [para("", "small")] * (4 - 2 * len(cells[i:i + 2]))
                for i in range(0, len(cells), 2)]
        return self.table(rows, [w * 0.24, w * 0.26] * 2, header=False,
                          extra=[("LINEBELOW", (0, 0), (-1, -1), 0, colors.white), ("TOPPADDING", (0, 0), (-1, -1), 1),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 1)])

    def _match_slip(self, t: d.TableLine) -> list:
        data: d.SlipsData = self.data
        w = self.frame_width
        games = max(1, data.best_of or 3)
        _ = self._
        header = [para(_("Seat"), "head"), para(_("Player"), "head")] + [
            para(_("Game %(number)s won", number=g), "head") for g in range(1, games + 1)]
        gw = 22 * mm
        widths = [12 * mm, w - 12 * mm - gw * games] + [gw] * games
        rows = [[para(str(s.seat), "cell"), para(s.name, "cell")] + [para(BOX, "big") for _game in range(games)]
                for s in t.seats]
        rows.append([para("", "cell"), para(_("Drawn game"), "cell")]
                    + [para(BOX, "big") for _game in range(games)])
        return self._title(t) + [self.table([header] + rows, widths)] + self._signatures(t)


# ----------------------------------------------------------------- 5. prize slips

class PrizeSlips(PrintDocument):
    slug = "prize-slips"
    title = N_("Prize slips")
    data_type = d.PrizeSlipsData

    def story(self) -> list:
        data: d.PrizeSlipsData = self.data
        if not data.slips:
            return [para(self._("No prizes to hand out yet: no results have been entered."))]
        return cut_apart(self._slip(slip) for slip in data.slips)

    def _slip(self, slip: d.PrizeSlip):
        rows = [[para(self.info.event_name, "center")], [para(slip.title, "h2")], [para(slip.name, "huge")],
                [para(slip.detail, "center")],
                [para(self._("Handed over by: ________________   Received (signature): ________________"),
                      "small")]]
        return self.table(rows, [self.frame_width], header=False, nosplit=True, rules=False,
                          extra=[("BOX", (0, 0), (-1, -1), 1, colors.black), ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                                 ("TOPPADDING", (0, 0), (-1, -1), 5)])


# ----------------------------------------------------------------- 6. decklists and the deck check report

class Decklists(PrintDocument):
    slug = "decklists"
    title = N_("Decklists")
    data_type = d.DecklistsData

    def story(self) -> list:
        data: d.DecklistsData = self.data
        out = []
        for i, sheet in enumerate(data.sheets):
            if i:
                out.append(PageBreak())
            out += self._sheet(sheet)
        return out or [para(self._("No players registered."))]

    def _cards(self, cards) -> list:
        return [para(f"{c.count}  {c.name}", "cell") for c in cards]

    def _sheet(self, s: d.DeckSheet) -> list:
        _ = self._
        w = self.frame_width
        status = _(DECK_STATUS[s.status]) if s.status in DECK_STATUS else s.status
        if s.submitted:
            line = _("Ruleset: %(ruleset)s · Deck: %(status)s · submitted %(time)s", ruleset=s.ruleset_name,
                     status=status, time=s.submitted)
        else:
            line = _("Ruleset: %(ruleset)s · Deck: %(status)s", ruleset=s.ruleset_name, status=status)
        out = [para(s.player, "title"), para(line, "small")]
        if s.status == "missing":
            return out + [Spacer(1, 4 * mm), para(_("No decklist submitted."))]
        out.append(para(self._n("General", "Generals", 2 if len(s.generals) > 1 else 1), "h2"))
        out += [para(g, "body") for g in s.generals] or [para(_("none named"), "body")]
        out.append(para(_("Main deck (%(count)s)", count=s.main_count), "h2"))
        col: list = []
        for kind, cards in s.main:
            kind_name = _(CARD_TYPES[kind]) if kind in CARD_TYPES else kind
            col.append(para(_("%(type)s (%(count)s)", type=kind_name, count=sum(c.count for c in cards)), "h3"))
            col += self._cards(cards)
        half = (len(col) + 1) // 2
        left, right = col[:half], col[half:]
        rows = [[left[i] if i < len(left) else "", right[i] if i < len(right) else ""] for i in range(half)]
        if rows:
            out.append(self.table(rows, [w / 2, w / 2], header=False,
                                  extra=[("LINEBELOW", (0, 0), (-1, -1), 0, colors.white),
                                         ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                         ("TOPPADDING", (0, 0), (-1, -1), 0),
                                         ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
        out.append(para(_("Sideboard (%(count)s)", count=s.sideboard_count), "h2"))
        out += self._cards(s.sideboard) or [para(_("none"), "body")]
        out.append(para(_("Deck check"), "h2"))
        out.append(para(s.summary or status, "body"))
        for severity, message in s.findings:
            word = _(SEVERITY[severity]) if severity in SEVERITY else severity
            out.append(para(_("%(severity)s: %(message)s", severity=word, message=message), "bullet"))
        out += [Spacer(1, 6 * mm), para(_("Checked by (judge): ____________________   Time: ________"), "body")]
        return out


class DeckCheckReport(PrintDocument):
    slug = "deck-check-report"
    title = N_("Deck check report")
    data_type = d.DeckCheckData

    def story(self) -> list:
        data: d.DeckCheckData = self.data
        _ = self._
        counts = {k: sum(1 for r in data.rows if r.status == k) for k in ("legal", "illegal", "missing")}
        # TRANSLATORS: the English says "players" also for 1; translate both forms by the count.
        line = self._n("Ruleset: %(ruleset)s · %(num)d players: %(legal)s legal, %(illegal)s illegal, "
                       "%(missing)s missing",
                       "Ruleset: %(ruleset)s · %(num)d players: %(legal)s legal, %(illegal)s illegal, "
                       "%(missing)s missing", len(data.rows), ruleset=data.ruleset_name, legal=counts["legal"],
                       illegal=counts["illegal"], missing=counts["missing"])
        out = [para(self.heading, "title"), para(line, "body"), Spacer(1, 3 * mm)]
        w = self.frame_width
        header = [para(h, "head") for h in (_("Player"), _("Deck"), self._n("General", "Generals", 1), _("Errors"),
                                             _("Warnings"), _("Summary"))]
        widths = [36 * mm, 16 * mm, 34 * mm, 14 * mm, 20 * mm, w - 120 * mm]
        rows = [[para(r.name, "cell"),
                 para(_(DECK_STATUS[r.status]) if r.status in DECK_STATUS else r.status,
                      "cell-bold" if r.status != "legal" else "cell"),
                 para(r.generals, "cell"), para(str(r.errors), "cell"), para(str(r.warnings), "cell"),
                 para(r.summary, "small")] for r in data.rows]
        if not rows:
            return out + [para(_("No players registered."))]
        return out + [self.table([header] + rows, widths, zebra=True)]


# ----------------------------------------------------------------- 7. event rules sheet

class RulesSheet(PrintDocument):
    slug = "rules"
    title = N_("Event rules")
    data_type = d.RulesData

    def story(self) -> list:
        r: d.RulesData = self.data
        _ = self._
        out = [para(_("Event rules: %(ruleset)s", ruleset=r.ruleset_name), "title")]
        if r.ruleset_source:
            out.append(para(_("Source: %(source)s", source=r.ruleset_source), "small"))
        out.append(para(_("Deck rules"), "h2"))
        out += [para(t, "bullet") for t in r.deck_rules]
        out.append(para(_("Banned cards"), "h2"))
        if r.banlist:
            added = set(r.banlist_added)
            names = [_("%(card)s (added by the organizer)", card=n) if n in added else n for n in r.banlist]
            # TRANSLATORS: the event's banned cards (English card names, joined by "; ") as one sentence.
            out.append(para(_("%(cards)s.", cards="; ".join(names)), "body"))
        else:
            out.append(para(_("No cards are on this event's banlist."), "body"))
        if r.banlist_note:
            out.append(para(r.banlist_note, "body"))
        if r.banlist_removed:
            out.append(para(_("Taken off the list by the organizer (legal here): %(cards)s.",
                              cards="; ".join(r.banlist_removed)), "body"))
        if r.banned_as_general:
            out.append(para(_("Banned as general only: %(cards)s.", cards="; ".join(r.banned_as_general)), "body"))
        out.append(para(_("Starting the game"), "h2"))
        out.append(para(r.swap_rule, "bullet"))
        out += [para(t, "bullet") for t in r.game_rules]
        out.append(para(_("Scoring: %(name)s", name=r.scoring_name), "h2"))
        out += [para(t, "bullet") for t in r.scoring_rules]
        if r.prize_conditions:
            out.append(para(_("Alternate prizes"), "h3"))
            out += [para(t, "bullet") for t in r.prize_conditions]
        return out


# ----------------------------------------------------------------- 8. the QR poster for the wall

class Poster(PrintDocument):
    slug = "poster"
    title = N_("QR poster")
    data_type = d.PosterData
    needs_public_url = True       # it points phones at the laptop: PUBLIC_URL (or --lan) must be set

    def story(self) -> list:
        p: d.PosterData = self.data
        drawing = qr_drawing(p.url, min(self.frame_width, self.frame_height - 90 * mm))
        drawing.hAlign = "CENTER"
        out = [para(self.info.event_name, "huge"), Spacer(1, 4 * mm)]
        if p.venue:
            out.append(para(p.venue, "center"))
        return out + [para(self._("Scan to register, check your deck and find your table"), "h2"), Spacer(1, 4 * mm),
                      drawing, Spacer(1, 4 * mm), para(p.url, "center")]


def three_per_page(blocks, width: float, height: float) -> list:
    """Result slips three to a page, each in its third with a scissors line between: a slip that fits its
    third is set in a box of exactly that height (the cuts fall in the same place on every page); a
    bigger one (a long pod, long names) takes the room it needs."""
    cut = CutLine(space=2 * mm)
    slot = (height - 2 * cut.wrap(width, height)[1]) / 3 - 1
    out = []
    for i, block in enumerate(blocks):
        if i % 3:
            out.append(CutLine(space=2 * mm))
        content = KeepTogether(block)
        if i % 3 == 0 and i:
            out.append(PageBreak())
        if sum(f.wrap(width, height)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in block) <= slot:
            box = Table([[block]], colWidths=[width], rowHeights=[slot])
            box.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                     ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
                                     ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
            content = box
        out.append(content)
    return out


def cut_apart(blocks) -> list:
    """Slips one after another with a scissors line between them."""
    out = []
    for block in blocks:
        if out:
            out.append(CutLine())
        out.append(block)
    return out


def qr_drawing(data: str, side: float):
    """A QR code (ReportLab's own widget) scaled to a square of `side` points."""
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing
    widget = QrCodeWidget(data, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(side, side, transform=[side / (x1 - x0), 0, 0, side / (y1 - y0), 0, 0])
    drawing.add(widget)
    return drawing


# ----------------------------------------------------------------- 9. every player's receipt at once

class Receipts(PrintDocument):
    slug = "receipts"
    title = N_("Player receipts")
    data_type = d.ReceiptsData
    needs_public_url = True

    def story(self) -> list:
        data: d.ReceiptsData = self.data
        if not data.receipts:
            return [para(self._("No players registered yet."))]
        return cut_apart(self._receipt(r) for r in data.receipts)

    def _receipt(self, r: d.Receipt):
        qr = 32 * mm
        text = [para(r.name, "h2"), para(r.code, "huge"),
                para(self._("Your access code: keep it. Scan the code or open the link for your table, "
                            "your deck check and your results."), "small"), para(r.url, "small")]
        return self.table([[text, qr_drawing(r.url, qr)]], [self.frame_width - qr - 8 * mm, qr + 8 * mm],
                          header=False, nosplit=True, rules=False)


DOCUMENTS: dict[str, type[PrintDocument]] = {cls.slug: cls for cls in (
    PairingsByTable, PairingsByName, Standings, ResultSlips, PrizeSlips, Decklists, DeckCheckReport, RulesSheet,
    Poster, Receipts)}


def render(slug: str, data) -> bytes:
    return DOCUMENTS[slug](data).render()
