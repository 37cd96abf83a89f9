"""``BisectRecord``: reports/bisect.json as typed data (issue 47, "the record as data that has one
owner", as harness/store/document.py's ``Record`` is for reports/matrix.json): every probe of every
release bisect (``Probe``), the ranges bisected (``Range``), the releases each framework was known to
have, and the first commits of boundaries' newer outcomes ``bisect --commits`` found (``FoundCommit``).

Its callers never see the JSON: ``load`` is its one reader (validated, schema 1 and 2 upgraded, each
bad entry refused in one line), ``dumps`` gives its file's text, and harness/store/record.py
(``Reports.bisects``, ``Transaction.write_bisects``) is its owner under the record's lock. A read and a
write give the committed file back byte for byte: an optional field is written only when it is set
(``python`` only off the default interpreter, issue 46), and keys this code does not know are kept
(``others``). The boundaries derived from it are harness/store/boundaries.py's.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.errors import RecordError
from harness.planning import interpreters, versions
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED, UNEXPECTED

# 3 added ``commits``: the first commit of a boundary's newer outcome, found by ``bisect --commits``
# (harness/execution/commit_bisect.py, issue 48); a schema 2 record is read as one with none.
SCHEMA_VERSION = 3

PROBE_KEYS = ("scenario", "case", "framework", "version", "outcome")
RANGE_KEYS = ("scenario", "case", "framework", "from", "to")
# A commit found between a boundary's two releases (``commits``): its key, then what names it.
COMMIT_KEYS = ("scenario", "case", "framework", "before", "after", "commit", "short", "subject", "date")

# Keys of an entry this code does not know, in the file's order: written back as they were read.
Others = tuple[tuple[str, Any], ...]


def _others(document: Mapping[str, Any], known: Iterable[str]) -> Others:
    known = set(known)
    return tuple((k, v) for k, v in document.items() if k not in known)


def _set(**fields: Any) -> dict[str, Any]:
    """The optional fields that are set (None: absent from the entry, and not written)."""
    return {k: v for k, v in fields.items() if v is not None}


def _on(python: str) -> str | None:
    """The ``python`` field of an entry measured on ``python``: none on the default interpreter, so
    what was measured before the interpreter axis (issue 46) keeps its bytes."""
    return None if python == interpreters.DEFAULT else python


# --- the entries ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Probe:
    """One release's answer to one case, measured by a bisect (or asked again as pending)."""

    scenario: str
    case: str
    framework: str
    version: str
    outcome: str
    detail: str | None = None
    inputs: str | None = None  # the digest of the scenario code that answered (result_cache.scenario_inputs)
    python: str | None = None  # the interpreter, when not the default (``interpreter``)
    others: Others = field(default=(), compare=False, repr=False)

    @classmethod
    def of(
        cls,
        scenario: str,
        case: str,
        framework: str,
        version: str,
        outcome: str,
        detail: str,
        inputs: str | None,
        python: str = interpreters.DEFAULT,
    ) -> Probe:
        """A probe measured now: ``inputs`` unknown ("" or None) and the default ``python`` are not written."""
        return cls(scenario, case, framework, version, outcome, detail, inputs or None, _on(python))

    @property
    def interpreter(self) -> str:
        """The interpreter it was measured on: without a ``python`` field, the default (everything
        measured before the interpreter axis, issue 46, and every default-interpreter bisect)."""
        return self.python or interpreters.DEFAULT

    @classmethod
    def from_json(cls, p: Mapping[str, Any]) -> Probe:
        return cls(
            p["scenario"],
            p["case"],
            p["framework"],
            p["version"],
            p["outcome"],
            p.get("detail"),
            p.get("inputs"),
            p.get("python"),
            _others(p, (*PROBE_KEYS, "detail", "inputs", "python")),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "case": self.case,
            "framework": self.framework,
            "version": self.version,
            "outcome": self.outcome,
            **_set(detail=self.detail, inputs=self.inputs, python=self.python),
            **dict(self.others),
        }

    def key(self) -> tuple:
        """One probe per (scenario, case, framework, version, interpreter), in version order."""
        return (self.scenario, self.case, self.framework, versions.key(self.version), self.version, self.interpreter)


