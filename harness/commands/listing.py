"""``python -m harness list``: the scenarios and their cases."""

from __future__ import annotations

import argparse

HELP = "list scenarios and their cases"


def setup(parser: argparse.ArgumentParser) -> None:
    """No flags."""


def run(args: argparse.Namespace) -> int:
    from harness.runtime import registry

    for scenario in registry.discover().values():
        print(f"{scenario.id}  ({scenario.framework})")
        for case in scenario.cases:
            print(f"  {case.id}  {case.summary}")
    return 0
