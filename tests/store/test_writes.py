"""No write follows a link (issue 44, item 9): judge/engine/writes.py is the only module of
judge/ that opens a file for writing, makes a folder, renames, removes or touches one; what
it writes never goes through a symbolic link below the folder named (`base`), nor through a
link at the file itself (an atomic write replaces the link; an append, a lock or a new file
is refused)."""
from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from judge.engine import writes
from judge.engine.errors import LinkRefused, UsageError

JUDGE = Path(__file__).parents[2] / "judge"
ONE_DOOR = JUDGE / "engine" / "writes.py"
# Calls that write, make, move, remove or change a file or folder: a Path's (whatever the
# object), and those of the modules os, shutil and tempfile.
PATH_WRITES = {"write_text", "write_bytes", "mkdir", "touch", "rename", "unlink", "rmdir", "chmod", "lchmod",
               "symlink_to", "hardlink_to", "link_to"}
MODULE_WRITES = {
    "os": {"rename", "renames", "replace", "remove", "unlink", "removedirs", "rmdir", "mkdir", "makedirs", "link",
           "symlink", "utime", "chmod", "fchmod", "lchmod", "chown", "fchown", "lchown", "truncate", "ftruncate",
           "mkfifo", "mknod"},
    "shutil": {"copy", "copy2", "copyfile", "copytree", "copymode", "copystat", "move", "rmtree", "chown"},
    "tempfile": {"mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryDirectory", "TemporaryFile",
                 "SpooledTemporaryFile"},
}
WRITING_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}
# The only writes outside judge/engine/writes.py, each with its reason: (file, line's text).
ALLOWED = {
    # git writes into the archive on its own: run only under the archive's lock, which is taken
    # through open_write below the archive (so .git is no link) (judge/record/archive.py).
    ("judge/record/archive.py", "subprocess.run"),
}


def writing_calls(path: Path) -> list[str]:
    """Each call in `path` that writes on disk by itself: "LINE: TEXT"."""
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func, what = node.func, None
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        owner = _dotted(func.value) if isinstance(func, ast.Attribute) else ""
        if owner == "writes":
            continue
        if name in MODULE_WRITES.get(owner, ()) or (owner not in MODULE_WRITES and name in PATH_WRITES):
            what = name
        elif name == "replace" and owner not in MODULE_WRITES and len(node.args) == 1 and not node.keywords:
            what = "replace"  # Path.replace (str.replace takes two arguments, datetime's keywords)
        elif name in ("open", "fdopen") and _write_mode(node):
            what = f"{name} for writing"
        elif name == "open" and isinstance(func, ast.Attribute) and _dotted(func.value) == "os" and (
                {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)} & WRITING_FLAGS):
            what = "os.open for writing"
        elif name == "run" and isinstance(func, ast.Attribute) and _dotted(func.value) == "subprocess":
            what = "subprocess.run"
        if what:
            found.append(f"{node.lineno}: {what}: {ast.get_source_segment(path.read_text('utf-8'), node)[:80]}")
    return found


def _dotted(node) -> str:
    return node.id if isinstance(node, ast.Name) else ""


