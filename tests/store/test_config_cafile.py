"""A cafile of [smtp] or [imap] that is no file is refused when judge.toml is read, naming it
(at the first connection it read as the server being down and the mail waited for ever)."""
from __future__ import annotations

import pytest

from judge.engine.errors import UsageError
from judge.store import config


SMTP = '[smtp]\nhost = "127.0.0.1"\n'


@pytest.mark.parametrize("table", [SMTP + 'cafile = "ca.pem"\n',
                                   SMTP + '[imap]\nhost = "imap.example.org"\nuser = "j"\npassword = "p"\ncafile = "ca.pem"\n'])
def test_a_cafile_that_is_no_file_is_refused_naming_it(tmp_path, table):
    path = tmp_path / "judge.toml"
    (tmp_path / "games").mkdir()
    path.write_text('address = "judge@judge.test"\ngm = "gm@judge.test"\ngames = "games"\n' + table)
    path.chmod(0o600)
    with pytest.raises(UsageError, match=r"cafile .*ca\.pem is not a file"):
        config.load(path)
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    assert config.load(path)  # there: read as before
