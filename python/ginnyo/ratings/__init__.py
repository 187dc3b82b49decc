"""Ratings: players' (and puzzles') skill, rated from finished orders of 2 to 6 with OpenSkill's
Plackett–Luce model, and shown as a familiar number (:mod:`.skill`)."""
