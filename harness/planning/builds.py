"""Build specs: what the user names on the command line, and what it resolves to.

A SPEC is a pinned release (``google-adk==2.8.0``), a path to a local source checkout,
wheel or sdist of a framework, or a direct reference (``google-adk @ file:///...``).
"""

from __future__ import annotations

import dataclasses
import re
import tarfile
import tomllib
import urllib.parse
import zipfile
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.planning import index, versions
from harness.runtime import frameworks

# How an error's detail ends when a release installs no framework package at all (google-adk 0.0.1:
# a name placeholder): a fact of the release, not of any one case (harness/execution/environments.py
# ``missing_package`` writes it; harness/store/audit.py reads it). Kept out of harness/runtime/, which
# every case loads: a change there would count as a change of every recorded result's code.
NOTHING_TO_RUN = "(a release with nothing to run)"

PIN_RE = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([0-9][0-9A-Za-z.+!-]*)\s*$")
DIRECT_RE = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*@\s*(\S+)\s*$")


class SpecError(UsageError, ValueError):
    """A SPEC that names no framework build."""


@dataclass(frozen=True)
class Build:
    framework: str
    source: str  # as reported: the pin, or local:<last path component>
    requirement: str  # what uv installs
    version: str | None  # known before install for releases; metadata version for local builds
    release: bool  # a release from the index (its environment can be reused)
    local_path: Path | None = None
    # A local build's dependency date (uv's --exclude-newer): a commit's, so its dependencies are
    # resolved as of when it was made (issue 48); None resolves today's. A release's is its upload time.
    dependency_date: str | None = None
    # The interpreter it runs on (``3.10``), None for the default one (harness/planning/interpreters.py
    # ``DEFAULT``): one more field of a result's key, never part of ``source`` (issue 46).
    python: str | None = None

    @property
    def label(self) -> str:
        """How progress lines name it: its source, and its interpreter where that is not the default."""
        return self.source if self.python is None else f"{self.source} on {self.python}"


def _metadata_of_path(path: Path) -> tuple[str, str | None]:
    """(name, version) of a wheel, sdist or source checkout, from its metadata."""
    if path.is_file() and path.suffix == ".whl":
        parts = path.name.split("-")
        return parts[0], parts[1]
    if path.is_file() and path.name.endswith((".tar.gz", ".zip")):
        try:
            if path.name.endswith(".tar.gz"):
                with tarfile.open(path) as tf:
                    info = next(
                        (m for m in tf.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")), None
                    )
                    # extractfile() gives None for what is not a file (a PKG-INFO directory or link).
                    stream = tf.extractfile(info) if info else None
                    text = stream.read().decode() if stream else ""
            else:
                with zipfile.ZipFile(path) as zf:
                    name = next((n for n in zf.namelist() if n.count("/") == 1 and n.endswith("/PKG-INFO")), None)
                    text = zf.read(name).decode() if name else ""
        except (OSError, tarfile.TarError, zipfile.BadZipFile) as exc:
            raise SpecError(f"{path.name}: cannot read it as a source distribution ({exc})") from None
        fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line and not line.startswith(" "))
        if "Name" not in fields:
            raise SpecError(
                f"{path.name}: no PKG-INFO with a Name in this archive; give a wheel, sdist or source checkout"
            )
        return fields["Name"], fields.get("Version")
    if path.is_dir():
        pyproject = path / "pyproject.toml"
        if pyproject.exists():
            try:
                project = tomllib.loads(pyproject.read_text()).get("project", {})
            except tomllib.TOMLDecodeError as exc:
                raise SpecError(f"{path.name}/pyproject.toml is not valid TOML: {exc}") from None
            if project.get("name"):
                return project["name"], project.get("version")
        raise SpecError(
            f"{path.name}: no package here (no pyproject.toml with [project] name); "
            "give a source checkout, wheel or sdist of google-adk or openai-agents"
        )
    raise SpecError(f"{path}: neither a directory, a wheel (.whl) nor an sdist (.tar.gz, .zip)")


def _local_build(path: Path) -> Build:
    name, version = _metadata_of_path(path)
    framework = frameworks.get(name).name
    return Build(framework, f"local:{path.name}", str(path), version, release=False, local_path=path)


def commit_checkout(path: Path, label: str, date: str) -> Build:
    """The build of a commit exported to ``path`` (a checkout, as ``candidate`` builds one), reported
    as ``label`` (``openai-agents@78725420e``), its dependencies resolved as of ``date``."""
    build = _local_build(path)
    return dataclasses.replace(build, source=label, dependency_date=date)


def parse(spec: str, cache_dir: Path) -> Build:
    """Resolve one SPEC; raise SpecError (one line: what is wrong, what is valid)."""
    if not spec.strip():
        # Path("") is ".", which exists: an empty SPEC would be read as the current folder.
        raise SpecError(
            "an empty SPEC names no build; valid: NAME==VERSION (google-adk==2.13.0), a path to a "
            "checkout, wheel or sdist (. for the current folder), or NAME @ URL"
        )
    if m := PIN_RE.match(spec):
        framework = frameworks.get(m.group(1)).name
        version = m.group(2)
        known = index.releases(framework, cache_dir)
        if version not in known:
            finals = [v for v in known if versions.is_final(v)]
            raise SpecError(
                f"{framework} {version} is not on the package index; latest releases: {', '.join(finals[-6:])}"
            )
        return Build(framework, f"{framework}=={version}", f"{framework}=={version}", version, release=True)
    if m := DIRECT_RE.match(spec):
        framework = frameworks.get(m.group(1)).name
        url = m.group(2)
        if url.startswith("file:"):
            path = Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))
            if not path.exists():
                raise SpecError(f"{spec!r}: {path.name} does not exist")
            build = _local_build(path)
            if build.framework != framework:
                raise SpecError(f"{spec!r}: the package at that path is {build.framework}, not {framework}")
            return build
        # Reported (progress, errors, a run's reports) without the URL's secret; installed with it.
        return Build(framework, index.redact(spec.strip()), spec.strip(), None, release=False)
    looks_like_path = "/" in spec or spec.endswith((".whl", ".tar.gz", ".zip")) or spec.startswith(".")
    path = Path(spec).expanduser()
    if path.exists():
        return _local_build(path.resolve())
    if looks_like_path:
        raise SpecError(f"{spec!r}: no such file or directory")
    if re.match(r"^[A-Za-z0-9._-]+$", spec):
        # A bare name: refuse, the contract wants an exact build.
        frameworks.get(spec)
        raise SpecError(f"{spec!r}: pin a release, e.g. {spec}==<version>, or give a path to a local build")
    raise SpecError(
        f"malformed spec {spec!r}; valid: NAME==VERSION (google-adk==2.13.0), a path to a checkout, "
        "wheel or sdist, or NAME @ URL"
    )