@dataclass(frozen=True)
class Range:
    """The releases one bisect searched for one case (``from`` .. ``to`` in the file)."""

    scenario: str
    case: str
    framework: str
    start: str
    end: str
    python: str | None = None  # the interpreter, when not the default (``interpreter``)
    others: Others = field(default=(), compare=False, repr=False)

    @classmethod
    def of(cls, scenario: str, case: str, framework: str, start: str, end: str, python: str) -> Range:
        """A range bisected now (the default ``python`` is not written)."""
        return cls(scenario, case, framework, start, end, _on(python))

    @property
    def interpreter(self) -> str:
        return self.python or interpreters.DEFAULT

    @classmethod
    def from_json(cls, b: Mapping[str, Any]) -> Range:
        known = (*RANGE_KEYS, "python")
        return cls(b["scenario"], b["case"], b["framework"], b["from"], b["to"], b.get("python"), _others(b, known))

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "case": self.case,
            "framework": self.framework,
            "from": self.start,
            "to": self.end,
            **_set(python=self.python),
            **dict(self.others),
        }


@dataclass(frozen=True)
class ChangedFile:
    """One file a found commit changed against its first parent (``git diff --numstat``)."""

    path: str
    added: int
    removed: int
    others: Others = field(default=(), compare=False, repr=False)

    @classmethod
    def from_json(cls, f: Mapping[str, Any]) -> ChangedFile:
        return cls(f["path"], f["added"], f["removed"], _others(f, ("path", "added", "removed")))

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "added": self.added, "removed": self.removed, **dict(self.others)}


@dataclass(frozen=True)
class CommitAnswer:
    """One commit a commit bisect built: its outcome (``probes``), or why it gave none (``skipped``,
    where ``said`` is the reason)."""

    commit: str  # its short hash
    said: str
    others: Others = field(default=(), compare=False, repr=False)

    @classmethod
    def from_json(cls, a: Mapping[str, Any], word: str) -> CommitAnswer:
        return cls(a["commit"], a[word], _others(a, ("commit", word)))

    def to_json(self, word: str) -> dict[str, Any]:
        return {"commit": self.commit, word: self.said, **dict(self.others)}


# FoundCommit's optional fields, each written only when set.
_COMMIT_OPTIONAL = (
    "before_outcome",
    "after_outcome",
    "tags",
    "commits_between",
    "builds",
    "untested",
    "skipped",
    "probes",
    "files",
    "excerpt",
    "excerpt_of",
    "inputs",
)


