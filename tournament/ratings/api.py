"""Ratings through the API: a series' ratings (public, as the series page) and every player's across the server's
events with a published round (public, as those events' standings). Recomputed from the results on each request."""
from __future__ import annotations

from pydantic import Field

from ..events.api_access import Page, page
from ..series import loading as series_loading
from ..web.api import Output, bp, operation, optional_staff_user
from . import operations as ops

TAGS = ["ratings"]
HOW = ("openskill's Plackett-Luce model over every confirmed pod and match, oldest event first (then round, "
       "table): survivors share first place, the last out next; a drawn game is a tie. rating = mu - 3 sigma. "
       "Nothing is stored: a corrected result re-rates.")


class RatingRow(Output):
    rank: int
    name: str
    rating: float = Field(description="mu - 3 sigma: 0 for a new player.")
    mu: float
    sigma: float
    games: int


class SeriesRatingRow(RatingRow):
    person_id: int = Field(description="The series' person (as its standings).")


class SeriesRatingsOut(Output):
    ratings: list[SeriesRatingRow]
    next_offset: int | None


class RatingsOut(Output):
    ratings: list[RatingRow]
    next_offset: int | None


def anyone(rh) -> bool:
    """Everyone; a token, when sent, must be valid."""
    optional_staff_user()
    return True


def _row(r: dict) -> dict:
    return {k: r[k] for k in ("rank", "name", "rating", "mu", "sigma", "games")}


@bp.get("/series/<int:series_id>/ratings")
@operation("series_ratings", "The series' ratings, best first.", tags=TAGS, load=series_loading.series,
           policy=anyone, public=True, query=Page, response=SeriesRatingsOut, errors="400 401 404", description=HOW)
def series_ratings(rh):
    rows, next_offset = page(ops.series_ratings(rh.series), rh.query)
    return {"ratings": [{**_row(r), "person_id": r["player"]} for r in rows], "next_offset": next_offset}


@bp.get("/ratings")
@operation("ratings_list", "Every player's rating across this server's events, best first.", tags=TAGS,
           policy=anyone, public=True, query=Page, response=RatingsOut, errors="400 401",
           description="A player is the same across events by the player ID they registered with, else by name "
                       "(the ID is never shown). " + HOW)
def ratings_list(rh):
    rows, next_offset = page(ops.server_ratings(), rh.query)
    return {"ratings": [_row(r) for r in rows], "next_offset": next_offset}
