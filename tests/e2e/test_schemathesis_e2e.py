"""The OpenAPI document and the server agree: a bounded schemathesis run (every check, every phase: examples,
coverage, fuzzing, stateful) against the production server finds no failure, on SQLite and (CI's second pass,
TEST_DATABASE_URL) on PostgreSQL.

Rate limits are off on this server only (RATELIMIT_ENABLED=0), so the fuzzer reaches the logic behind the
access-code routes instead of the limiter; the limits have their own tests. Rerun it by hand with more
examples as the README says."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import fresh_database, serve

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "40"))
SEED = int(os.environ.get("SCHEMATHESIS_SEED", "1"))

# Rules JSON Schema cannot describe, each refused with a 400 that says so: a decklist's text may match
# the document and hold no card line (only comments or headers), prize conditions must have different
# names, a series' points table never gives a lower place more, and a result, a vote or a tracker tap
# names players who sit at that table, in the form the table's kind takes (a pod's survivors, a match's
# games): the stored round decides; a new name another player of the event has (409) and an address only this
# computer could open (127.0.0.1 in any spelling, [::1], 0.0.0.0) are refused too. Those operations may answer
# 400 to schema-valid input; every other check still applies to them. A seating correction names players of
# the round and a seat its table has, and a penalty names a player of that event: the stored round and event
# decide, and those may answer 400 the same way.
CONFIG = """
[parameters]
"path.code" = "{code}"
"path.event_id" = {event_id}
"path.number" = 1
"path.table_number" = 1
"path.registration_id" = {registration_id}
"path.series_id" = {series_id}
"path.penalty_id" = {penalty_id}

[[operations]]
include-path-regex = "/decklist$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "404", "409", "413", "429"]

[[operations]]
include-operation-id-regex = "^(registrations_create|registrations_rename|events_publicAddress|events_create|events_update|series_create|series_update|results_enter|players_report|votes_cast|players_vote|tracker_act|players_tracker_act|tracker_start|players_tracker_start|rounds_swap|rounds_move|rounds_late_arrival|rounds_remove|penalties_give|results_game|players_game)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "413", "429"]
"""

SETUP = r"""
import json
import sqlalchemy as sa
from tournament import create_app
from tournament.auth.models import User
from tournament.auth.operations import issue_token
from tournament.extensions import db
from tournament.events import operations as ev
from tournament.rounds import operations as ro
from tournament.series import operations as so
app = create_app()
with app.app_context():
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    event = ev.create_event(olga, {"name": "Fuzz night", "ruleset": "edh-2010"})
    regs = [ev.register_player(event, {"name": f"Player {i}"}, user=olga) for i in range(1, 9)]
    for reg in regs:
        ev.check_in(reg, olga)
    rnd = ro.pair_next_round(event, olga, seed=1, override_decks=True)    # round 1 running: its tables exist
    ro.publish_round(rnd, olga)
    ro.start_round(rnd, olga)
    series = so.create_series(olga, {"name": "Fuzz league"})
    from tournament.penalties import operations as po
    penalty, _new = po.record(event, olga, po.read_input({"registration_id": regs[2].id, "infraction": "slow_play"}))
    token = issue_token(olga)
    db.session.commit()
    print(json.dumps({"token": token, "code": regs[0].access_code, "event_id": event.id,
                      "registration_id": regs[1].id, "series_id": series.id, "penalty_id": penalty.id}))
"""


def st_command() -> list[str]:
    found = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if found is None:
        pytest.skip("schemathesis is not installed (requirements-dev.txt has it)")
    return [found]


@pytest.fixture
def server_database(tmp_path):
    """The server's database: with TEST_DATABASE_URL (CI's second pass), a new PostgreSQL database on that
    server, dropped afterwards; else a SQLite file."""
    with fresh_database(tmp_path, "st") as database:
        yield database


def test_the_api_matches_its_document(tmp_path, server_database):
    st = st_command()
    with serve(tmp_path, RATELIMIT_ENABLED="0", DATABASE_URL=server_database) as server:
        data = server.prepare(SETUP)
        config = tmp_path / "schemathesis.toml"
        config.write_text(CONFIG.format(**data))
        run = subprocess.run(
            [*st, "--no-color", "--config-file", str(config), "run", f"{server}/api/v1/openapi.json",
             "--checks", "all", "--max-examples", str(MAX_EXAMPLES), "--seed", str(SEED), "--workers", "1",
             "-H", f"Authorization: Bearer {data['token']}"],
            cwd=tmp_path, capture_output=True, text=True, timeout=600)
        server_log = (tmp_path / "server.log").read_text()
    tracebacks = server_log[server_log.find("Traceback"):][:3000] if "Traceback" in server_log else ""
    report = run.stdout[-6000:] + run.stderr[-2000:] + tracebacks
    assert run.returncode == 0, report
    assert "Traceback" not in server_log, server_log[-4000:]
