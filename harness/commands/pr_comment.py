"""The pull-request comment of the harness's evidence: one per pull request, kept up to date.

What the companion workflow (.github/workflows/framework-pr-comment.yml, on ``workflow_run``)
runs after the reusable workflow (framework-pr.yml) judged a pull request::

    python3 -I harness/harness/commands/pr_comment.py

Standard library only, run by path: the poster installs nothing and runs no code of the pull
request. It downloads the run's ``harness-evidence`` artifact through the GitHub REST API and
reads three files of it, all written by the untrusted build and so checked here: ``summary.md``
(the harness's summary, posted as text), ``pull-request`` (the number, an integer, of a pull
request whose head is the commit the run built) and ``exit-status`` (the harness's exit status).

One comment per pull request, found by MARKER among all its comments (every page): created
when the verdicts first differ from the baseline's (a case fixed, regressed or otherwise
changed, or a run that could not judge), edited in place when they change (back to "no
regression" included), left alone when they did not, and never created for a pull request on
which nothing changed. Exit 0 when it did what it should (posting nothing included); 1 when
GitHub refused; 2 when the artifact or the environment is not what it should be.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from http.client import HTTPMessage
from typing import IO, Any

MARKER = "<!-- agent-bug-harness -->"
ARTIFACT = "harness-evidence"
# GitHub refuses a comment over 65,536 characters; the summary is cut before that, saying so.
MAX_SUMMARY = 60_000
# The artifact is the untrusted build's: only the three files are read, each bounded.
MAX_FILE_BYTES = 2_000_000
FOOTER_START = "\n\n<sub>agent-bug-harness"
# A case in the summary's lists: "- `scenario:case` (before → after)".
CHANGE_LINE = re.compile(r"^- `[^`\n]+:[^`\n]+` \(", re.MULTILINE)


class Refused(Exception):
    """The artifact or the environment is not what the poster can trust (exit 2)."""


class GitHubError(Exception):
    """GitHub answered a request with an error (exit 1)."""


@dataclass(frozen=True)
class Evidence:
    pull_request: int
    exit_status: int | None  # None: the build did not say (it stopped before the harness ended)
    summary: str | None  # None: the harness wrote no summary (bad input, or it stopped)

    @property
    def changed(self) -> bool:
        """The verdicts differ from the baseline's, or the run could not judge: worth a comment."""
        if self.exit_status != 0 or self.summary is None:
            return True
        return bool(CHANGE_LINE.search(self.summary))


def verdict_text(evidence: Evidence) -> str:
    """The comment's body without its footer: what decides whether the comment changes."""
    if evidence.summary is None:
        status = "an unknown status" if evidence.exit_status is None else f"exit {evidence.exit_status}"
        why = "bad input: the harness refused the build" if evidence.exit_status == 2 else "the run stopped early"
        headline = "**agent-bug-harness could not judge this pull request**"
        return f"{MARKER}\n{headline} ({status}; {why}): no summary was written."
    summary = evidence.summary.strip()
    if len(summary) > MAX_SUMMARY:
        summary = summary[:MAX_SUMMARY] + (
            f"\n\n… cut at {MAX_SUMMARY:,} of {len(summary):,} characters; "
            f"the whole summary is in the run's `{ARTIFACT}` artifact."
        )
    return f"{MARKER}\n{summary}"


# The comment's first line under the marker: who made its text. The summary is the pull
# request's own job's output (its code ran there), so a pull request can shape what it says.
PROVENANCE_START = "<sub>Made by this pull request's own job"


def provenance(run_url: str) -> str:
    return (
        f"{PROVENANCE_START} ([the run]({run_url})): the text below is that run's summary, "
        "posted as text by agent-bug-harness's poster; the run's code is the pull request's.</sub>"
    )


