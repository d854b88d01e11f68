"""Turn notices through Apprise, with real parts (docs/notices.md): a local HTTP server takes
Apprise's json:// and ntfy:// notices; mail games are played through the judge's own change,
mail gateway and tick. Each notice is sent once (a kill between the save and the send, an
outage, a 429 and its wait), a URL that keeps failing is switched off and its player told
once, and the URL, a secret, is in no answer, log, game file or record."""
from __future__ import annotations

import json
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from judge.change.unit import Change
from judge.engine import bots
from judge.gateway import deadlines
from judge.mail import noticesend, notify
from judge.store import config

from mailkit import (GM_ADDRESS, NAMES, T0, address, block, flat, free_port, make_site, message, new_game, reply, send, short_setup,
                     text)


class Hooks:
    """A local web server that records every POST it takes: (path, JSON body). `answers` are
    the statuses of the next requests (then 200), each (status, headers); status 0 takes the
    notice and closes the connection without an answer."""

    def __init__(self, port: int = 0):
        self.got, self.answers = [], []
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status, headers = hooks.answers.pop(0) if hooks.answers else (200, {})
                if status == 0:  # taken, and the connection lost before the answer
                    hooks.got.append((self.path, json.loads(data)))
                    self.close_connection = True
                    return
                if status == 200:
                    hooks.got.append((self.path, json.loads(data)))
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args):
                pass

        self.port = port or free_port()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def take(self) -> list:
        out, self.got = self.got, []
        return out

    def url(self, path: str, scheme: str = "json") -> str:
        return f"{scheme}://127.0.0.1:{self.port}/{path}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def hooks():
    server = Hooks()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def cheap_passwords(monkeypatch):
    """Each test's game is new: its passwords hashed cheaply (the stored hash says how)."""
    from judge.mail import passwords

    monkeypatch.setattr(passwords, "N", 2**4)


