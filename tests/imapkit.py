"""A real IMAP server for the tests of `judge watch`: Debian's Dovecot (dovecot-imapd), started
on free loopback ports with a configuration, a user and a mail store of its own, in a short
directory under /tmp (Dovecot's sockets have a length limit, so not under pytest's tmp path),
with TLS on a certificate made by the test. Needs root (Dovecot's master drops privileges to
its own users); .ci/run installs dovecot-imapd, and these tests never skip in CI."""
from __future__ import annotations

import imaplib
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from mailkit import free_port

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
USER, PASSWORD = "judge", "imap-secret-42"
MAX_USERS = 50


def require_dovecot() -> None:
    """Skip where Dovecot cannot run (not installed, not root), but never in CI."""
    ok = os.path.exists(DOVECOT) and shutil.which("openssl") and os.geteuid() == 0
    if not ok:
        if os.environ.get("JUDGE_CI") or os.environ.get("CI"):
            pytest.fail("Dovecot (dovecot-imapd), openssl and root are needed here: .ci/run installs them")
        pytest.skip("needs Debian's dovecot-imapd and root")


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_ca(folder: Path, name: str) -> None:
    """A certificate authority NAME.pem with its key NAME.key."""
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "2", "-subj", f"/CN={name}", cwd=folder)


def make_cert(folder: Path, name: str, ca: str, host: str) -> None:
    """A server certificate NAME.pem (key NAME.key) for `host`, signed by the authority `ca`."""
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", f"{name}.key",
             "-out", f"{name}.csr", "-subj", f"/CN={host}", cwd=folder)
    (folder / f"{name}.ext").write_text(f"subjectAltName=DNS:{host}\n")
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key", "-CAcreateserial",
             "-out", f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext", cwd=folder)


CONF = """base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
instance_name = judge-test-{port}
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{d}/server.pem
ssl_key = <{d}/server.key
auth_mechanisms = plain login
auth_failure_delay = 0
disable_plaintext_auth = no
first_valid_uid = 1
mail_location = maildir:{d}/home/%u/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {d}/passwd
}}
userdb {{
  driver = static
  args = uid=nobody gid=nogroup home={d}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service stats {{
  unix_listener stats-reader {{
    mode = 0600
  }}
  unix_listener stats-writer {{
    mode = 0600
  }}
}}
"""


class Dovecot:
    """Dovecot on 127.0.0.1: `port` plain text (and STARTTLS), `tls_port` TLS; its certificate
    is for `localhost`, signed by the authority in `ca` (a file the judge may be told to trust)."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="dv", dir="/tmp"))
        self.dir.chmod(0o755)
        make_ca(self.dir, "ca")
        make_cert(self.dir, "server", "ca", "localhost")
        for sub in ("run", "state", "home"):
            (self.dir / sub).mkdir()
        shutil.chown(self.dir / "home", "nobody", "nogroup")
        # every user written now: Dovecot reads its passwd-file again at most once a second
        (self.dir / "passwd").write_text("".join(f"{USER}{n}:{{PLAIN}}{PASSWORD}::::\n" for n in range(1, MAX_USERS + 1)))
        self.users = 0
        self.port, self.tls_port = free_port(), free_port()
        (self.dir / "dovecot.conf").write_text(CONF.format(d=self.dir, port=self.port, tls_port=self.tls_port))
        self.process = None

    @property
    def ca(self) -> Path:
        return self.dir / "ca.pem"

    def start(self) -> "Dovecot":
        self.process = subprocess.Popen([DOVECOT, "-F", "-c", str(self.dir / "dovecot.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                socket.create_connection(("127.0.0.1", self.tls_port), timeout=1).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"dovecot did not start: {self.process.stderr.read().decode()} "
                                       f"{self.log()}")
                time.sleep(0.05)
        raise RuntimeError(f"dovecot did not listen: {self.log()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def log(self) -> str:
        try:
            return (self.dir / "dovecot.log").read_text()
        except OSError:
            return ""

    def new_user(self) -> str:
        """A user of its own (a mailbox of its own) for a test; its password is PASSWORD."""
        self.users += 1
        assert self.users <= MAX_USERS
        return f"{USER}{self.users}"

    def settings(self, user: str, **more) -> str:
        """judge.toml's [imap] for `user` on this server (plain text on the loopback), with `more`
        keys (None: left out)."""
        keys = {"host": "127.0.0.1", "port": self.port, "security": "none", "user": user, "password": PASSWORD,
                "poll": 1, **more}
        lines = [f"{k} = {v}" if isinstance(v, int) else f'{k} = "{v}"' for k, v in keys.items() if v is not None]
        return "[imap]\n" + "\n".join(lines) + "\n"

    # ---- what the test does as the mail's sender and as the game master -------------------
    def client(self, user: str) -> imaplib.IMAP4:
        conn = imaplib.IMAP4("127.0.0.1", self.port, timeout=30)
        conn.login(user, PASSWORD)
        return conn

    def append(self, user: str, *messages: bytes, folder: str = "INBOX") -> None:
        conn = self.client(user)
        try:
            for raw in messages:
                kind, data = conn.append(folder, None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
                assert kind == "OK", data
        finally:
            conn.logout()

    def messages(self, user: str, folder: str = "INBOX") -> list[tuple[int, set[str]]]:
        """(UID, flags) of every message in `user`'s `folder` ([] when there is no such folder)."""
        conn = self.client(user)
        try:
            if conn.select(f'"{folder}"')[0] != "OK":
                return []
            kind, data = conn.uid("FETCH", "1:*", "(FLAGS)")
            out = []
            for item in data:
                if isinstance(item, bytes) and b"UID" in item:
                    uid = int(item.split(b"UID ")[1].split()[0].rstrip(b")"))
                    flags = item.split(b"FLAGS (")[1].split(b")")[0].decode().split()
                    out.append((uid, set(flags)))
            return sorted(out)
        finally:
            conn.logout()

    def unhandled(self, user: str, folder: str = "INBOX") -> list[int]:
        return [uid for uid, flags in self.messages(user, folder) if "$Judged" not in flags]


class Cutter:
    """A TCP proxy on 127.0.0.1 to the server's `port` that, once `armed`, cuts the connection
    in the middle of the next message the server sends whole (a FETCH of BODY[] with a literal
    of more than `at_least` bytes): the client gets its first part, then nothing."""

    def __init__(self, port: int, at_least: int = 200):
        self.target, self.at_least = port, at_least
        self.armed, self.cuts = False, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pipe, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, True), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, from_server: bool) -> None:
        try:
            while data := src.recv(65536):
                if from_server and self.armed and b"BODY[]" in data:
                    literal = int(data.split(b"BODY[]")[1].split(b"{")[1].split(b"}")[0])
                    if literal >= self.at_least:
                        self.armed, self.cuts = False, self.cuts + 1
                        dst.sendall(data[:data.index(b"BODY[]") + 40])  # the literal's start only
                        break
                dst.sendall(data)
        except (OSError, ValueError, IndexError):
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def close(self) -> None:
        self.listener.close()
