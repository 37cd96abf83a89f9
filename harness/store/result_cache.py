"""Skip a (case, environment) whose inputs did not change since its last recorded result.

Inputs: the scenario module's source, the harness's own code, and the environment (its
marker: requirement, dependency date, Python). The record lives inside the environment's
directory, so rebuilding the environment forgets it. Only ``reproduced``, ``fixed``,
``unexpected`` and ``not-applicable`` results are reused; an ``error`` is always re-run.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from harness.runtime.outcomes import ERROR

FILE = "harness-results.json"


def _digest(paths: list[Path]) -> str:
    stamps = []
    for p in sorted(paths):
        try:
            st = p.stat()
            stamps.append((str(p), st.st_mtime_ns, st.st_size, st.st_ino))
        except OSError:
            stamps.append((str(p), 0, -1, 0))
    return _digest_of(tuple(stamps))


@functools.lru_cache(maxsize=1024)
def _digest_of(stamps: tuple[tuple[str, int, int, int], ...]) -> str:
    """The digest of the files ``stamps`` name, read once per process while their stat
    stamps stay the same (the matrix asks for every case of every build)."""
    h = hashlib.sha256()
    for path, _, size, _ in stamps:
        p = Path(path)
        h.update(p.name.encode())
        h.update(p.read_bytes() if size >= 0 else b"")
    return h.hexdigest()[:16]


# The harness modules a worker runs a case with; editing the CLI, reports or bench code
# does not change a case's result, so it does not invalidate recorded results.
CASE_MODULES = (
    "__init__.py",
    "project.py",
    "errors.py",
    "runtime/__init__.py",
    "runtime/worker.py",
    "runtime/runner.py",
    "runtime/registry.py",
    "runtime/scenario.py",
    "runtime/outcomes.py",
    "runtime/timeline.py",
    "runtime/netguard.py",
    "runtime/frameworks.py",
    "runtime/proof_runs.py",
    "runtime/fakes/__init__.py",
    "runtime/fakes/adk.py",
    "runtime/fakes/coroutines.py",
    "runtime/fakes/openai_agents.py",
    "runtime/fakes/openai_http.py",
    "execution/isolation.py",
    "execution/proofs.py",
)


def _scenario_files(root: Path, scenario_module: str, scenario_id: str) -> list[Path]:
    scenario = [root / "scenarios" / f"{scenario_module}.py"]
    # The short reproductions run beside its cases (harness/runtime/short_repro.py).
    return scenario + sorted((root / "scenarios" / "repro").glob(f"{scenario_id}--*.py"))


def scenario_inputs(root: Path, scenario_module: str, scenario_id: str) -> str:
    """The digest of a scenario's own code: its module and its short scripts.

    What a bisect probe (reports/bisect.json) and a record result (reports/matrix.json) carry
    as ``inputs``: a probe or result whose digest differs from the scenario's current one was
    answered by an older version of its cases and is not knowledge about the current ones
    (harness/store/boundaries.py ``current``). The harness code and the environment are left
    out on purpose: they are this module's concern (a case whose harness or environment changed
    is re-run in that environment), while editing them must not erase every bisect's knowledge.
    """
    return _digest(_scenario_files(root, scenario_module, scenario_id))


def inputs_key(root: Path, env_path: Path, scenario_module: str, scenario_id: str) -> str:
    harness_code = [root / "harness" / m for m in CASE_MODULES if (root / "harness" / m).exists()]
    marker = [env_path / "harness-build.json"]
    return _digest(harness_code) + scenario_inputs(root, scenario_module, scenario_id) + _digest(marker)


def load(env_path: Path) -> dict:
    try:
        return json.loads((env_path / FILE).read_text())
    except (OSError, ValueError):
        return {}


def save(env_path: Path, env_record: dict, entries: dict) -> None:
    tmp = env_path / (FILE + ".tmp")
    tmp.write_text(json.dumps({"env": env_record, "cases": entries}, sort_keys=True))
    tmp.replace(env_path / FILE)


def reusable(entry: dict | None, key: str) -> bool:
    if not entry:
        return False
    return entry.get("inputs") == key and entry["result"].get("outcome") != ERROR
