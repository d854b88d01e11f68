"""What a judge costs as its archive grows (issue 33): archives of 10, 100, 1,000 and 10,000
finished games, each with its site and the league's index, and a running mail game. For each:

- a shell order with `[archive] git` and `site` (`judge order --config`): the whole command,
  and the time the game's lock is held (from JUDGE_STEPS, judge/store/steps.py);
- a player's mail `league` line (`judge mail`, the whole command);
- `judge league ARCHIVE` from its index, and from nothing (the index removed: every record read
  and audited once);
- `judge tick` with nothing to do;
- the archive repository's size per game (after `git gc`), and what one change adds to it.

Each whole command runs right beside a floor (`python -c "import typer"`), alternating which
goes first, as bench/bench.py does: the machine is shared, and the ratio of each pair to its
floor is what is compared between sizes (median, with the middle half). The load average is
printed with each size. Targets: the order (whole and lock held) and the mail `league` line at
10,000 games within 1.2x of the same at 10; `judge league` at 10,000 within 2 s from its index
and 60 s from nothing.

The finished games are copies of one short bot game of mogul (tests/archivekit.py: three of 52
players each, their own salt and commitment, an end a minute apart, 200 games a month), with
the site's files of each made the same way, committed in one commit.

    .venv/bin/python bench/archive.py [--sizes 10,100,1000,10000] [--runs 7] [--keep DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "tests"))

from archivekit import Copies, _renamed  # noqa: E402
from bench import cell, machine, run  # noqa: E402

JUDGE = shutil.which("judge", path=str(Path(sys.executable).parent)) or "judge"
FLOOR = [sys.executable, "-c", "import typer"]
TOML = ('address = "judge@judge.test"\ngm = "gm@judge.test"\ngames = "games"\n[maildir]\npath = "outbox"\n'
        '[archive]\ngit = "archive"\nsite = "archive/site"\n')


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=bench", "-c", "user.email=b@b", *args],
                          capture_output=True, text=True, check=True).stdout


def make(root: Path, n: int, copies: Copies) -> dict:
    """An archive of `n` finished games with its site and index, and a running mail game g1
    published into it; what the measurements need to start again from it."""
    from judge.engine.game import Game
    from judge.gateway import inbox
    from judge.league import index
    from judge.mail import mailgame
    from judge.mail.outbox import open_outbox
    from judge.site import build, league, listing, pages
    from judge.store import config as configs, gamefile

    (root / "games").mkdir(parents=True)
    (root / "judge.toml").write_text(TOML)
    repo = root / "archive"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    copies.write(repo, n)
    # the site of each finished game: the template's files, made as its copies' (untimed)
    template = root / "template"
    (template / "mogul").mkdir(parents=True)
    (template / "mogul" / "template.toml").write_text(copies.text)
    build.build(template / "mogul" / "template.toml", template / "site")
    files = {p.suffix: p.read_text() for p in (template / "site" / "mogul").rglob("*") if p.is_file()}
    summary = json.dumps(json.loads((template / "site" / "games.json").read_text())["recent"][0])
    site = repo / "site"
    write = build.Writer(site)
    shown = listing.Listing(site, write)
    for i in range(n):
        renamed = {pages.base("mogul", "template"): pages.base("mogul", f"g{i:05d}"), **copies.names(i)}
        for ending, text in files.items():
            path = site / f"{pages.base('mogul', f'g{i:05d}')}{ending}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_renamed(text, renamed))
        shown.put(json.loads(_renamed(summary, renamed)))
    league.write(site, index.Index(repo).kept(), write)
    build._static(site, write)
    shown.save()
    shutil.rmtree(template)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"{n} finished games")
    # a running mail game of mogul, published once (its record, row and pages)
    cfg = configs.load(root / "judge.toml")
    game = Game.new("mogul", ["alice", "bob", "carol"], seed=3)
    passwords = mailgame.enable(game, {p: f"{p}@players.test" for p in game.players}, [], 0, 0, 0)
    box = open_outbox(cfg)
    box.commit("g1", game, [], lambda: gamefile.create(game, root / "games" / "g1.toml"))
    box.close()
    who = game.awaiting()[0]
    from judge.engine import bots

    message = _mail(who, passwords[who], bots.choose(game, who), "first")
    inbox.handle(message, cfg, open_outbox(cfg), _now())
    base = git(repo, "rev-parse", "HEAD").strip()
    game = gamefile.load(root / "games" / "g1.toml")
    who = game.awaiting()[0]
    shutil.copytree(root / "games", root / "games.pristine")
    shutil.copytree(site, root / "site.pristine")
    row = repo / index.FOLDER / "rows" / "mogul" / "g1.toml.json"
    return {"repo": repo, "base": base, "row": row, "row_bytes": row.read_bytes(),
            "order": ["order", str(root / "games" / "g1.toml"), "--as", who, bots.choose(game, who)],
            "league": _mail(who, passwords[who], "league", "league")}


def _now():
    from datetime import datetime, timezone

    return datetime(2026, 12, 1, 12, tzinfo=timezone.utc)


def _mail(who: str, password: str, line: str, key: str) -> bytes:
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{who}@players.test", "judge@judge.test", "orders"
    msg["Message-ID"] = f"<{key}@players.test>"
    msg.set_content(f"game g1\nplayer {who} {password}\n{line}\n")
    return bytes(msg)


def restore(root: Path, state: dict) -> None:
    """The archive, the site, the game and its row as they were after `make` (untimed)."""
    shutil.rmtree(root / "games")
    shutil.copytree(root / "games.pristine", root / "games")
    git(state["repo"], "reset", "-q", "--hard", state["base"])
    state["row"].write_bytes(state["row_bytes"])


def lock_held(root: Path, cmd: list[str], state: dict) -> float:
    """Seconds between taking and leaving the game's lock in one run of `cmd`."""
    restore(root, state)
    trace = root / "steps"
    trace.unlink(missing_ok=True)
    subprocess.run(cmd, env={**os.environ, "JUDGE_STEPS": str(trace)}, check=True, capture_output=True)
    steps = [line.split() for line in trace.read_text().splitlines()]
    taken = next(float(s[-1]) for s in steps if s[0] == "lock" and s[1] == "g1.toml")
    left = next(float(s[-1]) for s in steps if s[0] == "unlock" and s[1] == "g1.toml")
    return left - taken


