"""An event's numbers: commanders played, win rates by commander and seat, conversion into the top cut."""
from __future__ import annotations

from tournament.scoring.domain import DuelMatch, PodGame
from tournament.scoring.stats import NO_LIST, event_stats


def pod(table, players, survivors):
    return PodGame(round=1, table=table, players=tuple(players), survivors=frozenset(survivors))


COMMANDERS = {1: ["Kinnan, Bonder Prodigy"], 2: ["Kinnan, Bonder Prodigy"], 3: ["Tymna the Weaver", "Kraum"],
              4: ["Najeela, the Blade-Blossom"], 5: ["Najeela, the Blade-Blossom"], 6: [], 7: ["Kinnan, Bonder Prodigy"],
              8: ["Tymna the Weaver", "Kraum"]}


def test_meta_win_rates_seats_and_conversion():
    games = [pod(1, [1, 2, 3, 4], [3]), pod(2, [5, 6, 7, 8], [5, 6]),        # table 2 drawn: nobody won
             pod(1, [4, 3, 2, 1], [4]), pod(2, [8, 7, 6, 5], [8])]
    stats = event_stats(games, [], COMMANDERS, range(1, 9), cut={3, 4, 8, 1})
    assert stats["players"] == 8 and stats["games"] == 4
    meta = {m["commander"]: (m["players"], m["share"]) for m in stats["meta"]}
    assert meta == {"Kinnan, Bonder Prodigy": (3, 37.5), "Kraum + Tymna the Weaver": (2, 25.0),
                    "Najeela, the Blade-Blossom": (2, 25.0), NO_LIST: (1, 12.5)}
    assert stats["meta"][0]["commander"] == "Kinnan, Bonder Prodigy"
    rates = {c["commander"]: (c["games"], c["wins"], c["win_rate"]) for c in stats["commanders"]}
    assert rates["Kraum + Tymna the Weaver"] == (4, 2, 50.0)
    assert rates["Kinnan, Bonder Prodigy"] == (6, 0, 0.0)
    assert rates["Najeela, the Blade-Blossom"] == (4, 1, 25.0)
    assert stats["seats"] == [{"seat": 1, "games": 4, "wins": 2, "win_rate": 50.0},
                              {"seat": 2, "games": 4, "wins": 0, "win_rate": 0.0},
                              {"seat": 3, "games": 4, "wins": 1, "win_rate": 25.0},
                              {"seat": 4, "games": 4, "wins": 0, "win_rate": 0.0}]
    conversion = {c["commander"]: (c["players"], c["in_cut"], c["conversion"])
                  for c in stats["top_cut"]["commanders"]}
    assert conversion["Kraum + Tymna the Weaver"] == (2, 2, 100.0)
    assert conversion["Kinnan, Bonder Prodigy"] == (3, 1, 33.3)
    assert stats["top_cut"]["players"] == 4


def test_partners_in_any_order_are_one_commander_and_archenemy_sides_win_together():
    stats = event_stats([], [], {1: ["Tymna the Weaver", "Kraum"], 2: ["Kraum", "Tymna the Weaver"]}, [1, 2])
    assert stats["meta"] == [{"commander": "Kraum + Tymna the Weaver", "players": 2, "share": 100.0}]
    team_win = PodGame(round=1, table=1, players=(1, 2, 3, 4), survivors=frozenset({2}), archenemy=1)
    arch_win = PodGame(round=2, table=1, players=(1, 2, 3, 4), survivors=frozenset({1}), archenemy=1)
    stats = event_stats([team_win, arch_win], [], {}, [1, 2, 3, 4])
    assert [s["wins"] for s in stats["seats"]] == [1, 1, 1, 1]      # the team (seats 2-4), then the archenemy


def test_duels_and_an_event_without_results():
    matches = [DuelMatch(round=1, table=1, players=(1, 2), games=("win", "loss", "win")),
               DuelMatch(round=1, table=2, players=(3, 4), games=("win", "loss"))]
    stats = event_stats([], matches, {1: ["Krenko, Mob Boss"], 2: ["Krenko, Mob Boss"]}, [1, 2, 3, 4])
    assert {c["commander"]: c["wins"] for c in stats["commanders"]} == {"Krenko, Mob Boss": 1, NO_LIST: 0}
    assert "top_cut" not in stats
    empty = event_stats([], [], {}, [])
    assert empty == {"players": 0, "games": 0, "meta": [], "commanders": [], "seats": []}
