from __future__ import annotations

import sqlalchemy as sa

from ..cards.models import utcnow
from ..extensions import db
from ..web.lifecycle import versioned
from ..rounds.pairing.sizes import MAX_POD, MIN_POD

MODES = ("pods", "duel")
STATUSES = ("registration", "running", "finished")
PAPER_SIZES = ("A4", "Letter")
SCORING_PROFILES = ("democratic", "survival", "cedh", "mtr")
VARIANTS = ("none", "archenemy", "supervillain_rumble")
# Bounds of the settings (tournament.events.schemas declares the inputs with them; the CHECKs below read them).
POD_SIZES = (MIN_POD, MAX_POD)      # the pairing engine's bounds
SWAP_SECONDS = (0, 3600)
SIDEBOARD_MINUTES = (1, 60)          # 1v1: sideboarding between games closes after this (default 3)
ROUND_MINUTES = (10, 600)
PLANNED_ROUNDS = (1, 30)
BYE_POINTS = (0, 100)
PLAYER_CAP = (1, 50_000)            # players who hold a place; NULL: no cap
ENTRY_FEE_LENGTH = 200
EVENT_NAME_LENGTH = 200
VENUE_LENGTH = 200
TRACKER_VARIANTS = {"none": "normal", "archenemy": "archenemy", "supervillain_rumble": "rumble"}  # event -> tracker


