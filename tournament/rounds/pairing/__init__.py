"""Pairing as pure, seeded functions: pods (multiplayer), 1v1 Swiss and top cuts.

No Flask and no database: inputs and outputs are the plain dataclasses of
`domain`. The same entrants, seed and round number always give the same
pairing, so a round can be replayed from what is stored.
"""
from .domain import LEFTOVER_POLICIES, Entrant, Match, Pod, PodPairing, SwissPairing
from .pods import REPEAT_WEIGHT, pair_pods, repeat_cost
from .sizes import plan_pod_sizes
from .swiss import REMATCH_WEIGHT, next_elimination_round, pair_swiss, pair_top_cut

__all__ = [
    "LEFTOVER_POLICIES", "Entrant", "Match", "Pod", "PodPairing", "SwissPairing",
    "plan_pod_sizes", "pair_pods", "pair_swiss", "pair_top_cut", "next_elimination_round",
    "repeat_cost", "REPEAT_WEIGHT", "REMATCH_WEIGHT",
]
