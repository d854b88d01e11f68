"""Benchmarks of the judge (never run by the tests). Anyone can run them:

    python bench/bench.py [--runs 11] [--games 100] [--lengths 100,1000,5000] [--only cli,engine,simulate]
                          [--against OTHER_CHECKOUT]

1. Commands at every game length, as paired ratios to the import floors: for every ruleset,
   `judge new`, and `judge order`, `status`, `verify` against `python -c "import typer"`, and
   `judge show` against `python -c "import typer, jinja2"`, on game files with 100, 1,000 and
   5,000 logged orders (a ruleset whose games end sooner is measured at its longest bot game
   found, marked). Each command runs right beside its floor, in alternating order, and the
   ratio of each pair is kept, so a busy machine slows both sides alike; the table shows the
   median ratio and the middle half of them. Targets: new, order, status, show <= 1.3x;
   verify <= 1.5x at 5,000 orders.
2. Engine cost per order: replaying (and submitting, one line at a time) a long bot game of every ruleset.
3. The static site (`judge site`, `[archive] site`): building the site of one finished game
   of each ruleset (its longest bot game found), and the per-change rebuild (`judge order`
   with `[archive] git` and `site` against the same with `git` alone: the difference is the
   site's work), both as ratios to `judge show` of the same game. Target: the per-change
   rebuild at most 3x one `judge show`.
4. `judge simulate` games per second (sensible bots, whole command); with `--against DIR` (say
   `git worktree add DIR COMMIT`), also how much faster than that checkout, as paired ratios
   of CPU time, and whether both print the same summaries.
5. Game pages (`--only pages`): the size of the page of each ruleset's longest bot game found,
   and of its parts (the reports' changes, the move list, the charts). Target: at most 1 MB.

The archive at 10 to 10,000 games (issue 33) is bench/archive.py.

The game files are bot games: `judge play RULESET --bots random --moves N --save FILE` builds
the same kind of file by hand.
"""
from __future__ import annotations

import argparse
import compileall
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine import bots, ruleset
from judge.store import gamefile  # noqa: E402
from judge.engine.errors import UsageError  # noqa: E402
from judge.engine.game import Game  # noqa: E402
from judge.engine.ruleset import GM  # noqa: E402
from judge.engine.simulate import seat_kinds, usual_players  # noqa: E402

SEARCH_GAMES = 64  # bot games tried per ruleset when looking for long ones
LONG_SEEDS = 40  # of them, seeds of random bots at the most players
GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    import jinja2
    import typer

    return (f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; {cpu}, {os.cpu_count()} cores, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, typer {typer.__version__}, Jinja2 "
            f"{jinja2.__version__}; load average at start {load}")


# ---- long games ---------------------------------------------------------------------------
def option_sets(rs) -> list[dict]:
    """Options that make long games first (numbers as high as accepted), then each other
    choice and each flipped switch."""
    raised = {}
    for o in rs.options:
        if isinstance(o.default, int) and not isinstance(o.default, bool):
            for value in range(o.default * 4, o.default, -1):
                try:
                    Game.new(rs.name, bots.NAMES[:rs.max_players], seed=0, options={o.name: value})
                except UsageError:
                    continue
                raised[o.name] = value
                break
    sets = [raised] if raised else []
    sets.append({})
    for o in rs.options:
        if isinstance(o.default, bool):
            sets.append({o.name: not o.default})
        sets += [{o.name: c} for c in o.choices if c != o.default]
    return sets


def configs(rs):
    """(players, options, seed, bot kinds) of the games to search, likeliest to be long first:
    random bots at the most players with the longest options, on many seeds (the longest games
    of stock-round are rare: 1,291 orders in 400 games), then two seeds of everything else."""
    sets, most = option_sets(rs), min(rs.max_players, len(bots.NAMES))
    for seed in range(LONG_SEEDS):
        yield most, sets[0], seed, ["random"]
    for options in sets:
        for n in range(most, rs.min_players - 1, -1):
            for seed in range(2):
                for kinds in (["random"], ["sensible"]):
                    if (n, options, kinds) != (most, sets[0], ["random"]):
                        yield n, options, seed, kinds


