from __future__ import annotations

import hashlib

import sqlalchemy as sa
from flask import current_app
from werkzeug.security import check_password_hash, generate_password_hash

from ..cards.models import utcnow
from ..extensions import db

ROLES = ("organizer", "judge")


class User(db.Model):
    """An organizer or judge. Players have no account: they hold an access code."""
    __tablename__ = "user"

    id = sa.Column(sa.Integer, primary_key=True)
    name = sa.Column(sa.String(80), nullable=False, unique=True)
    password_hash = sa.Column(sa.String(256), nullable=False)
    role = sa.Column(sa.String(20), nullable=False)
    created_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    session_version = sa.Column(sa.Integer, nullable=False, default=1, server_default="1")  # bump: every session ends
    disabled_at = sa.Column(sa.DateTime(timezone=True), nullable=True)     # set: no login, no session, no token
    language = sa.Column(sa.String(10), nullable=True)     # tournament.i18n.LANGUAGES; NULL: as the page chooses

    __table_args__ = (sa.CheckConstraint("role in ('organizer', 'judge')", name="role"),)

    def set_password(self, password: str) -> None:
        self.password_hash = generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)

    @property
    def is_organizer(self) -> bool:
        return self.role == "organizer"

    @property
    def active(self) -> bool:
        return self.disabled_at is None


class ApiToken(db.Model):
    """A staff bearer token; only its hash is stored."""
    __tablename__ = "api_token"

    id = sa.Column(sa.Integer, primary_key=True)
    user_id = sa.Column(sa.Integer, sa.ForeignKey("user.id", ondelete="CASCADE"), nullable=False, index=True)
    token_hash = sa.Column(sa.String(64), nullable=False, unique=True)
    created_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    last_used_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    expires_at = sa.Column(sa.DateTime(timezone=True), nullable=True)      # NULL: until revoked
    revoked_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    label = sa.Column(sa.String(80), nullable=False, default="", server_default="")

    user = db.relationship(User)

    @staticmethod
    def hash(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()


class StaffSession(db.Model):
    """One login: the browser's session cookie carries a random nonce, this row its hash. Logging out deletes
    the row, so a copy of the cookie taken before (on a shared laptop, over plain HTTP on the venue's Wi-Fi)
    is refused after it, although its signature is still good."""
    __tablename__ = "staff_session"

    id = sa.Column(sa.String(64), primary_key=True)      # sha256 of the cookie's nonce
    user_id = sa.Column(sa.Integer, sa.ForeignKey("user.id", ondelete="CASCADE"), nullable=False, index=True)
    created_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow, index=True)

    @staticmethod
    def hash(nonce: str) -> str:
        return hashlib.sha256(nonce.encode()).hexdigest()
