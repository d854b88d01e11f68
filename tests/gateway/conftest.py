"""The gateway's tests: a judge site with a mail game of alice, bob and carol (their passwords
in `site.passwords`), the welcome mails taken. A test module may define its own `site`."""
import pytest

from mailkit import make_site, new_game


@pytest.fixture
def site(tmp_path):
    s = make_site(tmp_path)
    s.passwords = new_game(s)
    s.take()
    return s
