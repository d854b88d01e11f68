"""Text reports: Jinja2 templates under templates/<ruleset>/ render a view, never the state."""
from __future__ import annotations

import re
from functools import lru_cache

from judge.engine.paths import resources

WIDTH = 78  # every line of a report, answer, notice and help: a mail's line (RFC 5322), a phone


# A short phrase in quotes ('agree end', "resign"), kept on one line by `wrap`: an order or a
# line a player may copy is never split. An apostrophe inside a word (alice's) opens none.
_QUOTED = re.compile(r"""(?<![\w'"])(['"])(?=\S)[^'"\n]{1,30}(?<=\S)\1(?![\w'"])""")
_KEPT_SPACE = "\ue000"  # a character of no text, standing for a space that must not break


def wrap(text: str, hang: int = 4, width: int = WIDTH) -> str:
    """`text` (one line or several) wrapped to `width` columns, each line keeping its own
    indentation and its continuation lines `hang` columns further in. A line that fits, or
    holds one word, is left as it is, byte for byte. A line is broken only at a space: a word
    longer than a line (a commitment's 64 digits, a password) is not cut, and a short phrase
    in quotes ('agree end') is not split. Wrapping twice changes nothing."""
    import textwrap

    out = []
    for line in str(text).split("\n"):
        if len(line) <= width or len(line.split()) < 2:  # (nothing to break)
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())][:width // 3]
        kept = line.strip()
        keep = _KEPT_SPACE not in kept  # (a text holding that character is wrapped without it)
        if keep:
            kept = _QUOTED.sub(lambda m: m[0].replace(" ", _KEPT_SPACE), kept)
        pieces = textwrap.wrap(kept, width, initial_indent=lead, subsequent_indent=lead + " " * hang,
                               break_long_words=False, break_on_hyphens=False)
        out += [piece.replace(_KEPT_SPACE, " ") for piece in pieces] if keep else pieces
    return "\n".join(out)


@lru_cache(maxsize=1)
def _env():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in resources("templates")]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        # Compiled templates are cached (in the temporary directory, per user): compiling
        # them costs more than the rest of `judge show`.
        bytecode_cache=jinja2.FileSystemBytecodeCache(),
    )
    env.filters["wrap"] = wrap
    return env


# The reports this process rendered last, by their view's text: a change renders everyone's
# report before and after it, and the next change's "before" is this one's "after" (judge watch,
# tick, a batch). A template reads nothing but the view, so the same view is the same report.
_RENDERED: dict[tuple, str] = {}
RENDERED = 64


def render(view: dict, name: str = "report", mail: bool = False) -> str:
    """A report, every line at most WIDTH columns: a template's line that is longer (a long
    list of names or cards) is wrapped, its continuation indented under it. `mail`: a report
    mailed to its reader, who asks for the help by mail (a line `help`), not with a command."""
    key = (name, mail, repr(view))
    if key not in _RENDERED:
        if len(_RENDERED) >= RENDERED:
            del _RENDERED[next(iter(_RENDERED))]
        _RENDERED[key] = wrap(_env().get_template(f"{view['ruleset']}/{name}.txt.j2").render(v=view, by_mail=mail))
    return _RENDERED[key]


def render_standings(rows: list[dict], over: bool) -> str:
    return wrap(_env().get_template("standings.txt.j2").render(rows=rows, over=over))


def render_help(rs, topic: str = "") -> str:
    """`judge help RULESET [TOPIC]`: the order words, the report's terms and the rules in short
    (templates/<ruleset>/help.txt.j2), or a topic of it (help-<topic>.txt.j2)."""
    import jinja2

    name = f"{rs.name}/help-{topic}.txt.j2" if topic else f"{rs.name}/help.txt.j2"
    try:
        return wrap(_env().get_template(name).render(rs=rs), hang=2)
    except jinja2.TemplateNotFound:
        from judge.engine.errors import UsageError

        raise UsageError(f"judge help {rs.name} has no topic '{topic}'") from None
