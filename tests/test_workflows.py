"""The GitHub workflows: valid against GitHub's workflow schema, and running what README documents.

The schema is the one check-jsonschema vendors (``vendor.github-workflows``, from
SchemaStore) plus its ``custom.github-workflows-require-timeout`` (every job has a
timeout), read from the installed package: no network. The commands are every line of
every ``run:`` step; README's "Continuous integration" section lists them in its ``sh``
blocks, and the two must be the same set, so a workflow cannot run something README does
not say, nor README promise a command no workflow runs. ``.ci/run`` runs README's checks too.
"""

from __future__ import annotations

import copy
import os
import re
import subprocess
from pathlib import Path

import jsonschema
import pytest
from check_jsonschema.builtin_schemas import get_builtin_schema
from markdown_it import MarkdownIt
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
SCHEMAS = ["vendor.github-workflows", "custom.github-workflows-require-timeout"]


def load_workflow(path: Path) -> dict:
    # YAML 1.2 (ruamel's safe loader), as GitHub reads it: `on` is a key, not the boolean true.
    return YAML(typ="safe", pure=True).load(path.read_text())


def schema_errors(document: dict) -> list[str]:
    errors = []
    for name in SCHEMAS:
        schema = get_builtin_schema(name)
        validator = jsonschema.validators.validator_for(schema)
        for error in validator(schema, format_checker=validator.FORMAT_CHECKER).iter_errors(document):
            errors.append(f"{name}: {'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}")
    return errors


def test_there_are_workflows():
    assert {p.name for p in WORKFLOWS} >= {"matrix.yml", "checks.yml"}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_matches_the_github_workflow_schema(path):
    assert schema_errors(load_workflow(path)) == []


def _without(key: str) -> dict:
    document = copy.deepcopy(load_workflow(ROOT / ".github" / "workflows" / "checks.yml"))
    del document["jobs"]["checks"][key]
    return document


@pytest.mark.parametrize(
    ("broken", "schema", "where"),
    [
        (lambda: _without("runs-on"), "vendor.github-workflows", "jobs/checks"),
        (lambda: _without("timeout-minutes"), "custom.github-workflows-require-timeout", "jobs/checks"),
        (lambda: {**_without("name"), "permissions": {"contents": "reed"}}, "vendor.github-workflows", "permissions"),
    ],
    ids=["no-runs-on", "no-timeout", "misspelt-permission"],
)
def test_the_schema_check_refuses_a_broken_workflow(broken, schema, where):
    """The check can fail: each mutation of a valid workflow is refused, at its place."""
    errors = schema_errors(broken())
    assert any(e.startswith(f"{schema}: {where}") for e in errors), errors


def workflow_commands() -> dict[str, set[str]]:
    """command -> the workflows that run it (every non-empty, non-comment line of every run: step)."""
    commands: dict[str, set[str]] = {}
    for path in WORKFLOWS:
        for job in load_workflow(path)["jobs"].values():
            for step in job.get("steps", []):
                for line in step.get("run", "").splitlines():
                    line = line.strip()
                    if line and not line.startswith("#"):
                        commands.setdefault(line, set()).add(path.name)
    return commands


def strip_comment(line: str) -> str:
    """A shell line without its trailing comment (`  # ...`, as README writes them)."""
    return "" if line.lstrip().startswith("#") else re.split(r"\s#\s", line, maxsplit=1)[0].strip()


def readme_ci_commands() -> set[str]:
    """The commands in the sh blocks of README's "Continuous integration" section."""
    tokens = MarkdownIt("commonmark").parse((ROOT / "README.md").read_text())
    commands: set[str] = set()
    inside = False
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            inside = tokens[i + 1].content == "Continuous integration"
        elif inside and token.type == "fence" and token.info.strip() == "sh":
            commands |= {strip_comment(line) for line in token.content.splitlines()} - {""}
    return commands


