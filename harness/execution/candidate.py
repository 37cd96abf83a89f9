"""Evidence for a framework's pull request: every scenario of the framework on the candidate
build (a checkout, sdist or wheel) and on the releases it is judged against, and what changed.

The baseline is the newest final release at or below the candidate's own version (for a pull
request's checkout, the latest release; for an old release's patched sdist, that release), and
the framework's latest release is run beside it. A case **fixed** by the candidate reproduced
on the baseline and is fixed on the candidate; a **regression** was fixed on the baseline and is
not fixed on the candidate: reproduced again (regressed) or changed to unexpected, error or
not-applicable. ``summary.md`` says both, each regression with its timeline diff, then the changes
the framework's waivers accept (its .agent-bug-harness.toml, harness/planning/waivers.py), the
other changes (listed for a person; they do not fail), and the before/after comment of every
scenario that changed (with the bug's script and the commands that run it); the command exits 1
when there is a regression no waiver accepts, naming it, and when a build could not be judged
(every case of it an error: an install failure), which the summary says first; the summary is
cut at 60,000 characters.
Each run writes one folder of its own (reports/runs/candidate/<candidate>-<UTC time>/, or exactly
the new or empty ``--out``): summary.md (each changed scenario's comment with the bug's script
and the commands that run it on the baseline and on a checkout), each scenario's report, matrix.json,
and the two steps' folders. Its progress
names the two steps (harness/execution/progress.py). What the reusable workflow runs
(.github/workflows/framework-pr.yml).
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.execution import checkout, matrix
from harness.planning import builds, index, interpreters, versions, waivers
from harness.planning.builds import SpecError
from harness.planning.waivers import FILE_NAME, Waiver
from harness.project import Project
from harness.runtime import registry
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.runtime.scenario import Scenario
from harness.store.document import Record
from harness.store.rows import Row, unjudged_lines


@dataclass(frozen=True)
class Change:
    """One case's verdict on the baseline (``before``) and on the candidate (``after``), with the
    diff of their timelines and the framework's waiver that accepts the change, if one does."""

    scenario: str
    case: str
    before: str
    after: str
    diff: str = ""
    accepted: Waiver | None = None
    python: str = interpreters.DEFAULT  # the interpreter both ran on (--python)

    @property
    def id(self) -> str:
        return f"{self.scenario}:{self.case}"

    @property
    def label(self) -> str:
        """The case as the summary names it: with its interpreter where that is not the default."""
        return self.id if self.python == interpreters.DEFAULT else f"{self.id} on {interpreters.label(self.python)}"

    @property
    def kind(self) -> str:
        """fixed (reproduced -> fixed), regression (fixed -> reproduced), lost (fixed -> anything
        else: unexpected, error, not-applicable), changed (any other change), or unchanged."""
        if self.before == self.after:
            return "unchanged"
        if (self.before, self.after) == (REPRODUCED, FIXED):
            return "fixed"
        if self.before == FIXED:
            return "regression" if self.after == REPRODUCED else "lost"
        return "changed"

    @property
    def fails(self) -> bool:
        """A case fixed on the baseline and not fixed on the candidate, which no waiver accepts:
        the check is red (issue 52: a fixed case that turns unexpected is as lost as one that
        reproduces)."""
        return self.kind in ("regression", "lost") and self.accepted is None


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


def changes(
    results: list[Row], baseline: str, candidate: str, waived: tuple[Waiver, ...] = (), version: str | None = None
) -> list[Change]:
    """One change per case and interpreter the baseline and the candidate both ran, in the record's
    order (the baseline on an interpreter is compared with the candidate on the same one); a change
    that one of ``waived`` names (its case, from and to), in force for the candidate's ``version``,
    is accepted."""
    from harness.rendering.comment import timeline_diff

    by = {(r.scenario, r.case, r.source, r.python): r for r in results}
    seen: list[tuple[str, str, str]] = []
    for r in results:
        if (r.scenario, r.case, r.python) not in seen:
            seen.append((r.scenario, r.case, r.python))
    waiver = {(w.id, w.before, w.after): w for w in waived if w.holds_for(version)}
    out = []
    for s, c, py in seen:
        a, b = by.get((s, c, baseline, py)), by.get((s, c, candidate, py))
        if a is None or b is None:
            continue
        diff = timeline_diff(a, b) if a.outcome != b.outcome else ""
        out.append(Change(s, c, a.outcome, b.outcome, diff, waiver.get((f"{s}:{c}", a.outcome, b.outcome)), py))
    return out


