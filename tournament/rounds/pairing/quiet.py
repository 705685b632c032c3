"""Cyclic garbage collection paused while a round's inputs and pairing are computed.

Building the standings, the history and the pods for 16,384 players allocates a few hundred thousand small
objects that reference counting frees; the collector's full passes over them (the heap is large by then)
took a quarter of the time, for nothing to collect. Nested and threaded uses share one pause: collection
resumes when the last one ends, if it was on before.
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

_lock = threading.Lock()
_state = {"depth": 0, "was_enabled": True}


@contextmanager
def collection_paused():
    with _lock:
        if _state["depth"] == 0:
            _state["was_enabled"] = gc.isenabled()
            gc.disable()
        _state["depth"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["depth"] -= 1
            if _state["depth"] == 0 and _state["was_enabled"]:
                gc.enable()
