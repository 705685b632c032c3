"""Refusals every layer understands: a message for the user and an HTTP status."""


class Refused(Exception):
    """An action the rules or the input do not allow; the message says what to do instead."""

    def __init__(self, message: str, status: int = 400, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field


class NotFound(Refused):
    def __init__(self, message: str = "Not found."):
        super().__init__(message, status=404)


class Forbidden(Refused):
    def __init__(self, message: str = "You may not do that."):
        super().__init__(message, status=403)
