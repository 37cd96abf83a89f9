"""``python -m harness``: list scenarios, run them here, or run the matrix across builds.

Bad input (unknown id, framework or release, malformed spec, a path with no package, an
unwritable reports/) ends with one line on stderr and exit status 2, before any report
is touched.
"""

from __future__ import annotations

import argparse
import sys

from harness.commands import flags, matrix
from harness.errors import UsageError
from harness.planning.builds import SpecError
from harness.project import Project
from harness.rendering import export
from harness.runtime import frameworks, registry
from harness.runtime.runner import DEFAULT_TIMEOUT, CaseResult, run_case
from harness.runtime.scenario import Case, Scenario
from harness.store import record


def cmd_list(args: argparse.Namespace) -> int:
    for scenario in registry.discover().values():
        print(f"{scenario.id}  ({scenario.framework})")
        for case in scenario.cases:
            print(f"  {case.id}  {case.summary}")
    return 0


def _print_timeline(result: CaseResult) -> None:
    print("".join("    " + line for line in result.timeline.splitlines(keepends=True)), end="")


def cmd_run_proof(args: argparse.Namespace) -> int:
    """Run cases under their proof build for ``args.proof``; status 1 unless every case says it."""
    from harness.commands.proofs import run_proof

    status = 0
    for scenario, case in registry.select(registry.discover(), args.ids):
        run = run_proof(scenario, case, args.proof, timeout=args.timeout)
        result = run.result
        build = run.build.description or type(run.build).__name__
        where = f"{scenario.id}:{case.id} under its {args.proof} proof ({build}) on {run.where}"
        print(f"{where}: {result.outcome}: {result.detail}")
        if args.timeline:
            _print_timeline(result)
        status |= result.outcome != args.proof
    return status


def cmd_run(args: argparse.Namespace) -> int:
    """Run cases in this environment, with whatever framework releases it has installed."""
    if args.proof:
        return cmd_run_proof(args)
    import importlib.metadata  # here: only `run` needs it, and it costs every command 40 ms

    scenarios = registry.discover()
    status = 0
    for scenario, case in registry.select(scenarios, args.ids):
        try:
            version = importlib.metadata.version(scenario.framework)
        except importlib.metadata.PackageNotFoundError:
            print(f"{scenario.id}:{case.id}: skipped, {scenario.framework} is not installed here", file=sys.stderr)
            continue
        result = run_case(scenario, case, timeout=args.timeout)
        print(f"{scenario.id}:{case.id} on {scenario.framework} {version}: {result.outcome}: {result.detail}")
        if args.timeline:
            _print_timeline(result)
        status |= result.outcome == "error"
    return status


def cmd_matrix(args: argparse.Namespace) -> int:
    options = matrix.Options(
        specs=args.specs,
        only=[i for value in args.only for i in value.split(",") if i],
        update_snapshots=args.update_snapshots,
        today_deps=args.today_deps,
        timeout=args.timeout,
    )
    if args.jobs:
        options.jobs = args.jobs
    options.rerun = args.rerun
    options.pool = flags.pool_mode(args)
    options.pool_memory_mb = args.pool_memory
    if args.out:
        from pathlib import Path

        options.out = Path(args.out)
    if args.shard:
        k, _, n = args.shard.partition("/")
        if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
            raise SpecError(f"malformed --shard {args.shard!r}; valid: K/N with 1 <= K <= N, e.g. 1/2")
        options.shard = (int(k), int(n))
    return matrix.run(options)


def cmd_merge(args: argparse.Namespace) -> int:
    from pathlib import Path

    return matrix.merge([Path(p) for p in args.shards])


def cmd_report(args: argparse.Namespace) -> int:
    """Re-render every markdown report from the record (reports/matrix.json and reports/bisect.json)."""
    root = matrix.PROJECT_ROOT
    if record.load(root / "reports") is None:
        raise SpecError("reports/matrix.json does not exist yet; run `nox -s matrix` first")
    for written in record.render(root, registry.discover()):
        print(f"wrote {written.relative_to(root).as_posix()}")
    return 0


