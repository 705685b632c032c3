"""Fixtures in the manner of flaskr and Indico: app, db, client, runner, factories.

Every test gets its own database. SQLite: a copy of a template migrated once
per session. PostgreSQL (TEST_DATABASE_URL): a schema of the session's own in
that database (so sessions running at once leave each other alone), migrated
once, every table emptied after each test, dropped at the end.
"""
from __future__ import annotations

import contextvars
import os
import secrets
import shutil
import tempfile
import warnings
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


def _reuse_url_builders() -> None:
    """Every test makes its own app, and most of create_app's time (about 4/5) went on Werkzeug writing and
    compiling the same Python source for each of its ~100 URL rules' builders, again in every app. The
    builder is a plain function of the rule's parsed parts and its defaults' names (it reads the converters
    and query encoding from the rule it is bound to, at call time), so one made for an equal rule in an
    earlier app is reused. A rule with a default for one of its own variables (the builder bakes that value
    in) is compiled as before. Written against Werkzeug 3.1's Rule._compile_builder: left alone if Rule has no
    such method or no _trace."""
    from werkzeug.routing.rules import Rule

    original = Rule.__dict__.get("_compile_builder")
    if original is None or getattr(original, "_tests_reuse", False) or not hasattr(Rule("/"), "_trace"):
        return
    builders: dict = {}

    def _compile_builder(self, append_unknown: bool = True):
        defaults = self.defaults or {}
        if any(is_dynamic and data in defaults for is_dynamic, data in self._trace):
            return original(self, append_unknown)
        key = (self.rule, tuple(self._trace), tuple(map(str, defaults)), append_unknown)
        if key not in builders:
            builders[key] = original(self, append_unknown)
        return builders[key]

    _compile_builder._tests_reuse = True
    Rule._compile_builder = _compile_builder


_reuse_url_builders()


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
def sqlite_template(tmp_path_factory) -> Path:
    """An empty SQLite database migrated once per session, also when the suite runs on PostgreSQL: copy the
    file (shutil.copy), never open it itself."""
    tmp = tmp_path_factory.mktemp("template")
    path = tmp / "template.sqlite"
    _migrate(_make_app(f"sqlite:///{path}", tmp))
    return path


@pytest.fixture(scope="session")
def _template_db(request, tmp_path_factory):
    """SQLite: the template file. PostgreSQL: the URL of this session's own schema, migrated."""
    if not PG_URL:
        return request.getfixturevalue("sqlite_template")
    schema = f"tests_{os.getpid()}_{secrets.token_hex(4)}"
    engine = sa.create_engine(PG_URL, poolclass=sa.pool.NullPool)
    keeper = engine.connect()       # holds the schema's advisory lock as long as this session runs
    keeper.execute(sa.text("SELECT pg_advisory_lock(hashtext(:s))"), {"s": schema})
    keeper.commit()
    _drop_abandoned_schemas(engine)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = sa.engine.make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    url = url.render_as_string(hide_password=False)
    _migrate(_make_app(url, tmp_path_factory.mktemp("template")))
    request.addfinalizer(lambda: _drop_schema(engine, keeper, schema))
    return url


def _drop_abandoned_schemas(engine) -> None:
    """Schemas of sessions that ended without dropping theirs (killed): nobody holds their advisory lock."""
    with engine.connect() as conn:
        names = conn.execute(sa.text(r"SELECT nspname FROM pg_namespace WHERE nspname LIKE 'tests\_%'")).scalars()
        for name in names.all():
            if conn.execute(sa.text("SELECT pg_try_advisory_lock(hashtext(:s))"), {"s": name}).scalar():
                conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
                conn.execute(sa.text("SELECT pg_advisory_unlock(hashtext(:s))"), {"s": name})
            conn.commit()


