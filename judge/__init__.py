"""judge: a play-by-email judge for stock-market board games."""

__version__ = "0.1.0"
