"""Where a case's outcome changes between releases, derived from everything known.

What is known about a (scenario, case, framework): every probe of every bisect
(``reports/bisect.json``) and the record's results of releases (``reports/matrix.json``).
A *boundary* is a pair of releases, adjacent among those with an answer, whose outcomes
differ: "first fixed in 2.9.0" when 2.8.0 reproduced and 2.9.0 is fixed. Releases between
the two sides that were never asked, or gave no answer (``error``), make it a range, never a
release ("first fixed between 2.8.0 and 2.9.0, not bisected (untested: 2.8.1)"; issue 45: a
report said "first fixed: 0.6.9" where the truth was 0.3.1, between two releases run).

Pure functions over versions and outcome words: used by bisect (to search and to record),
by the matrix (boundary releases join the matrix) and by the reports.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import RecordError
from harness.planning import interpreters, versions
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED, UNEXPECTED
from harness.store.rows import Row

# 3 added ``commits``: the first commit of a boundary's newer outcome, found by ``bisect --commits``
# (harness/execution/commit_bisect.py, issue 48); a schema 2 record is read as one with none.
SCHEMA_VERSION = 3


@dataclass(frozen=True)
class Side:
    version: str
    outcome: str


@dataclass(frozen=True)
class Boundary:
    before: Side
    after: Side
    summary: str  # "first fixed in 2.9.0", "introduced in 2.4.0", "first measurable in 1.0.0 (reproduces)", ...
    skipped_between: tuple[str, ...] = ()  # releases between the two sides with no answer


def summary(before: str, after: str, version: str, earlier: Sequence[str], since: str = "") -> str:
    """Words for a boundary: ``earlier`` are this case's outcomes on releases before it. Only a
    measured fixed -> reproduced step is "introduced"; from not-applicable the release is only the
    first where the case could be measured (issue 45: google-adk 0.5.0 was not-applicable because
    the script awaited a then-synchronous create_session, and its wheel has the same buggy code).

    ``since``: the release before the step, when releases between the two were not answered: the
    step is then somewhere between them, and the words say so instead of naming ``version``."""
    at = f"between {since} and {version}" if since else f"in {version}"
    start = f"between {since} and {version}" if since else f"from {version}"
    if after == REPRODUCED:
        if REPRODUCED in earlier:
            return f"came back {at}"
        if before == FIXED:
            return f"introduced {at}"
        if before == NOT_APPLICABLE:
            return f"first measurable {at} (reproduces; not applicable before)"
        return f"reproduces {start} (was {before})"
    if after == FIXED:
        if before == REPRODUCED:
            return f"fixed again {at}" if FIXED in earlier else f"first fixed {at}"
        if before == NOT_APPLICABLE:
            return f"first applicable {at}, already fixed"
        return f"fixed {at} (was {before})"
    if after == NOT_APPLICABLE:
        return f"not applicable {start}"
    if after == UNEXPECTED:
        return f"unexpected {start}"
    return f"{after} {start}"


def untested_words(between: Sequence[str]) -> str:
    """The releases between a step's two sides that gave no answer, named ("" when none)."""
    if not between:
        return ""
    if len(between) <= 3:
        return f"untested: {', '.join(between)}"
    return f"{len(between)} untested releases {between[0]} .. {between[-1]}"


def range_note(between: Sequence[str]) -> str:
    """What follows a step that is a range: why it is one (" not bisected (...)"), or ""."""
    return f", not bisected ({untested_words(between)})" if between else ""


def derive(
    points: Mapping[str, str], releases: Iterable[str] = (), key: Callable[[str], Any] = versions.key
) -> list[Boundary]:
    """Every boundary among ``points`` (version -> outcome; ``error`` is no answer).

    ``releases``: every release known to exist, so the ones between two sides that were
    never asked are named. ``key``: their order (a version's by default; a commit bisect's is
    the commit's place in the first-parent history).
    """
    answered = sorted((v for v, o in points.items() if o != ERROR), key=key)
    every = sorted(set(releases) | set(points), key=key)
    found = []
    for a, b in itertools.pairwise(answered):
        if points[a] == points[b]:
            continue
        ka, kb = key(a), key(b)
        between = tuple(v for v in every if ka < key(v) < kb)
        earlier = [points[v] for v in answered if key(v) < kb]
        words = summary(points[a], points[b], b, earlier, since=a if between else "") + range_note(between)
        found.append(Boundary(Side(a, points[a]), Side(b, points[b]), words, between))
    return found


