"""The package index: a framework's releases and their upload times (PEP 691 JSON).

Responses are cached under ``.nox/.harness-cache`` for an hour, so repeated runs and
bisects do not ask the index again.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path

from harness.errors import UsageError
from harness.planning import versions

CACHE_TTL = 3600.0


def index_url() -> str:
    """The simple index uv would use (UV_DEFAULT_INDEX / UV_INDEX_URL), else PyPI. It may hold
    credentials (``https://user:secret@host/simple``): show it only through :func:`redact`."""
    for var in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"):
        if os.environ.get(var):
            return os.environ[var].rstrip("/")
    return "https://pypi.org/simple"


# The userinfo of a URL: ``user:password@`` (the password is the secret) or ``token@`` (a
# token alone in the user part, as some private indexes hand out: all of it is the secret).
_USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)(?P<user>[^/\s:@]*)(?P<password>:[^/\s@]*)?@")


def redact(text: str) -> str:
    """``text`` with the secret of every URL in it hidden: ``https://user:***@host/simple``
    (``https://***@host/simple`` for a token alone). What the harness shows of an index URL
    (progress lines, errors, an installer's message, reports) goes through this."""

    def hide(match: re.Match) -> str:
        if match.group("password") is None:
            return f"{match.group('scheme')}***@"
        return f"{match.group('scheme')}{match.group('user')}:***@"

    return _USERINFO.sub(hide, text)


def _request(url: str, accept: str | None = None) -> urllib.request.Request:
    """A request for ``url``, its userinfo (if any) sent as HTTP basic auth, as uv and pip send it:
    urllib would take ``user:secret@host`` for the host name."""
    headers = {"Accept": accept} if accept else {}
    parts = urllib.parse.urlsplit(url)
    if "@" in parts.netloc:
        userinfo, _, host = parts.netloc.rpartition("@")
        user, _, password = userinfo.partition(":")
        pair = f"{urllib.parse.unquote(user)}:{urllib.parse.unquote(password)}"
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
        url = urllib.parse.urlunsplit(parts._replace(netloc=host))
    return urllib.request.Request(url, headers=headers)


class IndexError_(UsageError, RuntimeError):
    pass


@dataclass(frozen=True)
class Release:
    version: str
    upload_time: str  # RFC 3339, the newest of the release's files
    yanked: bool
    # Its Requires-Python (a wheel's where the files differ; None where none declares one): which
    # interpreters it installs on (harness/planning/interpreters.py ``supports``).
    requires_python: str | None = None


def _fetch(name: str, cache_dir: Path) -> dict:
    cache = cache_dir / f"{name}.json"
    if cache.exists() and time.time() - cache.stat().st_mtime < CACHE_TTL:
        return json.loads(cache.read_text())
    req = _request(f"{index_url()}/{name}/", accept="application/vnd.pypi.simple.v1+json")
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            data = json.load(resp)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        if cache.exists():
            return json.loads(cache.read_text())
        # redact() the exception too: some name the URL they were given.
        raise IndexError_(redact(f"cannot read the package index for {name} at {index_url()}: {exc}")) from exc
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(cache)
    return data


def _version_of(filename: str, name: str) -> str | None:
    """The version in a wheel or sdist file name of ``name`` (``-``/``_`` spellings alike)."""
    for prefix in (name.replace("-", "_") + "-", name + "-"):
        if not filename.lower().startswith(prefix.lower()):
            continue
        rest = filename[len(prefix) :]
        if filename.endswith(".whl"):
            return rest.split("-")[0]
        for ext in (".tar.gz", ".zip"):
            if rest.endswith(ext):
                return rest[: -len(ext)]
    return None


# releases() by (name, cache folder, the cached index file's mtime): the matrix asks once per
# build, and parsing the index's JSON each time cost more than a warm run of the build.
_RELEASES: dict[tuple[str, str, int], dict[str, Release]] = {}


