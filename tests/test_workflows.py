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
import re
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
