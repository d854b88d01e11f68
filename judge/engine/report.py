"""Text reports: Jinja2 templates under templates/<ruleset>/ render a view, never the state."""
from __future__ import annotations

from functools import lru_cache

from judge.engine.paths import resource


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


def render_help(rs, topic: str = "") -> str:
    """`judge help RULESET [TOPIC]`: the order words, the report's terms and the rules in short
    (templates/<ruleset>/help.txt.j2), or a topic of it (help-<topic>.txt.j2)."""
    import jinja2

    name = f"{rs.name}/help-{topic}.txt.j2" if topic else f"{rs.name}/help.txt.j2"
    try:
        return _env().get_template(name).render(rs=rs)
    except jinja2.TemplateNotFound:
        from judge.engine.errors import UsageError

        raise UsageError(f"judge help {rs.name} has no topic '{topic}'") from None