def stale_waivers(waived: tuple[Waiver, ...], found: list[Change], version: str | None) -> list[str]:
    """The waivers that accepted nothing in this run, each with why: past its ``until``, or no case
    made that change."""
    used = {c.accepted for c in found if c.accepted is not None}
    out = []
    for w in waived:
        if w in used:
            continue
        if not w.holds_for(version):
            out.append(f"{w.describe()}: expired (the candidate is {version}, past {w.until})")
        else:
            out.append(f"{w.describe()}: matched no change of this run")
    return out


# Lines of one case's timeline diff in the summary; the scenario's comment below has the rest.
DIFF_LINES = 40
FAILING = "Regressions (fixed on the baseline, not fixed on the candidate: the check fails)"


def _lines(title: str, items: list[Change], note: Callable[[Change], str] | None = None) -> list[str]:
    if not items:
        return [f"**{title}:** none.", ""]
    note = note or (lambda c: "")
    return [f"**{title}:**", "", *[f"- `{c.label}` ({c.before} → {c.after}){note(c)}" for c in items], ""]


def _diffs(items: list[Change]) -> list[str]:
    out: list[str] = []
    for c in items:
        if not c.diff:
            continue
        lines = c.diff.rstrip("\n").splitlines()
        if len(lines) > DIFF_LINES:
            lines = lines[:DIFF_LINES] + [f"… {len(lines) - DIFF_LINES} more diff lines: the scenario's comment below"]
        body = "\n".join(lines)
        fence = "`" * max(3, max((len(run) for run in _backtick_runs(body)), default=0) + 1)
        out += ["<details>", f"<summary>{c.label}: the baseline's timeline → the candidate's</summary>", ""]
        out += [f"{fence}diff", body, fence, "", "</details>", ""]
    return out


def _failing_note(c: Change, fixes: dict[str, str]) -> str:
    """': regressed' or ': changed', with the upstream commit that fixed the case where the record has it."""
    said = ": regressed" if c.kind == "regression" else ": changed"
    return f"{said}; the case was {fixes[c.id]}" if fixes.get(c.id) else said


def _backtick_runs(text: str) -> list[str]:
    return re.findall(r"`+", text)


def summary(
    framework: str,
    candidate: str,
    baseline: str,
    latest: str,
    found: list[Change],
    comments: dict[str, str],
    cannot_judge: list[str] | None = None,
    stale: list[str] | None = None,
    waiver_file: str | None = None,
    fixes: dict[str, str] | None = None,
    only: list[str] | None = None,
) -> str:
    """The job summary: first the builds the run could not judge (``cannot_judge``: every case an
    error), what the candidate fixes, then every case fixed on the baseline and not on the
    candidate (regressed: reproduced again; changed: unexpected, error or not applicable), each
    with its timeline diff, under the heading that fails the check; then the changes the
    framework's waivers (``waiver_file``) accept, with their reasons, the waivers that matched
    nothing (``stale``), the other changes, and each changed scenario's comment; cut at
    ``MAX_SUMMARY_CHARS`` (harness/rendering/summary.py), saying what was cut. ``fixes``: case id
    -> the commit that fixed it upstream (commit_words.fix_undone), named beside each failing case.
    ``only``: the selection --only named (None: every scenario of the framework), said in the heading."""
    from harness.rendering.summary import cap

    fixed = [c for c in found if c.kind == "fixed"]
    failing = [c for c in found if c.fails]
    accepted = [c for c in found if c.accepted is not None]
    other = [c for c in found if c.kind == "changed" and c.accepted is None]
    against = f"`{baseline}`" + (f" (latest release: `{latest}`)" if latest != baseline else " (the latest release)")
    out = [
        f"## agent-bug-harness: {framework} candidate `{candidate}`",
        "",
        (
            f"Every {framework} scenario of the harness ({len(found)} cases) on the candidate and on {against}."
            if not only
            else f"Only what --only named ({', '.join(f'`{i}`' for i in only)}: {len(found)} cases; the harness's "
            f"other {framework} scenarios were not run) on the candidate and on {against}."
        ),
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
        *_lines(FAILING, failing, lambda c: _failing_note(c, fixes or {})),
        *_diffs(failing),
    ]
    if accepted:
        title = f"Accepted by the framework's waivers ({waiver_file or FILE_NAME}; they do not fail the check)"
        out += _lines(title, accepted, lambda c: f": {c.accepted.reason} ({c.accepted.link})" if c.accepted else "")
    if stale:
        out += [f"**Waivers that accepted nothing ({waiver_file or FILE_NAME}):**", "", *(f"- {s}" for s in stale), ""]
    if other:
        out += _lines("Other changes (a person should look; they do not fail the check)", other)
    out += [f"{sum(c.kind == 'unchanged' for c in found)} cases unchanged.", ""]
    for scenario_id, text in comments.items():
        out += ["<details>", f"<summary>{scenario_id}: the before/after comment</summary>", "", text, "</details>", ""]
    return cap("\n".join(out).rstrip() + "\n", "every scenario's report is in this evidence folder")


