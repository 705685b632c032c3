"""The pure tracker, dungeons and Archenemy rules."""
import pytest

from tournament.games import archenemy as arch
from tournament.games.dungeons import DungeonError, Progress, load_dungeons, venture
from tournament.games.tracker import Event, Setup, TrackerError, fold, new_state, step, undo


def game(**kw):
    setup = Setup(players=[1, 2, 3, 4], names={1: "A", 2: "B", 3: "C", 4: "D"},
                  life={p: 40 for p in (1, 2, 3, 4)}, **kw)
    return new_state(setup)


def run(state, *actions):
    for kind, payload in actions:
        state, _ = step(state, kind, payload)
    return state


def test_general_damage_21_eliminates_and_is_detected_as_the_win():
    s = game()
    s = run(s, ("general_damage", {"victim": 2, "owner": 1, "amount": 20}))
    assert s.players[2].alive and s.players[2].life == 20
    s = run(s, ("general_damage", {"victim": 2, "owner": 3, "amount": 5}))   # other general: no sum
    assert s.players[2].alive
    s = run(s, ("general_damage", {"victim": 2, "owner": 1, "amount": 1}))
    assert not s.players[2].alive and s.players[2].out_reason == "general_damage" and s.players[2].out_by == [1, 0]
    s = run(s, ("life", {"player": 3, "delta": -40}), ("poison", {"player": 4, "delta": 10}))
    assert s.over
    summary = s.summary()
    assert summary["survivors"] == [1] and summary["eliminated"] == [2, 3, 4]
    assert summary["general_damage_win"] is None        # the decisive elimination was poison
    with pytest.raises(TrackerError, match="over"):
        step(s, "life", {"player": 1, "delta": 1})


def test_own_general_and_simultaneous_eliminations_and_decisive_general_damage():
    s = game()
    s = run(s, ("general_damage", {"victim": 1, "owner": 1, "amount": 21}))
    assert not s.players[1].alive and s.players[1].out_reason == "general_damage"
    s = run(s, ("general_damage", {"victim": 2, "owner": 4, "amount": 15}),
            ("general_damage", {"victim": 3, "owner": 4, "amount": 15}),
            ("life", {"player": 2, "delta": -10}), ("life", {"player": 3, "delta": -10}))
    assert s.players[2].alive and s.players[2].life == 15
    # Tomb of Annihilation style "each player loses life" is tracked per player; a single hit of 6 each:
    s = run(s, ("general_damage", {"victim": 2, "owner": 4, "amount": 6}))
    assert not s.players[2].alive
    s = run(s, ("general_damage", {"victim": 3, "owner": 4, "amount": 6}))
    assert s.summary()["general_damage_win"] == 4 and s.summary()["survivors"] == [4]


def test_simultaneous_elimination_is_one_group():
    s = game()
    s = run(s, ("life", {"player": 2, "delta": -39}), ("life", {"player": 3, "delta": -39}))
    s = run(s, ("general_damage", {"victim": 2, "owner": 1, "amount": 1}))
    assert [p for p in s.players if not s.players[p].alive] == [2]
    assert s.eliminations == [[2]]


def test_tax_per_cast_and_death_counters():
    s = run(game(), ("cast", {"owner": 1}), ("cast", {"owner": 1}), ("command_zone", {"owner": 1}))
    assert s.tax(1) == 4
    d = run(game(tax_kind="death-counter"), ("cast", {"owner": 1}), ("cast", {"owner": 1}),
            ("command_zone", {"owner": 1}))
    assert d.tax(1) == 2 and d.players[1].counters == [1]


def test_poison_threshold_from_the_ruleset():
    s = run(game(poison_threshold=15), ("poison", {"player": 1, "delta": 10}))
    assert s.players[1].alive
    s = run(s, ("poison", {"player": 1, "delta": 5}))
    assert not s.players[1].alive and s.players[1].out_reason == "poison"


@pytest.mark.parametrize("kind,payload,match", [
    ("life", {"player": 9, "delta": 1}, "player"),
    ("life", {"player": "1", "delta": 1}, "player"),
    ("life", {"player": 1, "delta": "x"}, "whole number"),
    ("life", {"player": 1, "delta": True}, "whole number"),
    ("life", {"player": 1, "delta": 10**9}, "between"),
    ("general_damage", {"victim": 1, "owner": 2, "amount": -3}, "between"),
    ("general_damage", {"victim": 1, "owner": 2, "general": 3, "amount": 1}, "no general"),
    ("poison", {"player": 1, "delta": -1}, "only 0"),
    ("nope", {}, "Unknown action"),
    ("life", [1], "object"),
])
def test_hostile_actions_are_refused(kind, payload, match):
    with pytest.raises(TrackerError, match=match):
        step(game(), kind, payload)


