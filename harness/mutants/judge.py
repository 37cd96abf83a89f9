"""Which mutants the proofs killed, which survived, which ``mutants-equivalent.toml`` explains,
and what is wrong with the run (a proof that fails unmutated, an entry a proof contradicts).
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.execution.proof_worker import ProofResult
from harness.mutants.equivalents import EQUIVALENTS_FILE, Equivalent
from harness.mutants.mutations import Mutant, Plan


@dataclass
class ScenarioOutcome:
    plan: Plan
    proofs: list[ProofResult]
    killed: dict[str, ProofResult]  # mutant key -> the first proof that killed it
    survived: list[Mutant]
    equivalent: list[tuple[Mutant, Equivalent]]
    problems: list[str]  # proofs that failed unmutated, workers that failed, false equivalents


def judge_scenario(
    the_plan: Plan, proofs: list[ProofResult], problems: list[str], equivalents: list[Equivalent]
) -> ScenarioOutcome:
    scenario = the_plan.scenario
    problems = list(problems)
    valid: list[ProofResult] = []
    for p in proofs:
        if p.got == p.outcome:
            valid.append(p)
        else:
            problems.append(
                f"{scenario.id}: {p.name} ({p.build}) does not say {p.outcome} unmutated: "
                f"{p.got}: {p.detail}; mutants are not judged there"
            )
    killed: dict[str, ProofResult] = {}
    for m in the_plan.mutants:
        for p in valid:
            said = p.mutants.get(m.key)
            if p.case in m.cases and said is not None and said[0] != p.outcome:
                killed[m.key] = p
                break
    survived, equivalent = [], []
    for m in the_plan.mutants:
        entry = next(
            (
                e
                for e in equivalents
                if e.scenario == scenario.id
                and e.function == m.function
                and e.mutation == m.mutation
                and e.occurrence == m.occurrence
            ),
            None,
        )
        if entry is not None:
            entry.matched = True
            if m.key in killed:
                p = killed[m.key]
                problems.append(
                    f"{EQUIVALENTS_FILE} says {scenario.id} {m.function} '{m.mutation}' is equivalent, "
                    f"but {p.name} ({p.build}) kills it: "
                    f"{p.mutants[m.key][0]}: {p.mutants[m.key][1]}"
                )
            else:
                equivalent.append((m, entry))
        elif m.key not in killed:
            survived.append(m)
    return ScenarioOutcome(the_plan, proofs, killed, survived, equivalent, problems)
