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
