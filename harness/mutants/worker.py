"""The worker: runs inside a framework's environment (stdlib only, and the framework), started by
the coordinator (harness/mutants/schedule.py) as ``python -m harness.mutants.worker SPEC``.

It runs a scenario's proofs of one build (the in-process ones, or those of one Release in
that release's matrix environment), replaying each case once while every mutant of its
oracle judges the observation, and writes one JSON line per proof to stdout: ``case``,
``proof``, ``outcome`` (what it must say), ``got`` and ``detail`` (what the real oracle said),
``mutants`` (mutant key -> [outcome, detail]); or one ``{"error": ...}`` line. SPEC is a JSON
file: root, scenarios_dir, scenario, proofs ([case, proof] pairs), release (this environment
is the build), timeout, mutant_timeout, mutants ([key, mutation] pairs the coordinator
enumerated, or null: run unmutated).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from harness.mutants.apply import judging_case
from harness.mutants.mutations import Plan, plan
from harness.runtime import proof_runs, registry
from harness.runtime.runner import error_detail, run_case
from harness.runtime.scenario import Build


def serve(spec_file: str) -> int:
    """Run the proofs SPEC names with its mutants; one JSON line per proof on stdout."""
    spec = json.loads(Path(spec_file).read_text())
    out = sys.stdout
    sys.stdout = sys.stderr  # what a framework prints must not corrupt the protocol

    def emit(record: dict) -> None:
        out.write(json.dumps(record, sort_keys=True) + "\n")
        out.flush()

    root = Path(spec["root"])
    try:
        scenarios = registry.discover(Path(spec["scenarios_dir"]))
        scenario = scenarios[spec["scenario"]]
        # No mutants: a proof (an edge on a Release) run for the proof test, unmutated.
        the_plan = (
            Plan(scenario, [], {}, {}) if spec["mutants"] is None else plan(scenario, root, Path(spec["scenarios_dir"]))
        )
    except Exception as exc:
        emit({"error": "could not load the scenario: " + error_detail(exc)})
        return 0
    mine = {m.key: m.mutation for m in the_plan.mutants}
    if spec["mutants"] is not None and mine != dict(spec["mutants"]):
        emit(
            {
                "error": f"this environment enumerates other mutants ({len(mine)}) than the coordinator "
                f"({len(spec['mutants'])}): is it the same source and Python?"
            }
        )
        return 0
    # Unmutated, a case's edges judge one observation (each a copy): one run of the case for all of them.
    observed: dict[str, dict] = {}
    for case_id, proof in spec["proofs"]:
        case = scenario.case(case_id)
        sink: dict[str, tuple[str, str]] = {}
        build: Build
        if proof.startswith("edge-"):
            edge = case.edges[int(proof.removeprefix("edge-")) - 1]
            if spec["mutants"] is None:
                case = proof_runs.observed_once(case, observed.setdefault(case_id, {}))
            outcome, build, judged = edge.outcome, edge.build, proof_runs.edge_case(case, edge)
        else:
            outcome, build, judged = proof, case.proofs[proof], case
        judging = judging_case(judged, the_plan, sink, spec["mutant_timeout"])
        if spec["release"]:  # this environment is the build
            result = run_case(scenario, judging, timeout=spec["timeout"])
        else:  # an InProcess or AsInstalled proof (a Release's proofs run in its own environment)
            result = proof_runs.run_here(scenario, judging, build, outcome, timeout=spec["timeout"]).result
        emit(
            {
                "case": case_id,
                "proof": proof,
                "outcome": outcome,
                "got": result.outcome,
                "detail": result.detail,
                "mutants": {k: list(v) for k, v in sorted(sink.items())},
            }
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m harness.mutants.worker SPEC``: the worker side (users run ``python -m harness mutants``)."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 1:
        return serve(argv[0])
    print(
        "usage: python -m harness.mutants.worker SPEC_JSON (run mutants with `python -m harness mutants`)",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
