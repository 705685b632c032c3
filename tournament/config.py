"""Settings: defaults here, then the environment, then what create_app() is given."""
from __future__ import annotations

import os
from datetime import timedelta


def database_url_from_env(url: str | None) -> str | None:
    """Accept the common spellings and use psycopg 3 for PostgreSQL."""
    if not url:
        return None
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Config:
    SECRET_KEY: str | None = None       # None: a random key kept in instance/secret_key
    SQLALCHEMY_DATABASE_URI: str | None = None      # None: SQLite file under instance/
    SQLALCHEMY_ENGINE_OPTIONS: dict = {}    # pre-ping and the PostgreSQL pool: tournament._pool_settings
    SQLALCHEMY_TRACK_MODIFICATIONS = False
    MAX_CONTENT_LENGTH = 16 * 1024 * 1024
    MAX_FORM_MEMORY_SIZE = 2_000_000   # a pasted decklist over 1 MB reaches the parser, which explains the limit
    CARD_DOWNLOAD_URLS = {
        "mtgjson": "https://mtgjson.com/api/v5/AtomicCards.json.gz",
        "scryfall": "https://api.scryfall.com/bulk-data/oracle-cards",
    }
    CARD_IMPORT_BATCH = 2000
    PASSWORD_HASH_METHOD = "scrypt"
    COMPRESS_ALGORITHM = ["gzip"]      # every phone browser reads gzip; pages shrink about 5x
    COMPRESS_MIN_SIZE = 1000
    COMPRESS_MIMETYPES = ["text/html", "application/json", "text/css", "application/javascript", "text/javascript",
                          "image/svg+xml"]
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_HTTPONLY = True
    PERMANENT_SESSION_LIFETIME = timedelta(hours=12)   # from login: a staff session ends the same day
    # seconds a worker reuses an event's state version for polls: a change reaches the phones at most this
    # much after their poll (3 s); one indexed read per worker and event each time (was 1.0: bench_load's
    # 2,000 phones on PostgreSQL took up to 9.9 s to see round 1, half a second of it this wait)
    STATE_VERSION_TTL = 0.5
    BACKUP_DELAY: float | None = 2.0   # a round's backup waits this long for more changes, off the request
    SQLITE_WRITE_WAIT = 5.0   # seconds a write waits for SQLite's write lock before a 503 "busy, retrying"
    POLL_SHED_SECONDS = 1.0   # a phone's poll queued this long in waitress is told "busy, ask again" (web.lanes)
    TRUSTED_PROXIES = 0       # reverse proxies in front (Caddy, nginx): trust their X-Forwarded-* headers
    TRUSTED_PROXY_ADDRESS = "127.0.0.1"   # the address the nearest proxy connects from ("*": any)
    PUBLIC_URL: str | None = None     # e.g. http://192.168.1.20:5000: every player link and QR code uses it
    DETECTED_URL: str | None = None   # found by tournament.serve at start (the LAN address); PUBLIC_URL wins
    REDIS_URL: str | None = None      # shared rendered pages and rate-limit counters for every worker
    RATE_LIMITS: dict = {}            # overrides of tournament.web.throttle.DEFAULT_LIMITS, e.g. {"login": "3/minute"}
    DECKLIST_CAP_PER_EVENT = 5000     # decklist submissions from players an event keeps

    @classmethod
    def from_env(cls) -> dict:
        out = {}
        if url := database_url_from_env(os.environ.get("DATABASE_URL")):
            out["SQLALCHEMY_DATABASE_URI"] = url
        if key := os.environ.get("SECRET_KEY"):
            out["SECRET_KEY"] = key
        if public := os.environ.get("PUBLIC_URL"):
            out["PUBLIC_URL"] = public.rstrip("/")
        if detected := os.environ.get("DETECTED_URL"):
            out["DETECTED_URL"] = detected.rstrip("/")
        if redis_url := os.environ.get("REDIS_URL"):
            out["REDIS_URL"] = redis_url
        if os.environ.get("RATELIMIT_ENABLED", "").lower() in ("0", "false", "no"):
            out["RATELIMIT_ENABLED"] = False        # a fuzzing or load-test server only, never at an event
        if (proxies := os.environ.get("TRUSTED_PROXIES", "")).isdigit():
            out["TRUSTED_PROXIES"] = int(proxies)
        if address := os.environ.get("TRUSTED_PROXY_ADDRESS", "").strip():
            out["TRUSTED_PROXY_ADDRESS"] = address
        if shed := os.environ.get("POLL_SHED_SECONDS", "").strip():
            out["POLL_SHED_SECONDS"] = float(shed)        # for measuring other limits (scripts/bench_load.py)
        return out


class TestingConfig(Config):
    TESTING = True
    PASSWORD_HASH_METHOD = "pbkdf2:sha256:1000"      # cheap: tests create and log in many users
    STATE_VERSION_TTL = 0.0                          # tests look right after each change
    BACKUP_DELAY = None                              # a round's backup in the request (tests/test_backups.py:
                                                     # the background thread, with a delay)
    WTF_CSRF_ENABLED = False
    SECRET_KEY = "testing"
