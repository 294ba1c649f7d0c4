"""CGML framing and XML (seed 001, chapter 1), sans-I/O.

A message is ``<cgml version="1.0">`` ... ``</cgml>`` followed by one empty line, lines end in
CR LF. :func:`encode` writes exactly that. :class:`Decoder` is liberal: LF-only input, a
missing empty line, an XML declaration or comments before ``<cgml>`` and a missing
``version`` (= 1.0) are all accepted.

Safety: the XML is parsed with :mod:`defusedxml` (no DTD, no entity declarations, no
external references), a message may not exceed :data:`MAX_MESSAGE_BYTES` (the decoder never
buffers more than that plus one read) and elements may not nest deeper than
:data:`MAX_DEPTH`. Errors are values (:class:`CgmlError`): *fatal* ones (not XML, too large,
DTD, too deep, unknown version) mean the stream cannot be trusted any more and the peer gets
``<disconnect>``; the others (a well-formed document that is not a valid CGML message) are
answered with Herna's ``<error>`` and the connection goes on.

>>> from herna.protocols.cgml.messages import LiciteAsk
>>> encode(LiciteAsk("100"))
b'<cgml version="1.0">\\r\\n  <licite type="ask">100</licite>\\r\\n</cgml>\\r\\n\\r\\n'
>>> Decoder().feed(b'<cgml><licite type="answer">yes</licite></cgml>\\n\\n')
[LiciteAnswer(value='YES')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.etree.ElementTree import Element, ParseError, fromstring
from xml.sax.saxutils import escape, quoteattr

import defusedxml
import defusedxml.ElementTree

from herna.core.errors import ProtocolError
from herna.protocols.cgml.decoding import decode_body
from herna.protocols.cgml.messages import Message, MessageError, Node, clean_text

VERSION = "1.0"
"""The CGML version Herna speaks."""

SUPPORTED_VERSIONS: frozenset[str] = frozenset({"1.0", "1"})
"""``version`` values accepted on input (a missing attribute means 1.0)."""

MAX_MESSAGE_BYTES = 64 * 1024
"""Largest message accepted, from ``<cgml`` through ``</cgml>``."""

MAX_DEPTH = 8
"""Deepest element nesting accepted (``cgml/connect/opponent/player/name`` is 5)."""

NOT_XML = "NOT_XML"
NOT_CGML = "NOT_CGML"
TOO_LARGE = "TOO_LARGE"
TOO_DEEP = "TOO_DEEP"
DTD_FORBIDDEN = "DTD_FORBIDDEN"
BAD_VERSION = "BAD_VERSION"
BAD_MESSAGE = "BAD_MESSAGE"


@dataclass(frozen=True, slots=True)
class CgmlError:
    """Input that could not be accepted. ``fatal`` errors end the connection."""

    reason: str
    code: str
    fatal: bool

    def as_exception(self) -> ProtocolError:
        return ProtocolError(self.reason, self.code, self.fatal)


class CgmlDecodeError(Exception):
    """Raised by :func:`decode` (the one-shot API); carries the :class:`CgmlError`."""

    def __init__(self, error: CgmlError) -> None:
        super().__init__(error.reason)
        self.error = error


# -- writing -----------------------------------------------------------------------------


_PLAIN = re.compile(r"[^&<>\"\r\n\t\x00-\x1f\ud800-\udfff\ufffe\uffff]*")


def _escape_text(value: str) -> str:
    if value.isalnum() or not value or _PLAIN.fullmatch(value):
        return value
    return escape(clean_text(value)).replace("\r", "&#13;")


def _attr(value: str) -> str:
    if _PLAIN.fullmatch(value):
        return f'"{value}"'
    return quoteattr(clean_text(value))


def _write(node: Node, level: int, out: list[str]) -> None:
    pad = "  " * level
    tag = node.tag
    attrs = "".join([f" {k}={_attr(v)}" for k, v in node.attrs]) if node.attrs else ""
    if node.children:
        out.append(f"{pad}<{tag}{attrs}>")
        for child in node.children:
            if child.children or child.attrs:
                _write(child, level + 1, out)
            else:  # the common leaf (<card>, <name>, <game> ...), inline
                out.append(f"{pad}  <{child.tag}>{_escape_text(child.text or '')}</{child.tag}>")
        out.append(f"{pad}</{tag}>")
    else:
        out.append(f"{pad}<{tag}{attrs}>{_escape_text(node.text or '')}</{tag}>")


def encode_text(message: Message) -> str:
    """The message as text: CR LF line ends, followed by the mandatory empty line."""
    lines = [f'<cgml version="{VERSION}">']
    for node in message.nodes():
        _write(node, 1, lines)
    lines.append("</cgml>")
    return "\r\n".join(lines) + "\r\n\r\n"


def encode(message: Message) -> bytes:
    """The message as UTF-8 bytes ready for the socket."""
    return encode_text(message).encode("utf-8")


# -- reading -----------------------------------------------------------------------------

_WHITESPACE = b" \t\r\n"
_END = re.compile(rb"</cgml\s*>", re.IGNORECASE)
_START_TAG = re.compile(rb"<cgml(?:\s[^>]*)?>", re.IGNORECASE)
_GOOD_STARTS: tuple[bytes, ...] = (
    b"<cgml>",
    b"<cgml ",
    b"<cgml\t",
    b"<cgml\r",
    b"<cgml\n",
    b"<cgml/",
    b"<?xml",
    b"<!--",
    b"\xef\xbb\xbf",  # UTF-8 byte order mark
)
_DTD_START = b"<!doctype"


def _check_start(head: bytes) -> CgmlError | bool | None:
    """``True`` if ``head`` starts a CGML message, ``None`` if more bytes are needed."""
    low = head[:9].lower()
    if low.startswith(_DTD_START):
        return CgmlError("DTDs are not allowed in CGML", DTD_FORBIDDEN, True)
    for good in _GOOD_STARTS:
        if low.startswith(good):
            return True
    for good in (*_GOOD_STARTS, _DTD_START):
        if good.startswith(low):
            return None
    if not low.startswith(b"<"):
        return CgmlError("not XML: a CGML message starts with <cgml", NOT_XML, True)
    return CgmlError('not a CGML message: expected <cgml version="1.0">', NOT_CGML, True)


def _depth(root: Element) -> int:
    deepest = 0
    stack: list[tuple[Element, int]] = [(root, 1)]
    while stack:
        el, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in el)
    return deepest


def _parse(frame: bytes) -> Element:
    """Parse XML safely. A DTD (and with it any entity declaration or external reference)
    needs ``<!``: documents without it cannot contain one and go to the fast C parser;
    anything with ``<!`` (comments, CDATA, a DTD) goes through :mod:`defusedxml`, which
    refuses DTDs, entity declarations and external references."""
    if b"<!" not in frame:
        return fromstring(frame)
    return defusedxml.ElementTree.fromstring(
        frame, forbid_dtd=True, forbid_entities=True, forbid_external=True
    )


def decode_frame(frame: bytes, max_depth: int = MAX_DEPTH) -> Message | CgmlError:
    """Parse one complete message (``<cgml`` ... ``</cgml>``)."""
    try:
        root = _parse(frame)
    except defusedxml.DefusedXmlException as e:
        return CgmlError(f"forbidden XML construct: {type(e).__name__}", DTD_FORBIDDEN, True)
    except ParseError as e:
        return CgmlError(f"not well-formed XML: {e}", NOT_XML, True)
    except (ValueError, UnicodeError) as e:  # pragma: no cover - expat reports these itself
        return CgmlError(f"not well-formed XML: {e}", NOT_XML, True)
    if not isinstance(root.tag, str) or root.tag.lower() != "cgml":
        return CgmlError(f"not a CGML message: root element <{root.tag}>", NOT_CGML, True)
    version = next((v.strip() for k, v in root.attrib.items() if k.lower() == "version"), VERSION)
    if version not in SUPPORTED_VERSIONS:
        return CgmlError(f"unknown CGML version {version[:20]!r}", BAD_VERSION, True)
    # Fewer opened elements than the limit cannot nest deeper than it: skip the walk.
    opened = frame.count(b"<") - frame.count(b"</") - frame.count(b"<?") - frame.count(b"<!")
    if opened > max_depth and _depth(root) > max_depth:
        return CgmlError(f"elements nest deeper than {max_depth} levels", TOO_DEEP, True)
    try:
        return decode_body(list(root))
    except MessageError as e:
        return CgmlError(str(e), BAD_MESSAGE, False)


def decode(data: bytes | str) -> Message:
    """One message from a complete document; raises :class:`CgmlDecodeError`."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    decoder = Decoder()
    items = decoder.feed(raw)
    if decoder.pending:
        items.append(CgmlError("incomplete message", NOT_XML, True))
    if len(items) != 1:
        raise CgmlDecodeError(CgmlError("expected exactly one message", NOT_XML, True))
    item = items[0]
    if isinstance(item, CgmlError):
        raise CgmlDecodeError(item)
    return item


