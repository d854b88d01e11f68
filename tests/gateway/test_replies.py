"""Replies as mail clients write them: the orders end where the client's quote, signature or
footer begins, in Gmail's, Outlook's, Apple Mail's and Thunderbird's forms and in the
languages players use; odd spaces and a byte-order mark do not hide an order."""
import pytest

from judge.gateway import inbox as gateway
from judge.gateway import flowed, parse as mailparse, replies
from mailkit import T0, address, flat, make_site, message, new_game, reply

QUOTE = "> game g1: move 1, report for alice\n> \n> Mogul, the card game: report for alice, move 1\n"


def orders_of(body: str, subject: str = "Re: game g1: move 1, report for alice") -> list[tuple]:
    found, _ = mailparse.blocks(mailparse.read(message("alice@x.test", body, subject)).text, subject)
    return [(b.game, b.player, b.password, b.lines) for b in found]


GMAIL = {
    "en": "On Sun, Nov 22, 2026 at 10:00 AM Judge <judge@judge.test> wrote:",
    "de": "Am So., 22. Nov. 2026 um 10:00 Uhr schrieb Judge <judge@judge.test>:",
    "fr": "Le dim. 22 nov. 2026 à 10:00, Judge <judge@judge.test> a écrit :",
    "es": "El dom, 22 nov 2026 a las 10:00, Judge (<judge@judge.test>) escribió:",
    "it": "Il giorno dom 22 nov 2026 alle ore 10:00 Judge <judge@judge.test> ha scritto:",
    "nl": "Op zo 22 nov 2026 om 10:00 schreef Judge <judge@judge.test>:",
}
OUTLOOK = {
    "en": "From: Judge <judge@judge.test>\nSent: Sunday, November 22, 2026 10:00 AM\nTo: alice@x.test\nSubject: game g1",
    "de": "Von: Judge <judge@judge.test>\nGesendet: Sonntag, 22. November 2026 10:00\nAn: alice@x.test\nBetreff: game g1",
    "fr": "De : Judge <judge@judge.test>\nEnvoyé : dimanche 22 novembre 2026 10:00\nÀ : alice@x.test\nObjet : game g1",
    "es": "De: Judge <judge@judge.test>\nEnviado: domingo, 22 de noviembre de 2026 10:00\nPara: alice@x.test\nAsunto: game g1",
    "it": "Da: Judge <judge@judge.test>\nInviato: domenica 22 novembre 2026 10:00\nA: alice@x.test\nOggetto: game g1",
    "nl": "Van: Judge <judge@judge.test>\nVerzonden: zondag 22 november 2026 10:00\nAan: alice@x.test\nOnderwerp: game g1",
}
APPLE = {
    "en": ("Sent from my iPhone", "On 22 Nov 2026, at 10:00, Judge <judge@judge.test> wrote:"),
    "de": ("Von meinem iPhone gesendet", "Am 22.11.2026 um 10:00 schrieb Judge <judge@judge.test>:"),
    "fr": ("Envoyé de mon iPhone", "Le 22 nov. 2026 à 10:00, Judge <judge@judge.test> a écrit :"),
    "es": ("Enviado desde mi iPhone", "El 22 nov 2026, a las 10:00, Judge <judge@judge.test> escribió:"),
    "it": ("Inviato da iPhone", "Il giorno 22 nov 2026, alle ore 10:00, Judge <judge@judge.test> ha scritto:"),
    "nl": ("Verstuurd vanaf mijn iPhone", "Op 22 nov. 2026 om 10:00 heeft Judge <judge@judge.test> het volgende geschreven:"),
}
THUNDERBIRD = {
    "en": "On 11/22/26 10:00, Judge wrote:",
    "de": "Am 22.11.26 um 10:00 schrieb Judge:",
    "fr": "Le 22/11/2026 à 10:00, Judge a écrit :",
    "es": "El 22/11/26 a las 10:00, Judge escribió:",
    "it": "Il 22/11/26 10:00, Judge ha scritto:",
    "nl": "Op 22-11-2026 om 10:00 schreef Judge:",
}
CLOSINGS = ["Thanks!", "Best regards, Alice", "Danke", "Viele Grüße", "Merci beaucoup", "Cordialement",
            "Gracias", "Un saludo", "Grazie mille", "Cordiali saluti", "Bedankt", "Met vriendelijke groet"]
WANT = [("g1", "alice", "pw", ["bid"])]


