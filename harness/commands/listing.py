"""``python -m harness list``: the scenarios and their cases."""

from __future__ import annotations

import argparse

HELP = "list scenarios and their cases, then the upgrade scenarios and their grids"


def setup(parser: argparse.ArgumentParser) -> None:
    """No flags."""


def run(args: argparse.Namespace) -> int:
    from harness.planning import upgrades
    from harness.runtime import registry

    for scenario in registry.discover().values():
        print(f"{scenario.id}  ({scenario.framework})")
        for case in scenario.cases:
            print(f"  {case.id}  {case.summary}")
    for upgrade in upgrades.discover().values():
        pairs, releases = upgrades.grid_pairs(upgrade.declaration), upgrade.declaration.releases
        print(f"{upgrade.id}  ({upgrade.framework}, upgrades: {len(pairs)} pairs of {len(releases)} releases)")
        for case_id in upgrade.case_ids():
            summary = upgrade.declaration.cases[upgrade.base_case(case_id)].summary
            print(f"  {case_id}  {summary} ({len(upgrades.plan(upgrade, case_id))} pairs)")
    return 0
