"""``python -m harness new``: a new scenario module from the template."""

from __future__ import annotations

import argparse

HELP = "write a new scenario module from the template"


def setup(parser: argparse.ArgumentParser) -> None:
    from harness.runtime import frameworks

    parser.add_argument("scenario_id", help="lower-case, hyphenated, framework prefix first (adk-..., agents-...)")
    parser.add_argument("--framework", required=True, choices=sorted(frameworks.FRAMEWORKS))


def run(args: argparse.Namespace) -> int:
    from harness.rendering import new_scenario

    path = new_scenario.create(args.scenario_id, args.framework)
    print(f"wrote scenarios/{path.name}; it reports `error` until every TODO in it is done (see CONTRIBUTING.md)")
    return 0