def body(evidence: Evidence, head_sha: str, run_url: str) -> str:
    verdict = verdict_text(evidence).removeprefix(f"{MARKER}\n")
    footer = f"{FOOTER_START}: last changed at {head_sha[:12]}, [the run]({run_url}).</sub>\n"
    return f"{MARKER}\n{provenance(run_url)}\n\n{verdict}{footer}"


def without_footer(text: str) -> str:
    """A posted comment's verdict text: without its footer and its provenance line (both name the
    run, which changes with every run; the verdicts decide whether the comment changes)."""
    text = text.split(FOOTER_START, 1)[0]
    head, sep, rest = text.partition("\n")
    if rest.startswith(PROVENANCE_START):
        rest = rest.partition("\n\n")[2]
    return head + sep + rest


def parse_pull_request(text: str) -> int:
    """The pull request's number as the build wrote it: digits only, nothing else trusted."""
    text = text.strip()
    if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) == 0:
        raise Refused(f"the artifact's pull-request file is not a pull request number: {text[:40]!r}")
    return int(text)


def parse_exit_status(text: str | None) -> int | None:
    if text is None or not re.fullmatch(r"[0-9]{1,3}", text.strip()):
        return None
    return int(text.strip())


def read_evidence(archive: bytes) -> Evidence:
    """The three files the poster reads from the artifact's zip (summary.md at its top or one folder down)."""
    try:
        members = zipfile.ZipFile(io.BytesIO(archive))
    except zipfile.BadZipFile as error:
        raise Refused(f"the {ARTIFACT} artifact is not a zip archive: {error}") from None
    by_name = {info.filename: info for info in members.infolist() if not info.is_dir()}

    def read(name: str) -> str | None:
        info = by_name.get(name)
        if info is None:
            return None
        if info.file_size > MAX_FILE_BYTES:
            raise Refused(f"{name} in the {ARTIFACT} artifact is over {MAX_FILE_BYTES:,} bytes")
        return members.read(info)[:MAX_FILE_BYTES].decode("utf-8", errors="replace")

    number = read("pull-request")
    if number is None:
        raise Refused(f"the {ARTIFACT} artifact has no pull-request file (the run was not a pull request's)")
    nested = sorted(n for n in by_name if n.count("/") == 1 and n.endswith("/summary.md"))
    summary = read("summary.md") if "summary.md" in by_name else (read(nested[0]) if len(nested) == 1 else None)
    return Evidence(parse_pull_request(number), parse_exit_status(read("exit-status")), summary)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # The artifact's download answers with a redirect to storage: followed without the token.
    def redirect_request(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: HTTPMessage, newurl: str
    ) -> urllib.request.Request | None:
        return None


class GitHub:
    """The few REST calls the poster makes, with urllib."""

    def __init__(self, api_url: str, repository: str, token: str) -> None:
        self.api = api_url.rstrip("/")
        self.repository = repository
        self.token = token
        self._opener = urllib.request.build_opener(_NoRedirect)

    def _request(self, method: str, url: str, payload: dict | None = None) -> tuple[bytes, dict[str, str]]:
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("X-GitHub-Api-Version", "2022-11-28")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with self._opener.open(request, timeout=60) as response:
                return response.read(), dict(response.headers)
        except urllib.error.HTTPError as error:
            if error.code in (301, 302, 303, 307, 308) and error.headers.get("Location"):
                return b"", {"Location": error.headers["Location"]}
            detail = error.read()[:300].decode("utf-8", errors="replace")
            raise GitHubError(f"{method} {url}: HTTP {error.code}: {detail}") from None
        except urllib.error.URLError as error:
            raise GitHubError(f"{method} {url}: {error.reason}") from None

    def _json(self, method: str, path: str, payload: dict | None = None) -> tuple[Any, dict[str, str]]:
        url = path if path.startswith(("http://", "https://")) else f"{self.api}/repos/{self.repository}{path}"
        raw, headers = self._request(method, url, payload)
        return (json.loads(raw) if raw else None), headers

    def artifact(self, run_id: int) -> bytes:
        listing, _ = self._json("GET", f"/actions/runs/{run_id}/artifacts?name={ARTIFACT}&per_page=100")
        found = [a for a in (listing or {}).get("artifacts", []) if a.get("name") == ARTIFACT and not a.get("expired")]
        if not found:
            raise Refused(f"run {run_id} has no {ARTIFACT} artifact")
        raw, headers = self._request("GET", found[0]["archive_download_url"])
        if "Location" in headers:  # storage's signed URL: no Authorization header goes there
            with urllib.request.urlopen(headers["Location"], timeout=120) as response:
                raw = response.read()
        return raw

    def pull_request_head(self, number: int) -> str:
        pull, _ = self._json("GET", f"/pulls/{number}")
        return str(pull["head"]["sha"])

    def comments(self, number: int) -> list[dict]:
        """Every comment of the pull request, following the Link header's pages."""
        url: str | None = f"/issues/{number}/comments?per_page=100"
        found: list[dict] = []
        while url:
            page, headers = self._json("GET", url)
            found += page
            links = headers.get("Link") or headers.get("link") or ""
            url = next((m.group(1) for m in re.finditer(r'<([^>]+)>;\s*rel="next"', links)), None)
        return found

    def create(self, number: int, text: str) -> None:
        self._json("POST", f"/issues/{number}/comments", {"body": text})

    def update(self, comment_id: int, text: str) -> None:
        self._json("PATCH", f"/issues/comments/{int(comment_id)}", {"body": text})


