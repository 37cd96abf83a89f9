"""``python -m harness explain``: each boundary of a scenario explained by the framework's own code.

For every boundary of the record (reports/matrix.json and reports/bisect.json), the case runs
traced in both releases' builds and the change between their sources is shown where the case
executed it (harness/execution/explain.py); written to reports/boundaries/<scenario>.json
(harness/store/boundary_files.py) under the record's lock.
"""

from __future__ import annotations

import argparse
import sys

from harness.commands import flags

HELP = "show, for each boundary of a scenario, the change of the framework's code the case executed"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="SCENARIO[:CASE]")
    parser.add_argument(
        "--between",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="only the boundary between these two releases (default: every boundary of the record)",
    )
    flags.add_timeout(parser)


def run(args: argparse.Namespace) -> int:
    """Explain the selected boundaries; exit 0 (an unexplained boundary is a finding, not a failure)."""
    from harness.execution import explain, postgres
    from harness.project import PROJECT
    from harness.rendering import boundary_evidence
    from harness.runtime import registry
    from harness.store import boundary_files

    scenario_id, _, case_id = args.id.partition(":")
    scenarios = registry.discover()
    registry.select(scenarios, [args.id])  # an unknown scenario or case: one line, exit 2
    scenario = scenarios[scenario_id]
    between = tuple(args.between) if args.between else None
    chosen = explain.wanted(scenario, case_id or None, between, PROJECT)
    if not chosen:
        print(f"{args.id}: no boundary in the record (every release gives the same outcome)")
        return 0

    def progress(entry: boundary_files.Entry, sides: list) -> None:
        # What it cost: each build's process (start, framework import, the case), and the traced case in it.
        seconds = "; ".join(
            f"{t.version}: {t.seconds:.1f} s, of which the traced case {t.case_seconds:.2f} s" for t in sides
        )
        print("\n".join([*boundary_evidence.terminal_lines(entry), f"  ({seconds})", ""]), flush=True)

    try:
        entries = explain.explain(scenario, chosen, PROJECT, args.timeout, progress)
    finally:
        postgres.stop()
    path = boundary_files.save(
        PROJECT.reports,
        scenario.id,
        scenario.framework,
        [c.id for c in scenario.cases],
        entries,
        replace_all=not case_id and between is None,
    )
    unexplained = [e for e in entries if e.status != boundary_files.EXPLAINED]
    print(f"{len(entries)} boundaries, {len(unexplained)} not explained; written to {path.relative_to(PROJECT.root)}")
    sys.stdout.flush()
    return 0