def test_fold_and_undo_replay_the_log():
    setup = Setup(players=[1, 2], life={1: 40, 2: 40})
    events = [Event(1, "start", setup.to_json())]
    s = fold(events)
    for kind, payload in [("life", {"player": 1, "delta": -3}), ("cast", {"owner": 2}),
                          ("venture", {"player": 1, "dungeon": "tomb_of_annihilation"})]:
        s, clean = step(s, kind, payload)
        events.append(Event(len(events) + 1, kind, clean))
    assert fold(events).players[1].life == 37
    events, s = undo(events)
    assert s.players[1].dungeon.dungeon is None and s.players[2].casts == [1] and s.players[1].life == 37
    with pytest.raises(TrackerError):
        undo(events[:1])


def test_lost_mine_graph_matches_seed_003():
    d = load_dungeons()["lost_mine_of_phandelver"]
    assert d.rooms[d.top].name == "Cave Entrance"
    names = {r.id: (r.name, sorted(d.rooms[n].name for n in r.next)) for r in d.rooms.values()}
    assert names["cave_entrance"][1] == ["Goblin Lair", "Mine Tunnels"]
    assert names["goblin_lair"][1] == ["Dark Pool", "Storeroom"]
    assert names["mine_tunnels"][1] == ["Dark Pool", "Fungi Cavern"]
    for r in ("storeroom", "dark_pool", "fungi_cavern"):
        assert names[r][1] == ["Temple of Dumathoin"]
    assert set(load_dungeons()) == {"lost_mine_of_phandelver", "dungeon_of_the_mad_mage", "tomb_of_annihilation",
                                    "undercity"}


def test_venture_rules():
    p = Progress()
    with pytest.raises(DungeonError, match="Choose a dungeon"):
        venture(p)
    with pytest.raises(DungeonError, match="initiative"):
        venture(p, "undercity")
    r = venture(p, "lost_mine_of_phandelver")
    assert r.room.name == "Cave Entrance"
    with pytest.raises(DungeonError, match="choose the next room"):
        venture(r.progress)
    with pytest.raises(DungeonError, match="finish it"):
        venture(r.progress, "tomb_of_annihilation")
    with pytest.raises(DungeonError, match="not there"):
        venture(r.progress, room="storeroom")
    r = venture(r.progress, room="mine_tunnels")
    r = venture(r.progress, room="fungi_cavern")
    r = venture(r.progress)
    assert r.completed == "lost_mine_of_phandelver" and r.room.name == "Temple of Dumathoin"
    assert r.progress.dungeon is None and r.progress.completed == ["lost_mine_of_phandelver"]
    r = venture(r.progress, "lost_mine_of_phandelver")          # a completed dungeon may be chosen again
    assert r.progress.dungeon == "lost_mine_of_phandelver"
    u = venture(Progress(), initiative=True)
    assert u.room.name == "Secret Entrance"


def test_archenemy_choice_order_life_and_schemes():
    cands = [arch.Candidate(1, 1, 1), arch.Candidate(2, 0, 3), arch.Candidate(3, 0, 2), arch.Candidate(4, 2, 4)]
    assert arch.choose_archenemy(cands) == 3
    assert arch.turn_order([1, 2, 3, 4], "archenemy", 3) == [3, 4, 1, 2]
    rumble = arch.turn_order([1, 2, 3, 4], "rumble", seed=7)
    assert sorted(rumble) == [1, 2, 3, 4] and rumble == arch.turn_order([1, 2, 3, 4], "rumble", seed=7)
    assert arch.starting_life([1, 2, 3], "archenemy", 2, 40) == {1: 20, 2: 40, 3: 20}
    assert arch.check_scheme_deck(["X"] * 3 + [f"S{i}" for i in range(17)])
    assert arch.check_scheme_deck([f"S{i // 2}" for i in range(20)]) == []
    deck = arch.deal_scheme_deck([{"name": "Ongoing One", "ongoing": True}]
                                 + [{"name": f"S{i}"} for i in range(19)], seed=1)
    assert deck.library == arch.deal_scheme_deck([{"name": "Ongoing One", "ongoing": True}]
                                                 + [{"name": f"S{i}"} for i in range(19)], seed=1).library
    for _ in range(20):
        deck = arch.set_in_motion(deck)
    assert [c["name"] for c in deck.ongoing] == ["Ongoing One"] and len(deck.library) == 19
    deck = arch.abandon(deck, "Ongoing One")
    assert not deck.ongoing and len(deck.library) == 20


