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
    from harness.runtime import registry
    from harness.store import record

    root = PROJECT.root
    if record.load(PROJECT.reports) is None:
        raise SpecError("reports/matrix.json does not exist yet; run `nox -s matrix` first")
    for written in record.render(root, registry.discover()):
        print(f"wrote {written.relative_to(root).as_posix()}")
    return 0
