"""Fixtures in the manner of flaskr and Indico: app, db, client, runner, factories.

Every test gets its own database. SQLite: a copy of a template migrated once
per session. PostgreSQL (TEST_DATABASE_URL): the schema is migrated once per
session and every table is emptied after each test.
"""
from __future__ import annotations

import contextvars
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import has_app_context
from flask.testing import FlaskClient

from tournament import create_app
from tournament.config import TestingConfig, database_url_from_env

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
ATOMIC_CARDS = SHARED / "cards" / "AtomicCards.json.gz"
PG_URL = database_url_from_env(os.environ.get("TEST_DATABASE_URL"))
# Every app a test makes, here or in a subprocess (CLI runs, e2e set-up scripts), keeps its signing key and
# backups in a temporary folder, never in the checkout's instance/.
os.environ["INSTANCE_PATH"] = tempfile.mkdtemp(prefix="edh-tests-instance-")
os.environ["TZ"] = "UTC"           # a new event takes the machine's zone: the tests' machine is on UTC

from tournament.i18n import compile_catalogs  # noqa: E402

compile_catalogs()                 # as scripts/test does: a suite run alone still reads today's catalogs


def _make_app(uri: str, tmp_path: Path):
    class Config(TestingConfig):
        SQLALCHEMY_DATABASE_URI = uri
        INSTANCE_PATH = str(tmp_path / "instance")
    app = create_app(Config)
    app.test_client_class = IsolatedClient
    return app


class IsolatedClient(FlaskClient):
    """Each request pushes its own app context, and so its own database session, as on the server.

    The test's own session (the `db` fixture's context) commits what the test prepared before the
    request and reads afresh after it, as a second program looking at the same database would."""

    def open(self, *args, **kwargs):
        from tournament.extensions import db as _db
        outer = has_app_context()
        if outer:
            _db.session.commit()
        response = contextvars.Context().run(super().open, *args, **kwargs)
        if outer:
            _db.session.expire_all()
        return response


def _migrate(app) -> None:
    from flask_migrate import upgrade
    from tournament.extensions import db
    with app.app_context():
        upgrade()
        db.engine.dispose()  # SQLite: closing the last connection folds the WAL into the file


