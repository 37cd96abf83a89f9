"""Timelines as text: one entry per line (``render``) and short quotes of values (``quote``).

A script normalises its own ids (the runner block's normaliser, harness/runtime/reproduction.py
``normalise``): the one place a timeline's volatile ids become placeholders.
"""

from __future__ import annotations


def quote(text: object, limit: int = 80) -> str:
    """A short, single-line repr of a text, cut with a visible marker when long."""
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return repr(s)


def render(lines: list[str]) -> str:
    """The timeline as text: one entry per line, newline-terminated."""
    for line in lines:
        if "\n" in line:
            raise ValueError(f"timeline entries are single lines, got {line!r}")
    return "".join(line + "\n" for line in lines)
