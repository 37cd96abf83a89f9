"""Normalised timelines: ordered records of what a framework did, identical on every run.

Ids the framework invents (invocation ids, event ids, uuids, call ids) become stable
placeholders in first-seen order (``inv-1``, ``ev-1``, ...). Ids the scenario chose
itself are kept when registered with :meth:`Placeholders.keep`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


@dataclass
class Placeholders:
    """Maps volatile ids to ``<kind>-<n>`` in first-seen order, per kind."""

    _seen: dict[tuple[str, str], str] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict)
    _kept: set[str] = field(default_factory=set)

    def keep(self, *values: str) -> None:
        """Leave these ids (chosen by the scenario, hence stable) as they are."""
        self._kept.update(values)

    def __call__(self, kind: str, value: object) -> str:
        if value is None:
            return "-"
        text = str(value)
        if text in self._kept:
            return text
        key = (kind, text)
        if key not in self._seen:
            self._counts[kind] = self._counts.get(kind, 0) + 1
            self._seen[key] = f"{kind}-{self._counts[kind]}"
        return self._seen[key]

    def scrub(self, text: str, kind: str = "uuid") -> str:
        """Replace every uuid inside free text with a placeholder."""
        return UUID_RE.sub(lambda m: self(kind, m.group(0)), text)


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
