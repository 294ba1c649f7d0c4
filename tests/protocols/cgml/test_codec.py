"""The CGML codec: every message of the seed, framing, safety limits, round trips, fuzzing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herna.protocols.cgml import codec
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.cards import Card, CardCodeError, all_cards, marias_pack, parse_card
from herna.protocols.cgml.codec import CgmlError, Decoder, decode, encode, encode_text
from tests.protocols.cgml.strategies import messages

C = parse_card


def wrap(body: str, version: str = ' version="1.0"') -> bytes:
    return f"<cgml{version}>\r\n{body}\r\n</cgml>\r\n\r\n".encode()


# -- card codes ---------------------------------------------------------------------------


def test_card_examples_of_the_seed() -> None:
    assert C("R07") == Card("R", "07")
    assert C("B10").code == "B10"
    assert C("G0J") == Card("G", "0J")
    assert C("A0A").is_marias
    assert C("T18").suit == "T" and not C("T18").is_marias
    assert C("J00").code == "J00" and not C("J00").is_marias


def test_card_codes_case_insensitive_and_emitted_upper() -> None:
    assert C("a0a").code == "A0A"
    assert C(" g0q ").code == "G0Q"


@pytest.mark.parametrize("bad", ["", "R7", "R0X", "X07", "T23", "T00", "J01", "R11", "R00", "R0A1"])
def test_bad_card_codes(bad: str) -> None:
    with pytest.raises(CardCodeError):
        C(bad)


def test_pack_sizes() -> None:
    assert len(marias_pack()) == 32 and all(c.is_marias for c in marias_pack())
    # 4 plain suits x 14 ranks + 22 taroky + 1 joker
    assert len(all_cards()) == 4 * 14 + 22 + 1
    assert all(C(c.code) == c for c in all_cards())


# -- every message of chapters 2-4, as the seed writes it ----------------------------------

SEED_EXAMPLES: list[tuple[str, m.Message]] = [
    (
        '<connect status="server"><game>licitovany_marias</game><numplayers>3</numplayers>'
        "<url>127.0.0.1:7003</url></connect>",
        m.ConnectServer("licitovany_marias", 3, "127.0.0.1:7003"),
    ),
    (
        '<connect status="passive"><player id="6533"><name>Wampaire</name><race>human</race>'
        "</player><game>licitovany_marias</game><opponent><player>Karel</player>"
        '<player id="12"></player></opponent></connect>',
        m.ConnectPlayer(
            "passive",
            m.PlayerRef("6533", "Wampaire", "human"),
            "licitovany_marias",
            (m.PlayerRef(None, "Karel"), m.PlayerRef("12")),
        ),
    ),
    (
        '<newgroup status="init"><game>licitovany_marias</game></newgroup>',
        m.NewGroupInit("licitovany_marias"),
    ),
    (
        '<newgroup status="init" id="g7" tournament="3/1.1" games="3">'
        "<game>licitovany_marias</game></newgroup>",
        m.NewGroupInit("licitovany_marias", "g7", (), "3/1.1", 3),
    ),
    (
        '<newgroup status="init" id="g8" tournament="4/2.1" games="1" deal="duplicate">'
        "<game>licitovany_marias</game></newgroup>",
        m.NewGroupInit("licitovany_marias", "g8", (), "4/2.1", 1, duplicate=True),
    ),
    (
        '<connect status="passive" tournament="3"><player id="ada"/>'
        "<game>licitovany_marias</game></connect>",
        m.ConnectPlayer("passive", m.PlayerRef("ada"), "licitovany_marias", tournament="3"),
    ),
    (
        '<newgroup status="ack"><game>licitovany_marias</game></newgroup>',
        m.NewGroupAck("licitovany_marias"),
    ),
    (
        '<connect status="complete" id="4"><game>licitovany_marias</game>'
        '<player id="8678"></player><player id="1216"></player><url>192.168.0.1:7002</url>'
        "</connect>",
        m.ConnectComplete(
            "4", "licitovany_marias", (m.PlayerRef("8678"), m.PlayerRef("1216")), "192.168.0.1:7002"
        ),
    ),
    (
        '<newgroup status="reject" id="4"><game>licitovany_marias</game>'
        '<player id="6533"></player></newgroup>',
        m.NewGroupAnswer(False, "4", "licitovany_marias", m.PlayerRef("6533")),
    ),
    (
        '<newgame status="ask"><player id="6533"></player><player id="8678"></player>'
        '<player id="1216"></player></newgame>',
        m.NewGameAsk((m.PlayerRef("6533"), m.PlayerRef("8678"), m.PlayerRef("1216"))),
    ),
    (
        '<newgame status="accept"><player id="6533"></player></newgame>',
        m.NewGameAnswer(True, m.PlayerRef("6533")),
    ),
    (
        '<dial type="cards" to="hand" from="desk"><card>R07</card><card>A0A</card></dial>'
        '<dial type="info" to="talon" from="desk"><card></card><card></card></dial>',
        m.Dial(
            (
                m.DialPart("cards", "hand", "desk", (C("R07"), C("A0A"))),
                m.DialPart("info", "talon", "desk", (None, None)),
            )
        ),
    ),
    (
        '<dial type="info" to="hand" from="desk" playerid="6533"><card></card><card></card></dial>',
        m.Dial((m.DialPart("info", "hand", "desk", (None, None), "6533"),)),
    ),
    ('<licite type="ask">100</licite>', m.LiciteAsk("100")),
    ('<licite type="ask"></licite>', m.LiciteAsk(None)),
    ('<licite type="answer">NO</licite>', m.LiciteAnswer("NO")),
    ('<licite type="info" playerid="6533">100</licite>', m.LiciteInfo("6533", "100")),
    ('<licite type="result" playerid="6533">100</licite>', m.LiciteResult("6533", "100")),
    (
        '<dial type="cards" from="talon" to="hand"><card>B10</card><card>G0J</card></dial>',
        m.Dial((m.DialPart("cards", "hand", "talon", (C("B10"), C("G0J"))),)),
    ),
    (
        '<playcard type="cards" from="hand" to="talon"><card>B10</card><card>G0J</card></playcard>',
        m.PlayCardCards((C("B10"), C("G0J")), "hand", "talon"),
    ),
    (
        '<playcard type="info" playerid="6533" from="hand" to="talon"><card></card><card></card>'
        "</playcard>",
        m.PlayCardInfo("6533", (None, None), "hand", "talon"),
    ),
    ('<gametype type="ask"><licite>100</licite></gametype>', m.GameTypeAsk("100")),
    (
        '<gametype type="answer"><licite>100</licite><trumf>G</trumf></gametype>',
        m.GameTypeAnswer("100", m.Trumf("G")),
    ),
    (
        '<gametype type="info" playerid="6533"><licite>27</licite><trumpf>G:B</trumpf></gametype>',
        m.GameTypeInfo("6533", "27", m.Trumf("G", "B")),
    ),
    ('<flek type="ask">1</flek>', m.FlekAsk(m.Flek(1))),
    ('<flek type="answer">1:1</flek>', m.FlekAnswer(m.Flek(1, 1))),
    ('<flek type="info" playerid="6533">4</flek>', m.FlekInfo("6533", m.Flek(4))),
    (
        '<gametype type="info" playerid="6533"><licite>100</licite><trumpf>G</trumpf>'
        "<flek>4</flek></gametype>",
        m.GameTypeInfo("6533", "100", m.Trumf("G"), m.Flek(4)),
    ),
    ('<playcard type="ask"></playcard>', m.PlayCardAsk()),
    (
        '<playcard type="cards" from="hand" to="desk"><card>A0A</card></playcard>',
        m.PlayCardCards((C("A0A"),)),
    ),
    (
        '<playcard type="info" from="hand" to="desk" playerid="6533"><card>A0A</card></playcard>',
        m.PlayCardInfo("6533", (C("A0A"),)),
    ),
    (
        '<round number="1" playerid="6533"><card>A0A</card><card>A07</card><card>A10</card>'
        "</round>",
        m.Round(1, "6533", (C("A0A"), C("A07"), C("A10"))),
    ),
    (
        "<result><game>licitovany_marias</game><licite>100</licite><trumf>G</trumf>"
        '<flek>4</flek><round number="1" playerid="6533"><card>A0A</card><card>A07</card>'
        '<card>A10</card></round><winer playerid="6533"><money type="get">100</money></winer>'
        '<loser playerid="8678"><money type="lost">50</money></loser>'
        '<loser playerid="1216"><money type="lost">50</money></loser></result>',
        m.Result(
            "licitovany_marias",
            "100",
            m.Trumf("G"),
            m.Flek(4),
            (m.Round(1, "6533", (C("A0A"), C("A07"), C("A10"))),),
            (m.MoneyLine("6533", 100),),
            (m.MoneyLine("8678", 50), m.MoneyLine("1216", 50)),
        ),
    ),
    (
        "<abort><player>Karel</player><message>Timeout</message></abort>",
        m.Abort(m.PlayerRef(None, "Karel"), "Timeout"),
    ),
    ("<load>48</load>", m.Load(48)),
    ("<disconnect>Overload</disconnect>", m.Disconnect("Overload")),
    (
        '<pause type="start"><message>phone</message></pause>',
        m.PauseStart("phone"),
    ),
    ('<pause type="finish">\r\n  </pause>', m.PauseFinish()),
    ("<cancelgame>renonc</cancelgame>", m.CancelGame("renonc")),
    (
        '<renonc><player id="6533"></player><message>You must play red!</message></renonc>',
        m.Renonc(m.PlayerRef("6533"), "You must play red!"),
    ),
    ('<error code="WRONG_PHASE">not now</error>', m.Error("not now", "WRONG_PHASE")),
]


@pytest.mark.parametrize(("body", "expected"), SEED_EXAMPLES, ids=lambda x: str(x)[:40])
def test_seed_examples_decode_and_round_trip(body: str, expected: m.Message) -> None:
    assert decode(wrap(body)) == expected
    assert decode(encode(expected)) == expected


def test_result_money() -> None:
    body = next(b for b, msg in SEED_EXAMPLES if isinstance(msg, m.Result))
    result = decode(wrap(body))
    assert isinstance(result, m.Result)
    assert result.money() == {"6533": 100, "8678": -50, "1216": -50}
    assert "<winner " in encode_text(result) and "<trumf>" in encode_text(result)


def test_encoding_is_crlf_with_empty_line_and_lower_case() -> None:
    text = encode_text(m.FlekInfo("6533", m.Flek(4)))
    assert text == (
        '<cgml version="1.0">\r\n  <flek type="info" playerid="6533">4</flek>\r\n</cgml>\r\n\r\n'
    )


def test_encoding_escapes_markup_in_text() -> None:
    msg = m.Abort(m.PlayerRef('a"b', "<&>"), "x < y & z")
    assert decode(encode(msg)) == msg


def test_liberal_input_forms() -> None:
    # LF only, no version, no empty line, XML declaration, comment, upper-case codes & tags.
    data = (
        b'<?xml version="1.0" encoding="utf-8"?>\n<!-- hi --><cgml>\n'
        b'<LICITE type="ANSWER">small</LICITE>\n</cgml>'
    )
    assert Decoder().feed(data) == [m.LiciteAnswer("SMALL")]
    assert decode(wrap('<licite type="info" playerid="x">b7</licite>', "")) == m.LiciteInfo(
        "x", "B7"
    )
    assert decode(
        wrap("<gametype type='answer'><licite>7</licite><trumf>r</trumf></gametype>")
    ) == (m.GameTypeAnswer("7", m.Trumf("R")))


# -- framing ------------------------------------------------------------------------------


def test_byte_by_byte_and_many_per_chunk() -> None:
    msgs = [m.LiciteAsk(), m.PlayCardAsk(), m.FlekAsk(m.Flek(2, 1)), m.Load(3)]
    data = b"".join(encode(x) for x in msgs)
    dec = Decoder()
    out: list[object] = []
    for i in range(len(data)):
        out.extend(dec.feed(data[i : i + 1]))
    assert out == msgs
    assert dec.pending == 0
    assert Decoder().feed(data) == msgs


def test_pending_counts_half_a_message() -> None:
    dec = Decoder()
    assert dec.feed(b'<cgml version="1.0"><licite type=') == []
    assert dec.pending > 0
    assert dec.feed(b'"ask"></licite></cgml>\r\n\r\n') == [m.LiciteAsk()]
    assert dec.pending == 0


def fatal_code(data: bytes) -> str:
    out = Decoder().feed(data)
    assert len(out) == 1 and isinstance(out[0], CgmlError) and out[0].fatal, out
    return out[0].code


def test_not_xml_is_fatal() -> None:
    assert fatal_code(b"HELLO\r\n\r\n") == codec.NOT_XML
    assert fatal_code(b"<foo>bar</foo>") == codec.NOT_CGML
    assert fatal_code(b"<cgml><licite type='ask'>1</lic></cgml>\r\n") == codec.NOT_XML


def test_unknown_version_is_fatal() -> None:
    assert fatal_code(wrap("<load>1</load>", ' version="2.0"')) == codec.BAD_VERSION


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<cgml version="1.0"><disconnect>&lol4;</disconnect></cgml>

"""