@pytest.mark.parametrize("lang", sorted(GMAIL))
def test_a_top_posted_gmail_reply_ends_at_its_quote_header(lang):
    assert orders_of(f"player alice pw\nbid\n\n{GMAIL[lang]}\n\n{QUOTE}") == WANT
    wrapped = GMAIL[lang].replace(" Judge <", "\nJudge <")  # Gmail wraps long header lines
    assert orders_of(f"player alice pw\nbid\n\n{wrapped}\n{QUOTE}") == WANT


@pytest.mark.parametrize("lang", sorted(OUTLOOK))
def test_an_outlook_reply_ends_at_its_header_block_and_the_unquoted_original_is_not_read(lang):
    original = "game g1, alice:\n  OK      bid\nTo give orders, write:\n  game g1\n  player alice YOUR-PASSWORD\n"
    body = f"player alice pw\r\nbid\r\n\r\n________________________________\r\n{OUTLOOK[lang]}\r\n\r\n{original}"
    assert orders_of(body) == WANT
    assert orders_of(f"player alice pw\nbid\n\n-----Original Message-----\n{OUTLOOK[lang]}\n\n{original}") == WANT
    assert orders_of(f"player alice pw\nbid\n\n{OUTLOOK[lang]}\n\n{original}") == WANT


@pytest.mark.parametrize("lang", sorted(APPLE))
def test_an_apple_mail_reply_from_a_phone_ends_at_its_footer(lang):
    footer, header = APPLE[lang]
    assert orders_of(f"player alice pw\nbid\n\n{footer}\n\n> {header}\n>\n{QUOTE}") == WANT


@pytest.mark.parametrize("lang", sorted(THUNDERBIRD))
def test_a_thunderbird_bottom_post_skips_the_quote_before_the_orders(lang):
    body = f"{THUNDERBIRD[lang]}\n{QUOTE}>\n\nplayer alice pw\nbid\n\n-- \nAlice\nplayer of many games\n"
    found, stray = mailparse.blocks(body, "Re: game g1: move 1, report for alice")
    assert [(b.game, b.player, b.password, b.lines) for b in found] == WANT and stray == []
    wrapped = GMAIL[lang].replace(" Judge <", "\nJudge <")  # a bottom-post under Gmail's wrapped header
    found, stray = mailparse.blocks(f"{wrapped}\n{QUOTE}\nplayer alice pw\nbid\n", "Re: game g1: move 1")
    assert [(b.game, b.player, b.password, b.lines) for b in found] == WANT and stray == []


@pytest.mark.parametrize("closing", CLOSINGS)
def test_a_closing_ends_the_orders(closing):
    assert orders_of(f"player alice pw\nbid\n{closing}\nAlice\n") == WANT


def test_unicode_spaces_and_a_byte_order_mark_do_not_hide_orders():
    body = "\ufeffgame g1\nplayer\u00a0alice pw\n\u200b#1\u00a0bid\u2009\n"
    assert orders_of(body, subject="orders") == [("g1", "alice", "pw", ["#1 bid"])]


def test_a_line_that_starts_like_an_order_still_counts():
    # "bid", "pass", "sell 2" are orders; "On" or "From" only end the orders as reply headers
    assert orders_of("player alice pw\nsell 2\npass\nbid\n") == [("g1", "alice", "pw", ["sell 2", "pass", "bid"])]


# ---- the same replies through the gateway, applied ---------------------------------------
@pytest.fixture
def game(tmp_path):
    site = make_site(tmp_path)
    pw = new_game(site)
    welcome = {m["To"]: m for m in site.take()}
    first = site.load().awaiting()[0]
    return site, pw, first, welcome[address(first)]


def answer(site, sender, body, subject):
    gateway.handle(message(sender, body, subject), site.cfg, site.outbox(), T0)
    mails = site.take()
    return reply(mails, sender)


def quoted(mail) -> str:
    return "".join(f"> {line}\n" for line in mail.get_content().splitlines())


@pytest.mark.parametrize("style", ["gmail", "outlook", "apple", "thunderbird"])
def test_each_client_style_with_valid_orders_is_applied(game, style):
    site, pw, first, welcome = game
    own = f"player {first} {pw[first]}\nbid\n"
    original = welcome.get_content()
    body = {
        "gmail": f"{own}\n{GMAIL['en']}\n\n{quoted(welcome)}",
        "outlook": f"{own}\n________________________________\n{OUTLOOK['en']}\n\n{original}",
        "apple": f"{own}\nSent from my iPhone\n\n> {APPLE['en'][1]}\n>\n{quoted(welcome)}",
        "thunderbird": f"{THUNDERBIRD['en']}\n{quoted(welcome)}\n{own}\n-- \n{first}\n",
    }[style]
    text = answer(site, address(first), body, f"Re: {welcome['Subject']}")
    assert "OK      bid\nAll applied." in text
    assert site.load().log == [f"1 {first} bid"]


