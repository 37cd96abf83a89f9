"""``nox -s bisect``: find the releases where a case's outcome changes.

``python -m harness bisect <scenario-id>[:<case>] [--framework NAME] [--from A] [--to B]
[--today-deps] [--timeout S] [--rerun]`` searches the framework's final releases on the
package index (every non-pre-release, non-yanked one between A and B, by default the first
and the latest; not only the matrix's default set) for each *boundary*: a pair of adjacent
tested releases whose outcomes differ, such as ``reproduced`` on 2.8.0 then ``fixed`` on 2.9.0 ("first fixed in 2.9.0").

Search (interval splitting): evaluate both ends of the range; whenever an interval's two
ends have different outcomes, evaluate the release in its middle and split it in two, until
each differing interval has no untested release inside. A single boundary among n releases
costs about 2 + log2(n) evaluations. Every boundary whose sides are visible at probed
releases is found (the releases probed for one case are evidence for the others), so
not-applicable -> reproduced -> fixed -> reproduced yields three boundaries once a probe
lands in each stretch. What cannot be seen: an interval whose two ends agree is not searched,
so an outcome that flips and flips back entirely inside it (fixed in 2.3, broken again in
2.5, both ends reproduced, no probe in between) goes unnoticed; bisect a narrower range
(--from/--to) to look there.

Every release is evaluated once for all selected cases of the scenario (one worker run in
its environment) and its outcomes are cached, so each environment is built at most once per
bisect. Environments are the matrix's (``environments.ensure`` under ``.nox/builds``), so
bisect and ``nox -s matrix`` reuse each other's, and so are the results recorded in them
(``harness.store.result_cache``: a case whose inputs did not change is not re-run; --rerun
forces). A release whose install fails or whose outcome is ``error`` tells nothing: it is
skipped (the nearest untested neighbour is tried instead) and reported as skipped, never
taken for a boundary. ``not-applicable`` is a real outcome: not-applicable -> reproduced is
where the case is "first measurable" (never "introduced": the script could not run earlier).

Progress goes to stderr, the result to stdout, and the record to ``reports/bisect.json``
(harness/store/bisect_record.py): every probe of every bisect is kept, one per (scenario, case,
framework, release), with the ranges bisected and the releases known to exist; no
wall-clock times, so a re-run writes the same bytes. Boundaries are derived from all probes
and the matrix record's results together, so two bisects over different ranges both stand,
and a bisect starts from what is already known (``--rerun`` evaluates everything again).
Knowledge follows the code: every probe carries ``inputs``, the digest of the scenario's code
(its bug folder) that answered it (harness/store/result_cache.py ``scenario_inputs``; the
record's results carry it too), and a probe or result whose digest differs from the scenario's
current one is ignored, when bisecting and when deriving boundaries for the reports. One with no
digest (recorded before they carried one) still counts; the committed record was stamped with
the code it was made with.
The releases on either side of a boundary join the scenario's matrix (harness/store/record.py).
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from harness.execution import interpreter_axis, pending, progress
from harness.execution.run import RunSettings, run_cases
from harness.planning import builds as builds_mod
from harness.planning import index, interpreters, versions
from harness.planning.builds import SpecError
from harness.project import PROJECT, Project
from harness.rendering import reports
from harness.runtime import frameworks, registry
from harness.runtime.outcomes import ERROR, NOT_APPLICABLE
from harness.runtime.runner import DEFAULT_TIMEOUT
from harness.runtime.scenario import Scenario
from harness.store import bisect_record as bisect_file
from harness.store import boundaries, result_cache, staging
from harness.store.bisect_record import BisectRecord, Probe, Range
from harness.store.boundaries import Boundary
from harness.store.rows import Row

PROJECT_ROOT = PROJECT.root
REPORT_NAME = "bisect.json"

# What an evaluator returns for one release: case id -> outcome, or (outcome, detail).
Evaluation = Mapping[str, "str | tuple[str, str]"]
Evaluate = Callable[[str], Evaluation]


# One line on stderr, through the progress writer (its status line is cleared first).
log = progress.log


# --- the search (no environments: the evaluator is injected) -------------------------


@dataclass
class CaseBisection:
    case: str
    boundaries: list[Boundary] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (version, reason), oldest first
    probed: dict[str, str] = field(default_factory=dict)  # version -> outcome, every release this case consulted
    reused: set[str] = field(default_factory=set)  # versions whose outcome was already known, not evaluated

    @property
    def answered(self) -> bool:
        """At least one release in the range gave this case an outcome."""
        return any(o != ERROR for o in self.probed.values())


class Search:
    """Interval-splitting bisection over ``releases`` (oldest first), one evaluation per release.

    ``evaluate(version)`` returns every selected case's outcome on that release; results
    are cached, so bisecting several cases shares their probes.
    """

    def __init__(
        self,
        releases: Sequence[str],
        evaluate: Evaluate,
        label: Callable[[str], str] = str,
        progress: Callable[[str], None] = log,
        known: Mapping[str, Mapping[str, str]] | None = None,
        key: Callable[[str], Any] = versions.key,
    ):
        self.releases = list(releases)
        # Their order: a version's, or a commit's place in the history (harness/execution/commit_bisect.py).
        self.key = key
        # case -> version -> outcome already known (earlier bisects' probes, the record's
        # results): consulted before evaluating, so a bisect starts from what is known.
        self.known = {case: dict(points) for case, points in (known or {}).items()}
        self.evaluate = evaluate
        self.label = label
        self.progress = progress
        self.cache: dict[str, dict[str, tuple[str, str]]] = {}
        self.order: list[str] = []  # versions in the order they were evaluated

    def results(self, i: int) -> dict[str, tuple[str, str]]:
        version = self.releases[i]
        if version not in self.cache:
            raw = self.evaluate(version)
            found = {case: (r, "") if isinstance(r, str) else (r[0], r[1]) for case, r in raw.items()}
            self.cache[version] = found
            self.order.append(version)
            shown = [f"{case} {o}" if len(found) > 1 else o for case, (o, _) in found.items()]
            self.progress(f"[probe {len(self.order)}] {self.label(version)}: {', '.join(shown) or 'no results'}")
        return self.cache[version]

    def case(self, case_id: str) -> CaseBisection:
        """Every visible boundary of one case over the whole range."""
        out = CaseBisection(case_id)
        skipped: dict[int, str] = {}

        already = self.known.get(case_id, {})

        def outcome(i: int) -> str | None:
            if (
                self.releases[i] in already
                and already[self.releases[i]] != ERROR
                and self.releases[i] not in self.cache
            ):
                out.probed[self.releases[i]] = already[self.releases[i]]
                out.reused.add(self.releases[i])
                return already[self.releases[i]]
            o, detail = self.results(i).get(case_id, (ERROR, "the evaluation reported nothing for this case"))
            out.probed[self.releases[i]] = o
            if o == ERROR:
                skipped[i] = detail or "error"
                return None
            return o

        n = len(self.releases)
        lo = next((i for i in range(n) if outcome(i) is not None), None)
        if lo is not None:
            hi = next((i for i in range(n - 1, lo, -1) if outcome(i) is not None), lo)
            # Releases already evaluated for other cases, or known from earlier bisects and
            # the record, are free evidence for this one.
            known = sorted(
                {lo, hi}
                | {
                    i
                    for i in range(lo + 1, hi)
                    if (self.releases[i] in self.cache or self.releases[i] in already) and outcome(i) is not None
                }
            )
            self._split(list(itertools.pairwise(known)), outcome)
            # Every differing interval is now split down to adjacent answered releases.
            out.boundaries = boundaries.derive(out.probed, self.releases, self.key)
        out.skipped = [(self.releases[i], skipped[i]) for i in sorted(skipped)]
        out.probed = dict(sorted(out.probed.items(), key=lambda kv: self.key(kv[0])))
        return out

    def _split(self, intervals: list[tuple[int, int]], outcome: Callable[[int], str | None]) -> None:
        """Probe inside each interval whose ends differ until no answered release lies between them."""
        stack = list(reversed(intervals))
        while stack:
            a, b = stack.pop()
            if outcome(a) == outcome(b):
                continue
            mid = (a + b) // 2
            # The middle, else its nearest neighbours: a skipped release is not a boundary.
            m = next(
                (i for i in sorted(range(a + 1, b), key=lambda i: (abs(i - mid), i)) if outcome(i) is not None), None
            )
            if m is None:
                continue
            stack.append((m, b))
            stack.append((a, m))


def bisect(
    releases: Sequence[str], case_ids: Sequence[str], evaluate: Evaluate, **kwargs: Any
) -> tuple[Search, list[CaseBisection]]:
    """Bisect every case over ``releases``, sharing one evaluation per release."""
    search = Search(releases, evaluate, **kwargs)
    return search, [search.case(c) for c in case_ids]


# --- evaluating a release in its environment ---------------------------------------------


@dataclass
class EnvironmentEvaluator:
    """Evaluates a release the way the matrix does: environments.ensure, then one worker run.

    Like the matrix, it reuses a case's recorded result in that environment when the case's
    inputs (bug folder, harness code, environment) are unchanged, and records the
    results it gets, so bisect and ``nox -s matrix`` share both environments and results.
    """

    framework: str
    scenario: Scenario
    case_ids: list[str]
    settings: RunSettings  # the root, timeout, dependency dates, --rerun and the warm pool, as in the matrix
    python: str = interpreters.DEFAULT  # the interpreter every release runs on (--python)
    built: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def __call__(self, version: str) -> dict[str, tuple[str, str]]:
        pairs = [(self.scenario, self.scenario.case(c)) for c in self.case_ids]
        build = interpreter_axis.on(
            builds_mod.parse(f"{self.framework}=={version}", self.settings.cache_dir), self.python
        )
        # A release that does not install on the interpreter is not-applicable there, as in the matrix.
        excluded = interpreter_axis.unsupported(build, self.settings.cache_dir)
        if excluded:
            log(f"  {build.label}: not-applicable: {excluded}")
            return dict.fromkeys(self.case_ids, (NOT_APPLICABLE, excluded))
        run = run_cases(build, pairs, self.settings)
        unresolvable = interpreter_axis.unresolvable(build, run.install_error or "")
        if unresolvable:
            log(f"  {build.label}: not-applicable: {unresolvable}")
            return dict.fromkeys(self.case_ids, (NOT_APPLICABLE, unresolvable))
        if run.install_error:
            self.failed.append(version)
            log(f"  {build.label}: {run.install_error}")
        else:
            assert run.env is not None
            (self.reused if run.env.reused else self.built).append(version)
            for note in run.notes:
                log(f"  {build.label}: {note}")
            log(
                f"  {build.label}: env {run.env.made} in {run.build_seconds:.1f}s, "
                f"{run.ran} cases run in {run.run_seconds:.1f}s, "
                f"{len(self.case_ids) - run.ran} unchanged and taken from the environment's record"
            )
        return {r.case: (r.outcome, r.detail) for r in run.results}


# --- the command ---------------------------------------------------------------------------


@dataclass
class Options:
    selector: str
    framework: str | None = None
    start: str | None = None  # --from
    end: str | None = None  # --to
    today_deps: bool = False
    timeout: float = DEFAULT_TIMEOUT
    rerun: bool = False
    root: Path = PROJECT_ROOT
    pool: str = "auto"
    pool_memory_mb: float | None = None
    # --python: the interpreters to bisect on, one bisect each (None: the default interpreter).
    python: list[str] | None = None


def select_releases(framework: str, start: str | None, end: str | None, cache_dir: Path) -> tuple[list[str], list[str]]:
    """(final releases from start to end inclusive, the pre-releases and yanked ones left out in that span)."""
    known = index.releases(framework, cache_dir)
    finals = [v for v, r in known.items() if versions.is_final(v) and not r.yanked]
    if not finals:
        raise SpecError(f"{framework} has no final release on the package index")

    def check(version: str | None, flag: str, default: str) -> str:
        if version is None:
            return default
        version = version.strip()
        if version not in known:
            raise SpecError(
                f"{flag} {version}: {framework} {version} is not on the package index; "
                f"latest releases: {', '.join(finals[-6:])}"
            )
        if version not in finals:
            why = "yanked" if known[version].yanked else "a pre-release"
            raise SpecError(
                f"{flag} {version}: {framework} {version} is {why}; bisect runs over final releases, "
                f"e.g. {', '.join(finals[-6:])}"
            )
        return version

    a, b = check(start, "--from", finals[0]), check(end, "--to", finals[-1])
    if versions.key(a) > versions.key(b):
        raise SpecError(f"--from {a} is newer than --to {b}")
    inside = lambda v: versions.key(a) <= versions.key(v) <= versions.key(b)  # noqa: E731
    left_out = [v for v in known if inside(v) and v not in finals]
    return [v for v in finals if inside(v)], left_out


def reproduce_command(
    scenario_id: str, case_id: str, framework: str, version: str, today_deps: bool, python: str = interpreters.DEFAULT
) -> str:
    on = "" if python == interpreters.DEFAULT else f" --python {python}"
    return f"nox -s matrix -- --only {scenario_id}:{case_id} {framework}=={version}{on}" + (
        " --today-deps" if today_deps else ""
    )


def probes_of(
    scenario_id: str,
    framework: str,
    search: Search,
    result: CaseBisection,
    inputs: str | None = None,
    python: str = interpreters.DEFAULT,
) -> list[Probe]:
    """The probes this bisect made for one case (outcomes it already knew are not probes), each with
    the digest of the scenario code that answered it (``inputs``) and the interpreter it ran on."""
    out = []
    for version, outcome in result.probed.items():
        if version in result.reused:
            continue
        detail = search.cache.get(version, {}).get(result.case, (outcome, ""))[1]
        out.append(Probe.of(scenario_id, result.case, framework, version, outcome, detail, inputs, python))
    return out


def _record_results(reports_dir: Path) -> list[Row]:
    """The record's results (reports/matrix.json) as rows, or none when there is no record yet."""
    from harness.store import record

    document = record.load(reports_dir)
    return document.results if document else []


