"""``python -m harness export``: a bug's reproduction for a maintainer who will not clone the harness:
the script the harness runs (scenarios/<id>/repro.py), written as it is, and the command that runs
each case on a release (the record's newest where it reproduces and first where it is fixed, or
``--release``), its dependency date included; or, with ``--pytest``, a case as a pytest test."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.planning.builds import SpecError
from harness.project import PROJECT
from harness.rendering import pytest_export, reproduce
from harness.runtime import frameworks, registry
from harness.runtime.reproduction import SCRIPT
from harness.runtime.scenario import Scenario
from harness.store import record

HELP = "write a bug's reproduction script and the commands that run it on a release (no harness needed)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="SCENARIO[:CASE]")
    parser.add_argument(
        "--release",
        metavar="SPEC",
        help="the release the commands run it on, NAME==VERSION (default: the record's newest release "
        "where each case reproduces and first where it is fixed)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help=f"where to write the script ('-': stdout; default: {SCRIPT} in the current directory); "
        "with --pytest, the test file or, for a whole scenario, a directory",
    )
    parser.add_argument(
        "--pytest",
        action="store_true",
        help="the case as a pytest test in the framework's own test style (scenarios/pytest/), with a header "
        "naming the upstream thread and the releases it fails and passes on (default file: test_SCENARIO__CASE.py)",
    )


def _release_commands(scenario: Scenario, case_ids: list[str], release: str, path: str) -> list[str]:
    """The command for each case on ``release`` (a release of the scenario's framework on the index)."""
    from harness.execution import environments
    from harness.planning import builds

    if not builds.PIN_RE.match(release):
        raise SpecError(
            f"--release {release!r}: name one release, NAME==VERSION (e.g. {scenario.framework}==<version>); "
            f"for a framework checkout run `{reproduce.local_command(None)}`"
        )
    build = builds.parse(release, PROJECT.cache)
    if build.framework != frameworks.get(scenario.framework).name:
        raise SpecError(
            f"--release {release!r} is a {build.framework} release; {scenario.id} is about {scenario.framework}"
        )
    document = record.load(PROJECT.reports) or {}
    env: dict = next((e for e in document.get("environments", []) if e.get("source") == build.source), {})
    date = env.get("exclude_newer") or environments.dependency_date(build, PROJECT.cache)
    bug = reproduce.Bug.of(scenario)
    return [f"- {reproduce.command(bug, c, build.version, date, env.get('extras'), path)}" for c in case_ids]


def run(args: argparse.Namespace) -> int:
    """Write the script (as the harness runs it) and print the commands that run its cases."""
    chosen = registry.select(registry.discover(), [args.id])
    single = ":" in args.id
    out = Path(args.output) if args.output and args.output != "-" else None
    if args.pytest:
        if args.release:
            raise reproduce.ExportError("--pytest writes the hand-written test as it is: --release does not apply")
        if out is not None and not single and out.exists() and not out.is_dir():
            raise reproduce.ExportError(
                f"-o {args.output}: not a directory; for every case of {args.id}, -o names a directory"
            )
        return pytest_export.write(chosen, record.load(PROJECT.reports) or {}, args.output, out, single)
    scenario = chosen[0][0]
    case_ids = [c.id for _, c in chosen]
    script = reproduce.script_file(scenario.id)
    if not script.is_file():
        raise reproduce.ExportError(f"{scenario.id} has no {reproduce.script_path(scenario.id)}")
    path = out or Path(SCRIPT)
    shown = path.name if out is None or args.output == "-" else str(path)
    if args.release:
        commands = _release_commands(scenario, case_ids, args.release, shown)
    else:
        document = record.load(PROJECT.reports)
        commands = [line for c in case_ids for line in reproduce.lines(reproduce.Bug.of(scenario), c, document, shown)]
    text = script.read_text(encoding="utf-8")
    if args.output == "-":
        sys.stdout.write(text)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({reproduce.script_path(scenario.id)}, as the harness runs it)", file=sys.stderr)
    where = "" if commands else " (the record has no result for it yet: name one with --release)"
    print(f"run it with uv (exit 3 reproduced, 0 fixed, 125 otherwise){where}:", file=sys.stderr)
    for line in commands:
        print(line, file=sys.stderr)
    return 0