@dataclass(frozen=True)
class FoundCommit:
    """The first commit of a release boundary's newer outcome (``COMMIT_KEYS``), and what the commit
    bisect measured (harness/execution/commit_bisect.py ``entry_of``)."""

    scenario: str
    case: str
    framework: str
    before: str  # the boundary's older release
    after: str  # its newer release
    commit: str
    short: str
    subject: str
    date: str
    # The PR its subject names, or None: always written (null for none), as every entry
    # ``bisect --commits`` wrote holds it.
    pr: str | None = None
    before_outcome: str | None = None
    after_outcome: str | None = None
    tags: tuple[str, ...] | None = None  # the two releases' tags
    commits_between: int | None = None
    builds: int | None = None
    # Commits between the last one of the older outcome and this one that gave no answer.
    untested: tuple[str, ...] | None = None
    skipped: tuple[CommitAnswer, ...] | None = None  # commits that gave no answer, with the reason
    probes: tuple[CommitAnswer, ...] | None = None  # every commit built, with its outcome
    files: tuple[ChangedFile, ...] | None = None  # None: recorded before entries held them
    excerpt: tuple[str, ...] | None = None  # its diff's lines, in the files ``excerpt_of`` says
    excerpt_of: str | None = None  # "ran" (the files the case ran) or "source"
    inputs: str | None = None
    others: Others = field(default=(), compare=False, repr=False)

    @classmethod
    def from_json(cls, c: Mapping[str, Any]) -> FoundCommit:
        def listed(key: str) -> tuple | None:
            return None if c.get(key) is None else tuple(c[key])

        answers = {
            word: None if c.get(key) is None else tuple(CommitAnswer.from_json(a, word) for a in c[key])
            for key, word in (("skipped", "reason"), ("probes", "outcome"))
        }
        return cls(
            scenario=c["scenario"],
            case=c["case"],
            framework=c["framework"],
            before=c["before"],
            after=c["after"],
            commit=c["commit"],
            short=c["short"],
            subject=c["subject"],
            date=c["date"],
            pr=c.get("pr"),
            before_outcome=c.get("before_outcome"),
            after_outcome=c.get("after_outcome"),
            tags=listed("tags"),
            commits_between=c.get("commits_between"),
            builds=c.get("builds"),
            untested=listed("untested"),
            skipped=answers["reason"],
            probes=answers["outcome"],
            files=None if c.get("files") is None else tuple(ChangedFile.from_json(f) for f in c["files"]),
            excerpt=listed("excerpt"),
            excerpt_of=c.get("excerpt_of"),
            inputs=c.get("inputs"),
            others=_others(c, (*COMMIT_KEYS, "pr", *_COMMIT_OPTIONAL)),
        )

    def to_json(self) -> dict[str, Any]:
        def listed(items: tuple | None) -> list | None:
            return None if items is None else list(items)

        def answers(items: tuple[CommitAnswer, ...] | None, word: str) -> list | None:
            return None if items is None else [a.to_json(word) for a in items]

        return {
            **{k: getattr(self, k) for k in COMMIT_KEYS},
            "pr": self.pr,
            **_set(
                before_outcome=self.before_outcome,
                after_outcome=self.after_outcome,
                tags=listed(self.tags),
                commits_between=self.commits_between,
                builds=self.builds,
                untested=listed(self.untested),
                skipped=answers(self.skipped, "reason"),
                probes=answers(self.probes, "outcome"),
                files=None if self.files is None else [f.to_json() for f in self.files],
                excerpt=listed(self.excerpt),
                excerpt_of=self.excerpt_of,
                inputs=self.inputs,
            ),
            **dict(self.others),
        }

    def replace(self, **changes: Any) -> FoundCommit:
        """A copy with ``changes`` (``files=``, ``excerpt=``...)."""
        return dataclasses.replace(self, **changes)

    def key(self) -> tuple:
        """One commit per (scenario, case, framework, boundary)."""
        return (self.scenario, self.case, self.framework, versions.key(self.before), versions.key(self.after))