def test_a_line_that_is_no_order_is_refused_as_not_an_order_never_as_not_your_turn(game):
    site, pw, first, welcome = game
    text = answer(site, address(first), f"game g1\nplayer {first} {pw[first]}\nbid\nSee you at the club on Friday\n", "orders")
    assert 'REFUSED not an order "See you at the club on Friday": orders begin with bid' in text
    assert "not your turn" not in flat(text) and site.load().log == []
    other = next(p for p in ("alice", "bob", "carol") if p != first)
    text = answer(site, address(other), f"game g1\nplayer {other} {pw[other]}\nHappy to play again\n", "hello")
    assert 'REFUSED not an order "Happy to play again"' in text and "not your turn" not in flat(text)
    text = answer(site, address(other), f"game g1\nplayer {other} {pw[other]}\nbid\n", "hello")
    assert 'REFUSED not your turn "bid"' in text  # a real order out of turn is still told so


# ---- issue 25: the shapes of real replies ----------------------------------------------------
def read_block(body: str, subject: str = "Re: game g1: move 1, report for alice", words=("bid", "pass", "press")):
    """The block's lines as the gateway runs them: read, then ended at words after the orders."""
    found, stray = mailparse.blocks(body, subject)
    return [(b.player, replies.own_orders(b.lines, b.breaks, words)) for b in found], stray


ATTRIBUTIONS = [
    "W dniu 22.11.2026 o 10:00, Judge <judge@judge.test> napisał:",
    "su 22.11.2026 klo 10.00 Judge\n<judge@judge.test> kirjoitti:",
    "søn. 22. nov. 2026 kl. 10:00 skrev Judge <judge@judge.test>:",
    "Den 22 nov. 2026 kl. 10:00 skrev Judge <judge@judge.test>:",
    "Em dom., 22 de nov. de 2026 às 10:00, Judge <\njudge@judge.test> escreveu:",
    "вс, 22 нояб. 2026 г. в 10:00, Judge <judge@judge.test>:",
    "2026-11-22 10:00 GMT+01:00 Judge <judge@judge.test>:",
    "On Sun, Nov 22, 2026 at 10:00 AM, Judge wrote",
    "On Sun, Nov 22, 2026 at 10:00 AM, Judge\n<judge@judge.test>\nwrote:",
    "* Judge <judge@judge.test> [2026-11-22 10:00]:",
]


@pytest.mark.parametrize("attribution", ATTRIBUTIONS)
def test_attributions_in_more_shapes_and_languages_end_a_top_post_and_hide_no_bottom_post(attribution):
    assert read_block(f"player alice pw\nbid\n{attribution}\n{QUOTE}") == ([("alice", ["bid"])], [])
    assert read_block(f"{attribution}\n{QUOTE}\nplayer alice pw\nbid\n")[0] == [("alice", ["bid"])]


def test_a_bottom_post_under_a_line_the_judge_does_not_know_is_found():
    body = f"Judge hat am Sonntag geantwortet, hier:\n{QUOTE}\nplayer alice pw\nbid\n\n-- \nAlice\n"
    found, stray = read_block(body)
    assert found == [("alice", ["bid"])] and stray == ["Judge hat am Sonntag geantwortet, hier:"]


@pytest.mark.parametrize("signoff", ["-Alice", "- Alice", "– Alice", "—Alice Smith", "--Alice"])
def test_dash_sign_offs_end_the_orders(signoff):
    assert read_block(f"player alice pw\nbid\n{signoff}\n")[0] == [("alice", ["bid"])]


@pytest.mark.parametrize("separator", [" -----Original Message-----", "-----", "==========", "________",
                                       "-------- Oprindelig besked --------", "*From:* Judge <judge@judge.test>\n*Sent:* Sunday"])
def test_separator_lines_end_the_orders_and_the_original_after_them_is_not_read(separator):
    original = "game g1\nplayer alice YOUR-PASSWORD\npass\n"  # the judge's own mail, not quoted
    assert read_block(f"player alice pw\nbid\n\n{separator}\n{original}")[0] == [("alice", ["bid"])]