def test_strip_comment_keeps_quotes_and_drops_comments():
    assert (
        strip_comment('nox -s matrix -- --shard "$SHARD"   # one runner per SHARD')
        == 'nox -s matrix -- --shard "$SHARD"'
    )
    assert strip_comment("python3 -m pip install nox uv") == "python3 -m pip install nox uv"
    assert strip_comment("# only a comment") == ""
    assert strip_comment('echo "a#b"') == 'echo "a#b"'


def test_workflows_run_exactly_the_commands_readme_documents():
    documented = readme_ci_commands()
    run = workflow_commands()
    assert documented, "README has no sh block under '## Continuous integration'"
    undocumented = {c: sorted(w) for c, w in run.items() if c not in documented}
    assert undocumented == {}, "workflow commands README does not document"
    assert documented - set(run) == set(), "README documents commands no workflow runs"


def test_ci_run_and_the_pull_request_workflow_run_the_same_checks():
    ci_run = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    checks = workflow_commands()
    nox_lines = [line for line in ci_run if line.startswith("nox ")]
    # .ci/run names each session on a line of its own (the README's test command, `nox -s tests`,
    # as written); together they are the pull-request workflow's `nox -s lint tests`.
    assert nox_lines == ["nox -s lint", "nox -s tests"]
    assert "checks.yml" in checks["nox -s lint tests"]
    assert "nox -s lint tests" in readme_ci_commands()


def test_every_action_is_pinned_by_commit_with_its_version_in_a_comment():
    """What zizmor's unpinned-uses checks, plus the version comment a reviewer reads."""
    for path in WORKFLOWS:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "uses:" not in line.split("#")[0]:
                continue
            ref = line.split("uses:", 1)[1].split("#")[0].strip()
            comment = line.split("#", 1)[1].strip() if "#" in line else ""
            action, _, sha = ref.partition("@")
            where = f"{path.name}:{number}: {line.strip()}"
            assert len(sha) == 40 and all(c in "0123456789abcdef" for c in sha), where
            assert comment.startswith("v") and comment[1:2].isdigit(), where
            assert action.count("/") >= 1, where


def test_the_caller_readme_shows_is_a_valid_workflow_calling_the_reusable_one():
    """The dozen lines a framework repository adds (README, 'On a framework's own pull requests')."""
    tokens = MarkdownIt("commonmark").parse((ROOT / "README.md").read_text())
    [block] = [t.content for t in tokens if t.type == "fence" and t.info.strip() == "yaml"]
    caller = YAML(typ="safe", pure=True).load(block)
    assert schema_errors(caller) == []
    [job] = caller["jobs"].values()
    assert job["uses"].split("@")[0].endswith("/.github/workflows/framework-pr.yml")
    reusable = load_workflow(ROOT / ".github" / "workflows" / "framework-pr.yml")
    assert set(job["with"]) <= set(reusable["on"]["workflow_call"]["inputs"])


# The pull-request bot (issue 37): the reusable evidence workflow and the companion that comments.
FRAMEWORK_PR = ROOT / ".github" / "workflows" / "framework-pr.yml"
COMPANION = ROOT / ".github" / "workflows" / "framework-pr-comment.yml"


def readme_caller() -> dict:
    tokens = MarkdownIt("commonmark").parse((ROOT / "README.md").read_text())
    [block] = [t.content for t in tokens if t.type == "fence" and t.info.strip() == "yaml"]
    return YAML(typ="safe", pure=True).load(block)


def test_the_harness_repository_and_ref_are_required_inputs_with_no_default():
    """Issue 37: `harness-ref` silently defaulted to `main`; now the caller must say it."""
    inputs = load_workflow(FRAMEWORK_PR)["on"]["workflow_call"]["inputs"]
    for name in ("harness-repository", "harness-ref"):
        assert inputs[name]["required"] is True
        assert "default" not in inputs[name]


