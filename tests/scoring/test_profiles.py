"""Scoring profiles as data: the four shipped files load and validate; bad files fail clearly."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tournament.scoring import (
    DEFAULT_PRIZE_CONDITIONS,
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
from tournament.scoring.profiles import DATA


def test_the_four_profiles_load():
    assert [p.id for p in list_profiles()] == ["cedh", "democratic", "mtr", "survival"]
    assert [p.id for p in list_profiles("pods")] == ["cedh", "democratic", "survival"]
    assert [p.id for p in list_profiles("multiplayer")] == ["cedh", "democratic", "survival"]
    assert [p.id for p in list_profiles("duel")] == ["mtr"]
    for p in list_profiles():
        assert p.description and p.name
        assert p.tiebreakers[-1] == "random"
        assert json.loads(json.dumps(p.to_json()))["id"] == p.id


def test_profile_values():
    demo = get_profile("democratic")
    assert demo.mode == "pods" and demo.uses_votes
    assert (demo.points["survive"], demo.points["per_vote_received"], demo.bye_points) == (2, 1, 2)
    assert demo.tiebreakers == ("OPP", "votes", "random")

    surv = get_profile("survival")
    assert not surv.uses_votes and surv.points["survive"] == 2 and surv.points["per_vote_received"] == 0
    assert surv.bye_points == 2

    cedh = get_profile("cedh")
    assert (cedh.points["win"], cedh.points["draw"], cedh.points["loss"]) == (5, 1, 0)
    assert cedh.record == "wins-losses-draws"

    mtr = get_profile("mtr")
    assert mtr.mode == "duel"
    assert (mtr.points["match_win"], mtr.points["match_draw"], mtr.points["match_loss"]) == (3, 1, 0)
    assert (mtr.points["game_win"], mtr.points["game_draw"], mtr.points["game_loss"]) == (3, 1, 0)
    assert mtr.bye_points == 3 and mtr.bye_record == (2, 0, 0)
    assert mtr.percentage_floor == 0.33 and mtr.own_gw_floor
    assert mtr.tiebreakers == ("OMW%", "GW%", "OGW%", "random")
    assert mtr.to_json()["bye_record"] == "2-0-0"


def test_profile_ids_match_the_events_choices():
    from tournament.events.models import SCORING_PROFILES
    assert sorted(SCORING_PROFILES) == sorted(load_profiles())


def test_get_profile_unknown_lists_the_valid_ids():
    with pytest.raises(UnknownScoringProfile) as e:
        get_profile("swiss-pods")
    msg = str(e.value)
    assert "swiss-pods" in msg
    for pid in ("cedh", "democratic", "mtr", "survival"):
        assert pid in msg
    with pytest.raises(UnknownScoringProfile):
        get_profile(None)
    with pytest.raises(UnknownScoringProfile):
        get_profile(["mtr"])


def test_get_profile_passes_a_profile_through():
    p = get_profile("cedh")
    assert get_profile(p) is p
    assert isinstance(p, ScoringProfile)


def _good() -> dict:
    return json.loads((DATA / "democratic.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("points"), "missing 'points'"),
    (lambda d: d.pop("description"), "missing 'description'"),
    (lambda d: d.update(mode="swiss"), "mode must be one of pods, duel"),
    (lambda d: d["points"].pop("survive"), "points is missing survive"),
    (lambda d: d["points"].update(survive="two"), "points.survive must be a number"),
    (lambda d: d["points"].update(win=True), "points.win must be a number"),
    (lambda d: d.update(tiebreakers=["OPP", "votes"]), "must end with \"random\""),
    (lambda d: d.update(tiebreakers=["OMW%", "random"]), "unknown tiebreaker 'OMW%'"),
    (lambda d: d.update(tiebreakers=["OPP", "OPP", "random"]), "listed twice"),
    (lambda d: d.update(uses_votes="yes"), "uses_votes must be true or false"),
    (lambda d: d.update(uses_votes=False), "per_vote_received must be 0"),
    (lambda d: d.update(record="score"), "record must be one of"),
    (lambda d: d.update(name=""), "'name' must be a non-empty text"),
])
def test_bad_profile_is_refused_with_a_clear_message(change, message):
    d = _good()
    change(d)
    with pytest.raises(ScoringProfileError) as e:
        profile_from_dict(d, "democratic.json")
    assert message in str(e.value)
    assert str(e.value).startswith("democratic.json:")


def test_bad_duel_profile():
    d = json.loads((DATA / "mtr.json").read_text(encoding="utf-8"))
    for key, value, message in (("bye_record", "2-0", "bye_record must read"),
                                ("percentage_floor", 1.5, "percentage_floor"),
                                ("own_gw_floor", "no", "own_gw_floor")):
        with pytest.raises(ScoringProfileError, match=message):
            profile_from_dict({**d, key: value}, "mtr.json")
    with pytest.raises(ScoringProfileError, match="match_win and game_win"):
        profile_from_dict({**d, "points": {**d["points"], "match_win": 0}}, "mtr.json")
    with pytest.raises(ScoringProfileError, match="points is missing game_win"):
        profile_from_dict({**d, "points": {k: v for k, v in d["points"].items() if k != "game_win"}}, "mtr.json")


def test_load_profiles_from_a_directory_with_bad_files(tmp_path):
    good = _good()
    (tmp_path / "democratic.json").write_text(json.dumps(good), encoding="utf-8")
    (tmp_path / "prize_conditions.json").write_text("[]", encoding="utf-8")     # skipped: not a profile
    assert list(load_profiles(tmp_path)) == ["democratic"]

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "oops.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ScoringProfileError, match="oops.json is not valid JSON"):
        load_profiles(broken)

    renamed = tmp_path / "renamed"
    renamed.mkdir()
    (renamed / "friendly.json").write_text(json.dumps(good), encoding="utf-8")
    with pytest.raises(ScoringProfileError, match="id 'democratic' does not match the file name"):
        load_profiles(renamed)

    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ScoringProfileError, match="No scoring profiles"):
        load_profiles(empty)


def test_default_prize_conditions():
    conds = default_prize_conditions()
    assert [c["id"] for c in conds] == ["combat_damage", "mana_in_pool", "general_damage_win", "mana_on_general"]
    assert [c["kind"] for c in conds] == ["max", "max", "count", "max"]
    assert all(c["name"] for c in conds)
    conds[0]["name"] = "edited"                       # a copy: the defaults stay intact
    assert default_prize_conditions()[0]["name"] != "edited"
    assert [c["id"] for c in DEFAULT_PRIZE_CONDITIONS] == [c["id"] for c in default_prize_conditions()]


def test_events_read_the_same_prize_conditions():
    from tournament.events.operations import default_prize_conditions as events_defaults
    assert [(c["id"], c["kind"]) for c in events_defaults()] == \
        [(c["id"], c["kind"]) for c in default_prize_conditions()]


def test_validate_prize_conditions():
    assert validate_prize_conditions([{"id": "x", "name": "X"}])[0]["kind"] == "max"
    for bad, message in (([{"name": "X"}], "needs an id"),
                         ([{"id": "x"}], "needs a name"),
                         ([{"id": "x", "name": "X", "kind": "most"}], "kind 'most'"),
                         ([{"id": "x", "name": "X"}, {"id": "x", "name": "Y"}], "listed twice"),
                         ("x", "expected a list")):
        with pytest.raises(ScoringProfileError, match=message):
            validate_prize_conditions(bad)


def test_a_replaced_profile_scores_with_its_own_values():
    # Profiles are plain frozen dataclasses: an event-specific variant is a `replace`.
    p = replace(get_profile("survival"), points={**get_profile("survival").points, "survive": 3})
    assert p.exact("survive") == 3
    assert replace(get_profile("democratic"), points={**get_profile("democratic").points, "bye": 1.5}).exact("bye") \
        * 2 == 3