@pytest.mark.parametrize("footer", ["Sendt fra min iPhone", "Skickat från min iPhone", "Enviado do meu iPhone",
                                    "Отправлено с iPhone", "Wysłane z iPhone'a", "Pozdrawiam", "Hälsningar",
                                    "Thx", "Passe une bonne journée", "Med venlig hilsen", "Terveisin",
                                    "If you have any questions, please contact the game master.",
                                    "This e-mail and any attachments are confidential."])
def test_footers_and_closings_in_more_languages_end_the_orders_and_are_never_orders(footer):
    assert read_block(f"player alice pw\nbid\n{footer}\nAlice\n")[0] == [("alice", ["bid"])]
    # "if" begins a standing order in mogul: the footer must end the orders before that question arises
    found, _ = mailparse.blocks(f"player alice pw\nbid\n{footer}\n", "Re: game g1")
    assert found[0].lines == ["bid"]


def test_words_after_the_orders_in_a_paragraph_of_their_own_end_them():
    body = "player alice pw\nbid\n\nHope you are all well, see you on Friday.\n\nAlice Smith\nAcme Inc.\n"
    assert read_block(body)[0] == [("alice", ["bid"])]


@pytest.mark.parametrize("typo", ["bdi", "pas", "Bid 3", "pres bob hello", "#4 hold", "passs"])
def test_a_mistyped_order_after_a_blank_line_is_read_and_so_refused_never_dropped(typo):
    assert read_block(f"player alice pw\nbid\n\n{typo}\n")[0] == [("alice", ["bid", typo])]


def test_words_right_under_the_orders_are_still_read_and_refused():
    assert read_block("player alice pw\nbid\nSee you at the club on Friday\n")[0] == [
        ("alice", ["bid", "See you at the club on Friday"])]


# ---- format=flowed -------------------------------------------------------------------------------
PRESS = "press bob I have thought long about your offer of yesterday, so here it is: pass"


def flowed_message(body: str, delsp: bool) -> bytes:
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "alice@players.test", "judge@judge.test", "Re: game g1: move 1, report for alice"
    msg.set_content(body, cte="quoted-printable")
    msg.set_param("format", "flowed")
    if delsp:
        msg.set_param("delsp", "yes")
    return bytes(msg)


@pytest.mark.parametrize("delsp", [False, True])
def test_a_press_line_wrapped_by_a_flowed_client_is_one_line_again(delsp):
    cut = PRESS.index("pass")
    wrapped = PRESS[:cut] + (" " if delsp else "") + "\n" + PRESS[cut:]  # the soft break after "it is: "
    soft = "  " if delsp else " "  # with DelSp=yes the client adds the space it breaks at
    body = f"player alice pw\n{wrapped}\n\n> On Sun, Judge wrote:\n> a long quoted line that the client{soft}\n> wrapped\n"
    msg = mailparse.read(flowed_message(body, delsp))
    assert mailparse.blocks(msg.text, msg.subject)[0][0].lines == [PRESS]
    assert "> a long quoted line that the client wrapped" in msg.text


def test_flowed_keeps_hard_breaks_stuffed_spaces_and_the_signature_separator():
    text = " From here\nbid\n\n-- \nAlice \nSmith\n>> deep \n> shallow\n"
    assert flowed.unflow(text) == "From here\nbid\n\n-- \nAlice Smith\n>> deep \n> shallow\n"
    assert flowed.unflow("bid  \npass\n", delsp=True) == "bid pass\n"


def test_the_flowed_trap_is_not_applied_as_an_order(game):
    """Issue 25: the press line wrapped after 'so here it is: ' left a line 'pass', applied as
    the player's order."""
    site, pw, first, welcome = game
    other = next(p for p in ("alice", "bob", "carol") if p != first)
    press = f"press {other} I have thought long about your offer of yesterday, so here it is: pass"
    cut = press.index("pass")
    body = f"player {first} {pw[first]}\n{press[:cut]}\n{press[cut:]}\n"
    raw = flowed_message(body, False).replace(b"alice@players.test", address(first).encode())
    gateway.handle(raw, site.cfg, site.outbox(), T0)
    mails = site.take()
    assert flat(f"OK      {press}") in flat(reply(mails, address(first))) and site.load().log == []
    assert any(press.split(": ", 1)[1] in m.get_content() for m in mails if m["To"] == address(other))


