"""A player's own page in a real browser (headless Chromium, one session for the module): a whole
mail game played with every order given through the `mailto:` its player's private page
composes (the test reads the link and delivers the mail as the player's mail client would),
the pages opened from the links the welcome mails carried, at phone (375x812) and desktop
(1280x900) width; then `judge audit` opens every private view the archive's history holds.
Along the way: each page shows exactly the text of `judge show --as PLAYER`, the key leaves the
address bar at once, no request leaves the page, nothing runs off the right edge, and a wrong
key or another game's key is refused in one line with the public page shown."""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from typer.testing import CliRunner

from browserkit import chromium
from judge.cli import app
from judge.store import config as configs
from mailkit import NAMES, T0, address, make_site, message, short_setup

SITE_URL = "https://games.example.org/judge"
PHONE, DESKTOP = (375, 812), (1280, 900)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def judge(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def browser():
    yield from chromium("1280,900", logging=True)


def width(driver, size) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size == PHONE})


def requests(driver) -> list[str]:
    """The URLs the browser asked for since the last call."""
    out = []
    for entry in driver.get_log("performance"):
        said = json.loads(entry["message"])["message"]
        if said["method"] == "Network.requestWillBeSent":
            out.append(said["params"]["request"]["url"])
    return out


class Table:
    """A mail game of mogul for alice, bob and carol on a judge whose archive holds its site,
    each player's welcome mail read for their link and password."""

    def __init__(self, root):
        self.site = make_site(root)
        path = root / "judge.toml"
        path.write_text(path.read_text() + f'[archive]\ngit = "archive"\nsite = "archive/site"\nsite_url = "{SITE_URL}"\n')
        self.site.cfg = configs.load(path)
        (root / "archive").mkdir()
        subprocess.run(["git", "-C", str(root / "archive"), "init", "-q"], check=True)
        self.config, self.out = path, root / "archive" / "site"
        self.passwords, self.links, self.first = {}, {}, ""

    def new(self, name: str) -> None:
        setup = self.site.root / "setup.toml"
        import tomli_w

        setup.write_text(tomli_w.dumps(short_setup(rounds=3)))
        code, out, err = judge("new", "mogul", self.site.game_path(name), *sum((["-p", f"{p}={address(p)}"] for p in NAMES), []),
                               "--seed", 1, "--setup", setup, "--config", self.config, "--json")
        assert code == 0, err
        self.passwords[name] = json.loads(out)["passwords"]
        for mail in self.site.take():
            if mail["Subject"].startswith(f"game {name}: welcome, ") and mail["To"] != "watcher@watch.test":
                player = mail["Subject"].rpartition(", ")[2]
                link = next(w for w in mail.get_content().split() if w.startswith(SITE_URL))
                self.links[(name, player)] = link

    def url(self, name: str, player: str) -> str:
        """The link the welcome carried, on this disk: the site served from file://."""
        return self.out.as_uri() + self.links[(name, player)][len(SITE_URL):]

    def deliver(self, mailto: str, sender: str) -> None:
        """What the player's mail client sends when they tap the link."""
        from judge.gateway import inbox

        parts = urlsplit(mailto)
        query = parse_qs(parts.query)
        assert unquote(parts.path) == self.site.cfg.address
        inbox.handle(message(sender, query["body"][0], query["subject"][0]), self.site.cfg, self.site.outbox(), T0)
        self.site.take()


def shown_by_judge(table: Table, name: str, player: str) -> str:
    code, out, err = judge("show", table.site.game_path(name), "--as", player)
    assert code == 0, err
    return out.rstrip("\n")