def test_billion_laughs_and_dtds_are_refused() -> None:
    assert fatal_code(BILLION_LAUGHS) == codec.DTD_FORBIDDEN
    assert fatal_code(b'<!DOCTYPE cgml SYSTEM "http://example.com/x.dtd"><cgml/>') == (
        codec.DTD_FORBIDDEN
    )
    # A DTD inside the document (after the XML declaration) is caught by the parser.
    inner = b'<?xml version="1.0"?><!DOCTYPE cgml [<!ENTITY a "b">]><cgml><load>1</load></cgml>'
    assert fatal_code(inner) == codec.DTD_FORBIDDEN


def test_ten_megabytes_is_refused_without_buffering_it() -> None:
    dec = Decoder()
    out: list[object] = []
    chunk = b'<cgml version="1.0"><disconnect>' + b"x" * 65_000
    out.extend(dec.feed(chunk))
    sent = len(chunk)
    while not out and sent < 10_000_000:
        out.extend(dec.feed(b"x" * 65_536))
        sent += 65_536
        assert dec.pending <= codec.MAX_MESSAGE_BYTES + 65_536
    assert sent < 200_000  # refused as soon as it passed the limit
    assert len(out) == 1 and isinstance(out[0], CgmlError) and out[0].code == codec.TOO_LARGE
    assert dec.closed and dec.feed(b"<cgml><load>1</load></cgml>") == []


