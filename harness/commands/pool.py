"""``python -m harness pool``: the warm workers (memory per worker and in all), or stop them."""

from __future__ import annotations

import argparse
import sys

HELP = "the warm workers that `matrix --warm` keeps: their memory (status), or stop them (stop)"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=["status", "stop"], default="status")
    parser.add_argument(
        "--all", action="store_true", help="every checkout's workers, not only this checkout's (the default)"
    )


def run(args: argparse.Namespace) -> int:
    from harness.execution import pool
    from harness.project import PROJECT

    try:
        pool.pool_dir()
    except pool.PoolUnsafe as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    root = None if args.all else PROJECT.root
    if args.action == "stop":
        print(f"stopped {pool.stop_all(root)} warm workers" + ("" if args.all else " of this checkout"))
    else:
        print("\n".join(pool.describe(root)))
    return 0
