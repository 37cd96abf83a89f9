"""A markdown summary of matrix results, for a CI job's summary page: ``python -m harness.rendering.summary FILE...``.

FILE is the record (``reports/matrix.json``) or the shard results a sharded run merged
(``reports/shards/*.json``); they share one shape. The summary gives the counts of each
outcome per framework and names every result that differs from its stored snapshot or has
none, with the diff, then the results that need a look (``unexpected``, ``error``), then every
boundary no executed framework line explains (reports/boundaries/, ``python -m harness explain``), then
where a thread's claim (a bug's bug.py) and the measurement disagree. It is
printed on stdout; `.github/workflows/matrix.yml` appends it to ``$GITHUB_STEP_SUMMARY``.

Exit status: 0 when every result matches its snapshot, 1 when any differs or has none, or when
a build could not be judged (every case of it an error; said first in the summary): the same
rule as ``nox -s matrix`` and ``python -m harness merge``; 2 for a file that is not a results
document (one line on stderr). The summary is cut at 60,000 characters, saying what was cut.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from harness.project import PROJECT, Project
from harness.rendering import boundary_evidence
from harness.runtime.outcomes import ERROR, OUTCOMES, UNEXPECTED
from harness.store import record
from harness.store.rows import Row, unjudged_lines
from harness.store.snapshots import CHANGED, MATCH, UPDATED, SnapshotStore

# A step summary holds at most 1 MiB; a run where every timeline changed must still fit.
MAX_DIFF_LINES = 60
MAX_DIFFS = 25
# A pull request's summary (this one, candidate's summary.md) is read by a person: past this
# many characters it is cut, saying how much was left out and where the rest is.
MAX_SUMMARY_CHARS = 60_000


def cap(text: str, where: str, limit: int = MAX_SUMMARY_CHARS) -> str:
    """``text`` cut at a line boundary to at most ``limit`` characters, with a last line saying
    what was cut and ``where`` the whole is; open code blocks and ``<details>`` are closed."""
    if len(text) <= limit:
        return text
    room = limit - 600  # the closing lines and the note
    kept = text[: text.rfind("\n", 0, room) + 1]
    closers = []
    if kept.count("```") % 2:
        closers.append("```")
    closers += ["</details>"] * max(0, kept.count("<details>") - kept.count("</details>"))
    cut_lines = text[len(kept) :].count("\n")
    note = (
        f"**This summary was cut at {limit:,} characters:** {len(text) - len(kept):,} characters "
        f"({cut_lines:,} lines) were left out; {where}."
    )
    return kept + "".join(c + "\n" for c in closers) + "\n" + note + "\n"


class NotResults(ValueError):
    """A file that is not a record or shard result."""


def load(paths: list[Path]) -> list[Row]:
    """Every result of the given documents, in their order."""
    results: list[Row] = []
    for path in paths:
        try:
            document = record.parse(path)
        except (OSError, ValueError) as exc:
            raise NotResults(f"{path}: not a results document ({exc})") from None
        if not isinstance(document, dict) or not isinstance(document.get("results"), list):
            raise NotResults(f"{path}: not a results document (no results list)")
        try:
            results += [Row.from_json(r) for r in document["results"]]
        except (KeyError, TypeError) as exc:
            raise NotResults(f"{path}: not a results document (a result without {exc})") from None
    return results


def differs(result: Row) -> bool:
    return result.snapshot not in (MATCH, UPDATED)


def _name(r: Row) -> str:
    return f"`{r.scenario}:{r.case}` on `{r.source}`"


def _diff(r: Row, store: SnapshotStore) -> str:
    """The diff between a changed result and its stored snapshot, recomputed from the store."""
    if r.snapshot != CHANGED or not r.timeline:
        return ""
    lines = store.check(r).diff.splitlines()
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"... {len(lines) - MAX_DIFF_LINES} more lines"]
    return "\n".join(lines)


def markdown(
    results: Iterable[Row],
    sources: list[str],
    store: SnapshotStore,
    boundaries: Project | None = None,
    claim_disagreements: list[str] | None = None,
) -> str:
    """The summary: counts per framework, what differs from its snapshot, what needs a look.

    ``boundaries``: the project whose reports/boundaries/ files (``python -m harness explain``)
    are read for the results' scenarios; every boundary no executed line explains is listed.
    ``claim_disagreements``: where a thread's claim and the measurement differ (``claim_lines``)."""
    results = list(results)
    out = [f"## Matrix: {len(results)} results from {', '.join(sources)}", ""]
    cannot_judge = unjudged_lines(results)
    if cannot_judge:
        out += ["### The run could not judge every build", "", *(f"- **{line}**" for line in cannot_judge), ""]
    out += ["| framework | builds | " + " | ".join(OUTCOMES) + " |", "|---|---:|" + "---:|" * len(OUTCOMES)]
    for framework in sorted({r.framework for r in results}):
        rows = [r for r in results if r.framework == framework]
        counts = [str(sum(r.outcome == o for r in rows)) for o in OUTCOMES]
        out.append(f"| {framework} | {len({r.source for r in rows})} | " + " | ".join(counts) + " |")
    out.append("")
    bad = [r for r in results if differs(r)]
    if not bad:
        out += ["Every result matches its stored snapshot.", ""]
    else:
        out += [
            f"### {len(bad)} {'result differs' if len(bad) == 1 else 'results differ'} from the stored "
            "snapshot or have none",
            "",
        ]
        for i, r in enumerate(bad):
            base = r.snapshot_base
            against = f"compared with the snapshot of {base}" if base else "no stored snapshot"
            out.append(f"- {_name(r)}: **{r.snapshot}** ({against}): {r.outcome}: {r.detail}")
            diff = _diff(r, store) if i < MAX_DIFFS else ""
            if diff:
                out += ["", "  ```diff", *("  " + line for line in diff.splitlines()), "  ```"]
        out += [
            "",
            "Accept a deliberate change with `nox -s matrix -- --update-snapshots` and say why in the "
            "commit (README, Snapshots).",
            "",
        ]
    problems = [r for r in results if r.outcome in (UNEXPECTED, ERROR)]
    if problems:
        out += [f"### Needs a look: {len(problems)} unexpected or error", ""]
        out += [f"- {_name(r)}: **{r.outcome}**: {r.detail}" for r in problems]
        out.append("")
    unexplained = boundary_evidence.unexplained(boundaries.reports, [r.scenario for r in results]) if boundaries else []
    if unexplained:
        out += [
            f"### {len(unexplained)} {'boundary' if len(unexplained) == 1 else 'boundaries'} no executed "
            "framework line explains",
            "",
            "Where no executed line changed, a dependency, the environment or the harness changed the outcome; "
            "where the traced runs failed, nothing was measured. For a person to look at, not a failure.",
            "",
        ]
        out += [f"- {line}" for line in unexplained]
        out.append("")
    if claim_disagreements:
        n = len(claim_disagreements)
        out += [
            f"### {n} {'place where a thread' if n == 1 else 'places where threads'} and the measurement disagree",
            "",
            "What the upstream thread claims (each bug's bug.py) beside what the record measured: "
            "a finding for a person, not a failure.",
            "",
        ]
        out += [f"- {line}" for line in claim_disagreements]
        out.append("")
    return cap("\n".join(out), "every result is in the record (reports/matrix.md, reports/matrix.json)")


def claim_lines(results: list[Row], project: Project) -> list[str]:
    """Every disagreement between a thread's claim and the measurement, for the scenarios of
    ``results`` (their record rows and the bisect record of ``project``'s reports/)."""
    from harness.rendering import claims
    from harness.rendering.metadata import ScenarioMetadata
    from harness.runtime import registry

    scenarios = registry.discover(project.scenarios)
    bisects = record.bisect_record(project.reports)
    out = []
    for scenario_id in sorted({r.scenario for r in results} & set(scenarios)):
        rows = [r for r in results if r.scenario == scenario_id]
        out += claims.scenario_disagreements(ScenarioMetadata.of(scenarios[scenario_id], project), rows, bisects)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.rendering.summary", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="reports/matrix.json or reports/shards/*.json")
    args = parser.parse_args(argv)
    try:
        results = load(args.files)
    except NotResults as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    store = SnapshotStore(PROJECT.snapshots)
    print(markdown(results, [p.name for p in args.files], store, PROJECT, claim_lines(results, PROJECT)))
    return 1 if any(differs(r) for r in results) or unjudged_lines(results) else 0


if __name__ == "__main__":
    sys.exit(main())
