"""``python -m harness``: list scenarios, run them here, or run the matrix across builds.

One module per command in ``harness/commands/`` (as asv's ``asv/commands/``), each with ``HELP``,
``setup(parser)`` for its flags (the shared ones in ``flags.py``) and ``run(args)``; their heavy
imports wait inside ``run``, so the parser is built in milliseconds. Bad input (unknown id,
framework or release, malformed spec, a path with no package, an unwritable reports/) raises a
``UsageError`` and ends with one line on stderr and exit status 2, before any report is touched.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from harness.commands import flags
from harness.errors import UsageError
from harness.execution import postgres

# Command name -> module in harness/commands/, in the order `--help` lists them.
COMMANDS = {
    "list": "listing",
    "run": "run",
    "releases": "releases",
    "matrix": "matrix",
    "merge": "merge",
    "candidate": "candidate",
    "new": "new",
    "bisect": "bisect",
    "mutants": "mutants",
    "export": "export",
    "comment": "comment",
    "explain": "explain",
    "pool": "pool",
    "report": "report",
    "audit": "audit",
    "osv": "osv",
}


def parser() -> argparse.ArgumentParser:
    p = flags.OneLineParser(prog="python -m harness", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"harness.commands.{module_name}")
        s = sub.add_parser(name, help=module.HELP)
        module.setup(s)
        s.set_defaults(func=getattr(module, "run_command", module.run))
    return p


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line's arguments; a command's SPECs may stand on both sides of its flags
    (``matrix a==1 --only ID b==2``)."""
    p = parser()
    args, extra = p.parse_known_args(argv)
    # argparse fills a positional from one run of arguments only; SPECs after a flag that follows
    # the first ones come back unplaced, so they join the SPECs here (what is a flag stays refused).
    if extra and isinstance(getattr(args, "specs", None), list) and not any(a.startswith("-") for a in extra):
        args.specs.extend(extra)
    elif extra:
        p.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Before any thread may start the PostgreSQL server: SIGTERM, SIGHUP and Ctrl-C stop it first.
    postgres.install_signal_handlers()
    try:
        args = parse(argv)
        return args.func(args)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # One line, not a traceback (issue 49); 130: ended by SIGINT, as a shell reports it.
        print("interrupted (Ctrl-C): the command stopped", file=sys.stderr)
        return 130