@pytest.fixture(scope="session")
def _template_db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("template")
    if PG_URL:
        engine = sa.create_engine(PG_URL)
        with engine.begin() as conn:
            conn.execute(sa.text("DROP SCHEMA IF EXISTS public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
        engine.dispose()
        _migrate(_make_app(PG_URL, tmp))
        return PG_URL
    path = tmp / "template.sqlite"
    _migrate(_make_app(f"sqlite:///{path}", tmp))
    return path


@pytest.fixture
def app(_template_db, tmp_path):
    if PG_URL:
        app = _make_app(PG_URL, tmp_path)
    else:
        path = tmp_path / "test.sqlite"
        shutil.copy(_template_db, path)
        app = _make_app(f"sqlite:///{path}", tmp_path)
    from tournament.cards.repository import DbCardPool
    from tournament.extensions import db as _db
    DbCardPool.clear_cache()
    yield app
    with app.app_context():
        _db.session.remove()
        if PG_URL:
            tables = [t.name for t in _db.metadata.sorted_tables]
            with _db.engine.begin() as conn:
                quoted = ", ".join(f'"{t}"' for t in tables)
                conn.execute(sa.text(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE"))
        _db.engine.dispose()


@pytest.fixture
def db(app):
    """The database, with an app context for the test's own work (factories, checks)."""
    from tournament.extensions import db as _db
    with app.app_context():
        yield _db
        _db.session.remove()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def load_cards(db):
    """Import a card file into this test's database; returns the ImportResult."""
    from tournament.cards.operations import import_cards

    def load(path, **kwargs):
        result = import_cards(path, **kwargs)
        db.session.commit()
        return result
    return load


@pytest.fixture
def starter_cards(load_cards):
    from tournament.cards.importers import STARTER_FILE
    return load_cards(STARTER_FILE, source="starter")


@pytest.fixture
def make_card(db):
    """Store a card built from keyword arguments (a Card dataclass's fields)."""
    from tournament.cards.domain import Card, Face, could_be_commander, copy_limit_for, split_type_line
    from tournament.cards.operations import import_cards

    def make(name, type_line="Creature — Human", mana_cost="", text="", color_identity=(), **kw):
        sup, types, sub = split_type_line(type_line)
        face = Face(name=name, mana_cost=mana_cost, type_line=type_line, supertypes=sup, types=types,
                    subtypes=sub, text=text)
        card = Card(name=name, faces=(face,), color_identity=tuple(color_identity),
                    can_be_commander=could_be_commander(face), copy_limit=copy_limit_for(sup, text),
                    legalities=kw.pop("legalities", {"vintage": "Legal", "commander": "Legal", "duel": "Legal"}),
                    **kw)
        import_cards(f"{name}.json", source="test", cards=[card])
        db.session.commit()
        return card
    return make


def pytest_collection_modifyitems(config, items):
    skip_pg = pytest.mark.skip(reason="PostgreSQL test: set TEST_DATABASE_URL to run it")
    skip_cards = pytest.mark.skip(reason=f"{ATOMIC_CARDS} not found")
    for item in items:
        if "postgres" in item.keywords and not PG_URL:
            item.add_marker(skip_pg)
        if "slow" in item.keywords and not ATOMIC_CARDS.exists():
            item.add_marker(skip_cards)


PASSWORD = "correct horse battery"


@pytest.fixture
def make_user(db):
    """make_user(name, role='organizer') -> User with password PASSWORD."""
    from tournament.auth.operations import create_user

    def make(name="Olga Organizer", role="organizer", password=PASSWORD):
        user = create_user(name, password, role)
        db.session.commit()
        return user
    return make


@pytest.fixture
def organizer(make_user):
    return make_user("Olga Organizer", "organizer")


@pytest.fixture
def judge(make_user):
    return make_user("Jan Judge", "judge")


@pytest.fixture
def make_event(db, organizer, judge):
    """make_event(**settings) -> Event owned by `organizer` (edh-2010, pods, by default), with `judge` on its
    staff (staff=[] for none)."""
    from tournament.events.operations import add_staff, create_event

    def make(owner=None, staff=None, **settings):
        data = {"name": "Friday Night EDH", "ruleset": "edh-2010", **settings}
        owner = owner or organizer
        event = create_event(owner, data)
        for member in ([judge] if staff is None else staff):
            add_staff(event, owner, member.name, "judge")
        db.session.commit()
        return event
    return make


@pytest.fixture
def make_player(db):
    """make_player(event, name=..., decklist=None, staff=None) -> Registration."""
    from tournament.events.operations import register_player

    def make(event, name="Šárka Dvořáková", decklist=None, staff=None, **fields):
        data = {"name": name, **fields}
        if decklist is not None:
            data["decklist"] = decklist
        reg = register_player(event, data, user=staff)
        db.session.commit()
        return reg
    return make


@pytest.fixture
def login(client):
    """login(user) logs the test client in through the real form."""
    def do(user, password=PASSWORD):
        response = client.post("/auth/login", data={"name": user.name, "password": password})
        assert response.status_code == 302, response.get_data(as_text=True)
        return response
    return do


@pytest.fixture
def make_round(db, make_event, make_player, judge):
    """make_round(players=8, start=False, event=None, **event_settings) -> (event, round 1 published,
    registrations): players registered (in `event` when given) and checked in, round 1 paired from a fixed seed and published (and started)."""
    from tournament.events import operations as events
    from tournament.rounds import operations as rounds

    def make(players=8, start=False, seed=7, name="Round night", event=None, **settings):
        event = event or make_event(name=name, **settings)
        regs = [make_player(event, f"Player {i:02d}") for i in range(1, players + 1)]
        for reg in regs:
            events.check_in(reg, judge)
        rnd = rounds.pair_next_round(event, judge, seed=seed, override_decks=True)
        rounds.publish_round(rnd, judge)
        if start:
            rounds.start_round(rnd, judge)
        db.session.commit()
        return event, rnd, regs
    return make