def paired_lock(root: Path, cmd: list[str], state: dict, runs: int) -> tuple[list[float], list[float]]:
    """(ratios to the floor, seconds) of the game's lock held in `runs` runs of `cmd`, each
    beside a floor run."""
    ratios, held = [], []
    for i in range(runs + 1):
        if i % 2:
            floor, seconds = run(FLOOR)[0], lock_held(root, cmd, state)
        else:
            seconds, floor = lock_held(root, cmd, state), run(FLOOR)[0]
        if i:
            ratios.append(seconds / floor)
            held.append(seconds)
    return sorted(ratios), held


def paired(cmd: list[str], runs: int, prepare=None, stdin: bytes | None = None) -> tuple[list[float], list[float]]:
    """(ratios to the floor, walls) of `runs` runs of `cmd`, each beside a floor run."""
    ratios, walls = [], []
    for i in range(runs + 1):
        def once():
            if prepare:
                prepare()
            if stdin is None:
                return run(cmd)[0]
            t = time.perf_counter()
            subprocess.run(cmd, input=stdin, capture_output=True, check=True)
            return time.perf_counter() - t
        if i % 2:
            floor, wall = run(FLOOR)[0], once()
        else:
            wall, floor = once(), run(FLOOR)[0]
        if i:
            ratios.append(wall / floor)
            walls.append(wall)
    return sorted(ratios), walls


