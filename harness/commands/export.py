"""``python -m harness export``: a reproduction script per case, for a maintainer who will not clone
the harness: the case's short reproduction with its PEP 723 header, or the bundled judged script."""

from __future__ import annotations

import argparse
import sys

from harness.planning.builds import SpecError
from harness.project import PROJECT
from harness.rendering import export, pytest_export
from harness.runtime import frameworks, registry
from harness.runtime.scenario import Case, Scenario
from harness.store import record

HELP = "write a reproduction script per case (uv run it; no harness needed)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="SCENARIO[:CASE]")
    parser.add_argument(
        "--release",
        metavar="SPEC",
        help="the release the script pins, NAME==VERSION (default: the newest "
        "release of the record where the case reproduces, else its newest)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write: for SCENARIO:CASE the file ('-': stdout), for SCENARIO a directory "
        "(default: SCENARIO--CASE.py in the current directory)",
    )
    parser.add_argument(
        "--bundle",
        action="store_true",
        help="the self-contained script that bundles the scenario module and the harness and judges with "
        "its oracle, instead of the case's short reproduction (never committed)",
    )
    parser.add_argument(
        "--pytest",
        action="store_true",
        help="the case as a pytest test in the framework's own test style (scenarios/pytest/), with a header "
        "naming the upstream thread and the releases it fails and passes on (default file: test_SCENARIO__CASE.py)",
    )


def _export_pin(scenario: Scenario, case: Case, release: str | None, document: dict | None) -> export.Pin:
    """--release NAME==VERSION (a release of the scenario's framework on the index), else the record's choice,
    else the newest final release on the index."""
    from harness.execution import environments
    from harness.planning import builds, index

    cache_dir = PROJECT.cache
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


def run(args: argparse.Namespace) -> int:
    """Write one reproduction script per case: its short reproduction with a PEP 723 header
    (harness/rendering/short_scripts.py), or with --bundle the self-contained judged script that
    bundles the scenario and the harness (harness/rendering/export.py)."""
    from pathlib import Path

    from harness.rendering import short_scripts

    chosen = registry.select(registry.discover(), [args.id])
    document = record.load(PROJECT.reports)
    single = ":" in args.id  # SCENARIO:CASE: -o names the file; SCENARIO: -o names a directory
    out = Path(args.output) if args.output and args.output != "-" else None
    if out is not None and not single and out.exists() and not out.is_dir():
        raise export.ExportError(
            f"-o {args.output}: not a directory; for every case of {args.id}, -o names a directory"
        )
    if args.pytest:
        return pytest_export.write(chosen, document or {}, args.output, out, single, args.bundle or bool(args.release))
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
