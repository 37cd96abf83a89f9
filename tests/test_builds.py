"""The metadata of a local sdist (harness/planning/builds.py): read from its PKG-INFO, or refused in one line."""

from __future__ import annotations

import io
import tarfile
import zipfile

import pytest

from harness.planning.builds import SpecError, _metadata_of_path

PKG_INFO = b"Metadata-Version: 2.1\nName: google-adk\nVersion: 9.9.9\n"


def sdist(tmp_path, name, pkg_info_is_a_directory=False):
    path = tmp_path / name
    if name.endswith(".zip"):
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("google_adk-9.9.9/PKG-INFO", PKG_INFO)
        return path
    with tarfile.open(path, "w:gz") as tf:
        info = tarfile.TarInfo("google_adk-9.9.9/PKG-INFO")
        if pkg_info_is_a_directory:
            info.type = tarfile.DIRTYPE
            tf.addfile(info)
        else:
            info.size = len(PKG_INFO)
            tf.addfile(info, io.BytesIO(PKG_INFO))
    return path


@pytest.mark.parametrize("name", ["google_adk-9.9.9.tar.gz", "google_adk-9.9.9.zip"])
def test_an_sdist_names_its_package_and_version(tmp_path, name):
    assert _metadata_of_path(sdist(tmp_path, name)) == ("google-adk", "9.9.9")


def test_a_pkg_info_that_is_not_a_file_is_refused_as_no_metadata(tmp_path):
    """tarfile.extractfile() gives None for a directory: a SpecError, not an AttributeError."""
    path = sdist(tmp_path, "google_adk-9.9.9.tar.gz", pkg_info_is_a_directory=True)
    with pytest.raises(SpecError, match=r"no PKG-INFO with a Name in this archive"):
        _metadata_of_path(path)


def test_two_checkouts_of_one_folder_name_get_two_environments(tmp_path):
    """Fault: a checkout's environment was named by its folder alone (``local-openai_agents-0.24.0``)
    and is made again on every run, so two runs of two checkouts of one name (two worktrees, two
    patched copies; test_candidate's tests in parallel) rebuilt one environment under each other's
    workers: one run judged on the other's code, or every case an error. The full path picks it."""
    from harness.execution.environments import env_name
    from harness.planning.builds import Build

    def local(path):
        return Build("openai-agents", f"local:{path.name}", str(path), "0.24.0", release=False, local_path=path)

    first, second = tmp_path / "a" / "openai_agents-0.24.0", tmp_path / "b" / "openai_agents-0.24.0"
    assert env_name(local(first), False) != env_name(local(second), False)
    assert env_name(local(first), False) == env_name(local(tmp_path / "a" / "." / "openai_agents-0.24.0"), False)
    assert env_name(local(first), False).startswith("local-openai_agents-0.24.0-")
