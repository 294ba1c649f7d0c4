"""Hypothesis strategies for every CGML message (shared by the codec tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from herna.protocols.cgml import messages as m
from herna.protocols.cgml.cards import Card, all_cards

_ALPHABET = st.characters(
    blacklist_categories=("Cs", "Cc"),  # no surrogates, no control characters
    blacklist_characters="\ufffe\uffff",
)
text = st.text(_ALPHABET, min_size=1, max_size=20).map(str.strip).filter(bool)
opt_text = st.none() | text
ids = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=12)
cards = st.sampled_from(all_cards())
maybe_cards = st.none() | cards
places = st.sampled_from(m.PLACES)
codes = st.sampled_from(m.GAME_CODES)
suits = st.sampled_from(m.TRUMP_SUITS)
trumfs = st.builds(m.Trumf, suits, st.none() | suits)
fleks = st.builds(m.Flek, st.integers(1, 64), st.none() | st.integers(1, 64))
players = st.builds(
    m.PlayerRef, st.none() | ids, opt_text, st.none() | st.sampled_from(["human", "bot"])
)
player_lists = st.lists(players, max_size=3).map(tuple)
tickets = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=100)


@st.composite
def _acks(draw: st.DrawFn) -> m.NewGroupAck:
    members = draw(player_lists)
    with_tickets = draw(st.booleans())
    given = tuple(draw(tickets) for _ in members) if with_tickets else ()
    return m.NewGroupAck(draw(text), draw(st.none() | ids), members, given)


def _card_tuple(
    elements: st.SearchStrategy[Card], max_size: int = 12
) -> st.SearchStrategy[tuple[Card, ...]]:
    return st.lists(elements, max_size=max_size).map(tuple)


rounds = st.builds(m.Round, st.integers(1, 10), ids, _card_tuple(cards, 3))
money = st.builds(m.MoneyLine, ids, st.integers(0, 100_000))

messages: st.SearchStrategy[m.Message] = st.one_of(
    st.builds(m.ConnectServer, text, st.integers(0, 10), text),
    st.builds(
        m.ConnectPlayer,
        st.sampled_from(["passive", "active"]),
        players,
        text,
        player_lists,
        st.none() | ids,
        st.none() | st.integers(0, m.MAX_FILL),
        st.none() | st.integers(1, 10**9).map(str),
    ),
    st.builds(m.ConnectComplete, tickets, text, player_lists, text, st.none() | ids),
    st.builds(
        m.NewGroupInit,
        text,
        st.none() | ids,
        player_lists,
        st.none() | ids,
        st.none() | st.integers(1, m.MAX_GROUP_GAMES),
    ),
    _acks(),
    st.builds(m.NewGroupClosed, text, tickets),
    st.builds(m.NewGroupAnswer, st.booleans(), tickets, text, players),
    st.builds(m.NewGameAsk, player_lists, st.none() | ids),
    st.builds(m.NewGameAnswer, st.booleans(), players, st.none() | ids),
    st.builds(
        m.Dial,
        st.lists(
            st.builds(
                m.DialPart,
                st.sampled_from(["cards", "info"]),
                places,
                places,
                _card_tuple(maybe_cards),  # type: ignore[arg-type]
                st.none() | ids,
            ),
            min_size=1,
            max_size=4,
        ).map(tuple),
    ),
    st.builds(m.LiciteAsk, st.none() | codes),
    st.builds(m.LiciteAnswer, st.sampled_from(m.GAME_CODES + m.LICITE_ANSWERS)),
    st.builds(m.LiciteInfo, ids, st.sampled_from(m.GAME_CODES + m.LICITE_ANSWERS)),
    st.builds(m.LiciteResult, ids, codes),
    st.just(m.PlayCardAsk()),
    st.builds(m.PlayCardCards, _card_tuple(cards).filter(bool), places, places),
    st.builds(
        m.PlayCardInfo,
        ids,
        _card_tuple(maybe_cards),  # type: ignore[arg-type]
        st.none() | places,
        st.none() | places,
    ),
    st.builds(m.GameTypeAsk, codes),
    st.builds(m.GameTypeAnswer, codes, st.none() | trumfs),
    st.builds(m.GameTypeInfo, ids, codes, st.none() | trumfs, st.none() | fleks),
    st.builds(m.FlekAsk, fleks),
    st.builds(m.FlekAnswer, fleks),
    st.builds(m.FlekInfo, ids, fleks),
    rounds,
    st.builds(
        m.Result,
        text,
        codes,
        st.none() | trumfs,
        st.none() | fleks,
        st.lists(rounds, max_size=10).map(tuple),
        st.lists(money, max_size=3).map(tuple),
        st.lists(money, max_size=3).map(tuple),
    ),
    st.builds(m.Abort, players, text),
    st.builds(m.Load, st.integers(0, 100)),
    st.builds(m.Disconnect, text),
    st.builds(m.PauseStart, opt_text, st.none() | ids),
    st.builds(m.PauseFinish, st.none() | ids),
    st.builds(m.CancelGame, text),
    st.builds(m.Renonc, players, text),
    st.builds(m.Error, text, st.sampled_from(["ERROR", "WRONG_PHASE", "ID_IN_USE"])),
)
