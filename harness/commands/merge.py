"""``python -m harness merge``: the record and reports from shard results."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "build reports from shard results (reports/shards/*.json)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shards", nargs="+", metavar="SHARD_JSON")


def run(args: argparse.Namespace) -> int:
    from harness.execution import shards

    return shards.merge([Path(p) for p in args.shards])
