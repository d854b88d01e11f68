from email.message import EmailMessage

from hypothesis import given, settings, strategies as st

from judge.gateway import parse as mailparse
from mailkit import message


def test_orders_after_game_and_player_lines_up_to_a_quote_skipping_comments():
    body = ("Hi judge,\ngame g1\nplayer bob s3cret\n#4 bid   # my bid\n\nsell 2\n> pass\n>> take\n"
            "bid\n")
    blocks, stray = mailparse.blocks(mailparse.read(message("bob@x.test", body)).text)
    assert stray == ["Hi judge,"]
    assert [(b.game, b.player, b.password, b.lines) for b in blocks] == [("g1", "bob", "s3cret", ["#4 bid", "sell 2"])]


def test_an_end_line_ends_the_orders_and_several_games_make_several_blocks():
    body = "game g1\nplayer bob pw1\nbid\ngame g2\nplayer bob pw2\npass\nEND\ngame g3\n"
    blocks, _ = mailparse.blocks(body)
    assert [(b.game, b.password, b.lines) for b in blocks] == [("g1", "pw1", ["bid"]), ("g2", "pw2", ["pass"])]


def test_the_subject_names_the_game_of_a_reply():
    blocks, stray = mailparse.blocks("player bob pw\npass\n", "Re: game g7: move 3, report for bob")
    assert stray == [] and [(b.game, b.player, b.lines) for b in blocks] == [("g7", "bob", ["pass"])]


def test_plain_text_is_read_from_alternative_parts_and_html_only_is_refused():
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "Bob <Bob@X.test>", "orders"
    msg.set_content("game g1\nplayer bob pw\npass\n")
    msg.add_alternative("<p>game g1<br>player bob pw<br>bid</p>", subtype="html")
    inc = mailparse.read(bytes(msg))
    assert inc.sender == "bob@x.test" and not inc.problem
    assert mailparse.blocks(inc.text)[0][0].lines == ["pass"]
    html = EmailMessage()
    html["From"] = "bob@x.test"
    html.set_content("<p>game g1</p>", subtype="html")
    assert "no plain-text part" in mailparse.read(bytes(html)).problem


def test_common_charsets_are_decoded():
    for charset, cte in (("iso-8859-1", "quoted-printable"), ("utf-8", "base64"), ("windows-1252", "8bit")):
        raw = (f"From: b@x.test\nSubject: s\nMIME-Version: 1.0\nContent-Type: text/plain; charset={charset}\n"
               f"Content-Transfer-Encoding: {cte}\n\n").encode()
        body = "game g1\nplayer bob pw\n# für Zoë\npass\n".encode(charset)
        if cte == "base64":
            import base64
            body = base64.encodebytes(body)
        elif cte == "quoted-printable":
            import quopri
            body = quopri.encodestring(body)
        inc = mailparse.read(raw + body)
        assert "für Zoë" in inc.text, charset
        assert mailparse.blocks(inc.text)[0][0].lines == ["pass"]


def test_binary_parts_and_huge_messages_are_refused_as_a_whole():
    msg = EmailMessage()
    msg["From"] = "bob@x.test"
    msg.set_content("game g1\nplayer bob pw\npass\n")
    msg.add_attachment(b"\x89PNG\r\n\x00\x01", maintype="image", subtype="png", filename="x.png")
    assert mailparse.read(bytes(msg)).problem == "it holds a binary part (image/png)"
    big = message("bob@x.test", "game g1\n" + "x" * (mailparse.MAX_MESSAGE + 10))
    inc = mailparse.read(big)
    assert "larger than 1024 KB" in inc.problem and inc.sender == "bob@x.test"


def test_bounces_and_auto_replies_are_marked_automatic():
    assert mailparse.read(message("MAILER-DAEMON@x.test", "x")).automatic
    auto = message("bob@x.test", "x").replace(b"Subject:", b"Auto-Submitted: auto-replied\nSubject:")
    assert mailparse.read(auto).automatic
    assert not mailparse.read(message("bob@x.test", "x")).automatic


def test_a_message_without_message_id_gets_one_from_its_content():
    raw = b"From: b@x.test\nSubject: s\n\ngame g1\n"
    assert mailparse.read(raw).message_id.startswith("<sha256-")
    assert mailparse.read(raw).message_id == mailparse.read(bytes(bytearray(raw))).message_id  # redelivered
    assert mailparse.read(raw).message_id != mailparse.read(raw + b"pass\n").message_id


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300), st.text(max_size=40))
def test_any_text_gives_blocks_without_quoted_lines_and_never_fails(body, subject):
    found, stray = mailparse.blocks(body, subject.replace("\n", " "))
    for b in found:
        assert all(not line.startswith(">") and line.strip() == line and line for line in b.lines)
        assert b.player or not b.lines
    assert all(not line.startswith(">") for line in stray)
