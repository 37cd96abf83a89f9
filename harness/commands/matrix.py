"""``python -m harness matrix`` (what ``nox -s matrix`` runs): every scenario across framework builds."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.commands import flags

HELP = "run every scenario across framework builds (what `nox -s matrix` runs)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "specs",
        nargs="*",
        metavar="SPEC",
        help="google-adk==2.13.0, openai-agents==0.24.0, a path to a checkout/wheel/sdist, or NAME @ URL "
        "(default: the default release set)",
    )
    # One value per --only (repeat it, or separate ids with commas), so SPECs may follow it.
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="ID[,ID...]",
        help="only this scenario or scenario:case (repeatable, or comma-separated)",
    )
    parser.add_argument(
        "--update-snapshots",
        action="store_true",
        help="accept new and changed results of releases into snapshots/matrix",
    )
    flags.add_today_deps(parser)
    flags.add_timeout(parser)
    parser.add_argument(
        "--jobs", type=flags.jobs, default=None, help="builds run in parallel, >= 1 (default: CPU count)"
    )
    flags.add_rerun(parser, help="run every case, even those whose inputs are unchanged")
    parser.add_argument("--shard", metavar="K/N", help="run only the K-th of N deterministic slices of the builds")
    flags.add_pool_flags(parser)
    flags.add_python(parser)
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="write this run's reports to DIR and leave the record (reports/matrix.json) alone; "
        "runs with a local build or a release outside the matrix go to reports/runs/<name>/ by default",
    )


def run(args: argparse.Namespace) -> int:
    from harness.execution import matrix
    from harness.planning.builds import SpecError

    options = matrix.Options(
        specs=args.specs,
        only=[i for value in args.only for i in value.split(",") if i],
        update_snapshots=args.update_snapshots,
        today_deps=args.today_deps,
        timeout=args.timeout,
        python=flags.pythons(args),
    )
    if args.jobs:
        options.jobs = args.jobs
    options.rerun = args.rerun
    options.pool = flags.pool_mode(args)
    options.pool_memory_mb = args.pool_memory
    if args.out:
        options.out = Path(args.out)
    if args.shard:
        k, _, n = args.shard.partition("/")
        if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
            raise SpecError(f"malformed --shard {args.shard!r}; valid: K/N with 1 <= K <= N, e.g. 1/2")
        options.shard = (int(k), int(n))
    return matrix.run(options)
