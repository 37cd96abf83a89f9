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
    assert linked.stat().st_ino == (store / os.listdir(store)[0]).stat().st_ino


def test_an_edited_source_gets_no_stale_bytecode(tmp_path):
    one, two, store = tmp_path / "one", tmp_path / "two", tmp_path / "store"
    a, b = site(one), site(two)
    (a / "m.py").write_text("X = 1\n")
    (b / "m.py").write_text("X = 1\n")  # equal text, another file: never linked
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", "import m"], cwd=a, env=env, check=True)
    bytecode.harvest(one, store)
    assert bytecode.share_into(two, store) == 0
