"""The shell as a newcomer meets it (issue 27): --version and -h, help without a ruleset,
ruleset names in any case, `-f -`, a byte-order mark, a line read as a comment, --json on every
command that answers with data, the exit code of a batch cut short, the events since an order,
the new player's name for a handed-on seat, verify and audit agreeing."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from judge.cli import NOT_JUDGED_EXIT, app

from mailkit import flat
from registry import every_name


def judge(*args: str, input: str | bytes | None = None):
    result = CliRunner().invoke(app, list(args), input=input)
    return result.exit_code, result.output


def mogul(path, *extra):
    code, out = judge("new", "mogul", str(path), "-p", "ann", "-p", "ben", "-p", "cy", "--seed", "4", *extra)
    assert code == 0, out
    return str(path)


def awaited(game) -> str:
    return json.loads(judge("status", game, "--json")[1])["awaiting"][0]


def test_version_and_short_help():
    code, out = judge("--version")
    assert code == 0 and out.startswith("judge ")
    code, out = judge("-h")
    assert code == 0 and "Usage: " in out and "COMMAND" in out
    code, out = judge("order", "-h")
    assert code == 0 and "standard input" in out and "#17 bid" in out and "Exit codes" in out


def test_help_placeholders_read_as_words():
    out = judge("order", "--help")[1]
    assert "order [OPTIONS] GAME_FILE [ORDERS...]" in out
    assert "<list[str]>" not in out and "{game_file}" not in out and "<path>" not in out
    assert "--as NAME" in out
    assert "print the answer as JSON" in judge("status", "--help")[1]


def test_help_without_a_ruleset_lists_them():
    code, out = judge("help")
    assert code == 0
    for name in every_name():
        assert f"  {name} " in out


def test_ruleset_names_in_any_case(tmp_path):
    code, out = judge("new", "Mogul", str(tmp_path / "g.toml"), "-p", "a", "-p", "b", "-p", "c")
    assert code == 0 and "created" in out and ": mogul," in flat(out)
    assert judge("help", "STOCK-ROUND")[0] == 0


def test_orders_from_dash_and_with_a_byte_order_mark(tmp_path):
    game = mogul(tmp_path / "g.toml")
    code, out = judge("order", game, "--as", "ben", "-f", "-", input="bid\n")
    assert code == 0 and "ok: bid" in out
    notepad = tmp_path / "orders.txt"
    notepad.write_bytes("\ufeffpass\r\n".encode("utf-8"))
    code, out = judge("order", game, "--as", "cy", "-f", str(notepad))
    assert code == 0 and "ok: pass" in out, out


def test_a_line_read_as_a_comment_is_said_so(tmp_path):
    game = mogul(tmp_path / "g.toml")
    before = (tmp_path / "g.toml").read_bytes()
    code, out = judge("order", game, "--as", "ben", "# 1 bid")
    assert code == 4
    assert "no orders given: every line was read as a comment" in out and "'#30 bid'" in out
    assert (tmp_path / "g.toml").read_bytes() == before


def test_a_batch_cut_short_has_its_own_exit_code_and_json(tmp_path):
    game = mogul(tmp_path / "g.toml")
    code, out = judge("order", game, "--as", "ben", "bid", "bid")
    assert code == NOT_JUDGED_EXIT == 6
    assert 'ok: bid\nnot judged "bid"' in out
    code, out = judge("order", game, "--as", "cy", "--json", "bid", "bid")
    assert code == NOT_JUDGED_EXIT
    answer = json.loads(out)
    assert answer["accepted"] == ["bid"] and answer["not_judged"] == ["bid"]
    assert answer["awaiting"] == ["ann"]
    assert judge("order", game, "--as", "ann", "bid")[0] == 0


def test_the_answer_shows_what_happened_since_the_order(tmp_path):
    game = mogul(tmp_path / "g.toml")
    judge("order", game, "--as", "ben", "bid")
    judge("order", game, "--as", "cy", "bid")
    judge("order", game, "--as", "ann", "bid", "if winner take")  # ann's standing order, if she wins
    code, out = judge("order", game, "--as", "ben", "pass")
    assert code == 0
    happened = out.split("what happened:\n")[1]
    assert "ben steps out" in happened  # ben's own pass
    assert "cy" in happened  # and what cy did before ben is asked again


def test_json_on_every_data_command(tmp_path):
    game = mogul(tmp_path / "g.toml")
    assert [r["name"] for r in json.loads(judge("rulesets", "--json")[1])] == every_name()  # (by name, whichever)
    status = json.loads(judge("status", game, "--json")[1])
    assert status["players"] == [{"seat": p, "player": p} for p in ("ann", "ben", "cy")]
    bot = json.loads(judge("bot", game, "--as", "ben", "--json")[1])
    assert bot["player"] == "ben" and len(bot["accepted"]) == 1
    assert json.loads(judge("verify", game, "--json")[1])["ok"] is True
    assert json.loads(judge("audit", game, "--json")[1])["ok"] is True


def test_the_new_player_answers_for_the_seat(tmp_path):
    game = mogul(tmp_path / "g.toml")
    code, out = judge("replace", game, "ben", "erin")
    assert code == 0, out
    code, out = judge("show", game, "--as", "erin")
    assert code == 0 and "report for ben" in out
    code, out = judge("order", game, "--as", "Erin", "bid")
    assert code == 0 and "ok: bid" in out
    assert json.loads(judge("status", game, "--json")[1])["players"][1] == {"seat": "ben", "player": "erin"}


def test_the_name_rule_says_ascii(tmp_path):
    code, out = judge("new", "mogul", str(tmp_path / "g.toml"), "-p", "Émile", "-p", "b", "-p", "c")
    assert code == 2 and "a letter a-z or A-Z" in out


def test_verify_and_audit_agree_on_a_tampered_log_and_audit_takes_a_prefix(tmp_path):
    game = mogul(tmp_path / "g.toml")
    for _ in range(3):
        judge("bot", game, "--as", awaited(game))
    commitment = json.loads(judge("status", game, "--json")[1])["commitment"]
    code, out = judge("audit", game, "--commitment", commitment[:8])
    assert code == 0, out
    code, out = judge("audit", game, "--commitment", commitment[:4])
    assert code == 2 and "at least the first 8" in flat(out)
    path = tmp_path / "g.toml"
    text = path.read_text()
    assert '"1 ben ' in text
    path.write_text(text.replace('"1 ben bid"', '"1 ben take"').replace('"1 ben pass"', '"1 ben take"'))
    assert judge("verify", game)[0] == judge("audit", game)[0] == 5


def test_a_rollback_is_told_in_every_report_and_in_history_and_each_owner_learns_whose_standing_orders_went(
        tmp_path):
    game = mogul(tmp_path / "g.toml")
    for _ in range(4):
        judge("bot", game, "--as", awaited(game))
    code, out = judge("order", game, "--as", "ann", "if winner take every round", "bid until pot 9")
    assert code == 0, out
    code, out = judge("rollback", game, "--to", "3", "--reason", "ben's mail was lost")
    assert code == 0, out
    reports = {who: judge("show", game, *args)[1] for who, args in
               (("ann", ["--as", "ann"]), ("ben", ["--as", "ben"]), ("public", []), ("gm", ["--gm"]))}
    for text in reports.values():
        assert "The game was rolled back from move 5 to move 3: ben's mail was lost" in text
    assert "Your standing orders given since then were undone: if winner take every\n    round; bid until pot 9" \
        in reports["ann"]
    assert "Standing orders undone: ann:" in reports["gm"]
    for who in ("ben", "public"):
        assert "if winner take" not in reports[who] and "undone:" not in reports[who]
    history = judge("history", game)[1]
    assert "correction: the game master rolled the game back from move 5 to move 3" in flat(history)
    code, record = judge("export", game, "-")
    assert "standing_undone" not in record and "if winner take" not in record
    judge("replace", game, "cy", "erin")
    assert "#3 erin plays the seat cy from move 3 (was cy)." in judge("show", game)[1]


def test_show_status_history_and_standings_read_a_public_record(tmp_path):
    game = mogul(tmp_path / "g.toml")
    for _ in range(3):
        judge("bot", game, "--as", awaited(game))
    record = str(tmp_path / "public.toml")
    assert judge("export", game, record)[0] == 0
    note = "(the public record of game g at move 4: what the public may see)\n"
    code, out = judge("show", record)
    assert code == 0 and out == note + judge("show", game)[1]
    code, out = judge("status", record)
    assert code == 0 and out.startswith(note) and f"waiting for {awaited(game)}:" in out
    assert json.loads(judge("status", record, "--json")[1])["awaiting"] == [awaited(game)]
    code, out = judge("standings", record)
    assert code == 0 and out == note + judge("standings", game)[1]
    code, out = judge("history", record)
    assert code == 0 and out == note + judge("history", game)[1]
    code, out = judge("show", record, "--as", "ann")
    assert code == 2 and "public record holds only what the public sees now" in out
