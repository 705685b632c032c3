"""Four phones tapping one tracker at once: every acknowledged tap is stored once, in order, and counted.

Each thread is one player's phone with its own test client; its requests get their own app context (and
database session), as a threaded server's would. Runs on SQLite (write requests take the write lock) and on
PostgreSQL (each tap takes the table's row lock).
"""
import threading
import time

import sqlalchemy as sa

from tournament.games import operations as games
from tournament.games.models import TrackerEvent, TrackerGame
from tournament.games.tracker import State

TAPS = 50
BOOST = 20          # each player first gains 20 life, so 50 taps of -1 leave everyone alive
HEADERS = {"Accept": "application/json"}        # as static/tracker.js sends its taps


def test_four_phones_tapping_one_tracker(db, app, make_round):
    event, rnd, regs = make_round(players=4, seed=3)
    table = rnd.tables[0]
    table_id = table.id
    by_id = {r.id: r for r in regs}
    seated = [by_id[s.registration_id] for s in table.seats]
    assert len(seated) == 4
    phones = [(reg.id, f"/p/{reg.access_code}/tracker") for reg in seated]
    setup_client = app.test_client()
    assert setup_client.post(phones[0][1], json={"action": "start"}).status_code == 200
    for pid, url in phones:
        r = setup_client.post(url, json={"action": "life", "player": pid, "delta": BOOST})
        assert r.status_code == 200, r.get_json()
    state = r.get_json()["state"]
    base_seq = state["seq"]
    start_life = {p["id"]: p["life"] for p in state["players"]}
    db.session.commit()
    db.session.remove()                      # the test's own session holds nothing while the phones tap

    barrier = threading.Barrier(len(phones))
    results: dict[int, list[tuple[int, dict | None]]] = {pid: [] for pid, _ in phones}
    crashes: list[BaseException] = []

    def phone(pid, url):
        client = app.test_client()
        try:
            barrier.wait(timeout=10)
            for _ in range(TAPS):
                r = client.post(url, json={"action": "life", "player": pid, "delta": -1}, headers=HEADERS)
                results[pid].append((r.status_code, r.get_json(silent=True)))
        except BaseException as e:  # noqa: BLE001 - reported by the test thread
            crashes.append(e)

    polled: list[tuple[int, int | None]] = []
    done = threading.Event()

    def watcher(url):
        """A fifth phone showing the table: reads while the others tap, never waits for a rebuild."""
        client = app.test_client()
        try:
            while not done.is_set():
                r = client.get(url, headers=HEADERS)
                polled.append((r.status_code, (r.get_json(silent=True) or {}).get("state", {}).get("seq")))
                time.sleep(0.005)
        except BaseException as e:  # noqa: BLE001 - reported by the test thread
            crashes.append(e)

    threads = [threading.Thread(target=phone, args=phone_args) for phone_args in phones]
    watching = threading.Thread(target=watcher, args=(phones[0][1],))
    watching.start()
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    elapsed = time.monotonic() - began
    done.set()
    watching.join(timeout=10)
    assert not any(t.is_alive() for t in threads), "a phone is still tapping after 60 s"
    assert not crashes, crashes
    assert polled and all(status == 200 for status, _ in polled), polled[:5]
    seen = [seq for _, seq in polled]
    assert seen == sorted(seen)                       # a reader never sees the game go back

    acked: dict[int, list[int]] = {}
    refused = []
    for pid, answers in results.items():
        assert len(answers) == TAPS
        for status, body in answers:
            assert status < 500, body
            if 200 <= status < 300:
                acked.setdefault(pid, []).append(body["state"]["seq"])
            else:
                assert status == 409 and body["error"]["message"], (status, body)
                refused.append(body["error"]["message"])
    n_acked = sum(len(v) for v in acked.values())
    assert n_acked >= len(phones) * TAPS * 0.9, (n_acked, refused)

    # every acknowledged tap is one stored event; nothing is stored twice; seqs have no gaps
    rows = db.session.execute(sa.select(TrackerEvent).where(TrackerEvent.table_id == table_id)
                              .order_by(TrackerEvent.seq)).scalars().all()
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    taps = [r for r in rows if r.seq > base_seq]
    assert all(r.kind == "life" and not r.undone for r in taps)
    assert len(taps) == n_acked
    assert len([r for r in rows if r.kind == "life"]) == n_acked + len(phones)       # + the boosts
    # each phone's answers name its own rows, in the order it tapped
    by_seq = {r.seq: r for r in taps}
    for pid, seqs in acked.items():
        assert seqs == sorted(set(seqs))
        assert all(by_seq[s].actor == f"player:{pid}" and by_seq[s].payload == {"player": pid, "delta": -1}
                   for s in seqs)
    assert sorted(s for seqs in acked.values() for s in seqs) == [r.seq for r in taps]

    # the snapshot's life totals count exactly the acknowledged taps, and equal a fold of the log
    snap = db.session.get(TrackerGame, table_id)
    assert snap.seq == snap.last_seq == rows[-1].seq
    life = {p["id"]: p["life"] for p in snap.state["players"]}
    assert life == {pid: start_life[pid] - len(acked.get(pid, [])) for pid, _ in phones}
    folded = games._replay([r for r in rows if not r.undone])
    assert State.from_snapshot(snap.state) == folded
    assert elapsed < 30, f"{len(phones) * TAPS} taps took {elapsed:.1f} s"
    print(f"{n_acked} taps acknowledged, {len(refused)} refused (409), in {elapsed:.2f} s; {len(polled)} reads")
