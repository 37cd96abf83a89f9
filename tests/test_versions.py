"""Version order is PEP 440's (packaging.version): post, pre and dev releases included.

The nearest-earlier snapshot rule, bisect's release lists and the reports' release lines
all sort with ``harness.versions.key``; a wrong order there makes a release be compared
with the wrong snapshot or a boundary be reported at the wrong release.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from packaging.version import Version

from harness.planning import versions

release = st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=4).map(
    lambda xs: ".".join(map(str, xs))
)
pre = st.one_of(
    st.just(""), st.tuples(st.sampled_from(["a", "b", "rc"]), st.integers(0, 5)).map(lambda t: f"{t[0]}{t[1]}")
)
post = st.one_of(st.just(""), st.integers(0, 5).map(lambda n: f".post{n}"))
dev = st.one_of(st.just(""), st.integers(0, 5).map(lambda n: f".dev{n}"))
pep440 = st.tuples(release, pre, post, dev).map("".join)


@given(st.lists(pep440, min_size=2, max_size=12))
def test_order_is_packagings_on_generated_versions(vs):
    assert [Version(v) for v in sorted(vs, key=versions.key)] == sorted(Version(v) for v in vs)


@given(pep440)
def test_final_means_not_pre_not_dev(v):
    parsed = Version(v)
    assert versions.is_final(v) == (not parsed.is_prerelease and not parsed.is_devrelease)


def test_a_post_release_sorts_after_its_final_and_dev_before_pre():
    assert sorted(["2.9.0.post1", "2.9.0", "2.9.0rc1", "2.9.0.dev1", "2.10.0", "2.9.0a1"], key=versions.key) == [
        "2.9.0.dev1",
        "2.9.0a1",
        "2.9.0rc1",
        "2.9.0",
        "2.9.0.post1",
        "2.10.0",
    ]
    assert versions.is_final("2.9.0.post1") and not versions.is_final("2.9.0rc1")


def test_a_string_that_is_no_version_sorts_first_and_never_interleaves():
    assert sorted(["1.0", "not-a-version", "0.1"], key=versions.key) == ["not-a-version", "0.1", "1.0"]
