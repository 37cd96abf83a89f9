"""``python -m harness candidate PATH`` (what ``nox -s candidate`` and the reusable workflow run):
evidence for a framework's pull request, written to a folder, exit 1 when a case fixed on the
baseline is not fixed on the candidate (no waiver accepting it)."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.commands import flags

HELP = (
    "every scenario of a framework on a candidate checkout and its baseline release; "
    "exit 1 when a case fixed on the baseline is not fixed on the candidate"
)


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="a checkout, sdist or wheel of google-adk or openai-agents")
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="a new or empty folder for the evidence (summary.md, the before/after reports, the scripts; "
        "default: a new folder reports/runs/candidate/<candidate>-<UTC time>/)",
    )
    parser.add_argument(
        "--base",
        metavar="VERSION",
        help="the release to judge against (default: the newest final release at or below the candidate's version)",
    )
    parser.add_argument(
        "--waivers",
        metavar="FILE",
        help="the framework's waiver file (default: .agent-bug-harness.toml of the checkout or its repository)",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="ID[,ID...]",
        help="only these scenarios or scenario:case ids of the candidate's framework (repeatable, or "
        "comma-separated; default: every scenario of the framework); the summary names them",
    )
    flags.add_timeout(parser)
    flags.add_python(
        parser,
        "run the candidate and the releases on these CPython interpreters (3.12, 3.10,3.13, or all found on "
        "this machine), each judged against the baseline on the same one; never downloaded (default: 3.11)",
    )
    parser.add_argument(
        "--jobs", type=flags.jobs, default=None, help="builds run in parallel, >= 1 (default: CPU count)"
    )


def run(args: argparse.Namespace) -> int:
    from harness.execution import candidate
    from harness.project import PROJECT

    out = Path(args.out) if args.out else None
    waivers = Path(args.waivers) if args.waivers else None
    return candidate.run(
        args.path,
        out,
        PROJECT.root,
        args.base,
        args.timeout,
        args.jobs,
        waivers,
        python=flags.pythons(args),
        only=[i for value in args.only for i in value.split(",") if i] or None,
    )
