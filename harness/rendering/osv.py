"""The record as an OSV feed (ossf/osv-schema): one record per bug, made on demand, never committed.

Each bug (a (scenario, case) that is not a control; a non-regression case is a bug of its own)
becomes one OSV record:

- ``id``: ``x_HARNESS-<scenario>-<case>``. The schema accepts an id only with a registered
  database prefix or ``x_``, the prefix for a database that OSV.dev does not aggregate.
- ``modified``: derived from the record, not the clock, so the same record gives the same bytes:
  the newest dependency date (the release's upload time plus one second, ``exclude_newer`` of
  the record's environments) among the releases the record ran the bug on. It moves when the
  record measures a newer release; re-running the same releases leaves it alone.
- ``affected``: the framework on PyPI, with one ECOSYSTEM range per stretch of releases, in
  version order, that the record does not know to be unaffected. OSV reads every version outside
  the ranges as not affected (issue 50: 92 of the audit's 99 "unknown" answers read so), so a range
  holds every release whose answer (``store.audit.Knowledge.answer``) is not ``fixed`` or
  ``not-applicable``: those that reproduce, those unknown (never run and in no bisected range, or
  an error) and those ``unexpected``. ``introduced`` is the stretch's first release, ``fixed`` the
  next release known unaffected, measured or inferred inside a bisected range, so no ``fixed``
  names a release the record does not know; a stretch that reaches the newest release known stays
  open. Each range's ``database_specific`` says which of its releases reproduce and which are
  unknown or unexpected, and whether its ``introduced`` was measured. The releases are those the
  record and the bisects know to exist (``Knowledge.releases``: final releases on the index when
  the bisects ran); pre-releases are not measured and read by their place in the version order.
  No ``limit`` events (the spec discourages them for numbered versions).
- ``database_specific``: every measured release and its outcome (and whether the matrix or a
  bisect probe ran it), the bisected ranges, the kind of bug, the script that checks it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from harness.planning import versions
from harness.rendering.audit_report import first_sentence
from harness.runtime.outcomes import FIXED, NOT_APPLICABLE, REPRODUCED, UNEXPECTED
from harness.store.audit import UNKNOWN, Answer, Knowledge

# The OSV schema version these records follow (tests/data/osv-schema.json, docs/schema.md's version).
OSV_SCHEMA_VERSION = "1.7.5"
ID_PREFIX = "x_HARNESS-"
ECOSYSTEM = "PyPI"


def osv_id(scenario: str, case: str) -> str:
    return f"{ID_PREFIX}{scenario}-{case}"


def releases(k: Knowledge) -> list[str]:
    """Every release of the bug's framework the record or its bisects know, oldest first."""
    return sorted(set(k.releases) | set(k.points), key=versions.key)


def known_unaffected(answer: Answer) -> bool:
    """Whether OSV may read the release as not affected: its answer is fixed or not-applicable."""
    return answer.outcome in (FIXED, NOT_APPLICABLE)


def ranges(k: Knowledge) -> list[dict]:
    """The affected ranges of one bug: one per stretch of releases not known unaffected."""
    answers = [(v, k.answer(v)) for v in releases(k)]
    out = []
    i = 0
    while i < len(answers):
        if known_unaffected(answers[i][1]):
            i += 1
            continue
        j = i
        while j + 1 < len(answers) and not known_unaffected(answers[j + 1][1]):
            j += 1
        stretch = answers[i : j + 1]
        events: list[dict] = [{"introduced": stretch[0][0]}]
        if j + 1 < len(answers):
            events.append({"fixed": answers[j + 1][0]})
        first = stretch[0][1]
        specific = {
            "reproduced": [v for v, a in stretch if a.outcome == REPRODUCED],
            "unknown": [v for v, a in stretch if a.basis == UNKNOWN],
            "unexpected": [v for v, a in stretch if a.outcome == UNEXPECTED],
            # The first release of the stretch reproduced where measured; unknown: the bug may start later.
            "introduced_is": f"{first.outcome} ({first.basis})",
        }
        if j + 1 < len(answers):
            after = answers[j + 1][1]
            specific["fixed_is"] = f"{after.outcome} ({after.basis})"
        out.append({"type": "ECOSYSTEM", "events": events, "database_specific": specific})
        i = j + 1
    return out


