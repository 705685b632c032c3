"""`python -m tournament.decks check FILE... --ruleset ID`: the deck check without starting the web app."""
from tournament.decks.checking import main

main(prog_name="python -m tournament.decks")
