"""``python -m harness export``: a bug's reproduction for a maintainer who will not clone the harness:
the script the harness runs (scenarios/<id>/repro.py), written as it is, and the command that runs
each case on a release (the record's newest where it reproduces and first where it is fixed, or
``--release``), its dependency date included; or, with ``--pytest``, a case as a pytest test."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.commands import flags
from harness.planning import interpreters
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
    flags.add_python(
        parser,
        help="the one interpreter the commands run the script on (--python X.Y in each command), and whose "
        "results of the record choose the releases (default: 3.11, the record's; a case whose verdicts "
        "differ by interpreter gets --python 3.11 in its commands anyway)",
    )
    parser.add_argument(
        "--pytest",
        action="store_true",
        help="the case as a pytest test in the framework's own test style (scenarios/pytest/), with a header "
        "naming the upstream thread and the releases it fails and passes on (default file: test_SCENARIO__CASE.py)",
    )


def _python(args: argparse.Namespace) -> str | None:
    """The one interpreter --python names (found on this machine, as the matrix's), or None."""
    if args.python is None:
        return None
    named = flags.pythons(args) or []
    if len(named) != 1:
        raise SpecError(f"--python {args.python}: export writes commands for one interpreter; name one, e.g. 3.12")
    return named[0]


def _release_commands(
    scenario: Scenario, case_ids: list[str], release: str, path: str, python: str | None = None
) -> list[str]:
    """The command for each case on ``release`` (a release of the scenario's framework on the index),
    on ``python`` when one is named."""
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
    env = (record.load(PROJECT.reports) or record.Record()).environment(build.source)
    date = (env and env.exclude_newer) or environments.dependency_date(build, PROJECT.cache)
    extras = env.extras if env else None
    bug = reproduce.Bug.of(scenario)
    return [f"- {reproduce.command(bug, c, build.version, date, extras, path, python)}" for c in case_ids]


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
        return pytest_export.write(chosen, record.load(PROJECT.reports) or record.Record(), args.output, out, single)
    scenario = chosen[0][0]
    case_ids = [c.id for _, c in chosen]
    script = reproduce.script_file(scenario.id)
    if not script.is_file():
        raise reproduce.ExportError(f"{scenario.id} has no {reproduce.script_path(scenario.id)}")
    path = out or Path(SCRIPT)
    shown = path.name if out is None or args.output == "-" else str(path)
    python = _python(args)
    if args.release:
        commands = _release_commands(scenario, case_ids, args.release, shown, python)
    else:
        document = record.load(PROJECT.reports) or record.Record()
        bug, on, every = reproduce.Bug.of(scenario), python or interpreters.DEFAULT, document.results
        commands = [
            line
            for c in case_ids
            for line in reproduce.lines(bug, c, document, shown, on, reproduce.pinned(every, scenario.id, c, on))
        ]
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