@versioned                      # every committed change to an event's pages bumps its state_version
class Event(db.Model):
    __tablename__ = "event"

    id = sa.Column(sa.Integer, primary_key=True)
    organizer_id = sa.Column(sa.Integer, sa.ForeignKey("user.id"), nullable=False, index=True)
    name = sa.Column(sa.String(EVENT_NAME_LENGTH), nullable=False)
    date = sa.Column(sa.Date, nullable=True)
    venue = sa.Column(sa.String(VENUE_LENGTH), nullable=False, default="")
    ruleset = sa.Column(sa.String(40), nullable=False)
    banlist_add = sa.Column(sa.JSON, nullable=False, default=list)
    banlist_remove = sa.Column(sa.JSON, nullable=False, default=list)
    mode = sa.Column(sa.String(10), nullable=False, default="pods")
    pod_size = sa.Column(sa.Integer, nullable=False, default=4)
    sideboard_enabled = sa.Column(sa.Boolean, nullable=False, default=True)
    swap_seconds = sa.Column(sa.Integer, nullable=False, default=180)
    sideboard_minutes = sa.Column(sa.Integer, nullable=False, default=3, server_default="3")  # 1v1: between games
    scoring_profile = sa.Column(sa.String(20), nullable=False, default="democratic")
    round_minutes = sa.Column(sa.Integer, nullable=False, default=90)
    decklist_deadline = sa.Column(sa.DateTime(timezone=True), nullable=True)
    paper_size = sa.Column(sa.String(10), nullable=False, default="A4")
    status = sa.Column(sa.String(20), nullable=False, default="registration")
    leftover_policy = sa.Column(sa.String(10), nullable=False, default="threes")   # pods that don't divide evenly
    top_cut = sa.Column(sa.Integer, nullable=False, default=0)                      # duel: 0, 4 or 8
    bye_points = sa.Column(sa.Float, nullable=True)                                 # NULL: the profile's
    prize_conditions = sa.Column(sa.JSON, nullable=False, default=list)
    hide_votes = sa.Column(sa.Boolean, nullable=False, default=True)                # until the whole table voted
    bracket_pods = sa.Column(sa.Boolean, nullable=False, default=False)             # pods within declared brackets
    cut_seating = sa.Column(sa.String(10), nullable=False, default="seed")          # pod top cut: "seed" | "choice"
    cut_draw = sa.Column(sa.String(10), nullable=False, default="table")           # drawn cut pod: "table" | "survivor"
    cut_deal = sa.Column(sa.String(10), nullable=False, default="snake")           # cut pods: "snake" | "straight"
    cut_top40 = sa.Column(sa.String(12), nullable=False, default="ten_pods")       # top 40: "ten_pods" | "sixteen_wait"
    odd_pods = sa.Column(sa.String(10), nullable=False, default="low")             # 3-pods at "low" | "high" standings
    end_of_round = sa.Column(sa.String(20), nullable=False, default="finish_turn")  # data/draws.json procedures
    end_of_round_turns = sa.Column(sa.Integer, nullable=True)                       # for extra_turns / turn_limit
    intentional_draws = sa.Column(sa.Boolean, nullable=False, default=True)
    planned_rounds = sa.Column(sa.Integer, nullable=True)                           # NULL: decided as it goes
    max_bracket = sa.Column(sa.Integer, nullable=True)            # Commander Brackets 1-5; NULL: any deck
    timezone = sa.Column(sa.String(64), nullable=False, default="UTC", server_default="UTC")   # IANA, e.g. Europe/Prague
    publish_decklists = sa.Column(sa.Boolean, nullable=False, default=False, server_default=sa.false())  # once finished
    state_version = sa.Column(sa.Integer, nullable=False, default=0, server_default="0")  # bumps per committed change
    variant = sa.Column(sa.String(20), nullable=False, default="none", server_default="none")  # VARIANTS
    archenemy_win_points = sa.Column(sa.Integer, nullable=False, default=3, server_default="3")
    team_win_points = sa.Column(sa.Integer, nullable=False, default=1, server_default="1")
    language = sa.Column(sa.String(10), nullable=True)         # public pages and printouts; NULL: English
    series_id = sa.Column(sa.Integer, sa.ForeignKey("series.id", ondelete="SET NULL"), nullable=True,
                          index=True)                                           # a league this event counts in
    standings_seed = sa.Column(sa.BigInteger, nullable=False, default=0)           # the last tiebreaker's order
    public_url = sa.Column(sa.String(200), nullable=True)     # the address phones open (print page); NULL: detected
    player_cap = sa.Column(sa.Integer, nullable=True)            # places; more players join the waitlist; NULL: none
    entry_fee = sa.Column(sa.String(ENTRY_FEE_LENGTH), nullable=True)   # a note for the desk ("€10, cash or card")
    created_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    organizer = db.relationship("User")
    series = db.relationship("Series")
    staff = db.relationship("EventStaff", back_populates="event", cascade="all, delete-orphan",
                            order_by="EventStaff.id")
    registrations = db.relationship("Registration", back_populates="event", cascade="all, delete-orphan",
                                    order_by="Registration.id")

    __table_args__ = (
        sa.CheckConstraint(f"pod_size between {POD_SIZES[0]} and {POD_SIZES[1]}", name="pod_size"),
        sa.CheckConstraint(f"mode in ({', '.join(map(repr, MODES))})", name="mode"),
        sa.CheckConstraint(f"status in ({', '.join(map(repr, STATUSES))})", name="status"),
        sa.CheckConstraint(f"swap_seconds >= {SWAP_SECONDS[0]}", name="swap_seconds"),
        sa.CheckConstraint(f"sideboard_minutes between {SIDEBOARD_MINUTES[0]} and {SIDEBOARD_MINUTES[1]}",
                           name="sideboard_minutes"),
        sa.CheckConstraint(f"player_cap is null or player_cap between {PLAYER_CAP[0]} and {PLAYER_CAP[1]}",
                           name="player_cap"),
    )


STAFF_ROLES = ("judge", "organizer")     # per event: a judge runs rounds and the desk; a co-organizer also edits


class EventStaff(db.Model):
    """Who besides its owner may act on an event, and as what."""
    __tablename__ = "event_staff"

    id = sa.Column(sa.Integer, primary_key=True)
    event_id = sa.Column(sa.Integer, sa.ForeignKey("event.id", ondelete="CASCADE"), nullable=False, index=True)
    user_id = sa.Column(sa.Integer, sa.ForeignKey("user.id", ondelete="CASCADE"), nullable=False, index=True)
    role = sa.Column(sa.String(20), nullable=False)
    added_by = sa.Column(sa.String(120), nullable=False)
    added_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)

    event = db.relationship(Event, back_populates="staff")
    user = db.relationship("User")

    __table_args__ = (
        sa.UniqueConstraint("event_id", "user_id", name="uq_event_staff_member"),
        sa.CheckConstraint("role in ('judge', 'organizer')", name="role"),
    )


