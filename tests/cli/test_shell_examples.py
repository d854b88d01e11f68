"""Every shell example of README.md and docs/*.md runs as printed.

Which blocks count: a fenced block whose fence says ```sh, ```bash or ```console (in a
console block only the lines starting with "$ " are commands). Plain ``` blocks are order
text, reports or mail; ```toml blocks are files. A ```toml or plain block right after an
HTML comment `<!-- file: NAME -->` is written as NAME into the working directory first, so an
example may use it (the README's setup file; `~/` is HOME, the same directory).

How they run: the blocks of one document run in order, each as a bash script with `set -e`
(so every command line must succeed, and the failing line is named), all in one new
temporary directory per document (a later block may use a game an earlier one made), with
`judge` this checkout's (the virtual environment's bin first on PATH; not for the README, whose
blocks activate it themselves as a newcomer must: "judge: command not found" otherwise), `.venv` in that
directory a link to this checkout's virtual environment (so `.venv/bin/judge` works as
printed), HOME the temporary directory and no JUDGE_CONFIG.

Blocks that cannot run here are marked in the document by an HTML comment on the line just
above the fence, `<!-- not run: REASON -->` (installing, running this test suite, a mail
host), and NOT_RUN below lists every one: a new marker fails this test until it is listed,
so the list stays short and deliberate. docs/mail-host.md's `<!-- host: NAME -->` blocks (root,
apt-get, Postfix, cron) are run as they stand by bench/postfix_procmail.sh on a host of their
own, not here.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^(?:<!-- (?P<mark>[^\n]*?) -->\n)?```(?P<lang>[a-z]*)\n(?P<body>.*?)^```$",
                   re.S | re.M)
SHELL = {"sh", "bash", "console"}

# (document, reason) of every block marked <!-- not run: REASON -->
NOT_RUN = [
    ("README.md", "installs the judge; this test runs the installed one"),
    ("README.md", "runs this test suite"),
    ("docs/league.md", "needs a mail host"),
    ("docs/mail-host.md", "needs a mail host (the one the blocks above set up)"),
]


def blocks(path: Path):
    """(line, language, marker, text) of every fenced block of a document."""
    text = path.read_text(encoding="utf-8")
    for m in BLOCK.finditer(text):
        yield text.count("\n", 0, m.start("body")), m["lang"], m["mark"] or "", m["body"]


def script(lang: str, body: str) -> str:
    if lang == "console":
        return "".join(line[2:] + "\n" for line in body.splitlines() if line.startswith("$ "))
    return body


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_blocks_not_run_are_the_listed_ones():
    marked = [(name(doc), mark.removeprefix("not run: "))
              for doc in DOCUMENTS for _, lang, mark, _ in blocks(doc)
              if lang in SHELL and mark.startswith("not run: ")]
    assert marked == NOT_RUN


def test_the_documents_have_shell_examples():
    runnable = [doc for doc in DOCUMENTS for _, lang, mark, _ in blocks(doc)
                if lang in SHELL and not mark]
    assert len(runnable) >= 8 and ROOT / "README.md" in runnable


@pytest.mark.parametrize("doc", DOCUMENTS, ids=name)
def test_every_shell_example_of_a_document_runs_as_printed(doc, tmp_path):
    found = list(blocks(doc))
    for _, _, mark, body in found:
        if mark.startswith("file: "):
            target = tmp_path / mark.removeprefix("file: ").removeprefix("~/")  # HOME is tmp_path
            target.write_text(body, encoding="utf-8")
    venv = Path(sys.executable).parent.parent
    (tmp_path / ".venv").symlink_to(venv)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_", "VIRTUAL_ENV"))}
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and Path(p).resolve() != (venv / "bin").resolve()]
    if doc.name != "README.md":  # (the README is read first: its commands activate the environment, as a newcomer's must)
        path.insert(0, str(venv / "bin"))
    env.update(PATH=os.pathsep.join(path), HOME=str(tmp_path))
    ran = 0
    for line, lang, mark, body in found:
        if lang not in SHELL or mark.startswith(("not run: ", "host: ")):
            continue
        guarded = ("set -eo pipefail; trap 'echo \"failed (exit $?) at line"
                   " $((LINENO - 1)): $BASH_COMMAND\" >&2' ERR\n" + script(lang, body))
        done = subprocess.run(["bash", "-c", guarded], cwd=tmp_path, env=env, text=True,
                              capture_output=True, timeout=600)
        assert done.returncode == 0, (
            f"{name(doc)}, the block at line {line}:\n{body}\n{done.stderr[-3000:]}")
        ran += 1
