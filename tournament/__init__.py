"""Commander (EDH) tournament manager."""
from __future__ import annotations

import os
from pathlib import Path

from .config import Config

ROOT = Path(__file__).resolve().parent.parent
# Flask and the app's modules are imported inside create_app, not here: a command that needs no app
# (`python -m tournament.decks check`) imports only what it uses.


def create_app(config: dict | type | None = None) -> TournamentFlask:
    from flask import g

    from .web.lifecycle import TournamentFlask
    app = TournamentFlask(__name__, instance_relative_config=True, instance_path=_instance_path(config),
                          template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    _configure(app, config)
    _https_settings(app)
    _pool_settings(app)
    from .extensions import compress, csrf, db, limiter, migrate
    from .web import throttle
    app.config.setdefault("RATELIMIT_STORAGE_URI", throttle.storage_uri(app.config, app.instance_path))
    db.init_app(app)
    migrate.init_app(app, db, directory=str(Path(__file__).parent / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    compress.init_app(app)
    limiter.init_app(app)
    throttle.no_check_per_request(app)
    app.after_request(throttle.add_retry_after)

    from . import models  # noqa: F401  (every model, for Alembic)
    from .api import bp as api_bp, docs as api_docs
    from .auth import cli as auth_cli, views as auth_views
    from .auth.access import load_user
    from .cards import cli as cards_cli, views as cards_views
    from .decks import cli as decks_cli
    from .events import cli as events_cli, exchange_views, views as events_views
    from .printing import cli as printing_cli, views as printing_views
    from .rounds import views as rounds_views
    from .swaps import views as swaps_views
    from .games import views as games_views
    from .series import views as series_views
    from .penalties import views as penalties_views
    from .web import register_error_handlers, register_health

    app.before_request(load_user)
    from . import i18n
    i18n.init_app(app)
    from .events.operations import may_manage
    app.context_processor(lambda: {"current_user": g.get("user"), "manages": lambda e: may_manage(g.get("user"), e)})
    for blueprint in (cards_views.bp, auth_views.bp, events_views.bp, exchange_views.bp, api_bp, rounds_views.bp,
                      games_views.bp, printing_views.bp, swaps_views.bp, series_views.bp, api_docs.bp,
                      penalties_views.bp):
        app.register_blueprint(blueprint)
    csrf.exempt(api_bp)
    from .backup_cli import backup_command, restore_command
    for group in (cards_cli.cards, decks_cli.deck, auth_cli.user, events_cli.event, printing_cli.print_document,
                  backup_command, restore_command):
        app.cli.add_command(group)
    register_error_handlers(app)
    register_health(app)
    return app


def _configure(app, config: dict | type | None) -> None:
    """The settings, later ones winning: the defaults, the environment, then `config` (a class or a dict);
    with no secret key or database given, the instance folder's own secret and SQLite file."""
    app.config.from_object(Config)
    app.config.update(Config.from_env())
    if isinstance(config, type):
        app.config.from_object(config)
    elif config:
        app.config.update(config)
    from .files import private_file, private_folder, sqlite_file
    private_folder(app.instance_path)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path) / "secret_key")
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(app.instance_path, "tournament.sqlite")
    database = sqlite_file(str(app.config["SQLALCHEMY_DATABASE_URI"]))
    if database is not None and database.parent.is_dir():
        private_file(database)      # made 0600 before SQLite makes it 0644 (its -wal and -shm copy its mode)


def _pool_settings(app) -> None:
    """A request may hold two database connections at once (its own and a rate-limit counter's), so a
    PostgreSQL pool keeps more than two per server thread: 10, and 30 more when busy (two workers: 80 of
    PostgreSQL's default 100). The default 5 + 10 let 8 or more busy threads wait on each other for 30 s.
    A server's connection may have dropped since its last use (a restart, a network outage): it is tested
    first (pre-ping). A SQLite file's connection cannot drop, and the test was a statement per request."""
    uri = str(app.config["SQLALCHEMY_DATABASE_URI"])
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    options.setdefault("pool_pre_ping", not uri.startswith("sqlite"))
    if uri.startswith("postgresql"):
        options.setdefault("pool_size", 10)
        options.setdefault("max_overflow", 30)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def _https_settings(app) -> None:
    """Behind a reverse proxy, know the real scheme and client; on HTTPS, cookies only travel encrypted."""
    from .web import proxy
    from .web.lanes import ShedStale
    from .web.not_modified import QuickNotModified
    # inside the proxy layer (it sees the real scheme); a repeated poll gets its 304 even when it waited long,
    # anything else that waited too long in waitress's queue its "busy, ask again"
    app.wsgi_app = QuickNotModified(ShedStale(app.wsgi_app, poll_seconds=app.config["POLL_SHED_SECONDS"]), app)
    app.extensions["quick_not_modified"] = app.wsgi_app     # its polls skip the queue (tournament.serve)
    proxies, address = proxy.settings(app.config)
    if proxies:
        app.wsgi_app = proxy.TrustedProxies(app.wsgi_app, proxies, address)
    if str(app.config.get("PUBLIC_URL") or "").startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
    from .web.lifecycle import SecureWhenHttps
    app.session_interface = SecureWhenHttps()
    from .web import security_headers
    app.after_request(security_headers)


def _instance_path(config) -> str | None:
    """Where the SQLite file, the signing key and backups live: INSTANCE_PATH (setting or environment),
    else instance/ beside the package."""
    given = config.get("INSTANCE_PATH") if isinstance(config, dict) else getattr(config, "INSTANCE_PATH", None)
    path = given or os.environ.get("INSTANCE_PATH")
    return os.path.abspath(path) if path else None


def _instance_secret(path: Path) -> str:
    """A random signing key made on first start and kept beside the database, so logins survive restarts."""
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        return _write_secret(path)
    if key:
        from .files import private_file
        private_file(path)      # an older install's key, readable by others, is tightened
        return key
    return _write_secret(path)


def _write_secret(path: Path) -> str:
    import secrets
    key = secrets.token_hex(32)
    from .files import private_file
    private_file(path)
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key
