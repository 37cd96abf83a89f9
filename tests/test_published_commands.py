"""Issue 45, "what the harness runs is what the command runs": every scenario's published command
(the report's `uv run --with FRAMEWORK==VERSION --exclude-newer DATE repro.py`, harness/rendering/
reproduce.py), run as a maintainer would (the script saved as repro.py in an empty folder, no
provider key, none of the harness's variables; a PostgreSQL server named by libpq's variables, as
the scripts' -postgresql cases ask), on a release of each release line of the record
and for each dependency header, gives the record's verdict for every case. Which: ``_targets``.

Before: the worker set OPENAI_API_KEY="" and a standalone run had none; on openai-agents 0.0.3 a
scenario's record said reproduced where this command said `error: ... api_key ...`.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import ROOT
from harness.execution import postgres
from harness.execution.audit_run import DROPPED
from harness.planning import releases, versions
from harness.rendering import reproduce
from harness.runtime import registry
from harness.runtime.reproduction import libpq_environment
from harness.store import record

VERDICT = re.compile(r"^verdict: ([a-z-]+):")


@functools.cache
def _scenarios() -> dict:
    """The library, discovered once: two threads that import one bug.py at the same time can see it
    half-initialised ("bug.py defines no BUG", measured running _run in two threads)."""
    return registry.discover()


def _dependencies(scenario_id: str) -> str:
    """The script's PEP 723 ``dependencies`` line, as written: what its published command installs
    besides the release it pins."""
    header = reproduce.script_file(scenario_id).read_text().split("# ///", 2)[1]
    return next((line for line in header.splitlines() if line.startswith("# dependencies")), "")


def _targets() -> list[tuple[str, str]]:
    """(scenario id, version): what the published command can differ by, each once, so the check does
    not grow with the library (issue 51: every scenario on its newest release and each line was 69 runs
    of uv and 194 s of a 1,102 s suite): each release line of a framework, and each release its default
    set names outright (planning/releases.py: openai-agents 0.0.3), on the first scenario (by id) with
    a row there, at the newest release that scenario has on it; and each distinct dependency header
    (google-adk[db], mcp<2, the SQLAlchemy drivers) on the first scenario that has it, at its newest
    release. Every script's own verdicts are checked in the pinned build by tests/test_reproductions.py
    (what the harness judges is what the script prints); this test checks the command around it."""
    document = record.load(ROOT / "reports") or record.Record()
    rows = [r for r in document.results if r.release and r.version and r.python == "3.11"]
    newest: dict[tuple, str] = {}  # (group, scenario) -> its newest release there
    for row in rows:
        named = row.version in releases.kept_by_name(row.framework)
        for group in (
            ("line", row.framework, row.version if named else versions.line(row.version)),
            ("dependencies", row.framework, _dependencies(row.scenario)),
        ):
            key = (group, row.scenario)
            if key not in newest or versions.key(row.version) > versions.key(newest[key]):
                newest[key] = row.version
    targets: set[tuple[str, str]] = set()
    for group in sorted({g for g, _ in newest}):
        first = min(s for g, s in newest if g == group)
        targets.add((first, newest[(group, first)]))
    return sorted(targets)


def _run(
    scenario_id: str, version: str, folder: Path, libpq: dict[str, str]
) -> tuple[str, dict[str, str], dict[str, str], str]:
    """The published command for every case of one release: (command, case -> verdict, record's, output)."""
    document = record.load(ROOT / "reports") or record.Record()
    rows = [r for r in document.results if r.scenario == scenario_id and r.version == version and r.release]
    scenario = _scenarios()[scenario_id]
    command = reproduce.release_command(reproduce.Bug.of(scenario), None, rows[0], document)
    shutil.copy(reproduce.script_file(scenario_id), folder / "repro.py")
    env = {k: v for k, v in os.environ.items() if k not in DROPPED and not k.startswith(("HARNESS_", "OPENAI_"))}
    env.update(libpq)
    done = subprocess.run(
        ["sh", "-c", command], cwd=folder, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    said: dict[str, str] = {}
    case = None
    for line in done.stdout.splitlines():
        if line.startswith("== "):
            case = line[3:].strip()
        elif (m := VERDICT.match(line)) and case:
            said[case] = m.group(1)
    return command, said, {r.case: r.outcome for r in rows}, done.stdout[-2000:] + done.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not installed")
def test_every_published_command_gives_the_records_verdict_on_one_release_per_line(tmp_path):
    targets = _targets()
    # Every dependency header of the library is among the commands run.
    assert {_dependencies(s) for s, _ in targets} == {_dependencies(s) for s in _scenarios()}
    scenarios = _scenarios()  # discovered once, before the threads: two threads importing one bug.py
    held = {(r.scenario, r.version) for r in (record.load(ROOT / "reports") or record.Record()).results}
    for framework in ("google-adk", "openai-agents"):  # a release named outright has a row of each scenario
        for version in releases.kept_by_name(framework):
            missing = [s for s in scenarios if scenarios[s].framework == framework and (s, version) not in held]
            assert not missing, f"{framework} {version} has no row in the record for {missing}"
    libpq = libpq_environment(postgres.server().socket_dir)

    def one(target: tuple[str, str]):
        folder = tmp_path / f"{target[0]}-{target[1]}"
        folder.mkdir()
        return target, _run(*target, folder, libpq)

    # The server is the test process's own (conftest's postgres_server starts and stops it): stopping
    # it here left HARNESS_POSTGRES_SOCKET naming a removed socket for every -postgresql case this
    # worker ran after (14 FileNotFoundError in a fresh-clone suite once xdist stole work).
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(one, targets))
    differ = [
        f"{s} on {v}: `{command}` said {said}, the record {recorded}"
        for (s, v), (command, said, recorded, tail) in outcomes
        if said != recorded
    ]
    assert not differ, "\n\n".join(differ)
