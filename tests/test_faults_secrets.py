"""Issue 34, fault "an index URL with a password is printed whole": an index URL with credentials
(UV_INDEX_URL / UV_DEFAULT_INDEX / PIP_INDEX_URL, or a direct reference ``NAME @ https://...``) is
shown only through harness/planning/index.py ``redact`` (``https://user:***@host/simple``): in the
index's error, in an installer's error, in a build's reported source.

Before the fix the error of an unreachable index read "cannot read the package index for google-adk
at https://user:secret@127.0.0.1:9/simple: ...", and an index with credentials could not be read at
all (urllib took ``user:secret@host`` for the host name: "Name or service not known").
"""

from __future__ import annotations

import base64
import http.server
import json
import sys
import threading

import pytest

from harness.execution import environments
from harness.planning import builds, index


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("https://user:secret@host/simple", "https://user:***@host/simple"),
        ("https://token@pypi.example/simple", "https://***@pypi.example/simple"),  # a token alone is the secret
        ("https://user:@host/simple", "https://user:***@host/simple"),
        ("https://pypi.org/simple", "https://pypi.org/simple"),
        ("error: at https://a:b@h/x and http://c:d@e:8080/y", "error: at https://a:***@h/x and http://c:***@e:8080/y"),
        ("mail user@example.com, no URL", "mail user@example.com, no URL"),
        (
            "google-adk @ https://u:p%40ss@h/google_adk-1.0-py3-none-any.whl",
            "google-adk @ https://u:***@h/google_adk-1.0-py3-none-any.whl",
        ),
    ],
)
def test_redact_hides_the_secret_of_every_url(text, shown):
    assert index.redact(text) == shown


def test_an_unreachable_index_is_named_without_its_password(tmp_path, monkeypatch):
    monkeypatch.setenv("UV_DEFAULT_INDEX", "https://user:secret@127.0.0.1:9/simple")  # port 9: nothing listens
    with pytest.raises(index.IndexError_) as caught:
        index.releases("google-adk", tmp_path)
    assert "secret" not in str(caught.value)
    assert "https://user:***@127.0.0.1:9/simple" in str(caught.value)


def test_an_index_with_credentials_is_read_with_them(tmp_path, monkeypatch):
    """The userinfo goes as HTTP basic auth (as uv and pip send it), not into the host name."""
    seen = []

    class Index(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append((self.path, self.headers.get("Authorization")))
            body = json.dumps(
                {"files": [{"filename": "google_adk-9.0.0.tar.gz", "upload-time": "2026-01-01T00:00:00Z"}]}
            )
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.pypi.simple.v1+json")
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Index)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("UV_DEFAULT_INDEX", f"http://user:p%40ss@127.0.0.1:{server.server_port}/simple")
        assert list(index.releases("google-adk", tmp_path)) == ["9.0.0"]
    finally:
        server.shutdown()
    assert seen == [("/simple/google-adk/", "Basic " + base64.b64encode(b"user:p@ss").decode())]


def test_an_installer_error_is_shown_without_the_password():
    url = "https://user:secret@host/simple"
    script = f"import sys; sys.stderr.write('error: Failed to fetch {url}/google-adk/'); sys.exit(2)"
    with pytest.raises(environments.BuildFailed) as caught:
        environments._run([sys.executable, "-c", script])
    assert str(caught.value) == "error: Failed to fetch https://user:***@host/simple/google-adk/"


def test_a_direct_reference_is_reported_without_its_password(tmp_path):
    spec = "google-adk @ https://user:secret@host/google_adk-9.0.0-py3-none-any.whl"
    build = builds.parse(spec, tmp_path)
    assert build.source == "google-adk @ https://user:***@host/google_adk-9.0.0-py3-none-any.whl"
    assert build.requirement == spec  # uv still gets the credentials