def _drop_schema(engine, keeper, schema: str) -> None:
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("SET LOCAL lock_timeout = '10s'"))
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    except sa.exc.DBAPIError as e:    # a connection a test left open holds a lock: the next session drops it
        warnings.warn(f"tests/conftest.py: schema {schema} left for the next session to drop: {e.orig}")
    finally:
        keeper.close()
        engine.dispose()


@pytest.fixture
def app(_template_db, tmp_path):
    if PG_URL:
        app = _make_app(_template_db, tmp_path)
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
            _empty_postgres(_db)
        _db.engine.dispose()


def _empty_postgres(db) -> None:
    """Every table emptied and every used sequence restarted, as TRUNCATE ... RESTART IDENTITY CASCADE did
    (80 ms a test on a quiet machine, over half a second on a busy one: it makes new files for all ~30 tables
    and their indexes, most of them empty). DELETE costs next to nothing on a test's few rows: children first
    (the models' order reversed; tables no model names, first); a sequence only if it was used. If that order
    ever meets a foreign key it cannot follow, the transaction rolls back and TRUNCATE does it, with a warning."""
    models = [t.name for t in reversed(db.metadata.sorted_tables)]
    with db.engine.connect() as conn:
        present = conn.execute(sa.text("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                       "AND tablename <> 'alembic_version'")).scalars().all()
        conn.rollback()
        tables = [t for t in present if t not in models] + [t for t in models if t in present]
        names = ", ".join("'" + t.replace("'", "''") + "'" for t in tables)
        try:
            with conn.begin():
                conn.execute(sa.text(_EMPTY_POSTGRES.replace("TABLES", names)))
            return
        except sa.exc.DBAPIError as e:
            warnings.warn(f"tests/conftest.py: emptying PostgreSQL by DELETE failed, TRUNCATE instead: {e.orig}")
        quoted = ", ".join('"' + t.replace('"', '""') + '"' for t in tables)
        with conn.begin():
            conn.execute(sa.text(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE"))


_EMPTY_POSTGRES = """
DO $$
DECLARE
    t text;
    s record;
BEGIN
    FOREACH t IN ARRAY CAST(ARRAY[TABLES] AS text[]) LOOP
        EXECUTE 'DELETE FROM ' || quote_ident(t);
    END LOOP;
    FOR s IN SELECT schemaname, sequencename FROM pg_sequences
             WHERE schemaname = current_schema() AND last_value IS NOT NULL LOOP
        EXECUTE 'ALTER SEQUENCE ' || quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename) || ' RESTART';
    END LOOP;
END $$
"""


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
def api(client):
    """The checking client for /api/v1 (tests/api/apidoc.py)."""
    from tests.api.apidoc import Checked
    return Checked(client)


@pytest.fixture
def token(db, organizer):
    """An API token of the organizer."""
    from tournament.auth.operations import issue_token
    value = issue_token(organizer)
    db.session.commit()
    return value


@pytest.fixture
def other_token(db, make_user):
    """An API token of another organizer (Otto Other), who runs none of the test's events."""
    from tournament.auth.operations import issue_token
    value = issue_token(make_user("Otto Other", "organizer"))
    db.session.commit()
    return value


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


def play_pod_rounds(db, event, judge, regs=(), count=1, seed=5):
    """Check in `regs`, then play `count` rounds of pods where seat 1 survives (published, started, reported,
    finished), and commit: the played Swiss that standings, cuts and series tests start from."""
    from tournament.events import operations as events
    from tournament.rounds import operations as rounds
    for reg in regs:
        events.check_in(reg, judge)
    for _ in range(count):
        rnd = rounds.pair_next_round(event, judge, seed=seed, override_decks=True)
        rounds.publish_round(rnd, judge)
        rounds.start_round(rnd, judge)
        for table in rnd.tables:
            if table.kind == "pod":
                ids = [s.registration_id for s in table.seats]
                rounds.report_pod_result(table, ids[:1], ids[1:], user=judge)
        rounds.finish_round(rnd, judge)
    db.session.commit()
