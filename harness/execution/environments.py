"""One isolated environment per framework build, made with uv and reused where safe.

A release's environment lives in ``.nox/builds/<framework>-<version>[-today]`` and is
reused when its marker says it holds exactly that build (same spec, same dependency
date, same Python). Local builds are reinstalled every run: their source may have
changed. The harness itself is not installed: the worker runs with the project on
``PYTHONPATH``, so editing a scenario never invalidates an environment.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from harness.execution import progress
from harness.planning import index, interpreters, uv
from harness.planning.builds import NOTHING_TO_RUN, Build

MARKER = "harness-build.json"
# Beside a release's environment folder: its inputs (the marker it would have) and why it cannot
# be used, when the install cannot succeed with them (no resolution) or installs no framework
# package (google-adk 0.0.1 is a placeholder: no ``google.adk``). Checked before building, so a
# bisect or matrix run does not try again until an input changes (dependency date, requirements,
# Python, format); delete the file to try anyway. Network failures are never remembered.
UNUSABLE_SUFFIX = ".unusable.json"
PACKAGE_CHECKED = "harness-package-checked"  # in an environment whose framework package was found
# The package a framework's release must install (what its environment is for).
PACKAGE = {"google-adk": "google.adk", "openai-agents": "agents"}
# Words of uv's answer when no set of packages satisfies the requirements (not a network failure).
UNRESOLVABLE = ("No solution found", "unsatisfiable")


class BuildFailed(RuntimeError):
    """uv could not create the environment; the message holds the installer's last lines."""


@dataclass(frozen=True)
class Environment:
    build: Build
    path: Path
    python: Path
    exclude_newer: str | None  # dependency date, or None for today's dependencies
    reused: bool
    from_record: bool = False  # new, resolved from uv's cache to the record's packages (``install``)

    @property
    def made(self) -> str:
        """How it came to be, for progress lines: reused, built, or built from the record's packages."""
        if self.reused:
            return "reused"
        return "built from the record's packages" if self.from_record else "built"


def dependency_date(build: Build, cache_dir: Path) -> str | None:
    """The upload time of a release, rounded up to the second, for uv's --exclude-newer; a local
    build's own date where it has one (a commit's), else None (today's dependencies)."""
    if not build.release:
        return build.dependency_date
    assert build.version is not None, "a release build knows its version (harness/planning/builds.py)"
    release = index.releases(build.framework, cache_dir)[build.version]
    stamp = datetime.fromisoformat(release.upload_time.replace("Z", "+00:00"))
    stamp = stamp.replace(microsecond=0) + timedelta(seconds=1)
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


def _tail(text: str, lines: int = 4, limit: int = 600) -> str:
    """The installer's error on one line: from its last ``error:`` line to the end (uv wraps a
    resolver's explanation over several lines; the missing package is named in the first of
    them), else the last ``lines`` lines; cut at ``limit`` characters from the end."""
    kept = [line.strip() for line in text.strip().splitlines() if line.strip()]
    start = max((i for i, line in enumerate(kept) if line.startswith("error:")), default=max(0, len(kept) - lines))
    joined = " | ".join(kept[start:])
    return joined if len(joined) <= limit else "…" + joined[-limit:]


def _run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        # The installer may name the index it was given, credentials and all (UV_INDEX_URL).
        raise BuildFailed(index.redact(_tail(proc.stderr or proc.stdout)))


def env_name(build: Build, today: bool) -> str:
    # The default interpreter's folder keeps its name (``google-adk-2.13.0``), so every environment
    # made before the interpreter axis stays valid; another interpreter's gets ``-py3.10``.
    tail = "" if build.python is None else f"-py{build.python}"
    if build.release:
        return f"{build.framework}-{build.version}" + ("-today" if today else "") + tail
    name = "local-" + "".join(c if c.isalnum() or c in ".-_" else "_" for c in build.source.split(":", 1)[-1])
    if build.local_path is not None:
        # A checkout's environment is made again on every run, and ``source`` names only its folder:
        # two checkouts of one name (two worktrees, a test's patched copies) shared one environment,
        # so one run rebuilt it under another's workers and judged that run on the other's code.
        # The folder's full path picks the environment.
        name += "-" + hashlib.sha256(str(build.local_path.resolve()).encode()).hexdigest()[:8]
    return name + tail