# --- the bisect record (reports/bisect.json) ------------------------------------------------


def empty_record() -> dict:
    return {"schema_version": SCHEMA_VERSION, "releases": {}, "bisects": [], "probes": [], "commits": []}


def _upgrade_v1(document: dict) -> dict:
    """Schema 1 kept one entry per (scenario, case, framework) with its boundaries' two sides
    and its skipped releases: those are the probes it still knows."""
    out = empty_record()
    for b in document.get("bisects", []):
        key = {"scenario": b["scenario"], "case": b["case"], "framework": b["framework"]}
        out["bisects"].append({**key, "from": b["from"], "to": b["to"]})
        for bound in b.get("boundaries", []):
            for side in (bound["before"], bound["after"]):
                out["probes"].append({**key, "version": side["version"], "outcome": side["outcome"], "detail": ""})
        for s in b.get("skipped", []):
            out["probes"].append({**key, "version": s["version"], "outcome": ERROR, "detail": s.get("reason", "")})
    return normalise(out)


def load_record(path: Path) -> dict:
    """The bisect record at ``path`` (empty when absent); schema 1 is read and upgraded."""
    if not path.exists():
        return empty_record()
    try:
        document = json.loads(path.read_text())
        if not isinstance(document, dict):
            raise ValueError("not a JSON object")
        if document.get("schema_version") == 1 and isinstance(document.get("bisects"), list):
            return _upgrade_v1(document)
        if document.get("schema_version") == 2:  # before commit bisects: none found yet
            document = {**document, "schema_version": SCHEMA_VERSION, "commits": []}
        if document.get("schema_version") != SCHEMA_VERSION or not isinstance(document.get("probes"), list):
            raise ValueError(f"schema_version {document.get('schema_version')!r}, expected {SCHEMA_VERSION}")
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RecordError(f"reports/{path.name} cannot be read ({exc}); restore it with git or move it away") from None
    _validate_probes(document, f"reports/{path.name}")
    return normalise({**empty_record(), **document})


PROBE_KEYS = ("scenario", "case", "framework", "version", "outcome")
RANGE_KEYS = ("scenario", "case", "framework", "from", "to")
# A commit found between a boundary's two releases (``commits``): its key, then what names it.
COMMIT_KEYS = ("scenario", "case", "framework", "before", "after", "commit", "short", "subject", "date")


def _probe_problem(p: object) -> str | None:
    """What is wrong with one probe, and what is valid; None when nothing is."""
    if not isinstance(p, dict):
        return "is not an object; valid: an object with " + ", ".join(PROBE_KEYS)
    missing = [k for k in PROBE_KEYS if k not in p]
    if missing:
        return f"has no {missing[0]!r}; every probe holds " + ", ".join(PROBE_KEYS)
    if p["outcome"] not in (REPRODUCED, FIXED, UNEXPECTED, NOT_APPLICABLE, ERROR):
        return f"has outcome {p['outcome']!r}; valid: reproduced, fixed, unexpected, not-applicable, error"
    if not isinstance(p["version"], str) or versions.key(p["version"])[0] != 1:
        return f"has version {p['version']!r}; valid: a PEP 440 release version"
    return None


