"""An upgrade case both ways on real releases (issue 40): google-adk's DatabaseSessionService on a
SQLite file, written by one release and read by the next, in the releases' own build environments
(.nox/builds/, made if missing); then the two commands the report gives, run by hand with uv.

#3272: a database 1.16.0 wrote breaks 1.17.0 (`events.usage_metadata`); 1.17.0's works on 1.18.0;
the migration 1.22.1 ships (`adk migrate session`) repairs 1.16.0's database for 1.22.1, which
reads it broken without it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.execution import environments
from harness.execution import upgrades as upgrades_run
from harness.planning import builds
from harness.planning import upgrades as planning
from harness.project import PROJECT
from harness.rendering import upgrade_report
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.store import record

ADK = "adk-database-session-upgrade"
EXIT = {REPRODUCED: 3, FIXED: 0}


def _pythons(*versions: str) -> dict[str, Path]:
    return {
        v: environments.ensure(builds.parse(f"google-adk=={v}", PROJECT.cache), PROJECT.builds, PROJECT.cache).python
        for v in versions
    }


def _pair(case: str, writer: str, reader: str) -> planning.PlannedPair:
    return planning.PlannedPair(planning.discover()[ADK], case, writer, reader, "test")


@pytest.mark.slow
def test_a_database_upgrade_breaks_on_3272s_pair_works_on_the_next_and_the_migration_repairs_it():
    pythons = _pythons("1.16.0", "1.17.0", "1.18.0", "1.22.1")
    breaks = upgrades_run.run_pair(_pair("carry-over", "1.16.0", "1.17.0"), pythons, PROJECT.root)
    works = upgrades_run.run_pair(_pair("carry-over", "1.17.0", "1.18.0"), pythons, PROJECT.root)
    unmigrated = upgrades_run.run_pair(_pair("carry-over", "1.16.0", "1.22.1"), pythons, PROJECT.root)
    migrated = upgrades_run.run_pair(_pair("migrated", "1.16.0", "1.22.1"), pythons, PROJECT.root)
    assert breaks.outcome == REPRODUCED and "usage_metadata" in breaks.detail, breaks.detail
    assert works.outcome == FIXED, works.detail
    assert unmigrated.outcome == REPRODUCED and "usage_metadata" in unmigrated.detail, unmigrated.detail
    assert migrated.outcome == FIXED, migrated.detail


@pytest.mark.slow
def test_the_reports_two_commands_reproduce_a_pair_by_hand_in_an_empty_folder(tmp_path):
    """The commands the report prints for #3272's pair and for the working pair after it, run as
    printed (uv, the release pinned, its dependency date) on the script alone: the writer exits 0,
    the reader exits with the recorded outcome's code and prints the recorded verdict."""
    document = record.load(PROJECT.reports)
    assert document is not None
    rows = {
        (r.case, r.from_version, r.version): r
        for r in document.upgrades
        if r.scenario == ADK and r.case == "carry-over"
    }
    scenario = planning.discover()[ADK]
    uv = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
    script = tmp_path / upgrade_report.script_path(ADK)
    script.parent.mkdir(parents=True)
    shutil.copy(scenario.script, script)
    for key in (("carry-over", "1.16.0", "1.17.0"), ("carry-over", "1.17.0", "1.18.0")):
        row = rows[key]
        folder = tmp_path / f"{key[1]}-{key[2]}"
        folder.mkdir()
        (folder / "upgrades").symlink_to(tmp_path / "upgrades")
        mkdir, write, read = upgrade_report.commands(scenario, row, document)
        assert mkdir == "mkdir state"
        (folder / "state").mkdir()
        results = []
        for command in (write, read):
            argv = shlex.split(command)
            assert argv[:2] == ["uv", "run"] and "--exclude-newer" in argv, command
            proc = subprocess.run(
                [uv, *argv[1:]], cwd=folder, capture_output=True, text=True, timeout=900, env=dict(os.environ)
            )
            results.append(proc)
        wrote, answered = results
        assert wrote.returncode == 0, wrote.stdout[-2000:] + wrote.stderr[-2000:]
        last = answered.stdout.strip().splitlines()[-1]
        assert answered.returncode == EXIT[row.outcome], last
        assert last == f"verdict: {row.outcome}: {row.detail}"