def interpreter_of(build: Build) -> Path:
    """The interpreter ``build``'s environment is made with: the default one for ``python`` None (the
    harness's own when it is that one), else the one found on the machine (never downloaded)."""
    minor = build.python or interpreters.DEFAULT
    found = interpreters.find(minor)
    if found is None:
        raise BuildFailed(
            f"no CPython {minor} on this machine (none is downloaded); found: {', '.join(interpreters.found())}"
        )
    return found


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path``'s environment: two runs (a matrix and a bisect, or
    two worktrees sharing one ``.nox``) must not build or delete the same environment at once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.parent / f".{path.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def scenario_requirements(framework: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(framework extras, other packages) every environment of ``framework`` gets: the union
    over its scenarios, so one environment per release serves every scenario and --only choice."""
    from harness.runtime import registry

    return registry.requirements(registry.discover(), framework)


def requirement_with_extras(build: Build, extras: tuple[str, ...]) -> str:
    """What uv installs for ``build``, with the framework's extras (``google-adk[db]==2.13.0``)."""
    if not extras:
        return build.requirement
    tag = f"[{','.join(extras)}]"
    if build.local_path is not None:
        return f"{build.framework}{tag} @ {build.local_path.resolve().as_uri()}"
    name, at, url = build.requirement.partition("@")
    if at:  # a direct reference, NAME @ URL
        return f"{name.strip()}{tag} @ {url.strip()}"
    name, _, version = build.requirement.partition("==")
    return f"{name.strip()}{tag}=={version.strip()}"


def ensure(
    build: Build,
    root: Path,
    cache_dir: Path,
    today: bool = False,
    requires: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
    recorded: tuple[str, ...] | None = None,
) -> Environment:
    """Create (or reuse) the environment for ``build``; raise BuildFailed on install errors.

    ``requires``: (framework extras, other packages); by default what the framework's
    scenarios declare (``Scenario.requires``). ``recorded``: the ``name==version`` list the
    record's environment of this release holds (reports/matrix.json), which lets a new
    environment be resolved from uv's cache alone (``install``).
    """
    path = root / env_name(build, today)
    extras, packages = requires if requires is not None else scenario_requirements(build.framework)
    with _locked(path):
        return _ensure(build, path, cache_dir, today, extras, packages, recorded)


def installed(path: Path) -> list[str]:
    """``name==version`` of every distribution in the environment at ``path``, sorted as the
    worker reports them (harness/runtime/worker.py ``resolved_packages``), read from its files."""
    from harness.runtime.worker import resolved_packages

    return resolved_packages([str(site) for site in sorted(path.glob("lib/python3*/site-packages"))])


def new_venv(path: Path, interpreter: Path | None = None) -> None:
    """An empty environment at ``path`` on ``interpreter`` (default: the Python running the harness);
    an interpreter is never downloaded (issue 46)."""
    _run(
        [
            *uv.command(),
            "venv",
            "--quiet",
            "--no-python-downloads",
            "--python",
            str(interpreter or sys.executable),
            str(path),
        ]
    )


def install(
    python: Path,
    path: Path,
    date: str | None,
    requirements: list[str],
    recorded: tuple[str, ...] | None,
    interpreter: Path | None = None,
) -> bool:
    """Install ``requirements`` into the new environment; True when resolved from uv's cache alone.

    Resolving against the index costs most of a new environment (uv revalidates every
    package's page: about 2 s of 2.5 for google-adk 1.20.0; 0.5 s in all with ``--offline``).
    An offline resolution can only differ from an online one where the cache's page of a
    package is older than the dependency date, so it is kept only when it installs exactly the
    environment the record holds for this release (``recorded``); otherwise the environment is
    made again, resolved online.
    """
    cmd = [*uv.command(), "pip", "install", "--quiet", "--python", str(python)]
    if date:
        cmd += ["--exclude-newer", date]
    if date and recorded:
        offline = subprocess.run([*cmd, "--offline", *requirements], capture_output=True, text=True)
        if offline.returncode == 0 and installed(path) == list(recorded):
            return True
        shutil.rmtree(path)
        new_venv(path, interpreter)
    _run([*cmd, *requirements])
    return False