def play(rs, config, moves: int | None = None) -> Game:
    n, options, seed, kinds = config
    game = Game.new(rs.name, bots.NAMES[:n], seed=seed, options=options)
    bots.play_out(game, seat_kinds(kinds, game.players, 0), moves=moves)
    return game


def long_games(rs) -> list[tuple[int, tuple]]:
    """(length, config) of up to SEARCH_GAMES whole bot games, longest first."""
    found = []
    for config in configs(rs):
        try:
            found.append((len(play(rs, config).log), config))
        except UsageError:
            continue
        if len(found) >= SEARCH_GAMES:
            break
    return sorted(found, key=lambda f: -f[0])


def longest(name: str) -> Game:
    """The longest bot game found of ruleset `name`, played to its end."""
    rs = ruleset.get(name)
    return play(rs, long_games(rs)[0][1])


def running_game(rs, games, n: int) -> Game:
    """A running game with `n` logged orders, or the longest found cut before its end."""
    longer = [config for length, config in games if length > n]
    if longer:
        return play(rs, longer[-1], moves=n)
    length, config = games[0]
    return play(rs, config, moves=length - 1)


# ---- timing --------------------------------------------------------------------------------
def run(cmd: list[str], prepare=None) -> tuple[float, int]:
    """Wall time and peak memory (KiB; 0 when unknown) of one command, after `prepare()` (not
    timed). The memory is measured by GNU time, which starts the command from its own process."""
    if prepare:
        prepare()
    with tempfile.NamedTemporaryFile("r") as out:
        full = [GNU_TIME, "-f", "%M", "-o", out.name, *cmd] if GNU_TIME else cmd
        t = time.perf_counter()
        p = subprocess.run(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t
        if p.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed: {p.stderr.decode()}")
        peak = int(out.read().split()[-1]) if GNU_TIME else 0
    return wall, peak


def paired(cases: dict, runs: int) -> dict:
    """cases: name -> (floor cmd, cmd, prepare). Each run times every command right beside its
    floor (which goes first alternates). Returns name -> (ratios sorted, cmd walls, floor walls, peak KiB)."""
    out = {k: ([], [], [], 0) for k in cases}
    for i in range(runs + 1):
        for k, (floor, cmd, prepare) in cases.items():
            first, second = ((floor, None), (cmd, prepare)) if i % 2 else ((cmd, prepare), (floor, None))
            a, b = run(*first), run(*second)
            (f, c) = (a, b) if i % 2 else (b, a)
            if i == 0:
                continue  # warm-up: disk cache, compiled templates and data
            ratios, walls, floors, peak = out[k]
            ratios.append(c[0] / f[0])
            walls.append(c[0])
            floors.append(f[0])
            out[k] = (ratios, walls, floors, max(peak, c[1]))
    return {k: (sorted(r), w, f, p) for k, (r, w, f, p) in out.items()}


def cell(ratios: list[float]) -> str:
    q = len(ratios) // 4
    return f"{statistics.median(ratios):.2f} ({ratios[q]:.2f}–{ratios[-1 - q]:.2f})"


def cli(runs: int, lengths: list[int], names: list[str]) -> None:
    # As installed: the judge's modules compiled (pip does it; PYTHONDONTWRITEBYTECODE may not).
    compileall.compile_dir(Path(__file__).resolve().parent.parent / "judge", quiet=1)
    judge = shutil.which("judge", path=str(Path(sys.executable).parent)) or "judge"
    typer_floor = [sys.executable, "-c", "import typer"]
    jinja_floor = [sys.executable, "-c", "import typer, jinja2"]
    print(f"\n## Commands: ratio to the import floor (median of {runs} pairs; middle half in brackets)\n")
    print("| ruleset | logged orders | new | order | status | show | verify |")
    print("|---|---|---|---|---|---|---|")
    floors, worst = [], {}
    for name in names:
        rs = ruleset.get(name)
        games = long_games(rs)
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            new_file = d / "new.toml"
            new_cmd = [judge, "new", name, str(new_file), *sum((["-p", p] for p in bots.NAMES[:usual_players(rs)]), [])]
            new = None
            done = set()
            for n in lengths:
                game = running_game(rs, games, n)
                logged = len(game.log)
                if logged in done:
                    continue
                done.add(logged)
                path, pristine = d / f"g{logged}.toml", d / f"p{logged}.toml"
                gamefile.create(game, pristine)
                shutil.copyfile(pristine, path)
                who = game.awaiting()[0]
                order = bots.choose(game, who)
                as_ = ["--gm"] if who == GM else ["--as", who]
                reader = next((p for p in game.awaiting() if p != GM), game.players[0])
                cases = {
                    "order": (typer_floor, [judge, "order", str(path), *as_, order], lambda: shutil.copyfile(pristine, path)),
                    "status": (typer_floor, [judge, "status", str(path)], None),
                    "show": (jinja_floor, [judge, "show", str(path), "--as", reader], None),
                    "verify": (typer_floor, [judge, "verify", str(path)], None),
                }
                if new is None:
                    cases["new"] = (typer_floor, new_cmd, lambda: new_file.unlink(missing_ok=True))
                res = paired(cases, runs)
                if "new" in res:
                    new = res.pop("new")
                    worst["new"] = max(worst.get("new", 0), statistics.median(new[0]))
                for k, (ratios, _, f, _) in res.items():
                    worst[k] = max(worst.get(k, 0), statistics.median(ratios))
                    floors += f
                mark = "" if logged == n else f" (longest found; its game ends at {logged + 1})"
                first = cell(new[0]) if len(done) == 1 else ""
                print(f"| {name} | {logged}{mark} | {first} | " + " | ".join(cell(res[k][0]) for k in ("order", "status", "show", "verify")) + " |",
                      flush=True)
    print(f"\nFloors: median {statistics.median(floors) * 1000:.0f} ms over all pairs. Worst median ratio: "
          + ", ".join(f"{k} {v:.2f}" for k, v in worst.items())
          + " (targets: new, order, status, show <= 1.3; verify <= 1.5 at 5,000 orders)")


# ---- engine --------------------------------------------------------------------------------
def best_of(runs: int, fn) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def engine(runs: int, names: list[str]) -> None:
    print(f"\n## Engine cost per order (the longest bot game found, best of {runs} runs)\n")
    print("| ruleset | players | options | orders | replay us/order | submit us/order |")
    print("|---|---|---|---|---|---|")
    for name in names:
        game = longest(name)
        rs = game.ruleset
        replay = best_of(runs, game.replay) / len(game.log)

        def submit_all():
            g = Game.new(rs.name, game.players, seed=game.rng.seed, options=game.options, setup=game.setup)
            for entry in game.log:
                _, player, text = entry.split(" ", 2)
                g.submit(player, [text])

        submit = best_of(max(1, runs // 3), submit_all) / len(game.log)
        opts = ", ".join(f"{k}={v}" for k, v in game.options.items() if v != rs.option(k).default) or "defaults"
        print(f"| {rs.name} | {len(game.players)} | {opts} | {len(game.log)} | {replay * 1e6:.1f} | {submit * 1e6:.1f} |")


# ---- site ----------------------------------------------------------------------------------
def site(runs: int, names: list[str]) -> None:
    compileall.compile_dir(Path(__file__).resolve().parent.parent / "judge", quiet=1)
    judge = shutil.which("judge", path=str(Path(sys.executable).parent)) or "judge"
    print(f"\n## The static site: ratio to `judge show` of the same game (median of {runs}; middle half in brackets)\n")
    print("| ruleset | logged orders | judge show | judge site (one finished game) | per-change rebuild (order with site - order without) |")
    print("|---|---|---|---|---|")
    worst = 0.0
    for name in names:
        rs = ruleset.get(name)
        _, config = long_games(rs)[0]
        whole = play(rs, config)
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            done = d / "done.toml"
            gamefile.create(whole, done)
            running = play(rs, config, moves=len(whole.log) - 1)  # one order before its end
            who = running.awaiting()[0]
            order = bots.choose(running, who)
            as_ = ["--gm"] if who == GM else ["--as", who]
            shows, sites, changes = [], [], []
            setups = {}
            for kind in ("plain", "site"):
                base = d / kind
                base.mkdir()
                subprocess.run(["git", "init", "-q", str(base / "archive")], check=True)
                (base / "judge.toml").write_text('address = "judge@example.org"\ngm = "gm@example.org"\ngames = "."\n'
                                                 '[maildir]\npath = "out"\n[archive]\ngit = "archive"\n'
                                                 + ('site = "archive/site"\n' if kind == "site" else ""))
                pristine = base / "pristine.toml"
                gamefile.create(running, pristine)
                path = base / "g.toml"
                shutil.copyfile(pristine, path)
                cfg = ["--config", str(base / "judge.toml")]
                # the archive (and site) as they stand before the last order: made once, untimed
                subprocess.run([judge, "archive", str(path), "--git", str(base / "archive")], check=True, capture_output=True)
                if kind == "site":
                    from judge.site import build as site_build
                    from judge.store import config as configs

                    c = configs.load(base / "judge.toml")
                    assert site_build.update(c.site, gamefile.load(path), path, c.archive) == ""
                subprocess.run(["git", "-C", str(base / "archive"), "add", "-A"], check=True)
                subprocess.run(["git", "-C", str(base / "archive"), "-c", "user.name=b", "-c", "user.email=b@b",
                                "commit", "-q", "--allow-empty", "-m", "start"], check=True)
                head = subprocess.run(["git", "-C", str(base / "archive"), "rev-parse", "HEAD"], capture_output=True,
                                      text=True, check=True).stdout.strip()

                def reset(base=base, pristine=pristine, path=path, head=head):
                    shutil.copyfile(pristine, path)
                    subprocess.run(["git", "-C", str(base / "archive"), "reset", "-q", "--hard", head], check=True)
                setups[kind] = ([judge, "order", str(path), *as_, order, *cfg], reset)
            for i in range(runs + 1):
                show = run([judge, "show", str(done)])[0]
                out = d / "site-out"
                built = run([judge, "site", str(done), str(out)], lambda out=out: shutil.rmtree(out, ignore_errors=True))[0]
                plain = run(*setups["plain"])[0]
                with_site = run(*setups["site"])[0]
                if i == 0:
                    continue
                shows.append(show)
                sites.append(built / show)
                changes.append((with_site - plain) / show)
            worst = max(worst, statistics.median(changes))
            print(f"| {name} | {len(whole.log)} | {statistics.median(shows) * 1000:.0f} ms | {cell(sorted(sites))} | "
                  f"{cell(sorted(changes))} |", flush=True)
    print(f"\nWorst median per-change rebuild: {worst:.2f}x one judge show (target <= 3)")


# ---- pages ---------------------------------------------------------------------------------
def page_sizes(names: list[str]) -> None:
    """The size of the page of each ruleset's longest bot game found, and of its parts."""
    import re

    from judge.record import public
    from judge.site import build as site_build, pages

    print("\n## Game pages: the longest bot game found of each ruleset (uncompressed bytes)\n")
    print("| ruleset | logged orders | moves | page | reports (JSON of changes) | move list | charts and their numbers | gzip |")
    print("|---|---|---|---|---|---|---|---|")
    import gzip

    for name in names:
        game = longest(name)
        record = public.build(game, "longest")
        page = pages.game_page(record, site_build.audit(record))

        def part(pattern):
            found = re.search(pattern, page, re.S)
            return len(found[0].encode()) if found else 0
        size = len(page.encode())
        print(f"| {name} | {len(game.log)} | {game.move} | {size / 1e6:.2f} MB | "
              f"{part(r'<script type=.application/json. id=.reports.>.*?</script>') / 1e3:.0f} kB | "
              f"{part(r'<section id=.moves.>.*?</section>') / 1e3:.0f} kB | "
              f"{part(r'<section id=.charts.>.*?</section>') / 1e3:.0f} kB | {len(gzip.compress(page.encode())) / 1e3:.0f} kB |",
              flush=True)


# ---- simulate ------------------------------------------------------------------------------
def simulate(games: int, names: list[str], against: str = "", pairs: int = 3) -> None:
    """Games per second; with `against` (another checkout of the judge, run with the same
    Python), also how much faster, as paired ratios of CPU time, and whether both print the
    same summaries (the line about exchanges, newer than some checkouts, left out)."""
    print(f"\n## judge simulate ({games} games, sensible bots, seed 1, whole command)\n")
    if not against:
        print("| ruleset | players | games/s |")
        print("|---|---|---|")
    else:
        print(f"Against {against}, {pairs} pairs, alternating which goes first.\n")
        print("| ruleset | players | games/s | games/s against | faster (CPU time) | same summaries |")
        print("|---|---|---|---|---|---|")
    here = str(Path(__file__).resolve().parent.parent)
    for name in names:
        n = usual_players(ruleset.get(name))
        cmd = [sys.executable, "-m", "judge", "simulate", name, "--players", str(n), "--games", str(games), "--seed", "1"]
        if not against:
            compileall.compile_dir(Path(here) / "judge", quiet=1)
            wall, _ = run(cmd)
            print(f"| {name} | {n} | {games / wall:.1f} |", flush=True)
            continue
        ratios, rates, same = [], {here: [], against: []}, True
        for tree in (here, against):  # once each untimed (compiled modules and data caches written)
            compileall.compile_dir(Path(tree) / "judge", quiet=1)  # (as installed, whatever PYTHONDONTWRITEBYTECODE says)
            _simulate_in(tree, cmd[:-4] + ["--games", "1", "--seed", "1"])
        for i in range(pairs):
            got = {tree: _simulate_in(tree, cmd) for tree in ((here, against) if i % 2 == 0 else (against, here))}
            ratios.append(got[against][0] / got[here][0])
            same &= got[here][2] == got[against][2]
            for tree, (_, wall, _) in got.items():
                rates[tree].append(games / wall)
        print(f"| {name} | {n} | {_span(rates[here], 1)} | {_span(rates[against], 1)} | {_span(ratios, 2)}× | "
              f"{'yes' if same else 'NO'} |", flush=True)


def _simulate_in(tree: str, cmd: list[str]) -> tuple[float, float, list[str]]:
    """CPU seconds, wall seconds and summary lines of `cmd` run with the judge of `tree`."""
    import resource

    before, t = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    out = subprocess.run(cmd, env={**os.environ, "PYTHONPATH": tree}, cwd=tempfile.gettempdir(),
                         capture_output=True, text=True, check=True).stdout
    wall, after = time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return cpu, wall, [line for line in out.splitlines() if not line.startswith("exchanges")]


def _span(values: list[float], digits: int) -> str:
    return f"{min(values):.{digits}f}–{max(values):.{digits}f}"


def main() -> None:
    ap = argparse.ArgumentParser(description="Benchmarks of the judge")
    ap.add_argument("--runs", type=int, default=11, help="pairs per command")
    ap.add_argument("--games", type=int, default=100, help="games per ruleset for simulate")
    ap.add_argument("--lengths", default="100,1000,5000", help="logged orders of the game files")
    ap.add_argument("--only", default="cli,engine,site,simulate,pages")
    ap.add_argument("--rulesets", default=",".join(rs.name for rs in ruleset.every()))
    ap.add_argument("--against", default="", help="another checkout: simulate compared with it (paired CPU time)")
    args = ap.parse_args()
    names = args.rulesets.split(",")
    only = args.only.split(",")
    print("Machine:", machine())
    if "cli" in only:
        cli(args.runs, [int(n) for n in args.lengths.split(",")], names)
    if "engine" in only:
        engine(args.runs, names)
    if "site" in only:
        site(args.runs, names)
    if "simulate" in only:
        simulate(args.games, names, args.against)
    if "pages" in only:
        page_sizes(names)


if __name__ == "__main__":
    main()
