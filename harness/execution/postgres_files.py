"""Where the PostgreSQL server's files live, so that the user it runs as can reach them.

PostgreSQL refuses to run as root, so a root run starts it as ``nobody`` (uid and gid 65534,
no other groups). That user must be able to search every folder above the binaries and the
data folder: a clone under a 0700 folder (root's home, ``mktemp -d``) holds the pgserver wheel
where ``nobody`` cannot reach it, and a private ``$TMPDIR`` would hide the data folder the same
way. So, as root:

- the data folder goes in the first of ``$TMPDIR``, /tmp, /var/tmp and /dev/shm that the server
  user can search (``base_folder``);
- the binaries are used where they are when the server user can run them, and otherwise from
  a copy of the files the server needs (``initdb``, ``postgres``, ``lib/postgresql``,
  ``share``, the wheel's bundled libraries) in ``<base>/harness-postgres-binaries/<content
  key>/``, made once and reused: the folders are root's own and writable by no one else
  (checked before every use, as pool.py checks its folder), and a copy is built in a folder
  of its own and renamed into place, so a half-made copy is never used.

A run that is not root runs the server as itself and uses everything where it is.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

SERVER_UID = SERVER_GID = 65534  # nobody / nogroup
COPIES = "harness-postgres-binaries"
# Where the data folder may go when $TMPDIR is out of the server user's reach.
SHARED_TEMP_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")


class Unreachable(OSError):
    """No place the server user can reach, or an unsafe one in the way."""


def server_ids() -> tuple[int, int] | None:
    """The (uid, gid) the server runs as: nobody's when this process is root, else None (itself)."""
    return (SERVER_UID, SERVER_GID) if os.geteuid() == 0 else None


def _grants(st: os.stat_result, bits: int) -> bool:
    """Whether the server user (uid and gid 65534, no other groups) has ``bits`` (rwx as 0o7) on a file."""
    if st.st_uid == SERVER_UID:
        return (st.st_mode >> 6) & bits == bits
    if st.st_gid == SERVER_GID:
        return (st.st_mode >> 3) & bits == bits
    return st.st_mode & bits == bits


def reachable(path: Path, bits: int = 0) -> bool:
    """Whether the server user can search every folder down to ``path`` and has ``bits`` on it."""
    path = Path(os.path.realpath(path))
    try:
        if not all(_grants(os.stat(folder), 0o1) for folder in reversed(path.parents)):
            return False
        return _grants(os.stat(path), bits)
    except OSError:
        return False


def base_folder() -> Path:
    """The folder the run's data folder is made in: $TMPDIR, unless the server user cannot reach it."""
    own = Path(tempfile.gettempdir())
    if server_ids() is None:
        return own
    for candidate in (own, *map(Path, SHARED_TEMP_FOLDERS)):
        if candidate.is_dir() and reachable(candidate, 0o1) and os.access(candidate, os.W_OK):
            return candidate
    raise Unreachable(f"none of {own}, {', '.join(SHARED_TEMP_FOLDERS)} is a folder the server user (nobody) can reach")


def _install(bin_dir: Path) -> tuple[Path, Path]:
    """(the wheel's site folder, its pginstall folder): ``initdb`` finds its bundled libpq
    through ``$ORIGIN/../../../pgserver.libs``, so a copy keeps the paths below the site folder."""
    install = bin_dir.resolve().parent
    return install.parent.parent, install


def _needed(bin_dir: Path) -> Iterator[Path]:
    """The files the server user runs or reads, in a fixed order."""
    site, install = _install(bin_dir)
    yield bin_dir.resolve() / "initdb"
    yield bin_dir.resolve() / "postgres"
    for folder in (install / "lib" / "postgresql", install / "share", site / "pgserver.libs"):
        if folder.is_dir():
            yield from sorted(p for p in folder.rglob("*") if p.is_file())


def server_binaries(bin_dir: Path) -> Path:
    """The folder of ``initdb`` and ``postgres`` the server user can run: ``bin_dir`` itself, or
    the copy of what they need in a folder it can reach (made on first need)."""
    ids = server_ids()
    site, install = _install(bin_dir)
    folders = (install / "lib" / "postgresql", install / "share")
    runnable = all(reachable(bin_dir / name, 0o5) for name in ("initdb", "postgres"))
    if ids is None or (runnable and all(reachable(f, 0o5) for f in folders if f.is_dir())):
        return bin_dir
    files = list(_needed(bin_dir))
    copies = _own_folder(base_folder() / COPIES)
    # Reading every file for its content key costs a quarter of a second; the key of files whose
    # path, size, mode and modification time are unchanged is looked up in an index instead.
    signature = hashlib.sha256()
    for path in files:
        st = os.stat(path)
        signature.update(f"{path}\0{st.st_size}\0{st.st_mode:o}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode())
    index = _own_folder(copies / "index") / signature.hexdigest()[:24]
    key = index.read_text().strip() if index.is_file() else ""
    if not re.fullmatch(r"[0-9a-f]{24}", key) or not (copies / key).is_dir():
        key = _content_key(files, site)
        if not (copies / key).exists():
            _copy(files, site, copies, copies / key)
        written = index.with_name(f".{index.name}-{os.getpid()}")
        written.write_text(key)
        written.replace(index)  # whole or not at all: another run may read it now
    _check_own(copies / key)
    return copies / key / bin_dir.resolve().relative_to(site)


def _content_key(files: list[Path], site: Path) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(f"{path.relative_to(site)}\0{os.stat(path).st_mode & 0o111:o}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def _own_folder(path: Path) -> Path:
    """``path`` as a folder of this (root) process that no one else can write, made if missing."""
    try:
        path.mkdir()
        os.chmod(path, 0o755)  # whatever the umask: the server user searches it
    except FileExistsError:
        pass
    _check_own(path)
    return path


def _check_own(path: Path) -> None:
    st = path.lstat()
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        # Someone else could have put binaries there that the server would run.
        raise Unreachable(f"{path} is not a folder of this user that no one else can write; remove it")


def _copy(files: list[Path], site: Path, copies: Path, target: Path) -> None:
    """Copy ``files`` (paths kept below ``site``) into ``target``, built aside and renamed into place."""
    for stale in copies.glob(".tmp-*"):  # a copy a killed run left half-made
        pid = stale.name.rpartition("-")[2]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(stale, ignore_errors=True)
    building = Path(tempfile.mkdtemp(prefix=f".tmp-{target.name}-", suffix=f"-{os.getpid()}", dir=copies))
    try:
        for path in files:
            into = building / path.relative_to(site)
            into.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, into)
            os.chmod(into, 0o755 if os.stat(path).st_mode & 0o111 else 0o644)
        for folder in (building, *(p for p in building.rglob("*") if p.is_dir())):
            os.chmod(folder, 0o755)  # whatever the umask: readable, writable by root alone
        try:
            building.rename(target)
        except OSError:  # another run put the same copy in place first
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
