"""The mutants command: ``nox -s mutants`` (``python -m harness mutants [ID ...] [--jobs N] [--list]``).

Mutates every scenario's oracle functions, runs each case's proofs and edges against every
mutant, and prints each survivor and a table per scenario. How, and why this way:
harness/mutants/__init__.py; the parts: harness/mutants/ (targets, sites and mutations make
the mutants, apply judges an observation under one, worker runs a build's proofs with them
inside the framework's environment, schedule runs the workers, judge and equivalents decide
what was killed, table says so).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from harness.execution.proof_worker import ProofResult
from harness.mutants import judge, mutations, schedule, table
from harness.mutants.apply import MUTANT_TIMEOUT
from harness.mutants.equivalents import EQUIVALENTS_FILE, load_equivalents
from harness.project import PROJECT, Project
from harness.runtime import registry
from harness.runtime.runner import DEFAULT_TIMEOUT

PROJECT_ROOT = PROJECT.root


def run(
    ids: list[str],
    *,
    jobs: int = 2,
    timeout: float = DEFAULT_TIMEOUT,
    root: Path = PROJECT_ROOT,
    scenarios_dir: Path | None = None,
    equivalents_file: Path | None = None,
    list_only: bool = False,
    mutant_timeout: float = MUTANT_TIMEOUT,
    out: TextIO | None = None,
) -> int:
    """Mutate the oracles of the scenarios named (all when none), judge each mutant by the proofs.

    Exit status: 0 when every mutant is killed or listed as equivalent, 1 otherwise (or when a
    proof fails unmutated), 2 for bad input (raised: registry.UnknownId, MutantsError).
    """
    out = out or sys.stdout
    scenarios_dir = scenarios_dir or root / "scenarios"
    equivalents_file = equivalents_file or root / EQUIVALENTS_FILE
    scenarios = registry.discover(scenarios_dir)
    chosen_ids: list[str] = []
    for selector in ids:
        for sid in (s for s in selector.split(",") if s):
            if sid not in scenarios:
                raise registry.UnknownId(f"unknown scenario {sid!r}; valid: {', '.join(sorted(scenarios))}")
            if sid not in chosen_ids:
                chosen_ids.append(sid)
    chosen = [scenarios[s] for s in (chosen_ids or sorted(scenarios))]
    equivalents = load_equivalents(equivalents_file)

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    plans = {s.id: mutations.plan(s, root, scenarios_dir) for s in chosen}
    if list_only:
        for s in chosen:
            for m in plans[s.id].mutants:
                say(
                    f"{s.id}  {m.where()}  {m.mutation}"
                    + (f"  (occurrence {m.occurrence})" if m.occurrence > 1 else "")
                )
            for note in plans[s.id].notes:
                say(f"{s.id}  note: {note}")
        return 0

    tasks = [t for s in chosen for t in schedule.tasks(s)]
    say(
        f"mutants: {sum(len(p.mutants) for p in plans.values())} mutants of the oracles of {len(chosen)} scenarios; "
        f"{len(tasks)} proof runs ({sum(len(t.proofs) for t in tasks)} proofs), {jobs} at a time"
    )

    def progress(number: int, task: schedule.Task, got: list[ProofResult], trouble: list[str], seconds: float) -> None:
        held = sum(r.got == r.outcome for r in got)
        cases = {c for c, _ in task.proofs}
        judged = sum(1 for m in plans[task.scenario.id].mutants if cases & set(m.cases))
        say(
            f"[{number}/{len(tasks)}] {task.scenario.id}: {task.release or 'in-process proofs'}: "
            f"{held}/{len(task.proofs)} proofs held unmutated, {judged} mutants judged "
            f"({seconds:.1f}s)" + ("; " + "; ".join(trouble) if trouble else "")
        )

    results, problems = schedule.run_all(
        tasks,
        plans,
        jobs=jobs,
        project=Project(root),
        scenarios_dir=scenarios_dir,
        timeout=timeout,
        mutant_timeout=mutant_timeout,
        done=progress,
    )

    outcomes = [judge.judge_scenario(plans[s.id], results[s.id], problems[s.id], equivalents) for s in chosen]
    status = 0
    for o in outcomes:
        for m in o.survived:
            say(
                f"SURVIVED {o.plan.scenario.id}  {m.where()}  {m.mutation}"
                + (f"  (occurrence {m.occurrence})" if m.occurrence > 1 else "")
                + table.changed_detail(m, o)
            )
        for note in o.plan.notes:
            say(f"note {o.plan.scenario.id}: {note}")
        for problem in o.problems:
            say(f"PROBLEM {problem}")
        status |= bool(o.survived or o.problems)
    ran = {s.id for s in chosen}
    for e in equivalents:
        if e.scenario in ran and not e.matched:
            say(
                f"PROBLEM {EQUIVALENTS_FILE}: no mutant of {e.scenario} {e.function} is '{e.mutation}'"
                + (f" (occurrence {e.occurrence})" if e.occurrence > 1 else "")
                + ": remove or update the entry"
            )
            status = 1
    say("")
    say(table.table(outcomes))
    if status:
        say(
            "a survivor is a missing proof: add a proof that kills it, or list it in "
            f"{EQUIVALENTS_FILE} with the reason it cannot change a verdict"
        )
    return status


HELP = "mutate the oracles and run the proofs against each mutant (nox -s mutants)"


def setup(parser: argparse.ArgumentParser) -> None:
    from harness.commands import flags

    parser.add_argument("ids", nargs="*", metavar="ID", help="only these scenarios (default: all); commas allowed")
    parser.add_argument("--jobs", type=flags.proof_jobs, default=2, help="proof runs in parallel, >= 1 (default 2)")
    flags.add_timeout(parser)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")


def run_command(args: argparse.Namespace) -> int:
    return run(args.ids, jobs=args.jobs, timeout=args.timeout, list_only=args.list)