def _export_pin(scenario: Scenario, case: Case, release: str | None, document: dict | None) -> export.Pin:
    """--release NAME==VERSION (a release of the scenario's framework on the index), else the record's choice,
    else the newest final release on the index."""
    from harness.execution import environments
    from harness.planning import builds, index

    cache_dir = Project(matrix.PROJECT_ROOT).cache
    if release:
        if not builds.PIN_RE.match(release):
            raise SpecError(
                f"--release {release!r}: an export pins a release, NAME==VERSION (e.g. "
                f"{scenario.framework}==<version>); to run it on a local checkout, run the script with "
                "the python of an environment that has the checkout installed"
            )
        build = builds.parse(release, cache_dir)
        if build.framework != frameworks.get(scenario.framework).name:
            raise SpecError(
                f"--release {release!r} is a {build.framework} release; {scenario.id} is about {scenario.framework}"
            )
        date = export._env_date(document, build.source) or environments.dependency_date(build, cache_dir)
        return export.Pin(scenario.framework, build.version, date, "the release asked for (--release)")
    pin = export.record_pin(document, scenario, case)
    if pin is not None:
        return pin
    latest = index.final_releases(scenario.framework, cache_dir)[-1]
    build = builds.parse(f"{scenario.framework}=={latest.version}", cache_dir)
    return export.Pin(
        scenario.framework,
        latest.version,
        environments.dependency_date(build, cache_dir),
        "the newest release on the index (the record has no result for this case yet)",
    )


def cmd_export(args: argparse.Namespace) -> int:
    """Write one reproduction script per case: its short reproduction with a PEP 723 header
    (harness/rendering/short_scripts.py), or with --bundle the self-contained judged script that
    bundles the scenario and the harness (harness/rendering/export.py)."""
    from pathlib import Path

    from harness.rendering import short_scripts

    chosen = registry.select(registry.discover(), [args.id])
    document = record.load(matrix.PROJECT_ROOT / "reports")
    single = ":" in args.id  # SCENARIO:CASE: -o names the file; SCENARIO: -o names a directory
    out = Path(args.output) if args.output and args.output != "-" else None
    if out is not None and not single and out.exists() and not out.is_dir():
        raise export.ExportError(
            f"-o {args.output}: not a directory; for every case of {args.id}, -o names a directory"
        )
    for scenario, case in chosen:
        pin = _export_pin(scenario, case, args.release, document)
        name = export.script_name(scenario.id, case.id)
        path = (out if single else out / name) if out is not None else Path(name)
        short = None if args.bundle else short_scripts.source_of(scenario, case)
        if short is not None:
            text = short_scripts.stamped(scenario, case, document or {}, short.read_text(encoding="utf-8"), pin)
        else:  # --bundle, or a case without a short reproduction: the self-contained judged script
            text = export.script(scenario, case, pin, path.name, export.case_results(document, scenario.id, case.id))
        if args.output == "-":
            sys.stdout.write(text)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({pin.spec}); run it with `uv run {path}`", file=sys.stderr)
    return 0


def cmd_comment(args: argparse.Namespace) -> int:
    """Print a pull-request comment for one scenario (harness/rendering/comment.py)."""
    from harness.rendering import comment, reports

    scenarios = registry.discover()
    if args.scenario not in scenarios:
        raise registry.UnknownId(f"unknown scenario {args.scenario!r}; valid: {', '.join(sorted(scenarios))}")
    document = comment.load(matrix.PROJECT_ROOT, args.run)
    link_base = comment.link_base_of(matrix.PROJECT_ROOT) if args.link_base is None else args.link_base
    text = comment.render(reports.scenario_metadata(scenarios[args.scenario]), document, args.run, link_base)
    sys.stdout.write(text)
    return 0


