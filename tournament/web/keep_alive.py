"""waitress, keeping a phone's connection open after a 304.

waitress closes the connection after every response that has no Content-Length (waitress/task.py,
build_response_header), and a 304 never has one: the WSGI layer strips it, and HTTP forbids a length that
is not the page's own. So every poll that finds nothing changed — most of a hall's requests — cost the
phone a new TCP connection, and the server an accept and a new channel. A 304 (and a 204, a 1xx) has no
body by definition (RFC 9112 §6.3), so the connection can stay open: this task class keeps it open for them
when nothing else asks to close it.

`serve(app, **options)` is waitress.serve with that task class (tournament.serve runs it).
"""
from __future__ import annotations

from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask


class BodilessKeepAliveTask(WSGITask):
    def build_response_header(self):
        if self.has_body or self.version != "1.1" or self.close_on_finish:
            return super().build_response_header()
        if self.request.headers.get("CONNECTION", "").lower() == "close":
            return super().build_response_header()
        # here waitress calls set_close_on_finish only because no Content-Length was given: not for a 304
        self.set_close_on_finish = _stay_open
        try:
            return super().build_response_header()
        finally:
            del self.set_close_on_finish


def _stay_open() -> None:
    pass


class KeepAliveChannel(HTTPChannel):
    task_class = BodilessKeepAliveTask


def keep_alive_server(app, **options):
    """waitress.create_server whose connections stay open after a 304."""
    server = create_server(app, **options)
    listeners = getattr(server, "map", None) or getattr(server, "_map", {})     # many sockets, or one
    for listener in (server, *listeners.values()):
        if hasattr(listener, "channel_class"):
            listener.channel_class = KeepAliveChannel
    return server


def serve(app, **options) -> None:
    from waitress import serve as waitress_serve
    waitress_serve(app, _server=keep_alive_server, **options)
