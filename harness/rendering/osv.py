"""The record as an OSV feed (ossf/osv-schema): one record per bug, made on demand, never committed.

Each bug (a (scenario, case) that is not a control; a non-regression case is a bug of its own)
becomes one OSV record:

- ``id``: ``x_HARNESS-<scenario>-<case>``. The schema accepts an id only with a registered
  database prefix or ``x_``, the prefix for a database that OSV.dev does not aggregate.
- ``modified``: derived from the record, not the clock, so the same record gives the same bytes:
  the newest dependency date (the release's upload time plus one second, ``exclude_newer`` of
  the record's environments) among the releases the record ran the bug on. It moves when the
  record measures a newer release; re-running the same releases leaves it alone.
- ``affected``: the framework on PyPI, with one ECOSYSTEM range per stretch of releases that
  reproduce on one release line (major version; lines overlap in time and are kept apart): the
  first such release ``introduced``, the next answered release that does not reproduce ``fixed``
  (``last_affected`` the last that does, when the next one behaves a third way), and, when the
  stretch reaches the newest release the record answered on a line that a newer line follows, a
  ``limit`` at the next line's first possible version, so no range spills into the next line. A
  stretch that reaches the newest answered release of the newest line stays open.
- ``database_specific``: every measured release and its outcome (and whether the matrix or a
  bisect probe ran it), the bisected ranges, the kind of bug, the script that checks it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from harness.planning import versions
from harness.rendering.audit_report import first_sentence
from harness.runtime.outcomes import FIXED, NOT_APPLICABLE, REPRODUCED
from harness.store.audit import Knowledge

# The OSV schema version these records follow (tests/data/osv-schema.json, docs/schema.md's version).
OSV_SCHEMA_VERSION = "1.7.5"
ID_PREFIX = "x_HARNESS-"
ECOSYSTEM = "PyPI"


def osv_id(scenario: str, case: str) -> str:
    return f"{ID_PREFIX}{scenario}-{case}"


def line_ranges(k: Knowledge) -> list[dict]:
    """The affected ranges of one bug, one per stretch of reproducing releases on one line."""
    majors = {int(v.partition(".")[0]) for v in (*k.releases, *k.points) if v.partition(".")[0].isdigit()}
    out = []
    for line in sorted({versions.line(v) for v in k.points}, key=lambda name: versions.key(name.partition(".")[0])):
        points = k.line_points(line)
        major = int(line.partition(".")[0]) if line.partition(".")[0].isdigit() else None
        i = 0
        while i < len(points):
            if points[i][1] != REPRODUCED:
                i += 1
                continue
            j = i
            while j + 1 < len(points) and points[j + 1][1] == REPRODUCED:
                j += 1
            events: list[dict] = [{"introduced": points[i][0]}]
            if j + 1 < len(points):
                after, outcome = points[j + 1]
                events.append(
                    {"fixed": after} if outcome in (FIXED, NOT_APPLICABLE) else {"last_affected": points[j][0]}
                )
            elif major is not None and any(m > major for m in majors):
                events.append({"limit": f"{major + 1}.0.0.dev0"})
            specific = {
                "release_line": line,
                "first_measured_reproduced": points[i][0],
                "last_measured_reproduced": points[j][0],
                # Releases of the line before the first one answered were never run: the true start may be earlier.
                "introduced_is_first_answered_of_line": i == 0,
            }
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
        "are the measured boundaries, per release line.",
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
                "ranges": line_ranges(k),
            }
        ],
        "database_specific": {
            "scenario": bug.scenario,
            "case": bug.case,
            "kind": bug.kind,
            "measured": k.measured_rows(),
            "bisected_ranges": [list(r) for r in sorted(set(k.ranges))],
            "check": f"python {bug.check}",
            "modified_is": "the newest dependency date (upload time + 1 s) of the releases the record ran it on",
        },
    }
    if not document["affected"][0]["ranges"]:
        # No release reproduces: no range (an empty list of versions says none is affected).
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
