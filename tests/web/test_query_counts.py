"""Pages cost the same at 16 and at 400 players: a fixed number of SQL statements per page.

Two pods events of the same shape differ only in size: round 1 finished (a
staff result with a prize claim at every table, votes at three), round 2
published and started with a staff result and votes at table 1, a player's
report with a second player's confirmation at table 2, a dispute at table 3
and one vote at table 4. Each page is requested once to warm it (session and
token work), then its statements are counted around one more request.

The statements must also be the same text at both sizes: a loader that lists
the ids of every table or player (selectinload's `IN (?, ?, ...)`) is one
statement at 400 players but several beyond 500 ids (SQLAlchemy splits the
list), so the page would grow again at 2,000 players.
"""
from __future__ import annotations

from collections import Counter
from contextlib import contextmanager

from sqlalchemy import event as sa_event

from tournament.events import operations as events
from tournament.rounds import operations as ops

SMALL, LARGE = 16, 400
DECK = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n1 Command Tower\n"


@contextmanager
def counting(db):
    statements: list[str] = []

    def listener(_conn, _cursor, statement, *_args):
        statements.append(statement)
    sa_event.listen(db.engine, "before_cursor_execute", listener)
    try:
        yield statements
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", listener)


def build(db, make_event, organizer, players: int) -> dict[str, str]:
    """A democratic pods event of `players` checked-in players in the shape above; its pages' addresses."""
    event = make_event(name=f"Pods of {players}")
    regs = [events.register_player(event, {"name": f"Player {players}-{i:04d}"}) for i in range(players)]
    for reg in regs:
        events.check_in(reg, organizer)
    condition = event.prize_conditions[0]["id"]
    db.session.commit()

    rnd = ops.pair_next_round(event, organizer, seed=1, override_decks=True)
    ops.publish_round(rnd, organizer)
    ops.start_round(rnd, organizer)
    for t in rnd.tables:
        ids = [s.registration_id for s in t.seats]
        ops.report_pod_result(t, [ids[0]], ids[1:], {condition: {"holder": ids[0], "value": t.number}},
                              user=organizer)
        if t.number <= 3:
            for voter, votee in zip(ids, ids[1:] + ids[:1]):
                ops.cast_vote(t, voter, votee, user=organizer)
    ops.finish_round(rnd, organizer)
    db.session.commit()

    rnd = ops.pair_next_round(event, organizer, seed=2, override_decks=True)
    ops.publish_round(rnd, organizer)
    ops.start_round(rnd, organizer)
    by_id = {r.id: r for r in regs}
    t1, t2, t3, t4 = rnd.tables[:4]
    ids = [s.registration_id for s in t1.seats]
    ops.report_pod_result(t1, ids[:2], ids[2:], {condition: {"holder": ids[1], "value": 3}}, user=organizer)
    for voter, votee in zip(ids, ids[1:] + ids[:1]):
        ops.cast_vote(t1, voter, votee, user=organizer)
    ids = [s.registration_id for s in t2.seats]
    ops.report_pod_result(t2, [ids[0]], ids[1:], reg=by_id[ids[0]])
    ops.confirm_result(t2, by_id[ids[1]], revision=t2.result_revision)
    ops.cast_vote(t2, ids[2], ids[0], reg=by_id[ids[2]])
    ids = [s.registration_id for s in t3.seats]
    ops.report_pod_result(t3, [ids[0]], [], reg=by_id[ids[0]])
    ops.report_pod_result(t3, [ids[1]], [], reg=by_id[ids[1]])      # a different result: disputed
    ids = [s.registration_id for s in t4.seats]
    ops.cast_vote(t4, ids[0], ids[1], reg=by_id[ids[0]])
    assert (t1.result_state, t2.result_state, t3.result_state) == ("confirmed", "reported", "disputed")
    player = by_id[t2.seats[2].registration_id]      # may still confirm; has voted; has a decklist
    events.submit_decklist(player, DECK.encode(), user=organizer)
    db.session.commit()
    return {"round page": f"/events/{event.id}/rounds/2",
            "projector": f"/events/{event.id}/rounds/2/projector",
            "standings": f"/events/{event.id}/standings",
            "player page": f"/p/{player.access_code}"}


def cost(db, client, url) -> list[str]:
    assert client.get(url).status_code == 200          # warm
    db.session.remove()
    with counting(db) as statements:
        response = client.get(url)
    assert response.status_code == 200, url
    db.session.remove()
    return statements


def test_pages_cost_the_same_at_16_and_400_players(app, db, client, make_event, organizer, login):
    small = build(db, make_event, organizer, SMALL)
    large = build(db, make_event, organizer, LARGE)
    staff, public = client, app.test_client()
    login(organizer)
    counted = {}
    for page, url in small.items():
        viewer = staff if page == "round page" else public
        counted[page] = (cost(db, viewer, url), cost(db, viewer, large[page]))
    for page, (at_small, at_large) in counted.items():
        print(f"{page}: {len(at_small)} statements at {SMALL} players, {len(at_large)} at {LARGE}")
    for page, (at_small, at_large) in counted.items():
        grown = Counter(at_large) - Counter(at_small)
        assert len(at_large) == len(at_small), (
            f"{page}: {len(at_small)} statements at {SMALL} players, {len(at_large)} at {LARGE}; more of:\n"
            + "\n".join(f"{n} x {statement[:300]}" for statement, n in grown.most_common(3)))
        assert not grown, f"{page}: statements that list ids at {LARGE} players:\n" + "\n".join(
            statement[:300] for statement in grown)