def releases(name: str, cache_dir: Path) -> dict[str, Release]:
    """Every release of ``name`` on the index, by version, sorted oldest first."""
    cache = cache_dir / f"{name}.json"
    try:
        fresh = time.time() - cache.stat().st_mtime < CACHE_TTL
        key = (name, str(cache_dir), cache.stat().st_mtime_ns)
    except OSError:
        fresh, key = False, None
    if fresh and key in _RELEASES:
        return dict(_RELEASES[key])
    out = _releases(name, cache_dir)
    with contextlib.suppress(OSError):
        _RELEASES[(name, str(cache_dir), cache.stat().st_mtime_ns)] = out
    return dict(out)


def _releases(name: str, cache_dir: Path) -> dict[str, Release]:
    data = _fetch(name, cache_dir)
    found: dict[str, list] = {}
    for f in data.get("files", []):
        v = _version_of(f["filename"], name)
        if v is None:
            continue
        found.setdefault(v, []).append(f)
    out = {}
    for v in sorted(found, key=versions.key):
        files = found[v]
        out[v] = Release(
            version=v,
            upload_time=max(f.get("upload-time", "") for f in files),
            yanked=all(bool(f.get("yanked")) for f in files),
            requires_python=next(
                (
                    f["requires-python"]
                    for f in sorted(files, key=lambda f: not f["filename"].endswith(".whl"))
                    if f.get("requires-python")
                ),
                None,
            ),
        )
    return out


def _file_url(name: str, url: str) -> str:
    """A file's URL from the index's page of ``name`` (PEP 691 allows a relative one), with the
    index's credentials where the file is on the index's host."""
    index = urllib.parse.urlsplit(index_url())
    full = urllib.parse.urlsplit(urllib.parse.urljoin(f"{index_url()}/{name}/", url))
    if "@" in index.netloc and "@" not in full.netloc and full.hostname == index.hostname:
        full = full._replace(netloc=index.netloc.rpartition("@")[0] + "@" + full.netloc)
    return urllib.parse.urlunsplit(full)


def download_sdist(name: str, version: str, dest: Path, cache_dir: Path) -> Path:
    """Fetch a release's source distribution into ``dest`` (to build a candidate fix from it)."""
    for f in _fetch(name, cache_dir).get("files", []):
        if _version_of(f["filename"], name) == version and f["filename"].endswith(".tar.gz"):
            target = dest / f["filename"]
            with urllib.request.urlopen(_request(_file_url(name, f["url"])), timeout=120) as resp:
                target.write_bytes(resp.read())
            return target
    raise IndexError_(f"{name} {version} has no sdist on the index")


def final_releases(name: str, cache_dir: Path) -> list[Release]:
    """The final (not pre-release), not yanked releases of ``name``, oldest version first."""
    return [r for r in releases(name, cache_dir).values() if versions.is_final(r.version) and not r.yanked]


def parse_date(text: str) -> str:
    """A date (``YYYY-MM-DD``: the end of that day, UTC) or an RFC 3339 time, as a comparable UTC string."""
    from datetime import datetime, timedelta

    try:
        if len(text) == 10:
            moment = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC) + timedelta(days=1, microseconds=-1)
        else:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
    except ValueError:
        raise IndexError_(f"malformed date {text!r}; valid: YYYY-MM-DD (e.g. 2026-01-31) or an RFC 3339 time") from None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def current_on(name: str, when: str, cache_dir: Path) -> Release:
    """The release of ``name`` a user installing on ``when`` (see :func:`parse_date`) got: the
    highest final version uploaded by then."""
    moment = parse_date(when)
    finals = final_releases(name, cache_dir)
    out = [r for r in finals if _utc(r.upload_time) <= moment]
    if not out:
        first = min(finals, key=lambda r: _utc(r.upload_time), default=None)
        since = f"; the first, {first.version}, came out on {first.upload_time[:10]}" if first else ""
        raise IndexError_(f"no final release of {name} was on the index on {when}{since}")
    return max(out, key=lambda r: versions.key(r.version))


def _utc(stamp: str) -> str:
    """An index upload time in the same comparable form as :func:`parse_date`."""
    return parse_date(stamp) if stamp else ""