def _fixes(found: list[Change], scenarios: dict, framework: str, baseline: str, project: Project) -> dict[str, str]:
    """Each failing case's upstream fix, as the record's commit bisect measured it (issue 48: the
    candidate summary names the commit a regression undoes)."""
    from harness.rendering import commit_words
    from harness.store import record, result_cache

    bisects = record.bisect_record(project.reports)
    out = {}
    for c in found:
        scenario = scenarios.get(c.scenario)
        if not c.fails or scenario is None:
            continue
        inputs = result_cache.scenario_inputs(project.root, scenario.module)
        words = commit_words.fix_undone(bisects, c.scenario, c.case, framework, baseline, inputs)
        if words:
            out[c.id] = words
    return out


# The candidate's two steps, as its progress lines name them.
STEP_CANDIDATE = "candidate step 1/2 (the candidate build)"
STEP_RELEASES = "candidate step 2/2 (the releases it is judged against)"
THEN_RELEASES = "next: step 2/2, the releases it is judged against"
THEN_VERDICT = "next: the verdict (summary.md)"
# Where a run's evidence goes without --out: a folder of its own per run.
RUNS_FOLDER = Path("reports") / "runs" / "candidate"


def _matrix(
    specs: list[str],
    only: list[str],
    out: Path,
    root: Path,
    timeout: float | None,
    jobs: int | None,
    step: tuple[str, str] = (STEP_CANDIDATE, THEN_RELEASES),
    history: list[float] | None = None,
    python: list[str] | None = None,
) -> Record:
    """One step of the run (a matrix run on ``specs`` on each interpreter of ``python``, the default
    one without it, for its outcomes); its matrix.json."""
    from harness.store import record

    title, then = step
    options = matrix.Options(
        specs=specs,
        only=only,
        out=out,
        root=root,
        title=title,
        then=then,
        history=history,
        evidence_only=True,
        python=python,
    )
    if timeout:
        options.timeout = timeout
    if jobs:
        options.jobs = jobs
    matrix.run(options)  # its exit status speaks of snapshots; the evidence is the outcomes
    return record.read(out / record.RECORD_NAME, str(out / record.RECORD_NAME), releases_only=False)


def run_folder(root: Path, source: str, now: float | None = None) -> Path:
    """reports/runs/candidate/<the candidate>-<UTC time>/: one folder per run, so two runs (one per
    framework, or the same candidate twice) never share one."""
    from harness.store import record

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    name = f"{record.run_name([source], [])}-{stamp}"
    folder, n = root / RUNS_FOLDER / name, 2
    while folder.exists():  # two runs in the same second
        folder, n = root / RUNS_FOLDER / f"{name}.{n}", n + 1
    return folder


def check_out_folder(out: Path) -> None:
    """A given --out is written exactly there, and must not hold files of another run (they would
    stand beside this run's summary as if they were its evidence)."""
    from harness.errors import UsageError

    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: not a folder")
    if out.is_dir() and any(out.iterdir()):
        raise UsageError(f"--out {out}: the folder is not empty; give a new folder (each run's evidence stands alone)")


