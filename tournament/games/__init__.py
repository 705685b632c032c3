"""Table-side game tracker: life, general damage, tax, poison, dungeons and Archenemy."""
