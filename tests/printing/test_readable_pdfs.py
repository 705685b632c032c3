"""Printouts a person reads at arm's length (issue 31): long names wrap instead of shrinking below 8 pt, pod
result slips go three to a page, and the standings name the top cut's winner."""
from __future__ import annotations

import os
import re
from io import BytesIO

import pytest
from pdf_helpers import pdf_text, squash
from pdfminer.high_level import extract_pages
from pdfminer.layout import LTChar, LTTextContainer

from tournament.events import operations as events
from tournament.printing import operations as ops
from tournament.printing.base import MIN_SIZE, cell_layout, wrap_text
from tournament.rounds import operations as rounds

LONG = "Maximiliána Alžběta Konstantinová-Wolkenstein von Hohenberg"          # 60 characters
CJK = "山田太郎左衛門之助源朝臣藤原北家長良流飛鳥井雅経卿末裔大納言兼右近衛大将"       # 34 CJK characters


def _keep(name: str, pdf: bytes) -> bytes:
    """Writes the PDF to $PDF_OUT (to look at it: pdftoppm -r 60 -png) when that is set."""
    if os.environ.get("PDF_OUT"):
        with open(os.path.join(os.environ["PDF_OUT"], name), "wb") as f:
            f.write(pdf)
    return pdf


def _char_sizes(pdf: bytes, wanted: set[str]) -> list[float]:
    """The font size of every printed character of `wanted` (the name's letters), over all pages."""
    sizes = []
    for page in extract_pages(BytesIO(pdf)):
        for box in page:
            if isinstance(box, LTTextContainer):
                for line in box:
                    for ch in getattr(line, "_objs", []):
                        if isinstance(ch, LTChar) and ch.get_text() in wanted:
                            sizes.append(ch.size)
    return sizes


def _pages(pdf: bytes) -> list[str]:
    return [" ".join(b.get_text() for b in page if isinstance(b, LTTextContainer))
            for page in extract_pages(BytesIO(pdf))]


def test_cell_layout_wraps_instead_of_going_below_8_pt():
    from tournament.printing.fonts import register_fonts
    register_fonts()
    size, lines = cell_layout(LONG, 120, 10)
    assert size >= MIN_SIZE and len(lines) >= 2 and "".join(lines).replace(" ", "") == LONG.replace(" ", "")
    size, lines = cell_layout(CJK, 100, 10)
    assert size >= MIN_SIZE and len(lines) >= 2 and "".join(lines) == CJK
    assert cell_layout("Ben", 100, 10) == (10, ["Ben"])
    assert cell_layout("", 100, 10) == (10, [""])
    assert wrap_text("x" * 500, 30, 9)          # a huge unbroken word still ends, in pieces


@pytest.mark.parametrize("lang", ["en", "ja", "cs"])
def test_a_long_name_wraps_at_a_readable_size_on_the_standings(db, pods_event, lang, tmp_path):
    regs = sorted(pods_event.registrations, key=lambda r: r.id)
    regs[0].name, regs[1].name = LONG, CJK
    db.session.commit()
    pdf = _keep(f"standings-long-{lang}.pdf", ops.build_document(pods_event, "standings", 1, language=lang)[0])
    text = squash(pdf_text(pdf))
    assert squash(LONG) in text or all(squash(w) in text for w in LONG.split())
    assert CJK in text or all(ch in text for ch in CJK)
    sizes = _char_sizes(pdf, set(CJK) | {"W", "K", "H"})
    assert sizes and min(sizes) >= MIN_SIZE - 0.01, min(sizes)


def test_pod_result_slips_go_three_to_a_page_on_a4_and_letter(db, make_event, make_player, judge):
    for paper in ("A4", "Letter"):
        event = make_event(name=f"Slips {paper}", paper_size=paper)
        for i in range(24):
            events.check_in(make_player(event, LONG if i == 0 else f"Player {i:02d}"), judge)
        db.session.commit()
        rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
        rounds.publish_round(rnd, judge)
        db.session.commit()
        pdf = _keep(f"slips-{paper}.pdf", ops.build_document(event, "result-slips", rnd.number)[0])
        pages = _pages(pdf)
        per_page = [len(re.findall(r"Table\s*\d+\s*·\s*Round", p)) for p in pages]
        assert len(rnd.tables) == 6 and per_page == [3, 3], (paper, per_page)
        assert squash(LONG) in squash(pdf_text(pdf))


def _final_cut(db, make_event, make_player, judge):
    event = make_event(name="Duel cut", mode="duel", ruleset="duel-cn", top_cut=4)
    for i in range(1, 9):
        events.check_in(make_player(event, f"Duelist {i}" if i > 1 else CJK), judge)
    db.session.commit()

    def play(rnd, pick):
        rounds.publish_round(rnd, judge)
        rounds.start_round(rnd, judge)
        for table in rnd.tables:
            if table.kind == "match":
                ids = [s.registration_id for s in table.seats]
                rounds.report_duel_games(table, [pick(ids)] * 2, user=judge)
        rounds.finish_round(rnd, judge)
        db.session.commit()

    for _ in range(2):
        play(rounds.pair_next_round(event, judge, seed=5, override_decks=True), lambda ids: ids[0])
    play(rounds.pair_top_cut_round(event, judge), lambda ids: ids[0])
    final = rounds.pair_top_cut_round(event, judge)
    return event, final, play


def test_the_standings_pdf_names_the_top_cut_winner_once_the_final_is_played(db, make_event, make_player, judge):
    event, final, play = _final_cut(db, make_event, make_player, judge)
    before = pdf_text(ops.build_document(event, "standings", None)[0])
    assert "won the final" not in before                       # the final is paired, not played
    play(final, lambda ids: ids[1])
    winner = next(r.name for r in event.registrations if r.id == final.tables[0].seats[1].registration_id)
    pdf = _keep("standings-winner.pdf", ops.build_document(event, "standings", None)[0])
    assert squash(f"{winner} won the final and the event.") in squash(pdf_text(pdf))
    # printed after round 3 (the semifinals, before the final), the standings name no winner
    assert "won the final" not in pdf_text(ops.build_document(event, "standings", 3)[0])
