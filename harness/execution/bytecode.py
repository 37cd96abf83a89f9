"""Bytecode compiled once per distinct file, shared by every environment that has the file.

uv links an environment's files from its cache, so most of a release's packages are the same
files (the same inodes) in every environment that installs them: ``pydantic/main.py`` has one
inode across the record's builds. Python writes a module's bytecode beside its source
(``__pycache__/main.cpython-311.pyc``) and accepts it in any folder whose source has the mtime
and size the bytecode records, which hard links share; it rewrites the code's file name to
the importing path on load (``_imp._fix_co_filename``). So the bytecode one environment
compiled is valid in the next, and linking it there saves the next first import its compile.

The store is a folder of hard links named by the source's inode, mtime and size
(``Project.cache / "bytecode"``): ``harvest`` adds what an environment's first run compiled,
``share_into`` links the stored bytecode into a newly built environment before its first run.
Both skip what they cannot link (another file system, a race with another build): the cost of
a miss is a compile, as before.

Other releases of a package are other files, though many of their modules are the same text
(google-adk 1.16.0's environment after 1.15.1's: 721 of the sources its cases import are the
same files, 1,401 more the same text in other files, 857 really differ; its first run took
18.3 s with the text shared instead of 22.7 s, a second run 12.3 s).
So the store also keeps each bytecode file under its source's size and SHA-256
(``content/``): a source of the new environment with no stored bytecode of its own gets a copy
of the bytecode of the same text, its header's mtime set to its own (PEP 552: the header holds
the source's mtime and size; the code does not depend on the file's name or place).
"""

from __future__ import annotations

import hashlib
import os
import struct
from pathlib import Path

CONTENT = "content"  # the store's folder of bytecode by source text: <size>-<sha256>.<tag>.pyc
HEADER = 16  # magic, flags, source mtime, source size (PEP 552)


def _site_packages(env_path: Path) -> list[Path]:
    return sorted(env_path.glob("lib/python3*/site-packages"))


def _key(stat: os.stat_result) -> str:
    return f"{stat.st_dev:x}-{stat.st_ino:x}-{stat.st_mtime_ns:x}-{stat.st_size:x}"


def _content_key(source: Path, size: int) -> str:
    return f"{size:x}-{hashlib.sha256(source.read_bytes()).hexdigest()}"


def _retimed(pyc: bytes, stat: os.stat_result) -> bytes | None:
    """The bytecode with its header naming the source ``stat`` (None if not timestamp-based)."""
    if len(pyc) < HEADER or struct.unpack("<I", pyc[4:8])[0] != 0:
        return None  # hash-based bytecode (flags set): left alone
    return pyc[:8] + struct.pack("<II", int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size & 0xFFFFFFFF) + pyc[HEADER:]


def _tag(site_packages: Path) -> str:
    """``cpython-311`` for ``lib/python3.11/site-packages``."""
    return "cpython-" + site_packages.parent.name.removeprefix("python").replace(".", "")


def harvest(env_path: Path, store: Path) -> int:
    """Link every bytecode file of the environment's packages into the store; how many were new."""
    added = 0
    (store / CONTENT).mkdir(parents=True, exist_ok=True)
    for site in _site_packages(env_path):
        for folder, _dirs, files in os.walk(site):
            if not folder.endswith("__pycache__"):
                continue
            parent = Path(folder).parent
            for name in files:
                stem, _, rest = name.partition(".")
                if not rest.endswith(".pyc"):
                    continue
                try:
                    source = parent / f"{stem}.py"
                    stat = os.stat(source)
                    os.link(Path(folder) / name, store / f"{_key(stat)}.{rest}")
                    added += 1
                except OSError:  # no source (a namespace stub), already stored, another file system
                    continue
                try:  # the same text in another file (another release of the package) can use it too
                    os.link(Path(folder) / name, store / CONTENT / f"{_content_key(source, stat.st_size)}.{rest}")
                except OSError:
                    continue
    return added


def share_into(env_path: Path, store: Path) -> int:
    """Give every source of the environment the bytecode stored for it (a hard link: the same
    file as in an earlier environment) or for its text (a copy, retimed); how many got one."""
    if not store.is_dir():
        return 0
    stored = set(os.listdir(store))
    by_text = set(os.listdir(store / CONTENT)) if (store / CONTENT).is_dir() else set()
    # Only a source whose size some stored text has is hashed: most files are never imported.
    sizes = {name.partition("-")[0] for name in by_text}
    shared = 0
    for site in _site_packages(env_path):
        suffix = f"{_tag(site)}.pyc"
        for folder, _dirs, files in os.walk(site):
            if folder.endswith("__pycache__"):
                continue
            cache = Path(folder) / "__pycache__"
            for name in files:
                if not name.endswith(".py"):
                    continue
                source, target = Path(folder) / name, cache / f"{name[:-3]}.{suffix}"
                try:
                    stat = os.stat(source)
                    entry = f"{_key(stat)}.{suffix}"
                    if entry in stored:
                        cache.mkdir(exist_ok=True)
                        os.link(store / entry, target)
                        shared += 1
                    elif f"{stat.st_size:x}" in sizes:
                        text = f"{_content_key(source, stat.st_size)}.{suffix}"
                        if text in by_text and _write_retimed(store / CONTENT / text, stat, target):
                            shared += 1
                except OSError:
                    continue
    return shared


def _write_retimed(stored: Path, stat: os.stat_result, target: Path) -> bool:
    """Write the stored bytecode of the same text at ``target`` for a source with ``stat``."""
    pyc = _retimed(stored.read_bytes(), stat)
    if pyc is None:
        return False
    target.parent.mkdir(exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    partial.write_bytes(pyc)
    os.replace(partial, target)  # whole or absent, as Python's own writes
    return True
