"""``python -m harness osv``: the record as OSV records, one per bug (harness/rendering/osv.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "write the record as an OSV feed, one JSON record per bug (made on demand, never committed)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", metavar="DIR", default=None, help="where to write the records (default: reports/runs/osv/)"
    )


def run(args: argparse.Namespace) -> int:
    from harness.errors import UsageError
    from harness.project import PROJECT
    from harness.rendering import osv
    from harness.runtime import registry
    from harness.store import audit

    folder = Path(args.out) if args.out else PROJECT.reports / "runs" / "osv"
    known = audit.knowledge(PROJECT.root, registry.discover().values())
    try:
        written = osv.write(osv.records(known), folder)
    except OSError as exc:
        raise UsageError(f"cannot write the OSV records to {folder}: {exc.strerror or exc}") from None
    print(f"wrote {len(written)} OSV records to {folder}")
    return 0