def test_the_readme_caller_has_only_the_harness_repository_to_fill_in():
    """The repository and ref of its `uses:` line are the ones it passes (said once each, no second placeholder)."""
    caller = readme_caller()
    [job] = caller["jobs"].values()
    repository, _, ref = job["uses"].partition("/.github/workflows/framework-pr.yml@")
    assert (job["with"]["harness-repository"], job["with"]["harness-ref"]) == (repository, ref)
    assert repository == "OWNER/agent-bug-harness"
    text = YAML(typ="safe", pure=True).load(repr(caller))  # the block's values, without comments
    assert "COMMIT" not in str(text)
    # The companion's variables are the same two values, and it listens to the caller by its name.
    companion = load_workflow(COMPANION)
    assert (companion["env"]["HARNESS_REPOSITORY"], companion["env"]["HARNESS_REF"]) == (repository, ref)
    assert companion["on"]["workflow_run"]["workflows"] == [caller["name"]]


def test_the_build_reads_only_and_the_poster_runs_no_code_of_the_pull_request():
    """Fork safety: the job that builds the pull request has a read-only token; the one that may
    write checks out only the harness's poster (never the run's head) and runs nothing else."""
    evidence = load_workflow(FRAMEWORK_PR)
    assert evidence["permissions"] == {}
    assert [job["permissions"] for job in evidence["jobs"].values()] == [{"contents": "read"}]
    companion = load_workflow(COMPANION)
    assert companion["permissions"] == {}
    [job] = companion["jobs"].values()
    assert job["permissions"] == {"actions": "read", "pull-requests": "write"}
    assert "github.event.workflow_run.event == 'pull_request'" in job["if"]
    checkouts = [s for s in job["steps"] if "uses" in s]
    assert [s["uses"].split("@")[0] for s in checkouts] == ["actions/checkout"]
    [checkout] = checkouts
    assert checkout["with"]["repository"] == "${{ env.HARNESS_REPOSITORY }}"
    assert checkout["with"]["ref"] == "${{ env.HARNESS_REF }}"
    assert checkout["with"]["sparse-checkout"] == "harness/commands/pr_comment.py"
    assert checkout["with"]["persist-credentials"] is False
    runs = [s["run"].strip() for s in job["steps"] if "run" in s]
    assert runs == ["python3 -I harness/harness/commands/pr_comment.py"]
    assert not any("workflow_run" in str(value) for value in checkout["with"].values())


def test_every_workflow_run_trigger_carries_zizmors_ignore_with_a_reason():
    """zizmor's dangerous-triggers audit names every workflow_run; each kept one says why, on its line."""
    for path in WORKFLOWS:
        for line in path.read_text().splitlines():
            if line.strip().startswith("workflow_run:"):
                comment = line.split("# zizmor: ignore[dangerous-triggers]", 1)
                assert len(comment) == 2 and len(comment[1].strip()) > 20, f"{path.name}: {line.strip()}"


def step_script(path: Path, name: str) -> str:
    [job] = load_workflow(path)["jobs"].values()
    [step] = [s for s in job["steps"] if s.get("name") == name]
    return step["run"]


def run_step(script: str, tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """A run: step as GitHub's runner runs it (bash -e, the script in a file)."""
    (tmp_path / "step.sh").write_text(script)
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(tmp_path / "step.sh")],
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("status", [0, 1, 2, 3])
def test_the_evidence_step_keeps_the_harness_status_for_the_later_steps(tmp_path, status):
    """The candidate's status is kept (the evidence is uploaded whatever it is), not lost under bash -e."""
    shims = tmp_path / "bin"
    shims.mkdir()
    (shims / "nox").write_text(f"#!/bin/sh\nexit {status}\n")
    (shims / "nox").chmod(0o755)
    output = tmp_path / "output"
    script = step_script(FRAMEWORK_PR, "Run every scenario on the pull request and its baseline release")
    done = run_step(script, tmp_path, {"PATH": f"{shims}:{os.environ['PATH']}", "GITHUB_OUTPUT": str(output)})
    assert done.returncode == 0, done.stderr
    assert output.read_text() == f"status={status}\n"


