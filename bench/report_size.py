"""How long the reports get: the longest report and order block of bot games of every ruleset
and player count, beside the limits tests/engine/test_report_size.py holds them to.

    .venv/bin/python bench/report_size.py        (JUDGE_SIZE_GAMES=N plays N games a count)
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))

from test_order_forms import BLOCK_LIMIT  # noqa: E402
from test_report_size import configs, line_limit, longest_reports  # noqa: E402


def main() -> None:
    for name, n in configs():
        (lines, _), (block, _) = longest_reports(name, n)
        print(f"{name} {n} players: longest report {lines} lines (limit {line_limit(n)}), "
              f"longest order block {block} lines (limit {BLOCK_LIMIT})", flush=True)


if __name__ == "__main__":
    main()