class Registration(db.Model):
    """A player in an event. The access code is the player's key to their own page."""
    __tablename__ = "registration"

    id = sa.Column(sa.Integer, primary_key=True)
    event_id = sa.Column(sa.Integer, sa.ForeignKey("event.id", ondelete="CASCADE"), nullable=False, index=True)
    name = sa.Column(sa.String(100), nullable=False)
    search_key = sa.Column(sa.String(200), nullable=False, default="")   # name without case, accents, spaces
    contact = sa.Column(sa.String(200), nullable=False, default="")
    player_id = sa.Column(sa.String(40), nullable=True)
    access_code = sa.Column(sa.String(16), nullable=False, unique=True)
    late = sa.Column(sa.Boolean, nullable=False, default=False)
    checked_in_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    dropped_at = sa.Column(sa.DateTime(timezone=True), nullable=True)
    notes = sa.Column(sa.Text, nullable=False, default="")
    declared_bracket = sa.Column(sa.Integer, nullable=True)       # the bracket the player says the deck is
    waitlisted = sa.Column(sa.Boolean, nullable=False, default=False, server_default=sa.false())  # no place yet
    promoted_at = sa.Column(sa.DateTime(timezone=True), nullable=True)   # left the waitlist for a place
    paid_at = sa.Column(sa.DateTime(timezone=True), nullable=True)       # the desk marked the entry fee paid
    created_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    deck_id = sa.Column(sa.Integer, sa.ForeignKey("decklist.id", use_alter=True, ondelete="SET NULL"), nullable=True)

    event = db.relationship(Event, back_populates="registrations")
    deck = db.relationship("Decklist", foreign_keys=[deck_id], post_update=True)

    __table_args__ = (
        sa.UniqueConstraint("event_id", "player_id", name="uq_registration_event_player"),
        sa.Index("ix_registration_event_name", "event_id", "name"),
        sa.Index("ix_registration_event_waitlisted", "event_id", "waitlisted"),
    )

    @property
    def deck_status(self) -> str:
        if self.deck is None:
            return "missing"
        return "legal" if self.deck.legal else "illegal"


class Decklist(db.Model):
    """One submitted decklist with its check; every submission is kept."""
    __tablename__ = "decklist"

    id = sa.Column(sa.Integer, primary_key=True)
    registration_id = sa.Column(sa.Integer, sa.ForeignKey("registration.id", ondelete="CASCADE"),
                                nullable=False, index=True)
    text = sa.Column(sa.Text, nullable=False)
    ruleset = sa.Column(sa.String(40), nullable=False)
    legal = sa.Column(sa.Boolean, nullable=False)
    result = sa.Column(sa.JSON, nullable=False)          # DeckCheck.to_json()
    bracket_floor = sa.Column(sa.Integer, nullable=True)  # result["bracket"]["floor"], for the desk and pairing
    submitted_at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
    submitted_by = sa.Column(sa.String(120), nullable=False)   # "player" or "judge:NAME"


class AuditEntry(db.Model):
    """Who did what and when: results, swaps, overrides, check-ins, late edits."""
    __tablename__ = "audit_entry"

    id = sa.Column(sa.Integer, primary_key=True)
    event_id = sa.Column(sa.Integer, sa.ForeignKey("event.id", ondelete="CASCADE"), nullable=True, index=True)
    actor = sa.Column(sa.String(120), nullable=False)
    action = sa.Column(sa.String(60), nullable=False)
    details = sa.Column(sa.JSON, nullable=False, default=dict)
    at = sa.Column(sa.DateTime(timezone=True), nullable=False, default=utcnow)
