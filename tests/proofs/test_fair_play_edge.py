"""Fair play and privacy at the edge: everything that leaves the judge, over the whole registry.

tests/proofs/test_fair_play.py proves `Game.submit` fair and tests/proofs/test_privacy.py
proves the views private; here the same promise is checked where the features meet, on what a
player actually receives. At positions of random games (every position whose next order turns
a card, rolls dice or ends a phase, and some others), two judge sites hold two games that
differ only in what the sender may not know: the ruleset's `resample_hidden` for the sender,
the other players' standing orders (`standing.resample`) and another generator future. Then
the same input goes to both:

- whole mail messages through the gateway (`inbox.handle`): the sender's orders mixed with
  every self-service line and game-master line, in every position, lines after a revealing
  order, blocks refused at their last line;
- `judge order` and `judge bot` (with --config: the reports mailed, the archive committed);
- `judge tick` after a deadline (the missed orders of the late players).

Every mail the judge sends to the sender, the exit code and what the command prints, and the
archive's new commit (its message and the record) must be byte for byte the same in both
worlds, unless the input was applied and the sender's own view after it differs (something
was revealed to them): then only what the answer says of the input (each line's OK, REFUSED
or NOT JUDGED and the outcome) must be the same, and the archive may differ only when the
public view differs.

JUDGE_EDGE_GAMES (default 1) sets the games per ruleset (each game another option set and
player count, in turn); JUDGE_EDGE_POSITIONS (default 3) the positions checked per game;
JUDGE_EDGE_BLOCKS (default 6) the mail blocks tried per player and position."""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.change import unit
from judge.cli import app
from judge.engine import ruleset as registry, standing
from judge.engine.errors import JudgeError
from judge.engine.game import Game
from judge.engine.rng import Rng
from judge.gateway import inbox
from judge.mail import mailgame, passwords
from judge.record import archive
from judge.store import config, gamefile

from mailkit import take_maildir
from registry import configs, every_name, information, many, positions, redrawn, without_heads

GAMES = many("JUDGE_EDGE_GAMES", 1)
POSITIONS = many("JUDGE_EDGE_POSITIONS", 3)
BLOCKS = many("JUDGE_EDGE_BLOCKS", 6)
EVERY = 37  # orders between the positions that are not at an edge
T0 = datetime(2026, 5, 4, 12, 0, tzinfo=timezone.utc)
JUDGE, GM_ADDRESS = "judge@judge.test", "gm@judge.test"
# What a player may write besides orders: every self-service line, and the game master's lines
# (judged as orders when a player writes them), and a line that is nothing at all.
SERVICE = ["history", "history 1", "report", "report 1", "help", "rules", "standing", "cancel",
           "press all good luck", "press {other} shall we?", "away until 2026-05-09", "back",
           "propose end", "agree end", "set mail turn", "set zone Europe/Berlin",
           "status", "pause", "absent {other}", "set press anon", "as {other} pass", "link", "notify off", "zzz"]


def address(player: str) -> str:
    return f"{player.lower()}@players.test"


@dataclass
class Seen:
    """What one world shows the sender of one input."""

    said: str  # what the answer says of the input (echo and outcome; a command's exit code and words)
    mails: list  # every mail to the sender: (subject, body)
    commit: tuple  # the archive's new commit: (message, record), or () for none
    applied: bool  # the game's state or log changed
    view: str  # the sender's view after the input (JSON)
    public: str  # the public view after it
    printed: str = ""  # everything a command printed (for the game master too)


