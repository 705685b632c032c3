"""Ratings: openskill's Plackett-Luce over confirmed pod and match results, per series and per player across the
server's events, recomputed from the results on every read (a corrected result re-rates)."""
