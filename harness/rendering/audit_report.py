"""What ``audit`` prints: per audited release, the known bugs that affect it, in text or JSON.

Text is for a framework user: the bugs that reproduce on their release first (how that is known,
the first fixed release on their line, the upstream links, the command that checks it on their
install), then the bugs whose answer is unknown, then a count of the rest. JSON (``--format
json``) holds every bug's answer, for tools.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from harness.planning import versions
from harness.planning.audit_targets import Target
from harness.runtime.outcomes import FIXED, NOT_APPLICABLE, REPRODUCED, UNEXPECTED
from harness.store.audit import INFERRED, MEASURED, UNKNOWN, Answer, Bug
from harness.store.environment_diff import Difference
from harness.store.moves import BROUGHT, CANNOT_SAY, FIRST_MEASURABLE, FIXED_BY_MOVE, KINDS, STAYS, Move, PairVerdict

# How a script's verdict meets the record's answer (--run).
AGREES, DIFFERS, NEW, NO_ANSWER = "agrees", "differs", "new answer", "no answer"


@dataclass(frozen=True)
class Finding:
    """One bug's answer for one audited release, and its script's verdict when ``--run`` ran it."""

    bug: Bug
    answer: Answer
    run: str | None = None  # the outcome of the bug's script run in the audited environment
    run_line: str = ""  # the script's own verdict line there (why it could not judge, for one)
    ignored: str = ""  # the reason the user's ignore file gives: shown, counted, but it fails nothing

    @property
    def fails(self) -> bool:
        """Whether it sets the exit status: it reproduces and the user did not ignore it."""
        return self.reproduces and not self.ignored

    @property
    def reproduces(self) -> bool:
        """Whether the bug reproduces there: by the record's answer, or by the script run there."""
        return self.answer.outcome == REPRODUCED or self.run == REPRODUCED

    @property
    def agreement(self) -> str | None:
        """How the run's verdict meets the record's answer (None when not run)."""
        if self.run is None:
            return None
        if self.run not in (REPRODUCED, FIXED, NOT_APPLICABLE, UNEXPECTED):  # an error: the script could not judge
            return AGREES if self.run == self.answer.outcome else NO_ANSWER
        # not-applicable and unexpected are answers too (issue 50: a not-applicable verdict counted as "no answer")
        if self.answer.basis == UNKNOWN:
            return NEW
        return AGREES if self.run == self.answer.outcome else DIFFERS


@dataclass(frozen=True)
class Audited:
    """One framework release of the target, with every bug's finding."""

    framework: str
    version: str
    findings: tuple[Finding, ...]
    index_note: str = ""  # set when the package index could not be read and the record's list was used
    # Packages the audited environment has at other versions than the record's build of the release.
    environment_differs: tuple[Difference, ...] = ()
    # What the index says the release is: "final", "pre-release" or "yanked" (issue 50: said apart, since the
    # record measures final releases only and a pre-release's "unknown" is that, not a gap in a line).
    status: str = "final"

    def status_words(self) -> str:
        """One sentence for a release the record does not measure by design ("" for a final release)."""
        if self.status == "final":
            return ""
        what = "a pre-release" if self.status == "pre-release" else "yanked from the package index"
        return (
            f"{self.framework} {self.version} is {what}: the record measures final releases only (the matrix and "
            f"its bisects leave pre-releases and yanked releases out): an answer below is one inferred from the "
            f"releases measured around it, or unknown; `--run` in an environment that has it measures it, as does "
            f"`nox -s matrix -- {self.framework}=={self.version}`"
        )

    def count(self, outcome: str) -> int:
        return sum(f.answer.outcome == outcome for f in self.findings)

    def buckets(self) -> dict[str, int]:
        """Every answer in exactly one bucket (issue 50: 1.20.0's 30 + 11 + 12 of 54 left one out):
        unknown first, then reproduces (by the record or by --run), then the answer's outcome."""
        counts = dict.fromkeys(BUCKETS, 0)
        for f in self.findings:
            counts[bucket(f)] += 1
        return counts

    def count_line(self, bold: str = "") -> str:
        """The count line, the unknowns first (``bold``: Markdown's ``**`` around them)."""
        counts = self.buckets()
        return (
            f"{bold}{counts['unknown']} unknown{bold}, "
            + ", ".join(f"{counts[b]} {b}" for b in BUCKETS[1:])
            + f" (of the record's {len(self.findings)} {self.framework} bugs)"
        )


