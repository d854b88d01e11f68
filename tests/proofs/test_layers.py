"""The architecture, as the folder list shows it: each package of judge/ imports only from the
packages below it (function-local imports too), and no modules import each other in a circle.

From the bottom: the engine; the rulesets (found by the engine's registry by name, never
imported by it); the game file and judge.toml (store); the public record, history,
corrections and the git archive (record); the league and the static site, read from public
records; the publishing step that derives them from a saved game (publish); a game's mail (mail); one change, the unit of work every entry point uses (change);
reading messages and the deadlines (gateway); the command line on top."""
from __future__ import annotations

import ast
from pathlib import Path

JUDGE = Path(__file__).parents[2] / "judge"
LAYERS = ["engine", "rulesets", "store", "record", "league", "site", "publish", "mail", "change", "gateway", "cli"]


def module_of(path: Path) -> str:
    parts = list(path.relative_to(JUDGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("cli", "__main__"):
        return "cli"
    return parts[1]


def imports() -> dict[str, set[str]]:
    """Every judge module and the judge modules it imports, anywhere in its text."""
    modules = {module_of(p): p for p in JUDGE.rglob("*.py")}
    found = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            out |= {t for t in targets if t.startswith("judge") and t != name}
        found[name] = {t for t in out if t in modules}
    return found


def test_every_module_is_in_a_layer():
    unknown = {m for m in imports() if layer(m) not in LAYERS}
    assert not unknown, f"modules outside the layers {LAYERS}: {sorted(unknown)}"


def test_no_package_imports_from_above():
    upward = [f"{m} ({layer(m)}) imports {t} ({layer(t)})" for m, targets in sorted(imports().items())
              for t in sorted(targets) if LAYERS.index(layer(t)) > LAYERS.index(layer(m))]
    assert not upward, "imports from a layer above:\n" + "\n".join(upward)


def test_no_import_cycles():
    graph = imports()
    cycles, state = [], {}

    def visit(m, path):
        state[m] = "open"
        for t in sorted(graph[m]):
            if state.get(t) == "open":
                cycles.append(" -> ".join(path[path.index(t):] + [t]))
            elif t not in state:
                visit(t, path + [t])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles, "modules importing each other in a circle:\n" + "\n".join(cycles)