@pytest.fixture
def clock(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(noticesend, "clock", lambda: now[0])
    return now


def notify_site(tmp_path, private: bool = True, extra: str = ""):
    site = make_site(tmp_path)
    path = tmp_path / "judge.toml"
    path.write_text(path.read_text() + f'[notify]\nprivate = {"true" if private else "false"}\n'
                    f'schemes = ["json", "ntfy", "discord", "slack"]\n{extra}')
    site.cfg = config.load(path)
    return site


def play(site, player: str, order: str | None = None, now=T0):
    with Change(site.game_path(), site.cfg, now=now) as change:
        order = order or bots.choose(change.game, player)
        change.game.submit(player, [order])


def outbox_files(site, suffix: str) -> list:
    return [p for p in (site.cfg.games / ".mail/outbox").iterdir() if p.name.endswith(suffix)]


def test_a_whole_mail_game_gives_one_notice_a_turn_to_the_player_awaited_and_one_public_message(tmp_path, hooks, clock):
    site = notify_site(tmp_path)
    pw = new_game(site, setup=short_setup(rounds=2))
    for p in NAMES:
        notify.set_player(site.cfg, "g1", p, hooks.url(p, "json" if p != "bob" else "ntfy"))
    notify.set_public(site.cfg, "g1", hooks.url("public"))
    site.take()
    game, turns = site.load(), 0
    while not game.is_over():  # every order by mail, as its player writes it
        awaited_before = set(game.awaiting())
        player = game.awaiting()[0]
        order = bots.choose(game, player)
        answer = send(site, message(address(player), block(player, pw[player], f"#{game.move} {order}")))
        assert "All applied." in reply(answer, address(player))
        game = site.load()
        got = hooks.take()
        newly = sorted(set(game.awaiting()) - awaited_before) if not game.is_over() else NAMES
        public = [body for path, body in got if path == "/public"]
        private = sorted(path.strip("/") or body["topic"] for path, body in got if path != "/public")
        assert private == newly and len(public) == 1, (player, got)
        if not game.is_over():
            turns += len(newly)
            for path, body in got:
                who = path.strip("/") or body.get("topic")
                if who in newly:
                    assert body["title"] == f"game g1: your turn, move {game.move}"
                    assert game.view(who)["prompts"][who] in body["message"]
            assert f"Now move {game.move}, waiting for" in public[0]["message"]
    assert turns > 3
    ends = {path.strip("/") or body.get("topic"): body for path, body in got}
    winners = [r["player"] for r in game.view(None)["standings"] if r["rank"] == 1]
    assert all(f"Winner" in b["message"] and winners[0] in b["message"] for b in ends.values())
    assert not outbox_files(site, ".notice") and not outbox_files(site, ".sending")


def test_the_public_channel_tells_each_event_once_though_a_move_takes_many_orders(tmp_path, hooks, clock,
                                                                                    monkeypatch):
    from judge.engine.ruleset import visible_events
    from judge.mail import notices
    from judge.record.history import all_events

    monkeypatch.setattr(notices, "MAX_EVENTS", 1000)  # (every event in its message, to count them)
    site = notify_site(tmp_path)
    new_game(site, ruleset="rumors")
    notify.set_public(site.cfg, "g1", hooks.url("public"))
    said, game, moves = [], site.load(), set()
    at_first = len(visible_events(game.state, None))
    for _ in range(15):
        if game.is_over():
            break
        moves.add(game.move)
        play(site, game.awaiting()[0])
        said += [line for _, body in hooks.take() for line in body["message"].splitlines()
                 if not line.startswith("Now move")]
        game = site.load()
    told = [e["text"] for e in all_events(game) if "to" not in e][at_first:]
    assert len(moves) < 15 and said == told  # (orders shared a move; each event once, in order)


def test_notify_by_mail_answers_with_the_service_and_the_url_is_nowhere_else(tmp_path, hooks, clock):
    site = notify_site(tmp_path)
    pw = new_game(site)
    site.take()
    url = hooks.url("secret-topic-4711", "ntfy")
    mails = send(site, message(address("bob"), block("bob", pw["bob"], f"notify {url}")))
    answer = text([m for m in mails if m["To"] == address("bob")][0])
    assert "go to ntfy" in answer and "secret-topic-4711" not in answer
    assert notify.load(site.cfg, "g1")["players"]["bob"]["url"] == url
    first = site.load().awaiting()[0]
    order = bots.choose(site.load(), first)
    send(site, message(address(first), block(first, pw[first], f"#1 {order}")))  # an order by mail: bob's turn
    assert [(b["topic"], b["title"]) for _, b in hooks.take()] == [("secret-topic-4711", "game g1: your turn, move 2")]
    odd = send(site, message(address("bob"), block("bob", pw["bob"], f"notify {url} digest")))  # refused, echoed
    assert "secret-topic-4711" not in "".join(text(m) for m in odd)
    secret = site.cfg.games / ".mail/notify/g1.toml"
    assert secret.stat().st_mode & 0o777 == 0o600
    everywhere = [p for p in tmp_path.rglob("*") if p.is_file() and p != secret]
    assert not [p for p in everywhere if b"secret-topic-4711" in p.read_bytes()]
    refused = send(site, message(address("carol"), block("carol", pw["carol"], "notify https://example.org/x")))
    assert "sends no notices through https://" in text(refused[0])
    mails = send(site, message(address("bob"), block("bob", pw["bob"], "notify digest")))
    assert "come as a digest, at most one every 60 minutes (ntfy)" in flat(text(mails[0]))
    assert notify.load(site.cfg, "g1")["players"]["bob"] == {"url": url, "digest": True, "since": "2026-05-01T12:00:00Z",
                                                       "own": True}
    mails = send(site, message(address("bob"), block("bob", pw["bob"], "notify off")))
    assert "switched off" in text(mails[0]) and "bob" not in notify.load(site.cfg, "g1")["players"]


def test_an_address_on_loopback_is_refused_where_it_is_connected_to(tmp_path, hooks, clock):
    site = notify_site(tmp_path, private=False)
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", f"json://localhost:{hooks.port}/bob")  # a name, not an address
    first = site.load().awaiting()[0]
    play(site, first)
    assert hooks.take() == []
    log = (site.cfg.games / "mail.log").read_text()
    assert "127.0.0.1 is on loopback" in log and str(hooks.port) not in log


def test_a_player_told_their_notices_are_off_is_not_told_what_the_judges_host_resolved(tmp_path, hooks, clock):
    site = notify_site(tmp_path, private=False, extra="fail_after = 1\n")
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", f"json://localhost:{hooks.port}/bob")
    site.take()
    play(site, site.load().awaiting()[0])
    (told,) = [m for m in site.take() if m["Subject"] == "game g1: notices switched off"]
    assert "(the last: the judge may not connect to its address)" in flat(text(told))
    assert "127.0.0.1" not in text(told) and "loopback" not in text(told)
    assert "127.0.0.1 is on loopback" in (site.cfg.games / "mail.log").read_text()  # (the game master's log)


def test_a_judge_that_cannot_load_apprise_sends_its_mail_and_keeps_every_notice(tmp_path, hooks, clock,
                                                                                 monkeypatch):
    from judge.mail import wire

    site = notify_site(tmp_path)
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", hooks.url("bob"))
    site.take()
    with monkeypatch.context() as m:
        m.setattr(wire, "ready", lambda: (_ for _ in ()).throw(ImportError("No module named 'apprise'")))
        play(site, site.load().awaiting()[0])
    assert site.take() and len(outbox_files(site, ".notice")) == 1 and not outbox_files(site, ".sending")
    assert "notices not sent in this run (ImportError" in (site.cfg.games / "mail.log").read_text()
    site.outbox().flush()  # Apprise back: the notice goes, once
    assert [path for path, _ in hooks.take()] == ["/bob"] and not outbox_files(site, ".notice")


def test_an_outage_keeps_the_notice_and_it_goes_once_the_server_is_back(tmp_path, clock):
    site = notify_site(tmp_path)
    new_game(site)
    port = free_port()  # nobody listens there yet
    notify.set_player(site.cfg, "g1", "bob", f"json://127.0.0.1:{port}/bob")
    play(site, site.load().awaiting()[0])
    assert len(outbox_files(site, ".notice")) == 1
    site.outbox().flush()  # tried again at once: the backoff holds it
    assert len(outbox_files(site, ".notice")) == 1
    assert "notice to bob (a JSON webhook) failed (1 in a row): cannot connect" in (
        site.cfg.games / "mail.log").read_text()
    server = Hooks(port)
    try:
        clock[0] += 60
        site.outbox().flush()
        assert [b["title"] for _, b in server.take()] == ["game g1: your turn, move 2"]
        site.outbox().flush()
        assert server.take() == [] and not outbox_files(site, ".notice")
    finally:
        server.stop()


def test_a_429_is_waited_for_as_asked_and_the_notice_then_goes_once(tmp_path, hooks, clock, caplog):
    caplog.set_level("DEBUG")  # (and no log line names the URL, even at DEBUG)
    site = notify_site(tmp_path)
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", hooks.url("bob-7f3k"))
    hooks.answers = [(429, {"Retry-After": "120"})]
    play(site, site.load().awaiting()[0])
    assert hooks.take() == [] and len(outbox_files(site, ".notice")) == 1
    clock[0] += 119
    site.outbox().flush()
    assert hooks.take() == [] and not hooks.answers
    clock[0] += 2
    site.outbox().flush()
    assert len(hooks.take()) == 1
    site.outbox().flush()
    assert hooks.take() == []
    assert "waits 120 s as asked" in (site.cfg.games / "mail.log").read_text()
    assert "7f3k" not in caplog.text and "7f3k" not in (site.cfg.games / "mail.log").read_text()


def test_a_kill_between_the_save_and_the_send_sends_it_once_later_and_a_kill_while_sending_never_twice(
        tmp_path, hooks, clock, monkeypatch):
    site = notify_site(tmp_path)
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", hooks.url("bob"))

    def killed(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(noticesend, "send_ready", killed)
    with pytest.raises(KeyboardInterrupt):
        play(site, site.load().awaiting()[0])
    assert site.load().move == 2 and hooks.take() == []
    monkeypatch.undo()
    monkeypatch.setattr(noticesend, "clock", lambda: clock[0])
    site.outbox().flush()
    assert [b["title"] for _, b in hooks.take()] == ["game g1: your turn, move 2"]
    site.outbox().flush()
    assert hooks.take() == []
    # killed while sending: its file is left .sending, and the next run cannot know whether it arrived
    from judge.mail import wire

    notify.set_player(site.cfg, "g1", "carol", hooks.url("carol"))
    monkeypatch.setattr(wire, "send", killed)
    with pytest.raises(KeyboardInterrupt):
        play(site, "bob")
    assert len(outbox_files(site, ".sending")) == 1
    monkeypatch.undo()
    monkeypatch.setattr(noticesend, "clock", lambda: clock[0])
    site.outbox().flush()
    assert hooks.take() == [] and not outbox_files(site, ".sending") and not outbox_files(site, ".notice")
    assert "may have gone out while the run that sent it stopped: not sent again" in (
        site.cfg.games / "mail.log").read_text()


def test_a_url_that_keeps_failing_is_switched_off_and_its_player_told_once(tmp_path, hooks, clock):
    site = notify_site(tmp_path, extra="fail_after = 2\n")
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", hooks.url("bob"))
    site.take()
    hooks.answers = [(404, {})] * 2
    play(site, site.load().awaiting()[0])
    assert len(outbox_files(site, ".notice")) == 1 and [m["To"] for m in site.take()].count(address("bob")) == 1
    clock[0] += 61
    site.outbox().flush()
    told = [m for m in site.take() if m["Subject"] == "game g1: notices switched off"]
    assert len(told) == 1 and told[0]["To"] == address("bob")
    assert "a JSON webhook: 2 tries in a row failed (the last: HTTP 404)" in flat(text(told[0]))
    assert str(hooks.port) not in text(told[0]) and not outbox_files(site, ".notice")
    kept = [p.name for p in (site.cfg.games / ".mail/sent").rglob("notify-off-*")]  # (told once: its key kept)
    assert len(kept) == 1 and len(kept[0]) == len("notify-off-") + 32
    play(site, "bob")
    play(site, site.load().awaiting()[0])
    clock[0] += 7200
    site.outbox().flush()
    assert hooks.take() == [] and not [m for m in site.take() if "switched off" in m["Subject"]]


def test_a_digest_holds_a_players_notices_in_one_message(tmp_path, hooks, clock):
    site = notify_site(tmp_path, extra="digest = 30\n")
    new_game(site, deadline=48, remind=24)
    notify.set_player(site.cfg, "g1", "bob", hooks.url("bob"), digest=True)
    first = site.load().awaiting()[0]
    play(site, first)
    assert [b["title"] for _, b in hooks.take()] == ["game g1: your turn, move 2"]
    deadlines.tick(site.cfg, site.outbox(), T0.replace(day=2, hour=13))  # the reminder: within 30 minutes
    assert hooks.take() == []
    clock[0] += 1800
    deadlines.tick(site.cfg, site.outbox(), T0.replace(day=3, hour=13))  # the deadline: an order given
    got = hooks.take()
    assert len(got) == 1 and got[0][1]["title"] == "game g1: 2 notices"
    assert "Reminder" in got[0][1]["message"] and "Missed order: bob" in got[0][1]["message"]


def test_the_examples_of_docs_notices_are_allowed_by_default_and_apprise_reads_them(tmp_path):
    import re
    from pathlib import Path

    import apprise

    site = make_site(tmp_path)
    docs = (Path(__file__).parents[2] / "docs/notices.md").read_text()
    examples = re.findall(r"\| `([a-z]+://[^`]+)`", docs)
    assert {u.split(":")[0] for u in examples} == {"discord", "slack", "ntfys", "matrixs", "tgram"}
    for url in examples:
        assert notify.check(site.cfg, url) in ("Discord", "Slack", "ntfy", "Matrix", "Telegram")
        assert apprise.Apprise.instantiate(url, asset=apprise.AppriseAsset(storage_mode="memory")) is not None, url


def test_discords_and_slacks_payloads_reach_their_webhook_pointed_at_a_local_server(tmp_path, hooks, clock,
                                                                                     monkeypatch):
    """Apprise takes no host in discord:// and slack:// URLs: their webhook's address is pointed
    at the local server here, so that the judge's notice goes out in each service's own format."""
    from apprise.plugins.discord import NotifyDiscord
    from apprise.plugins.slack import NotifySlack

    monkeypatch.setattr(NotifyDiscord, "notify_url", f"http://127.0.0.1:{hooks.port}/discord")
    monkeypatch.setattr(NotifySlack, "webhook_url", f"http://127.0.0.1:{hooks.port}/slack")
    site = notify_site(tmp_path, extra="")
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", "discord://1234567890/AbCdEfToken")
    notify.set_player(site.cfg, "g1", "carol", "slack://T1/B2/C3")
    play(site, site.load().awaiting()[0])
    play(site, "bob")
    got = dict(hooks.take())
    assert "game g1: your turn, move 2" in json.dumps(got["/discord/1234567890/AbCdEfToken"])
    assert "game g1: your turn, move 3" in json.dumps(got["/slack/T1/B2/C3"])


def test_notify_settings_in_judge_toml_are_checked(tmp_path):
    site = make_site(tmp_path)
    path = tmp_path / "judge.toml"
    base = path.read_text()
    for table, said in [('colour = "red"', "unknown keys: colour"), ('schemes = ["Discord://"]', "URL schemes"),
                        ("digest = 0", "digest is 1 to 1440"), ('private = "yes"', "private = true or false")]:
        path.write_text(base + f"[notify]\n{table}\n")
        with pytest.raises(Exception, match=said):
            config.load(path)
    path.write_text(base + '[notify]\npublic = "ntfys://ntfy.sh/g"\n')
    path.chmod(0o644)
    with pytest.raises(Exception, match="holds a notice URL"):
        config.load(path)
    assert site.cfg.notify["schemes"][:2] == ["discord", "slack"] and site.cfg.notify["private"] is False


def test_judge_notify_sets_a_url_without_showing_it(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from judge.cli import app

    site = notify_site(tmp_path)
    new_game(site)
    monkeypatch.setenv("JUDGE_CONFIG", str(tmp_path / "judge.toml"))
    run = CliRunner().invoke
    said = run(app, ["notify", "g1", "--as", "alice", "-"], input="ntfy://127.0.0.1/hidden-topic\n")
    assert said.exit_code == 0 and "notices of alice go to ntfy" in said.output and "hidden" not in said.output
    said = run(app, ["notify", "g1", "--public", "json://127.0.0.1/public-channel"])
    assert said.exit_code == 0 and said.output.strip() == "game g1: public notices go to a JSON webhook"
    data = notify.load(site.cfg, "g1")
    assert data["players"]["alice"]["url"].endswith("hidden-topic") and data["public"].endswith("public-channel")
    assert run(app, ["notify", "g1", "--as", "dave", "json://x/y"]).exit_code != 0
    refused = run(app, ["notify", "g1", "--as", "bob", "mailto://me@example.org"])
    assert refused.exit_code != 0 and "sends no notices through mailto://" in refused.output
    assert run(app, ["notify", "g1", "--as", "alice", "off"]).exit_code == 0
    assert "alice" not in notify.load(site.cfg, "g1")["players"]


def test_a_seat_handed_on_forgets_the_old_players_url(tmp_path, hooks, clock):
    from judge.change import corrections

    site = notify_site(tmp_path)
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", hooks.url("bob"))
    corrections.replace_file(site.game_path(), site.cfg, T0, "bob", "dave", "dave@players.test")
    assert "bob" not in notify.load(site.cfg, "g1")["players"]
    play(site, site.load().awaiting()[0])
    assert hooks.take() == []


def test_a_seat_handed_on_by_mail_forgets_the_url_only_when_the_block_holds(tmp_path, hooks, clock):
    site = notify_site(tmp_path)
    pw = new_game(site)
    notify.set_player(site.cfg, "g1", "carol", hooks.url("carol"))
    gm = lambda *lines: send(site, message(GM_ADDRESS, block("gm", pw["gm"], *lines)))  # noqa: E731
    gm("replace carol erin@players.test", "no such line at all")  # refused whole: nothing changed
    assert site.load().meta["mail"]["players"]["carol"]["address"] == address("carol")
    assert notify.load(site.cfg, "g1")["players"]["carol"]["url"] == hooks.url("carol")
    gm("replace carol erin@players.test")
    assert site.load().meta["mail"]["players"]["carol"]["address"] == "erin@players.test"
    assert "carol" not in notify.load(site.cfg, "g1")["players"]


def test_judge_tomls_public_channel_takes_each_games_news_or_a_digest(tmp_path, clock, monkeypatch):
    monkeypatch.setattr(noticesend, "MAX_DIGEST", 40)  # (a digest is bounded: its latest notices kept)
    server = Hooks()
    try:
        site = notify_site(tmp_path, extra=f'public = "{server.url("league")}"\npublic_digest = true\ndigest = 30\n')
        new_game(site)
        play(site, site.load().awaiting()[0])
        assert [b["title"] for _, b in server.take()] == ["game g1: move 2"]
        play(site, "bob")
        play(site, site.load().awaiting()[0])
        assert server.take() == []  # (within 30 minutes of the last)
        clock[0] += 1800
        site.outbox().flush()
        got = server.take()
        assert [b["title"] for _, b in got] == ["game g1: 2 notices"] and "Now move 4" in got[0][1]["message"]
        assert got[0][1]["message"].startswith("(1 earlier notice left out)") and "Now move 3" not in got[0][1]["message"]
    finally:
        server.stop()


@pytest.mark.parametrize("address,said", [
    ("127.0.0.1", "on loopback"), ("::1", "on loopback"), ("::ffff:127.0.0.1", "on loopback"),
    ("10.1.2.3", "private network"), ("192.168.0.9", "private network"), ("169.254.169.254", "private network"),
    ("fd00::1", "private network"), ("100.64.0.1", "private network"), ("2002:7f00:1::", "on loopback"),
    ("64:ff9b::a00:1", "private network"), ("0.0.0.0", "private network"), ("93.184.216.34", ""),
    ("2606:4700::1111", "")])
def test_the_address_connected_to_is_refused_on_loopback_and_private_networks(address, said):
    from judge.mail import wire

    assert said in wire.refusal((address, 443), private=False) and bool(said) == bool(wire.refusal((address, 443), False))
    assert wire.refusal((address, 443), private=True) == ""


def test_a_notice_whose_answer_never_came_is_not_sent_again(tmp_path, hooks, clock):
    site = notify_site(tmp_path)
    new_game(site)
    notify.set_player(site.cfg, "g1", "bob", hooks.url("bob"))
    hooks.answers = [(0, {})]
    play(site, site.load().awaiting()[0])
    assert len(hooks.take()) == 1 and not outbox_files(site, ".notice") and not outbox_files(site, ".sending")
    clock[0] += 3600
    site.outbox().flush()
    assert hooks.take() == []
    assert "it may have arrived: not sent again" in (site.cfg.games / "mail.log").read_text()


def test_the_senders_state_keeps_only_urls_with_something_to_remember(tmp_path, clock):
    site = make_site(tmp_path)
    now = clock[0]
    noticesend._save_state(site.cfg, {"failing": {"failures": 2, "next": 0, "last": 0, "off": False},
                                      "off": {"failures": 0, "next": 0, "last": 0, "off": True},
                                      "waiting": {"failures": 0, "next": now + 60, "last": 0, "off": False},
                                      "recent": {"failures": 0, "next": 0, "last": now - 3600, "off": False},
                                      "quiet": {"failures": 0, "next": 0, "last": now - 2 * 86400, "off": False}})
    assert sorted(noticesend._load_state(site.cfg)) == ["failing", "off", "recent", "waiting"]


def test_a_players_own_url_carries_their_private_link_where_judge_toml_allows_it(tmp_path, hooks, clock):
    """[notify] link: a "your turn" to a URL the player set by mail carries their own page's
    link (their seat's key); one the game master set for them carries none."""
    from judge.site import links

    subprocess.run(["git", "init", "-q", str(tmp_path / "archive")], check=True)
    site = notify_site(tmp_path, extra='link = true\n[archive]\ngit = "archive"\nsite = "archive/site"\n'
                                       'site_url = "https://games.example/site"\n')
    pw = new_game(site)
    send(site, message(address("bob"), block("bob", pw["bob"], f"notify {hooks.url('bob-own')}")))
    notify.set_player(site.cfg, "g1", "carol", hooks.url("carol-gm"))
    told = {}
    while len(told) < 2 and not site.load().is_over():
        play(site, site.load().awaiting()[0])
        told.update({path.strip("/"): body["message"] for path, body in hooks.take()})
    own = links.private(site.load(), "g1", "bob", "https://games.example/site")
    assert own.startswith("https://games.example/site/") and "#k=" in own
    assert f"Your own page, orders in one tap: {own}" in told["bob-own"]
    assert "#k=" not in told["carol-gm"] and "Your own page" not in told["carol-gm"]
