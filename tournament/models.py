"""Every feature's models, imported in one place so migrations see them all."""
from .cards.models import Card, CardImport, CardName  # noqa: F401
