"""``python -m harness comment``: markdown to paste into a pull request, for one scenario."""

from __future__ import annotations

import argparse
import sys

HELP = "print a pull-request comment (markdown that stands alone, under 65,536 characters) for one scenario"


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO")
    parser.add_argument(
        "--run", metavar="DIR", help="a candidate run's folder (reports/runs/<name>/): a before/after table"
    )
    parser.add_argument(
        "--link-base",
        default=None,
        metavar="URL",
        help="prefix of every link, e.g. https://github.com/OWNER/REPO/blob/COMMIT/ (default: the repository URL "
        "of pyproject.toml's [project.urls] and the commit of the record; no links when none is known)",
    )


def run(args: argparse.Namespace) -> int:
    """Print a pull-request comment for one scenario (harness/rendering/comment.py)."""
    from harness.execution import checkout
    from harness.project import PROJECT
    from harness.rendering import comment
    from harness.rendering.metadata import ScenarioMetadata
    from harness.runtime import registry

    scenarios = registry.discover()
    if args.scenario not in scenarios:
        raise registry.UnknownId(f"unknown scenario {args.scenario!r}; valid: {', '.join(sorted(scenarios))}")
    document = comment.load(PROJECT.root, args.run)
    link_base = checkout.link_base_of(PROJECT.root) if args.link_base is None else args.link_base
    text = comment.render(ScenarioMetadata.of(scenarios[args.scenario]), document, args.run, link_base)
    sys.stdout.write(text)
    return 0
