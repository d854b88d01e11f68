"""The suite, in folders by layer: engine/, rulesets/<name>/, store/, record/, mail/, gateway/,
cli/, and proofs/ (the promises, proved over every ruleset of the registry). The shared helpers
beside this file are imported by name (pyproject.toml puts tests/ on the path):

- registry.py: every ruleset at its player counts and option sets, new games, random bots;
- mailkit.py: a judge site in a temporary directory, messages, a local SMTP server;
- golden/: recorded games (record.py re-records one) and game files of earlier versions.
"""

import tempfile

import pytest
import typer.testing

_built_commands: dict = {}
_build_command = typer.testing._get_command


def _the_built_command(app):
    """typer's CliRunner builds the judge's whole command group (every command's parameters,
    their annotations evaluated) before each invocation, 40 ms a call: thousands of calls in
    the suite. Built once per set of registered commands (a command is reused, as click runs
    one in a long-lived process, each invocation with a context of its own)."""
    key = (id(app), tuple(id(c) for c in getattr(app, "registered_commands", ())))
    if key not in _built_commands:
        _built_commands[key] = _build_command(app)
    return _built_commands[key]


typer.testing._get_command = _the_built_command


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


@pytest.fixture(autouse=True)
def no_wait_for_the_disk(monkeypatch):
    """os.fsync made without waiting for the disk in the tests' own process. It matters only
    when the power is cut, and no test cuts it: a killed judge (tests/publish/test_killed.py,
    the watcher's kills) leaves its writes in the kernel's cache as a synced one would. The
    calls are still made in their order (tests/gateway/test_mail_robustness.py counts them);
    judges run as subprocesses still sync as in production."""
    import os

    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.fixture(autouse=True)
def cheap_password_hashes(monkeypatch):
    """Passwords hashed in the tests' own process with scrypt's work factor N = 2**4 instead of
    the judge's 2**14 (50 ms a hash, one for every mail a test sends and four for every game it
    makes: minutes of the suite). The hash is the same function of its stored parameters, so
    every check still passes or fails as in production; no test guesses a password.
    tests/mail/test_passwords.py proves the judge's own factor; judges run as subprocesses,
    and hashes stored in golden files, keep theirs."""
    from judge.mail import passwords

    monkeypatch.setattr(passwords, "N", 2**4)


# The files that cost the most, longest first (their --durations summed on the 2-core machine,
# docs/proofs-and-benchmarks.md#the-suites-time); the others follow in their own order.
LONGEST_FIRST = [
    "proofs/test_fair_play_edge.py", "site/test_browser.py", "proofs/test_line_width.py",
    "proofs/test_privacy.py", "record/test_archive.py", "gateway/test_mail_selfservice.py",
    "gateway/test_watch.py", "site/test_pages.py", "engine/test_report_size.py",
    "site/test_league_page.py", "engine/test_bots.py", "publish/test_killed.py",
    "engine/test_random_play.py", "mail/test_outbox.py", "proofs/test_fair_play.py",
    "league/test_league_log.py", "mail/test_no_link_writes.py", "league/test_league_games.py",
    "gateway/test_mail_fuzz.py", "engine/test_audit.py", "site/test_malformed.py", "site/test_site.py",
    "site/test_private_browser.py", "cli/test_shell_examples.py", "league/test_league_index.py",
]


def pytest_collection_modifyitems(items):
    """The longest files first: the suite is shared between the workers a file at a time
    (--dist loadfile: a module's fixtures are made once), and a worker that started one of the
    longest files last would run alone at the end while the other waits (it did: the last 5%
    of a run took 80 s)."""
    order = {name: i for i, name in enumerate(LONGEST_FIRST)}

    def rank(item) -> int:
        return order.get(item.nodeid.removeprefix("tests/").split("::")[0], len(order))

    items.sort(key=rank)
