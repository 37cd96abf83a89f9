"""``python -m harness pool``: the warm workers (memory per worker and in all), or stop them."""

from __future__ import annotations

import argparse
import sys

HELP = "the warm workers that `matrix --warm` keeps: their memory (status), or stop them (stop)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=["status", "stop"], default="status")


def run(args: argparse.Namespace) -> int:
    from harness.execution import pool

    try:
        pool.pool_dir()
    except pool.PoolUnsafe as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.action == "stop":
        print(f"stopped {pool.stop_all()} warm workers")
    else:
        print("\n".join(pool.describe()))
    return 0
