"""Outgoing mail through a real SMTP server on 127.0.0.1: login, and a server that is down."""
import mailbox
import subprocess
import sys

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from judge.mail import gateway
from judge.mail.outbox import MailError, compose
from mailkit import T0, address, free_port, make_site, message


class Keep:
    def __init__(self):
        self.mails, self.logins = [], []

    async def handle_DATA(self, server, session, envelope):
        self.mails.append(envelope)
        return "250 OK"

    def authenticate(self, server, session, envelope, mechanism, data):
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"judge", b"s3cret")
        self.logins.append(ok)
        return AuthResult(success=ok)


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_smtp_with_login_sends_every_mail_over_one_connection(tmp_path):
    keep = Keep()
    controller = Controller(keep, hostname="127.0.0.1", port=free_port(), auth_required=True,
                            auth_require_tls=False, authenticator=keep.authenticate)
    controller.start()
    try:
        site = make_site(tmp_path, controller.port, 'user = "judge"\npassword = "s3cret"\n')
        box = site.outbox()
        for p in ("alice", "bob"):
            box.send(compose(site.cfg, address(p), "hello", f"hello {p}\n"))
        box.close()
    finally:
        controller.stop()
    assert keep.logins == [True]
    assert [e.rcpt_tos for e in keep.mails] == [[address("alice")], [address("bob")]]
    assert keep.mails[0].mail_from == "judge@judge.test"


def test_a_server_that_is_down_leaves_the_message_in_the_maildir_for_the_next_run(tmp_path):
    site = make_site(tmp_path, free_port())  # nobody listens there
    inbox = mailbox.Maildir(str(tmp_path / "in"), create=True)
    inbox.add(message(address("alice"), "hello\n"))
    with pytest.raises(MailError, match="cannot send mail through 127.0.0.1"):
        gateway.handle_maildir(tmp_path / "in", site.cfg, site.outbox(), lambda: T0)
    assert len(list((tmp_path / "in" / "new").iterdir())) == 1
    cmd = [sys.executable, "-m", "judge", "mail", "--maildir", str(tmp_path / "in"), "--config", str(tmp_path / "judge.toml")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 75 and "cannot send mail" in done.stderr  # EX_TEMPFAIL: try again later