# --- the record ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BisectRecord:
    """The bisect record: ``releases`` (framework -> every release known to exist, oldest first),
    ``ranges``, ``probes`` and ``commits``, each in the file's order once ``normalised``."""

    releases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    ranges: tuple[Range, ...] = ()
    probes: tuple[Probe, ...] = ()
    commits: tuple[FoundCommit, ...] = ()
    # Top-level keys this code does not know, kept so a read and a write give the file back byte for byte.
    others: Others = field(default=(), compare=False, repr=False)

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> BisectRecord:
        """From a document of the current schema whose entries ``load`` validated (not normalised)."""
        return cls(
            {fw: tuple(vs) for fw, vs in document.get("releases", {}).items()},
            tuple(Range.from_json(b) for b in document.get("bisects", [])),
            tuple(Probe.from_json(p) for p in document.get("probes", [])),
            tuple(FoundCommit.from_json(c) for c in document.get("commits", [])),
            _others(document, ("schema_version", "releases", "bisects", "probes", "commits")),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "releases": {fw: list(vs) for fw, vs in self.releases.items()},
            "bisects": [b.to_json() for b in self.ranges],
            "probes": [p.to_json() for p in self.probes],
            "commits": [c.to_json() for c in self.commits],
            **dict(self.others),
        }

    def normalised(self) -> BisectRecord:
        """One probe per (scenario, case, framework, version, interpreter), one range per (scenario, case,
        framework, from, to, interpreter), one commit per (scenario, case, framework, boundary), the last
        one given winning; sorted. Each framework's releases once, oldest first."""
        probes = {p.key(): p for p in self.probes}
        ranges = {(b.scenario, b.case, b.framework, b.start, b.end, b.interpreter): b for b in self.ranges}
        commits = {c.key(): c for c in self.commits}
        order = lambda k: (*k[:3], versions.key(k[3]), versions.key(k[4]), k[5])  # noqa: E731
        return BisectRecord(
            {fw: tuple(sorted(set(vs), key=versions.key)) for fw, vs in sorted(self.releases.items())},
            tuple(ranges[k] for k in sorted(ranges, key=order)),
            tuple(probes[k] for k in sorted(probes)),
            tuple(commits[k] for k in sorted(commits)),
            self.others,
        )

    def with_bisect(
        self, probes: Sequence[Probe], bisect_range: Range, releases: Sequence[str], framework: str
    ) -> BisectRecord:
        """The record with one more bisect: its range, its probes, the releases it knew of."""
        return dataclasses.replace(
            self,
            releases={**self.releases, framework: (*self.releases.get(framework, ()), *releases)},
            ranges=(*self.ranges, bisect_range),
            probes=(*self.probes, *probes),
        ).normalised()

    def with_probes(self, fresh: Sequence[Probe]) -> BisectRecord:
        """The record with ``fresh`` in place of the probes of the same releases, cases and interpreters
        (the pending probes asked again, harness/execution/pending.py)."""
        return dataclasses.replace(self, probes=(*self.probes, *fresh)).normalised()

    def with_commit(self, entry: FoundCommit) -> BisectRecord:
        """The record with the first commit of one boundary's newer outcome, replacing an earlier one of
        the same boundary."""
        return dataclasses.replace(self, commits=(*self.commits, entry)).normalised()

    def commit_of(self, scenario: str, case: str, framework: str, before: str, after: str) -> FoundCommit | None:
        """The commit recorded for the boundary ``before`` -> ``after`` of this case, if one was found."""
        key = (scenario, case, framework, before, after)
        return next((c for c in self.commits if (c.scenario, c.case, c.framework, c.before, c.after) == key), None)

    def commits_of(self, scenario: str, case: str, framework: str) -> list[FoundCommit]:
        """Every commit recorded for this case's boundaries, in the record's order."""
        return [c for c in self.commits if (c.scenario, c.case, c.framework) == (scenario, case, framework)]

    def releases_of(self, framework: str) -> tuple[str, ...]:
        """Every release of ``framework`` the bisects knew to exist, oldest first."""
        return self.releases.get(framework, ())


def dumps(record: BisectRecord) -> str:
    """The file's text of ``record``."""
    return json.dumps(record.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --- reading: the one reader ---------------------------------------------------------------------


def _upgrade_v1(document: dict) -> BisectRecord:
    """Schema 1 kept one entry per (scenario, case, framework) with its boundaries' two sides
    and its skipped releases: those are the probes it still knows."""
    ranges, probes = [], []
    for b in document.get("bisects", []):
        key = (b["scenario"], b["case"], b["framework"])
        ranges.append(Range(*key, b["from"], b["to"]))
        for bound in b.get("boundaries", []):
            for side in (bound["before"], bound["after"]):
                probes.append(Probe(*key, side["version"], side["outcome"], ""))
        for s in b.get("skipped", []):
            probes.append(Probe(*key, s["version"], ERROR, s.get("reason", "")))
    return BisectRecord(ranges=tuple(ranges), probes=tuple(probes)).normalised()


def load(path: Path) -> BisectRecord:
    """The bisect record at ``path`` (empty when absent); schemas 1 and 2 are read and upgraded. A
    damaged file or entry: a one-line ``RecordError`` naming it and what is valid."""
    if not path.exists():
        return BisectRecord()
    where = f"reports/{path.name}"
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
        raise RecordError(f"{where} cannot be read ({exc}); restore it with git or move it away") from None
    _validate(document, where)
    try:
        return BisectRecord.from_json(document).normalised()
    except (KeyError, TypeError, AttributeError, ValueError) as exc:  # an optional field of the wrong shape
        raise RecordError(
            f"{where}: an entry's optional field cannot be read ({type(exc).__name__}: {exc}); "
            "fix it or restore the file with git"
        ) from None


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


def _validate(document: dict, where: str) -> None:
    """A one-line ``RecordError`` naming the first bad probe, range or commit (index, scenario:case@release)."""
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
