"""``python -m harness export SCENARIO:CASE --pytest``: a case as a test in the framework's own suite.

Issue 36, "The case in the framework's own suite": the export writes the hand-written test of
scenarios/pytest/ under a header naming the upstream thread and the releases it fails and passes
on; the slow test runs each exported test with pytest in the release before the fix, the fix's
release and the newest fixed one, and sees it fail on the first (an assertion, not an import or
collection error) and pass on the others.
"""

from __future__ import annotations

import itertools
import subprocess

import pytest

from conftest import ROOT
from harness.commands import cli
from harness.rendering import pytest_export
from harness.runtime import registry
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.store import record

RECORD = record.load(ROOT / "reports") or {"results": [], "environments": []}
SCENARIOS = registry.discover()
EXPORTED = pytest_export.with_templates()


def _releases(scenario_id: str, case_id: str) -> tuple[str, str, str]:
    """(buggy, fixed, newest): the record's first release where the case is fixed, the one before
    it, where it reproduces (the boundary bisect finds), and the newest fixed release (the one the
    exported header tells a maintainer to install)."""
    from harness.rendering import reproduce

    rows = reproduce.case_rows(RECORD, scenario_id, case_id)
    pairs = itertools.pairwise(rows)
    before, after = next((a, b) for a, b in pairs if (a.outcome, b.outcome) == (REPRODUCED, FIXED))
    newest = [r for r in rows if r.outcome == FIXED][-1]
    return str(before.version), str(after.version), str(newest.version)


def test_two_cases_per_framework_have_a_test_of_a_known_case():
    """Each template is named after a case that exists; the issue asks for two per framework."""
    frameworks = []
    for exported in EXPORTED:
        scenario_id, case_id = exported.split(":")
        assert scenario_id in SCENARIOS, exported
        assert case_id in {c.id for c in SCENARIOS[scenario_id].cases}, exported
        frameworks.append(SCENARIOS[scenario_id].framework)
    assert sorted(frameworks) == ["google-adk"] * 2 + ["openai-agents"] * 2
    assert "adk-retry-same-invocation-id:non-resumable-retry" in EXPORTED
    assert "agents-nested-handoff-4hop:nested-4hop" in EXPORTED


# What a test in each framework's suite may import besides the standard library and pytest.
OWN_PACKAGES = {"google-adk": {"google"}, "openai-agents": {"agents", "openai"}}


def test_each_test_imports_only_pytest_the_standard_library_and_its_framework():
    """A test for the framework's suite: no harness, no scenarios, no other framework."""
    import ast
    import sys

    for exported in EXPORTED:
        scenario_id, case_id = exported.split(":")
        path = ROOT / "scenarios" / "pytest" / f"{scenario_id}--{case_id}.py"
        allowed = OWN_PACKAGES[SCENARIOS[scenario_id].framework] | {"pytest"} | set(sys.stdlib_module_names)
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert all(name.partition(".")[0] in allowed for name in names), (path.name, names)


def test_the_export_is_the_template_under_a_header_with_upstream_and_releases(tmp_path, capsys):
    out = tmp_path / "test_retry.py"
    assert cli.main(["export", "adk-retry-same-invocation-id:non-resumable-retry", "--pytest", "-o", str(out)]) == 0
    text = out.read_text()
    template = (ROOT / "scenarios" / "pytest" / "adk-retry-same-invocation-id--non-resumable-retry.py").read_text()
    assert text.endswith(template)
    head = text[: -len(template)]
    assert "# Upstream: https://github.com/google/adk-python/issues/4506" in head
    assert "2.4.0 – 2.8.0 (5 releases): reproduced, the test fails" in head
    assert "2.9.0 – " in head and "fixed, the test passes" in head
    assert all(line.startswith("#") for line in head.splitlines() if line), head
    compile(text, str(out), "exec")


def test_a_whole_scenario_writes_only_its_cases_with_a_test(tmp_path):
    assert cli.main(["export", "agents-nested-handoff-4hop", "--pytest", "-o", str(tmp_path)]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["test_agents_nested_handoff_4hop__nested_4hop.py"]


def test_a_case_without_a_test_and_flags_that_do_not_apply_are_refused(capsys):
    assert cli.main(["export", "adk-retry-same-invocation-id:resumable-resume", "--pytest", "-o", "-"]) == 2
    assert cli.main(["export", "adk-sync-run-model-error", "--pytest", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert "has no pytest test" in err and "has no case with a pytest test" in err
    case = "adk-retry-same-invocation-id:non-resumable-retry"
    assert cli.main(["export", case, "--pytest", "--release", "google-adk==2.8.0", "-o", "-"]) == 2


def _environment(framework: str, version: str):
    """The release with pytest and pytest-asyncio, pinned at its dependency date: an overlay of
    its own under .nox/pytest-export/, never the build's environment in .nox/builds/."""
    from harness.execution import environments
    from harness.planning import builds

    cache = ROOT / ".nox" / ".harness-cache"
    build = builds.parse(f"{framework}=={version}", cache)
    requires = ((), ("pytest", "pytest-asyncio"))
    return environments.ensure(build, ROOT / ".nox" / "pytest-export", cache, requires=requires)


@pytest.mark.slow
@pytest.mark.parametrize("exported", EXPORTED)
def test_the_exported_test_fails_on_the_buggy_release_and_passes_on_the_fixed_one(exported, tmp_path):
    """The proof: the exported file, run by pytest as a maintainer would (without network, as the
    matrix's workers), in the release before the fix (fails on its assertion), in the release of
    the fix and in the newest fixed one its header names (passes). Before the newest was run, the
    nested-4hop test reused one call_id on every hop and failed on 0.24.0 (ModelBehaviorError).
    The runs go side by side: each is mostly the framework's import."""
    from harness.execution import environments, isolation

    scenario_id, case_id = exported.split(":")
    framework = SCENARIOS[scenario_id].framework
    test_file = tmp_path / pytest_export.test_file_name(scenario_id, case_id)
    assert cli.main(["export", exported, "--pytest", "-o", str(test_file)]) == 0
    buggy, *fixed = _releases(scenario_id, case_id)
    runs = {
        version: subprocess.Popen(
            isolation.wrap(
                [
                    str(_environment(framework, version).python),
                    "-m",
                    "pytest",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    test_file.name,
                ]
            ),
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=environments.worker_environment(tmp_path),
        )
        for version in dict.fromkeys((buggy, *fixed))
    }
    outcomes = {version: (proc.communicate(timeout=300)[0][-3000:], proc.returncode) for version, proc in runs.items()}
    buggy_out, buggy_rc = outcomes.pop(buggy)
    assert buggy_rc == 1 and "1 failed" in buggy_out and "AssertionError" in buggy_out, (buggy, buggy_out)
    for version, (out, rc) in outcomes.items():
        assert rc == 0 and "1 passed" in out, (version, out)
