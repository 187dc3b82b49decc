"""Crazy Rummy (docs/RULES.md §7), the project's second rummy game: card values and the
wild rank of each round, melds with wilds, the hand solver, the turn advisor,
whole games and their command line (``ginnyo crazy``).  docs/CRAZY-RUMMY.md has
the state JSON and the rule readings."""
