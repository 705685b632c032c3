"""What one feature announces and a feature built on it acts on, so the lower one does not import the higher.

Events and rounds announce; a series (built on both) listens. A receiver is connected when its feature's
package is imported (create_app imports every feature), and runs synchronously inside send(), in the sender's
request and transaction: what it changes is flushed with the sender's change, committed or rolled back with it,
and an error it raises refuses the sender's action as before.
"""
from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

event_status_changed = _signals.signal("event-status-changed")
"""An event's status changed: finished (tournament.rounds finish_event), or set in its settings (reopened, ...).
Sender: the Event, already flushed with its new status; keyword `actor`: who did it, as the event log names them.
The series feature records a finished event in its series and stops counting a reopened one."""

duel_game_reported = _signals.signal("duel-game-reported")
"""A game of a 1v1 match was reported and the match goes on (tournament.rounds report_game). Sender: the GameTable,
flushed with the game; keywords `game` (its number) and `at` (when). The swaps feature opens sideboarding for the
next game, its deadline stored now."""
