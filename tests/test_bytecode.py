"""Bytecode shared across environments by hard links (harness/execution/bytecode.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from harness.execution import bytecode

TAG = f"cpython-{sys.version_info.major}{sys.version_info.minor}"


def site(env):
    path = env / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    path.mkdir(parents=True)
    return path


def test_bytecode_compiled_in_one_environment_is_linked_into_the_next_and_used(tmp_path):
    one, two, store = tmp_path / "one", tmp_path / "two", tmp_path / "store"
    a, b = site(one), site(two)
    (a / "pkg").mkdir()
    (a / "pkg" / "mod.py").write_text("VALUE = 42\n")
    (b / "pkg").mkdir()
    os.link(a / "pkg" / "mod.py", b / "pkg" / "mod.py")  # as uv links both from its cache
    (b / "pkg" / "own.py").write_text("OTHER = 1\n")  # a file of this environment only
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", "import pkg.mod"], cwd=a, env=env, check=True)
    assert bytecode.harvest(one, store) == 1
    assert bytecode.harvest(one, store) == 0  # already stored
    assert bytecode.share_into(two, store) == 1
    linked = b / "pkg" / "__pycache__" / f"mod.{TAG}.pyc"
    assert linked.stat().st_ino == (a / "pkg" / "__pycache__" / f"mod.{TAG}.pyc").stat().st_ino
    assert not (b / "pkg" / "__pycache__" / f"own.{TAG}.pyc").exists()
    # Python takes the linked bytecode as valid: importing does not rewrite it.
    out = subprocess.run(
        [sys.executable, "-c", "import pkg.mod; print(pkg.mod.VALUE, pkg.mod.__file__)"],
        cwd=b,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["42", str(b / "pkg" / "mod.py")]
    stored = [n for n in os.listdir(store) if n != bytecode.CONTENT]
    assert linked.stat().st_ino == (store / stored[0]).stat().st_ino


def test_the_same_text_in_another_file_gets_a_retimed_copy_that_python_accepts(tmp_path):
    """Another release of a package: other files, mostly the same text (issue 27)."""
    one, two, store = tmp_path / "one", tmp_path / "two", tmp_path / "store"
    a, b = site(one), site(two)
    (a / "m.py").write_text("X = 1\n")
    (b / "m.py").write_text("X = 1\n")  # equal text, another file (its own inode and mtime)
    os.utime(b / "m.py", (1_700_000_000, 1_700_000_000))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", "import m"], cwd=a, env=env, check=True)
    bytecode.harvest(one, store)
    assert bytecode.share_into(two, store) == 1
    copied = b / "__pycache__" / f"m.{TAG}.pyc"
    assert copied.stat().st_ino != (a / "__pycache__" / f"m.{TAG}.pyc").stat().st_ino
    written = copied.stat().st_mtime_ns
    out = subprocess.run(
        [sys.executable, "-c", "import m; print(m.X, m.__file__)"], cwd=b, env=env, capture_output=True, text=True
    )
    assert out.stdout.split() == ["1", str(b / "m.py")]
    assert copied.stat().st_mtime_ns == written  # accepted as it is: not compiled again


def test_an_edited_source_gets_no_stale_bytecode(tmp_path):
    one, two, store = tmp_path / "one", tmp_path / "two", tmp_path / "store"
    a, b = site(one), site(two)
    (a / "m.py").write_text("X = 1\n")
    (b / "m.py").write_text("X = 2\n")  # the same size, other text: no bytecode of it is stored
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", "import m"], cwd=a, env=env, check=True)
    bytecode.harvest(one, store)
    assert bytecode.share_into(two, store) == 0
    out = subprocess.run([sys.executable, "-c", "import m; print(m.X)"], cwd=b, env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["2"]