@pytest.mark.parametrize(
    ("status", "exit_code", "message"),
    [
        ("0", 0, None),
        ("1", 1, "::error::exit 1: a case fixed on the baseline is not fixed on the pull request"),
        ("2", 2, "::error::bad input (exit 2)"),
        ("3", 1, "::error::exit 3"),
        ("", 1, "::error::exit :"),
    ],
)
def test_the_check_fails_on_any_nonzero_status_and_names_bad_input(tmp_path, status, exit_code, message):
    """Issue 37: a check that fails on a regression and on a run that could not judge, bad input said
    apart; issue 52: its message says a fixed case lost (not only reproduced) fails it."""
    script = step_script(FRAMEWORK_PR, "Fail on a fixed case lost, a run that could not judge, or bad input")
    done = run_step(script, tmp_path, {"STATUS": status})
    assert done.returncode == exit_code
    assert (message in done.stdout) if message else done.stdout == ""


def test_the_evidence_records_the_pull_request_and_status_the_poster_reads(tmp_path):
    """Issue 37: fork-safe posting needs the number in the artifact (a fork's run cannot comment itself)."""
    script = step_script(FRAMEWORK_PR, "Record the pull request and the status for the comment")
    done = run_step(script, tmp_path, {"PULL_REQUEST": "42", "STATUS": "1"})
    assert done.returncode == 0, done.stderr
    evidence = tmp_path / "evidence"
    assert (evidence / "pull-request").read_text() == "42\n"
    assert (evidence / "exit-status").read_text() == "1\n"


def test_the_readme_caller_saved_as_a_workflow_passes_zizmor(tmp_path):
    """Issue 52: copied as is, the README's caller gave zizmor a high finding (`@main`: a third
    party's moving branch beside a companion that writes to pull requests). Saved as the file a
    framework repository adds, with the companion beside it, zizmor (offline, as `nox -s lint`
    runs it) finds nothing; and the `uses:` ref is a full commit, the one `harness-ref` names."""
    import sys

    tokens = MarkdownIt("commonmark").parse((ROOT / "README.md").read_text())
    [block] = [t.content for t in tokens if t.type == "fence" and t.info.strip() == "yaml"]
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "agent-bug-harness.yml").write_text(block)
    (workflows / COMPANION.name).write_text(COMPANION.read_text())
    zizmor = Path(sys.executable).parent / "zizmor"
    assert zizmor.exists(), "zizmor is not installed beside pytest; `nox -s tests` installs the lint group"
    found = subprocess.run(
        [str(zizmor), "--offline", "--strict-collection", "--min-severity", "informational", str(workflows)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert found.returncode == 0, found.stdout + found.stderr
    [job] = readme_caller()["jobs"].values()
    ref = job["uses"].rsplit("@", 1)[1]
    assert re.fullmatch(r"[0-9a-f]{40}", ref), job["uses"]
    assert "# main, " in block, "the pin's comment says which branch and date it was taken from"


def test_every_workflow_installs_nox_and_uv_at_pinned_versions():
    """Issue 52: the workflows installed nox and uv unpinned on every run; each install line pins
    both with ==, the same versions everywhere (.ci/run and README's CI block included)."""
    lines = [
        (path.name, line.strip())
        for path in [*WORKFLOWS, ROOT / ".ci" / "run"]
        for line in path.read_text().splitlines()
        if "pip install" in line
    ]
    assert lines, "no workflow installs nox and uv"
    pins = set()
    for name, line in lines:
        found = dict(re.findall(r"\b(nox|uv)==([0-9][0-9.]*)", line))
        assert set(found) == {"nox", "uv"}, f"{name}: {line}"
        assert not re.search(r"\b(nox|uv)(\s|$)", line.split("install", 1)[1]), f"{name}: an unpinned tool: {line}"
        pins.add(tuple(sorted(found.items())))
    assert len(pins) == 1, f"the workflows pin different versions: {pins}"
    assert any(f"nox=={dict(next(iter(pins)))['nox']}" in c for c in readme_ci_commands())
