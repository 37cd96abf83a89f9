"""Evidence for a framework's pull request: every scenario of the framework on the candidate
build (a checkout, sdist or wheel) and on the releases it is judged against, and what changed.

The baseline is the newest final release at or below the candidate's own version (for a pull
request's checkout, the latest release; for an old release's patched sdist, that release), and
the framework's latest release is run beside it. A case **fixed** by the candidate reproduced
on the baseline and is fixed on the candidate; a **regression** was fixed on the baseline and
reproduces on the candidate. ``summary.md`` says both, then the before/after comment of every
scenario that changed (with its short reproduction); the command exits 1 when there is a
regression, naming it, and when a build could not be judged (every case of it an error: an
install failure), which the summary says first; the summary is cut at 60,000 characters.
What the reusable workflow runs (.github/workflows/framework-pr.yml).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.execution import matrix
from harness.planning import builds, index, versions
from harness.planning.builds import SpecError
from harness.project import Project
from harness.runtime import registry
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.runtime.scenario import Scenario
from harness.store.rows import Row, of_document, unjudged_lines


@dataclass(frozen=True)
class Change:
    scenario: str
    case: str
    before: str
    after: str

    @property
    def kind(self) -> str:
        if (self.before, self.after) == (REPRODUCED, FIXED):
            return "fixed"
        if (self.before, self.after) == (FIXED, REPRODUCED):
            return "regression"
        return "unchanged" if self.before == self.after else "changed"


def baseline_of(framework: str, candidate_version: str | None, cache_dir: Path) -> str:
    """The newest final release at or below the candidate's version (the latest without one)."""
    finals = [r.version for r in index.final_releases(framework, cache_dir)]
    if not finals:
        raise SpecError(f"{framework} has no final release on the package index")
    if candidate_version is None:
        return finals[-1]
    key = versions.key(candidate_version)
    below = [v for v in finals if versions.key(v) <= key]
    return below[-1] if below else finals[0]


def changes(results: list[Row], baseline: str, candidate: str) -> list[Change]:
    """One change per case the baseline and the candidate both ran, in the record's order."""
    by = {r.key: r.outcome for r in results}
    seen: list[tuple[str, str]] = []
    for r in results:
        if (r.scenario, r.case) not in seen:
            seen.append((r.scenario, r.case))
    return [
        Change(s, c, by[(s, c, baseline)], by[(s, c, candidate)])
        for s, c in seen
        if (s, c, baseline) in by and (s, c, candidate) in by
    ]


def _lines(title: str, items: list[Change]) -> list[str]:
    if not items:
        return [f"**{title}:** none.", ""]
    return [f"**{title}:**", "", *[f"- `{c.scenario}:{c.case}` ({c.before} → {c.after})" for c in items], ""]


def summary(
    framework: str,
    candidate: str,
    baseline: str,
    latest: str,
    found: list[Change],
    comments: dict[str, str],
    cannot_judge: list[str] | None = None,
) -> str:
    """The job summary: first the builds the run could not judge (``cannot_judge``: every case an
    error), what the candidate fixes and breaks, then each changed scenario's comment; cut at
    ``MAX_SUMMARY_CHARS`` (harness/rendering/summary.py), saying what was cut."""
    from harness.rendering.summary import cap

    fixed = [c for c in found if c.kind == "fixed"]
    regressions = [c for c in found if c.kind == "regression"]
    other = [c for c in found if c.kind == "changed"]
    against = f"`{baseline}`" + (f" (latest release: `{latest}`)" if latest != baseline else " (the latest release)")
    out = [
        f"## agent-bug-harness: {framework} candidate `{candidate}`",
        "",
        f"Every {framework} scenario of the harness ({len(found)} cases) on the candidate and on {against}.",
        "",
    ]
    if cannot_judge:
        out += [
            "**The run could not judge every build; its verdicts below do not speak for them:**",
            "",
            *(f"- {line}" for line in cannot_judge),
            "",
        ]
    out += [
        *_lines("Fixed by the candidate", fixed),
        *_lines("Regressions (fixed before, reproduced on the candidate)", regressions),
    ]
    if other:
        out += _lines("Other changes (a person should look)", other)
    out += [f"{sum(c.kind == 'unchanged' for c in found)} cases unchanged.", ""]
    for scenario_id, text in comments.items():
        out += ["<details>", f"<summary>{scenario_id}: the before/after comment</summary>", "", text, "</details>", ""]
    return cap("\n".join(out).rstrip() + "\n", "every scenario's report is in this evidence folder")


