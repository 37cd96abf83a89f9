"""A framework's history in a local clone: its release tags, the first-parent commits between two
of them, and a commit's files exported to a folder (issue 48: bisect the commits of a boundary).

Read-only on the clone: ``git archive`` exports a commit without a worktree, so the user's clone
(its worktree list, index and refs) is never written.
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from harness.planning.builds import SpecError

# A PR number as GitHub's squash and merge commits carry it: "fix(run): ... (#4071)", "Merge pull request #12 from".
PR_RE = re.compile(r"\(#(\d+)\)\s*$|^Merge pull request #(\d+)\b")
SHORT = 9  # the short id's length: the and upstream's threads quote nine (78725420e)


@dataclass(frozen=True)
class Commit:
    sha: str
    subject: str
    date: str  # the committer date in UTC, ISO 8601 with Z: when it landed on the branch
    pr: str | None  # the PR number of its subject, without '#'

    @property
    def short(self) -> str:
        return self.sha[:SHORT]

    @property
    def day(self) -> str:
        return self.date[:10]


def pr_of(subject: str) -> str | None:
    """The PR number a commit's subject names (``(#4071)`` at its end, or a merge commit's), or None."""
    m = PR_RE.search(subject.strip())
    return (m.group(1) or m.group(2)) if m else None


def _git(clone: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-C", str(clone), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SpecError(f"--commits {clone}: git {args[0]} failed: {proc.stderr.strip().splitlines()[-1:]}")
    return proc.stdout


def check_clone(clone: Path) -> Path:
    """``clone`` resolved, when it is a git repository with at least one commit; else a one-line SpecError."""
    if not clone.is_dir():
        raise SpecError(f"--commits {clone}: no such folder; give a local clone of the framework's repository")
    proc = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "--verify", "-q", "HEAD"], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise SpecError(f"--commits {clone}: not a git clone with commits; give a clone of the framework's repository")
    return clone.resolve()


def tag_of(clone: Path, version: str) -> str | None:
    """The tag of release ``version`` in the clone (``v0.19.1``, else ``0.19.1``), or None."""
    for name in (f"v{version}", version):
        proc = subprocess.run(
            ["git", "-C", str(clone), "rev-parse", "--verify", "-q", f"refs/tags/{name}^{{commit}}"],
            capture_output=True,
            text=True,
        )
        if proc.returncode == 0:
            return name
    return None


def _commit(line: str) -> Commit:
    sha, stamp, subject = line.split("\x1f", 2)
    date = datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Commit(sha, subject, date, pr_of(subject))


LOG_FORMAT = "--format=%H%x1f%cI%x1f%s"


def commit(clone: Path, ref: str) -> Commit:
    """The commit ``ref`` names."""
    return _commit(_git(clone, "log", "-1", LOG_FORMAT, f"{ref}^{{commit}}", "--").strip())


def between(clone: Path, older: str, newer: str) -> list[Commit]:
    """The first-parent commits after ``older`` up to ``newer`` (both refs), oldest first; the last
    is ``newer``'s commit. A SpecError when ``older`` is not an ancestor of ``newer`` (a release
    made on a branch of its own: no first-parent line joins them)."""
    proc = subprocess.run(
        ["git", "-C", str(clone), "merge-base", "--is-ancestor", f"{older}^{{commit}}", f"{newer}^{{commit}}"],
        capture_output=True,
    )
    if proc.returncode != 0:
        raise SpecError(
            f"--commits {clone}: {older} is not an ancestor of {newer}; bisect two tags on one line of history"
        )
    out = _git(clone, "log", "--first-parent", "--reverse", LOG_FORMAT, f"{older}..{newer}", "--")
    return [_commit(line) for line in out.splitlines() if line.strip()]


def absent(clone: Path, sha: str) -> list[str]:
    """The files of commit ``sha`` whose contents the clone does not hold (a partial or mirrored clone
    leaves its largest files out: google-adk's contributing/samples/session.json in this mirror)."""
    tree = _git(clone, "ls-tree", "-r", "-z", sha).split("\0")
    blobs = [(entry.split()[2], entry.split("\t", 1)[1]) for entry in tree if entry and entry.split()[1] == "blob"]
    proc = subprocess.run(
        ["git", "-C", str(clone), "cat-file", "--batch-check=%(objectname) %(objecttype)"],
        input="\n".join(obj for obj, _ in blobs) + "\n",
        capture_output=True,
        text=True,
    )
    missing = {line.split()[0] for line in proc.stdout.splitlines() if line.endswith(" missing")}
    return [path for obj, path in blobs if obj in missing]


def export(clone: Path, sha: str, folder: Path) -> tuple[Path, list[str]]:
    """The files of commit ``sha`` in ``folder`` (made; the clone is not written), as ``git archive``
    gives them, and the files left out because the clone does not hold them."""
    command = ["git", "-C", str(clone), "archive", "--format=tar", sha]
    proc = subprocess.run(command, capture_output=True)
    left_out: list[str] = []
    if proc.returncode != 0 and b"cannot read" in proc.stderr:
        left_out = absent(clone, sha)
        proc = subprocess.run([*command, "--", ".", *(f":(exclude,literal){p}" for p in left_out)], capture_output=True)
    if proc.returncode != 0:
        raise OSError(f"git archive {sha[:SHORT]} failed: {proc.stderr.decode(errors='replace').strip()[-300:]}")
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tf:
        tf.extractall(folder, filter="data")
    return folder, left_out


def show(clone: Path, ref: str, path: str) -> str:
    """The text of ``path`` at ``ref`` (an OSError when there is none)."""
    proc = subprocess.run(["git", "-C", str(clone), "show", f"{ref}:{path}"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise OSError(proc.stderr.strip() or f"no {path} at {ref}")
    return proc.stdout


def changed_files(clone: Path, sha: str) -> list[dict]:
    """What commit ``sha`` changed against its first parent: ``{"path", "added", "removed"}`` per file
    (``git diff --numstat``; a binary file's counts are 0), in git's order."""
    out = _git(clone, "diff", "--numstat", "--no-renames", f"{sha}^1", sha, "--")
    files = []
    for line in out.splitlines():
        added, removed, path = line.split("\t", 2)
        files.append(
            {
                "path": path,
                "added": int(added) if added.isdigit() else 0,
                "removed": int(removed) if removed.isdigit() else 0,
            }
        )
    return files


EXCERPT_LINES = 60  # of a commit's diff in the report: what a maintainer reads in a minute


def diff_excerpt(clone: Path, sha: str, paths: list[str], limit: int = EXCERPT_LINES) -> list[str]:
    """What commit ``sha`` changed in ``paths`` against its first parent, as unified diff lines
    (``---``/``+++`` per file, its hunks with 2 lines of context; git's own header lines left out),
    cut at ``limit`` lines with a last line saying how many were left out; [] for no paths."""
    if not paths:
        return []
    out = _git(clone, "diff", "-U2", "--no-renames", "--no-color", f"{sha}^1", sha, "--", *paths)
    lines = [
        line
        for line in out.splitlines()
        if not line.startswith(("diff --git ", "index ", "new file mode", "deleted file mode", "similarity "))
    ]
    if len(lines) > limit:
        lines = [*lines[: limit - 1], f"... {len(lines) - limit + 1} more lines of this commit's diff"]
    return lines