def _reference(url: str) -> dict:
    return {"type": "REPORT" if "/issues/" in url else "WEB", "url": url}


def _details(k: Knowledge) -> str:
    bug = k.bug
    measured = sum(1 for by in k.measured_by.values() if by == "matrix")
    probes = len(k.points) - measured
    parts = [bug.description, "", f"Expected: {bug.expected}", ""]
    if bug.kind == "non-regression":
        parts += [
            f"This is a non-regression case of that bug ({bug.case}): it reproduces when a fix goes too far "
            f"and drops behaviour that must stay: {bug.case_summary}.",
            "",
        ]
    else:
        parts += [f"Case {bug.case}: {bug.case_summary}.", ""]
    parts += [
        f"Measured by agent-bug-harness, replaying the bug through {bug.framework}'s public API with a fake "
        f"model: {measured} releases run by the matrix and {probes} more by bisect probes; the affected ranges "
        "are the measured boundaries. A release with no answer in the record (never run and in no bisected "
        "range) lies inside a range and is listed there as unknown: OSV reads every version outside the ranges "
        "as not affected, and the record does not know these.",
        "",
        f"Check an install: `python {bug.check}` with that environment's interpreter (exit 3: reproduced, "
        "0: fixed, 125: unexpected, not-applicable or error), or `python -m harness audit ENV --run` from a "
        "checkout of the harness.",
    ]
    return "\n".join(parts)


def record(k: Knowledge, modified: str, related: Iterable[str] = ()) -> dict:
    """The OSV record of one bug. ``modified``: see the module docstring."""
    bug = k.bug
    summary = first_sentence(bug.description)
    if bug.kind == "non-regression":
        summary = f"A fix that goes too far ({bug.case}): {summary}"
    document: dict = {
        "schema_version": OSV_SCHEMA_VERSION,
        "id": osv_id(bug.scenario, bug.case),
        "modified": modified,
        "summary": summary,
        "details": _details(k),
        "references": [_reference(u) for u in bug.links],
        "affected": [
            {
                "package": {"ecosystem": ECOSYSTEM, "name": bug.framework, "purl": f"pkg:pypi/{bug.framework}"},
                "ranges": ranges(k),
            }
        ],
        "database_specific": {
            "scenario": bug.scenario,
            "case": bug.case,
            "kind": bug.kind,
            "measured": k.measured_rows(),
            "bisected_ranges": [list(r) for r in sorted(set(k.ranges))],
            "unknown": [v for v in releases(k) if k.answer(v).basis == UNKNOWN],
            "check": f"python {bug.check}",
            "modified_is": "the newest dependency date (upload time + 1 s) of the releases the record ran it on",
        },
    }
    if not document["affected"][0]["ranges"]:
        # Every release known unaffected: no range (an empty list of versions says none is affected).
        del document["affected"][0]["ranges"]
        document["affected"][0]["versions"] = []
    related = sorted(related)
    if related:
        document["related"] = related
    return document


def records(known: dict[str, Knowledge]) -> list[dict]:
    """Every bug's OSV record, in the order of the bugs."""
    newest_by_framework: dict[str, str] = {}
    for k in known.values():
        for date in k.dates.values():
            newest_by_framework[k.bug.framework] = max(newest_by_framework.get(k.bug.framework, ""), date)
    out = []
    for k in known.values():
        # A bug the matrix never ran (bisect probes only): the framework's newest date in the record.
        modified = max(k.dates.values(), default="") or newest_by_framework.get(k.bug.framework, "")
        siblings = [
            osv_id(o.bug.scenario, o.bug.case)
            for o in known.values()
            if o.bug.scenario == k.bug.scenario and o.bug.case != k.bug.case and o.bug.kind != k.bug.kind
        ]
        out.append(record(k, modified or "1970-01-01T00:00:00Z", siblings))
    return out


def write(documents: list[dict], folder: Path) -> list[Path]:
    """One ``<id>.json`` per record in ``folder`` (created), sorted keys, so the same record gives the same bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for document in documents:
        path = folder / f"{document['id']}.json"
        path.write_text(json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
        written.append(path)
    return written