def _validate_probes(document: dict, where: str) -> None:
    """A one-line ``RecordError`` naming the first bad probe or range (index, scenario:case@release)."""
    for i, p in enumerate(document["probes"]):
        problem = _probe_problem(p)
        if problem is not None:
            name = f"probe {i}"
            if isinstance(p, dict):
                name += (
                    f" ({p.get('scenario', '?')}:{p.get('case', '?')}@{p.get('framework', '?')}=={p.get('version')})"
                )
            raise RecordError(f"{where}: {name} {problem}; fix it or restore the file with git")
    ranges = document.get("bisects", [])
    for i, b in enumerate(ranges if isinstance(ranges, list) else [None]):
        if not isinstance(b, dict) or any(not isinstance(b.get(k), str) for k in RANGE_KEYS):
            raise RecordError(
                f"{where}: bisect {i} is not an object with {', '.join(RANGE_KEYS)}; "
                "fix it or restore the file with git"
            )
    found = document.get("commits", [])
    for i, c in enumerate(found if isinstance(found, list) else [None]):
        if not isinstance(c, dict) or any(not isinstance(c.get(k), str) for k in COMMIT_KEYS):
            raise RecordError(
                f"{where}: commit {i} is not an object with {', '.join(COMMIT_KEYS)} (strings); "
                "fix it or restore the file with git"
            )
    releases = document.get("releases", {})
    if not isinstance(releases, dict) or not all(isinstance(v, list) for v in releases.values()):
        raise RecordError(
            f"{where}: its releases are not framework -> list of versions; fix it or restore the file with git"
        )


def _python(entry: Mapping) -> str:
    """The interpreter a probe or range was measured on: one without a ``python`` field, the default
    (everything measured before the interpreter axis, issue 46, and every default-interpreter bisect)."""
    return entry.get("python") or interpreters.DEFAULT


def _probe_key(p: dict) -> tuple:
    return (p["scenario"], p["case"], p["framework"], versions.key(p["version"]), p["version"], _python(p))


def _commit_key(c: dict) -> tuple:
    return (c["scenario"], c["case"], c["framework"], versions.key(c["before"]), versions.key(c["after"]))


def normalise(record: dict) -> dict:
    """One probe per (scenario, case, framework, version, interpreter), one commit per (scenario, case,
    framework, boundary), the last one given winning; sorted."""
    probes: dict[tuple, dict] = {}
    for p in record["probes"]:
        probes[_probe_key(p)] = p
    ranges = {(b["scenario"], b["case"], b["framework"], b["from"], b["to"], _python(b)): b for b in record["bisects"]}
    commits = {_commit_key(c): c for c in record.get("commits", [])}
    return {
        "schema_version": SCHEMA_VERSION,
        "releases": {fw: sorted(set(vs), key=versions.key) for fw, vs in sorted(record["releases"].items())},
        "bisects": [
            ranges[k] for k in sorted(ranges, key=lambda k: (*k[:3], versions.key(k[3]), versions.key(k[4]), k[5]))
        ],
        "probes": [probes[k] for k in sorted(probes)],
        "commits": [commits[k] for k in sorted(commits)],
    }


def add(record: dict, probes: list[dict], bisect_range: dict, releases: Sequence[str], framework: str) -> dict:
    """The record with one more bisect: its range, its probes, the releases it knew of."""
    merged = {
        "releases": {**record["releases"], framework: [*record["releases"].get(framework, []), *releases]},
        "bisects": [*record["bisects"], bisect_range],
        "probes": [*record["probes"], *probes],
        "commits": record.get("commits", []),
    }
    return normalise(merged)


def add_commit(record: dict, entry: dict) -> dict:
    """The record with the first commit of one boundary's newer outcome (``COMMIT_KEYS`` and what
    the commit bisect measured), replacing an earlier one of the same boundary."""
    return normalise({**record, "commits": [*record.get("commits", []), entry]})


def commit_of(record: dict, scenario: str, case: str, framework: str, before: str, after: str) -> dict | None:
    """The commit recorded for the boundary ``before`` -> ``after`` of this case, if one was found."""
    return next(
        (
            c
            for c in record.get("commits", [])
            if (c["scenario"], c["case"], c["framework"], c["before"], c["after"])
            == (scenario, case, framework, before, after)
        ),
        None,
    )


