"""An environment of the record (reports/matrix.json ``environments``, docs/CONTRACT.md): the build a
result was measured in, what it installed and how. ``Environment`` is what every reader of the record
gets; its JSON object is read and written here alone (``from_json``/``to_json``, byte for byte)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.planning import interpreters

# An environment entry of a build on another interpreter than the default holds ``interpreter``
# (``3.10``, schema 5); its full version is its ``python`` (``3.10.13``), as every entry's is.
INTERPRETER_KEY = "interpreter"

# A built environment's keys, in the order the record writes them (docs/CONTRACT.md); a build that
# could not be installed writes ``ERRORED_KEYS`` instead.
BUILT_KEYS = (
    "source",
    "framework",
    "version",
    INTERPRETER_KEY,
    "python",
    "exclude_newer",
    "packages",
    "extras",
    "isolation",
)
ERRORED_KEYS = ("source", "framework", "version", INTERPRETER_KEY, "error")
FIELD_KEYS = (*BUILT_KEYS, "error")


def _strings(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


@dataclass(frozen=True)
class Environment:
    """One build's environment: its release (``source``, ``framework``, ``version``), the CPython minor
    it was made with (``interpreter``) and its full version (``python``), the resolver's date
    (``exclude_newer``), what it installed (``packages``, ``NAME==VERSION``), the extras the release
    declares, how its cases were kept off the network (``isolation``), or why it could not be made
    (``error``)."""

    source: str
    framework: str
    version: str | None = None
    interpreter: str = interpreters.DEFAULT
    python: str | None = None
    exclude_newer: str | None = None
    packages: tuple[str, ...] | None = ()
    extras: tuple[str, ...] | None = None
    isolation: str | None = None
    error: str | None = None
    # The keys its JSON object held, in order, and any this code does not know: a record's entry is
    # written back byte for byte. Empty for one made here (``BUILT_KEYS`` or ``ERRORED_KEYS``).
    keys: tuple[str, ...] = field(default=(), compare=False, repr=False)
    others: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    @property
    def label(self) -> str:
        """What identifies it, as ``Build.label`` names its build: its source, and ``on <interpreter>``
        where that is not the default."""
        default = self.interpreter == interpreters.DEFAULT
        return self.source if default else f"{self.source} on {self.interpreter}"

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> Environment:
        """From the record's (or a run folder's, a shard's, a worker's) JSON object of one environment."""
        return cls(
            entry["source"],
            entry["framework"],
            entry.get("version"),
            entry.get(INTERPRETER_KEY) or interpreters.DEFAULT,
            entry.get("python"),
            entry.get("exclude_newer"),
            _strings(entry.get("packages")),
            _strings(entry.get("extras")),
            entry.get("isolation"),
            entry.get("error"),
            tuple(entry),
            tuple((k, v) for k, v in entry.items() if k not in FIELD_KEYS),
        )

    @classmethod
    def measured(
        cls,
        source: str,
        framework: str,
        version: str | None,
        interpreter: str,
        exclude_newer: str | None,
        found: Mapping[str, Any] | None,
    ) -> Environment:
        """A made build's environment: what its Python said of it (``found``, the worker's ``env`` line
        with the isolation the driver adds: version, python, packages, extras, isolation) over what the
        build names (its ``version`` where the worker said none, as a local build's before it is built)."""
        found = found or {}
        return cls(
            source,
            framework,
            found.get("version") or version,
            interpreter,
            found.get("python"),
            exclude_newer,
            _strings(found.get("packages", [])),
            _strings(found.get("extras")),
            found.get("isolation"),
        )

    def to_json(self) -> dict[str, Any]:
        """Its JSON object as the record holds it: the keys it was read with, in their order."""
        keys = self.keys or (ERRORED_KEYS if self.error is not None else BUILT_KEYS)
        others = dict(self.others)
        out: dict[str, Any] = {}
        for k in keys:
            value = others[k] if k in others else getattr(self, k)
            out[k] = list(value) if isinstance(value, tuple) and k in ("packages", "extras") else value
        return out


def as_environments(entries: Iterable[Environment | Mapping[str, Any]]) -> list[Environment]:
    """``entries`` as environments: one kept as it is, a JSON object (the worker's, the upgrade
    axis's, a document's) read into one."""
    return [e if isinstance(e, Environment) else Environment.from_json(e) for e in entries]


def with_interpreter(entry: dict) -> dict:
    """An environment's JSON object of schema 1-4 in schema 5: its ``interpreter`` after ``version`` (the default)."""
    if INTERPRETER_KEY in entry:
        return entry
    keys = list(entry)
    at = keys.index("version") + 1 if "version" in keys else len(keys)
    return {
        **{k: entry[k] for k in keys[:at]},
        INTERPRETER_KEY: interpreters.DEFAULT,
        **{k: entry[k] for k in keys[at:]},
    }


def sorted_environments(entries: Iterable[Environment | Mapping[str, Any]]) -> list[Environment]:
    """Environments in the record's order: by framework, then source, then interpreter."""
    return sorted(as_environments(entries), key=lambda e: (e.framework, e.source, interpreters.key(e.interpreter)))


def one_per_build(entries: Iterable[Environment | Mapping[str, Any]]) -> list[Environment]:
    """Environments, one per build (a later one of a build replaces an earlier one)."""
    return list({e.label: e for e in as_environments(entries)}.values())