def tracked_search(
    releases: list[str],
    evaluate: Evaluate,
    title: str,
    label: Callable[[str], str],
    known: dict | None = None,
    key: Callable[[str], Any] = versions.key,
) -> tuple[Search, progress.Tracker]:
    """A ``Search`` whose evaluations show in a progress status (use the tracker as a context): the
    points evaluated against the probes a bisection of one boundary usually needs (2 + log2 of the
    range; raised when the search needs more). Releases and commits alike (commit_bisect.py)."""
    expected = 2 + max(1, len(releases) - 1).bit_length()
    tracker = progress.Tracker(title, expected)

    def tracked(point: str) -> Evaluation:
        source = label(point)
        tracker.total = max(tracker.total, tracker.done + 1)
        tracker.begin(source)
        try:
            return evaluate(point)
        finally:
            tracker.finish(source)

    return Search(releases, tracked, label=label, known=known, key=key), tracker


def _tracked_bisect(
    releases: list[str], cases: list[str], evaluate: Evaluate, framework: str, scenario_id: str, known: dict
) -> tuple[Search, list[CaseBisection]]:
    """``bisect`` with a progress status (``tracked_search``)."""
    search, tracker = tracked_search(
        releases, evaluate, f"bisect {scenario_id}", lambda v: f"{framework}=={v}", known=known
    )
    with tracker:
        return search, [search.case(c) for c in cases]


