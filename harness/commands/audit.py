"""``python -m harness audit``: the record's known bugs that affect an installed or pinned release.

Exit status (as pip-audit's, and the contract's): 1 when a known bug reproduces there (by the
record, or by ``--run`` in the audited environment), and with ``--strict`` also when any answer is
unknown (a gate that passes on nothing known is no gate); 0 otherwise; 2 for bad input.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from harness.commands import flags

if TYPE_CHECKING:
    from harness.execution import audit_run
    from harness.planning.audit_targets import Target
    from harness.store.audit import Knowledge
    from harness.store.moves import Move

HELP = "which known bugs affect an installed or pinned google-adk / openai-agents release (exit 1 when one does)"
TARGET = (
    "a Python interpreter or environment folder (default: the `python` first on PATH, never the harness's own), "
    "a requirements file, a uv.lock or pylock.toml, or a SPEC such as google-adk==2.8.0"
)


def setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", nargs="?", metavar="TARGET", help=TARGET)
    parser.add_argument(
        "--format",
        choices=("text", "json", "markdown"),
        default="text",
        help="text (default), json, or markdown (for a CI job's summary)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", default=None, help="write the report to FILE, not stdout")
    parser.add_argument(
        "--ignore",
        metavar="FILE",
        default=None,
        help="a file of bug ids (scenario:case), one per line with its reason after it ('#' starts a comment): "
        "they are shown and counted but do not set the exit status",
    )
    parser.add_argument(
        "--run",
        action="store_true",
        help="also run each applicable bug's script (scenarios/<id>/repro.py CASE) with the audited interpreter, "
        "in its environment (no network, under --timeout), and show its verdict beside the record's",
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="ID[,ID...]", help="only these scenarios, or scenario:case"
    )
    parser.add_argument(
        "--timeout", type=flags.timeout, default=120.0, help="per-script timeout of --run in seconds (default 120)"
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 also when any answer is unknown (no measurement or bisected range covers the release)",
    )
    parser.add_argument("--jobs", type=flags.jobs, default=None, help="scripts --run runs at once (default: CPUs)")
    parser.add_argument(
        "--to",
        metavar="VERSION",
        default=None,
        help="also answer 'can I move to VERSION?' (or NAME==VERSION): the known bugs the move fixes and brings, and "
        "the upgrade scenarios' verdict for the pair, measured here when the record's grid lacks it; exit 1 "
        "also when the move brings a bug or an upgrade breaks",
    )
    parser.add_argument(
        "--python",
        metavar="X.Y",
        default=None,
        help="the interpreter to answer for (3.10): for a requirements file, a lock or a SPEC (default: the "
        "interpreter `python` on PATH is); an interpreter or environment target answers for its own",
    )
    parser.add_argument(
        "--no-measure",
        action="store_true",
        help="with --to: answer from the record alone (a pair its grid lacks is listed as not measured)",
    )


def run(args: argparse.Namespace) -> int:
    from harness.execution import audit_run
    from harness.planning import audit_targets
    from harness.project import PROJECT
    from harness.rendering import audit_report
    from harness.runtime import registry
    from harness.store import audit, environment_diff, record

    target = audit_targets.resolve(args.target)
    target = audit_targets.with_interpreter(target, args.python)
    if args.run and target.python is None:
        raise flags.FlagError(f"--run needs an interpreter or environment to run in; {target.label} is a {target.kind}")
    scenarios = registry.discover()
    selectors = [s for chunk in args.only for s in chunk.split(",") if s]
    chosen = {f"{s.id}:{c.id}" for s, c in registry.select(scenarios, selectors)}
    releases = [(pin, *_release_on_index(pin.framework, pin.version)) for pin in target.pins]
    known = audit.knowledge(PROJECT.root, scenarios.values(), target.interpreter)
    ignored = read_ignore(args.ignore, set(known)) if args.ignore else {}
    out_path = _output_path(args.output) if args.output else None
    here = audit_targets.installed(target.python) if target.python else None
    recorded = (record.load(PROJECT.reports) or record.Record()).recorded_packages()
    audited = []
    for pin, version, note, status in releases:
        bugs = [k for bug_id, k in known.items() if k.bug.framework == pin.framework and bug_id in chosen]
        answers = {k.bug.id: k.answer(version) for k in bugs}
        verdicts: dict[str, audit_run.ScriptRun] = {}
        if args.run:
            scripts = {
                k.bug.id: (PROJECT.root / k.bug.script, k.bug.case)
                for k in bugs
                if answers[k.bug.id].outcome != "not-applicable" and (PROJECT.root / k.bug.script).is_file()
            }
            assert target.python is not None
            verdicts = audit_run.run_all(target.python, scripts, args.timeout, args.jobs or os.cpu_count() or 1)
        findings = tuple(
            audit_report.Finding(k.bug, answers[k.bug.id], *_run_of(verdicts.get(k.bug.id)), ignored.get(k.bug.id, ""))
            for k in bugs
        )
        differs: tuple = ()
        if here is not None:
            # The framework's own requirements and what the bugs' scripts import beside it (bug.py requires).
            compared = {environment_diff.requirement_name(r) for r in here.requires.get(pin.framework, ())}
            compared |= {
                environment_diff.requirement_name(r)
                for s in scenarios.values()
                if s.framework == pin.framework
                for r in s.requires
            }
            compared.discard(environment_diff.normalized(pin.framework))
            differs = environment_diff.differences(
                recorded.get(f"{pin.framework}=={version}", ()), here.packages, compared
            )
        audited.append(audit_report.Audited(pin.framework, version, findings, note, differs, status))
    moved = _move(args, target, known, chosen) if args.to else None
    if args.format == "json":
        report = audit_report.as_json(target, audited, moved)
    elif args.format == "markdown":
        report = audit_report.markdown(target, audited, moved)
    else:
        report = audit_report.text(target, audited) + (audit_report.move_text(moved) if moved is not None else "")
    if out_path is None:
        print(report, end="")
    else:
        _write(out_path, report)
    if any(f.fails for a in audited for f in a.findings) or (moved is not None and moved.breaks):
        return 1
    unknown = sum(a.buckets()["unknown"] for a in audited)
    if args.strict and unknown:
        import sys

        print(f"--strict: {unknown} answer{'' if unknown == 1 else 's'} unknown: exit 1", file=sys.stderr)
        return 1
    return 0


def _move(args: argparse.Namespace, target: Target, known: dict[str, Knowledge], chosen: set[str]) -> Move:
    """``--to``: the move from the audited release to the one named, its missing upgrade pairs
    measured now (each in the two releases' builds, as the matrix runs them) unless ``--no-measure``."""
    import sys

    from harness.execution import upgrades as run_upgrades
    from harness.execution.run import RunSettings
    from harness.planning import upgrades
    from harness.project import PROJECT
    from harness.store import moves, record

    name, _, wanted = args.to.rpartition("==")
    pins = [p for p in target.pins if not name or p.framework == name.strip().lower()]
    if len(pins) != 1:
        have = ", ".join(sorted(p.framework for p in target.pins)) or "no framework"
        raise flags.FlagError(f"--to {args.to}: name one release of one audited framework ({have}), as NAME==VERSION")
    pin = pins[0]
    current = _release_on_index(pin.framework, pin.version)[0]
    to = _release_on_index(pin.framework, wanted.strip())[0]
    if to == current:
        raise flags.FlagError(f"--to {args.to}: {pin.framework} {to} is the audited release; name another")
    scenarios = upgrades.discover()
    recorded = (record.load(PROJECT.reports) or record.Record()).upgrades
    moved = moves.move(known, chosen, scenarios.values(), recorded, pin.framework, current, to)
    if not moved.missing or args.no_measure:
        return moved
    planned = [upgrades.PlannedPair(scenarios[s], c, current, to, "asked by audit --to") for s, c in moved.missing]
    lacking = f"{len(planned)} upgrade pair(s) the record's grid lacks ({current} -> {to})"
    print(f"--to: measuring {lacking}", file=sys.stderr)
    run = run_upgrades.run(
        planned,
        RunSettings(PROJECT),
        args.jobs or os.cpu_count() or 1,
        repeat_new=lambda p: False,
        log=lambda line: print(line, file=sys.stderr, flush=True),
    )
    now = [moves.verdict_of(r, "measured now") for r in run.rows]
    return moves.move(known, chosen, scenarios.values(), recorded, pin.framework, current, to, now)


def read_ignore(argument: str, bug_ids: set[str]) -> dict[str, str]:
    """Bug id -> reason, from an ignore file (as pip-audit's --ignore-vuln, in a file): one id per
    line, its reason after it; blank lines and '#' comments skipped. An unreadable file, a line
    without a reason or an id that is no bug: one line, exit 2."""
    from harness.planning import audit_targets

    path = audit_targets.from_caller(argument)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise flags.FlagError(f"--ignore {argument}: cannot read it ({type(exc).__name__})") from None
    out = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        bug_id, _, reason = line.partition(" ")
        if bug_id not in bug_ids:
            raise flags.FlagError(
                f"--ignore {argument}, line {number}: {bug_id!r} is not a bug id; valid: scenario:case "
                "(`python -m harness audit --format json` lists them)"
            )
        if not reason.strip():
            raise flags.FlagError(f"--ignore {argument}, line {number}: {bug_id} has no reason after it")
        out[bug_id] = reason.strip()
    return out


def _output_path(argument: str) -> Path:
    """``-o FILE`` from where the user called (through nox: HARNESS_CALLER_DIR), existing or not."""
    caller = os.environ.get("HARNESS_CALLER_DIR")
    path = Path(argument)
    if caller and not path.is_absolute():
        path = Path(caller) / path
    if not path.parent.is_dir() or path.is_dir():
        raise flags.FlagError(f"-o {argument}: not a file in an existing folder")
    return path


def _write(path: Path, text: str) -> None:
    """The report, whole or not at all (written beside it, then renamed)."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise flags.FlagError(f"-o {path}: cannot write it ({exc.strerror or exc})") from None


def _run_of(script_run: audit_run.ScriptRun | None) -> tuple[str | None, str]:
    """(verdict, verdict line) of a script's run, (None, "") when it was not run."""
    return (script_run.verdict, script_run.line) if script_run is not None else (None, "")


def _release_on_index(framework: str, version: str) -> tuple[str, str, str]:
    """(the index's spelling of ``version``, a note when the index could not be read, the release's status:
    "final", "pre-release" or "yanked"); a version the index (or, offline, the record) does not have is
    refused in one line."""
    from harness.planning import audit_targets, index, versions
    from harness.project import PROJECT
    from harness.store import audit

    note = ""
    yanked: set[str] = set()
    try:
        on_index = index.releases(framework, PROJECT.cache)
        known = set(on_index)
        yanked = {v for v, r in on_index.items() if r.yanked}
    except index.IndexError_ as exc:
        known = audit.known_releases(PROJECT.root, framework)
        note = f"the package index could not be read ({str(exc)[:80]}); releases checked against the record's list"
    by_key = {versions.key(v): v for v in known}
    if versions.key(version) not in by_key:
        where = "the record's list of releases" if note else "the package index"
        raise audit_targets.TargetError(f"{framework} {version} is not a release on {where}; audit a published release")
    spelled = by_key[versions.key(version)]
    status = "yanked" if spelled in yanked else "final" if versions.is_final(spelled) else "pre-release"
    return spelled, note, status