def open_page(driver, url: str) -> dict:
    """Open a page afresh (a tab's new page) and wait for its private view or its refusal."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get("about:blank")
    requests(driver)
    driver.get(url)
    WebDriverWait(driver, 5, poll_frequency=0.02).until(lambda d: d.execute_script(
        "return !document.getElementById('private').hidden || !document.getElementById('private-note').hidden"))
    return driver.execute_script("""
        var box = document.getElementById('private'), note = document.getElementById('private-note');
        return {url: location.href, note: note.hidden ? '' : note.textContent, shown: !box.hidden,
                report: box.hidden ? '' : box.querySelector('pre.private-report').textContent,
                asof: box.hidden ? '' : box.querySelector('.asof').textContent,
                public: document.querySelector('.replay pre').textContent,
                words: [...box.querySelectorAll('.reflow td, .reflow .line, .reflow h4, .reflow .grid')]
                       .map(e => e.textContent).join(' '),
                newer: box.hidden ? '' : box.querySelector('.newer').textContent,
                reflowed: [...document.querySelectorAll('.replay .reflowed td, .replay .reflowed .line, .replay .reflowed h4, '
                           + '.replay .reflowed .grid')].filter(e => e.offsetParent).map(e => e.textContent).join(' '),
                overflow: document.documentElement.scrollWidth - window.innerWidth,
                orders: [...box.querySelectorAll('a.order[data-order]')].map(a => a.dataset.order)}""")


@pytest.fixture(scope="module")
def cheap():
    """No wait for the disk, cheap password hashes (the module's fixtures come before the
    function's autouse ones)."""
    import os

    from judge.mail import passwords

    with pytest.MonkeyPatch.context() as m:
        m.setattr(os, "fsync", lambda fd: None)
        m.setattr(passwords, "N", 2**4)
        yield


# Cost (5 s, once a module): a whole mail game, every order tapped in a real Chromium on the
# player's own page and delivered as a mail; the module's tests read what it saw.
@pytest.fixture(scope="module")
def played(browser, cheap, tmp_path_factory):
    """The game played to its end through the pages; what each page showed, and what the
    judge said then."""
    from selenium.webdriver.common.by import By

    table = Table(tmp_path_factory.mktemp("private"))
    table.new("g1")
    seen, step = [], 0
    while True:
        game = table.site.load("g1")
        if game.is_over():
            break
        player = game.awaiting()[0]
        width(browser, PHONE if step % 2 == 0 else DESKTOP)  # (2: at phone width, the screenshot's)
        page = open_page(browser, table.url("g1", player))
        if step == 0:  # the page as it was then, for a reader who comes back to it later
            table.first = next(table.out.rglob("g1.html")).read_text()
        page.update(requests=requests(browser), expected=shown_by_judge(table, "g1", player), player=player,
                    move=game.move, legal=game.ruleset.legal_orders(game.state, player))
        browser.find_element(By.ID, "private-password").send_keys(table.passwords["g1"][player])
        if step == 2 and os.environ.get("JUDGE_SCREENSHOTS") == "1":  # docs/site.md's, at phone width
            tall = browser.execute_script("var b = document.getElementById('private'); return b.offsetTop + b.offsetHeight")
            width(browser, (PHONE[0], min(tall + 16, 2400)))
            browser.execute_script("window.scrollTo(0, 0)")
            browser.save_screenshot(str(SCREENSHOTS / "private-phone.png"))
            width(browser, PHONE)
        orders = [o for o in page["orders"] if o]
        chosen = orders[0] if step % 3 == 0 else ([o for o in orders if o.split()[0] in ("pass", "sell")] or orders)[0]
        if step == 1:  # one order typed from the short forms instead of tapped
            browser.find_element(By.ID, "private-other").send_keys(chosen)
            link = browser.find_element(By.CSS_SELECTOR, "a.compose")
        else:
            link = browser.find_element(By.CSS_SELECTOR, f"a.order[data-order='{chosen}']")
        page.update(chosen=chosen, mailto=link.get_attribute("href"))
        seen.append(page)
        table.deliver(page["mailto"], address(player))
        step += 1
        assert step < 40, "the game did not end"
    return table, seen


def test_a_whole_mail_game_is_played_through_mailto_links_of_the_private_pages_and_audited(played):
    table, seen = played
    game = table.site.load("g1")
    assert game.is_over() and len(seen) == len([e for e in game.log if not e.split(" ", 2)[1] == "judge:"])
    assert [f"{p['move']} {p['player']} {p['chosen']}" for p in seen] == \
        [e for e in game.log if e.split(" ", 2)[1] != "judge:"]
    record = table.site.root / "archive" / "mogul" / "g1.toml"
    code, out, err = judge("audit", record, "--views", table.site.root / "archive", "--json")
    assert code == 0, err
    views = json.loads(out)["private_views"]
    assert views["checked"] == views["listed"] >= 3 * len(seen)


def test_each_page_shows_exactly_the_players_report_as_judge_show_prints_it(played):
    _, seen = played
    for page in seen:
        assert page["note"] == "" and page["report"] == page["expected"]
        assert page["asof"].startswith(f"As of move {page['move']}, log head move ")
        assert page["orders"][:len(page["legal"])] == page["legal"]  # (the buttons: the list judge orders gives)


def test_the_report_made_to_reflow_on_a_phone_holds_every_word_of_the_mailed_one(played):
    _, seen = played
    for page in seen:
        mailed = page["report"].splitlines()[:-1]  # (the head's line: in "As of move")
        assert page["words"].split() == [w for line in mailed if not re.fullmatch(r"[=-]{3,}", line.strip())
                                         for w in line.split()]


def test_served_over_http_an_old_page_says_a_newer_move_exists(played, browser):
    import shutil
    import threading
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    table, seen = played
    served = table.site.root / "served"
    shutil.copytree(table.out, served)
    page = next(served.rglob("g1.html"))
    page.write_text(table.first)  # the first move's page, its GAME.json beside it the last move's

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(served)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/{page.relative_to(served).as_posix()}"
        from selenium.webdriver.support.ui import WebDriverWait

        open_page(browser, url + "#" + table.url("g1", seen[0]["player"]).partition("#")[2])
        WebDriverWait(browser, 5, poll_frequency=0.02).until(
            lambda d: d.execute_script("return !document.querySelector('#private .newer').hidden"))
        said = browser.execute_script("return document.querySelector('#private .newer').textContent")
        assert said == f"Move {table.site.load('g1').move} has been played since this view: reload the page for the newer one."
        asked = requests(browser)
        assert [u for u in asked if not u.endswith((".css", ".js", "/favicon.ico"))] == [url, url.replace(".html", ".json")]
    finally:
        server.shutdown()
        server.server_close()


def test_the_mailto_holds_the_block_with_exactly_the_chosen_order(played):
    table, seen = played
    for page in seen:
        query = parse_qs(urlsplit(page["mailto"]).query)
        assert query["subject"] == ["game g1: orders"]
        assert query["body"][0].split("\r\n") == [
            "game g1", f"player {page['player']} {table.passwords['g1'][page['player']]}",
            f"#{page['move']} {page['chosen']}", "end", ""]


def test_the_key_leaves_the_address_bar_and_no_request_leaves_the_page(played):
    table, seen = played
    for page in seen:
        assert "#" not in page["url"] and page["url"].startswith("file://")
        assert page["requests"] and all(u.startswith(table.out.as_uri() + "/") for u in page["requests"]), page["requests"]


def test_nothing_runs_off_the_right_edge_at_phone_or_desktop_width(played):
    _, seen = played
    assert all(page["overflow"] <= 0 for page in seen), [p["overflow"] for p in seen]


def test_a_wrong_key_and_another_games_key_are_refused_in_one_line_with_the_public_page(played, browser):
    table, _ = played
    table.new("g2")
    width(browser, PHONE)
    own = open_page(browser, table.url("g2", "bob"))
    assert own["shown"] and own["note"] == ""
    others = table.url("g1", "bob").partition("#")[2]
    for fragment in (others, "k=" + "A" * 43, "k=short"):
        page = open_page(browser, table.url("g2", "bob").partition("#")[0] + "#" + fragment)
        assert not page["shown"] and "#" not in page["url"]
        assert page["note"].endswith("the public page is shown.") and "\n" not in page["note"]
        assert page["public"].startswith("Mogul")  # the public report, as before
        assert page["overflow"] <= 0 and page["reflowed"].split() == [  # on a phone: reflowed, every word kept
            w for line in page["public"].splitlines() if not re.fullmatch(r"[=-]{3,}", line.strip()) for w in line.split()]


def test_no_commit_before_the_end_holds_a_seat_key_and_the_last_reveals_them(played):
    from judge.store import seatkeys

    table, _ = played
    game = table.site.load("g1")
    keys = [v for seat, held in seatkeys.every(game).items() for k in held
            for v in (k["key"], seatkeys.fragment(bytes.fromhex(k["key"]))[2:])]
    repo = table.site.root / "archive"
    commits = subprocess.run(["git", "-C", str(repo), "log", "--format=%H"], capture_output=True, text=True,
                             check=True).stdout.split()
    shown = [subprocess.run(["git", "-C", str(repo), "show", "--format=%B", c], capture_output=True, text=True,
                            check=True).stdout for c in commits]
    end = next(i for i, text in enumerate(shown) if text.startswith("mogul/g1: ") and "the game is over" in text)
    assert len(shown) - end > 3 and all(k in shown[end] for k in keys[::2])  # the end: revealed with the seed
    leaked = [(i, k) for i, text in enumerate(shown[end + 1:], end + 1) for k in keys if k in text]
    assert not leaked, f"a seat key in a commit made while the game ran: {leaked[:2]}"
