"""``python -m harness export SCENARIO:CASE --pytest``: a case as a pytest test in the framework's own
test style, for a maintainer to drop into the framework's suite.

The test is written by hand beside the scenario, ``scenarios/pytest/<scenario>--<case>.py``: a real
file (linted with the tree) that replays the bug in the framework's idiom (openai-agents: its public
``agents.testing.ScriptedModel`` where the release has one, else the suite's ``FakeModel``;
google-adk: a small ``BaseLlm`` fake in the test, as its unit tests do), not the harness's script.
The export prints it under a comment header naming the upstream thread and, from the record, the
releases where the case reproduces (the test fails) and where it is fixed (the test passes).
tests/test_pytest_export.py runs every exported test in the release before the fix (it fails), the
fix's release and the newest fixed one (it passes).
"""

from __future__ import annotations

from pathlib import Path

from harness.planning import versions
from harness.project import PROJECT
from harness.rendering import reproduce
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.runtime.scenario import Case, Scenario
from harness.store.document import Record
from harness.store.rows import Row

TEMPLATE_DIR = "pytest"  # under scenarios/
# What the test does where the record has the case in each outcome.
TEST_VERDICT = {REPRODUCED: "fails", FIXED: "passes"}


def template_of(scenario: Scenario, case: Case, scenarios_dir: Path = PROJECT.scenarios) -> Path | None:
    """The case's hand-written pytest test, if it has one."""
    path = scenarios_dir / TEMPLATE_DIR / f"{scenario.id}--{case.id}.py"
    return path if path.is_file() else None


def test_file_name(scenario_id: str, case_id: str) -> str:
    """``test_<scenario>__<case>.py``: a name pytest collects, in the frameworks' snake case."""
    return f"test_{scenario_id.replace('-', '_')}__{case_id.replace('-', '_')}.py"


def _spans(rows: list[Row]) -> list[tuple[str, str, int]]:
    """Consecutive releases with one outcome: (outcome, "first – last", how many)."""
    spans: list[tuple[str, list[str]]] = []
    for r in rows:
        if spans and spans[-1][0] == r.outcome:
            spans[-1][1].append(str(r.version))
        else:
            spans.append((r.outcome, [str(r.version)]))
    return [(o, vs[0] if len(vs) == 1 else f"{vs[0]} – {vs[-1]}", len(vs)) for o, vs in spans]


def header(scenario: Scenario, case: Case, document: Record) -> list[str]:
    """Comment lines: where the test came from, the upstream thread, the releases it fails and
    passes on (the record's outcomes of the case), and how to run it."""
    rows = reproduce.case_rows(document, scenario.id, case.id)
    lines = [
        f"# {scenario.framework}: {scenario.id}:{case.id}, exported by `python -m harness export --pytest`.",
        f"# Upstream: {scenario.links[0]}" if scenario.links else "# Upstream: (no link declared)",
    ]
    lines += [f"#   see also {link}" for link in scenario.links[1:]]
    if rows:
        lines += [
            "# Where the harness's case reproduces this test fails, where it is fixed the test passes (the",
            "# harness runs it on one release of each). The record's releases, oldest first:",
        ]
        for outcome, span, count in _spans(rows):
            releases = f"{span} ({count} releases)" if count > 2 else span
            what = TEST_VERDICT.get(outcome)
            lines.append(f"#   {releases}: {outcome}" + (f", the test {what}" if what else ", not for this test"))
    fixed = [str(r.version) for r in rows if r.outcome == FIXED]
    pin = max(fixed, key=versions.key) if fixed else None
    install = f'"{scenario.framework}=={pin}"' if pin else scenario.framework
    lines += [f"# Run: pip install {install} pytest pytest-asyncio && pytest THIS_FILE", ""]
    return lines


def exported(scenario: Scenario, case: Case, document: Record) -> str:
    """The test as published: the header, then the hand-written file unchanged."""
    template = template_of(scenario, case)
    if template is None:
        raise reproduce.ExportError(
            f"{scenario.id}:{case.id} has no pytest test; the cases that have one: "
            + (", ".join(with_templates()) or "none")
        )
    return "\n".join(header(scenario, case, document)) + template.read_text(encoding="utf-8")


def with_templates(scenarios_dir: Path = PROJECT.scenarios) -> list[str]:
    """``SCENARIO:CASE`` of every case that has a pytest test."""
    return sorted(p.stem.replace("--", ":", 1) for p in (scenarios_dir / TEMPLATE_DIR).glob("*--*.py"))


def write(
    chosen: list[tuple[Scenario, Case]],
    document: Record,
    output: str | None,
    out: Path | None,
    single: bool,
) -> int:
    """``export --pytest``: each chosen case's test to ``out`` (SCENARIO:CASE: the file, SCENARIO: a
    directory; default test_SCENARIO__CASE.py here) or stdout (``-o -``). For a whole scenario the
    cases without a test are left out; a case asked for by name must have one."""
    import sys

    cases = chosen if single else [(s, c) for s, c in chosen if template_of(s, c) is not None]
    if not cases:
        raise reproduce.ExportError(
            f"{chosen[0][0].id if chosen else 'this scenario'} has no case with a pytest test; the cases that "
            "have one: " + (", ".join(with_templates()) or "none")
        )
    for scenario, case in cases:
        text = exported(scenario, case, document)
        if output == "-":
            sys.stdout.write(text)
            continue
        name = test_file_name(scenario.id, case.id)
        path = (out if single else out / name) if out is not None else Path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}; run it with pytest in an environment that has {scenario.framework}", file=sys.stderr)
    return 0