# ---- through the gateway ------------------------------------------------------------------------
def test_a_note_after_the_orders_is_not_refused_and_a_mistyped_order_is(game):
    site, pw, first, welcome = game
    own = f"player {first} {pw[first]}\nbid\n"
    text = answer(site, address(first), f"{own}\nSorry for the delay, I was travelling.\n\nCheers\n", f"Re: {welcome['Subject']}")
    assert "OK      bid\nAll applied." in text and "REFUSED" not in text
    second = site.load().awaiting()[0]
    text = answer(site, address(second), f"player {second} {pw[second]}\nbid\n\nbdi\n", "Re: game g1")
    assert 'REFUSED' in text and "bdi" in text and site.load().log == [f"1 {first} bid"]


# ---- one report per player per change; a notice says it is one --------------------------------
def test_a_player_whose_answer_would_show_the_report_gets_it_once(game):
    """Issue 25: the answer that shows the report (a standing order given, lines NOT JUDGED
    after a revealing order) came beside the new report's own mail: the report twice."""
    site, pw, first, welcome = game
    gateway.handle(message(address(first), f"game g1\nplayer {first} {pw[first]}\nbid until pot 5\n"), site.cfg, site.outbox(), T0)
    mine = [m for m in site.take() if m["To"] == address(first)]
    reports = [m for m in mine if f"the card game: report for {first}," in m.get_content()]
    assert len(reports) == 1 and reports[0]["Subject"].endswith(f"report for {first}"), [m["Subject"] for m in mine]
    answer_text = reply(mine, address(first))
    assert "OK      bid until pot 5" in answer_text and "Your new report comes in its own mail." in answer_text


def test_a_mail_holding_only_a_notice_says_so_in_its_subject(game):
    site, pw, first, welcome = game
    gateway.handle(message(address(first), f"game g1\nplayer {first} {pw[first]}\npress all good luck everyone\n"),
                   site.cfg, site.outbox(), T0)
    others = [m for m in site.take() if m["To"] != address(first) and not m["Subject"].startswith("Re:")]
    assert others and all(m["Subject"] == "game g1: notice, move 1" for m in others), [m["Subject"] for m in others]
    assert all("Press from" in m.get_content() and "report for" not in m.get_content() for m in others)


def test_every_mail_answer_and_report_ends_with_the_logs_head(game):
    """Issue 44: the head after the last move (judge/engine/chain.py) is in the welcome, in the
    answer to every block, refused ones too, and in every report mailed after a change."""
    site, pw, first, welcome = game
    assert f"\n{site.load().head_line()}\n" in welcome.get_content() and "Log head: move 0 " in welcome.get_content()
    other = next(p for p in ("alice", "bob", "carol") if p != first)
    text = answer(site, address(other), f"game g1\nplayer {other} {pw[other]}\nbid\n", "hello")
    assert "REFUSED not your turn" in text and "\nLog head: move 0 " in text
    gateway.handle(message(address(first), f"game g1\nplayer {first} {pw[first]}\nbid\n", "orders"), site.cfg,
                   site.outbox(), T0)
    mails = site.take()
    head = site.load().head_line()
    assert head.startswith("Log head: move 1 ")
    assert all(f"\n{head}\n" in m.get_content() for m in mails), [m["Subject"] for m in mails]


def test_a_mistyped_order_is_answered_as_the_shell_answers_it_and_the_report_names_help_by_mail(game):
    """Issue 47, item 7: '#1 bidd' was answered as chat ("not an order ... end your orders with a
    line 'end'"); the shell says "unknown order 'bidd'". And a mailed report ends with what a
    mail player writes for the help, not a command of the shell."""
    site, pw, first, welcome = game
    text = answer(site, address(first), f"game g1\nplayer {first} {pw[first]}\n#1 bidd\n", "orders")
    assert "REFUSED syntax error \"#1 bidd\": unknown order 'bidd'" in flat(text) and "not an order" not in text
    other = next(p for p in ("alice", "bob", "carol") if p != first)
    text = answer(site, address(other), f"game g1\nplayer {other} {pw[other]}\nbdi\n", "orders")
    assert "unknown order 'bdi'" in flat(text) and "not your turn" not in flat(text)  # (a typo out of turn: item 8)
    body = welcome.get_content()
    assert "Order words, terms and rules, by mail: help" in body and "judge help" not in body


def test_the_welcome_points_a_player_to_the_players_page(game):
    """Issue 47, item 6: docs/players.md, the players' handout, is named in every welcome."""
    site, pw, first, welcome = game
    assert "docs/players.md" in flat(welcome.get_content()) and "a line 'help' in your block" in flat(welcome.get_content())
