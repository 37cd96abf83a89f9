"""How a maintainer runs a bug's reproduction (``scenarios/<id>/repro.py``) without the harness: the
script as it is (never copied or stamped) and, beside it, one command per release that runs it
there, the dependency date included (uv's ``--exclude-newer`` at the release's upload, as the
harness built that release's environment).

Reports, pull-request comments, ``python -m harness export`` and candidate evidence all show these
commands; the record says which releases a case reproduces and is fixed on.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.planning import interpreters, versions
from harness.project import PROJECT
from harness.rendering.metadata import ScenarioMetadata
from harness.runtime.outcomes import ERROR, FIXED, REPRODUCED
from harness.runtime.reproduction import SCRIPT
from harness.runtime.scenario import Scenario
from harness.store.document import Record
from harness.store.rows import Row


class ExportError(UsageError, ValueError):
    """A reproduction cannot be exported as asked (one line: what, and what is valid)."""


def script_path(scenario_id: str) -> str:
    """The script's path from the project root."""
    return f"scenarios/{scenario_id}/{SCRIPT}"


def script_file(scenario_id: str, root: Path = PROJECT.root) -> Path:
    return root / script_path(scenario_id)


@dataclass(frozen=True)
class Run:
    """One way to run a case's script: on ``version`` of the framework, which the record says ``outcome`` for."""

    case: str
    version: str
    outcome: str
    command: str


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Bug:
    """What a command needs of a scenario: its id, framework and requirements (its declaration's ``requires``)."""

    id: str
    framework: str
    requires: tuple[str, ...] = ()

    @classmethod
    def of(cls, scenario: Scenario | ScenarioMetadata) -> Bug:
        """Of a declared scenario, or of the metadata the reports show of one (the same three fields)."""
        return cls(scenario.id, scenario.framework, tuple(scenario.requires))


def requirements(bug: Bug, version: str | None, offered_extras: Sequence[str] | None = None) -> list[str]:
    """The framework pinned to ``version`` with the scenario's extras of it (those the release
    offers, where known), then the scenario's other packages (its declaration's ``requires``)."""
    extras: list[str] = []
    others: list[str] = []
    for req in bug.requires:
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[([^\]]*)\])?\s*$", req)
        if m and _norm(m.group(1)) == _norm(bug.framework):
            extras += [e.strip() for e in (m.group(2) or "").split(",") if e.strip() and e.strip() not in extras]
        elif req.strip() not in others:
            others.append(req.strip())
    if offered_extras is not None:
        extras = [e for e in extras if e in offered_extras]
    framework = bug.framework + (f"[{','.join(sorted(extras))}]" if extras else "")
    return [framework + (f"=={version}" if version else ""), *others]


def command(
    bug: Bug,
    case_id: str | None,
    version: str | None,
    exclude_newer: str | None,
    offered_extras: Sequence[str] | None = None,
    path: str = SCRIPT,
    python: str | None = None,
) -> str:
    """``uv run --with 'FRAMEWORK==VERSION' --exclude-newer DATE repro.py CASE``: the script on that
    release, its dependencies as of that date (no case: every case in turn); ``python``: the
    interpreter it must run on (``--python 3.11``), for a case whose verdict depends on it."""
    parts = ["uv", "run"] + (["--python", python] if python else [])
    for requirement in requirements(bug, version, offered_extras):
        parts += ["--with", requirement]
    if exclude_newer:
        parts += ["--exclude-newer", exclude_newer]
    parts += [path] + ([case_id] if case_id else [])
    return " ".join(shlex.quote(p) for p in parts)


def local_command(case_id: str | None, checkout: str = "/path/to/checkout", path: str = SCRIPT) -> str:
    """The script against a framework source checkout (its ``src`` first on the path, in an
    environment that has the framework's dependencies, such as the checkout's own)."""
    return f"PYTHONPATH={checkout}/src python {path}" + (f" {case_id}" if case_id else "")


def release_command(
    bug: Bug, case_id: str | None, row: Row, document: Record | None, path: str = SCRIPT, python: str | None = None
) -> str:
    """The command for the release of a record row, with the date and extras its environment had, on
    ``python`` when one is named (see :func:`pinned`)."""
    env = document.environment(row.source) if document else None
    date, extras = (env.exclude_newer, env.extras) if env else (None, None)
    return command(bug, case_id, row.version, date, extras, path, python)


def differs_by_interpreter(every: Iterable[Row], scenario_id: str, case_id: str) -> bool:
    """Whether the record measured this case with another verdict on another interpreter than the
    default, on a release both ran (a release an interpreter cannot install there is no verdict)."""
    rows = [r for r in every if r.scenario == scenario_id and r.case == case_id and r.release]
    default = {r.version: r.outcome for r in rows if r.python == interpreters.DEFAULT}
    return any(
        r.python != interpreters.DEFAULT
        and r.outcome != ERROR
        and not interpreters.is_unsupported(r.outcome, r.detail)
        and default.get(r.version) not in (None, r.outcome)
        for r in rows
    )


def pinned(every: Iterable[Row], scenario_id: str, case_id: str, python: str = interpreters.DEFAULT) -> str | None:
    """The interpreter a case's commands must name (``uv run --python X.Y``): one asked for other than
    the default, or the default itself where the case's verdicts differ by interpreter (issue 46: on
    3.10, agents-output-schema-generic-dict's dict-str-int is fixed on releases it reproduces on
    under 3.11, so a command without it says what the reader's own interpreter does); else None."""
    if python != interpreters.DEFAULT or differs_by_interpreter(every, scenario_id, case_id):
        return python
    return None


def lines(
    bug: Bug,
    case_id: str,
    document: Record | None,
    path: str = SCRIPT,
    python: str = interpreters.DEFAULT,
    pin: str | None = None,
) -> list[str]:
    """Markdown list items: the command for each of ``runs``, with the outcome the record holds there."""
    return [
        f"- {run.outcome} on {run.version}: `{run.command}`" for run in runs(bug, case_id, document, path, python, pin)
    ]


def case_rows(document: Record | None, scenario_id: str, case_id: str, python: str = interpreters.DEFAULT) -> list[Row]:
    """The record's release results of a case on one interpreter (the default one unless named),
    oldest first (the commands and exports built from them run on it)."""
    rows = [
        r
        for r in (document.results if document else [])
        if r.scenario == scenario_id and r.case == case_id and r.release and r.python == python
    ]
    return sorted(rows, key=lambda r: versions.key(str(r.version)))


def runs(
    bug: Bug,
    case_id: str,
    document: Record | None,
    path: str = SCRIPT,
    python: str = interpreters.DEFAULT,
    pin: str | None = None,
) -> list[Run]:
    """The case's script on the newest release where it reproduces and on the first release after
    it where it is fixed (else the newest fixed one), as measured on ``python``: at most two runs,
    reproduced first; each command names ``pin`` as its interpreter when given (:func:`pinned`)."""
    rows = case_rows(document, bug.id, case_id, python)
    reproduced = [r for r in rows if r.outcome == REPRODUCED]
    fixed = [r for r in rows if r.outcome == FIXED]
    chosen = []
    if reproduced:
        chosen.append(reproduced[-1])
        later = [r for r in fixed if versions.key(str(r.version)) > versions.key(str(reproduced[-1].version))]
        fixed = later[:1] or fixed[-1:]
    else:
        fixed = fixed[-1:]
    chosen += fixed
    return [
        Run(case_id, str(r.version), r.outcome, release_command(bug, case_id, r, document, path, pin)) for r in chosen
    ]
