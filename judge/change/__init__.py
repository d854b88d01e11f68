"""One change: the unit of work that every entry point uses (unit.py), and the game master's
corrections made from the shell (corrections.py)."""