class World:
    """A judge site (Maildir outbox, git archive) holding one game, `g`."""

    def __init__(self, root: Path):
        self.root, self.snapshot, self.snapshot_of = root, root.with_name(root.name + ".placed"), None
        (root / "games").mkdir(parents=True)
        # (no template: no sample hooks to copy back each time a world is placed again)
        subprocess.run(["git", "init", "-q", "--template=", str(root / "archive")], check=True)
        subprocess.run(["git", "-C", str(root / "archive"), "config", "user.email", "edge@judge.test"], check=True)
        subprocess.run(["git", "-C", str(root / "archive"), "config", "user.name", "edge"], check=True)
        self.config = root / "judge.toml"
        self.config.write_text(f'address = "{JUDGE}"\ngm = "{GM_ADDRESS}"\ngames = "games"\n'
                               '[maildir]\npath = "outbox"\n[archive]\ngit = "archive"\n')
        self.config.chmod(0o600)
        self.cfg = config.load(self.config)
        self.path = self.cfg.games / "g.toml"
        self.outbox = root / "outbox"

    def place(self, game: Game) -> None:
        """The game at the position to try, committed to the archive; no mail waiting. The
        same game placed again (the next input at this position, in this world) is the site
        as it was after its first placing, copied back: the same files, not a second commit
        of the same record (which would cost a replay and a record's build for each input)."""
        played, text = _played(game), gamefile.dumps(game)
        if self.snapshot_of == text:
            _clear(self.root, keep=OBJECTS)
            shutil.copytree(self.snapshot, self.root, symlinks=True, dirs_exist_ok=True)
            self.placed = played
            return
        gamefile.save(game, self.path)
        archive.commit(game, "g", self.cfg.archive)
        self._mails()
        self.placed = played
        shutil.rmtree(self.snapshot, ignore_errors=True)
        shutil.copytree(self.root, self.snapshot, symlinks=True, ignore=_objects(self.root))
        self.snapshot_of = text

    def _mails(self) -> list[EmailMessage]:
        return take_maildir(self.outbox)

    def _head(self) -> tuple[str, str]:
        done = subprocess.run(["git", "-C", str(self.cfg.archive), "log", "-1", "--format=%H%n%B"],
                              capture_output=True, text=True, check=True).stdout
        return tuple(done.split("\n", 1))

    def seen(self, who: str, said: str, head: tuple) -> Seen:
        """What `who` was shown, each head of this world's log chain masked (registry.without_heads:
        keyed by the salt, a head is another random value in every world; the proofs compare
        which move's head it is, and tests/proofs/test_privacy.py that it is keyed and covers
        no entry of the move under way)."""
        game = gamefile.load(self.path)
        mails = sorted((str(m["Subject"]), without_heads(m.get_content(), game))
                       for m in self._mails() if m["To"] == address(who))
        now = self._head()
        commit = () if now[0] == head[0] else tuple(without_heads(text, game) for text in (
            now[1], (self.cfg.archive / f"{game.ruleset.name}/g.toml").read_text()))
        return Seen(said, mails, commit, _played(game) != self.placed, _json(game.view(who)), _json(game.view(None)))

    def mail(self, who: str, password: str, lines: list[str], message_id: str) -> Seen:
        head = self._head()
        body = f"game g\nplayer {who} {password}\n" + "".join(f"{line}\n" for line in lines)
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = address(who), JUDGE, "orders", message_id
        msg.set_content(body)
        box = open_box(self.cfg)
        try:
            inbox.handle(bytes(msg), self.cfg, box, T0)
        finally:
            box.close()
        seen = self.seen(who, "", head)
        reply = next(b for s, b in seen.mails if s.startswith("Re:"))
        seen.said = reply.split("\n\n")[0].split("\nmove ")[0]  # each line's echo and the outcome
        return seen

    def command(self, who: str, *args: str, printed: bool = True) -> Seen:
        """A command of `who` (printed: what it prints is for them), or run by cron for the game
        master (`judge tick`: only its exit code and its mails to `who` are theirs)."""
        head = self._head()
        result = CliRunner().invoke(app, [*args, "--config", str(self.config)])
        told = result.output.split("\nwhat happened:")[0].split("\nmove ")[0]  # (then the new position)
        said = f"exit {result.exit_code}\n" + (told if printed else "")
        seen = self.seen(who, said, head)
        seen.printed = result.output
        return seen


# git's object store only grows (an object is named by its content): a world placed again keeps
# the objects of the inputs tried since and takes back everything else, its refs and index too.
OBJECTS = Path("archive", ".git", "objects")


def _objects(root: Path):
    """copytree's `ignore`: the archive's object store."""
    return lambda folder, names: ["objects"] if Path(folder) == root / OBJECTS.parent else []


def _clear(folder: Path, keep: Path) -> None:
    """Remove everything in `folder` but `keep` (a path below it) and the folders leading to it."""
    for entry in folder.iterdir():
        if entry.name != keep.parts[0]:
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
        elif len(keep.parts) > 1:
            _clear(entry, Path(*keep.parts[1:]))


def open_box(cfg):
    from judge.mail.outbox import open_outbox

    return open_outbox(cfg)


def _played(game: Game) -> tuple:
    """What an input that is applied changes: the position and the log (not the mail data)."""
    return _json(game.state), list(game.log)


def _json(view: dict) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


def difference(a: Seen, b: Seen) -> str:
    """Where the sender could tell the two worlds apart, or ""."""
    if a.said != b.said:
        return f"the answer differs:\n{a.said}\n--- with other hidden facts ---\n{b.said}"
    if a.applied != b.applied:
        return "applied in one world only"
    if not a.applied or a.view == b.view:
        if a.mails != b.mails:
            x, y = next(((x, y) for x, y in zip(a.mails, b.mails) if x != y), ((len(a.mails),), (len(b.mails),)))
            return f"a mail to the sender differs:\n{_first_difference(chr(10).join(map(str, x)), chr(10).join(map(str, y)))}"
    if (not a.applied or a.public == b.public) and a.commit != b.commit:
        return f"the archive's commit differs:\n{_first_difference(chr(10).join(a.commit), chr(10).join(b.commit))}"
    return ""


