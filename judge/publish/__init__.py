"""Publishing: everything published from a game (its archived record, its row in the league's
index and the league, its site pages and the site's lists and feeds), derived from the saved
game in one idempotent step that runs outside the game's lock (step.py), driven by a durable
mark the change leaves with its save (marks.py)."""