def _matrix(specs: list[str], only: list[str], out: Path, root: Path, timeout: float | None, jobs: int | None) -> dict:
    options = matrix.Options(specs=specs, only=only, out=out, root=root)
    if timeout:
        options.timeout = timeout
    if jobs:
        options.jobs = jobs
    matrix.run(options)  # its exit status speaks of snapshots; the evidence is the outcomes
    return json.loads((out / "matrix.json").read_text())


def run(
    path: str, out: Path, root: Path, base: str | None = None, timeout: float | None = None, jobs: int | None = None
) -> int:
    """Run the evidence into ``out``; 1 when the candidate regresses a case, 2 for bad input."""
    from harness.rendering import comment, reports
    from harness.store import record, staging

    record.refuse_record_folder(out, root)
    cache_dir = Project(root).cache
    build = builds.parse(path, cache_dir)
    if build.release or build.local_path is None:
        raise SpecError(f"{path}: not a local build; give the path of a checkout, sdist or wheel of a framework")
    framework = build.framework
    scenarios: dict[str, Scenario] = {k: s for k, s in registry.discover().items() if s.framework == framework}
    if not scenarios:
        raise SpecError(f"the harness has no {framework} scenario")
    only = sorted(scenarios)
    # The candidate first: a checkout's version is known once it is built (a dynamic version).
    ran = _matrix([path], only, out / "candidate", root, timeout, jobs)
    version = next((r.version for r in of_document(ran) if r.source == build.source and r.version), None)
    baseline = base or baseline_of(framework, version or build.version, cache_dir)
    latest = index.final_releases(framework, cache_dir)[-1].version
    specs = [f"{framework}=={v}" for v in sorted({baseline, latest}, key=versions.key)]
    released = _matrix(specs, only, out / "releases", root, timeout, jobs)
    order = {(s.id, c.id): i for i, (s, c) in enumerate(registry.select(scenarios, []))}
    results = sorted(of_document(released) + of_document(ran), key=record.sort_key(order))
    document = record.document_of(
        results, released.get("environments", []) + ran.get("environments", []), released.get("harness")
    )
    # The before/after report of every scenario, in out/ (with its matrix.json), all or nothing.
    record.write_folder(out, document, reports.renderer(scenarios, root), record.bisect_record(root / "reports"))
    found = changes(results, f"{framework}=={baseline}", build.source)
    changed = sorted({c.scenario for c in found if c.kind != "unchanged"})
    link_base = comment.link_base_of(root)
    comments = {
        # The folder by its name only: the comment names the report inside the evidence artifact.
        s: comment.render(reports.scenario_metadata(scenarios[s]), document, out.name, link_base=link_base)
        for s in changed
    }
    cannot_judge = unjudged_lines(results)
    text = summary(
        framework, build.source, f"{framework}=={baseline}", f"{framework}=={latest}", found, comments, cannot_judge
    )
    staging.write_file(out / "summary.md", text)
    for line in cannot_judge:
        print(line, file=sys.stderr)
    print(f"summary: {out / 'summary.md'}", file=sys.stderr)
    regressions = [c for c in found if c.kind == "regression"]
    for c in regressions:
        print(
            f"regression: {c.scenario}:{c.case} was fixed on {framework} {baseline}, reproduces on {build.source}",
            file=sys.stderr,
        )
    return 1 if regressions or cannot_judge else 0
