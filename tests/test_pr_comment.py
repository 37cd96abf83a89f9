"""The pull-request bot's poster (harness/commands/pr_comment.py) against a fake GitHub REST API.

The fake is a local http.server on 127.0.0.1 that serves what the poster calls: a run's
artifact list, the artifact's download (a redirect to a storage URL, as GitHub answers), a pull
request, its comments in pages of at most 100 with a Link header, and creating and editing a
comment. The evidence in the artifact is made with the harness's own summary
(harness/execution/candidate.py's ``summary``), so a change of its shape shows here. Issue 37:
"A test runs the poster's logic against a fake GitHub API (create, update in place, no post
when nothing changed)"; before, the integration posted nothing at all.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from harness.commands import pr_comment
from harness.execution.candidate import FAILING, Change, summary

ROOT = Path(__file__).resolve().parent.parent
POSTER = ROOT / "harness" / "commands" / "pr_comment.py"
REPO = "google/adk-python"
TOKEN = "test-token"
BOT = "github-actions[bot]"
RETRY = "adk-retry-same-invocation-id"
SHA_1 = "1" * 40
SHA_2 = "2" * 40


def evidence_summary(*changes: Change) -> str:
    unchanged = [Change("adk-repeated-tool-call", "across-steps", "fixed", "fixed")]
    return summary(
        "google-adk",
        "local:google_adk-2.13.0",
        "google-adk==2.13.0",
        "google-adk==2.13.0",
        [*changes, *unchanged],
        {},
    )


REGRESSION = evidence_summary(Change(RETRY, "resumable-resume", "fixed", "reproduced"))
NOTHING_CHANGED = evidence_summary()


def artifact(pull_request: str = "42", exit_status: str | None = "1", text: str | None = REGRESSION) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("pull-request", pull_request + "\n")
        if exit_status is not None:
            zf.writestr("exit-status", exit_status + "\n")
        if text is not None:
            zf.writestr("summary.md", text)
            zf.writestr("fixed/adk-retry-same-invocation-id.md", "a report the poster does not read")
    return out.getvalue()


class FakeGitHub:
    """GitHub's state as the poster sees it, and every request it made."""

    def __init__(self) -> None:
        self.heads = {42: SHA_1}
        self.comments: dict[int, list[dict]] = {42: []}
        self.artifacts: dict[int, bytes] = {}
        self.requests: list[tuple[str, str]] = []
        self.storage_authorization: list[str | None] = []
        self.next_id = 1000
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def add_comment(self, number: int, body: str, login: str) -> int:
        self.next_id += 1
        self.comments[number].append({"id": self.next_id, "body": body, "user": {"login": login}})
        return self.next_id

    def writes(self) -> list[tuple[str, str]]:
        return [r for r in self.requests if r[0] in ("POST", "PATCH")]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, status: int, payload: object = None, headers: dict | None = None, raw: bytes = b""):
                data = raw or (json.dumps(payload).encode() if payload is not None else b"")
                self.send_response(status)
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _route(self, method: str) -> None:
                url = urlsplit(self.path)
                path, query = url.path, parse_qs(url.query)
                fake.requests.append((method, path))
                if path.startswith("/storage/"):
                    fake.storage_authorization.append(self.headers.get("Authorization"))
                    return self._send(200, raw=fake.artifacts[int(path.rsplit("/", 1)[1])])
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    return self._send(401, {"message": "Bad credentials"})
                prefix = f"/repos/{REPO}"
                if not path.startswith(prefix):
                    return self._send(404, {"message": "Not Found"})
                path = path[len(prefix) :]
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"null")
                if m := re.fullmatch(r"/actions/runs/(\d+)/artifacts", path):
                    run = int(m.group(1))
                    found = [] if run not in fake.artifacts else [{"name": pr_comment.ARTIFACT, "expired": False}]
                    for a in found:
                        a["archive_download_url"] = f"{fake.url}{prefix}/actions/artifacts/{run}/zip"
                    return self._send(200, {"total_count": len(found), "artifacts": found})
                if m := re.fullmatch(r"/actions/artifacts/(\d+)/zip", path):
                    return self._send(302, headers={"Location": f"{fake.url}/storage/{m.group(1)}"})
                if m := re.fullmatch(r"/pulls/(\d+)", path):
                    number = int(m.group(1))
                    if number not in fake.heads:
                        return self._send(404, {"message": "Not Found"})
                    return self._send(200, {"number": number, "head": {"sha": fake.heads[number]}})
                if (m := re.fullmatch(r"/issues/(\d+)/comments", path)) and method == "GET":
                    all_comments = fake.comments[int(m.group(1))]
                    per_page, page = int(query["per_page"][0]), int(query.get("page", ["1"])[0])
                    headers = {}
                    if page * per_page < len(all_comments):
                        headers["Link"] = f'<{fake.url}{prefix}{path}?per_page={per_page}&page={page + 1}>; rel="next"'
                    return self._send(200, all_comments[(page - 1) * per_page : page * per_page], headers)
                if (m := re.fullmatch(r"/issues/(\d+)/comments", path)) and method == "POST":
                    comment_id = fake.add_comment(int(m.group(1)), body["body"], BOT)
                    return self._send(201, {"id": comment_id})
                if (m := re.fullmatch(r"/issues/comments/(\d+)", path)) and method == "PATCH":
                    for comments in fake.comments.values():
                        for c in comments:
                            if c["id"] == int(m.group(1)):
                                c["body"] = body["body"]
                                return self._send(200, c)
                return self._send(404, {"message": "Not Found"})

            def do_GET(self) -> None:
                self._route("GET")

            def do_POST(self) -> None:
                self._route("POST")

            def do_PATCH(self) -> None:
                self._route("PATCH")

        return Handler


