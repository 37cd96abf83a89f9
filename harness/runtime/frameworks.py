"""The frameworks the harness knows: PyPI name, import name, scenario id prefix."""

from __future__ import annotations

from dataclasses import dataclass

from harness.errors import UsageError


@dataclass(frozen=True)
class Framework:
    name: str  # the PyPI name, as in reports/matrix.json
    id_prefix: str  # every scenario id of this framework starts with it
    entry_module: str  # what a scenario's first import pulls in (the bench's import floor)


FRAMEWORKS: dict[str, Framework] = {
    f.name: f
    for f in (
        Framework("google-adk", "adk-", "google.adk.runners"),
        Framework("openai-agents", "agents-", "agents"),
    )
}


class UnknownFramework(UsageError, ValueError):
    pass


def get(name: str) -> Framework:
    """The framework called ``name`` (PyPI spelling, case and ``_``/``-`` insensitive)."""
    key = name.strip().lower().replace("_", "-")
    try:
        return FRAMEWORKS[key]
    except KeyError:
        raise UnknownFramework(f"unknown framework {name!r}; valid: {', '.join(sorted(FRAMEWORKS))}") from None