def _ensure(
    build: Build,
    path: Path,
    cache_dir: Path,
    today: bool,
    extras: tuple[str, ...],
    packages: tuple[str, ...],
    recorded: tuple[str, ...] | None = None,
) -> Environment:
    python = path / "bin" / "python"
    date = None if today else dependency_date(build, cache_dir)
    wanted: dict[str, object] = {
        "requirement": build.requirement if build.release else build.source,
        "exclude_newer": date,
        "python": build.python or interpreters.DEFAULT,
        "format": 3,  # bump when the way environments are made changes
    }
    if extras or packages:  # absent otherwise, so existing environments stay valid
        wanted["requires"] = {"extras": list(extras), "packages": list(packages)}
    marker = path / MARKER
    unusable = path.parent / (path.name + UNUSABLE_SUFFIX)
    remember = build.release and date is not None  # today's dependencies may resolve tomorrow
    if remember and unusable.exists():
        try:
            known = json.loads(unusable.read_text())
            if known.get("wanted") == wanted:
                raise BuildFailed(known["error"])
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
    if build.release and marker.exists() and python.exists():
        try:
            same = json.loads(marker.read_text()) == wanted
        except ValueError:
            same = False
        if same:
            # An environment made before its package was checked: checked once (the stamp).
            stamp = path / PACKAGE_CHECKED
            if not stamp.exists():
                missing = missing_package(python, build.framework)
                if missing:
                    if remember:
                        unusable.write_text(json.dumps({"wanted": wanted, "error": missing}, sort_keys=True))
                    raise BuildFailed(missing)
                stamp.touch()
            return Environment(build, path, python, date, reused=True)
    progress.phase(build.label, "building its environment", announce=True)
    if path.exists():
        shutil.rmtree(path)
    interpreter = interpreter_of(build)
    new_venv(path, interpreter)
    # No --compile-bytecode: compiling every module costs more than the first worker's
    # import, which writes the bytecode of just the modules the scenarios use (and
    # harness/execution/bytecode.py shares what earlier environments compiled).
    # The scenarios' extra packages are resolved with the framework in one install, under
    # the same dependency date, so they are as of the release too.
    requirements = [requirement_with_extras(build, extras), *packages]
    try:
        from_record = install(python, path, date, requirements, recorded if build.release else None, interpreter)
        missing = missing_package(python, build.framework)
        if missing:
            raise BuildFailed(missing)
    except BuildFailed as exc:
        shutil.rmtree(path, ignore_errors=True)
        if remember and (str(exc).startswith("installs no ") or any(w in str(exc) for w in UNRESOLVABLE)):
            unusable.write_text(json.dumps({"wanted": wanted, "error": str(exc)}, sort_keys=True))
        raise
    unusable.unlink(missing_ok=True)
    (path / PACKAGE_CHECKED).touch()
    marker.write_text(json.dumps(wanted, sort_keys=True))
    return Environment(build, path, python, date, reused=False, from_record=from_record)


def missing_package(python: Path, framework: str) -> str | None:
    """Why a new environment has no ``framework`` package to run cases on (None when it has one):
    looked up, not imported (a fraction of a second)."""
    package = PACKAGE.get(framework)
    if package is None:
        return None
    probe = (
        "import importlib.util, sys\n"
        "try:\n    found = importlib.util.find_spec(sys.argv[1]) is not None\n"
        "except ImportError:\n    found = False\n"
        "sys.exit(0 if found else 3)\n"
    )
    proc = subprocess.run([str(python), "-c", probe, package], capture_output=True, text=True)
    if proc.returncode == 3:
        return f"installs no {package} package {NOTHING_TO_RUN}"
    return None


# What a worker's environment is built from: what Python and the frameworks need to run, and
# the harness's own switches. Nothing else reaches framework code: no credentials
# (GOOGLE_APPLICATION_CREDENTIALS, *_TOKEN, cloud keys), no OPENAI_BASE_URL, no proxies.
WORKER_ALLOWLIST = ("PATH", "HOME", "LANG", "LANGUAGE", "TMPDIR", "TZ", "TERM", "USER", "LOGNAME", "PYTHONHASHSEED")
WORKER_ALLOWED_PREFIXES = ("LC_", "HARNESS_")


def worker_environment(project_root: Path) -> dict[str, str]:
    """Process environment for a worker, from an allowlist: the project importable, nothing secret."""
    env = {k: v for k, v in os.environ.items() if k in WORKER_ALLOWLIST or k.startswith(WORKER_ALLOWED_PREFIXES)}
    env["PYTHONPATH"] = str(project_root)
    # Also set process-wide (not only per case, harness/runtime/runner.py): the worker imports the
    # framework before the first case, and openai-agents reads it at import.
    env["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    return env