def run(options: Options, evaluate: Evaluate | None = None, out: TextIO | None = None) -> int:
    """Bisect on each interpreter ``--python`` names (the default one without it); print the result;
    record it. 0 when every case got an answer on each, 1 otherwise."""
    status = 0
    project = Project(options.root)  # the command's folders, made once
    for python in options.python or [interpreters.DEFAULT]:
        status = max(status, _run_on(options, project, python, evaluate, out or sys.stdout))
    return status


def _run_on(options: Options, project: Project, python: str, evaluate: Evaluate | None, out: TextIO) -> int:
    """One bisect on one interpreter: its probes carry it, and only what was measured on it is known."""
    started = time.monotonic()
    root = project.root
    cache_dir = project.cache
    scenarios = registry.discover()
    selected = registry.select(scenarios, [options.selector])
    scenario = selected[0][0]
    framework = frameworks.get(options.framework).name if options.framework else scenario.framework
    if framework != scenario.framework:
        raise SpecError(f"scenario {scenario.id} runs on {scenario.framework}, not {framework}")
    releases, left_out = select_releases(framework, options.start, options.end, cache_dir)
    reports_dir = project.reports
    staging.check_writable(reports_dir)
    record_path = reports_dir / REPORT_NAME
    bisect_record = bisect_file.load(record_path)  # refused before any work if unreadable
    record_results = _record_results(reports_dir)
    cases = [c.id for _, c in selected]
    # The scenario's code as it is now: a probe or result answered by another version of it is
    # not knowledge about these cases.
    inputs = result_cache.scenario_inputs(root, scenario.module)
    # Probes older code answered are asked again first (pending.py), so the search starts from
    # every release earlier bisects knew, not from a range turned unknown by a script edit.
    fresh: list[Probe] = []
    if evaluate is None and not options.rerun:
        todo = pending.find(
            bisect_record, record_results, [scenario], root, {f"{scenario.id}:{c}" for c in cases}, python
        )
        if todo:
            from harness.store import record as record_mod

            locks = (record_mod.load(reports_dir) or record_mod.Record()).recorded_packages()
            fresh = pending.measure(todo, RunSettings.of(options, project, recorded=locks), os.cpu_count() or 1, log)
            bisect_record = bisect_record.with_probes(fresh)
    # Start from what is known: earlier bisects' probes and the record's results (not with --rerun).
    knowledge = {
        c: boundaries.known(bisect_record, record_results, scenario.id, c, framework, inputs, python) for c in cases
    }
    known = {} if options.rerun else {c: k.points for c, k in knowledge.items()}
    n_stale = sum(k.stale for k in knowledge.values())
    n_known = len({v for points in known.values() for v, o in points.items() if o != ERROR and v in releases})

    older = [
        v
        for v, r in index.releases(framework, cache_dir).items()
        if versions.is_final(v) and not r.yanked and versions.key(v) < versions.key(releases[0])
    ]
    log(
        f"bisect {scenario.id} ({len(cases)} case{'s' if len(cases) != 1 else ''}) over {len(releases)} final releases "
        f"of {framework}: {releases[0]} .. {releases[-1]}"
        + ("" if python == interpreters.DEFAULT else f", on {interpreters.label(python)}")
    )
    if older:
        log(
            f"  not in the range: {len(older)} older final releases ({older[0]} .. {older[-1]}); "
            "use --from to include them"
        )
    if left_out:
        log(f"  not tested (pre-releases and yanked): {', '.join(left_out)}")
    if n_stale:
        log(
            f"  ignoring {n_stale} probes and results answered by an older version of {scenario.id}'s code "
            "(its script or declaration changed since)"
        )
    if n_known:
        log(
            f"  starting from {n_known} releases whose outcome is already known (reports/bisect.json, "
            "reports/matrix.json); --rerun to evaluate them again"
        )

    evaluator = None
    if evaluate is None:
        from harness.store import record

        locks = (record.load(reports_dir) or record.Record()).recorded_packages()
        evaluator = EnvironmentEvaluator(
            framework, scenario, list(cases), RunSettings.of(options, project, recorded=locks), python=python
        )
        evaluate = evaluator
    search, results = _tracked_bisect(releases, cases, evaluate, framework, scenario.id, known)

    status = 0
    for result in results:
        name = f"{scenario.id}:{result.case}" + ("" if python == interpreters.DEFAULT else f" on {python}")
        for b in result.boundaries:
            print(
                f"{name}: {b.before.outcome} on {framework} {b.before.version} -> "
                f"{b.after.outcome} on {framework} {b.after.version} ({b.summary})",
                file=out,
            )
            for side in (b.before, b.after):
                print(
                    f"  {side.outcome} on {side.version}: "
                    + reproduce_command(scenario.id, result.case, framework, side.version, options.today_deps, python),
                    file=out,
                )
        if not result.answered:
            status = 1
            print(f"{name}: no answer on any release from {releases[0]} to {releases[-1]}", file=out)
        elif not result.boundaries:
            seen = sorted({o for o in result.probed.values() if o != ERROR})
            tested = [v for v, o in result.probed.items() if o != ERROR]
            print(
                f"{name}: no boundary: {seen[0]} on every tested release ({', '.join(tested)}) "
                f"from {framework} {releases[0]} to {releases[-1]}",
                file=out,
            )
        for version, reason in result.skipped:
            print(f"{name}: skipped {framework} {version}: {reason}", file=out)

    elapsed = time.monotonic() - started
    if evaluator is not None:
        envs = f"{len(evaluator.built)} environments built, {len(evaluator.reused)} reused" + (
            f", {len(evaluator.failed)} failed to install" if evaluator.failed else ""
        )
    else:
        envs = f"{len(search.order)} releases evaluated"
    print(f"bisect: {len(search.order)} probes ({', '.join(search.order)}); {envs}; wall time {elapsed:.1f}s", file=out)

    from harness.store import record

    # Under the record's lock, bisect.json and the record read again (another bisect or matrix run
    # may have written meanwhile); bisect.json and the reports it changes are written together.
    with record.transaction(reports_dir, log) as tx:
        updated = tx.bisects.with_probes(fresh)
        for r in results:
            updated = updated.with_bisect(
                probes_of(scenario.id, framework, search, r, inputs, python),
                Range.of(scenario.id, r.case, framework, releases[0], releases[-1], python),
                releases,
                framework,
            )
        tx.write_bisects(updated)
        rerendered = tx.existing is not None
        if tx.existing is not None:
            tx.render(tx.existing, reports.renderer(registry.discover(), project))
    log(f"wrote reports/{REPORT_NAME}")
    _say_what_is_known(updated, record_results, scenario.id, cases, framework, out, inputs, python)
    if rerendered:
        log("re-rendered the reports from the record with these boundaries")
    return status


