"""The timed sideboard swap (the 3-minute swap) and between-game sideboarding in 1v1 matches."""
