"""The records journal: what a server has finished, on disk before any player hears of it.

:meth:`RecordStore.submit <herna.hall.records.RecordStore.submit>` appends each record to a
journal segment with one ``os.write`` and returns; the writer process
(:mod:`herna.hall.writer`) reads the segments, commits their records in batches and deletes
each segment once everything in it is in the database. A plain ``write`` puts the bytes in
the kernel's page cache, so they survive ``kill -9`` of every Herna process without an
``fsync``; only an operating-system crash or power loss can lose the last few seconds.

Layout: a directory per database (:func:`journal_dir_for`) holding segment files named
``<owner>-<seq>.seg``. ``owner`` is unique per :class:`~herna.hall.records.RecordStore`, and
the owner holds an exclusive ``flock`` on the segment it is appending to, so a store starting
up knows which segments were left behind by a dead process (it can lock them) and replays
those (:meth:`RecordStore.recover <herna.hall.records.RecordStore.recover>`). Every record
carries a unique key, stored with its row, so replaying something already committed writes
nothing twice.

A frame is ``<length:u32 little-endian><crc32:u32><pickle>``; the pickle is one entry:

* ``("r", key, MatchRecord)`` a finished match;
* ``("n", counter, value)`` the number ``value`` of ``counter`` was handed out (Mia round
  numbers): the writer keeps the highest one in the ``counters`` table, so numbers are never
  handed out twice, even after ``kill -9``.

A process killed in the middle of a ``write`` can leave a torn last frame; readers stop at the
first frame that is incomplete or fails its checksum (the record in it was never confirmed,
so no player was told its result).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import pickle
import re
import struct
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from herna.hall.db import normalise_url

HEADER = struct.Struct("<II")
SUFFIX = ".seg"
SEGMENT_RECORDS = 2_000
"""Entries after which the owner starts a new segment (so the writer can delete the old one)."""
SEGMENT_SECONDS = 10.0
"""Age after which the owner starts a new segment at the next append, however few entries."""
MAX_FRAME = 64 * 1024 * 1024
"""A length beyond this is garbage (a torn header), not a record."""

_NAME = re.compile(r"^(?P<owner>[0-9a-z.]+)-(?P<seq>[0-9]{8})\.seg$")


def journal_dir_for(url: str) -> Path | None:
    """Where the journal of the database at ``url`` lives.

    A SQLite file ``var/herna.db`` has ``var/herna.db-records/`` beside it. Any other
    database (PostgreSQL) gets ``var/records-journal/<host-port-database>/`` under the
    working directory, like the default SQLite file. ``None`` for an in-memory SQLite
    database: nothing of it outlives the process anyway, so a temporary journal is used.
    """
    parsed = make_url(normalise_url(url))
    if parsed.get_backend_name() == "sqlite":
        db = parsed.database or ""
        if not db or db == ":memory:" or db.startswith("file::memory:"):
            return None
        return Path(db + "-records")
    label = f"{parsed.host or 'local'}-{parsed.port or ''}-{parsed.database or ''}"
    safe = re.sub(r"[^0-9A-Za-z._-]", "_", label)[:80]
    digest = hashlib.sha256(label.encode()).hexdigest()[:8]
    return Path("var") / "records-journal" / f"{safe}-{digest}"


def frame(entry: tuple[Any, ...]) -> bytes:
    payload = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(payload), zlib.crc32(payload)) + payload


def parse_frames(
    data: bytes | memoryview, limit: int | None = None
) -> tuple[list[tuple[Any, ...]], int]:
    """The complete, intact frames at the start of ``data`` (at most ``limit``) and how many
    bytes they use."""
    out: list[tuple[Any, ...]] = []
    pos = 0
    view = memoryview(data)
    while pos + HEADER.size <= len(view) and (limit is None or len(out) < limit):
        length, crc = HEADER.unpack_from(view, pos)
        end = pos + HEADER.size + length
        if length > MAX_FRAME or end > len(view):
            break
        payload = view[pos + HEADER.size : end]
        if zlib.crc32(payload) != crc:
            break
        try:
            out.append(pickle.loads(payload))
        except Exception:  # a frame that passed its checksum but cannot be read: stop here
            break
        pos = end
    return out, pos


def segment_name(owner: str, seq: int) -> str:
    return f"{owner}-{seq:08d}{SUFFIX}"


def own_segments(directory: Path, owner: str) -> list[tuple[int, Path]]:
    """This owner's segments still on disk, oldest first."""
    out = []
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(directory):
            m = _NAME.match(entry.name)
            if m and m["owner"] == owner:
                out.append((int(m["seq"]), Path(entry.path)))
    out.sort()
    return out


def all_segments(directory: Path) -> list[Path]:
    """Every segment in ``directory``, oldest first (owners start with a time stamp)."""
    with contextlib.suppress(FileNotFoundError):
        return sorted(Path(e.path) for e in os.scandir(directory) if _NAME.match(e.name))
    return []


def segments_by_owner(directory: Path) -> dict[str, list[Path]]:
    """Every segment in ``directory`` grouped by owner, each owner's oldest first."""
    out: dict[str, list[tuple[int, Path]]] = {}
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(directory):
            m = _NAME.match(entry.name)
            if m:
                out.setdefault(m["owner"], []).append((int(m["seq"]), Path(entry.path)))
    return {owner: [p for _, p in sorted(segs)] for owner, segs in sorted(out.items())}


def owner_gone(segments: list[Path]) -> bool:
    """Whether the owner of ``segments`` (one owner's, oldest first) has ended: a live owner
    always holds the lock of its newest segment, and only that one (its writer may still be
    reading the older ones)."""
    with abandoned(segments[-1]) as ours:
        return ours


def read_segment(path: Path) -> list[tuple[Any, ...]]:
    """Every intact entry of a segment (up to a torn tail, if any)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    entries, _ = parse_frames(data)
    return entries


@contextlib.contextmanager
def abandoned(path: Path) -> Iterator[bool]:
    """Lock a segment if nobody holds it (its owner is gone); yields whether we got it."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def new_owner() -> str:
    """A name for one store's segments: sorts by start time, unique across processes."""
    return f"{time.time_ns():020d}.{os.getpid()}.{os.urandom(4).hex()}"


class JournalWriter:
    """The appending side: one owner's segments, the newest one locked and open."""

    def __init__(self, directory: Path, owner: str | None = None) -> None:
        self.directory = directory
        self.owner = owner or new_owner()
        self._seq = 0
        self._fd = -1
        self._entries = 0
        self._opened = 0.0
        self.directory.mkdir(parents=True, exist_ok=True)
        self._start_segment()

    def _start_segment(self) -> None:
        """Create the next segment already locked: it appears under its real name only once
        it is locked, so another store's recovery never takes a live segment for dead."""
        self._seq += 1
        final = self.directory / segment_name(self.owner, self._seq)
        temp = final.with_suffix(".new")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(temp, final)
        old, self._fd = self._fd, fd
        if old >= 0:
            os.close(old)  # the old segment is complete: the writer may now delete it
        self._entries = 0
        self._opened = time.monotonic()

    def append(self, data: bytes) -> None:
        """Write one frame (all of it) to the current segment, starting a new one when due."""
        if self._entries >= SEGMENT_RECORDS or (
            self._entries and time.monotonic() - self._opened >= SEGMENT_SECONDS
        ):
            self._start_segment()
        view = memoryview(data)
        try:
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
        except OSError:
            # A frame cut short (a full disk) ends this segment: readers stop at it, and the
            # whole frame is written again, into the next segment.
            self._entries = SEGMENT_RECORDS
            raise
        self._entries += 1

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