def _say_what_is_known(
    bisect_record: BisectRecord,
    record_results: list[Row],
    scenario_id: str,
    cases: list[str],
    framework: str,
    out: TextIO,
    inputs: str | None = None,
    python: str = interpreters.DEFAULT,
) -> None:
    """Boundaries from every bisect and the record together on ``python``, and (on the default
    interpreter) the releases that join the matrix."""
    in_record = {
        r.version for r in record_results if r.scenario == scenario_id and r.release and r.framework == framework
    }
    for case in cases:
        k = boundaries.known(bisect_record, record_results, scenario_id, case, framework, inputs, python)
        words = "; ".join(b.summary for b in k.boundaries) or "no outcome change"
        on = "" if python == interpreters.DEFAULT else f" on {interpreters.label(python)}"
        print(f"{scenario_id}:{case}: from every bisect and the record{on}: {words}", file=out)
    if python != interpreters.DEFAULT:  # the matrix's members are the default interpreter's releases
        return
    joining = sorted(
        boundaries.boundary_releases(bisect_record, record_results, scenario_id, framework, inputs) - in_record,
        key=versions.key,
    )
    if joining:
        print(
            f"boundary releases joining the matrix of {scenario_id}: {', '.join(joining)}; "
            f"add their results to the record with `nox -s matrix -- --only {scenario_id}`",
            file=out,
        )