# The buckets of the count line, in the order it says them: what is not known leads.
BUCKETS = ("unknown", "reproduces", "unexpected", "error", "fixed", "not applicable")


def bucket(f: Finding) -> str:
    """The one bucket of a finding's answer."""
    if f.reproduces:
        return "reproduces"
    if f.answer.basis == UNKNOWN:
        return "unknown"
    return {FIXED: "fixed", NOT_APPLICABLE: "not applicable", UNEXPECTED: "unexpected"}.get(f.answer.outcome, "error")


def first_sentence(text: str) -> str:
    match = re.match(r"^(.+?[.!?])(\s|$)", " ".join(text.split()))
    return match.group(1) if match else text.strip()


def check_command(target: Target, bug: Bug) -> str:
    """The command that checks one bug on the user's own install."""
    return f"{target.python or 'python'} {bug.check}"


def _basis_words(answer: Answer) -> str:
    if answer.basis == MEASURED:
        return "measured: run by the record" if answer.measured_by == "matrix" else "measured: a bisect probe"
    if answer.basis == INFERRED and len(answer.neighbours) == 2:
        where = f", as answered on {', '.join(answer.elsewhere)}" if answer.elsewhere else ""
        return f"inferred: {answer.neighbours[0]} and {answer.neighbours[1]} agree inside a bisected range{where}"
    if answer.basis == INFERRED:  # from the interpreters that ran this release (harness/store/audit.py)
        return f"inferred: {answer.reason}"
    return "unknown"


def _run_words(finding: Finding) -> list[str]:
    if finding.run is None:
        return []
    said = f"; the script said: {finding.run_line}" if finding.run_line and finding.agreement != AGREES else ""
    if finding.agreement == DIFFERS:
        return [f"    --run: {finding.run} here; DIFFERS from the record's {finding.answer.outcome}{said}"]
    if finding.agreement == NEW:
        return [f"    --run: {finding.run} here (the record has no answer for this release){said}"]
    return [f"    --run: {finding.run} here ({finding.agreement}){said}"]


def _bug_block(target: Target, audited: Audited, finding: Finding) -> list[str]:
    bug, answer = finding.bug, finding.answer
    head = "REPRODUCES" if answer.outcome == REPRODUCED else answer.outcome.upper()
    if answer.outcome != REPRODUCED and finding.run == REPRODUCED:
        head = "REPRODUCES (here, by --run)"
    if finding.ignored:
        head += f" [ignored: {finding.ignored}]"
    kind = " [non-regression: a fix that goes too far]" if bug.kind == "non-regression" else ""
    out = [f"  {head}  {bug.id}{kind}  ({_basis_words(answer)})"]
    about = first_sentence(bug.description)
    out.append(
        f"    the fix of this bug goes too far; the bug: {about}" if bug.kind == "non-regression" else f"    {about}"
    )
    if bug.case_summary:
        out.append(f"    case: {bug.case_summary}")
    line = versions.line(audited.version)
    if answer.outcome == REPRODUCED and answer.fixed_since:  # a range: releases between were never answered
        out.append(
            f"    fixed between {bug.framework} {answer.fixed_since} and {answer.first_fixed} on the {line} line, "
            f"not bisected ({answer.first_fixed_note})"
        )
    elif answer.outcome == REPRODUCED and answer.first_fixed:
        out.append(f"    first fixed: {bug.framework} {answer.first_fixed} on the {line} line")
    elif answer.outcome == REPRODUCED:
        out.append(f"    first fixed: none measured on the {line} line")
    out.append(f"    upstream: {', '.join(bug.links)}")
    out.append(f"    check: {check_command(target, bug)}   (exit 3: reproduced, 0: fixed)")
    return out + _run_words(finding)


