"""Typed CGML messages (seed 001, chapters 2-4) with their XML form.

Every message is a frozen dataclass. :meth:`Message.nodes` gives the body elements of the
``<cgml>`` document; :func:`herna.protocols.cgml.decoding.decode_body` turns parsed body
elements back into a message.
``encode(decode(x)) == x`` holds for every message (see the property tests).

Herna's extensions (all optional for peers, see docs/protocols/cgml.md):

- ``id`` attribute and member ``<player>`` list on ``newgroup status="init"/"ack"``;
- ``ticket`` attribute on each ``<player>`` of ``newgroup status="ack"``: the id that member is
  told in ``connect complete`` and must join with (the group id, a dot, a secret);
- ``newgroup status="closed"`` (super game server -> login server): the group has ended;
- ``token`` attribute on ``connect status="active"/"passive"``: the token of a reserved name;
- ``playerid`` attribute on ``connect status="complete"``: the id the recipient must use at
  the super game server (for a bot server: the id of the bot it should start);
- ``playerid`` attribute on ``pause`` when the server relays it;
- ``id`` attribute (group id) on ``newgame``;
- the ``<error code="...">reason</error>`` message for well-formed messages at the wrong time.

Spellings: ``trumf`` and ``winner`` are emitted; ``trumpf`` and ``winer`` are accepted.

The package, by family (import every name from here, ``herna.protocols.cgml.messages``):

- :mod:`~herna.protocols.cgml.messages.values`: vocabulary (game codes, trumps, places), size
  limits, :class:`MessageError`, :class:`Trumf`/:class:`Flek` and the parsers of text values;
- :mod:`~herna.protocols.cgml.messages.nodes`: the XML model (:class:`Node`), the base
  :class:`Message` and :class:`PlayerRef`;
- :mod:`~herna.protocols.cgml.messages.login`: chapter 2, login, groups, new games, dealing;
- :mod:`~herna.protocols.cgml.messages.play`: chapter 3, the game from auction to result;
- :mod:`~herna.protocols.cgml.messages.control`: chapter 4, control messages and ``<error>``.
"""

from __future__ import annotations

from herna.protocols.cgml.messages.control import (
    LEFT,
    Abort,
    CancelGame,
    Disconnect,
    Error,
    Load,
    PauseFinish,
    PauseStart,
    Renonc,
)
from herna.protocols.cgml.messages.login import (
    ConnectComplete,
    ConnectPlayer,
    ConnectServer,
    Dial,
    DialPart,
    NewGameAnswer,
    NewGameAsk,
    NewGroupAck,
    NewGroupAnswer,
    NewGroupClosed,
    NewGroupInit,
)
from herna.protocols.cgml.messages.nodes import Message, Node, PlayerRef
from herna.protocols.cgml.messages.play import (
    FlekAnswer,
    FlekAsk,
    FlekInfo,
    GameTypeAnswer,
    GameTypeAsk,
    GameTypeInfo,
    LiciteAnswer,
    LiciteAsk,
    LiciteInfo,
    LiciteResult,
    MoneyLine,
    PlayCardAsk,
    PlayCardCards,
    PlayCardInfo,
    Result,
    Round,
)
from herna.protocols.cgml.messages.values import (
    GAME_CODES,
    GAME_MARIAS,
    LICITE_ANSWERS,
    Flek,
    MessageError,
    Trumf,
    clean_text,
    parse_flek,
    parse_game_code,
    parse_int,
    parse_trumf,
    public_group,
)
from herna.protocols.cgml.messages.values import (
    MAX_FILL as MAX_FILL,
)
from herna.protocols.cgml.messages.values import (
    MAX_FLEK as MAX_FLEK,
)
from herna.protocols.cgml.messages.values import (
    MAX_GROUP_GAMES as MAX_GROUP_GAMES,
)
from herna.protocols.cgml.messages.values import (
    MAX_GROUP_LENGTH as MAX_GROUP_LENGTH,
)
from herna.protocols.cgml.messages.values import (
    MAX_ID_LENGTH as MAX_ID_LENGTH,
)
from herna.protocols.cgml.messages.values import (
    MAX_NAME_LENGTH as MAX_NAME_LENGTH,
)
from herna.protocols.cgml.messages.values import (
    MAX_TEXT_LENGTH as MAX_TEXT_LENGTH,
)
from herna.protocols.cgml.messages.values import (
    MAX_TOKEN_LENGTH as MAX_TOKEN_LENGTH,
)
from herna.protocols.cgml.messages.values import (
    PLACES as PLACES,
)
from herna.protocols.cgml.messages.values import (
    TRUMP_SUITS as TRUMP_SUITS,
)

__all__ = [
    "GAME_CODES",
    "GAME_MARIAS",
    "LEFT",
    "LICITE_ANSWERS",
    "Abort",
    "CancelGame",
    "ConnectComplete",
    "ConnectPlayer",
    "ConnectServer",
    "Dial",
    "DialPart",
    "Disconnect",
    "Error",
    "Flek",
    "FlekAnswer",
    "FlekAsk",
    "FlekInfo",
    "GameTypeAnswer",
    "GameTypeAsk",
    "GameTypeInfo",
    "LiciteAnswer",
    "LiciteAsk",
    "LiciteInfo",
    "LiciteResult",
    "Load",
    "Message",
    "MessageError",
    "MoneyLine",
    "NewGameAnswer",
    "NewGameAsk",
    "NewGroupAck",
    "NewGroupAnswer",
    "NewGroupClosed",
    "NewGroupInit",
    "Node",
    "PauseFinish",
    "PauseStart",
    "PlayCardAsk",
    "PlayCardCards",
    "PlayCardInfo",
    "PlayerRef",
    "Renonc",
    "Result",
    "Round",
    "Trumf",
    "clean_text",
    "parse_flek",
    "parse_game_code",
    "parse_int",
    "parse_trumf",
    "public_group",
]
