"""Files read and written safely: bounded reads, whole-or-absent writes that never
clobber a file or follow a symbolic link unasked (and, from support/quoting.py,
short quotes of bad values).

Every input file ginnyo reads goes through :func:`read_bounded`, so a stray
``/dev/zero`` or a multi-gigabyte file costs at most ``limit`` bytes of memory;
every output file goes through :func:`write_new` (write a temporary file beside
the target, then move it into place), so a reader or an interrupt only ever
sees the whole file or none.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO

from . import interrupts
from ..errors import GinnyoError
from .quoting import QUOTE_CHARS, quote

KIB = 1024
MIB = 1024 * KIB
#: the most a position (JSON or one line) may take; a 26 x 26 board in JSON is about 20 KB
POSITION_BYTES = 1 * MIB
#: the most a Crazy Rummy state file may take
STATE_BYTES = 1 * MIB
#: the most a leave-values file may take (the shipped one is about 5 KB)
LEAVES_BYTES = 4 * MIB
#: the most a game record may take (a long 4-player game is about 100 KB)
RECORD_BYTES = 64 * MIB
#: the most characters of a file name quoted in an error line
PATH_CHARS = 240
BYTE_ORDER_MARK = "\ufeff"  # some editors begin UTF-8 files with it: read files skip it at their start


def path_name(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> str:
    """``path`` (a str, bytes or os.PathLike) as a str, else TypeError: an int
    would open a file descriptor the caller owns, and closing the file would close it."""
    if isinstance(path, (str, bytes, os.PathLike)):
        return os.fsdecode(path)
    raise TypeError(f"path must be a str, bytes or os.PathLike, not {type(path).__name__}")


def read_bounded(path: str | os.PathLike[str], limit: int, *, what: str = "file",
                 error: type[GinnyoError] = GinnyoError,
                 stdin: BinaryIO | None = None) -> bytes:
    """The bytes of ``path`` (``'-'``: standard input), refusing with ``error`` to
    read more than ``limit`` bytes: a device or a huge file never fills memory."""
    name = path_name(path)
    try:
        if name == "-":
            source = stdin if stdin is not None else sys.stdin.buffer
            data = source.read(limit + 1)
        else:
            with open(name, "rb") as handle:
                data = handle.read(limit + 1)
    except OSError as problem:
        raise error(f"{quote(name, PATH_CHARS)}: cannot read ({problem.strerror or problem})") from None
    if len(data) > limit:
        where = "standard input" if name == "-" else quote(name, PATH_CHARS)
        raise error(f"{where}: larger than a {what} may be ({_size(limit)} at most)")
    return data


def text_of(data: bytes, source: str, error: type[GinnyoError] = GinnyoError) -> str:
    """A text file's bytes (a record's) as text: UTF-8, a byte-order mark at its
    start dropped (docs/FORMAT.md); else ``error`` naming the line of the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = data.count(b"\n", 0, problem.start) + 1
        raise error(f"{quote(source, PATH_CHARS)} line {line}: not a text file (not UTF-8)") from None
    return text[len(BYTE_ORDER_MARK):] if text.startswith(BYTE_ORDER_MARK) else text


def check_length(text: str | bytes, limit: int, *, what: str = "file",
                 error: type[GinnyoError] = GinnyoError) -> None:
    """Refuse with ``error`` a text handed over in memory (an API argument, an
    engine line, an inline JSON argument) longer than ``limit``: the same bound
    as :func:`read_bounded` puts on a file, counted in characters for a str."""
    if isinstance(text, (str, bytes)) and len(text) > limit:
        raise error(f"{what}: {len(text)} {'bytes' if isinstance(text, bytes) else 'characters'},"
                    f" larger than a {what} may be ({_size(limit)} at most)")


