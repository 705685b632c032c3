"""The standings PDF names each tiebreaker with its formula (issue 27)."""
from __future__ import annotations

from tournament.printing import operations as ops
from tournament.rounds import operations as rounds

from pdf_helpers import pdf_text, squash


def test_cedh_standings_pdf_prints_owr_oowr_and_opp_with_their_formulas(db, pods_event):
    pods_event.scoring_profile = "cedh"
    db.session.commit()
    rows = rounds.standings(pods_event)
    assert list(rows[0].tiebreakers) == ["OWR", "OOWR", "OPP"]
    text = squash(pdf_text(ops.build_document(pods_event, "standings", 1)[0]))
    assert squash("OWR: Opponents' win rate: the average of your opponents' win rates (wins / games played)") in text
    assert squash("each bye adds phantom opponents") in text
    assert squash("OOWR: Opponents' opponents' win rate") in text
    assert squash("Opp. points: Opponents' points") in text and "OPP" not in text