def test_deep_nesting_is_refused() -> None:
    body = "<a>" * 50 + "</a>" * 50
    assert fatal_code(wrap(body)) == codec.TOO_DEEP
    # Deep but small enough to be legal CGML elsewhere is still refused past MAX_DEPTH.
    assert fatal_code(wrap("<x>" * (codec.MAX_DEPTH) + "</x>" * codec.MAX_DEPTH)) == codec.TOO_DEEP


@pytest.mark.parametrize(
    "body",
    [
        "<hello/>",
        '<licite type="ask">301</licite>',
        '<licite type="whatever">7</licite>',
        '<playcard type="cards" from="hand" to="desk"><card>X99</card></playcard>',
        '<playcard type="cards" from="hand" to="desk"></playcard>',
        '<flek type="answer">0</flek>',
        '<flek type="answer">1:2:3</flek>',
        "<load>101</load>",
        '<connect status="passive"><game>x</game></connect>',
        "<load>1</load><load>2</load>",
        "",
        '<gametype type="answer"><licite>7</licite><trumf>X</trumf></gametype>',
        f'<connect status="active"><player id="{"9" * 100}"/><game>g</game></connect>',
        '<connect status="active" fill="-1"><player id="a"/><game>g</game></connect>',
        '<connect status="active" fill="3601"><player id="a"/><game>g</game></connect>',
        '<connect status="active" fill="ten"><player id="a"/><game>g</game></connect>',
        '<connect status="active" tournament="x1"><player id="a"/><game>g</game></connect>',
        '<newgroup status="init" games="0"><game>g</game></newgroup>',
        '<newgroup status="init" games="101"><game>g</game></newgroup>',
        '<newgroup status="init" games="3" deal="same"><game>g</game></newgroup>',
        '<newgroup status="init" games="1" deal="duplicate"><game>g</game></newgroup>',
        '<newgroup status="init" deal="duplicate"><game>g</game></newgroup>',
    ],
)
def test_invalid_cgml_is_a_non_fatal_error(body: str) -> None:
    dec = Decoder()
    out = dec.feed(wrap(body) + encode(m.Load(7)))
    assert len(out) == 2, out
    assert isinstance(out[0], CgmlError) and not out[0].fatal and out[0].code == codec.BAD_MESSAGE
    assert out[1] == m.Load(7)  # the stream goes on


