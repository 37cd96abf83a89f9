"""A bug folder (``scenarios/<id>/``: ``repro.py`` and ``bug.py``) as a Scenario the harness runs.

The script is imported in the worker's process (under the network guard, the deadline and any
in-process patch, harness/runtime/runner.py), never copied: each case calls its ``observe`` with
a collector for the lines it prints, then its ``judge`` on the facts ``observe`` returned. So the
lines and the verdict a maintainer sees from ``uv run repro.py CASE`` are those the record holds,
the lines normalised (``normalise``: ids, uuids and addresses as placeholders).

The script's contract (CONTRIBUTING.md): ``CASES`` (case id -> keyword arguments of ``observe``),
``async def observe(say, **params) -> dict``, ``def judge(facts) -> (outcome, detail)``, and a
``NotApplicable`` exception ``observe`` raises where the release lacks what the case needs.
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from harness.runtime import frameworks, importing
from harness.runtime.declaration import Bug
from harness.runtime.outcomes import FIXED, REPRODUCED, UNEXPECTED, Verdict
from harness.runtime.scenario import (
    POSTGRESQL,
    Case,
    NotApplicable,
    Observation,
    Scenario,
    ScenarioError,
    backend_case_id,
    current_backend,
)

SCRIPT = "repro.py"
DECLARATION = "bug.py"
# The harness's server for PostgreSQL cases (harness/execution/postgres.py sets it in the worker);
# a script reads libpq's own variables, set from it for the case.
POSTGRES_SOCKET_ENV = "HARNESS_POSTGRES_SOCKET"
POSTGRES_USER = "postgres"  # the superuser the harness's server is initialised with

_UUID = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")


def normalise(lines: list[str]) -> list[str]:
    """The script's printed lines with what differs between runs replaced: every uuid (with or
    without dashes) by ``<id-N>`` in first-seen order, object addresses by ``0x...``; a line
    with a line break becomes one line per part."""
    seen: dict[str, str] = {}

    def placeholder(m: re.Match) -> str:
        key = m.group(0).lower().replace("-", "")
        return seen.setdefault(key, f"<id-{len(seen) + 1}>")

    out = []
    for line in lines:
        for part in str(line).split("\n"):
            out.append(_ADDRESS.sub("0x...", _UUID.sub(placeholder, part)))
    return out


def load_script(path: Path) -> ModuleType:
    """The reproduction script at ``path`` as a module (once per process), checked against the contract."""
    name = "repro_" + re.sub(r"\W", "_", path.parent.name)
    module = importing.import_file(path, name, f"reproduction {path.parent.name}/{SCRIPT}")
    problems = []
    if not isinstance(getattr(module, "CASES", None), dict) or not module.CASES:
        problems.append("CASES must be a dict of case id -> keyword arguments of observe")
    if not inspect.iscoroutinefunction(getattr(module, "observe", None)):
        problems.append("observe(say, **params) must be an async function")
    if not callable(getattr(module, "judge", None)):
        problems.append("judge(facts) must be a function")
    if not (isinstance(getattr(module, "NotApplicable", None), type) and issubclass(module.NotApplicable, Exception)):
        problems.append("NotApplicable must be an exception class")
    if problems:
        del sys.modules[name]
        raise ScenarioError(f"reproduction {path.parent.name}/{SCRIPT}: " + "; ".join(problems))
    return module


def _libpq_environment() -> dict[str, str]:
    """libpq's variables for the harness's server: the script connects with them alone."""
    socket_dir = os.environ.get(POSTGRES_SOCKET_ENV)
    if not socket_dir:
        raise RuntimeError(f"no PostgreSQL server for this case: {POSTGRES_SOCKET_ENV} is unset")
    return libpq_environment(socket_dir)


def libpq_environment(socket_dir: str) -> dict[str, str]:
    """libpq's variables for the harness's server whose socket is in ``socket_dir`` (the maintenance
    database ``postgres``): what a script's PostgreSQL case connects with (here and in an upgrade's steps)."""
    return {"PGHOST": socket_dir, "PGUSER": POSTGRES_USER, "PGDATABASE": "postgres", "PGPORT": "5432"}


async def _observe(script: ModuleType, case_id: str) -> Observation:
    backend = current_backend()
    script_case = backend_case_id(case_id, backend)
    if backend == POSTGRESQL:
        os.environ.update(_libpq_environment())  # the runner restores the environment after the case
    lines: list[str] = []
    try:
        facts = await script.observe(lines.append, **script.CASES[script_case])
    except script.NotApplicable as exc:
        raise NotApplicable(str(exc)) from exc
    if not isinstance(facts, dict):
        raise TypeError(f"observe returned {type(facts).__name__}, expected the facts as a dict")
    return Observation(timeline=normalise(lines), facts=facts)


def _oracle(judge: Any) -> Any:
    @functools.wraps(judge)  # __wrapped__: the mutants mutate the script's judge (harness/mutants/targets.py)
    def oracle(observation: Observation) -> Verdict:
        outcome, detail = judge(observation.facts)
        if outcome not in (REPRODUCED, FIXED, UNEXPECTED):
            raise ValueError(f"judge said {outcome!r}; valid: {REPRODUCED}, {FIXED}, {UNEXPECTED}")
        return Verdict(outcome, " ".join(str(detail).split()))

    return oracle


def scenario_from_folder(folder: Path, declaration: Any) -> Scenario:
    """The Scenario of a bug folder: the script's cases with the declaration's roles."""
    where = f"scenario {folder.name}"
    if not isinstance(declaration, Bug):
        raise ScenarioError(f"{where}: {DECLARATION} must define BUG = Bug(...), got {type(declaration).__name__}")
    script = load_script(folder / SCRIPT)
    framework = next((f.name for f in frameworks.FRAMEWORKS.values() if folder.name.startswith(f.id_prefix)), "")
    if not framework:
        prefixes = ", ".join(f.id_prefix for f in frameworks.FRAMEWORKS.values())
        raise ScenarioError(f"{where}: the folder's name must start with one of {prefixes}")
    expected_ids = {
        backend_case_id(case_id, backend) for case_id in declaration.cases for backend in declaration.backends
    }
    if set(script.CASES) != expected_ids:
        raise ScenarioError(
            f"{where}: {SCRIPT}'s CASES ({', '.join(sorted(script.CASES))}) are not the declared cases on their "
            f"backends ({', '.join(sorted(expected_ids))})"
        )
    oracle = _oracle(script.judge)
    cases = tuple(
        Case(
            id=case_id,
            run=functools.partial(_observe, script, case_id),
            oracle=oracle,
            proofs={REPRODUCED: role.reproduced, FIXED: role.fixed},
            summary=role.summary,
            control=role.control,
            non_regression=role.non_regression,
            edges=role.edges,
            per_backend=role.per_backend,
        )
        for case_id, role in declaration.cases.items()
    )
    return Scenario(
        id=folder.name,
        framework=framework,
        links=declaration.links,
        description=declaration.description,
        expected=declaration.expected,
        cases=cases,
        module=f"{folder.name}/{Path(DECLARATION).stem}",
        range_notes=declaration.range_notes,
        requires=declaration.requires,
        backends=declaration.backends,
        claims=declaration.claims,
        explanations=tuple(declaration.explanations),
    )
