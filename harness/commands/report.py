"""``python -m harness report``: every report re-rendered from the record."""

from __future__ import annotations

import argparse

HELP = "re-render reports/*.md from reports/matrix.json"


def setup(parser: argparse.ArgumentParser) -> None:
    """No flags."""


def run(args: argparse.Namespace) -> int:
    """Re-render every markdown report from the record (reports/matrix.json and reports/bisect.json)."""
    from harness.planning.builds import SpecError
    from harness.project import PROJECT
    from harness.rendering import reports
    from harness.runtime import registry
    from harness.store import record

    root = PROJECT.root
    # Under the record's lock, all or nothing: the record (written back in the current schema) and
    # every report rendered from it.
    with record.transaction(PROJECT.reports) as tx:
        if tx.existing is None:
            raise SpecError("reports/matrix.json does not exist yet; run `nox -s matrix` first")
        written = [
            tx.write_record(tx.existing),
            *tx.render(tx.existing, reports.renderer(registry.discover(), PROJECT)),
        ]
    for path in written:
        print(f"wrote {path.relative_to(root).as_posix()}")
    return 0