def test_archenemy_game_ends_when_the_archenemy_falls():
    s = new_state(Setup(players=[3, 1, 2], life={3: 40, 1: 20, 2: 20}, variant="archenemy", archenemy=3))
    s = run(s, ("life", {"player": 1, "delta": -20}))
    assert not s.over
    s = run(s, ("general_damage", {"victim": 3, "owner": 2, "amount": 21}))
    assert s.over and s.summary()["survivors"] == [2] and s.summary()["winner_side"] == "team"
    assert s.summary()["general_damage_win"] == 2


# ---------------------------------------------------------------- snapshots: fold == step from snapshots

import json  # noqa: E402
import random  # noqa: E402

from tournament.games.tracker import LOG_KEEP, State  # noqa: E402


def scheme_cards(ongoing=()):
    return [{"name": f"Scheme {i // 2}", "ongoing": f"Scheme {i // 2}" in ongoing} for i in range(20)]


def scripted_normal():
    setup = Setup(players=[1, 2, 3, 4], names={1: "A", 2: "B", 3: "C", 4: "D"}, life={p: 40 for p in (1, 2, 3, 4)},
                  generals={1: ["Tymna", "Thrasios"], 2: ["Atraxa"]})
    actions = [("cast", {"owner": 1, "general": 1}), ("cast", {"owner": 1}), ("command_zone", {"owner": 2}),
               ("venture", {"player": 2, "dungeon": "lost_mine_of_phandelver"}),
               ("venture", {"player": 2, "room": "goblin_lair"}), ("venture", {"player": 2, "room": "dark_pool"}),
               ("venture", {"player": 2}),                                          # completes Lost Mine
               ("venture", {"player": 3, "initiative": True}),                      # Undercity
               ("venture", {"player": 4, "dungeon": "tomb_of_annihilation"})]
    actions += [("life", {"player": 1 + i % 4, "delta": (-1) ** i * (i % 3)}) for i in range(40)]   # past LOG_KEEP
    actions += [("poison", {"player": 4, "delta": 3}), ("general_damage", {"victim": 3, "owner": 1, "general": 1,
                                                                          "amount": 12}),
                ("general_damage", {"victim": 3, "owner": 1, "general": 1, "amount": 9}),   # out by general damage
                ("eliminate", {"player": 4, "reason": "conceded"}), ("life", {"player": 2, "delta": -60}),
                ("end", {})]
    return setup, actions


def scripted_archenemy():
    setup = Setup(players=[3, 1, 2], names={1: "A", 2: "B", 3: "Boss"}, life={3: 40, 1: 20, 2: 20},
                  variant="archenemy", archenemy=3,
                  scheme_decks={3: arch.deal_scheme_deck(scheme_cards(ongoing=("Scheme 2", "Scheme 5")), 7).library})
    actions = [("scheme", {"player": 3}) for _ in range(12)]
    actions += [("abandon", {"player": 3, "scheme": "Scheme 2"}), ("scheme", {"player": 3}),
                ("life", {"player": 1, "delta": -7}), ("venture", {"player": 1, "dungeon": "dungeon_of_the_mad_mage"}),
                ("general_damage", {"victim": 3, "owner": 2, "amount": 10}), ("poison", {"player": 2, "delta": 4}),
                ("poison", {"player": 2, "delta": -1}), ("life", {"player": 1, "delta": -13}),
                ("general_damage", {"victim": 3, "owner": 2, "amount": 11})]
    return setup, actions


def scripted_rumble():
    setup = Setup(players=[1, 2, 3], life={p: 40 for p in (1, 2, 3)}, tax_kind="death-counter", variant="rumble",
                  scheme_decks={p: arch.deal_scheme_deck(scheme_cards(ongoing=("Scheme 1",)), p).library
                                for p in (1, 2, 3)})
    actions = [("scheme", {"player": 1 + i % 3}) for i in range(9)]
    actions += [("command_zone", {"owner": 2}), ("cast", {"owner": 2}), ("life", {"player": 3, "delta": -40})]
    return setup, actions