def cmd_releases(args: argparse.Namespace) -> int:
    """The final releases of a framework on the index with their upload times, or the one current on a date."""
    from harness.planning import index

    framework = frameworks.get(args.framework).name
    cache_dir = Project(matrix.PROJECT_ROOT).cache
    if args.at:
        release = index.current_on(framework, args.at, cache_dir)
        print(f"{framework}=={release.version}  (uploaded {release.upload_time[:19]}Z; current on {args.at})")
        return 0
    for release in index.final_releases(framework, cache_dir):
        print(f"{framework}=={release.version}  {release.upload_time[:19]}Z")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    from harness.commands import new_scenario

    path = new_scenario.create(args.scenario_id, args.framework)
    print(f"wrote scenarios/{path.name}; it reports `error` until every TODO in it is done (see CONTRIBUTING.md)")
    return 0


def cmd_mutants(args: argparse.Namespace) -> int:
    """Mutate every scenario's oracle functions and judge each mutant by the proofs (harness/commands/mutants.py)."""
    from harness.commands import mutants

    return mutants.run(args.ids, jobs=args.jobs, timeout=args.timeout, list_only=args.list)


def cmd_pool(args: argparse.Namespace) -> int:
    """List the warm workers (memory per worker and in all), or stop them."""
    from harness.execution import pool

    try:
        pool.pool_dir()
    except pool.PoolUnsafe as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.action == "stop":
        print(f"stopped {pool.stop_all()} warm workers")
    else:
        print("\n".join(pool.describe()))
    return 0


def cmd_bisect(args: argparse.Namespace) -> int:
    from harness.commands import bisect

    return bisect.main(args.rest)


