"""Refusals every layer understands: a message for the user and an HTTP status."""
from flask_babel import gettext as _


class Refused(Exception):
    """An action the rules or the input do not allow; the message says what to do instead."""

    def __init__(self, message: str, status: int = 400, field: str | None = None):
        message = str(message)      # a lazy message is read now, in the language of this request
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field


class NotFound(Refused):
    def __init__(self, message: str | None = None):
        super().__init__(_("Not found.") if message is None else message, status=404)


class Forbidden(Refused):
    def __init__(self, message: str | None = None):
        super().__init__(_("You may not do that.") if message is None else message, status=403)
