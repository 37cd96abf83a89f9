"""What ``audit`` audits: the release of each framework an interpreter has installed, or a file
or SPEC pins.

A target is one of: a Python interpreter or an environment folder (its ``bin/python``), whose
installed distributions are read by running that interpreter (nothing is imported into this
process, nothing is written there); a requirements file; a ``uv.lock``; a ``pylock.toml``
(PEP 751); or a SPEC (``google-adk==2.8.0``). Only an exact pin names a release: a range that
pins nothing is refused in one line, as is a file that is none of these, a target without either
framework, and a release the package index does not have.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.runtime.frameworks import FRAMEWORKS

INTERPRETER, ENVIRONMENT, REQUIREMENTS, UV_LOCK, PYLOCK, SPEC = (
    "interpreter",
    "environment",
    "requirements",
    "uv.lock",
    "pylock.toml",
    "spec",
)
QUERY_TIMEOUT = 60.0
# Run by the audited interpreter (isolated mode: its own site-packages only): each framework's
# installed version, or null.
_QUERY = (
    "import importlib.metadata as m, json\n"
    "def v(n):\n"
    "    try:\n"
    "        return m.version(n)\n"
    "    except m.PackageNotFoundError:\n"
    "        return None\n"
    "print(json.dumps({n: v(n) for n in %r}))\n"
)


# Every distribution the interpreter has (name -> version) and each framework's Requires-Dist names.
_PACKAGES_QUERY = (
    "import importlib.metadata as m, json\n"
    "packages = {d.metadata['Name']: d.version for d in m.distributions() if d.metadata['Name']}\n"
    "def requires(n):\n"
    "    try:\n"
    "        return [r for r in (m.requires(n) or []) if 'extra ==' not in r]\n"
    "    except m.PackageNotFoundError:\n"
    "        return []\n"
    "print(json.dumps({'packages': packages, 'requires': {n: requires(n) for n in %r}}))\n"
)


class TargetError(UsageError, ValueError):
    """A target that names no framework release (one line: what, and what is valid)."""


@dataclass(frozen=True)
class Pin:
    framework: str
    version: str


@dataclass(frozen=True)
class Target:
    kind: str  # one of the kinds above
    label: str  # what the user named, for the report
    pins: tuple[Pin, ...]
    python: str | None = None  # the interpreter, for an interpreter or environment (what --run uses)
    interpreter: str = "3.11"  # the CPython minor the answers are for (``with_interpreter``)


def _minor_of(python: str) -> str | None:
    """The ``X.Y`` of the interpreter at ``python`` (None when it cannot be run)."""
    try:
        proc = subprocess.run(
            [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = proc.stdout.strip()
    return out if proc.returncode == 0 and re.fullmatch(r"\d+\.\d+", out) else None


def with_interpreter(target: Target, python: str | None) -> Target:
    """``target`` with the interpreter its answers are for: its own for an interpreter or environment
    (where ``--python`` must agree), else ``python`` (``--python``), else the one `python` on PATH is."""
    from harness.planning import interpreters

    if python is not None and not interpreters.MINOR_RE.match(python):
        raise TargetError(f"--python {python!r} is not an interpreter version; valid: X.Y such as 3.10")
    own = _minor_of(target.python) if target.python else None
    if own is not None and python is not None and python != own:
        raise TargetError(
            f"--python {python}: {target.label} is CPython {own}; "
            "leave --python out, or audit a lock or requirements file"
        )
    if own is None and python is None:
        try:
            own = _minor_of(default_python())
        except TargetError:
            own = None
    return dataclasses.replace(target, interpreter=own or python or interpreters.DEFAULT)


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def default_python() -> str:
    """The ``python`` the user's shell finds first on PATH, skipping the harness's own environment
    (``nox -s audit`` puts its environment first on PATH; that is never what the user runs)."""
    own = Path(sys.prefix).resolve()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder:
            continue
        try:
            inside_own = Path(folder).resolve().is_relative_to(own)
        except OSError:
            continue
        found = shutil.which("python", path=folder)
        if found and not inside_own:
            return found
    raise TargetError("no `python` on PATH besides the harness's own; name the interpreter or environment to audit")


# The environment the user had active when nox started (nox's session sets VIRTUAL_ENV to its own):
# noxfile.py's audit session passes it on under this name.
ACTIVE_ENV_VARIABLES = ("HARNESS_USER_VIRTUAL_ENV", "VIRTUAL_ENV")


def active_environment() -> Path | None:
    """The user's active virtual environment (``VIRTUAL_ENV``), unless it is the harness's own."""
    own = Path(sys.prefix).resolve()
    for name in ACTIVE_ENV_VARIABLES:
        value = os.environ.get(name)
        if value and Path(value).is_dir() and Path(value).resolve() != own:
            return Path(value)
    return None


def from_caller(argument: str) -> Path:
    """``argument`` as a path from where the user called: nox runs the harness from the project's
    folder and names the caller's in HARNESS_CALLER_DIR (noxfile.py's audit session)."""
    caller = os.environ.get("HARNESS_CALLER_DIR")
    path = Path(argument)
    if caller and not path.is_absolute() and (Path(caller) / path).exists():
        return Path(caller) / path
    return path


def resolve(argument: str | None) -> Target:
    """The target ``argument`` names: by default the active virtual environment, else the
    ``python`` first on PATH (issue 50: with a venv active, a pyenv shim's interpreter was audited)."""
    if argument is None:
        active = active_environment()
        if active is not None:
            return from_interpreter(str(_environment_python(active)), ENVIRONMENT, label=str(active))
        return from_interpreter(default_python(), INTERPRETER)
    path = from_caller(argument)
    if path.is_dir():
        return from_interpreter(str(_environment_python(path)), ENVIRONMENT, label=argument)
    if path.is_file():
        name = path.name.lower()
        if name == "uv.lock":
            return _from_uv_lock(path, argument)
        if re.fullmatch(r"pylock(\.[^.]+)?\.toml", name):
            return _from_pylock(path, argument)
        if name == "pyproject.toml":
            return _from_pyproject(path, argument)
        if os.access(path, os.X_OK) and not name.endswith((".txt", ".in", ".toml", ".lock", ".py")):
            return from_interpreter(str(path), INTERPRETER, label=argument)
        return _from_requirements(path, argument)
    if (os.sep in argument and "@" not in argument) or argument.endswith((".txt", ".lock", ".toml", ".in")):
        raise TargetError(f"{argument}: no such file or folder")
    pins = _pins_of_requirement(argument, f"{argument!r}")
    if not pins:
        raise TargetError(
            f"{argument!r} names neither framework; valid: google-adk==VERSION or openai-agents==VERSION, "
            "an interpreter, an environment, a requirements file, uv.lock or pylock.toml"
        )
    return Target(SPEC, argument, tuple(pins))


def _environment_python(folder: Path) -> Path:
    # An environment, or a project folder with its environment in .venv (uv's and most tools' default).
    for base in (folder, folder / ".venv"):
        for candidate in (base / "bin" / "python", base / "Scripts" / "python.exe"):
            if candidate.exists():
                return candidate
    raise TargetError(
        f"{folder}: a folder with no bin/python (nor .venv/bin/python); name an environment or interpreter"
    )


def from_interpreter(python: str, kind: str, label: str | None = None) -> Target:
    """The frameworks ``python`` has installed, read by running it (isolated, no network needed)."""
    names = sorted(FRAMEWORKS)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    try:
        done = subprocess.run(
            [python, "-I", "-c", _QUERY % (names,)],
            capture_output=True,
            text=True,
            timeout=QUERY_TIMEOUT,
            env={**env, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        found = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        raise TargetError(f"{python}: cannot run it as a Python interpreter ({type(exc).__name__})") from None
    if not isinstance(found, dict):
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise TargetError(f"{python}: cannot run it as a Python interpreter ({last})")
    pins = tuple(Pin(n, v) for n, v in sorted(found.items()) if v)
    if not pins:
        raise TargetError(f"{label or python}: neither {' nor '.join(names)} is installed there")
    return Target(kind, label or python, pins, python)


@dataclass(frozen=True)
class Installed:
    """What an audited interpreter has: every distribution and version, and each framework's own
    requirements (those no extra gates)."""

    packages: dict[str, str]
    requires: dict[str, tuple[str, ...]]


def installed(python: str) -> Installed | None:
    """The audited interpreter's distributions, read by running it (None when it cannot say)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    try:
        done = subprocess.run(
            [python, "-I", "-c", _PACKAGES_QUERY % (sorted(FRAMEWORKS),)],
            capture_output=True,
            text=True,
            timeout=QUERY_TIMEOUT,
            env={**env, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        found = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    if not isinstance(found, dict) or not isinstance(found.get("packages"), dict):
        return None
    return Installed(dict(found["packages"]), {n: tuple(r) for n, r in found["requires"].items()})


def _pins_of_requirement(text: str, where: str) -> list[Pin]:
    """The framework pins of one requirement line ([] for another package); a framework with a
    specifier that pins no single release is refused."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        req = Requirement(text)
    except InvalidRequirement as exc:
        raise TargetError(f"{where}: not a requirement ({str(exc).splitlines()[0]})") from None
    name = _norm(req.name)
    if name not in FRAMEWORKS:
        return []
    specs = list(req.specifier)
    exact = [s.version for s in specs if s.operator in ("==", "===") and "*" not in s.version]
    if req.url or not exact or len(set(exact)) > 1:
        raise TargetError(
            f"{where}: {text.strip()!r} pins no single release of {name}; give an exact pin "
            f"({name}==VERSION), or the environment it is installed in"
        )
    return [Pin(name, exact[0])]


def _requirement_lines(path: Path, seen: set[Path]) -> list[tuple[str, str]]:
    """(line, where) of a requirements file, ``-r`` includes followed, options and comments dropped."""
    seen.add(path.resolve())
    try:
        raw = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise TargetError(f"{path}: cannot read it as a requirements file ({type(exc).__name__})") from None
    out = []
    text = re.sub(r"\\\n", " ", raw)
    for number, line in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if not line:
            continue
        where = f"{path.name} line {number}"
        include = re.match(r"^(-r|--requirement)(\s+|=)(\S+)$", line)
        if include:
            target = (path.parent / include.group(3)).resolve()
            if target not in seen:
                out += _requirement_lines(target, seen)
            continue
        editable = re.match(r"^(-e|--editable)(\s+|=)(\S+)", line)
        if editable and re.search(r"adk|openai[-_]agents", editable.group(3), re.I):
            # An editable install of a framework pins no release: the file cannot say which
            # (issue 49: the line was skipped without a word and the framework not audited).
            raise TargetError(
                f"{where}: {line!r} is an editable install, which pins no release; audit the environment "
                "it is installed in (nox -s audit -- PATH/TO/.venv)"
            )
        if line.startswith("-"):  # -c, another -e, --index-url, --hash on its own line...
            continue
        out.append((re.sub(r"\s--hash[=\s]\S+", "", line), where))
    return out


def _from_requirements(path: Path, label: str) -> Target:
    return _from_lines(_requirement_lines(path, set()), label, "a requirements file, uv.lock or pylock.toml")


def _from_pyproject(path: Path, label: str) -> Target:
    """A project's own requirements: ``[project].dependencies`` of its pyproject.toml, each pin of a
    framework exact (issue 50: the file was refused as "'[project]' is not a requirement")."""
    project = _read_toml(path, label, "pyproject.toml").get("project")
    dependencies = project.get("dependencies") if isinstance(project, dict) else None
    if not isinstance(dependencies, list) or not all(isinstance(d, str) for d in dependencies):
        raise TargetError(f"{label}: no [project].dependencies list of requirement strings")
    lines = [(d, f"{path.name} [project].dependencies[{i}]") for i, d in enumerate(dependencies)]
    return _from_lines(lines, label, "pyproject.toml with requirement strings")


def _from_lines(lines: list[tuple[str, str]], label: str, what: str) -> Target:
    """The framework pins of requirement lines (line, where): each exact, one release per framework."""
    pins: list[Pin] = []
    first: dict[str, tuple[str, str]] = {}  # framework -> (version, where) of its first pin
    for line, where in lines:
        try:
            found = _pins_of_requirement(line, where)
            for pin in found:
                seen = first.setdefault(pin.framework, (pin.version, where))
                if seen[0] != pin.version:  # issue 49: both were audited
                    raise TargetError(
                        f"{label}: pins {pin.framework} twice, {seen[0]} ({seen[1]}) and {pin.version} ({where}); "
                        "an environment holds one release: keep one pin"
                    )
            pins += found
        except TargetError as exc:
            if "not a requirement" not in str(exc):
                raise
            raise TargetError(f"{label} is not {what} ({where}: {line[:60]!r} is not a requirement)") from None
    if not pins:
        raise TargetError(f"{label}: pins neither {' nor '.join(sorted(FRAMEWORKS))}")
    return Target(REQUIREMENTS, label, tuple(dict.fromkeys(pins)))


def _read_toml(path: Path, label: str, what: str) -> dict:
    try:
        return tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise TargetError(f"{label} is not a {what} ({type(exc).__name__}: {str(exc).splitlines()[0]})") from None


def _pins_of_packages(packages: object, label: str, what: str) -> tuple[Pin, ...]:
    if not isinstance(packages, list):
        raise TargetError(f"{label} is not a {what} (no package list)")
    pins = []
    for p in packages:
        if not isinstance(p, dict) or _norm(str(p.get("name", ""))) not in FRAMEWORKS:
            continue
        name = _norm(str(p["name"]))
        if not p.get("version"):
            raise TargetError(
                f"{label}: {name} is locked with no version (a local or VCS source); name its environment"
            )
        pins.append(Pin(name, str(p["version"])))
    if not pins:
        raise TargetError(f"{label}: locks neither {' nor '.join(sorted(FRAMEWORKS))}")
    return tuple(dict.fromkeys(pins))


def _from_uv_lock(path: Path, label: str) -> Target:
    document = _read_toml(path, label, "uv.lock")
    return Target(UV_LOCK, label, _pins_of_packages(document.get("package"), label, "uv.lock"))


def _from_pylock(path: Path, label: str) -> Target:
    document = _read_toml(path, label, "pylock.toml")
    if "lock-version" not in document:
        raise TargetError(f"{label} is not a pylock.toml (no lock-version)")
    return Target(PYLOCK, label, _pins_of_packages(document.get("packages"), label, "pylock.toml"))
