"""The static site of the archive (`judge site`, `[archive] site`): an index of the games, a page
per game with its public report at every move, charts, feeds and data files, built from public
records only (docs/site.md)."""
