"""scripts/simulate_event.py runs whole events through the real operations.

The script runs in-process (its main() with an argv), each run on its own copy of the session's migrated
SQLite database (as from the command line, whatever database the suite runs on); one test starts the real
command line, which makes and migrates its own."""
import contextlib
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "simulate_event.py"
_spec = importlib.util.spec_from_file_location("simulate_event_script", SCRIPT)
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)


@pytest.fixture
def run_script(sqlite_template, tmp_path):
    """run_script(*args) -> (exit status, stdout, stderr) of the command line, run in-process on a fresh database;
    an exception other than SystemExit (a traceback from the command line) fails the test."""
    def run(*args):
        database = tmp_path / f"simulate-{uuid.uuid4().hex}.sqlite"
        shutil.copy(sqlite_template, database)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                script.main([*args, "--database", f"sqlite:///{database}"])
                code = 0
            except SystemExit as e:       # as the interpreter turns it into an exit status
                code = 0 if e.code is None else e.code if isinstance(e.code, int) else 1
                if not isinstance(e.code, (int, type(None))):
                    print(e.code, file=sys.stderr)
        return code, out.getvalue(), err.getvalue()
    return run


@pytest.fixture
def simulate(run_script):
    def run(*args):
        code, out, err = run_script("--json", *args)
        assert code == 0, err
        return json.loads(out)
    return run


def test_the_command_line_runs_on_a_fresh_database_and_exits_0_or_refuses_with_non_zero():
    out = subprocess.run([sys.executable, str(SCRIPT), "--json", "--players", "8", "--rounds", "1", "--seed", "1"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["pod_sizes"] == {"1": [4, 4]}
    out = subprocess.run([sys.executable, str(SCRIPT), "--players", "1"], capture_output=True, text=True)
    assert out.returncode == 2 and "at least 2 players" in out.stderr and "Traceback" not in out.stderr


def test_thirteen_players_sit_four_three_three_three(simulate):
    result = simulate("--players", "13", "--rounds", "3", "--mode", "pods", "--seed", "4")
    assert all(sorted(sizes) == [3, 3, 3, 4] for sizes in result["pod_sizes"].values())
    assert result["byes"] == 0
    assert len(result["pairing_seconds"]) == 3
    assert len(result["standings_top"]) == 8


def test_odd_duel_event_gives_one_bye_per_round_never_twice(simulate):
    result = simulate("--players", "15", "--rounds", "4", "--mode", "duel", "--seed", "2")
    assert result["byes"] == 4 and result["max_byes_per_player"] == 1
    assert result["repeat_pairs"] == 0


def test_names_file_is_used(simulate, tmp_path):
    names = tmp_path / "names.txt"
    names.write_text("\n".join(["山田太郎", "王小明", "Šárka Dvořáková", "<b>Bobby</b> Tables", "Ann", "Bo"]),
                     encoding="utf-8")
    result = simulate("--players", "6", "--rounds", "2", "--names", str(names))
    assert result["pod_sizes"]["1"] == [3, 3]
    assert {row["name"] for row in result["standings_top"]} == set(names.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("args", [["--players", "1"], ["--players", "5", "--names", "/nonexistent/names.txt"]])
def test_bad_arguments_are_refused(run_script, args):
    code, _, err = run_script(*args)
    assert code != 0 and err


def test_small_pods_are_counted_and_spread(simulate):
    result = simulate("--players", "13", "--rounds", "3", "--mode", "pods", "--seed", "12")
    # 27 seats at 3-pods among 13 players: somebody sits at three; no repeat opponents for it. And 10 at one
    # twice is the least without a repeat: the three 4-pods share at most one player pairwise, so at most
    # three players sit at a 4-pod twice.
    assert result["small_pod_max"] == 3 and result["repeat_pairs"] == 0
    assert result["small_pod_repeat_players"] == 10
    result = simulate("--players", "64", "--rounds", "5", "--mode", "pods", "--seed", "3")
    assert (result["small_pod_max"], result["small_pod_repeat_players"], result["repeat_pairs"]) == (0, 0, 0)
    assert result["seat1_max"] <= 2


@pytest.mark.parametrize("mode, size, shape", [
    ("pods", 10, [("top10", 2, 2), ("top4", 0, 1)]),
    ("pods", 40, [("top40", 0, 10), ("top10", 2, 2), ("top4", 0, 1)]),
    ("duel", 8, [("top8", 0, 4), ("top4", 0, 2), ("top2", 0, 1)]),
])
def test_a_top_cut_is_played_to_its_winner(simulate, mode, size, shape):
    players = "44" if size == 40 else "16"
    result = simulate("--players", players, "--rounds", "2", "--mode", mode, "--top-cut", str(size), "--seed", "3")
    cut = result["top_cut"]
    assert cut["size"] == size and cut["winner"]
    assert [(r["stage"], len(r["waiting"]), len(r["tables"])) for r in cut["rounds"]] == shape
    first = cut["rounds"][0]
    assert sorted([*first["waiting"], *(s for t in first["tables"] for s in t)]) == list(range(1, size + 1))
    if size == 10:
        assert first["waiting"] == [1, 2] and first["tables"] == [[3, 6, 7, 10], [4, 5, 8, 9]]


def test_a_top_cut_that_does_not_suit_the_mode_is_refused(run_script):
    code, _, err = run_script("--players", "16", "--mode", "duel", "--top-cut", "10")
    assert code != 0 and "--top-cut for duel" in err
