"""Text reports: Jinja2 templates under templates/<ruleset>/ render a view, never the state."""
from __future__ import annotations

from functools import lru_cache

from .paths import resource


@lru_cache(maxsize=1)
def _env():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resource("templates"))),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        # Compiled templates are cached (in the temporary directory, per user): compiling
        # them costs more than the rest of `judge show`.
        bytecode_cache=jinja2.FileSystemBytecodeCache(),
    )


def render(view: dict, name: str = "report") -> str:
    return _env().get_template(f"{view['ruleset']}/{name}.txt.j2").render(v=view)


def render_standings(rows: list[dict], over: bool) -> str:
    return _env().get_template("standings.txt.j2").render(rows=rows, over=over)
