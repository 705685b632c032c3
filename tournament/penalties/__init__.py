"""Penalties: warnings, game losses, match losses and disqualifications recorded by staff, as the Magic Infraction
Procedure Guide names them (tournament/data/infractions.json), and what they do to the results."""
