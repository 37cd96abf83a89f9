"""``python -m harness bisect`` (what ``nox -s bisect`` runs): where a case's outcome changes."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.commands import flags

HELP = "find the releases where a case's outcome changes"
DESCRIPTION = "Find the releases where a scenario's outcome changes (binary search over the index)."


def setup(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    parser.add_argument("selector", metavar="SCENARIO[:CASE]", help="a scenario id, or scenario:case")
    parser.add_argument("--framework", help="framework to bisect (default: the scenario's)")
    parser.add_argument(
        "--from", dest="start", metavar="A", help="oldest release to test (default: the first final release)"
    )
    parser.add_argument(
        "--to", dest="end", metavar="B", help="newest release to test (default: the latest final release)"
    )
    parser.add_argument(
        "--commits",
        metavar="CLONE",
        type=Path,
        help="bisect the commits between a recorded release boundary's two tags in this local clone of the "
        "framework's repository (with --from A --to B: that boundary); the first commit of the newer outcome "
        "is recorded beside the boundary",
    )
    flags.add_today_deps(parser)
    flags.add_timeout(parser)
    flags.add_rerun(parser, help="run every case, even those with a still-valid recorded result in the environment")
    flags.add_pool_flags(parser)


def run(args: argparse.Namespace) -> int:
    from harness.execution import bisect

    if args.commits is not None:
        return _commits(args)

    options = bisect.Options(
        selector=args.selector,
        framework=args.framework,
        start=args.start,
        end=args.end,
        today_deps=args.today_deps,
        timeout=args.timeout,
        rerun=args.rerun,
        pool=flags.pool_mode(args),
        pool_memory_mb=args.pool_memory,
    )
    return bisect.run(options)


def _commits(args: argparse.Namespace) -> int:
    from harness.execution import commit_bisect
    from harness.planning.builds import SpecError

    if args.framework:
        raise SpecError("--commits bisects the scenario's own framework; drop --framework")
    options = commit_bisect.Options(
        selector=args.selector,
        clone=args.commits.expanduser(),
        start=args.start,
        end=args.end,
        today_deps=args.today_deps,
        timeout=args.timeout,
        rerun=args.rerun,
    )
    return commit_bisect.run(options)
