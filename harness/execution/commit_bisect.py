"""``bisect --commits CLONE``: from a release boundary to the first commit of its newer outcome.

``python -m harness bisect <scenario-id>[:<case>] --commits CLONE [--from A --to B] [--rerun]``
takes a release boundary the record knows (reports/bisect.json and reports/matrix.json: "reproduced
on 0.19.1, fixed on 0.19.2"; every boundary between two measured outcomes of the selected cases, or
the one ``--from A --to B`` names), finds the two releases' tags in CLONE (``v0.19.1``, else
``0.19.1``; a missing one is refused in one line before any work), and bisects the first-parent
commits between them with the release bisect's search (harness/execution/bisect.py ``Search``: the
two ends first, then the middle of each interval whose ends differ; a commit that does not build or
gives ``error`` is skipped, as ``git bisect run``'s 125, and its neighbour tried).

Each probe exports its commit with ``git archive`` (the clone is never written), builds it as
``candidate`` builds a checkout (harness/planning/builds.py ``commit_checkout``: uv builds the
package with its own build backend) in an environment of its own whose dependencies are resolved
as of the commit's date (uv's ``--exclude-newer``; ``--today-deps`` for today's), and runs the case
there as the matrix does (harness/execution/run.py ``run_cases``: the same worker, network guard and
deadline). Everything a probe makes lives in one temporary folder, removed after the probe and, on
any exit (an error, Ctrl-C, SIGTERM), when the command ends.

It checks itself first: the older tag must give the older release's recorded outcome and the newer
tag the newer's (a wheel can differ from its tag: google-adk #1068); when either does not, it says
so and records no commit for that boundary. What it finds goes beside the boundary in
reports/bisect.json (``commits``, harness/store/boundaries.py ``add_commit``): the commit, its
subject, date and PR, the commits between the tags, the builds made, the commits skipped, and each
probe's outcome. No wall-clock times: the seconds are printed, not recorded.
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from harness.execution import postgres
from harness.execution.bisect import Evaluate, Search, log, tracked_search
from harness.execution.run import RunSettings, run_cases
from harness.planning import builds as builds_mod
from harness.planning import commits
from harness.planning.builds import SpecError
from harness.planning.commits import Commit
from harness.project import PROJECT
from harness.rendering import reports
from harness.runtime import registry
from harness.runtime.outcomes import ERROR, NOT_APPLICABLE
from harness.runtime.runner import DEFAULT_TIMEOUT, strip_paths
from harness.runtime.scenario import Scenario
from harness.store import boundaries, result_cache, staging
from harness.store.boundaries import Boundary, Side


@dataclass
class Options:
    selector: str
    clone: Path
    start: str | None = None  # --from: the older release of the boundary
    end: str | None = None  # --to: the newer
    today_deps: bool = False
    timeout: float = DEFAULT_TIMEOUT
    rerun: bool = False  # bisect a boundary again even when its commit is recorded
    root: Path = PROJECT.root
    pool: str = "cold"  # a commit's build is new each time: no warm worker to reuse
    pool_memory_mb: float | None = None


@dataclass(frozen=True)
class Target:
    """One release boundary of one case to bisect, with its two tags and the commits between them."""

    case: str
    boundary: Boundary
    older_tag: str
    newer_tag: str
    history: tuple[Commit, ...]  # the older tag's commit, then every first-parent commit up to the newer tag's

    @property
    def name(self) -> str:
        return f"{self.boundary.before.version} -> {self.boundary.after.version}"


# --- evaluating a commit -------------------------------------------------------------------


@dataclass
class CommitEvaluator:
    """Builds one commit in a folder of its own under ``work`` and runs the cases there (``run_cases``,
    as the matrix runs them); the folder is removed before it returns."""

    clone: Path
    framework: str
    scenario: Scenario
    case_ids: list[str]
    settings: RunSettings
    work: Path
    by_sha: dict[str, Commit]
    tags: dict[str, str] = field(default_factory=dict)  # sha -> the release tag it is, shown beside it
    built: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def label(self, sha: str) -> str:
        tag = f" ({self.tags[sha]})" if sha in self.tags else ""
        return f"{self.framework}@{self.by_sha[sha].short}{tag}"

    def __call__(self, sha: str) -> dict[str, tuple[str, str]]:
        label = f"{self.framework}@{self.by_sha[sha].short}"
        folder = Path(tempfile.mkdtemp(prefix=f"{sha[: commits.SHORT]}-", dir=self.work))
        try:
            try:
                source = commits.export(self.clone, sha, folder / "src")
                build = builds_mod.commit_checkout(source, label, self.by_sha[sha].date)
            except (OSError, SpecError) as exc:
                return self._failed(sha, label, f"does not build: {strip_paths(str(exc))}")
            if build.framework != self.framework:
                return self._failed(sha, label, f"does not build: its package is {build.framework}")
            pairs = [(self.scenario, self.scenario.case(c)) for c in self.case_ids]
            run = run_cases(build, pairs, dataclasses.replace(self.settings, builds_dir=folder / "envs"))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if run.install_error:
            return self._failed(sha, label, run.install_error)
        self.built.append(sha)
        log(
            f"  {label}: env built in {run.build_seconds:.1f}s "
            f"(dependencies as of {build.dependency_date or 'today'}), "
            f"{run.ran} case{'s' if run.ran != 1 else ''} run in {run.run_seconds:.1f}s"
        )
        return {r.case: (r.outcome, r.detail) for r in run.results}

    def _failed(self, sha: str, label: str, reason: str) -> dict[str, tuple[str, str]]:
        """A commit that gives nothing to measure: skipped (git bisect run's 125), and said."""
        self.failed.append(sha)
        log(f"  {label}: skipped: {reason}")
        return dict.fromkeys(self.case_ids, (ERROR, reason))


# --- what to bisect ------------------------------------------------------------------------


def _boundaries_of(known: boundaries.Known, case: str, start: str | None, end: str | None) -> list[Boundary]:
    """The release boundaries of one case to bisect: the one ``--from``/``--to`` name, else every
    step between two measured outcomes (a step from or to not-applicable is where the case became
    measurable, not a change of the framework's behaviour; name it with --from/--to to bisect it)."""
    if start is None and end is None:
        return [b for b in known.boundaries if NOT_APPLICABLE not in (b.before.outcome, b.after.outcome)]
    if start is None or end is None:
        raise SpecError("--commits with --from needs --to too (and --to needs --from): the boundary's two releases")
    sides = []
    for flag, version in (("--from", start), ("--to", end)):
        outcome = known.points.get(version, ERROR)
        if outcome == ERROR:
            answered = ", ".join(v for v, o in known.points.items() if o != ERROR) or "none"
            raise SpecError(
                f"{flag} {version}: the record has no outcome of {case} on {version}; "
                f"releases with one: {answered} (bisect or run the release first)"
            )
        sides.append(Side(version, outcome))
    if sides[0].outcome == sides[1].outcome:
        raise SpecError(
            f"--from {start} --to {end}: {case} is {sides[0].outcome} on both; a commit bisect needs two outcomes"
        )
    return [Boundary(sides[0], sides[1], f"{sides[0].outcome} -> {sides[1].outcome}")]


def targets(
    clone: Path,
    framework: str,
    scenario: Scenario,
    cases: list[str],
    known: dict[str, boundaries.Known],
    options: Options,
) -> list[Target]:
    """Every boundary to bisect with its tags and commits; a SpecError (one line) for a missing tag."""
    found = []
    for case in cases:
        for b in _boundaries_of(known[case], case, options.start, options.end):
            tags = []
            for version in (b.before.version, b.after.version):
                tag = commits.tag_of(clone, version)
                if tag is None:
                    raise SpecError(
                        f"{framework} {version} has no tag in {clone} (looked for v{version} and {version}): "
                        f"the boundary {b.before.version} -> {b.after.version} of {scenario.id}:{case} is not in "
                        "this clone; fetch its tags (git fetch --tags) or give a newer clone"
                    )
                tags.append(tag)
            history = (commits.commit(clone, tags[0]), *commits.between(clone, tags[0], tags[1]))
            found.append(Target(case, b, tags[0], tags[1], history))
    if not found:
        raise SpecError(
            f"{scenario.id}: the record has no release boundary between two measured outcomes of "
            f"{', '.join(cases)}; bisect its releases first (nox -s bisect -- {scenario.id}) "
            "or name one with --from/--to"
        )
    return found


# --- one boundary ----------------------------------------------------------------------------


@dataclass
class Found:
    """What a commit bisect of one boundary measured; ``entry`` is None when it records no commit."""

    target: Target
    entry: dict | None
    builds: int
    lines: list[str]


def _self_check(search: Search, target: Target) -> list[str]:
    """Why the tags do not give the releases' recorded outcomes ([] when both do)."""
    problems = []
    ends = (
        (0, target.older_tag, target.boundary.before),
        (len(target.history) - 1, target.newer_tag, target.boundary.after),
    )
    for i, tag, side in ends:
        outcome, detail = search.results(i).get(target.case, (ERROR, "the evaluation reported nothing"))
        if outcome == ERROR:
            problems.append(f"the tag {tag} gives no answer ({detail}): nothing to check the release against")
        elif outcome != side.outcome:
            problems.append(
                f"the tag {tag} gives {outcome} where the release {side.version} gave {side.outcome}: "
                "a release that is not its tag, or a dependency that matters"
            )
    return problems


def bisect_target(
    target: Target, evaluate: Evaluate, label: Callable[[str], str], title: str
) -> tuple[Search, list[str], Boundary | None]:
    """Search ``target``'s history: (the search, the self-check's problems, the step to the newer outcome)."""
    order = {c.sha: i for i, c in enumerate(target.history)}
    search, tracker = tracked_search(
        [c.sha for c in target.history],
        evaluate,
        title,
        label,
        key=order.__getitem__,
    )
    with tracker:
        problems = _self_check(search, target)
        if problems:
            return search, problems, None
        result = search.case(target.case)
    # The last step ends on the newer tag's outcome: the first commit of the newer outcome.
    return search, [], (result.boundaries[-1] if result.boundaries else None)


def entry_of(target: Target, framework: str, scenario_id: str, search: Search, step: Boundary, inputs: str) -> dict:
    """The record's entry for a found commit (harness/store/boundaries.py ``COMMIT_KEYS`` and the rest)."""
    by_sha = {c.sha: c for c in target.history}
    first = by_sha[step.after.version]
    probed = [c for c in target.history if c.sha in search.cache]
    outcome = lambda c: search.cache[c.sha].get(target.case, (ERROR, ""))  # noqa: E731
    return {
        "scenario": scenario_id,
        "case": target.case,
        "framework": framework,
        "before": target.boundary.before.version,
        "after": target.boundary.after.version,
        "before_outcome": target.boundary.before.outcome,
        "after_outcome": target.boundary.after.outcome,
        "tags": [target.older_tag, target.newer_tag],
        "commit": first.sha,
        "short": first.short,
        "subject": first.subject,
        "date": first.date,
        "pr": first.pr,
        "commits_between": len(target.history) - 1,
        "builds": len(search.order),
        # Commits between the last one with the older outcome and this one that gave no answer:
        # the first commit of the newer outcome is this one or one of them.
        "untested": [by_sha[sha].short for sha in step.skipped_between],
        "skipped": [{"commit": c.short, "reason": outcome(c)[1]} for c in probed if outcome(c)[0] == ERROR],
        "probes": [{"commit": c.short, "outcome": outcome(c)[0]} for c in probed],
        "inputs": inputs,
    }


def words(entry: dict) -> str:
    """One line for a found commit: 'first fixed by 78725420e (#4071, 2026-07-31) "subject"'."""
    pr = f"#{entry['pr']}, " if entry.get("pr") else ""
    maybe = f", or one of the untested {', '.join(entry['untested'])} before it" if entry.get("untested") else ""
    return f'{entry["after_outcome"]} from {entry["short"]} ({pr}{entry["date"][:10]}) "{entry["subject"]}"{maybe}'


# --- the command ---------------------------------------------------------------------------------


def run(options: Options, out: TextIO | None = None) -> int:
    """Bisect the commits of each selected boundary; print and record what was found. 0 when every
    boundary got its commit, 1 when a self-check failed or no commit could be named."""
    out = out or sys.stdout
    started = time.monotonic()
    root = options.root
    clone = commits.check_clone(options.clone)
    scenarios = registry.discover()
    selected = registry.select(scenarios, [options.selector])
    scenario = selected[0][0]
    framework = scenario.framework
    reports_dir = root / "reports"
    staging.check_writable(reports_dir)
    from harness.store import record

    bisect_record = boundaries.load_record(reports_dir / "bisect.json")  # refused before any work if unreadable
    document = record.load(reports_dir)
    results = document["results"] if document else []
    cases = [c.id for _, c in selected]
    inputs = result_cache.scenario_inputs(root, scenario.module, scenario.id)
    known = {c: boundaries.known(bisect_record, results, scenario.id, c, framework, inputs) for c in cases}
    todo = targets(clone, framework, scenario, cases, known, options)

    work = Path(tempfile.mkdtemp(prefix="harness-commit-bisect-"))
    # A signal's handler removes it too (the finally below may not run: SIGTERM's default ends the process).
    postgres.on_signal(lambda: shutil.rmtree(work, ignore_errors=True))
    found: list[Found] = []
    try:
        settings = RunSettings.of(options)
        for target in todo:
            found.append(_one(target, clone, framework, scenario, settings, work, bisect_record, inputs, options))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    status = 0
    for f in found:
        for line in f.lines:
            print(line, file=out)
        status |= 0 if f.entry is not None else 1
    builds = sum(f.builds for f in found)
    print(
        f"bisect --commits: {len(found)} boundar{'y' if len(found) == 1 else 'ies'}, {builds} builds; "
        f"wall time {time.monotonic() - started:.1f}s",
        file=out,
    )
    new = [f.entry for f in found if f.entry is not None and f.builds]
    if new:
        with record.transaction(reports_dir, log) as tx:
            updated = tx.bisects
            for entry in new:
                updated = boundaries.add_commit(updated, entry)
            tx.write_bisects(updated)
            if tx.existing is not None:
                tx.render(tx.existing, reports.renderer(registry.discover(), root))
        log("wrote reports/bisect.json")
    return status


def _one(
    target: Target,
    clone: Path,
    framework: str,
    scenario: Scenario,
    settings: RunSettings,
    work: Path,
    bisect_record: dict,
    inputs: str,
    options: Options,
) -> Found:
    """Bisect one boundary (or say the commit already recorded for it)."""
    b = target.boundary
    name = f"{scenario.id}:{target.case}"
    head = (
        f"{name}: {b.before.outcome} on {framework} {b.before.version} ({target.older_tag}) -> "
        f"{b.after.outcome} on {b.after.version} ({target.newer_tag})"
    )
    recorded = boundaries.commit_of(
        bisect_record, scenario.id, target.case, framework, b.before.version, b.after.version
    )
    if recorded is not None and not options.rerun and boundaries.is_current(recorded, inputs):
        return Found(target, recorded, 0, [f"{head}: {words(recorded)} (recorded; --rerun to bisect again)"])
    n = len(target.history) - 1
    log(
        f"bisect --commits {name}: {target.older_tag}..{target.newer_tag}, {n} first-parent commits "
        f"(about {2 + max(1, n).bit_length()} builds)"
    )
    by_sha = {c.sha: c for c in target.history}
    tags = {target.history[0].sha: target.older_tag, target.history[-1].sha: target.newer_tag}
    evaluator = CommitEvaluator(clone, framework, scenario, [target.case], settings, work, by_sha, tags)
    search, problems, step = bisect_target(target, evaluator, evaluator.label, f"bisect {name} {target.name}")
    builds = len(search.order)
    skipped = f", {len(evaluator.failed)} skipped (did not build or install)" if evaluator.failed else ""
    tally = f"{n} commits between the tags, {builds} builds{skipped}"
    if problems:
        lines = [f"{head}: self-check failed, no commit recorded ({tally})"]
        lines += [f"  {p}" for p in problems]
        return Found(target, None, builds, lines)
    if step is None:
        return Found(target, None, builds, [f"{head}: no commit with an answer between the tags ({tally})"])
    entry = entry_of(target, framework, scenario.id, search, step, inputs)
    lines = [f"{head}: {words(entry)} ({tally})"]
    lines += [f"  skipped {s['commit']}: {s['reason']}" for s in entry["skipped"]]
    return Found(target, entry, builds, lines)
