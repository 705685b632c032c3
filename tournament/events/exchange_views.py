"""Import and export of players and whole events (CSV, JSON)."""
from flask import Blueprint

bp = Blueprint("exchange", __name__)