def random_game(seed):
    """A seeded stream of actions, some of them refused (those are left out, as the tracker refuses them)."""
    rng = random.Random(seed)
    players = [10, 20, 30, 40]
    setup = Setup(players=players, life={p: 40 for p in players}, generals={10: ["X", "Y"]},
                  variant="archenemy" if seed % 2 else "normal", archenemy=10 if seed % 2 else None,
                  scheme_decks={10: arch.deal_scheme_deck(scheme_cards(ongoing=("Scheme 4",)), seed).library}
                  if seed % 2 else {})
    actions = []
    for _ in range(300):
        p, q = rng.choice(players), rng.choice(players)
        actions.append(rng.choice([
            ("life", {"player": p, "delta": rng.randint(-9, 2)}),
            ("poison", {"player": p, "delta": rng.randint(-1, 3)}),
            ("general_damage", {"victim": p, "owner": q, "general": rng.randint(0, 1), "amount": rng.randint(1, 8)}),
            ("cast", {"owner": p}), ("command_zone", {"owner": q}), ("scheme", {"player": 10}),
            ("abandon", {"player": 10, "scheme": "Scheme 4"}),
            ("venture", {"player": p, "dungeon": rng.choice(sorted(load_dungeons())),
                         "initiative": rng.random() < 0.2}),
            ("venture", {"player": p, "room": rng.choice([None, "goblin_lair", "mine_tunnels", "dark_pool"])}),
        ]))
    return setup, actions


GAMES = [scripted_normal, scripted_archenemy, scripted_rumble] + [
    (lambda s: (lambda: random_game(s)))(seed) for seed in range(6)]


def through_json(state):
    return State.from_snapshot(json.loads(json.dumps(state.to_snapshot())))


@pytest.mark.parametrize("make", GAMES)
def test_fold_equals_stepping_from_snapshots(make):
    setup, actions = make()
    events = [Event(1, "start", {**setup.to_json(), "seed": 5}, "judge", "2026-12-01T10:00:00+00:00")]
    s = through_json(fold(events))
    seq = 1
    for i, (kind, payload) in enumerate(actions):
        before = s.to_snapshot()
        try:
            new, clean = step(s, kind, payload, actor=f"player:{i % 4}", at=f"2026-12-01T10:{i // 60:02d}:{i % 60:02d}")
        except TrackerError:
            continue
        assert s.to_snapshot() == before                      # step changes a copy
        seq += 1 + (i % 7 == 3)                                # gaps where undone events were
        new.seq = new.log[-1].seq = seq
        events.append(Event(seq, kind, clean, new.log[-1].actor, new.log[-1].at))
        assert len(new.log) <= LOG_KEEP
        s = through_json(new)
        assert s == new
        if len(events) % 10 == 0:
            assert fold(events) == s
    assert len(events) > 10
    folded = fold(events)
    assert folded == s and folded.to_snapshot() == s.to_snapshot()
    assert folded.to_json() == s.to_json()
    assert s.summary() == folded.summary()
    assert [e.seq for e in s.log] == [e.seq for e in events[-LOG_KEEP:]]


def test_snapshot_round_trips_every_field():
    setup, actions = scripted_archenemy()
    s = new_state(setup)
    for kind, payload in actions[:14]:
        s, _ = step(s, kind, payload)
    s, _ = step(s, "venture", {"player": 1, "dungeon": "lost_mine_of_phandelver"})
    s, _ = step(s, "general_damage", {"victim": 1, "owner": 3, "amount": 21})     # 1 is out
    back = through_json(s)
    assert back == s
    assert back.general_damage == {(1, 3, 0): 21} and back.players[1].out_reason == "general_damage"
    assert back.players[3].schemes == s.players[3].schemes and back.players[3].schemes.ongoing
    assert back.players[1].dungeon == Progress("lost_mine_of_phandelver", "cave_entrance", [], ["cave_entrance"])
    assert back.setup.scheme_decks == s.setup.scheme_decks and back.setup.archenemy == 3
    assert back.eliminations == [[1]] and back.seq == s.seq and back.ended is False
    with pytest.raises(TrackerError, match="version"):
        State.from_snapshot({**s.to_snapshot(), "v": 99})
    with pytest.raises(TrackerError, match="cannot be read"):
        State.from_snapshot({"v": 1, "players": "x"})


def test_step_copies_a_bounded_log():
    s = game()
    for i in range(500):
        s, _ = step(s, "life", {"player": 1 + i % 4, "delta": 1})
    assert len(s.log) == LOG_KEEP and s.log[-1].seq == 500 and s.seq == 500
    assert [e["seq"] for e in s.to_json()["log"]] == list(range(500, 470, -1))
