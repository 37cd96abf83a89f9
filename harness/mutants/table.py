"""What ``nox -s mutants`` says of the outcome: a survivor's note when only its detail changed,
and the table it ends with (per scenario, the mutants made, killed, survived and equivalent,
and the total)."""

from __future__ import annotations

from harness.mutants.judge import ScenarioOutcome
from harness.mutants.mutations import Mutant


def table(outcomes: list[ScenarioOutcome]) -> str:
    header = ["scenario", "mutants", "killed", "survived", "equivalent"]
    rows = [
        [o.plan.scenario.id, *map(str, (len(o.plan.mutants), len(o.killed), len(o.survived), len(o.equivalent)))]
        for o in outcomes
    ]
    rows.append(["total", *(str(sum(int(r[i]) for r in rows)) for i in range(1, 5))])
    width = max(len(r[0]) for r in [header, *rows])
    return "\n".join(f"{r[0]:<{width}}  " + "  ".join(f"{v:>10}" for v in r[1:]) for r in [header, *rows])


def changed_detail(m: Mutant, outcome: ScenarioOutcome) -> str:
    """`` (only the detail changes, on basic's fixed proof)`` for a survivor that changed a detail."""
    for p in outcome.proofs:
        said = p.mutants.get(m.key)
        if said is not None and p.got == p.outcome and said[1] != p.detail:
            return f" (only the detail changes, on {p.name})"
    return ""
