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
reports/bisect.json (``commits``: a harness/store/bisect_record.py ``FoundCommit``): the commit, its
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
from harness.project import PROJECT, Project
from harness.rendering import commit_words, reports
from harness.runtime import registry
from harness.runtime.outcomes import ERROR, NOT_APPLICABLE
from harness.runtime.runner import DEFAULT_TIMEOUT, strip_paths
from harness.runtime.scenario import Scenario
from harness.store import bisect_record as bisect_file
from harness.store import boundaries, boundary_files, result_cache, staging
from harness.store.bisect_record import BisectRecord, ChangedFile, CommitAnswer, FoundCommit
from harness.store.boundaries import Boundary, Side


@dataclass
class Options:
    selector: str | None  # None with --all: every scenario of the clone's framework
    clone: Path
    start: str | None = None  # --from: the older release of the boundary
    end: str | None = None  # --to: the newer
    today_deps: bool = False
    timeout: float = DEFAULT_TIMEOUT
    rerun: bool = False  # bisect a boundary again even when its commit is recorded
    all: bool = False  # every boundary of the selection; one the clone cannot reach is said and left out
    root: Path = PROJECT.root
    pool: str = "cold"  # a commit's build is new each time: no warm worker to reuse
    pool_memory_mb: float | None = None


@dataclass(frozen=True)
class Target:
    """One release pair to bisect: the cases whose boundary it is (one build serves them all), its
    two tags and the commits between them."""

    scenario: Scenario
    bounds: tuple[tuple[str, Boundary], ...]  # (case, its boundary between the two releases)
    older_tag: str
    newer_tag: str
    history: tuple[Commit, ...]  # the older tag's commit, then every first-parent commit up to the newer tag's

    @property
    def before(self) -> str:
        return self.bounds[0][1].before.version

    @property
    def after(self) -> str:
        return self.bounds[0][1].after.version


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
    # (scenario, sha) -> its cases' results, shared by the release pairs of one run: a tag between two
    # adjacent boundaries (0.2.10 of 0.2.9 -> 0.2.10 -> 0.2.11) is built once.
    memo: dict[tuple[str, str], dict[str, tuple[str, str]]] = field(default_factory=dict)
    built: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def label(self, sha: str) -> str:
        tag = f" ({self.tags[sha]})" if sha in self.tags else ""
        return f"{self.framework}@{self.by_sha[sha].short}{tag}"

    def __call__(self, sha: str) -> dict[str, tuple[str, str]]:
        known = self.memo.get((self.scenario.id, sha), {})
        if all(c in known for c in self.case_ids):
            log(f"  {self.label(sha)}: built earlier in this run")
            return {c: known[c] for c in self.case_ids}
        got = self._evaluate(sha)
        self.memo[(self.scenario.id, sha)] = {**known, **got}
        return got

    def _evaluate(self, sha: str) -> dict[str, tuple[str, str]]:
        label = self.label(sha)  # the build's source: its progress lines are the tracker's item
        folder = Path(tempfile.mkdtemp(prefix=f"{sha[: commits.SHORT]}-", dir=self.work))
        try:
            try:
                source, left_out = commits.export(self.clone, sha, folder / "src")
                if left_out:
                    log(f"  {label}: {len(left_out)} files absent from the clone left out: {', '.join(left_out[:3])}")
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
    scenario: Scenario,
    cases: list[str],
    known: dict[str, boundaries.Known],
    options: Options,
    unreachable: list[str] | None = None,
) -> list[Target]:
    """Every release pair to bisect with its tags and commits. A boundary the clone cannot reach (a
    tag missing, or the older tag not on the newer one's history) is a one-line SpecError, or, given
    ``unreachable``, said there and left out (``--all``)."""
    pairs: dict[tuple[str, str], list[tuple[str, Boundary]]] = {}
    for case in cases:
        for b in _boundaries_of(known[case], case, options.start, options.end):
            pairs.setdefault((b.before.version, b.after.version), []).append((case, b))
    found = []
    for (before, after), bounds in pairs.items():
        where = f"{scenario.id}:{','.join(c for c, _ in bounds)} {before} -> {after}"
        try:
            tags = []
            for version in (before, after):
                tag = commits.tag_of(clone, version)
                if tag is None:
                    raise SpecError(
                        f"{scenario.framework} {version} has no tag in {clone} (looked for v{version} and "
                        f"{version}): the boundary {where} is not in this clone; fetch its tags "
                        "(git fetch --tags) or give a newer clone"
                    )
                tags.append(tag)
            history = (commits.commit(clone, tags[0]), *commits.between(clone, tags[0], tags[1]))
        except SpecError as exc:
            if unreachable is None:
                raise
            unreachable.append(f"{where}: not bisected: {str(exc).split(': the boundary')[0]}")
            continue
        found.append(Target(scenario, tuple(bounds), tags[0], tags[1], history))
    if not found and unreachable is None:
        raise SpecError(
            f"{scenario.id}: the record has no release boundary between two measured outcomes of "
            f"{', '.join(cases)}; bisect its releases first (nox -s bisect -- {scenario.id}) "
            "or name one with --from/--to"
        )
    return found


