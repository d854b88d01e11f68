"""Nothing in a message crashes the gateway: hypothesis writes messages with headers of the
shapes real mail has (and breaks them: quotes, brackets, encoded words hiding CR/LF, unknown
charsets, control characters, raw 8-bit bytes), and raw bytes of every kind, and the whole
gateway handles each one: it answers a usable sender, logs and drops the rest, and sends
only well-formed mail.

Each of the four kinds of message is read (and its answer addressed) JUDGE_MAIL_FUZZ_EXAMPLES
times (default 300, so that the suite stays fast) and goes through the whole gateway a tenth
as often: `JUDGE_MAIL_FUZZ_EXAMPLES=10000 pytest tests/gateway/test_mail_fuzz.py` runs 44,000
messages, 22,000 of them with fuzzed headers (real-world shapes, or raw bytes). The runs are
derandomized (repeatable); JUDGE_FUZZ_RANDOM=1 hunts with new examples each run.
"""
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from judge.store.config import Config
from judge.gateway import bounces, inbox as gateway, parse as mailparse
from judge.mail.mailgame import message_key
from judge.mail.outbox import compose
from mailkit import JUDGE, NAMES, T0, address, make_site, new_game
from registry import many

EXAMPLES = many("JUDGE_MAIL_FUZZ_EXAMPLES", 300)
CFG = Config(JUDGE, "gm@judge.test", games=None)
fuzz = settings(deadline=None, database=None, derandomize=not os.environ.get("JUDGE_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])

NAMES_OF_HEADERS = ["From", "Sender", "Reply-To", "To", "Cc", "Subject", "Message-ID", "In-Reply-To", "References",
                    "Date", "MIME-Version", "Content-Type", "Content-Transfer-Encoding", "Content-Disposition",
                    "Auto-Submitted", "Precedence", "Return-Path", "Received", "X-Mailer"]
SHAPES = [  # pieces of real-world header values, good and broken
    "Bob <bob@players.test>", '"Smith, Bob" <bob@players.test>', "bob@players.test (Bob)", "Bob Smith",
    "=?utf-8?q?Bj=C3=B6rn?= <bjorn@players.test>", "undisclosed-recipients:;", "<id@host.test>", "<>", "<",
    ">", '"', "\\", "@", ",", ";", ":", "(", ")", "[", "]", "<a@b> <c@d>", "<a@b>, <c@d>",
    "=?utf-8?q?a=0D=0Ab?=", "=?utf-8?b?DQpYLUV2aWw6IDE=?=", "=?x-unknown?q?a?=", "=?utf-8?q?", "?=", "=?",
    "=?utf-8?b?###?=", "=?iso-8859-1?q?f=FCr?=", "multipart/mixed; boundary=\"", "multipart/signed; boundary=x",
    "text/plain; charset=\"unknown-8bit\"", "text/plain; charset=utf-8; format=flowed", "text/html",
    "application/x-pkcs7-signature", "message/rfc822", "base64", "quoted-printable", "x-uuencode", "8bit",
    "attachment; filename*=utf-8''%E2%82%AC.txt", "inline; filename=\"", "auto-replied", "bulk", "no",
    "Mon, 32 Foo 2026 99:99:99 +9999", "1.0", "1.0 (produced by Foo)", "\r\n", "\r\n ", "\n\t", "\r", " ",
    "\x00", "\x07", "\x7f", "é", "€", "😀", "\u2028", "\ufeff", "game g1", "Re: game g1: move 1, report for alice",
    "player alice k7mxq2pv4a", "x" * 300, "<" + "y" * 2000 + "@players.test>",
]
header_values = st.one_of(st.sampled_from(SHAPES), st.sampled_from(SHAPES),
                          st.lists(st.one_of(st.sampled_from(SHAPES), st.text(max_size=20)), max_size=6).map("".join))
header_names = st.one_of(st.sampled_from(NAMES_OF_HEADERS), st.sampled_from(NAMES_OF_HEADERS),
                         st.sampled_from(["From", "Message-ID", "Subject", "Content-Type"]), st.text(alphabet="abcXYZ-:; \t", min_size=1, max_size=12))
BODIES = [b"game nosuch\nplayer alice k7mxq2pv4a\nbid\n", b"game g1\n#1 bid\n", b"Re: game g1\n\nhello\n", b""]


def base_headers() -> list[tuple[bytes, bytes]]:
    return [(b"From", address("alice").encode()), (b"To", b"judge@judge.test"), (b"Subject", b"orders"),
            (b"Message-ID", b"<fuzz@players.test>"), (b"MIME-Version", b"1.0"),
            (b"Content-Type", b"text/plain; charset=utf-8")]


def build(headers, body: bytes) -> bytes:
    return b"".join(name + b": " + value + b"\r\n" for name, value in headers) + b"\r\n" + body


@st.composite
def real_world_headers(draw):
    """One to three headers of real-world shapes, in place of the good ones or before them."""
    headers = base_headers()
    replace = draw(st.booleans())
    for name, value in draw(st.lists(st.tuples(header_names, header_values), min_size=1, max_size=3)):
        encoded = (name.encode("utf-8", "replace"), value.encode("utf-8", "surrogateescape"))
        if replace:
            headers = [h for h in headers if h[0].lower() != encoded[0].lower()]
        headers.insert(0, encoded)
    return build(headers, draw(st.sampled_from(BODIES)))


@st.composite
def raw_header_bytes(draw):
    name = draw(st.sampled_from([b"From", b"Subject", b"Message-ID", b"Content-Type", b"Content-Transfer-Encoding"]))
    headers = [h for h in base_headers() if h[0] != name] + [(name, draw(st.binary(max_size=60)))]
    return build(headers, draw(st.sampled_from(BODIES)))


@st.composite
def raw_bytes(draw):
    """Bytes alone, or bytes put anywhere into a good message."""
    noise = draw(st.binary(max_size=400))
    if draw(st.booleans()):
        return noise
    good = build(base_headers(), BODIES[0])
    at = draw(st.integers(min_value=0, max_value=len(good)))
    return good[:at] + noise + good[at:]


@st.composite
def broken_mime(draw):
    kind = draw(st.sampled_from(["multipart/mixed", "multipart/alternative", "multipart/signed", "multipart/related"]))
    parts = draw(st.lists(st.tuples(st.sampled_from(SHAPES + ["text/plain", "application/octet-stream"]),
                                    st.sampled_from(SHAPES + ["base64", "7bit"]), st.binary(max_size=80)), max_size=3))
    body = b"".join(b"--b\r\nContent-Type: " + ctype.encode("utf-8", "replace") + b"\r\nContent-Transfer-Encoding: "
                    + cte.encode("utf-8", "replace") + b"\r\n\r\n" + payload + b"\r\n" for ctype, cte, payload in parts)
    headers = [h for h in base_headers() if h[0] != b"Content-Type"] + [(b"Content-Type", f"{kind}; boundary=b".encode())]
    return build(headers, body + (b"--b--\r\n" if draw(st.booleans()) else b""))


MESSAGES = {"real-world headers": real_world_headers(), "raw bytes in a header": raw_header_bytes(),
            "raw bytes": raw_bytes(), "broken MIME": broken_mime()}


def read_and_answer(raw: bytes):
    """What the gateway takes from a message's headers, and the answer's headers made of them."""
    incoming = mailparse.read(raw)
    assert incoming.sender == "" or mailparse.is_address(incoming.sender)
    assert "\n" not in incoming.message_id + incoming.subject and len(incoming.message_id) <= 250
    assert len(message_key(incoming.message_id)) == 32
    if incoming.sender:
        answer = compose(CFG, incoming.sender, gateway._re(incoming.subject, gateway.hide_passwords([])), "x\n",
                         incoming.message_id)
        assert bytes(answer)
    return incoming


# Cost (7-8 s a kind): hypothesis' hostile messages, each read and answered in full.
@pytest.mark.parametrize("kind", MESSAGES)
def test_reading_any_message_and_addressing_its_answer_never_fails(kind):
    @settings(fuzz, max_examples=EXAMPLES)
    @given(MESSAGES[kind])
    def run(raw):
        read_and_answer(raw)

    run()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    s = make_site(tmp_path_factory.mktemp("fuzz"))
    new_game(s)
    s.take()
    return s


@pytest.mark.parametrize("kind", MESSAGES)
def test_the_whole_gateway_handles_any_message(site, kind):
    """Through the whole gateway (a real game, the outbox, the log): answered when there is a
    usable sender, well-formed mail only, to the sender or a player, and nothing left waiting."""
    @settings(fuzz, max_examples=max(1, EXAMPLES // 10))
    @given(MESSAGES[kind])
    def run(raw):
        incoming = read_and_answer(raw)
        summary = gateway.handle(raw, site.cfg, site.outbox(), T0)
        assert isinstance(summary, str)
        sent = site.take()
        bounce = bounces.is_bounce(raw, incoming.sender)  # (the game master is told of a bounce)
        for mail in sent:
            assert mail["To"] in [incoming.sender, *map(address, NAMES)] + [site.cfg.gm] * bounce and bytes(mail)
        if incoming.automatic or not incoming.sender:
            assert [m["To"] for m in sent] in ([], [site.cfg.gm] if bounce else [])
        assert not any((site.cfg.games / ".mail" / "outbox").glob("*.eml"))

    run()