@pytest.fixture
def github():
    fake = FakeGitHub()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def post(fake: FakeGitHub, run_id: int, head_sha: str = SHA_1) -> str:
    client = pr_comment.GitHub(fake.url, REPO, TOKEN)
    return pr_comment.post(client, run_id, head_sha, f"https://github.com/{REPO}/actions/runs/{run_id}", BOT)


def ours(fake: FakeGitHub) -> list[dict]:
    return [c for c in fake.comments[42] if c["body"].startswith(pr_comment.MARKER)]


def test_nothing_changed_and_no_comment_yet_posts_nothing(github):
    github.artifacts[1] = artifact(exit_status="0", text=NOTHING_CHANGED)
    assert "nothing posted" in post(github, 1)
    assert github.writes() == []


def test_a_regression_creates_one_comment_then_updates_it_in_place_back_to_no_regression(github):
    github.artifacts[1] = artifact(exit_status="1", text=REGRESSION)
    assert post(github, 1) == "pull request #42: comment created"
    [comment] = ours(github)
    assert f"`{RETRY}:resumable-resume` (fixed → reproduced)" in comment["body"]
    # Its first lines say who made the text and link the run (issue 52: a pull request can shape
    # its own comment), then the summary.
    marker, made_by, blank, heading = comment["body"].splitlines()[:4]
    assert (marker, blank) == (pr_comment.MARKER, "")
    assert made_by.startswith("<sub>Made by this pull request's own job ([the run](https://github.com/")
    assert "/actions/runs/1)" in made_by and heading.startswith("## agent-bug-harness")
    assert "last changed at 111111111111" in comment["body"]

    # The same verdicts on the next push: the comment is left as it is.
    github.heads[42] = SHA_2
    github.artifacts[2] = artifact(exit_status="1", text=REGRESSION)
    assert "left as it is" in post(github, 2, SHA_2)
    assert [w[0] for w in github.writes()] == ["POST"]

    # Fixed again: the one comment now says no regression.
    github.artifacts[3] = artifact(exit_status="0", text=NOTHING_CHANGED)
    assert post(github, 3, SHA_2) == f"pull request #42: comment {comment['id']} updated"
    [comment] = ours(github)
    assert f"**{FAILING}:** none." in comment["body"]
    assert "last changed at 222222222222" in comment["body"]
    assert [w[0] for w in github.writes()] == ["POST", "PATCH"]


def test_the_marker_is_found_among_other_comments_on_a_later_page(github):
    for i in range(150):
        github.add_comment(42, f"review comment {i}", "a-reviewer")
    # Someone quoting the marker is not the bot: its comment is not edited.
    github.add_comment(42, pr_comment.MARKER + "\nquoted by a person", "a-reviewer")
    first = github.add_comment(42, pr_comment.MARKER + "\nold verdicts", BOT)
    github.artifacts[1] = artifact(exit_status="1", text=REGRESSION)
    assert post(github, 1) == f"pull request #42: comment {first} updated"
    pages = [p for m, p in github.requests if m == "GET" and p.endswith("/issues/42/comments")]
    assert len(pages) == 2
    assert github.writes() == [("PATCH", f"/repos/{REPO}/issues/comments/{first}")]
    assert "quoted by a person" in github.comments[42][150]["body"]


