"""``python -m harness run``: cases in this environment, or under the build their proof names."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from harness.commands import flags

if TYPE_CHECKING:
    from harness.runtime.scenario import Case, Scenario

HELP = "run cases in this environment (the framework must be installed)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ids", nargs="*", help="scenario or scenario:case (default: all)")
    parser.add_argument("--timeline", action="store_true", help="print each case's timeline")
    flags.add_timeout(parser, help="per-case timeout in seconds (> 0)")
    parser.add_argument(
        "--proof",
        choices=("reproduced", "fixed"),
        help="run each case under the build its proof for this outcome names: an InProcess patch applied "
        "here, the installed release as is (without one here: in the environment of the release noxfile.py "
        "TEST_PINS pins), or a Release in its matrix environment (built if missing); "
        "exit 1 unless every case says that outcome",
    )


def _print_timeline(timeline: str) -> None:
    print("".join("    " + line for line in timeline.splitlines(keepends=True)), end="")


def _elsewhere(scenario: Scenario, case: Case, args: argparse.Namespace) -> int:
    """Run one case's AsInstalled/InProcess proof in the build environment of the release the tests
    pin (noxfile.py TEST_PINS), made or reused as the matrix makes its environments: this Python
    has no framework to run it on."""
    import subprocess

    from harness.execution import environments, proofs
    from harness.project import PROJECT

    spec = proofs.pinned_spec(scenario.framework, PROJECT.root)
    if spec is None:
        print(f"error: {scenario.framework} is not installed here and noxfile.py TEST_PINS pins no release of it")
        return 1
    from harness.planning import builds

    build = builds.parse(spec, PROJECT.cache)
    print(f"{scenario.framework} is not installed here: running in the environment of {spec} (TEST_PINS)")
    try:
        env = environments.ensure(build, PROJECT.builds, PROJECT.cache)
    except (environments.BuildFailed, OSError) as exc:
        print(f"{scenario.id}:{case.id}: error: the environment of {spec} cannot be built: {exc}")
        return 1
    argv = [str(env.python), "-m", "harness", "run", f"{scenario.id}:{case.id}", "--proof", args.proof]
    argv += ["--timeout", str(args.timeout)] + (["--timeline"] if args.timeline else [])
    done = subprocess.run(argv, cwd=PROJECT.root, env=environments.worker_environment(PROJECT.root), check=False)
    return 0 if done.returncode == 0 else 1


def run_proofs(args: argparse.Namespace) -> int:
    """Run cases under their proof build for ``args.proof``; status 1 unless every case says it.

    From any Python: an AsInstalled or InProcess proof whose framework is not installed here runs in
    the environment of the release the tests pin; a Release proof in its matrix environment. What
    builds environments needs ``packaging``; without it, one line says so.
    """
    from harness.execution.proofs import run_proof
    from harness.runtime import registry
    from harness.runtime.proof_runs import installed_version
    from harness.runtime.scenario import Release

    status = 0
    for scenario, case in registry.select(registry.discover(), args.ids):
        build = case.proofs.get(args.proof)
        elsewhere = isinstance(build, Release) or installed_version(scenario.framework) is None
        if build is not None and elsewhere and not _has_packaging():
            print(
                f"{scenario.id}:{case.id}: error: its {args.proof} proof needs an environment built, and building "
                f"needs the `packaging` module, missing from this Python ({sys.executable}): run it with a Python "
                "that has it (the one that runs nox: `python -m harness run ...`)"
            )
            status = 1
            continue
        if build is not None and not isinstance(build, Release) and installed_version(scenario.framework) is None:
            status |= _elsewhere(scenario, case, args)
            continue
        proof_run = run_proof(scenario, case, args.proof, timeout=args.timeout)
        result = proof_run.result
        named = proof_run.build.description or type(proof_run.build).__name__
        where = f"{scenario.id}:{case.id} under its {args.proof} proof ({named}) on {proof_run.where}"
        print(f"{where}: {result.outcome}: {result.detail}")
        if args.timeline:
            _print_timeline(result.timeline)
        status |= result.outcome != args.proof
    return status


def _has_packaging() -> bool:
    import importlib.util

    return importlib.util.find_spec("packaging") is not None


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
