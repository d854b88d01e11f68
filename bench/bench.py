"""Benchmarks of the judge (never run by the tests). Anyone can run them:

    python bench/bench.py [--runs 15] [--games 200]

1. Engine cost per order: replaying (and submitting) a long bot game of every registered ruleset.
   Target <= 50 us per order.
2. `judge order` on a game file with 500 logged orders, as a ratio of its wall time to
   `python -c "import typer"` (target <= 1.3x), and `judge show` to `python -c "import typer,
   jinja2"` (target <= 1.3x); the peak memory (max RSS) of each. Runs are interleaved and the
   median is taken, so a busy machine slows both sides alike.
3. `judge simulate` games per second (sensible bots, whole command).
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge import bots, gamefile, ruleset  # noqa: E402
from judge.errors import UsageError  # noqa: E402
from judge.game import Game  # noqa: E402
from judge.simulate import usual_players  # noqa: E402

FILE_ORDERS = 500


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}; load average at start {load}")


def option_sets(rs) -> list[dict]:
    flips = {o.name: not o.default for o in rs.options if isinstance(o.default, bool)}
    return [{}, flips, *({k: v} for k, v in flips.items())]


def long_game(rs, at_least: int) -> Game:
    """A bot game of `rs` with at least `at_least` orders if one is found, else the longest."""
    best = None
    for options in option_sets(rs):
        for n in range(min(rs.max_players, len(bots.NAMES)), rs.min_players - 1, -1):
            for seed in range(8):
                try:
                    game = Game.new(rs.name, bots.NAMES[:n], seed=seed, options=options)
                except UsageError:
                    break
                bots.play_out(game)
                if best is None or len(game.log) > len(best.log):
                    best = game
                if len(best.log) >= at_least:
                    return best
    return best


def best_of(runs: int, fn) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def engine(runs: int) -> None:
    print("\n## Engine cost per order (long bot game, best of", runs, "runs)\n")
    print("| ruleset | players | options | orders | replay us/order | submit us/order |")
    print("|---|---|---|---|---|---|")
    for rs in ruleset.every():
        game = long_game(rs, FILE_ORDERS)
        replay = best_of(runs, game.replay) / len(game.log)

        def submit_all():
            g = Game.new(rs.name, game.players, seed=game.rng.seed, options=game.options, setup=game.setup)
            for entry in game.log:
                _, player, text = entry.split(" ", 2)
                g.submit(player, [text])

        submit = best_of(max(1, runs // 3), submit_all) / len(game.log)
        opts = ", ".join(f"{k}={v}" for k, v in game.options.items() if v != rs.option(k).default) or "defaults"
        print(f"| {rs.name} | {len(game.players)} | {opts} | {len(game.log)} | {replay * 1e6:.1f} | {submit * 1e6:.1f} |")


GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def run(cmd: list[str], restore: tuple[Path, Path] | None = None) -> tuple[float, int]:
    """Wall time and peak memory (KiB; 0 when unknown) of one command. The memory is measured
    by GNU time, which starts the command from its own small process: a child forked from this
    one would count this process's memory as its own."""
    if restore:
        shutil.copyfile(*restore)
    with tempfile.NamedTemporaryFile("r") as out:
        full = [GNU_TIME, "-f", "%M", "-o", out.name, *cmd] if GNU_TIME else cmd
        t = time.perf_counter()
        p = subprocess.run(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t
        if p.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed: {p.stderr.decode()}")
        peak = int(out.read().split()[-1]) if GNU_TIME else 0
    return wall, peak


def file_game(folder: Path) -> tuple[Path, str, str, str]:
    """A game file with FILE_ORDERS logged orders of the first ruleset whose games run that long."""
    for rs in ruleset.every():
        game = long_game(rs, FILE_ORDERS + 1)
        if len(game.log) > FILE_ORDERS:
            break
    short = Game.new(game.ruleset.name, game.players, seed=game.rng.seed, options=game.options, setup=game.setup)
    for entry in game.log[:FILE_ORDERS]:
        _, player, text = entry.split(" ", 2)
        short.submit(player, [text])
    path = folder / "game.toml"
    gamefile.create(short, path)
    player = short.awaiting()[0]
    return path, short.ruleset.name, player, bots.choose(short, player)


def cli(runs: int) -> None:
    # As installed: the judge's modules compiled (pip does it; PYTHONDONTWRITEBYTECODE may not).
    compileall.compile_dir(Path(__file__).resolve().parent.parent / "judge", quiet=1)
    judge = shutil.which("judge", path=str(Path(sys.executable).parent)) or "judge"
    py = sys.executable
    with tempfile.TemporaryDirectory() as d:
        path, name, player, order = file_game(Path(d))
        pristine = Path(d) / "pristine.toml"
        shutil.copyfile(path, pristine)
        logged = len(gamefile.load(path).log)
        cases = {
            "python -c 'import typer'": ([py, "-c", "import typer"], None),
            f"judge order ({logged} logged orders)": ([judge, "order", str(path), "--as", player, order], (pristine, path)),
            "python -c 'import typer, jinja2'": ([py, "-c", "import typer, jinja2"], None),
            f"judge show --as {player}": ([judge, "show", str(path), "--as", player], None),
        }
        results = {k: [] for k in cases}
        for cmd, restore in cases.values():  # warm up: disk cache, compiled templates
            run(cmd, restore)
        for _ in range(runs):
            for k, (cmd, restore) in cases.items():
                results[k].append(run(cmd, restore))
    med = {k: (statistics.median(w for w, _ in v), max(m for _, m in v)) for k, v in results.items()}
    print(f"\n## Command line ({name} game file, median of {runs} interleaved runs)\n")
    print("| command | wall ms | peak memory MiB |")
    print("|---|---|---|")
    for k, (wall, mem) in med.items():
        print(f"| {k} | {wall * 1000:.1f} | {mem / 1024:.1f} |")
    keys = list(med)
    print(f"\njudge order / import typer = {med[keys[1]][0] / med[keys[0]][0]:.2f}x (target <= 1.3x)")
    print(f"judge show / import typer, jinja2 = {med[keys[3]][0] / med[keys[2]][0]:.2f}x (target <= 1.3x)")


def simulate(games: int) -> None:
    judge = shutil.which("judge", path=str(Path(sys.executable).parent)) or "judge"
    print(f"\n## judge simulate ({games} games, sensible bots, whole command)\n")
    print("| ruleset | players | games/s |")
    print("|---|---|---|")
    for rs in ruleset.every():
        n = usual_players(rs)
        wall, _ = run([judge, "simulate", rs.name, "--players", str(n), "--games", str(games), "--seed", "1"])
        print(f"| {rs.name} | {n} | {games / wall:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description="Benchmarks of the judge")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    print("Machine:", machine())
    engine(args.runs)
    cli(args.runs)
    simulate(args.games)


if __name__ == "__main__":
    main()
