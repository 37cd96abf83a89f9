"""The equivalents file, ``mutants-equivalent.toml`` at the project root: one ``[[mutant]]``
table per surviving mutant that does not change any verdict an observation of the case can
bring, with the reason::

    [[mutant]]
    scenario = "adk-my-bug"
    function = "judge"                          # the qualified name
    mutation = "compare: total > 2 -> total >= 2"  # as the survivor line prints it
    occurrence = 1                              # only when the same text occurs twice in the function
    reason = "`if total == 2: return fixed(...)` comes first, so total is never 2 here"

An entry that matches no mutant, or a mutant that a proof kills, fails the run: the file
must stay true (harness/mutants/judge.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError

EQUIVALENTS_FILE = "mutants-equivalent.toml"


class MutantsError(UsageError, ValueError):
    """Bad input to the mutants command: an unreadable or malformed equivalents file."""


@dataclass
class Equivalent:
    scenario: str
    function: str
    mutation: str
    occurrence: int
    reason: str
    matched: bool = False


def load_equivalents(path: Path) -> list[Equivalent]:
    """The entries of ``mutants-equivalent.toml``; MutantsError (one line) when malformed."""
    import tomllib

    if not path.exists():
        return []
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise MutantsError(f"{path.name}: not valid TOML: {exc}") from None
    entries = data.get("mutant", [])
    unknown = set(data) - {"mutant"}
    if unknown or not isinstance(entries, list):
        raise MutantsError(
            f"{path.name}: only [[mutant]] tables are allowed, found {', '.join(sorted(unknown)) or 'mutant'}"
        )
    out = []
    for n, entry in enumerate(entries, 1):
        need = {"scenario": str, "function": str, "mutation": str, "reason": str}
        bad = [k for k, t in need.items() if not isinstance(entry.get(k), t) or not entry.get(k).strip()]
        extra = set(entry) - set(need) - {"occurrence"}
        occurrence = entry.get("occurrence", 1)
        if bad or extra or not isinstance(occurrence, int) or occurrence < 1:
            what = (
                f"missing or empty {', '.join(bad)}"
                if bad
                else f"unknown keys {', '.join(sorted(extra))}"
                if extra
                else "occurrence must be a whole number >= 1"
            )
            raise MutantsError(
                f"{path.name}: [[mutant]] number {n}: {what}; valid keys: scenario, function, "
                "mutation, reason (and occurrence)"
            )
        out.append(Equivalent(entry["scenario"], entry["function"], entry["mutation"], occurrence, entry["reason"]))
    return out
