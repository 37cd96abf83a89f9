"""``python -m harness new``: a new bug folder from the templates."""

from __future__ import annotations

import argparse

HELP = "write a new bug folder (scenarios/ID/repro.py and bug.py) from the templates"


def setup(parser: argparse.ArgumentParser) -> None:
    from harness.runtime import frameworks

    parser.add_argument("scenario_id", help="lower-case, hyphenated, framework prefix first (adk-..., agents-...)")
    parser.add_argument("--framework", required=True, choices=sorted(frameworks.FRAMEWORKS))


def run(args: argparse.Namespace) -> int:
    from harness.rendering import new_scenario

    folder = new_scenario.create(args.scenario_id, args.framework)
    print(
        f"wrote scenarios/{folder.name}/repro.py and bug.py; the script reports `error` until every TODO in "
        "both is done (see CONTRIBUTING.md)"
    )
    return 0
