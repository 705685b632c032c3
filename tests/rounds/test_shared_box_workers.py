"""A pod's shared "Your round" box drawn by one worker is used by the others (tournament.web.page_cache.parts):
through files under instance/parts on one machine, through Redis with REDIS_URL. Each worker process has its
own random stand-ins, so the copy carries the ones it was drawn with."""
from __future__ import annotations

import re
import secrets
import uuid

import pytest

from tests.conftest import _make_app
from tests.rounds.test_shared_box import _normal
from tests.web.test_page_cache import REDIS, _redis_or_skip


@pytest.fixture
def pod(make_round):
    event, rnd, regs = make_round(players=8, seed=7, name=f"Workers {uuid.uuid4().hex[:6]}", start=True)
    table = rnd.tables[0]
    by_id = {r.id: r for r in regs}
    return event, rnd, table, [by_id[s.registration_id] for s in table.seats]


def _another_process(monkeypatch):
    """This process's stand-ins as another worker process would have them: its own random ones."""
    import tournament.rounds.box as box
    monkeypatch.setattr(box, "_MARKS", {name: f"<!--{name}-{secrets.token_hex(8)}-->" for name in box.PARTS})
    monkeypatch.setattr(box, "_CLOCK", f"<!--clock-{secrets.token_hex(8)}-->")
    monkeypatch.setattr(box, "CODE_MARK", "c" + secrets.token_hex(12))
    monkeypatch.setattr(box, "TOKEN_MARK", "t" + secrets.token_hex(12))


def _counted_draws(monkeypatch):
    import tournament.rounds.box as box
    draws, real = [], box._render_shared
    monkeypatch.setattr(box, "_render_shared", lambda reg: draws.append(reg.id) or real(reg))
    return draws


def _box(app, player) -> str:
    response = app.test_client().get(f"/p/{player.access_code}/round")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _alone(app, player, monkeypatch) -> str:
    with monkeypatch.context() as m:
        m.setattr("tournament.rounds.box._shareable", lambda reg, place: False)
        return _box(app, player)


def _check_served(worker, players, monkeypatch, app):
    """Each phone's box from the other worker is the one drawn for it alone, with no stand-in left."""
    import tournament.rounds.box as box
    left_over = [*box._MARKS.values(), box._CLOCK, box.CODE_MARK, box.TOKEN_MARK]
    for p in players:
        html = _box(worker, p)
        assert _normal(html) == _normal(_alone(app, p, monkeypatch))
        assert re.search(r'class="you">' + re.escape(p.name) + " \\(you\\)<", html)
        assert p.access_code in html and not any(mark in html for mark in left_over)


def test_a_box_drawn_by_one_worker_is_used_by_another_on_the_same_machine(app, db, pod, monkeypatch, tmp_path):
    event, rnd, table, players = pod
    assert _box(app, players[0])                          # worker 1 draws the pod's copy and leaves it
    other = _make_app(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path)          # worker 2: same instance folder
    assert other.instance_path == app.instance_path
    _another_process(monkeypatch)
    draws = _counted_draws(monkeypatch)
    for p in players[1:]:
        _box(other, p)
    assert draws == []                                     # none drawn again
    _check_served(other, players[1:], monkeypatch, app)


def test_with_redis_a_box_drawn_by_one_app_server_is_used_by_another(app, db, pod, monkeypatch, tmp_path):
    _redis_or_skip()
    event, rnd, table, players = pod
    other = _make_app(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path / "second-node")     # another machine
    app.config["REDIS_URL"] = other.config["REDIS_URL"] = REDIS
    assert _box(app, players[0])
    _another_process(monkeypatch)
    draws = _counted_draws(monkeypatch)
    for p in players[1:]:
        _box(other, p)
    assert draws == []
    _check_served(other, players[1:], monkeypatch, app)


def test_a_change_is_drawn_again_and_the_older_versions_copies_are_removed(app, db, pod, monkeypatch, tmp_path):
    event, rnd, table, players = pod
    _box(app, players[0])
    folder = next((tmp_path / "instance" / "parts").iterdir())
    first_versions = [p.name for p in folder.iterdir()]
    assert len(first_versions) == 1 and len(list((folder / first_versions[0]).iterdir())) == 1
    report = app.test_client().post(f"/p/{players[0].access_code}/result", data={
        "r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [players[0].id]})
    assert report.status_code == 302
    other = _make_app(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path)
    draws = _counted_draws(monkeypatch)
    html = _box(other, players[1])
    assert "reported by" in html and len(draws) == 1        # the new state, drawn once
    versions = [p.name for p in folder.iterdir()]
    assert len(versions) == 1 and versions != first_versions


def test_an_unreadable_or_unwritable_store_means_drawing_per_worker(app, db, pod, monkeypatch, tmp_path):
    event, rnd, table, players = pod
    _box(app, players[0])
    folder = next((tmp_path / "instance" / "parts").iterdir())
    for part in next(folder.iterdir()).iterdir():
        part.write_bytes(b"not a pickle")                  # a damaged file
    other = _make_app(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path)
    draws = _counted_draws(monkeypatch)
    assert players[1].name in _box(other, players[1]) and len(draws) == 1
    import shutil
    shutil.rmtree(tmp_path / "instance" / "parts")
    (tmp_path / "instance" / "parts").write_text("a file where the folder should be")      # cannot be written
    third = _make_app(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path)
    for p in players[2:]:
        assert re.search(r'class="you">' + re.escape(p.name) + " \\(you\\)<", _box(third, p))