def ours(comments: list[dict], author: str) -> dict | None:
    """The harness's comment: the first with the marker at its start, written by the poster's account."""
    return next(
        (
            c
            for c in comments
            if str(c.get("body", "")).startswith(MARKER) and (c.get("user") or {}).get("login") == author
        ),
        None,
    )


def post(github: GitHub, run_id: int, head_sha: str, run_url: str, author: str) -> str:
    """Download the run's evidence and create, update or leave the comment; returns what it did."""
    evidence = read_evidence(github.artifact(run_id))
    number = evidence.pull_request
    # The number is the untrusted build's word: it must name a pull request whose head is the
    # commit this run built (a newer push has a run of its own, which will post).
    if github.pull_request_head(number) != head_sha:
        return (
            f"pull request #{number}'s head is not {head_sha[:12]} (a newer commit, or not this run's): nothing posted"
        )
    existing = ours(github.comments(number), author)
    text = body(evidence, head_sha, run_url)
    if existing is None:
        if not evidence.changed:
            return f"pull request #{number}: nothing changed and no comment yet: nothing posted"
        github.create(number, text)
        return f"pull request #{number}: comment created"
    if without_footer(str(existing.get("body", ""))) == verdict_text(evidence):
        return f"pull request #{number}: verdicts as in the comment: left as it is"
    github.update(int(existing["id"]), text)
    return f"pull request #{number}: comment {existing['id']} updated"


def _environment(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise Refused(f"{name} is not set (the companion workflow sets it)")
    return value


def main() -> int:
    try:
        run_id_text = _environment("RUN_ID")
        if not run_id_text.isdigit():
            raise Refused(f"RUN_ID is not a run id: {run_id_text[:40]!r}")
        github = GitHub(
            os.environ.get("GITHUB_API_URL", "https://api.github.com"),
            _environment("GITHUB_REPOSITORY"),
            _environment("GITHUB_TOKEN"),
        )
        head_sha = _environment("HEAD_SHA")
        if not re.fullmatch(r"[0-9a-f]{40}", head_sha):
            raise Refused(f"HEAD_SHA is not a commit: {head_sha[:50]!r}")
        author = os.environ.get("COMMENT_AUTHOR", "github-actions[bot]")
        print(post(github, int(run_id_text), head_sha, _environment("RUN_URL"), author))
        return 0
    except Refused as error:
        print(f"pr_comment: {error}", file=sys.stderr)
        return 2
    except GitHubError as error:
        print(f"pr_comment: GitHub refused: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