# --- one release pair ---------------------------------------------------------------------------


@dataclass
class Found:
    """What a commit bisect of one case's boundary measured; ``entry`` is None when it records no commit."""

    case: str
    entry: FoundCommit | None
    lines: list[str]
    new: bool = True  # to be written: found now, or a recorded one completed (its files added)


def _self_check(search: Search, target: Target, case: str, boundary: Boundary) -> list[str]:
    """Why the tags do not give the releases' recorded outcomes of ``case`` ([] when both do)."""
    problems = []
    ends = (
        (0, target.older_tag, boundary.before),
        (len(target.history) - 1, target.newer_tag, boundary.after),
    )
    for i, tag, side in ends:
        outcome, detail = search.results(i).get(case, (ERROR, "the evaluation reported nothing"))
        if outcome == ERROR:
            problems.append(f"the tag {tag} gives no answer ({detail}): nothing to check the release against")
        elif outcome != side.outcome:
            problems.append(
                f"the tag {tag} gives {outcome} where the release {side.version} gave {side.outcome}: "
                "a release that is not its tag, or a dependency that matters"
            )
    return problems


def bisect_target(
    target: Target, cases: list[str], evaluate: Evaluate, label: Callable[[str], str], title: str
) -> tuple[Search, dict[str, tuple[list[str], Boundary | None]]]:
    """Search ``target``'s history for ``cases``: the search, and per case (the self-check's
    problems, the step to the newer outcome). The tags are built first; a case whose tags disagree
    with its releases is searched no further."""
    order = {c.sha: i for i, c in enumerate(target.history)}
    search, tracker = tracked_search([c.sha for c in target.history], evaluate, title, label, key=order.__getitem__)
    bounds = dict(target.bounds)
    out: dict[str, tuple[list[str], Boundary | None]] = {}
    with tracker:
        for case in cases:
            problems = _self_check(search, target, case, bounds[case])
            if problems:
                out[case] = (problems, None)
                continue
            result = search.case(case)
            # The last step ends on the newer tag's outcome: the first commit of the newer outcome.
            out[case] = ([], result.boundaries[-1] if result.boundaries else None)
    return search, out


def entry_of(
    target: Target,
    case: str,
    search: Search,
    step: Boundary,
    inputs: str,
    builds: int,
    files: tuple[ChangedFile, ...],
) -> FoundCommit:
    """The record's entry for a found commit (harness/store/bisect_record.py ``FoundCommit``)."""
    by_sha = {c.sha: c for c in target.history}
    boundary = dict(target.bounds)[case]
    first = by_sha[step.after.version]
    probed = [c for c in target.history if c.sha in search.cache]
    outcome = lambda c: search.cache[c.sha].get(case, (ERROR, ""))  # noqa: E731
    return FoundCommit(
        scenario=target.scenario.id,
        case=case,
        framework=target.scenario.framework,
        before=boundary.before.version,
        after=boundary.after.version,
        commit=first.sha,
        short=first.short,
        subject=first.subject,
        date=first.date,
        pr=first.pr,
        before_outcome=boundary.before.outcome,
        after_outcome=boundary.after.outcome,
        tags=(target.older_tag, target.newer_tag),
        commits_between=len(target.history) - 1,
        builds=builds,
        # Commits between the last one with the older outcome and this one that gave no answer:
        # the first commit of the newer outcome is this one or one of them.
        untested=tuple(by_sha[sha].short for sha in step.skipped_between),
        skipped=tuple(CommitAnswer(c.short, outcome(c)[1]) for c in probed if outcome(c)[0] == ERROR),
        probes=tuple(CommitAnswer(c.short, outcome(c)[0]) for c in probed),
        # What the commit changed (against its first parent): the report lists the files the case ran first.
        files=files,
        inputs=inputs,
    )


