"""The default release set of each framework, kept as data: edit ``DEFAULT_SETS`` to extend.

Rules are resolved against the package index, so a new patch or minor release joins the
default matrix by itself (and is compared with the nearest earlier release's snapshot).
"""

from __future__ import annotations

from pathlib import Path

from harness.planning import index, versions

# framework -> rules. "minors_from": the latest final patch of every minor line from
# that version on; "last_of_major": the last final release of each listed major line; "also":
# releases kept by name, with the reason beside them.
DEFAULT_SETS: dict[str, dict] = {
    "google-adk": {"minors_from": "2.0", "last_of_major": [1]},
    # 0.0.3: where the worker's environment once gave a verdict a standalone `uv run` could not (it
    # set OPENAI_API_KEY="" and the client built; issue 45); tests/test_published_commands.py runs it.
    "openai-agents": {"minors_from": "0.6", "last_of_major": [], "also": ["0.0.3"]},
}


def default_versions(framework: str, cache_dir: Path) -> list[str]:
    """The releases ``nox -s matrix`` runs for ``framework``, oldest first."""
    rules = DEFAULT_SETS[framework]
    finals = [
        r.version
        for r in index.releases(framework, cache_dir).values()
        if not r.yanked and versions.is_final(r.version)
    ]
    chosen: dict[tuple[int, int], str] = {}
    floor = versions.minor(rules["minors_from"])
    for v in finals:
        if versions.minor(v) >= floor:
            chosen[versions.minor(v)] = max(chosen.get(versions.minor(v), v), v, key=versions.key)
    picked = set(chosen.values())
    for major in rules.get("last_of_major", []):
        line = [v for v in finals if versions.minor(v)[0] == major]
        if line:
            picked.add(max(line, key=versions.key))
    picked |= set(rules.get("also", [])) & set(finals)
    return sorted(picked, key=versions.key)


def kept_by_name(framework: str) -> list[str]:
    """The releases the default set of ``framework`` names outright ("also")."""
    return list(DEFAULT_SETS[framework].get("also", []))