def text(target: Target, audited: list[Audited]) -> str:
    """The report for a person."""
    out: list[str] = []
    for a in audited:
        where = f"{target.kind} {target.label}, CPython {target.interpreter}"
        out.append(f"{a.framework} {a.version}  ({where})")
        if a.index_note:
            out.append(f"  note: {a.index_note}")
        if a.status_words():
            out.append(f"  note: {a.status_words()}")
        if not target.python:
            out.append("  (run each check with the python of an environment that has this release installed)")
        shown = [f for f in a.findings if f.reproduces or f.answer.outcome == UNEXPECTED]
        unknown = [f for f in a.findings if f.answer.basis == UNKNOWN and f not in shown]
        out.append("  " + a.count_line())
        if a.environment_differs:
            out.append(
                f"  your environment differs from the record's build of {a.framework} {a.version}: "
                + "; ".join(d.words() for d in a.environment_differs)
                + ". The answers are the record's, measured with its versions: `--run` checks them here"
            )
        for f in shown:
            out += [""] + _bug_block(target, a, f)
        if unknown:
            out += ["", f"  UNKNOWN (no answer measured at or around {a.version}; not a clean bill):"]
            for f in unknown:
                out.append(f"    {f.bug.id}: {f.answer.reason}")
                out += [w.replace("    --run", "      --run") for w in _run_words(f)]
        ran = [f for f in a.findings if f.run is not None]
        if ran:
            differ = [f.bug.id for f in ran if f.agreement == DIFFERS]
            silent = [f for f in ran if f.agreement == NO_ANSWER]
            agree = sum(f.agreement == AGREES for f in ran)
            out += [
                "",
                f"  --run: {len(ran)} scripts run here; {agree} agree with the record, {len(differ)} differ"
                + (f" ({', '.join(differ)})" if differ else "")
                + f", {len(silent)} gave no answer here",
            ]
            out += [f"    no answer: {f.bug.id}: {f.run_line or f.run}" for f in silent]
        out.append("")
    return "\n".join(out)


def as_json(target: Target, audited: list[Audited], moved: Move | None = None) -> str:
    """The report for tools: every bug's answer for every audited release (and ``audit --to``'s move)."""
    document: dict = {
        "target": {
            "kind": target.kind,
            "label": target.label,
            "python": target.python,
            "interpreter": target.interpreter,
        },
        "reproduces": any(f.reproduces for a in audited for f in a.findings),
        "fails": any(f.fails for a in audited for f in a.findings),
        "releases": [
            {
                "framework": a.framework,
                "version": a.version,
                "line": versions.line(a.version),
                "index_note": a.index_note or None,
                "status": a.status,
                "environment_differs": [
                    {"package": d.package, "here": d.here, "measured": d.measured} for d in a.environment_differs
                ],
                "counts": {**{b.replace(" ", "_"): n for b, n in a.buckets().items()}, "bugs": len(a.findings)},
                "bugs": [_bug_json(target, f) for f in a.findings],
            }
            for a in audited
        ],
    }
    if moved is not None:
        document["move"] = move_json(moved)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _bug_json(target: Target, f: Finding) -> dict:
    a = f.answer
    return {
        "id": f.bug.id,
        "scenario": f.bug.scenario,
        "case": f.bug.case,
        "kind": f.bug.kind,
        "summary": first_sentence(f.bug.description),
        "case_summary": f.bug.case_summary,
        "outcome": a.outcome,
        "basis": a.basis,
        "measured_by": a.measured_by or None,
        "inferred_from": list(a.neighbours) if a.basis == INFERRED else None,
        "inferred_from_interpreters": list(a.elsewhere) if a.basis == INFERRED else None,
        "reason": a.reason,
        # A fix between two measured releases with untested ones between is a range, never a release.
        "first_fixed": (a.first_fixed or None) if not a.fixed_since else None,
        "fixed_between": [a.fixed_since, a.first_fixed] if a.fixed_since else None,
        "first_fixed_note": a.first_fixed_note or None,
        "links": list(f.bug.links),
        "check": check_command(target, f.bug),
        "run": None if f.run is None else {"verdict": f.run, "agreement": f.agreement, "line": f.run_line},
        "reproduces": f.reproduces,
        "ignored": f.ignored or None,
    }


def _answer_words(version: str, a: Answer) -> str:
    return f"{version}: {a.outcome} ({a.basis})"


