"""Ratings read from the database (nothing is stored): each event's confirmed pod and match results, in a fixed
order, rated by tournament.ratings.domain, and kept per process keyed by the events' state versions (every
logged change bumps them). Per series, players are the series' people (who is who as the series
decided it); across the server, a player is their player ID where they registered with one, else their name."""
from __future__ import annotations

import threading
from collections import OrderedDict

import sqlalchemy as sa
from flask import current_app

from ..events.models import Event, Registration
from ..events.open_data_ops import series_events
from ..extensions import db
from ..rounds import operations as round_ops
from ..rounds.models import Round
from ..series.models import SeriesEvent, SeriesResult
from . import domain


def event_games(event: Event, key_of) -> list[domain.Game]:
    """The event's confirmed games (pods and matches, the top cut's too) by round and table; `key_of(reg_id)` is
    the rated player (None: not rated, the game is rated among the others)."""
    games = []
    for t in round_ops.scored_tables(event):          # by round, then table
        if t.kind == "bye" or t.result_state != "confirmed":
            continue
        if t.kind == "pod":
            order = sorted((s for s in t.seats if s.eliminated_order is not None), key=lambda s: s.eliminated_order)
            places = domain.pod_places([s.registration_id for s in t.seats if s.survived],
                                       [s.registration_id for s in order])
        else:
            places = domain.match_places([s.registration_id for s in t.seats], [g.winner_id for g in t.games])
        keyed = {key_of(p): place for p, place in places.items() if key_of(p) is not None}
        games.append(domain.Game(keyed))
    return games


_CACHE_LOCK = threading.Lock()
CACHE_SIZE = 32


def _cached(key: tuple, compute) -> list[dict]:
    """The ratings for `key` (the events' state versions and who is who: any result change bumps its event's
    version, so a stale answer cannot be served), computed once per key in this process (per app: one database)."""
    cache = current_app.extensions.setdefault("ratings_cache", OrderedDict())
    with _CACHE_LOCK:
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
    value = compute()
    with _CACHE_LOCK:
        cache[key] = value
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return value


def _versions(event_ids) -> tuple:
    return tuple(db.session.execute(sa.select(Event.id, Event.state_version).where(Event.id.in_(event_ids))
                                    .order_by(Event.id)).all())


def series_ratings(series) -> list[dict]:
    """The series' people by rating, best first (rank, player: the person's id, name, rating, mu, sigma, games)."""
    people = tuple(db.session.execute(
        sa.select(SeriesResult.id, SeriesResult.series_player_id, SeriesEvent.event_id).join(SeriesEvent)
        .where(SeriesEvent.series_id == series.id).order_by(SeriesResult.id)).all())
    names = tuple(sorted((p.id, p.name) for p in series.players))
    key = ("series", series.id, _versions({e for _r, _p, e in people if e is not None}), people, names)
    return _cached(key, lambda: _series_ratings(series, dict(names)))


def _series_ratings(series, names: dict) -> list[dict]:
    games = []
    for event, person_of in sorted(series_events(series), key=lambda x: (x[0].date is None, x[0].date, x[0].id)):
        games += event_games(event, person_of.get)
    return domain.ranked(domain.rate(games), names)


def player_key(reg: Registration) -> str:
    return f"id:{reg.player_id}" if reg.player_id else f"name:{reg.search_key or reg.name.casefold()}"


def server_ratings() -> list[dict]:
    """Every player of the server's events (those with a published round: their standings are public) by rating,
    best first; `player` is "id:<player ID>" or "name:<name>" and is never shown (a player ID is private): rows
    carry the name as last registered."""
    published = sa.select(Round.event_id).where(Round.status != "draft")
    ids = db.session.execute(sa.select(Event.id).where(Event.id.in_(published))).scalars()
    return _cached(("server", _versions(list(ids))), lambda: _server_ratings(published))


def _server_ratings(published) -> list[dict]:
    events = db.session.execute(sa.select(Event).where(Event.id.in_(published))
                                .order_by(Event.date.is_(None), Event.date, Event.id)).scalars()
    games, names = [], {}
    for event in events:
        keys = {r.id: player_key(r) for r in event.registrations}
        names.update({keys[r.id]: r.name for r in event.registrations})
        games += event_games(event, keys.get)
    return domain.ranked(domain.rate(games), names)


def server_rating_of(player_id: str | None, search_key: str) -> dict | None:
    """One player's row of server_ratings (a series' person: by their player ID, else their name's key)."""
    key = f"id:{player_id}" if player_id else f"name:{search_key}"
    rows = server_ratings()
    row = next((r for r in rows if r["player"] == key), None)
    return None if row is None else {**row, "of": len(rows)}
