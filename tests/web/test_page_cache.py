"""With REDIS_URL every worker shares the rendered projector and standings; without Redis nothing breaks."""
from __future__ import annotations

import uuid

import pytest

from tests.conftest import _make_app

REDIS = "redis://127.0.0.1:6379/15"


def _redis_or_skip():
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.skip("Redis is not running on 127.0.0.1:6379")


def _worker(app, tmp_path, redis_url):
    """A second app on the same database: another worker process of the same server."""
    other = _make_app(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path / uuid.uuid4().hex)
    app.config["REDIS_URL"] = other.config["REDIS_URL"] = redis_url
    app.extensions.pop("rendered_pages", None)
    return other


def test_a_page_rendered_by_one_worker_is_served_by_another(app, db, make_round, tmp_path, monkeypatch):
    _redis_or_skip()
    event, rnd, regs = make_round(players=8, seed=11, name=f"Shared {uuid.uuid4().hex[:6]}")
    other = _worker(app, tmp_path, REDIS)
    first = app.test_client().get(f"/events/{event.id}/projector")
    assert first.status_code == 200
    monkeypatch.setattr("tournament.rounds.views.render_template",
                        lambda *a, **k: pytest.fail("the other worker should have served the shared copy"))
    second = other.test_client().get(f"/events/{event.id}/projector")
    assert second.status_code == 200 and second.headers["ETag"] == first.headers["ETag"]
    assert regs[0].name in second.get_data(as_text=True)


def test_redis_away_means_rendering_per_worker_not_an_error(app, db, make_round, tmp_path):
    event, rnd, regs = make_round(players=8, seed=11)
    other = _worker(app, tmp_path, "redis://127.0.0.1:1/0")          # nothing listens there
    for worker in (app, other, app):
        response = worker.test_client().get(f"/events/{event.id}/projector")
        assert response.status_code == 200 and regs[0].name in response.get_data(as_text=True)