def run(
    path: str,
    out: Path | None,
    root: Path,
    base: str | None = None,
    timeout: float | None = None,
    jobs: int | None = None,
    waiver_file: Path | None = None,
    python: list[str] | None = None,
    only: list[str] | None = None,
) -> int:
    """Run the evidence into ``out`` (None: a new folder under reports/runs/candidate/); 1 when a
    case fixed on the baseline is not fixed on the candidate (and no waiver accepts it) or a build
    could not be judged, 2 for bad input. The waivers are ``waiver_file``'s, or else the
    checkout's own .agent-bug-harness.toml (harness/planning/waivers.py). ``python``: the
    interpreters the candidate and the releases run on (--python; the default one without it), each
    candidate result judged against the baseline's on the same interpreter. ``only``: scenario or
    scenario:case ids of the framework to run (--only; None: every scenario of the framework)."""
    from harness.rendering import comment, reports
    from harness.rendering.metadata import ScenarioMetadata
    from harness.store import record, staging

    if out is not None:
        record.refuse_record_folder(out, root)
        check_out_folder(out)
    project = Project(root)  # the command's folders, made once
    cache_dir = project.cache
    build = builds.parse(path, cache_dir)
    if build.release or build.local_path is None:
        raise SpecError(f"{path}: not a local build; give the path of a checkout, sdist or wheel of a framework")
    if base is not None:
        builds.parse(f"{build.framework}=={base}", cache_dir)  # an unknown release: refused before any work
    waiver_file = waiver_file or waivers.find(build.local_path)
    waived = waivers.read(waiver_file, _shown(waiver_file, root)) if waiver_file else ()  # refused before any work
    if out is None:
        out = run_folder(root, build.source)
    framework = build.framework
    scenarios: dict[str, Scenario] = {k: s for k, s in registry.discover().items() if s.framework == framework}
    if not scenarios:
        raise SpecError(f"the harness has no {framework} scenario")
    selected = sorted(scenarios)
    if only:
        registry.select(registry.discover(), only)  # an unknown id: one line naming the valid ones
        other = [i for i in only if i.partition(":")[0] not in scenarios]
        if other:
            raise SpecError(
                f"--only {other[0]}: not a {framework} scenario (the candidate is {framework}); "
                f"valid: {', '.join(sorted(scenarios))}"
            )
        selected = list(only)
    # The candidate first: a checkout's version is known once it is built (a dynamic version).
    history: list[float] = []  # the candidate build's duration: step 2's first estimate
    ran = _matrix(
        [path], selected, out / "candidate", root, timeout, jobs, (STEP_CANDIDATE, THEN_RELEASES), history, python
    )
    version = next((r.version for r in ran.results if r.source == build.source and r.version), None)
    baseline = base or baseline_of(framework, version or build.version, cache_dir)
    latest = index.final_releases(framework, cache_dir)[-1].version
    specs = [f"{framework}=={v}" for v in sorted({baseline, latest}, key=versions.key)]
    released = _matrix(
        specs, selected, out / "releases", root, timeout, jobs, (STEP_RELEASES, THEN_VERDICT), history, python
    )
    order = {(s.id, c.id): i for i, (s, c) in enumerate(registry.select(scenarios, []))}
    results = sorted(released.results + ran.results, key=record.sort_key(order))
    document = record.Record.of(results, released.environments + ran.environments, released.harness)
    # The before/after report of every scenario, in out/ (with its matrix.json), all or nothing.
    record.write_folder(
        out, document, reports.renderer(scenarios, project, run_only=True), record.bisect_record(project.reports)
    )
    candidate_version = version or build.version
    found = changes(results, f"{framework}=={baseline}", build.source, waived, candidate_version)
    ran_cases = {f"{r.scenario}:{r.case}" for r in results}
    # With --only, a waiver of a case that did not run is no news about the waiver file.
    stale = stale_waivers(tuple(w for w in waived if not only or w.id in ran_cases), found, candidate_version)
    changed = sorted({c.scenario for c in found if c.kind != "unchanged"})
    link_base = checkout.link_base_of(root)
    comments = {
        # The folder by its name only: the comment names the report inside the evidence artifact.
        s: comment.render(ScenarioMetadata.of(scenarios[s]), document, out.name, link_base=link_base)
        for s in changed
    }
    cannot_judge = unjudged_lines(results)
    text = summary(
        framework,
        build.source,
        f"{framework}=={baseline}",
        f"{framework}=={latest}",
        found,
        comments,
        cannot_judge,
        stale,
        waiver_file.name if waiver_file else None,
        _fixes(found, scenarios, framework, baseline, project),
        only,
    )
    staging.write_file(out / "summary.md", text)
    for line in cannot_judge:
        print(line, file=sys.stderr)
    print(f"summary: {_shown(out / 'summary.md', root)}", file=sys.stderr)
    if changed:
        print(
            "before/after reports: " + ", ".join(_shown(out / f"{s}.md", root) for s in changed),
            file=sys.stderr,
        )
    for c in found:
        if c.fails and c.kind == "regression":
            print(
                f"regression: {c.label} was fixed on {framework} {baseline}, reproduces on {build.source}",
                file=sys.stderr,
            )
        elif c.fails:
            print(
                f"changed: {c.label} was fixed on {framework} {baseline}, is {c.after} on {build.source}",
                file=sys.stderr,
            )
        elif c.accepted is not None:
            print(
                f"accepted: {c.label} ({c.before} -> {c.after}) by {waiver_file.name if waiver_file else FILE_NAME}: "
                f"{c.accepted.reason}",
                file=sys.stderr,
            )
    for line in stale:
        print(f"waiver accepted nothing: {line}", file=sys.stderr)
    return 1 if any(c.fails for c in found) or cannot_judge else 0


def _shown(path: Path, root: Path) -> str:
    """A path as the user should read it: relative to the project when inside it."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