def test_a_run_that_could_not_judge_is_posted_without_a_summary(github):
    github.artifacts[1] = artifact(exit_status="2", text=None)
    assert post(github, 1) == "pull request #42: comment created"
    [comment] = ours(github)
    assert "could not judge this pull request** (exit 2; bad input" in comment["body"]


def test_the_artifact_is_fetched_from_storage_without_the_token(github):
    github.artifacts[1] = artifact()
    post(github, 1)
    assert github.storage_authorization == [None]


def test_a_number_that_is_not_the_runs_pull_request_posts_nothing(github):
    github.heads[7] = "7" * 40
    github.comments[7] = []
    github.artifacts[1] = artifact(pull_request="7")
    assert "head is not 111111111111" in post(github, 1)
    assert github.writes() == []


@pytest.mark.parametrize("number", ["42; rm -rf /", "../42", "-1", "0", "", "4" * 12, "42\n43"])
def test_a_pull_request_number_that_is_not_an_integer_is_refused(github, number):
    github.artifacts[1] = artifact(pull_request=number)
    with pytest.raises(pr_comment.Refused):
        post(github, 1)
    assert github.writes() == []


def run_poster(fake: FakeGitHub, run_id: int, **overrides: str) -> subprocess.CompletedProcess:
    """The poster as the companion workflow runs it: by path, isolated (-I), standard library only."""
    env = {
        "PATH": os.environ["PATH"],
        "GITHUB_API_URL": fake.url,
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_TOKEN": TOKEN,
        "RUN_ID": str(run_id),
        "HEAD_SHA": SHA_1,
        "RUN_URL": f"https://github.com/{REPO}/actions/runs/{run_id}",
        **overrides,
    }
    return subprocess.run([sys.executable, "-I", "-S", str(POSTER)], env=env, capture_output=True, text=True)


def test_the_companion_runs_the_poster_by_path_with_the_standard_library_only(github):
    github.artifacts[5] = artifact()
    done = run_poster(github, 5)
    assert (done.returncode, done.stdout.strip()) == (0, "pull request #42: comment created"), done.stderr
    assert len(ours(github)) == 1


def test_the_poster_exits_2_on_a_bad_artifact_or_environment_and_1_when_github_refuses(github):
    github.artifacts[5] = artifact(pull_request="x")
    bad = run_poster(github, 5)
    assert bad.returncode == 2 and "not a pull request number" in bad.stderr
    assert run_poster(github, 5, RUN_ID="5 OR 1").returncode == 2
    assert run_poster(github, 9).returncode == 2  # the run has no artifact
    github.artifacts[6] = artifact()
    refused = run_poster(github, 6, GITHUB_TOKEN="wrong")
    assert refused.returncode == 1 and "HTTP 401" in refused.stderr


def test_a_long_summary_is_cut_below_githubs_limit():
    evidence = pr_comment.Evidence(42, 1, "x" * 200_000)
    text = pr_comment.body(evidence, SHA_1, "https://example.invalid/run")
    assert len(text) < 65_536
    assert "cut at 60,000 of 200,000 characters" in text


EXAMPLE = ROOT / "docs" / "framework-pr-summary-example.md"


def test_the_example_summary_in_docs_agrees_with_itself():
    """Issue 37: docs/framework-pr-summary-example.md listed two retry cases as fixed by the
    candidate while its table said "unchanged", and said "save the script below" with no script."""
    text = EXAMPLE.read_text().split("-->", 1)[1]  # the page without its note on how it was made
    listed = dict(re.findall(r"^- `([^`]+)` \((\w+ → \w+)\)(?:: regressed|: changed)?$", text, re.MULTILINE))
    assert listed, "the example lists no changed case"
    rows = {}
    for block in text.split("<summary>")[1:]:
        scenario = block.split(":", 1)[0]
        for case, change in re.findall(
            r"^\| `([^`]+)`[^|]*\|.*\| ([^|]+) \| `repro\.py [^`]+` \|$", block, re.MULTILINE
        ):
            rows[f"{scenario}:{case}"] = change.strip()
    for case, change in listed.items():
        assert rows.get(case) == change, f"{case}: the summary says {change}, its table {rows.get(case)}"
    for tail in text.split("save the script below")[1:]:
        # The commands that run it come first (per case, nested), the checkout's one, then the
        # script itself, folded.
        assert re.match(
            r"[^\n]*\n\n((  )?- [^\n]+\n)+\n([^\n<][^\n]*\n\n)?"
            r"<details>\n<summary>repro\.py \(\d+ lines\)</summary>\n\n```python\n",
            tail,
        )
