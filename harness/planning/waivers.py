"""A framework's waivers: the changes of verdict its maintainers accept, read from a file in the
framework's own repository (``.agent-bug-harness.toml``), so a pull request that changes a case's
verdict on purpose (an intended behaviour change, a judgement the maintainers dispute) can say so
where the framework's reviewers see it, and the candidate's check stays green for that change only.

The file (TOML)::

    [[waiver]]
    case = "agents-input-guardrail-run-data:no-tripwire"   # scenario:case
    from = "fixed"                                          # the baseline's outcome
    to = "unexpected"                                       # the candidate's outcome
    reason = "successful runs no longer keep their guardrail results (intended)"
    link = "https://github.com/openai/openai-agents-python/pull/1234"   # the discussion
    until = "0.25.0"                                        # optional: the last release it holds for

A waiver accepts exactly one change (that case, from that outcome to that one). With ``until``, it
holds while the candidate's version is at or below that release, and is listed as expired once the
candidate is past it. A waiver that matches no change of the run is listed as stale; a file that is
not valid is refused in one line (harness.errors.UsageError, exit 2) before any build runs.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.planning import versions
from harness.runtime.outcomes import OUTCOMES

FILE_NAME = ".agent-bug-harness.toml"
_KEYS = {"case", "from", "to", "reason", "link", "until"}
_REQUIRED = ("case", "from", "to", "reason", "link")


@dataclass(frozen=True)
class Waiver:
    """One accepted change of verdict, as the framework's file states it."""

    scenario: str
    case: str
    before: str
    after: str
    reason: str
    link: str
    until: str | None = None

    @property
    def id(self) -> str:
        return f"{self.scenario}:{self.case}"

    def holds_for(self, version: str | None) -> bool:
        """Whether the waiver is still in force for a candidate of ``version`` (unknown: it is)."""
        if self.until is None or version is None:
            return True
        return versions.key(version) <= versions.key(self.until)

    def describe(self) -> str:
        until = f", until {self.until}" if self.until else ""
        return f"`{self.id}` ({self.before} → {self.after}{until}): {self.reason} ({self.link})"


def _waiver(entry: object, n: int, where: str) -> Waiver:
    if not isinstance(entry, dict):
        raise UsageError(f"{where}: waiver {n} is not a table; each is a [[waiver]] with {', '.join(_REQUIRED)}")
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        raise UsageError(f"{where}: waiver {n} has unknown key {unknown[0]!r}; valid keys: {', '.join(sorted(_KEYS))}")
    missing = [k for k in _REQUIRED if not isinstance(entry.get(k), str) or not entry[k].strip()]
    if missing:
        raise UsageError(
            f"{where}: waiver {n} lacks {missing[0]!r} (a non-empty string); each needs {', '.join(_REQUIRED)}"
        )
    scenario, sep, case = entry["case"].partition(":")
    if not sep or not scenario or not case or ":" in case:
        raise UsageError(f"{where}: waiver {n}: case {entry['case']!r} is not SCENARIO:CASE")
    for key in ("from", "to"):
        if entry[key] not in OUTCOMES:
            raise UsageError(
                f"{where}: waiver {n}: {key} {entry[key]!r} is not an outcome; valid: {', '.join(OUTCOMES)}"
            )
    if entry["from"] == entry["to"]:
        raise UsageError(f"{where}: waiver {n}: from and to are both {entry['from']!r}; a waiver accepts a change")
    if not entry["link"].startswith(("https://", "http://")):
        raise UsageError(f"{where}: waiver {n}: link {entry['link']!r} is not a URL (the discussion's address)")
    until = entry.get("until")
    if until is not None and (not isinstance(until, str) or versions.key(until)[0] != 1):  # not PEP 440
        raise UsageError(f'{where}: waiver {n}: until {until!r} is not a release version (for example "0.25.0")')
    return Waiver(scenario, case, entry["from"], entry["to"], entry["reason"].strip(), entry["link"], until)


def read(path: Path, shown: str | None = None) -> tuple[Waiver, ...]:
    """The waivers of ``path`` (``shown``: how errors name it); UsageError, in one line, when the file
    is not a valid waiver file."""
    where = shown or path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{where}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{where}: not UTF-8 text; a waiver file is TOML") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{where}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - {"waiver"})
    if unknown:
        raise UsageError(f"{where}: unknown table {unknown[0]!r}; a waiver file holds [[waiver]] entries only")
    entries = data.get("waiver", [])
    if not isinstance(entries, list):
        raise UsageError(f"{where}: 'waiver' must be an array of tables ([[waiver]])")
    found = tuple(_waiver(e, n, where) for n, e in enumerate(entries, 1))
    seen: set[tuple[str, str, str]] = set()
    for w in found:
        if (w.id, w.before, w.after) in seen:
            raise UsageError(f"{where}: {w.id} ({w.before} → {w.after}) is waived twice")
        seen.add((w.id, w.before, w.after))
    return found


def find(build_path: Path) -> Path | None:
    """The waiver file of a candidate checkout: in its folder or the nearest parent up to the
    repository's root (the package may live in a folder of the repository); None for an sdist or
    wheel, or a checkout without one."""
    if not build_path.is_dir():
        return None
    for folder in (build_path.resolve(), *build_path.resolve().parents):
        if (folder / FILE_NAME).is_file():
            return folder / FILE_NAME
        if (folder / ".git").exists():
            return None
    return None
