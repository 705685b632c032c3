"""Scoring: profiles (data in tournament/data/scoring), votes, points, standings, tiebreakers, prizes.

Everything here is pure: plain dataclasses in, plain rows out; no Flask, no database.
"""
from .domain import Bye, DuelMatch, PodGame, StandingRow
from .profiles import (
    DEFAULT_PRIZE_CONDITIONS,
    PRIZE_KINDS,
    ScoringProfile,
    ScoringProfileError,
    UnknownScoringProfile,
    default_prize_conditions,
    get_profile,
    list_profiles,
    load_profiles,
    profile_from_dict,
    validate_prize_conditions,
)
from .standings import (
    match_result,
    mtr_standings,
    pod_points,
    pod_standings,
    prize_leaders,
    seeded_order,
    validate_pod_game,
    validate_votes,
)

__all__ = [
    "Bye", "DuelMatch", "PodGame", "StandingRow",
    "DEFAULT_PRIZE_CONDITIONS", "PRIZE_KINDS", "ScoringProfile", "ScoringProfileError", "UnknownScoringProfile",
    "default_prize_conditions", "get_profile", "list_profiles", "load_profiles", "profile_from_dict",
    "validate_prize_conditions",
    "match_result", "mtr_standings", "pod_points", "pod_standings", "prize_leaders", "seeded_order",
    "validate_pod_game", "validate_votes",
]
