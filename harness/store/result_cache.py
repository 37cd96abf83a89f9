"""Skip a (case, environment) whose inputs did not change since its last recorded result.

Inputs: every project file the case's process loaded, as its worker reported them with the
result (harness/runtime/loaded.py: the harness modules it imported, its bug folder's script and
declaration, the data files it opened), each with
its digest, and the environment: its marker (requirement, dependency date, Python) and the
files installed in it (``environment_digest``: the path, size and mtime of each). So an edit
of any file a case used re-runs it, and so does an edit of a file of the framework inside the
environment (as one does to try a fix in place); an edit of a project file it never loaded
(the CLI, the reports) does not. The record lives inside the environment's directory, so rebuilding the environment
forgets it. Only ``reproduced``, ``fixed``, ``unexpected`` and ``not-applicable`` results are
reused; an ``error`` is always re-run.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
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


def _file_digest(path: Path) -> str | None:
    """The digest of the file at ``path`` (None where there is none), read once per process
    while its stat stamp stays the same (the matrix asks for every file of every case of every build)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _digest_at(str(path), st.st_mtime_ns, st.st_size, st.st_ino)


@functools.lru_cache(maxsize=8192)
def _digest_at(path: str, mtime_ns: int, size: int, inode: int) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        return None


def _scenario_files(root: Path, scenario_module: str) -> list[Path]:
    """A bug folder's (scenarios/<id>/, its module ``<id>/bug``) script and data, not its declaration."""
    folder = root / "scenarios" / Path(scenario_module).parent
    declaration = folder / f"{Path(scenario_module).name}.py"
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p != declaration)


def scenario_inputs(root: Path, scenario_module: str) -> str:
    """The digest of what a scenario's replay runs: its bug folder (scenarios/<id>/: the script and
    its data files) without the declaration (bug.py: links, roles, proofs, claims, explanations),
    which says what the results mean but changes none (its ``requires`` and ``backends`` reach a
    result through the environment and the script's own cases). So editing a claim's or an
    explanation's words keeps every result and bisect probe current; editing the script does not.

    What a bisect probe (reports/bisect.json) and a record result (reports/matrix.json) carry
    as ``inputs``: a probe or result whose digest differs from the scenario's current one was
    answered by an older version of its cases and is not knowledge about the current ones
    (harness/store/boundaries.py ``current``). The harness code and the environment are left
    out on purpose: they are this module's concern (a case whose harness or environment changed
    is re-run in that environment), while editing them must not erase every bisect's knowledge.
    """
    return _digest(_scenario_files(root, scenario_module))


def _marker(env_path: Path) -> str:
    return _digest([env_path / "harness-build.json"])


def environment_digest(env_path: Path) -> str:
    """The digest of the files installed in the environment at ``env_path``: the path, size and
    mtime of every file under its ``lib/`` (site-packages), without the ``__pycache__`` folders
    Python writes as it imports. Stat calls only: about 60 ms for google-adk 2.13.0's 5,300
    files, taken once per build and run (``harness/execution/run.py``)."""
    stamps: list[str] = []
    _stamp_tree(env_path / "lib", stamps)
    return hashlib.sha256("\n".join(sorted(stamps)).encode()).hexdigest()[:16]


def _stamp_tree(folder: str | Path, stamps: list[str]) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        try:
            if e.is_dir(follow_symlinks=False):
                if e.name != "__pycache__":
                    _stamp_tree(e.path, stamps)
            else:
                st = e.stat(follow_symlinks=False)
                stamps.append(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}")
        except OSError:
            stamps.append(f"{e.path}\0gone")


def entry(result: dict, loaded: list[str], root: Path, env_path: Path, environment: str | None = None) -> dict:
    """What the environment's record keeps of a case its worker ran: the result, the digest of
    every project file (relative to ``root``) the worker said the case loaded, the environment's
    marker and ``environment``, the digest of its installed files (``environment_digest``, taken
    here when not given)."""
    return {
        "files": {name: _file_digest(root / name) for name in loaded},
        "marker": _marker(env_path),
        "environment": environment if environment is not None else environment_digest(env_path),
        "result": result,
    }


def load(env_path: Path) -> dict:
    try:
        return json.loads((env_path / FILE).read_text())
    except (OSError, ValueError):
        return {}


def save(env_path: Path, env_record: dict, entries: dict) -> None:
    tmp = env_path / (FILE + ".tmp")
    tmp.write_text(json.dumps({"env": env_record, "cases": entries}, sort_keys=True))
    tmp.replace(env_path / FILE)


def reusable(entry: dict | None, root: Path, env_path: Path, environment: str | None = None) -> bool:
    """Whether a recorded entry still stands: not an error, the same environment (its marker, and
    ``environment``: the digest of its installed files now, taken here when not given), and every
    file it lists with the same digest (an entry of before this form lists none: it is re-run)."""
    if not entry or not entry.get("files") or entry["result"].get("outcome") == ERROR:
        return False
    if entry.get("marker") != _marker(env_path):
        return False
    # A file of the framework edited in the environment is an input too (issue 49: such an edit
    # gave "0 cases run, 1 unchanged and skipped" with the verdict of before it). An entry of
    # before this key holds none: it is re-run once.
    if entry.get("environment") != (environment if environment is not None else environment_digest(env_path)):
        return False
    return all(_file_digest(root / name) == digest for name, digest in entry["files"].items())