def _write_mode(node: ast.Call) -> bool:
    modes = [a for a in node.args[1:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    modes += [k.value for k in node.keywords if k.arg == "mode" and isinstance(k.value, ast.Constant)]
    return any(set(str(m.value)) & set("wax+") for m in modes)


def test_no_module_but_writes_py_writes_on_its_own():
    found, allowed = [], set()
    for path in sorted(JUDGE.rglob("*.py")):
        if path == ONE_DOOR:
            continue
        where = str(path.relative_to(JUDGE.parent))
        for call in writing_calls(path):
            kind = (where, call.split(": ")[1])
            (allowed.add(kind) if kind in ALLOWED else found.append(f"{where}:{call}"))
    assert not found, "write through judge/engine/writes.py (open_write and its helpers) instead:\n" + "\n".join(found)
    assert allowed == ALLOWED  # (an allowance no longer needed goes)


def test_the_guard_sees_every_kind_of_write(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os, shutil\nfrom pathlib import Path\n"
                      "open(p, 'a')\nopen(p, mode='w')\nPath(p).write_text('x')\nPath(p).mkdir()\n"
                      "os.replace(a, b)\nPath(a).replace(b)\nos.open(p, os.O_RDWR | os.O_CREAT)\nos.rename(a, b)\n"
                      "shutil.rmtree(p)\nos.unlink(p)\nos.remove(p)\nos.fdopen(fd, 'wb')\n"
                      "open(p)\nopen(p, 'rb')\nos.open(p, os.O_RDONLY)\n'a'.replace('a', 'b')\nxs.remove(1)\n"
                      "when.replace(tzinfo=None)\n")
    kinds = [line.split(": ")[1] for line in writing_calls(sample)]
    assert kinds == ["open for writing", "open for writing", "write_text", "mkdir", "replace", "replace",
                     "os.open for writing", "rename", "rmtree", "unlink", "remove", "fdopen for writing"]


@pytest.fixture
def outside(tmp_path):
    """A folder outside the judge's, with a file in it, and the folder the judge writes in."""
    out = tmp_path / "outside"
    out.mkdir()
    (out / "kept").write_text("not the judge's")
    (out / "kept").chmod(0o644)
    mine = tmp_path / "mine"
    mine.mkdir()
    return mine, out


def untouched(out: Path) -> None:
    assert sorted(os.listdir(out)) == ["kept"]
    assert (out / "kept").read_text() == "not the judge's" and (out / "kept").stat().st_mode & 0o777 == 0o644


def test_a_folder_below_the_base_that_is_a_link_is_refused_by_every_write(outside):
    mine, out = outside
    (mine / "sub").symlink_to(out)
    attempts = [
        lambda: writes.write_atomic(mine / "sub" / "kept", b"x", base=mine),
        lambda: writes.write_atomic(mine / "sub" / "new", b"x", base=mine, folders=0o700),
        lambda: writes.write_new(mine / "sub" / "new", b"x", base=mine),
        lambda: writes.append(mine / "sub" / "kept", b"x", base=mine, narrow=True),
        lambda: writes.open_write(mine / "sub" / "lock", os.O_RDWR | os.O_CREAT, base=mine),
        lambda: writes.make_folder(mine / "sub" / "deeper", mine),
        lambda: writes.touch(mine / "sub" / "kept", base=mine),
        lambda: writes.rename(mine / "sub" / "kept", mine / "sub" / "moved", mine),
        lambda: writes.remove(mine / "sub" / "kept", mine),
        lambda: writes.remove_tree(mine / "sub" / "deeper", mine),
        lambda: writes.check_below(mine, mine / "sub"),
    ]
    for attempt in attempts:
        with pytest.raises(LinkRefused, match="sub is a symbolic link: the judge never writes through one"):
            attempt()
        untouched(out)


def test_a_link_deeper_down_is_refused_too_and_the_refusal_is_an_oserror_and_a_usage_error(outside):
    mine, out = outside
    (mine / "a" / "b").mkdir(parents=True)
    (mine / "a" / "b" / "c").symlink_to(out)
    with pytest.raises(LinkRefused) as refused:
        writes.write_atomic(mine / "a" / "b" / "c" / "d" / "e", b"x", base=mine, folders=0o700)
    assert isinstance(refused.value, OSError) and isinstance(refused.value, UsageError)
    assert str(refused.value) == (f"{mine / 'a' / 'b' / 'c'} is a symbolic link: the judge never writes through one "
                                  "(remove it, and the judge writes a folder of its own there)")
    untouched(out)


def test_a_file_that_is_a_link_is_replaced_by_an_atomic_write_and_refused_by_the_others(outside):
    mine, out = outside
    (mine / "log").symlink_to(out / "kept")
    for attempt in (lambda: writes.append(mine / "log", b"x", narrow=True),
                    lambda: writes.open_write(mine / "log", os.O_RDWR | os.O_CREAT),
                    lambda: writes.touch(mine / "log"),
                    lambda: writes.check_file(mine / "log")):
        with pytest.raises(LinkRefused, match="log is a symbolic link"):
            attempt()
    with pytest.raises(FileExistsError):
        writes.write_new(mine / "log", b"x")
    with pytest.raises(FileExistsError):
        writes.write_atomic(mine / "log", b"x", replace=False)
    untouched(out)
    writes.write_atomic(mine / "log", b"the judge's")
    assert not (mine / "log").is_symlink() and (mine / "log").read_bytes() == b"the judge's"
    untouched(out)
    (mine / "gone").symlink_to(out / "new")  # a link to nothing: nothing made at its target
    with pytest.raises(LinkRefused):
        writes.append(mine / "gone", b"x")
    untouched(out)


def test_the_base_itself_is_trusted_as_named_and_folders_are_made_with_their_mode(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    named = tmp_path / "named"
    named.symlink_to(real)  # the game master's own link to the folder they name: followed
    writes.make_folder(named / "x" / "y", named, 0o700)
    writes.append(named / "x" / "y" / "log", b"one\n", base=named)
    writes.append(named / "x" / "y" / "log", b"two\n", base=named)
    assert (real / "x" / "y" / "log").read_bytes() == b"one\ntwo\n"
    assert (real / "x").stat().st_mode & 0o777 == 0o700 & ~_umask()
    writes.write_atomic(tmp_path / "new" / "site" / "index.html", b"x", base=tmp_path / "new" / "site", folders=0o777)
    assert (tmp_path / "new" / "site" / "index.html").read_bytes() == b"x"


def test_an_append_narrows_a_wider_log_on_the_file_itself(tmp_path):
    log = tmp_path / "g1.mail.log"
    log.write_text("earlier\n")
    log.chmod(0o644)
    writes.append(log, b"later\n", 0o600, narrow=True)
    assert log.read_text() == "earlier\nlater\n" and log.stat().st_mode & 0o777 == 0o600


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