def changed_files(clone: Path, sha: str) -> tuple[ChangedFile, ...]:
    """What commit ``sha`` changed against its first parent, as the record's entry holds it."""
    return tuple(ChangedFile.from_json(f) for f in commits.changed_files(clone, sha))


def _is_source(path: str) -> bool:
    """A framework source file of a repository: Python, not a test, an example or a doc."""
    parts = path.split("/")
    return path.endswith(".py") and not any(p in ("tests", "test", "examples", "contributing", "docs") for p in parts)


def excerpt_of(
    clone: Path, reports_dir: Path, scenario_id: str, case: str, boundary: Boundary, entry: FoundCommit
) -> FoundCommit:
    """The entry's ``excerpt``: its commit's diff in the files the case ran at this boundary (the
    executed-line record of ``python -m harness explain``, reports/boundaries/), or, where there is
    none, in the first two framework source files it changed; ``excerpt_of`` says which."""
    executed = commit_words.executed_files(boundary_files.read(reports_dir, scenario_id), case, boundary)
    files = [f.path for f in entry.files or ()]
    ran = [f for f in files if commit_words.ran(f, executed)]
    paths, why = (ran, "ran") if ran else ([f for f in files if _is_source(f)][:2], "source")
    return entry.replace(excerpt=tuple(commits.diff_excerpt(clone, entry.commit, paths)), excerpt_of=why)


def words(entry: FoundCommit) -> str:
    """One line for a found commit: 'fixed from 78725420e (#4071, 2026-07-31) "subject"'."""
    maybe = f", or one of the untested {', '.join(entry.untested)} before it" if entry.untested else ""
    return f'{entry.after_outcome} from {commit_words.commit_words(entry)} "{entry.subject}"{maybe}'


# --- the command ---------------------------------------------------------------------------------


def _framework_of(clone: Path) -> str:
    """The framework whose repository ``clone`` is, from its pyproject.toml at HEAD (``--all``)."""
    import tomllib

    from harness.runtime import frameworks

    try:
        name = tomllib.loads(commits.show(clone, "HEAD", "pyproject.toml")).get("project", {}).get("name", "")
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SpecError(f"--commits {clone}: no readable pyproject.toml at HEAD ({exc})") from None
    return frameworks.get(name).name


def run(options: Options, out: TextIO | None = None) -> int:
    """Bisect the commits of each selected boundary; print and record what was found. 0 when every
    boundary got its commit, 1 when a self-check failed or no commit could be named."""
    out = out or sys.stdout
    started = time.monotonic()
    project = Project(options.root)  # the command's folders, made once
    root = project.root
    clone = commits.check_clone(options.clone)
    scenarios = registry.discover()
    if options.selector:
        selected = registry.select(scenarios, [options.selector])
        plans = [(selected[0][0], [c.id for _, c in selected])]
    else:  # --all: every scenario of the clone's framework
        framework = _framework_of(clone)
        plans = [(s, [c.id for c in s.cases]) for s in scenarios.values() if s.framework == framework]
    reports_dir = project.reports
    staging.check_writable(reports_dir)
    from harness.store import record

    bisect_record = bisect_file.load(reports_dir / "bisect.json")  # refused before any work if unreadable
    document = record.load(reports_dir)
    results = document.results if document else []
    unreachable: list[str] | None = [] if options.all else None
    todo: list[tuple[Target, str]] = []
    for scenario, cases in plans:
        inputs = result_cache.scenario_inputs(root, scenario.module)
        known = {c: boundaries.known(bisect_record, results, scenario.id, c, scenario.framework, inputs) for c in cases}
        todo += [(t, inputs) for t in targets(clone, scenario, cases, known, options, unreachable)]
    for line in unreachable or []:
        print(line, file=out)
    if options.all:
        log(f"bisect --commits --all: {len(todo)} release pairs to bisect, {len(unreachable or [])} not in this clone")

    work = Path(tempfile.mkdtemp(prefix="harness-commit-bisect-"))
    # A signal's handler removes it too (the finally below may not run: SIGTERM's default ends the process).
    postgres.on_signal(lambda: shutil.rmtree(work, ignore_errors=True))
    found: list[Found] = []
    builds = 0
    memo: dict = {}
    try:
        settings = RunSettings.of(options, project)
        for target, inputs in todo:
            made, got = _one(target, memo, clone, settings, work, bisect_record, inputs, options)
            builds += made
            for f in got:
                for line in f.lines:
                    print(line, file=out, flush=True)
            found += got
            written = [f.entry for f in got if f.entry is not None and f.new]
            if written:
                _record(project, written)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"bisect --commits: {len(found)} boundar{'y' if len(found) == 1 else 'ies'} "
        f"({sum(f.entry is not None for f in found)} with a commit), {builds} builds; "
        f"wall time {time.monotonic() - started:.1f}s",
        file=out,
    )
    return 0 if all(f.entry is not None for f in found) else 1


