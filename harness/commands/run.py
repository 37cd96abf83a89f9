"""``python -m harness run``: cases in this environment, or under the build their proof names."""

from __future__ import annotations

import argparse
import sys

from harness.commands import flags

HELP = "run cases in this environment (the framework must be installed)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ids", nargs="*", help="scenario or scenario:case (default: all)")
    parser.add_argument("--timeline", action="store_true", help="print each case's timeline")
    flags.add_timeout(parser, help="per-case timeout in seconds (> 0)")
    parser.add_argument(
        "--proof",
        choices=("reproduced", "fixed"),
        help="run each case under the build its proof for this outcome names: an InProcess patch applied "
        "here, the installed release as is, or a Release in its matrix environment (built if missing); "
        "exit 1 unless every case says that outcome",
    )


def _print_timeline(timeline: str) -> None:
    print("".join("    " + line for line in timeline.splitlines(keepends=True)), end="")


def run_proofs(args: argparse.Namespace) -> int:
    """Run cases under their proof build for ``args.proof``; status 1 unless every case says it."""
    from harness.execution.proofs import run_proof
    from harness.runtime import registry

    status = 0
    for scenario, case in registry.select(registry.discover(), args.ids):
        proof_run = run_proof(scenario, case, args.proof, timeout=args.timeout)
        result = proof_run.result
        build = proof_run.build.description or type(proof_run.build).__name__
        where = f"{scenario.id}:{case.id} under its {args.proof} proof ({build}) on {proof_run.where}"
        print(f"{where}: {result.outcome}: {result.detail}")
        if args.timeline:
            _print_timeline(result.timeline)
        status |= result.outcome != args.proof
    return status


def run(args: argparse.Namespace) -> int:
    """Run cases in this environment, with whatever framework releases it has installed."""
    if args.proof:
        return run_proofs(args)
    import importlib.metadata  # here: only `run` needs it, and it costs every command 40 ms

    from harness.runtime import registry
    from harness.runtime.runner import run_case

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
            _print_timeline(result.timeline)
        status |= result.outcome == "error"
    return status
