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
"""

from __future__ import annotations

import os
from pathlib import Path


def _site_packages(env_path: Path) -> list[Path]:
    return sorted(env_path.glob("lib/python3*/site-packages"))


def _key(stat: os.stat_result) -> str:
    return f"{stat.st_dev:x}-{stat.st_ino:x}-{stat.st_mtime_ns:x}-{stat.st_size:x}"


def _tag(site_packages: Path) -> str:
    """``cpython-311`` for ``lib/python3.11/site-packages``."""
    return "cpython-" + site_packages.parent.name.removeprefix("python").replace(".", "")


def harvest(env_path: Path, store: Path) -> int:
    """Link every bytecode file of the environment's packages into the store; how many were new."""
    added = 0
    store.mkdir(parents=True, exist_ok=True)
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
                    key = _key(os.stat(parent / f"{stem}.py"))
                    os.link(Path(folder) / name, store / f"{key}.{rest}")
                    added += 1
                except OSError:  # no source (a namespace stub), already stored, another file system
                    continue
    return added


def share_into(env_path: Path, store: Path) -> int:
    """Link the stored bytecode of every source the environment shares with an earlier one."""
    if not store.is_dir():
        return 0
    stored = set(os.listdir(store))
    linked = 0
    for site in _site_packages(env_path):
        suffix = f"{_tag(site)}.pyc"
        for folder, _dirs, files in os.walk(site):
            if folder.endswith("__pycache__"):
                continue
            cache = Path(folder) / "__pycache__"
            for name in files:
                if not name.endswith(".py"):
                    continue
                try:
                    entry = f"{_key(os.stat(Path(folder) / name))}.{suffix}"
                    if entry not in stored:
                        continue
                    cache.mkdir(exist_ok=True)
                    os.link(store / entry, cache / f"{name[:-3]}.{suffix}")
                    linked += 1
                except OSError:
                    continue
    return linked