def parser() -> argparse.ArgumentParser:
    p = flags.OneLineParser(prog="python -m harness", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("list", help="list scenarios and their cases")
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("run", help="run cases in this environment (the framework must be installed)")
    s.add_argument("ids", nargs="*", help="scenario or scenario:case (default: all)")
    s.add_argument("--timeline", action="store_true", help="print each case's timeline")
    s.add_argument("--timeout", type=flags.timeout, default=DEFAULT_TIMEOUT, help="per-case timeout in seconds (> 0)")
    s.add_argument(
        "--proof",
        choices=("reproduced", "fixed"),
        help="run each case under the build its proof for this outcome names: an InProcess patch applied "
        "here, the installed release as is, or a Release in its matrix environment (built if missing); "
        "exit 1 unless every case says that outcome",
    )
    s.set_defaults(func=cmd_run)

    s = sub.add_parser("releases", help="a framework's final releases on the index, or the one current on a date")
    s.add_argument("framework", help="google-adk or openai-agents")
    s.add_argument(
        "--at",
        metavar="DATE",
        help="YYYY-MM-DD (end of that day, UTC) or an RFC 3339 time: print only "
        "the release a user installing then got (the highest final version out)",
    )
    s.set_defaults(func=cmd_releases)

    s = sub.add_parser("matrix", help="run every scenario across framework builds (what `nox -s matrix` runs)")
    s.add_argument(
        "specs",
        nargs="*",
        metavar="SPEC",
        help="google-adk==2.13.0, openai-agents==0.24.0, a path to a checkout/wheel/sdist, or NAME @ URL "
        "(default: the default release set)",
    )
    # One value per --only (repeat it, or separate ids with commas), so SPECs may follow it.
    s.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="ID[,ID...]",
        help="only this scenario or scenario:case (repeatable, or comma-separated)",
    )
    s.add_argument(
        "--update-snapshots",
        action="store_true",
        help="accept new and changed results of releases into snapshots/matrix",
    )
    s.add_argument(
        "--today-deps",
        action="store_true",
        help="resolve dependencies as of today instead of each release's upload time",
    )
    s.add_argument(
        "--timeout", type=flags.timeout, default=DEFAULT_TIMEOUT, help="per-case timeout in seconds, > 0 (default 60)"
    )
    s.add_argument("--jobs", type=flags.jobs, default=None, help="builds run in parallel, >= 1 (default: CPU count)")
    s.add_argument("--rerun", action="store_true", help="run every case, even those whose inputs are unchanged")
    s.add_argument("--shard", metavar="K/N", help="run only the K-th of N deterministic slices of the builds")
    flags.add_pool_flags(s)
    s.add_argument(
        "--out",
        metavar="DIR",
        help="write this run's reports to DIR and leave the record (reports/matrix.json) alone; "
        "runs with a local build or a release outside the matrix go to reports/runs/<name>/ by default",
    )
    s.set_defaults(func=cmd_matrix)

    s = sub.add_parser("merge", help="build reports from shard results (reports/shards/*.json)")
    s.add_argument("shards", nargs="+", metavar="SHARD_JSON")
    s.set_defaults(func=cmd_merge)

    s = sub.add_parser("new", help="write a new scenario module from the template")
    s.add_argument("scenario_id", help="lower-case, hyphenated, framework prefix first (adk-..., agents-...)")
    s.add_argument("--framework", required=True, choices=sorted(frameworks.FRAMEWORKS))
    s.set_defaults(func=cmd_new)

    s = sub.add_parser("bisect", help="find the releases where a case's outcome changes", add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    s.set_defaults(func=cmd_bisect)

    s = sub.add_parser("mutants", help="mutate the oracles and run the proofs against each mutant (nox -s mutants)")
    s.add_argument("ids", nargs="*", metavar="ID", help="only these scenarios (default: all); commas allowed")
    s.add_argument("--jobs", type=flags.proof_jobs, default=2, help="proof runs in parallel, >= 1 (default 2)")
    s.add_argument(
        "--timeout", type=flags.timeout, default=DEFAULT_TIMEOUT, help="per-case timeout in seconds, > 0 (default 60)"
    )
    s.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    s.set_defaults(func=cmd_mutants)

    s = sub.add_parser("export", help="write a standalone reproduction script per case (uv run it; no harness needed)")
    s.add_argument("id", metavar="SCENARIO[:CASE]")
    s.add_argument(
        "--release",
        metavar="SPEC",
        help="the release the script pins, NAME==VERSION (default: the newest "
        "release of the record where the case reproduces, else its newest)",
    )
    s.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write: for SCENARIO:CASE the file ('-': stdout), for SCENARIO a directory "
        "(default: SCENARIO--CASE.py in the current directory)",
    )
    s.add_argument(
        "--bundle",
        action="store_true",
        help="the self-contained script that bundles the scenario module and the harness and judges with "
        "its oracle, instead of the case's short reproduction (never committed)",
    )
    s.set_defaults(func=cmd_export)

    s = sub.add_parser(
        "comment", help="print a pull-request comment (markdown, under 10,000 characters) for one scenario"
    )
    s.add_argument("scenario", metavar="SCENARIO")
    s.add_argument("--run", metavar="DIR", help="a candidate run's folder (reports/runs/<name>/): a before/after table")
    s.add_argument(
        "--link-base",
        default=None,
        metavar="URL",
        help="prefix of every link, e.g. https://github.com/OWNER/REPO/blob/COMMIT/ (default: the repository URL "
        "of pyproject.toml's [project.urls] and the commit of the record; no links when none is known)",
    )
    s.set_defaults(func=cmd_comment)

    s = sub.add_parser(
        "pool", help="the warm workers that `matrix --warm` keeps: their memory (status), or stop them (stop)"
    )
    s.add_argument("action", nargs="?", choices=["status", "stop"], default="status")
    s.set_defaults(func=cmd_pool)

    s = sub.add_parser("report", help="re-render reports/*.md from reports/matrix.json")
    s.set_defaults(func=cmd_report)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["bisect"]:
            # bisect parses its own arguments (harness/commands/bisect.py), --help included.
            args = argparse.Namespace(func=cmd_bisect, rest=argv[1:])
        else:
            args = parser().parse_args(argv)
        return args.func(args)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