def _first_difference(a: str, b: str) -> str:
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            return f"  here:      {x}\n  elsewhere: {y}"
    return f"  (one is longer)\n{a[-400:]}\n---\n{b[-400:]}"


def blocks(game: Game, player: str, vocabulary: list[str], rng: Rng) -> list[list[str]]:
    """Mail blocks `player` might send: an order (the first of a few of their legal orders, or a
    guess) with a self-service or game-master line before it, after it, between it and another
    order (what would be legal after it, or a guess), and before a refused last line."""
    other = next(p for p in game.players if p != player)
    service = [s.format(other=other) for s in SERVICE]
    legal = game.view(player)["orders"] if player in game.awaiting() else []
    out = []
    for _ in range(BLOCKS):
        first = rng.choice(legal) if legal and rng.below(5) else rng.choice(vocabulary)
        trial = game.copy()
        try:
            trial.submit(player, [first])
            after = trial.view(player)["orders"] if not trial.is_over() else []
        except JudgeError:
            after = []
        then = rng.choice(after) if after and rng.below(2) else rng.choice(vocabulary)
        s = rng.choice(service)
        out.append(rng.choice([[first, s], [first, s, then], [first, s, "zzz"], [s, first, "zzz"],
                               [first, then, s], [s, first], [first, s, s, then], [s], [s, "standing"]]))
    return out


def edge_positions(config, seed: int):
    """POSITIONS positions of a random game, spread from its start to its end: each where the
    next order ends a round or a phase, or an EVERY-th one (the secrets of a late position, a
    supply nearly out, matter as much as the first card's)."""
    found = list(positions(config, seed, EVERY))
    step = max(1, len(found) / POSITIONS)
    for k in range(min(POSITIONS, len(found))):
        game, vocabulary, _ = found[int(k * step)]
        yield game, sorted(vocabulary)


def the_configs(name: str) -> list:
    mine = [c for c in configs() if c[0] == name]
    return [mine[k % len(mine)] for k in range(GAMES)]


def elsewhere(game: Game, player: str, salt: int) -> Game:
    """The game with what `player` may not know redrawn (registry.redrawn), as a game file of
    its own: without the other players' standing orders in its log, which are not the redrawn
    ones (the orders they carried out stay, as typed orders), so that its log replays to a
    game consistent with it for `history`, `report N` and a new player's catching up."""
    other = redrawn(game, player, salt)
    other.log = [e for e in other.log if not (standing.is_secret_entry(e) and e.split(" ", 2)[1] != player)]
    return other


def mail_game(game: Game) -> tuple[Game, dict]:
    """A copy of `game` played by mail, with a deadline that has passed at T0."""
    game = game.copy()
    pw = mailgame.enable(game, {p: address(p) for p in game.players}, [], 1, 0, 0, T0 - timedelta(hours=2))
    return game, pw


# The other world is the real one with its hidden facts redrawn, not a game played from its seed:
# its log replays to the real game's past. When an input there makes the other players' redrawn
# secrets act (a standing order carried out, a bag drawn from a redrawn screen), a replay of its
# log (history, report N, catching up) can fail: such an input is skipped, never a pass.
NOT_REACHABLE = ("does not replay", "the standing orders give")


class Edge:
    """Two judge sites, the inputs tried at positions, and what told the worlds apart."""

    def __init__(self, root: Path):
        self.here, self.there = World(root / "here"), World(root / "there")
        self.found, self.count, self.skipped = [], 0, 0

    def compare(self, what: str, real: Game, other: Game, run) -> bool:
        self.count += 1
        self.here.place(real)
        self.there.place(other)
        seen = run(self.here)
        try:
            elsewhere_seen = run(self.there)
        except JudgeError as e:
            if not any(words in str(e) for words in NOT_REACHABLE):
                raise
            self.skipped += 1
            return False
        if any(words in elsewhere_seen.printed and words not in seen.printed for words in NOT_REACHABLE):
            self.skipped += 1
            return False
        problem = difference(seen, elsewhere_seen)
        if problem:
            self.found.append(f"{what}: {problem}")
        return bool(problem)

    def check(self, game: Game, vocabulary: list[str], seed: int, where: str) -> bool:
        """Every input at this position, for each player as the sender; True once one told the
        worlds apart (in `found`)."""
        game, pw = mail_game(game)
        rng = Rng(seed * 1000 + game.move)
        for player in game.players:
            other = elsewhere(game, player, seed * 100 + game.move)
            mine = {k: without_heads(v, game) for k, v in information(game, player).items()}
            theirs = {k: without_heads(v, other) for k, v in information(other, player).items()}
            if mine != theirs:  # (test_privacy.py's proof)
                part = next(k for k in mine if mine[k] != theirs[k])
                self.found.append(f"{where}: {player}'s {part} already tells the two worlds apart:\n"
                                  + _first_difference(mine[part], theirs[part]))
                return True
            for n, lines in enumerate(blocks(game, player, vocabulary, rng)):
                mid = f"<{game.move}.{player}.{n}@players.test>"
                if self.compare(f"{where}: {player} mails {lines}", game, other,
                                lambda w: w.mail(player, pw[player], lines, mid)):
                    return True
            if player in game.awaiting():
                lines = blocks(game, player, vocabulary, rng)[0]
                orders = [line for line in lines if line.split()[0] not in ("press", "away", "set", "as")]
                if self.compare(f"{where}: judge order --as {player} {orders}", game, other,
                                lambda w: w.command(player, "order", str(w.path), "--as", player, *orders)):
                    return True
                if self.compare(f"{where}: judge bot --as {player}", game, other,
                                lambda w: w.command(player, "bot", str(w.path), "--as", player)):
                    return True
        watcher = rng.choice(game.players)
        other = elsewhere(game, watcher, seed * 100 + game.move + 1)
        return self.compare(f"{where}: judge tick, as {watcher} sees it", game, other,
                            lambda w: w.command(watcher, "tick", "--now", T0.isoformat(), printed=False))