def move_text(m: Move) -> str:
    """``audit --to``: what moving from the audited release to the target changes (harness/store/moves.py)."""
    out = [f"moving {m.framework} {m.current} -> {m.target}"]
    counts = {kind: len(m.of_kind(kind)) for kind in KINDS}
    out.append("  known bugs: " + ", ".join(f"{n} {kind}" for kind, n in counts.items()))
    for kind in (BROUGHT, FIRST_MEASURABLE, FIXED_BY_MOVE, STAYS, CANNOT_SAY):
        shown = m.of_kind(kind)
        if not shown:
            continue
        out += ["", f"  {kind.upper()}:"]
        for b in shown:
            out.append(f"    {b.bug.id}: {_answer_words(m.current, b.before)}; {_answer_words(m.target, b.after)}")
            if kind in (BROUGHT, FIRST_MEASURABLE):
                out.append(f"      {first_sentence(b.bug.description)}")
    out += ["", f"  upgrades (state {m.current} wrote, read by {m.target}):"]
    downgrade = versions.key(m.target) < versions.key(m.current)
    for p in m.pairs:
        refused = " (a downgrade: the older reader refuses what the newer release wrote)" if downgrade else ""
        outcome = f"{p.outcome}{refused if p.outcome == REPRODUCED else ''}"
        out.append(f"    {p.scenario}:{p.case}: {outcome} ({p.measured}){': ' + p.detail if p.detail else ''}")
    for scenario, case in m.missing:
        out.append(f"    {scenario}:{case}: not measured (the record's grid has no {m.current} -> {m.target} pair)")
    if not m.pairs and not m.missing:
        out.append(f"    none: no upgrade scenario of {m.framework} reads on {m.target}")
    if m.crossed:
        out += ["", "  on the way (pairs of the grid inside the move, measured breaking):"]
        out += [f"    {p.name}: {p.detail}" for p in m.crossed]
    if m.commands:
        out += ["", "  needs the reader's own command:"]
        out += [f"    {c}" for c in m.commands]
    out.append("")
    return "\n".join(out)


def move_json(m: Move) -> dict:
    """``audit --to`` for tools."""

    def pair(p: PairVerdict) -> dict:
        return {
            "scenario": p.scenario,
            "case": p.case,
            "from_version": p.writer,
            "version": p.reader,
            "outcome": p.outcome,
            "detail": p.detail,
            "measured": p.measured,
        }

    return {
        "framework": m.framework,
        "from_version": m.current,
        "version": m.target,
        "breaks": m.breaks,
        "bugs": [
            {
                "id": b.bug.id,
                "kind": b.kind,
                "before": {"outcome": b.before.outcome, "basis": b.before.basis},
                "after": {"outcome": b.after.outcome, "basis": b.after.basis},
            }
            for b in m.bugs
        ],
        "upgrades": [pair(p) for p in m.pairs],
        "not_measured": [{"scenario": s, "case": c} for s, c in m.missing],
        "on_the_way": [pair(p) for p in m.crossed],
        "needs_command": list(m.commands),
    }


def markdown(target: Target, audited: list[Audited], moved: Move | None = None) -> str:
    """The report as Markdown, for a CI job's summary ($GITHUB_STEP_SUMMARY): per release the count
    line, a table of the bugs that reproduce or are unexpected, the unknown ones folded, and the move."""
    out: list[str] = []
    for a in audited:
        out += [f"### {a.framework} {a.version} ({target.kind} `{target.label}`, CPython {target.interpreter})", ""]
        out.append(a.count_line(bold="**"))
        if a.status_words():
            out += ["", f"Note: {a.status_words()}."]
        if a.environment_differs:
            out += [
                "",
                "Your environment differs from the record's build: "
                + "; ".join(d.words() for d in a.environment_differs)
                + ". `--run` checks the answers here.",
            ]
        shown = [f for f in a.findings if f.reproduces or f.answer.outcome == UNEXPECTED]
        if shown:
            out += ["", "| answer | bug | how known | first fixed on its line | upstream |", "|---|---|---|---|---|"]
            for f in shown:
                answer = "reproduces" if f.reproduces else f.answer.outcome
                if f.ignored:
                    answer += f" (ignored: {f.ignored})"
                if f.answer.fixed_since:
                    fixed = f"between {f.answer.fixed_since} and {f.answer.first_fixed}, not bisected"
                else:
                    fixed = f.answer.first_fixed or "none measured"
                links = ", ".join(f"[#{u.rstrip('/').rsplit('/', 1)[-1]}]({u})" for u in f.bug.links)
                row = [answer, f"`{f.bug.id}`", _basis_words(f.answer), fixed, links]
                out.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
        unknown = [f for f in a.findings if f.answer.basis == UNKNOWN and f not in shown]
        if unknown:
            out += ["", f"<details><summary>{len(unknown)} unknown (not a clean bill)</summary>", ""]
            out += [f"- `{f.bug.id}`: {f.answer.reason}" for f in unknown]
            out += ["", "</details>"]
        out.append("")
    if moved is not None:
        out += [f"### Moving {moved.framework} {moved.current} -> {moved.target}", "", "```text"]
        out += move_text(moved).splitlines()[1:]
        out += ["```", ""]
    return "\n".join(out)
