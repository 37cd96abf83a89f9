"""``python -m harness releases``: a framework's final releases on the index, or the one current on a date."""

from __future__ import annotations

import argparse

HELP = "a framework's final releases on the index, or the one current on a date"
AT = (
    "YYYY-MM-DD (end of that day, UTC) or an RFC 3339 time: print only "
    "the release a user installing then got (the highest final version out)"
)


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("framework", help="google-adk or openai-agents")
    parser.add_argument("--at", metavar="DATE", help=AT)


def run(args: argparse.Namespace) -> int:
    from harness.planning import index
    from harness.project import PROJECT
    from harness.runtime import frameworks

    framework = frameworks.get(args.framework).name
    if args.at:
        release = index.current_on(framework, args.at, PROJECT.cache)
        print(f"{framework}=={release.version}  (uploaded {release.upload_time[:19]}Z; current on {args.at})")
        return 0
    for release in index.final_releases(framework, PROJECT.cache):
        print(f"{framework}=={release.version}  {release.upload_time[:19]}Z")
    return 0
