"""Parsed CGML body elements to typed messages (the reverse of :meth:`Message.nodes`).

Liberal where the seed is (tag and attribute names and enumerated values in any case, the
seed's spellings ``trumpf`` and ``winer``), strict about sizes: every id, name and text has a
length limit, so a peer cannot make the server keep large strings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from xml.etree.ElementTree import Element

from herna.protocols.cgml.cards import Card, CardCodeError, parse_card
from herna.protocols.cgml.messages import (
    MAX_FILL,
    MAX_GROUP_GAMES,
    MAX_GROUP_LENGTH,
    MAX_ID_LENGTH,
    MAX_NAME_LENGTH,
    MAX_TEXT_LENGTH,
    MAX_TOKEN_LENGTH,
    PLACES,
    Abort,
    CancelGame,
    ConnectComplete,
    ConnectPlayer,
    ConnectServer,
    Dial,
    DialPart,
    Disconnect,
    Error,
    Flek,
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
    Load,
    Message,
    MessageError,
    MoneyLine,
    NewGameAnswer,
    NewGameAsk,
    NewGroupAck,
    NewGroupAnswer,
    NewGroupClosed,
    NewGroupInit,
    PauseFinish,
    PauseStart,
    PlayCardAsk,
    PlayCardCards,
    PlayCardInfo,
    PlayerRef,
    Renonc,
    Result,
    Round,
    Trumf,
    parse_flek,
    parse_game_code,
    parse_int,
    parse_trumf,
)
from herna.protocols.cgml.resign import Resign
from herna.protocols.cgml.standin import StandIn


def _tag(el: Element) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        raise MessageError("unexpected XML node")
    if "}" in tag:
        raise MessageError(f"namespaced element {tag!r} is not CGML")
    return tag.lower()


def _children(el: Element, tag: str) -> list[Element]:
    return [c for c in el if _tag(c) == tag]


def _one(el: Element, tag: str, required: bool = True) -> Element | None:
    found = _children(el, tag)
    if len(found) > 1:
        raise MessageError(f"<{_tag(el)}> has more than one <{tag}>")
    if not found:
        if required:
            raise MessageError(f"<{_tag(el)}> needs a <{tag}> element")
        return None
    return found[0]


def _limited(value: str, limit: int, what: str) -> str:
    if len(value) > limit:
        raise MessageError(f"{what} is longer than {limit} characters")
    return value


def _text_of(el: Element | None, limit: int = MAX_NAME_LENGTH, what: str = "text") -> str:
    if el is None:
        return ""
    return _limited((el.text or "").strip(), limit, what)


def _child_text(el: Element, tag: str, limit: int = MAX_NAME_LENGTH) -> str:
    return _text_of(_one(el, tag), limit, f"<{tag}>")


def _opt_child_text(el: Element, tag: str, limit: int = MAX_NAME_LENGTH) -> str | None:
    child = _one(el, tag, required=False)
    return None if child is None else _text_of(child, limit, f"<{tag}>")


def _attr(el: Element, name: str, limit: int = MAX_ID_LENGTH) -> str:
    value = _opt_attr(el, name, limit)
    if value is None:
        raise MessageError(f"<{_tag(el)}> needs the {name!r} attribute")
    return value


def _opt_attr(el: Element, name: str, limit: int = MAX_ID_LENGTH) -> str | None:
    attrib = el.attrib
    value = attrib.get(name)
    if value is None:
        value = next((v for k, v in attrib.items() if k.lower() == name), None)
        if value is None:
            return None
    return _limited(value.strip(), limit, f"attribute {name!r}")


def _enum_attr(el: Element, name: str, allowed: Sequence[str]) -> str:
    value = _attr(el, name).lower()
    if value not in allowed:
        raise MessageError(f"<{_tag(el)} {name}={value!r}>: expected one of {', '.join(allowed)}")
    return value


def _opt_place(el: Element, name: str) -> str | None:
    value = _opt_attr(el, name)
    if value is None:
        return None
    value = value.lower()
    if value not in PLACES:
        raise MessageError(f"<{_tag(el)} {name}={value!r}>: expected hand, desk or talon")
    return value


def _player(el: Element) -> PlayerRef:
    pid = _opt_attr(el, "id")
    name_el = _one(el, "name", required=False)
    race_el = _one(el, "race", required=False)
    name = _text_of(name_el, MAX_NAME_LENGTH, "<name>") if name_el is not None else None
    race = _text_of(race_el, MAX_NAME_LENGTH, "<race>").lower() if race_el is not None else None
    if name is None and len(el) == 0 and (el.text or "").strip():
        name = _text_of(el, MAX_NAME_LENGTH, "<player>")
    return PlayerRef(pid, name, race)


def _players(el: Element) -> tuple[PlayerRef, ...]:
    return tuple(_player(p) for p in _children(el, "player"))


def _card(el: Element, hidden_ok: bool) -> Card | None:
    text = (el.text or "").strip()
    if not text:
        if hidden_ok:
            return None
        raise MessageError("an empty <card> is not allowed here")
    try:
        return parse_card(text[:8])
    except CardCodeError as e:
        raise MessageError(str(e)) from None


def _cards(el: Element) -> tuple[Card, ...]:
    out: list[Card] = []
    for c in _children(el, "card"):
        card = _card(c, hidden_ok=False)
        assert card is not None
        out.append(card)
    return tuple(out)


def _maybe_cards(el: Element) -> tuple[Card | None, ...]:
    return tuple(_card(c, hidden_ok=True) for c in _children(el, "card"))


def _trumf_child(el: Element) -> Trumf | None:
    found = _children(el, "trumf") + _children(el, "trumpf")
    if len(found) > 1:
        raise MessageError(f"<{_tag(el)}> has more than one <trumf>")
    if not found:
        return None
    text = _text_of(found[0])
    return parse_trumf(text) if text else None


def _flek_child(el: Element) -> Flek | None:
    text = _opt_child_text(el, "flek")
    return parse_flek(text) if text else None


def _round(el: Element) -> Round:
    number = parse_int(_attr(el, "number"), "round number")
    return Round(number, _attr(el, "playerid"), _cards(el))


def _money(el: Element, expected: str) -> MoneyLine:
    money = _one(el, "money")
    assert money is not None
    kind = (_opt_attr(money, "type") or expected).lower()
    if kind != expected:
        raise MessageError(f"<{_tag(el)}> money must have type {expected!r}")
    return MoneyLine(_attr(el, "playerid"), parse_int(_text_of(money), "money"))


def _decode_connect(el: Element) -> Message:
    status = _enum_attr(el, "status", ("server", "passive", "active", "complete"))
    if status == "server":
        return ConnectServer(
            _child_text(el, "game"),
            parse_int(_child_text(el, "numplayers"), "numplayers"),
            _child_text(el, "url"),
        )
    if status == "complete":
        return ConnectComplete(
            _attr(el, "id", MAX_GROUP_LENGTH),
            _child_text(el, "game"),
            _players(el),
            _child_text(el, "url"),
            _opt_attr(el, "playerid"),
        )
    player = _one(el, "player")
    assert player is not None
    opponent = _one(el, "opponent", required=False)
    opponents = _players(opponent) if opponent is not None else ()
    fill_text = _opt_attr(el, "fill", 12)
    fill = parse_int(fill_text, "fill") if fill_text is not None else None
    if fill is not None and fill > MAX_FILL:
        raise MessageError(f"fill is at most {MAX_FILL} seconds")
    tournament = _opt_attr(el, "tournament", 12)
    if tournament is not None and not tournament.isdigit():
        raise MessageError("tournament is a tournament's number")
    return ConnectPlayer(
        status,
        _player(player),
        _child_text(el, "game"),
        opponents,
        _opt_attr(el, "token", MAX_TOKEN_LENGTH) or None,
        fill,
        tournament,
    )


def _decode_newgroup(el: Element) -> Message:
    status = _enum_attr(el, "status", ("init", "ack", "accept", "reject", "closed"))
    game = _child_text(el, "game")
    if status == "init":
        games_text = _opt_attr(el, "games", 12)
        games = parse_int(games_text, "games") if games_text is not None else None
        if games is not None and not 1 <= games <= MAX_GROUP_GAMES:
            raise MessageError(f"games is 1 to {MAX_GROUP_GAMES}")
        deal = _opt_attr(el, "deal", 16)
        if deal not in (None, "duplicate"):
            raise MessageError("deal is 'duplicate' or left out")
        tournament = _opt_attr(el, "tournament", MAX_GROUP_LENGTH)
        if deal is not None and tournament is None:
            raise MessageError("a duplicate deal is a tournament board's: give its tournament")
        return NewGroupInit(
            game,
            _opt_attr(el, "id", MAX_GROUP_LENGTH),
            _players(el),
            tournament,
            games,
            deal is not None,
        )
    if status == "ack":
        elements = _children(el, "player")
        tickets = [_opt_attr(p, "ticket", MAX_GROUP_LENGTH) for p in elements]
        given = tuple(t for t in tickets if t is not None)
        if given and len(given) != len(tickets):
            raise MessageError("<newgroup status='ack'>: a ticket for every player or for none")
        return NewGroupAck(
            game, _opt_attr(el, "id", MAX_GROUP_LENGTH), tuple(map(_player, elements)), given
        )
    if status == "closed":
        return NewGroupClosed(game, _attr(el, "id", MAX_GROUP_LENGTH))
    player = _one(el, "player")
    assert player is not None
    return NewGroupAnswer(
        status == "accept", _attr(el, "id", MAX_GROUP_LENGTH), game, _player(player)
    )


def _decode_newgame(el: Element) -> Message:
    status = _enum_attr(el, "status", ("ask", "accept", "reject"))
    group = _opt_attr(el, "id", MAX_GROUP_LENGTH)
    if status == "ask":
        return NewGameAsk(_players(el), group)
    player = _one(el, "player")
    assert player is not None
    return NewGameAnswer(status == "accept", _player(player), group)


def _decode_dial_part(el: Element) -> DialPart:
    kind = _enum_attr(el, "type", ("cards", "info"))
    to = _opt_place(el, "to")
    from_ = _opt_place(el, "from")
    if to is None or from_ is None:
        raise MessageError("<dial> needs 'to' and 'from' attributes")
    return DialPart(kind, to, from_, _maybe_cards(el), _opt_attr(el, "playerid"))


def _decode_licite(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("ask", "answer", "info", "result"))
    text = _text_of(el)
    if kind == "ask":
        return LiciteAsk(parse_game_code(text) if text else None)
    if kind == "answer":
        return LiciteAnswer(parse_game_code(text, allow_answers=True))
    if kind == "info":
        return LiciteInfo(_attr(el, "playerid"), parse_game_code(text, allow_answers=True))
    return LiciteResult(_attr(el, "playerid"), parse_game_code(text))


def _decode_playcard(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("ask", "cards", "info"))
    if kind == "ask":
        return PlayCardAsk()
    if kind == "cards":
        cards = _cards(el)
        if not cards:
            raise MessageError("<playcard type='cards'> needs at least one <card>")
        return PlayCardCards(
            cards, _opt_place(el, "from") or "hand", _opt_place(el, "to") or "desk"
        )
    return PlayCardInfo(
        _attr(el, "playerid"), _maybe_cards(el), _opt_place(el, "from"), _opt_place(el, "to")
    )


def _decode_gametype(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("ask", "answer", "info"))
    licite = parse_game_code(_child_text(el, "licite"))
    if kind == "ask":
        return GameTypeAsk(licite)
    if kind == "answer":
        return GameTypeAnswer(licite, _trumf_child(el))
    return GameTypeInfo(_attr(el, "playerid"), licite, _trumf_child(el), _flek_child(el))


def _decode_flek(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("ask", "answer", "info"))
    level = parse_flek(_text_of(el))
    if kind == "ask":
        return FlekAsk(level)
    if kind == "answer":
        return FlekAnswer(level)
    return FlekInfo(_attr(el, "playerid"), level)


def _decode_result(el: Element) -> Message:
    return Result(
        _child_text(el, "game"),
        parse_game_code(_child_text(el, "licite")),
        _trumf_child(el),
        _flek_child(el),
        tuple(_round(r) for r in _children(el, "round")),
        tuple(_money(w, "get") for w in _children(el, "winner") + _children(el, "winer")),
        tuple(_money(w, "lost") for w in _children(el, "loser")),
    )


def _decode_abort(el: Element) -> Message:
    player = _one(el, "player")
    assert player is not None
    return Abort(_player(player), _child_text(el, "message", MAX_TEXT_LENGTH))


def _decode_load(el: Element) -> Message:
    value = parse_int(_text_of(el), "load")
    if value > 100:
        raise MessageError("load must be between 0 and 100")
    return Load(value)


def _decode_pause(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("start", "finish"))
    if kind == "start":
        return PauseStart(
            _opt_child_text(el, "message", MAX_TEXT_LENGTH), _opt_attr(el, "playerid")
        )
    return PauseFinish(_opt_attr(el, "playerid"))


def _decode_renonc(el: Element) -> Message:
    player = _one(el, "player")
    assert player is not None
    return Renonc(_player(player), _child_text(el, "message", MAX_TEXT_LENGTH))


_DECODERS: dict[str, Callable[[Element], Message]] = {
    "connect": _decode_connect,
    "newgroup": _decode_newgroup,
    "newgame": _decode_newgame,
    "licite": _decode_licite,
    "playcard": _decode_playcard,
    "gametype": _decode_gametype,
    "flek": _decode_flek,
    "round": _round,
    "result": _decode_result,
    "abort": _decode_abort,
    "load": _decode_load,
    "disconnect": lambda el: Disconnect(_text_of(el, MAX_TEXT_LENGTH, "<disconnect>")),
    "pause": _decode_pause,
    "cancelgame": lambda el: CancelGame(_text_of(el, MAX_TEXT_LENGTH, "<cancelgame>")),
    "renonc": _decode_renonc,
    "resign": lambda el: Resign(),
    "standin": lambda el: StandIn(_enum_attr(el, "type", ("start", "finish")) == "start"),
    "error": lambda el: Error(
        _text_of(el, MAX_TEXT_LENGTH, "<error>"), _opt_attr(el, "code") or "ERROR"
    ),
}

MESSAGE_TAGS: tuple[str, ...] = ("dial", *_DECODERS)
"""Every element name that may appear directly inside ``<cgml>``."""


def decode_body(body: Sequence[Element]) -> Message:
    """The message carried by the child elements of ``<cgml>``."""
    if not body:
        raise MessageError("empty <cgml> message")
    tags = [_tag(el) for el in body]
    if tags[0] == "dial":
        if any(t != "dial" for t in tags):
            raise MessageError("a message with <dial> may contain only <dial> elements")
        return Dial(tuple(_decode_dial_part(el) for el in body))
    if len(body) > 1:
        raise MessageError("one <cgml> message carries one element (only <dial> may repeat)")
    decoder = _DECODERS.get(tags[0])
    if decoder is None:
        raise MessageError(f"unknown message <{tags[0][:30]}>")
    return decoder(body[0])


__all__ = ["MESSAGE_TAGS", "decode_body"]