def measure(n: int, root: Path, copies: Copies, runs: int) -> dict:
    load = os.getloadavg()[0]
    t = time.perf_counter()
    state = make(root, n, copies)
    made = time.perf_counter() - t
    cfg = ["--config", str(root / "judge.toml")]
    order = [JUDGE, *state["order"], *cfg]
    out = {"n": n, "load": load, "made": made}
    out["order"] = paired(order, runs, lambda: restore(root, state))
    out["lock"] = paired_lock(root, order, state, runs)
    out["league_line"] = paired([JUDGE, "mail", *cfg, "--now", "2026-12-01T12:00:00Z"], runs,
                                lambda: restore(root, state), stdin=state["league"])
    restore(root, state)
    out["tick"] = paired([JUDGE, "tick", *cfg, "--now", "2026-12-01T12:00:00Z"], runs)
    out["league_index"] = paired([JUDGE, "league", str(state["repo"])], runs)
    index = state["repo"] / ".judge-index"
    kept = root / "index.kept"
    shutil.copytree(index, kept)
    shutil.rmtree(index)
    t = time.perf_counter()
    subprocess.run([JUDGE, "league", str(state["repo"])], check=True, capture_output=True)
    out["league_nothing"] = time.perf_counter() - t
    shutil.rmtree(index)
    shutil.copytree(kept, index)
    # the repository: its size per game once packed, and what one change adds (loose)
    restore(root, state)
    while (state["repo"] / ".git" / "gc.pid").exists():  # (a gc git started by itself after the commits)
        time.sleep(1)
    git(state["repo"], "gc", "-q")
    packed = sum(f.stat().st_size for f in (state["repo"] / ".git").rglob("*") if f.is_file())
    subprocess.run(order, check=True, capture_output=True)
    loose = json.loads(json.dumps(git(state["repo"], "count-objects", "-v")))
    out["size_per_game"] = packed / n
    out["change_adds"] = int(next(line.split()[1] for line in loose.splitlines() if line.startswith("size:"))) * 1024
    out["load_end"] = os.getloadavg()[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,100,1000,10000")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--keep", default="", help="build the archives in this folder and keep them")
    args = ap.parse_args()
    from judge.mail import passwords

    passwords.N = 2 ** 14  # (the real cost of a password check, the same at every size)
    print("Machine:", machine())
    copies = Copies(1)
    results = []
    print("\n| finished games | order with git and site (ratio to floor; wall) | lock held (the same) | mail `league` line | "
          "`judge tick`, nothing to do | `judge league` from its index | from nothing | repository a game (packed) | "
          "one change adds (loose) | load |")
    print("|---|---|---|---|---|---|---|---|---|---|", flush=True)
    for n in (int(x) for x in args.sizes.split(",")):
        root = Path(args.keep or tempfile.mkdtemp(prefix="judge-archive-")) / f"n{n}"
        if root.exists():
            shutil.rmtree(root)
        results.append(measure(n, root, copies, args.runs))
        r = results[-1]

        def both(key):
            ratios, walls = r[key]
            return f"{cell(ratios)}; {statistics.median(walls) * 1000:.0f} ms"
        print(f"| {r['n']:,} | {both('order')} | {both('lock')} | {both('league_line')} | "
              f"{both('tick')} | {both('league_index')} | {r['league_nothing']:.1f} s | {r['size_per_game'] / 1024:.1f} kB | "
              f"{r['change_adds'] / 1024:.0f} kB | {r['load']:.1f}–{r['load_end']:.1f} |", flush=True)
        if not args.keep:
            shutil.rmtree(root.parent, ignore_errors=True)
    first, last = results[0], results[-1]
    for key, name in (("order", "order"), ("league_line", "mail league line"), ("tick", "tick")):
        grown = statistics.median(last[key][0]) / statistics.median(first[key][0])
        print(f"{name}: {grown:.2f}x from {first['n']:,} to {last['n']:,} games (target <= 1.2)")
    lock = statistics.median(last["lock"][0]) / statistics.median(first["lock"][0])
    print(f"lock held: {lock:.2f}x (target <= 1.2); judge league at {last['n']:,}: "
          f"{statistics.median(last['league_index'][1]):.2f} s from its index (target <= 2), "
          f"{last['league_nothing']:.0f} s from nothing (target <= 60)")


if __name__ == "__main__":
    main()
