"""Files only the app's own user may read: the database, its backups, the signing key, and their folders.

On a shared laptop (a club's, a store's) another account must not read the players' contacts, access codes
or the key that signs staff sessions: folders are 0700 and files 0600, made so when they are created (never
readable for a moment) and tightened when an older install left them wider. SQLite makes its -wal and -shm
files with the database file's own permissions. On Windows, where chmod only sets read-only, nothing changes.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def _ours(path: Path) -> bool:
    try:
        return not hasattr(os, "getuid") or path.stat().st_uid == os.getuid()
    except OSError:
        return False


def private_folder(path: str | os.PathLike) -> Path:
    """The folder, made (with its parents) if missing; 0700 if this user owns it."""
    path = Path(path)
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    if os.name == "posix" and _ours(path) and stat.S_IMODE(path.stat().st_mode) != FOLDER_MODE:
        path.chmod(FOLDER_MODE)
    return path


def private_file(path: str | os.PathLike) -> Path:
    """The file, made empty if missing (an empty file is a valid new SQLite database); 0600 if this user owns
    it. Its folder must exist."""
    path = Path(path)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        pass
    if os.name == "posix" and _ours(path) and stat.S_IMODE(path.stat().st_mode) != FILE_MODE:
        path.chmod(FILE_MODE)
    return path


def sqlite_file(uri: str) -> Path | None:
    """The file a sqlite:/// URL names (None for memory, URI options, or another database)."""
    if not uri.startswith("sqlite:///"):
        return None
    rest = uri[len("sqlite:///"):].split("?", 1)[0]
    if not rest or rest == ":memory:" or rest.startswith("file:"):
        return None
    return Path(rest)
