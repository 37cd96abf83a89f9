"""``python -m harness merge``: the record and reports from the shards of a matrix run (``--shard K/N``)."""

from __future__ import annotations

import json
from pathlib import Path

from harness.execution import matrix, publication
from harness.planning import builds as builds_mod
from harness.project import PROJECT, Project
from harness.runtime import registry
from harness.store import record, staging
from harness.store.rows import unjudged_lines
from harness.store.snapshots import MATCH, UPDATED, SnapshotStore


def merge(paths: list[Path], project: Project = PROJECT) -> int:
    """Build reports from shard results: byte-identical to a single run over the same builds."""

    scenarios = registry.discover()
    documents = []
    for path in paths:
        try:
            document = record.parse(path)
        except (OSError, ValueError) as exc:
            raise builds_mod.SpecError(f"{path.name}: not a shard result ({exc})") from None
        # A shard holds every timeline (``record.dumps`` without ``stored``): nothing to read from the store.
        documents.append(
            record.Record.from_json(record.migrate(record.validate(document, path.name, releases_only=False)))
        )
    infos = {json.dumps(d.harness.to_json(), sort_keys=True) for d in documents}
    if len(infos) > 1:
        raise builds_mod.SpecError(
            "the shards were run by different harness code or Pythons; re-run them from one commit"
        )
    results = [r for d in documents for r in d.results]
    envs = record.sorted_environments(e for d in documents for e in d.environments)
    order = {(s.id, c.id): i for i, (s, c) in enumerate(registry.select(scenarios, []))}
    results.sort(key=record.sort_key(order))
    staging.check_writable(project.reports)
    record.load(project.reports)  # an unreadable record is refused before any work
    publication.publish(
        publication.Publication(
            project,
            scenarios,
            results,
            envs,
            documents[0].harness if documents else record.Record().harness,
            SnapshotStore(project.snapshots),
            None,
        )
    )
    bad = [r for r in results if r.snapshot not in (MATCH, UPDATED)]
    matrix.log(f"merged {len(paths)} shards: {len(results)} results, {len(bad)} differ from their snapshots")
    for line in unjudged_lines(results):
        matrix.log(line)
    return 1 if bad or unjudged_lines(results) else 0