def commits_of(record: dict, scenario: str, case: str, framework: str) -> list[dict]:
    """Every commit recorded for this case's boundaries, in the record's order."""
    return [
        c
        for c in record.get("commits", [])
        if (c["scenario"], c["case"], c["framework"]) == (scenario, case, framework)
    ]


def dumps(record: dict) -> str:
    return json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --- what is known about one case ------------------------------------------------------------


@dataclass
class Known:
    """Everything known about one (scenario, case, framework)."""

    points: dict[str, str]  # version -> outcome, probes and record together (the record wins)
    probes: int  # how many of them come from bisect probes
    ranges: list[tuple[str, str]]  # the ranges bisected
    releases: list[str]  # every release known to exist
    stale: int = 0  # probes and results answered by an older version of the scenario's code, ignored

    @property
    def boundaries(self) -> list[Boundary]:
        return derive(self.points, self.releases)

    @property
    def no_answer(self) -> list[str]:
        return sorted((v for v, o in self.points.items() if o == ERROR), key=versions.key)


def is_current(entry: Mapping, inputs: str | None) -> bool:
    """Whether a probe or a record result was answered by the scenario's current code.

    ``inputs``: the scenario's current digest (harness/store/result_cache.py ``scenario_inputs``),
    None when unknown (everything counts). An entry with no digest was recorded before probes and
    results carried one: it counts (the committed record was stamped with the code it was made
    with; ``bisect --rerun`` or a matrix run replaces it).
    """
    return _current(entry.get("inputs"), inputs)


def _current(answered: str | None, inputs: str | None) -> bool:
    """``is_current`` of an entry whose digest is ``answered``."""
    return inputs is None or not answered or answered == inputs


def known(
    record: dict,
    results: Iterable[Row],
    scenario: str,
    case: str,
    framework: str,
    inputs: str | None = None,
    python: str = interpreters.DEFAULT,
) -> Known:
    """Probes of every bisect of this case, then the record's results of releases over them, on one
    interpreter (``python``; a probe without one was measured on the default).

    ``inputs``: the scenario's current digest; a probe or result answered by other code is ignored.
    """
    points: dict[str, str] = {}
    probes = stale = 0
    for p in record["probes"]:
        if (p["scenario"], p["case"], p["framework"]) == (scenario, case, framework) and _python(p) == python:
            if not is_current(p, inputs):
                stale += 1
                continue
            points[p["version"]] = p["outcome"]
            probes += 1
    for r in results:
        if (
            (r.scenario, r.case, r.framework) == (scenario, case, framework)
            and r.release
            and r.version is not None
            and r.outcome != ERROR
            and r.python == python
        ):
            if not _current(r.inputs, inputs):
                stale += 1
                continue
            points[r.version] = r.outcome
    ranges = [
        (b["from"], b["to"])
        for b in record["bisects"]
        if (b["scenario"], b["case"], b["framework"]) == (scenario, case, framework) and _python(b) == python
    ]
    points = dict(sorted(points.items(), key=lambda kv: versions.key(kv[0])))
    return Known(points, probes, ranges, list(record["releases"].get(framework, [])), stale)


def current_answers(results: Iterable[Row], scenario: str, framework: str, inputs: str | None) -> set[tuple[str, str]]:
    """(case, version) of every release result of ``scenario`` the current code answered: where the
    record wins over a probe (``known``), so a pending probe there needs no asking again."""
    return {
        (r.case, r.version)
        for r in results
        if r.scenario == scenario
        and r.framework == framework
        and r.release
        and r.version is not None
        and _current(r.inputs, inputs)
        and r.python == interpreters.DEFAULT
    }


def boundary_releases(
    record: dict, results: Iterable[Row], scenario: str, framework: str, inputs: str | None = None
) -> set[str]:
    """The releases on either side of any boundary of any case of ``scenario``: they join its matrix."""
    results = list(results)
    cases = {p["case"] for p in record["probes"] if p["scenario"] == scenario and p["framework"] == framework}
    found: set[str] = set()
    for case in cases:
        for b in known(record, results, scenario, case, framework, inputs).boundaries:
            found |= {b.before.version, b.after.version}
    return found
