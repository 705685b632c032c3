"""Rounds: pairing, publishing, the clock, results, votes, prizes and standings.

Pairing and scoring are pure functions (tournament.rounds.pairing, tournament.scoring); these modules load
their inputs from the database and store what they decide. Callers use this package as one module
(`from tournament.rounds import operations as ops; ops.standings(event)`); its parts, each importing only
those before it:

    queries   loading: a round, its tables and seats, the current round, who is to be seated
    policy    who may do what: visibility, who acts at a table, why_not_* (views, templates, API)
    votes     casting a vote, and when votes are seen
    ranking   standings, the prize board, the top cut's outcome, final places, statistics
    results   reporting and confirming a table's result
    matches   1v1 matches game by game, ended at time, entered whole; settling a dispute
    clock     publish, start, pause, resume, extend and finish a round; finish the event
    pairing   pairing a round or the top cut's next stage; deleting a draft
    seating   correcting the seats, in a draft or after publishing: swap, move, seat a late arrival, remove a
              no-show, unpublish and pair again (compare-and-set on the round's seating revision)
"""
from __future__ import annotations

from ...events.models import Registration               # noqa: F401  (as before the split)
from ..models import Round                              # noqa: F401
from . import clock, matches, pairing, policy, queries, ranking, results, seating, votes
from .queries import (current_round, current_seat, ever_seated, get_round, get_table, lock_table, missing_results,
                      players_to_seat, rounds_of, seat_of, tables_before, unconfirmed_results, with_results,
                      with_tables, _load_tables)
from .policy import (confirmers, event_uses_votes, needed_confirmers, require_standings_visible, require_visible,
                     round_visible, standings_visible, table_actor,
                     why_not_confirm, why_not_report, why_not_vote)
from .votes import cast_vote, votes_visible
from .ranking import (cut_outcome, cut_results, event_stats, final_standings, prize_board, scored_tables,
                      shown_standings, standings)
from .results import KEEP, confirm_result, report_pod_result
from .matches import (end_match_at_time, match_progress, report_duel_games, report_game, settle_dispute,
                      time_is_up)
from .clock import (MAX_EXTENSION_MINUTES, extend_round, extend_table, finish_event, finish_round, pause_round,
                    publish_and_start, publish_round, resume_round, start_round)
from .pairing import (UnreadyDecks, delete_draft, pair_next_round, pair_top_cut_round, player_brackets,
                      unready_decks, why_json, why_lines)
from .seating import (SeatingChanged, move_player, remove_player, seat_late_arrival, swap_seats,
                      unpublish_and_pair_again)
