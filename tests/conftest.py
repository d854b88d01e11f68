"""The suite, in folders by layer: engine/, rulesets/<name>/, store/, record/, mail/, gateway/,
cli/, and proofs/ (the promises, proved over every ruleset of the registry). The shared helpers
beside this file are imported by name (pyproject.toml puts tests/ on the path):

- registry.py: every ruleset at its player counts and option sets, new games, random bots;
- mailkit.py: a judge site in a temporary directory, messages, a local SMTP server;
- golden/: recorded games (record.py re-records one) and game files of earlier versions.
"""
