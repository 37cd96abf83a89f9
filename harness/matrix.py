"""``nox -s matrix``: every selected case on every build, checked against snapshots.

Pipeline: select cases -> resolve builds -> build environments and run workers (in
parallel, one worker process per environment) -> check snapshots -> write reports.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from harness import builds as builds_mod
from harness import environments, registry, releases, reports, result_cache, versions
from harness.driver import run_worker
from harness.outcomes import ERROR, OUTCOMES
from harness.scenario import Case, Scenario
from harness.snapshots import CHANGED, MATCH, NEW, UPDATED, SnapshotStore

PROJECT_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Options:
    specs: list[str] = field(default_factory=list)
    only: list[str] = field(default_factory=list)
    update_snapshots: bool = False
    today_deps: bool = False
    timeout: float = 60.0
    jobs: int = max(1, os.cpu_count() or 1)
    rerun: bool = False  # run every case even when its inputs are unchanged
    shard: tuple[int, int] | None = None  # (K, N): only the K-th of N slices of the builds
    root: Path = PROJECT_ROOT


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def resolve_builds(options: Options, frameworks_needed: list[str], cache_dir: Path) -> list[builds_mod.Build]:
    if options.specs:
        found: dict[str, builds_mod.Build] = {}
        for spec in options.specs:
            build = builds_mod.parse(spec, cache_dir)
            found.setdefault(build.source, build)
        return list(found.values())
    return [
        builds_mod.parse(f"{fw}=={v}", cache_dir)
        for fw in frameworks_needed
        for v in releases.default_versions(fw, cache_dir)
    ]


def _result(scenario: Scenario, case: Case, build: builds_mod.Build, version: str | None, **fields) -> dict:
    return {
        "scenario": scenario.id, "case": case.id, "framework": build.framework, "version": version,
        "source": build.source, "release": build.release, "timeline": "", **fields,
    }


def run_build(build, cases, options: Options, cache_dir: Path) -> tuple[dict, list[dict]]:
    """Build the environment, run the worker; every case gets a result, errors included."""
    started = time.monotonic()
    env_root = options.root / ".nox" / "builds"
    try:
        env = environments.ensure(build, env_root, cache_dir, today=options.today_deps)
    except (environments.BuildFailed, OSError) as exc:
        detail = f"install failed: {exc}"
        log(f"  {build.source}: {detail}")
        return ({"source": build.source, "framework": build.framework, "version": build.version, "error": detail},
                [_result(s, c, build, build.version, outcome=ERROR, detail=detail) for s, c in cases])
    built = time.monotonic()
    cached = result_cache.load(env.path) if build.release and not options.rerun else {}
    keys = {(s.id, c.id): result_cache.inputs_key(options.root, env.path, s.module) for s, c in cases}
    entries = cached.get("cases", {})
    to_run = [(s, c) for s, c in cases if not result_cache.reusable(entries.get(f"{s.id}:{c.id}"), keys[(s.id, c.id)])]
    env_record = cached.get("env")
    raw: list[dict] = []
    if to_run:
        env_record, raw = run_worker(env.python, build.framework, [f"{s.id}:{c.id}" for s, c in to_run],
                                     environments.worker_environment(options.root), options.root, options.timeout)
    version = (env_record or {}).get("version") or build.version
    by_pair = {(r["scenario"], r["case"]): r for r in raw if "scenario" in r}
    for s, c in cases:
        if (s, c) not in to_run:
            by_pair[(s.id, c.id)] = entries[f"{s.id}:{c.id}"]["result"]
    failure = next((r["error"] for r in raw if "error" in r), "the worker reported nothing for this case")
    results = []
    for s, c in cases:
        r = by_pair.get((s.id, c.id))
        if r is None:
            results.append(_result(s, c, build, version, outcome=ERROR, detail=failure))
        else:
            results.append(_result(s, c, build, version, outcome=r["outcome"], detail=r["detail"], timeline=r["timeline"]))
    if build.release and env_record:
        for s, c in to_run:
            r = by_pair.get((s.id, c.id))
            if r is not None:
                entries[f"{s.id}:{c.id}"] = {"inputs": keys[(s.id, c.id)], "result": r}
        result_cache.save(env.path, env_record, entries)
    record = {
        "source": build.source, "framework": build.framework, "version": version,
        "python": (env_record or {}).get("python"), "exclude_newer": env.exclude_newer,
        "packages": (env_record or {}).get("packages", []),
    }
    counts = {o: sum(r["outcome"] == o for r in results) for o in OUTCOMES}
    log(f"  {build.source}: {', '.join(f'{n} {o}' for o, n in counts.items() if n)}"
        f" (env {'reused' if env.reused else 'built'} in {built - started:.1f}s, {len(to_run)} cases run"
        f" in {time.monotonic() - built:.1f}s, {len(cases) - len(to_run)} unchanged and skipped)")
    return record, results


def check_snapshots(results: list[dict], store: SnapshotStore, update: bool) -> None:
    for r in results:
        check = store.check(r)
        r["snapshot"], r["snapshot_base"], r["snapshot_diff"] = check.status, check.base, check.diff
        if update and check.status in (NEW, CHANGED) and store.accept(r):
            r["snapshot"], r["snapshot_base"] = UPDATED, r["version"]


def run(options: Options) -> int:
    """Run the matrix; return the exit status (0: every result matches its snapshot)."""
    cache_dir = options.root / ".nox" / ".harness-cache"
    scenarios = registry.discover()
    selected = registry.select(scenarios, options.only)
    reports_dir = options.root / "reports"
    reports.check_writable(reports_dir)
    store = SnapshotStore(options.root / "snapshots" / "matrix")
    store.validate()
    needed = sorted({s.framework for s, _ in selected})
    build_list = resolve_builds(options, needed, cache_dir)
    plan = [(b, [(s, c) for s, c in selected if s.framework == b.framework]) for b in build_list]
    for b, cases in plan:
        if not cases:
            log(f"note: no selected scenario uses {b.framework}; skipping {b.source}")
    plan = [(b, cases) for b, cases in plan if cases]
    if options.shard:
        k, n = options.shard
        # Deterministic slice: builds in a fixed order, every N-th from the K-th.
        plan.sort(key=lambda item: (item[0].framework, versions.key(item[0].version or "0"), item[0].source))
        plan = plan[k - 1::n]
        log(f"shard {k}/{n}: {', '.join(b.source for b, _ in plan) or 'no builds'}")
    if not plan and not options.shard:
        raise builds_mod.SpecError("nothing to run: no selected scenario uses the given builds' frameworks")
    total_cases = sum(len(c) for _, c in plan)
    log(f"matrix: {len(plan)} builds, {total_cases} case runs, {options.jobs} in parallel")
    started = time.monotonic()
    done = 0
    progress = threading.Lock()

    def one(item):
        nonlocal done
        build, cases = item
        out = run_build(build, cases, options, cache_dir)
        with progress:
            done += 1
            log(f"[{done}/{len(plan)}] {build.source} done; {len(plan) - done} left")
        return out

    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        outcomes = list(pool.map(one, plan))
    environments_records = sorted((rec for rec, _ in outcomes), key=lambda e: (e["framework"], e["source"]))
    results = [r for _, rs in outcomes for r in rs]
    order = {(s.id, c.id): i for i, (s, c) in enumerate(registry.select(scenarios, []))}
    results.sort(key=reports.sort_key(order))
    check_snapshots(results, store, options.update_snapshots)
    all_pairs = {(s.id, c.id) for s, c in registry.select(scenarios, [])}
    for orphan in store.orphans(all_pairs):
        log(f"warning: snapshots/matrix/{orphan}/ belongs to no scenario case any more; delete it")

    document = reports.matrix_document(results, environments_records, reports.harness_info(options.root))
    if options.shard:
        k, n = options.shard
        shard_path = reports_dir / "shards" / f"shard-{k}-of-{n}.json"
        shard_path.parent.mkdir(exist_ok=True)
        reports.write_atomic(shard_path, reports.dumps(document))
        log(f"wrote reports/shards/{shard_path.name}; merge the shards with `python -m harness merge reports/shards/*.json`")
    else:
        reports.write_all(document, scenarios, reports_dir)
    return summarise(results, time.monotonic() - started)


def summarise(results: list[dict], elapsed: float) -> int:
    counts = {o: sum(r["outcome"] == o for r in results) for o in OUTCOMES}
    bad = [r for r in results if r["snapshot"] not in (MATCH, UPDATED)]
    for r in bad:
        log(f"\nsnapshot {r['snapshot']}: {r['scenario']}:{r['case']} on {r['source']}"
            + (f" (compared with {r['snapshot_base']})" if r["snapshot_base"] else " (no stored snapshot)"))
        log(f"  {r['outcome']}: {r['detail']}")
        if r.get("snapshot_diff"):
            log("".join("  " + line for line in r["snapshot_diff"].splitlines(keepends=True)).rstrip())
    log(f"\n{len(results)} results in {elapsed:.1f}s: " + ", ".join(f"{n} {o}" for o, n in counts.items() if n))
    inherited = sum(r["snapshot"] == MATCH and r["snapshot_base"] != r["version"] for r in results)
    if inherited:
        log(f"{inherited} results have no snapshot of their own and are unchanged since an earlier release's")
    log("snapshots: " + ", ".join(
        f"{sum(r['snapshot'] == s for r in results)} {s}" for s in (MATCH, UPDATED, NEW, CHANGED)
        if any(r["snapshot"] == s for r in results)))
    if bad:
        log(f"{len(bad)} results differ from their snapshots; if the change is right, re-run with --update-snapshots")
        return 1
    return 0


def merge(paths: list[Path], root: Path = PROJECT_ROOT) -> int:
    """Build reports from shard results: byte-identical to a single run over the same builds."""
    import json

    scenarios = registry.discover()
    documents = []
    for path in paths:
        try:
            documents.append(json.loads(path.read_text()))
        except (OSError, ValueError) as exc:
            raise builds_mod.SpecError(f"{path.name}: not a shard result ({exc})") from None
    infos = {json.dumps(d.get("harness", {}), sort_keys=True) for d in documents}
    if len(infos) > 1:
        raise builds_mod.SpecError("the shards were run by different harness code or Pythons; re-run them from one commit")
    results = [r for d in documents for r in d["results"]]
    envs = sorted((e for d in documents for e in d.get("environments", [])), key=lambda e: (e["framework"], e["source"]))
    order = {(s.id, c.id): i for i, (s, c) in enumerate(registry.select(scenarios, []))}
    results.sort(key=reports.sort_key(order))
    document = reports.matrix_document(results, envs, documents[0].get("harness") if documents else {})
    reports_dir = root / "reports"
    reports.check_writable(reports_dir)
    reports.write_all(document, scenarios, reports_dir)
    bad = [r for r in results if r["snapshot"] not in (MATCH, UPDATED)]
    log(f"merged {len(paths)} shards: {len(results)} results, {len(bad)} differ from their snapshots")
    return 1 if bad else 0