def unfair(name: str, tmp_path: Path) -> list[str]:
    edge = Edge(tmp_path)
    for k, setting in enumerate(the_configs(name)):
        for game, vocabulary in edge_positions(setting, k):
            if edge.check(game, vocabulary, k, f"{name} {setting[1]}p {setting[2]} seed {k} move {game.move}"):
                return edge.found
    assert edge.count and edge.skipped <= edge.count // 4, f"{edge.count} inputs tried, {edge.skipped} skipped"
    return edge.found


class Frozen(datetime):
    @classmethod
    def now(cls, tz=None):
        return T0


@pytest.fixture(autouse=True)
def cheap_hashes_and_a_still_clock(monkeypatch):
    monkeypatch.setattr(passwords, "N", 2**4)  # (no password is guessed here)
    monkeypatch.setattr(unit, "datetime", Frozen)  # judge order and bot: both worlds at one time


# Cost (15-36 s a ruleset): every input is a real mail, `judge order`, `bot` or `tick` handled twice
# (two worlds), each a whole change of a mail game with its archive commit (0.1 s); a world
# placed again is copied back, not committed again. Fewer inputs would prove less.
@pytest.mark.parametrize("name", every_name())
def test_nothing_that_leaves_the_judge_depends_on_what_the_sender_may_not_know(name, tmp_path):
    assert unfair(name, tmp_path) == []


# ---- the proof catches what it was written for ---------------------------------------------------
def nile_nearly_out(game: Game) -> None:
    """rumors: Nile's board 8 of 10 (shorts of 1 or 2 fit), one token in its supply, alice and
    carol hold none, bob the other 21: 20 on his multiplier board, 1 in his discard."""
    s = game.state
    for p in game.players:
        s["players"][p]["holdings"]["Nile"] = s["players"][p]["uncancelled"]["Nile"] = 0
        s["players"][p]["discards"]["Nile"] = 0
    s["players"]["bob"]["holdings"]["Nile"], s["players"]["bob"]["discards"]["Nile"] = (1 << 20) - 1, 1
    s["companies"]["Nile"].update(filled=8, supply=1)
    game.ruleset.check(s)


@pytest.mark.skipif(registry.get("rumors").version < 3,
                    reason="rumors version 3 (issue 23, item 3) redraws the multiplier totals in resample_hidden")
# Cost (9 s): 12 redraws, each every input of one position through the gateway in two worlds;
# it must catch the leak in at least 6 of them, so it cannot try fewer.
def test_the_edge_proof_catches_a_short_refused_on_what_lies_behind_a_screen(tmp_path):
    """Issue 23, item 3 reverted: rumors version 2 refused a short the supply and every discard
    could not cover, so alice's orders told her how bob's tokens lay behind his screen."""
    edge, caught = Edge(tmp_path), 0
    for seed in range(12):
        game = Game.new("rumors", ["alice", "bob", "carol"], seed=1, salt="0" * 32,
                        setup={"companies": ["Edison", "Nile", "Gazillioon"], "first_player": "alice"})
        game.ruleset = game.ruleset.at_version(2)
        game = game.replay()
        nile_nearly_out(game)
        vocabulary = sorted({*game.view("alice")["orders"], "short Nile 1", "short Nile 2", "pass"})
        caught += edge.check(game, vocabulary, seed, f"rumors version 2, redraw {seed}")
    assert caught >= 6, edge.found
