"""``nox -s bench``: the matrix's wall time beside a hand-rolled baseline and the import floor.

Measured in one run, on the same release set, in a scratch copy of the project (so the
real environments and reports are untouched), with whatever package cache uv has:

- harness, from scratch: ``python -m harness matrix --rerun`` with no environments and no
  bytecode store (without specs: the matrix as ``nox -s matrix`` runs it, each scenario on the
  releases of its matrix; with specs, every case on each named build);
- harness, environments kept: the same again (every case re-run, nothing rebuilt);
- harness, nothing changed: a plain re-run (unchanged cases are skipped);
- baseline: per release, ``uv venv`` + ``uv pip install`` + one ``python -m harness run``
  (every case of the framework, once), in turn;
- floor: per release, one Python process that only imports the framework (its bytecode
  compiled by the baseline's run), in turn;
- with ``--with-tests``: ``nox -s tests`` in a fresh clone of HEAD, as CI runs it;
- per case: median run time of each case in one process, imports excluded;
- warm workers (harness/execution/pool.py): the same builds re-run on a warm pool, and the authoring
  loop, one scenario per framework edited and re-run on every release of its matrix
  (``matrix --only ID``), cold and warm, with the pool's resident memory.

Figures are printed and appended to ``bench/history.jsonl`` (one JSON object per run).
"""

from __future__ import annotations

import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.commands import flags
from harness.execution import environments, pool
from harness.planning import builds, releases, uv
from harness.project import PROJECT
from harness.runtime import frameworks, registry, reproduction

ROOT = PROJECT.root

CASE_TIMER = """
import json, statistics, sys, time
from harness.runtime import registry
from harness.runtime.runner import run_case
framework, reps = sys.argv[1], int(sys.argv[2])
out = {}
for s, c in registry.select(registry.discover(), []):
    if s.framework != framework:
        continue
    run_case(s, c)  # warm-up: imports
    times = []
    for _ in range(reps):
        t = time.perf_counter(); run_case(s, c); times.append(time.perf_counter() - t)
    out[f"{s.id}:{c.id}"] = round(statistics.median(times) * 1000, 1)
print(json.dumps(out))
"""


def timed(cmd: list[str], cwd: Path, env: dict | None = None, codes: dict | None = None, name: str = "") -> float:
    """Seconds ``cmd`` took; its exit status goes to ``codes[name]`` (a run that failed is not
    a figure to compare: the figures name it), and where it failed, its last lines are printed."""
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if codes is not None:
        codes[name] = proc.returncode
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-12:]
        print(f"  {name or cmd[0]} exited {proc.returncode}; its last lines:", *tail, sep="\n    ", file=sys.stderr)
    return elapsed


