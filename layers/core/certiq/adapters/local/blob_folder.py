"""Blobs as files under a folder.

Keys are relative, "/"-separated paths. A key that could name anything outside the root (an
absolute path, a ".." segment, a backslash, a NUL) is refused with InvalidRequest, and so is one
that resolves outside the root through a symbolic link. Writes are atomic: a temporary file in the
target's folder, flushed to disk, then renamed over the target with os.replace.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path, PurePosixPath

from certiq.errors import InvalidRequest, NotFound

_TEMP_PREFIX = ".certiq-tmp-"


def check_key(key: str) -> PurePosixPath:
    """The key as a relative path, or InvalidRequest when it could escape the store's root."""
    if not key or "\\" in key or "\x00" in key:
        raise InvalidRequest("key", f"not a valid blob key: {key!r}")
    path = PurePosixPath(key)
    if path.is_absolute() or key.startswith("/"):
        raise InvalidRequest("key", f"blob keys are relative paths: {key!r}")
    parts = key.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise InvalidRequest("key", f"blob keys have no empty, '.' or '..' segments: {key!r}")
    if parts[-1].startswith(_TEMP_PREFIX):
        raise InvalidRequest("key", f"blob keys may not start with {_TEMP_PREFIX!r}: {key!r}")
    return path


class FolderBlobStore:
    """Implements certiq.ports.BlobStore over the files under ``root``."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root.resolve()

    def put(self, key: str, data: bytes, content_type: str) -> str:
        target = self._path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        target = self._path(key)  # re-check now that the folders exist
        fd, temp_name = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as temp:
                temp.write(data)
                temp.flush()
                os.fsync(temp.fileno())
            os.replace(temp_name, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp_name)
            raise
        return target.as_uri()

    def get(self, key: str, version: str | None = None) -> bytes:
        if version is not None:
            self._path(key)  # a bad key is refused as such
            raise NotFound(f"no version {version!r} under {key!r}: a folder keeps no versions")
        try:
            return self._path(key).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as error:
            raise NotFound(f"no blob under {key!r}") from error

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def delete(self, key: str) -> None:
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            self._path(key).unlink()

    def _path(self, key: str) -> Path:
        relative = check_key(key)
        path = self.root.joinpath(*relative.parts)
        # A symbolic link inside the root must not lead outside it.
        if not path.resolve().is_relative_to(self.root):
            raise InvalidRequest("key", f"blob key leaves the store: {key!r}")
        return path
