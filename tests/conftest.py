"""The suite, in folders by layer: engine/, rulesets/<name>/, store/, record/, mail/, gateway/,
cli/, and proofs/ (the promises, proved over every ruleset of the registry). The shared helpers
beside this file are imported by name (pyproject.toml puts tests/ on the path):

- registry.py: every ruleset at its player counts and option sets, new games, random bots;
- mailkit.py: a judge site in a temporary directory, messages, a local SMTP server;
- golden/: recorded games (record.py re-records one) and game files of earlier versions.
"""

import tempfile

import pytest


@pytest.fixture(autouse=True)
def a_home_and_a_temporary_folder_of_its_own(tmp_path_factory, monkeypatch):
    """Each test runs with a home folder and a temporary folder of its own (the suite runs in
    parallel, pytest-xdist): the judge's host-problem stamps ("told once an hour", in the home
    folder, else the temporary one) and its error log written by one test can never quieten or
    fill another's, and nothing is written to the real home folder or /tmp. Subprocesses inherit
    both through HOME and TMPDIR."""
    home = tmp_path_factory.mktemp("home")
    temporary = home / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