def _record(project: Project, entries: list[FoundCommit]) -> None:
    """The found commits into reports/bisect.json under the record's lock (after each release pair, so a
    long ``--all`` keeps what it found when it is stopped), and the reports re-rendered with them."""
    from harness.store import record

    with record.transaction(project.reports, log) as tx:
        updated = tx.bisects
        for entry in entries:
            updated = updated.with_commit(entry)
        tx.write_bisects(updated)
        if tx.existing is not None:
            tx.render(tx.existing, reports.renderer(registry.discover(), project))
    log("wrote reports/bisect.json")


def _one(
    target: Target,
    memo: dict,
    clone: Path,
    settings: RunSettings,
    work: Path,
    bisect_record: BisectRecord,
    inputs: str,
    options: Options,
) -> tuple[int, list[Found]]:
    """Bisect one release pair for its cases (or say the commits already recorded): (builds, per case)."""
    scenario, framework = target.scenario, target.scenario.framework
    found: dict[str, Found] = {}
    heads = {}
    for case, b in target.bounds:
        heads[case] = (
            f"{scenario.id}:{case}: {b.before.outcome} on {framework} {b.before.version} ({target.older_tag}) -> "
            f"{b.after.outcome} on {b.after.version} ({target.newer_tag})"
        )
        recorded = bisect_record.commit_of(scenario.id, case, framework, target.before, target.after)
        if recorded is not None and not options.rerun and boundaries.is_current(recorded, inputs):
            said = f"{heads[case]}: {words(recorded)} (recorded; --rerun to bisect again)"
            # Recorded before entries held the commit's files and diff: added from the clone, with no build.
            complete = recorded.files is not None and recorded.excerpt is not None
            if recorded.files is None:
                recorded = recorded.replace(files=changed_files(clone, recorded.commit))
            if recorded.excerpt is None:
                recorded = excerpt_of(clone, settings.project.reports, scenario.id, case, b, recorded)
            found[case] = Found(case, recorded, [said], new=not complete)
    cases = [c for c, _ in target.bounds if c not in found]
    if not cases:
        return 0, list(found.values())
    n = len(target.history) - 1
    name = f"{scenario.id}:{','.join(cases)}"
    log(
        f"bisect --commits {name}: {target.older_tag}..{target.newer_tag}, {n} first-parent commits "
        f"(about {2 + max(1, n).bit_length()} builds)"
    )
    by_sha = {c.sha: c for c in target.history}
    tags = {target.history[0].sha: target.older_tag, target.history[-1].sha: target.newer_tag}
    evaluator = CommitEvaluator(clone, framework, scenario, cases, settings, work, by_sha, tags, memo)
    title = f"bisect {name} {target.before} -> {target.after}"
    search, per_case = bisect_target(target, cases, evaluator, evaluator.label, title)
    builds = len(evaluator.built) + len(evaluator.failed)  # a commit built earlier in this run is not counted
    skipped = f", {len(evaluator.failed)} skipped (did not build or install)" if evaluator.failed else ""
    tally = f"{n} commits between the tags, {builds} builds{skipped}"
    for case in cases:
        problems, step = per_case[case]
        if problems:
            lines = [f"{heads[case]}: self-check failed, no commit recorded ({tally})", *(f"  {p}" for p in problems)]
            found[case] = Found(case, None, lines)
        elif step is None:
            found[case] = Found(case, None, [f"{heads[case]}: no commit with an answer between the tags ({tally})"])
        else:
            entry = entry_of(target, case, search, step, inputs, builds, changed_files(clone, step.after.version))
            entry = excerpt_of(clone, settings.project.reports, scenario.id, case, dict(target.bounds)[case], entry)
            lines = [f"{heads[case]}: {words(entry)} ({tally})"]
            lines += [f"  skipped {s.commit}: {s.said}" for s in entry.skipped or ()]
            found[case] = Found(case, entry, lines)
    return builds, [found[c] for c, _ in target.bounds]
