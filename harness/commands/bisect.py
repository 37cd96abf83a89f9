"""``python -m harness bisect`` (what ``nox -s bisect`` runs): where a case's outcome changes."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.commands import flags

HELP = "find the releases where a case's outcome changes"
DESCRIPTION = "Find the releases where a scenario's outcome changes (binary search over the index)."


def setup(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    parser.add_argument(
        "selector", metavar="SCENARIO[:CASE]", nargs="?", help="a scenario id, or scenario:case (optional with --all)"
    )
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
    parser.add_argument(
        "--all",
        action="store_true",
        help="with --commits: every boundary of the selection (no selection: of every scenario of the clone's "
        "framework); one whose tags the clone lacks is said and left out",
    )
    flags.add_today_deps(parser)
    flags.add_timeout(parser)
    flags.add_rerun(parser, help="run every case, even those with a still-valid recorded result in the environment")
    flags.add_pool_flags(parser)
    flags.add_python(
        parser,
        "bisect on these CPython interpreters, one bisect each (3.12, 3.10,3.13, or all "
        "found on this machine), found as uv finds them and never downloaded (default: 3.11)",
    )


def run(args: argparse.Namespace) -> int:
    from harness.execution import bisect

    if args.commits is not None:
        return _commits(args)
    if args.all or args.selector is None:
        raise bisect.SpecError(
            "--all needs --commits CLONE" if args.all else "bisect needs SCENARIO[:CASE] (or --commits CLONE --all)"
        )

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
        python=flags.pythons(args),
    )
    return bisect.run(options)


def _commits(args: argparse.Namespace) -> int:
    from harness.execution import commit_bisect
    from harness.planning.builds import SpecError

    if args.framework:
        raise SpecError("--commits bisects the scenario's own framework; drop --framework")
    if args.selector is None and not args.all:
        raise SpecError("bisect --commits needs SCENARIO[:CASE], or --all for every scenario of the clone's framework")
    options = commit_bisect.Options(
        selector=args.selector,
        all=args.all,
        clone=args.commits.expanduser(),
        start=args.start,
        end=args.end,
        today_deps=args.today_deps,
        timeout=args.timeout,
        rerun=args.rerun,
    )
    return commit_bisect.run(options)
