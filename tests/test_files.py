"""On a shared laptop, the database, its backups and the signing key are the app's user's alone."""
from __future__ import annotations

import os
import stat

import pytest

from tests.conftest import PG_URL
from tournament import backups, create_app
from tournament.config import TestingConfig

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _app(instance, **settings):
    class Config(TestingConfig):
        SECRET_KEY = None            # the instance folder's own key, as at the venue
        INSTANCE_PATH = str(instance)
        SQLALCHEMY_DATABASE_URI = None
    for k, v in settings.items():
        setattr(Config, k, v)
    return create_app(Config)


def test_a_new_install_makes_its_folder_0700_and_its_files_0600(tmp_path):
    old = os.umask(0o022)          # a typical desktop umask: files would be 0644, folders 0755
    try:
        instance = tmp_path / "instance"
        app = _app(instance)
        from flask_migrate import upgrade
        from tournament.extensions import db
        with app.app_context():
            upgrade()
            made = backups.backup("manual")
            db.session.remove()
            db.engine.dispose()
    finally:
        os.umask(old)
    assert _mode(instance) == 0o700
    assert _mode(instance / "secret_key") == 0o600
    assert _mode(instance / "tournament.sqlite") == 0o600
    assert _mode(instance / "ratelimits.sqlite") == 0o600
    assert _mode(instance / "backups") == 0o700
    assert _mode(made) == 0o600
    assert made.stat().st_size > 0


def test_an_older_install_left_readable_is_tightened_on_start(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    instance.chmod(0o755)
    (instance / "secret_key").write_text("an older key")
    (instance / "tournament.sqlite").write_bytes(b"")
    for name in ("secret_key", "tournament.sqlite"):
        (instance / name).chmod(0o644)
    app = _app(instance)
    assert app.config["SECRET_KEY"] == "an older key"
    assert _mode(instance) == 0o700
    assert _mode(instance / "secret_key") == 0o600
    assert _mode(instance / "tournament.sqlite") == 0o600


@pytest.mark.skipif(bool(PG_URL), reason="SQLite files")
def test_the_wal_files_are_as_private_as_the_database(app, db, make_event):
    make_event(name="Private")
    live = backups.sqlite_path()
    for suffix in ("-wal", "-shm"):
        side = live.with_name(live.name + suffix)
        if side.exists():
            assert _mode(side) == 0o600, suffix