def test_garbage_after_a_message_is_fatal_but_message_delivered() -> None:
    out = Decoder().feed(encode(m.Load(1)) + b"garbage")
    assert out[0] == m.Load(1)
    assert isinstance(out[1], CgmlError) and out[1].fatal


# -- properties ---------------------------------------------------------------------------


@settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(messages)
def test_round_trip(message: m.Message) -> None:
    data = encode(message)
    assert decode(data) == message
    assert data.endswith(b"</cgml>\r\n\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")


@settings(deadline=None, max_examples=100)
@given(st.lists(messages, min_size=1, max_size=5), st.data())
def test_any_chunking_gives_the_same_messages(msgs: list[m.Message], data: st.DataObject) -> None:
    stream = b"".join(encode(x) for x in msgs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    dec = Decoder()
    out: list[object] = []
    last = 0
    for cut in [*cuts, len(stream)]:
        out.extend(dec.feed(stream[last:cut]))
        last = cut
    assert out == msgs


@settings(deadline=None, max_examples=300)
@given(st.binary(max_size=300))
def test_fuzz_random_bytes_never_raise(data: bytes) -> None:
    dec = Decoder()
    out = dec.feed(data)
    for item in out:
        assert isinstance(item, (m.Message, CgmlError))
    assert dec.pending <= len(data)


@settings(deadline=None, max_examples=300)
@given(messages, st.data())
def test_fuzz_mutated_messages_never_raise(message: m.Message, data: st.DataObject) -> None:
    raw = bytearray(encode(message))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        op = data.draw(st.sampled_from(["flip", "delete", "insert"]))
        if op == "flip":
            raw[i] = data.draw(st.integers(0, 255))
        elif op == "delete":
            del raw[i]
        else:
            raw[i:i] = data.draw(st.sampled_from([b"<", b">", b"&", b'"', b"</cgml>", b"\x00"]))
    out = Decoder().feed(bytes(raw))
    for item in out:
        assert isinstance(item, (m.Message, CgmlError))


@settings(deadline=None, max_examples=200)
@given(
    st.sampled_from(["licite", "playcard", "flek", "gametype", "connect", "dial", "result"]),
    st.dictionaries(
        st.sampled_from(["type", "status", "playerid", "id", "to", "from", "number"]),
        st.text("abcdefghijklmnopqrstuvwxyz0123456789", max_size=8),
        max_size=4,
    ),
    st.lists(
        st.tuples(
            st.sampled_from(["card", "player", "licite", "trumf", "flek", "game", "round", "x"]),
            st.text("ABGRTJ0123456789QKa:", max_size=5),
        ),
        max_size=5,
    ),
)
def test_fuzz_structured_nonsense_is_a_clean_error(
    tag: str, attrs: dict[str, str], children: list[tuple[str, str]]
) -> None:
    attr_text = "".join(f' {k}="{v}"' for k, v in attrs.items())
    inner = "".join(f"<{t}>{v}</{t}>" for t, v in children)
    out = Decoder().feed(wrap(f"<{tag}{attr_text}>{inner}</{tag}>"))
    assert len(out) == 1
    item = out[0]
    assert isinstance(item, m.Message) or (isinstance(item, CgmlError) and not item.fatal)
