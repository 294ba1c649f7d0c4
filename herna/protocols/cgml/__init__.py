"""CGML (seed 001): the XML protocol of the card-game hall where licitovaný mariáš is played.

- :mod:`~herna.protocols.cgml.cards`: card codes (chapter 5);
- :mod:`~herna.protocols.cgml.messages`: typed messages (chapters 2-4) and their XML, a
  package by message family (values, nodes, login, play, control);
- :mod:`~herna.protocols.cgml.decoding`: parsed XML back to typed messages;
- :mod:`~herna.protocols.cgml.codec`: framing, safe parsing, encoding (chapter 1);
- :mod:`~herna.protocols.cgml.lobby`: the login server's matchmaking (sans-I/O);
- :mod:`~herna.protocols.cgml.matching`: the lobby's preference matching (pure);
- :mod:`~herna.protocols.cgml.player`: a player's view of a group, for bots and clients.

See docs/protocols/cgml.md for every message with an example and Herna's extensions.
"""

from herna.protocols.cgml.cards import Card, CardCodeError, parse_card
from herna.protocols.cgml.codec import (
    MAX_DEPTH,
    MAX_MESSAGE_BYTES,
    VERSION,
    CgmlDecodeError,
    CgmlError,
    Decoder,
    decode,
    encode,
    encode_text,
)
from herna.protocols.cgml.decoding import MESSAGE_TAGS, decode_body
from herna.protocols.cgml.messages import *  # noqa: F403
from herna.protocols.cgml.messages import __all__ as _messages_all

__all__ = [
    "MAX_DEPTH",
    "MAX_MESSAGE_BYTES",
    "MESSAGE_TAGS",
    "VERSION",
    "Card",
    "CardCodeError",
    "CgmlDecodeError",
    "CgmlError",
    "Decoder",
    "decode",
    "decode_body",
    "encode",
    "encode_text",
    "parse_card",
    *_messages_all,
]