def write_new(path: str | os.PathLike[str], data: str | bytes, *, force: bool = False,
              error: type[GinnyoError] = GinnyoError, option: str = "") -> None:
    """Write ``data`` to ``path`` whole or not at all: into a temporary file in the
    same folder, then moved into place.  An existing file is kept unless ``force``
    (raising ``error`` naming it), and a symbolic link at ``path`` is never
    written through, forced or not.  ``option`` names the command-line option the
    path came from, for the error line.  A stop signal (:mod:`ginnyo.interrupts`)
    that comes meanwhile is answered once the file is in place."""
    target = Path(path)
    label = check_new(target, force=force, error=error, option=option)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with interrupts.held():   # a stop signal meanwhile waits until the file is in place
        _write(target, payload, force, label, error)


def _write(target: Path, payload: bytes, force: bool, label: str, error: type[GinnyoError]) -> None:
    """:func:`write_new`'s write: the temporary file, then its rename (or link)."""
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as problem:
        raise error(f"{label}: cannot write ({problem.strerror or problem})") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        os.chmod(temporary, 0o644 & ~_umask())
        if force:
            _check_replaceable(target, label, error)     # again: it may have changed since check_new
            os.replace(temporary, target)
        else:
            _link_new(temporary, target)
    except FileExistsError:
        _discard(temporary)
        raise error(f"{label}: exists; give --force to overwrite it") from None
    except GinnyoError:
        _discard(temporary)
        raise
    except OSError as problem:
        _discard(temporary)
        raise error(f"{label}: cannot write ({problem.strerror or problem})") from None
    except BaseException:
        _discard(temporary)
        raise


def check_new(path: str | os.PathLike[str], *, force: bool = False,
              error: type[GinnyoError] = GinnyoError, option: str = "") -> str:
    """Refuse (raising ``error``) a ``path`` that :func:`write_new` would refuse:
    a symbolic link, or an existing file without ``force``; so that a long
    command can refuse before it starts.  Returns the path's label for errors."""
    target = Path(path)
    label = f"{option} {quote(str(target), PATH_CHARS)}".lstrip()
    if target.is_symlink():
        raise error(f"{label}: is a symbolic link; ginnyo does not write through links")
    if target.exists() and not force:
        raise error(f"{label}: exists; give --force to overwrite it")
    _check_replaceable(target, label, error)
    return label


def _check_replaceable(target: Path, label: str, error: type[GinnyoError]) -> None:
    """Refuse a ``target`` that exists and is not a regular file (a device, a
    folder, a pipe, a socket): ``--force`` overwrites regular files only."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as problem:
        raise error(f"{label}: cannot write ({problem.strerror or problem})") from None
    if not stat.S_ISREG(mode):
        raise error(f"{label}: is {_file_kind(mode)}, not a regular file; ginnyo writes regular files only")


def _file_kind(mode: int) -> str:
    """What a non-regular file of ``mode`` is, in words."""
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return kind
    return "a special file"


def _link_new(temporary: str, target: Path) -> None:
    """Give ``temporary`` the name ``target`` only if that name is free: a hard link
    fails when the name was taken meanwhile, so nothing is ever clobbered."""
    try:
        os.link(temporary, target)
    except FileExistsError:
        raise
    except OSError as problem:
        if problem.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOSYS):
            raise
        if target.exists() or target.is_symlink():   # a file system without hard links
            raise FileExistsError(str(target)) from None
        os.replace(temporary, target)
        return
    os.unlink(temporary)


def _discard(temporary: str) -> None:
    try:
        os.unlink(temporary)
    except OSError:
        pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _size(count: int) -> str:
    return f"{count // MIB} MiB" if count % MIB == 0 else f"{count} bytes"


__all__ = ["read_bounded", "check_length", "write_new", "check_new", "quote", "path_name", "text_of",
           "BYTE_ORDER_MARK", "POSITION_BYTES", "STATE_BYTES", "LEAVES_BYTES", "RECORD_BYTES", "QUOTE_CHARS"]