class Decoder:
    """Bytes in, messages (or :class:`CgmlError` values) out, for one connection.

    After a fatal error the decoder is ``closed`` and ignores further input. ``pending`` is
    the number of bytes of an incomplete message waiting for more data: servers use it to
    drop peers that send half a message and stall.
    """

    def __init__(self, max_bytes: int = MAX_MESSAGE_BYTES, max_depth: int = MAX_DEPTH) -> None:
        self.max_bytes = max_bytes
        self.max_depth = max_depth
        self._buf = bytearray()
        self._scanned = 0
        self._started = False
        self.closed = False
        self.messages = 0

    @property
    def pending(self) -> int:
        return len(self._buf)

    def _fail(self, error: CgmlError) -> list[Message | CgmlError]:
        self.closed = True
        self._buf.clear()
        return [error]

    def feed(self, data: bytes) -> list[Message | CgmlError]:
        if self.closed:
            return []
        self._buf += data
        out: list[Message | CgmlError] = []
        while True:
            if not self._started:
                # Skip the empty line(s) between messages.
                i = 0
                n = len(self._buf)
                while i < n and self._buf[i] in _WHITESPACE:
                    i += 1
                if i:
                    del self._buf[:i]
                if not self._buf:
                    return out
                start = _check_start(bytes(self._buf[:9]))
                if start is None:
                    return out
                if isinstance(start, CgmlError):
                    return out + self._fail(start)
                self._started = True
                self._scanned = 0
            found = _END.search(self._buf, max(0, self._scanned - 8))
            end: int | None = None
            if found is not None:
                end = found.end()
            else:
                tag = _START_TAG.search(self._buf, 0, min(len(self._buf), 4096))
                if tag is not None and tag.group().endswith(b"/>"):
                    end = tag.end()  # <cgml/>: an empty message
            if end is None:
                if len(self._buf) > self.max_bytes:
                    return out + self._fail(
                        CgmlError(f"message larger than {self.max_bytes} bytes", TOO_LARGE, True)
                    )
                self._scanned = len(self._buf)
                return out
            if end > self.max_bytes:
                return out + self._fail(
                    CgmlError(f"message larger than {self.max_bytes} bytes", TOO_LARGE, True)
                )
            frame = bytes(self._buf[:end])
            del self._buf[:end]
            self._started = False
            item = decode_frame(frame, self.max_depth)
            if isinstance(item, CgmlError) and item.fatal:
                return out + self._fail(item)
            self.messages += 1
            out.append(item)