def scratch_copy(dest: Path) -> Path:
    # reports/ too: `matrix --only ID` runs the scenario on the releases of its matrix (the record's).
    for name in ("harness", "scenarios", "snapshots", "reports", "upgrades"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


# The scenarios of the issue that asked for the pool ("the authoring loop below the import
# floor"); another scenario of the framework where these are gone.
EDITED = {"google-adk": "adk-retry-same-invocation-id", "openai-agents": "agents-nested-handoff-4hop"}


def edit(module: Path) -> None:
    """What an author's save does to the inputs: the module's text changes."""
    module.write_text(module.read_text() + f"\n# bench edit {time.time_ns()}\n")


def authoring_loop(work: Path, scenario_id: str, module: Path, rounds: int = 3) -> dict:
    """Seconds for `matrix --only ID` after an edit: cold, then on a warm pool (median of
    ``rounds``); the seconds to start the pool; its memory for this scenario's builds."""
    only = [sys.executable, "-m", "harness", "matrix", "--only", scenario_id]
    subprocess.run([*only, "--rerun", "--cold"], cwd=work, capture_output=True)  # environments built
    edit(module)
    cold = timed([*only, "--cold"], work)
    start = timed([*only, "--rerun", "--warm"], work)
    warm = []
    for _ in range(rounds):
        time.sleep(3)  # an author's edit takes longer; the workers learn what runs import meanwhile
        edit(module)
        warm.append(timed(only, work))
    planned = subprocess.run(only, cwd=work, capture_output=True, text=True).stderr
    builds = re.search(r"matrix: (\d+) builds", planned)
    live = [m for m in pool.members() if Path(m.root) == work.resolve()]
    return {
        "builds": int(builds.group(1)) if builds else None,
        "cold_s": round(cold, 2),
        "pool_start_s": round(start, 1),
        "warm_s": round(sorted(warm)[len(warm) // 2], 2),
        "pool_workers": len(live),
        "pool_rss_mb": round(sum(m.rss_mb() for m in live)),
    }


def record_builds(cache_dir: Path, fw_names: list[str]) -> list[builds.Build]:
    """Every release of the record (reports/matrix.json), or the default set where there is none."""
    from harness.store import record

    document = record.load(PROJECT.reports) or record.Record()
    sources = sorted({r.source for r in document.results if r.release})
    if not sources:
        sources = [f"{fw}=={v}" for fw in fw_names for v in releases.default_versions(fw, cache_dir)]
    return [builds.parse(s, cache_dir) for s in sources]


def main(argv: list[str] | None = None) -> int:
    p = flags.OneLineParser(prog="python -m harness.commands.bench")
    p.add_argument("specs", nargs="*", help="builds to measure (default: every release of the record)")
    p.add_argument("--with-tests", action="store_true", help="also time `nox -s tests` from a fresh environment")
    p.add_argument("--reps", type=flags.reps, default=5, help="runs per case for the per-case medians, >= 1")
    try:
        args = p.parse_args(argv)
    except flags.FlagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cache_dir = PROJECT.cache
    fw_names = sorted({s.framework for s in registry.discover().values()})
    build_list = [builds.parse(s, cache_dir) for s in args.specs] if args.specs else record_builds(cache_dir, fw_names)
    figures: dict = {
        "builds": len(build_list),
        "python": platform.python_version(),
        "cores": __import__("os").cpu_count(),
    }
    with tempfile.TemporaryDirectory(prefix="harness-bench-") as tmp:
        work = scratch_copy(Path(tmp) / "project")
        # Without specs, the matrix as `nox -s matrix` runs it: each scenario on the releases of its
        # matrix (the record's builds); with specs, every case on each of them.
        matrix = [sys.executable, "-m", "harness", "matrix", *args.specs]
        codes: dict[str, int] = {}
        figures["exit_codes"] = codes
        print(f"bench: {len(build_list)} builds", file=sys.stderr)
        figures["harness_from_scratch_s"] = round(
            timed([*matrix, "--rerun"], work, codes=codes, name="from_scratch"), 1
        )
        print(f"  harness, from scratch: {figures['harness_from_scratch_s']}s", file=sys.stderr)
        figures["harness_envs_kept_s"] = round(timed([*matrix, "--rerun"], work, codes=codes, name="envs_kept"), 1)
        print(f"  harness, environments kept: {figures['harness_envs_kept_s']}s", file=sys.stderr)
        figures["harness_nothing_changed_s"] = round(timed(matrix, work, codes=codes, name="nothing_changed"), 1)
        print(f"  harness, nothing changed: {figures['harness_nothing_changed_s']}s", file=sys.stderr)
        try:
            subprocess.run([*matrix, "--rerun", "--warm"], cwd=work, capture_output=True)
            figures["harness_warm_s"] = round(timed([*matrix, "--rerun"], work, codes=codes, name="warm"), 1)
            print(f"  harness, warm workers: {figures['harness_warm_s']}s", file=sys.stderr)
            loops = {}
            for fw in fw_names:
                scenarios = {s.id: s for s in registry.discover().values() if s.framework == fw}
                chosen = scenarios.get(EDITED.get(fw, "")) or next(iter(scenarios.values()), None)
                if chosen is None:
                    continue
                # The script an author edits: the bug folder's repro.py (its module is the bug.py beside it).
                script = work / "scenarios" / chosen.module.partition("/")[0] / reproduction.SCRIPT
                loops[chosen.id] = authoring_loop(work, chosen.id, script)
                loop = loops[chosen.id]
                print(
                    f"  edit + `matrix --only {chosen.id}` ({loop['builds']} builds): cold {loop['cold_s']}s, "
                    f"warm {loop['warm_s']}s; pool then {loop['pool_workers']} workers, {loop['pool_rss_mb']} MB",
                    file=sys.stderr,
                )
            figures["authoring_loop"] = loops
            live = [m for m in pool.members() if Path(m.root) == work.resolve()]
            figures["pool_workers"] = len(live)
            figures["pool_rss_mb"] = round(sum(m.rss_mb() for m in live))
            figures["pool_rss_mb_per_worker"] = {
                fw: round(sum(ms) / len(ms))
                for fw in fw_names
                if (ms := [m.rss_mb() for m in live if m.framework == fw])
            }
            print(
                f"  warm pool: {figures['pool_workers']} workers, {figures['pool_rss_mb']} MB resident "
                f"(per worker: {figures['pool_rss_mb_per_worker']})",
                file=sys.stderr,
            )
        finally:
            for m in pool.members():
                if Path(m.root) == work.resolve():
                    pool.stop(m)

        uv_cmd = uv.command()
        baseline = floor = 0.0
        for b in build_list:
            venv = Path(tmp) / "baseline" / environments.env_name(b, False)
            date = environments.dependency_date(b, cache_dir)
            started = time.monotonic()
            subprocess.run([*uv_cmd, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
            subprocess.run(
                [
                    *uv_cmd,
                    "pip",
                    "install",
                    "-q",
                    "--python",
                    str(venv / "bin" / "python"),
                    *(["--exclude-newer", date] if date else []),
                    b.requirement,
                ],
                check=True,
            )
            subprocess.run(
                [str(venv / "bin" / "python"), "-m", "harness", "run"],
                cwd=work,
                capture_output=True,
                env=environments.worker_environment(work),
            )
            baseline += time.monotonic() - started
            module = frameworks.get(b.framework).entry_module
            floor += timed([str(venv / "bin" / "python"), "-c", f"import {module}"], work)
        figures["baseline_s"], figures["floor_s"] = round(baseline, 1), round(floor, 1)
        print(f"  baseline (uv venv + install + one process per release): {figures['baseline_s']}s", file=sys.stderr)
        print(f"  floor (import the framework once per release): {figures['floor_s']}s", file=sys.stderr)

        per_case = {}
        for fw in fw_names:
            newest = [b for b in build_list if b.framework == fw][-1:]
            if newest:
                py = Path(tmp) / "baseline" / environments.env_name(newest[0], False) / "bin" / "python"
                out = subprocess.run(
                    [str(py), "-c", CASE_TIMER, fw, str(args.reps)],
                    cwd=work,
                    capture_output=True,
                    text=True,
                    env=environments.worker_environment(work),
                )
                if out.returncode == 0:
                    per_case.update(json.loads(out.stdout.strip().splitlines()[-1]))
        figures["per_case_ms"] = per_case
    figures["ratio_harness_to_baseline"] = round(
        figures["harness_from_scratch_s"] / max(figures["baseline_s"], 1e-9), 2
    )
    figures["ratio_harness_to_floor"] = round(figures["harness_from_scratch_s"] / max(figures["floor_s"], 1e-9), 2)
    baseline, floor = figures["ratio_harness_to_baseline"], figures["ratio_harness_to_floor"]
    print(f"  harness/baseline {baseline}x, harness/floor {floor}x", file=sys.stderr)
    for case, ms in per_case.items():
        print(f"  {case}: {ms} ms", file=sys.stderr)
    if args.with_tests:  # the suite as CI runs it: a fresh clone of the commit, nothing built yet
        with tempfile.TemporaryDirectory(prefix="harness-bench-tests-") as tmp:
            clone = Path(tmp) / "clone"
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
            figures["tests_s"] = round(timed(["nox", "-s", "tests"], clone, codes=codes, name="tests"), 1)
        print(f"  nox -s tests (fresh clone of HEAD): {figures['tests_s']}s", file=sys.stderr)
    history = ROOT / "bench" / "history.jsonl"
    history.parent.mkdir(exist_ok=True)
    with history.open("a") as f:
        f.write(json.dumps(figures, sort_keys=True) + "\n")
    print(json.dumps(figures, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
