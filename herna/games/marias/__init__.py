"""Licitovaný mariáš (auction mariáš for three), the card game of the CGML hall (seed 001).

A pure, deterministic rules engine: no I/O, no clock, no global randomness. Rules follow
``marias-rules.md`` (its DEFAULT choices), the seed's 11-step follow rule and the spec notes;
every decision is documented in ``docs/games/marias.md``.

Public API
==========

Everything below is importable from ``herna.games.marias`` and is kept stable (names are
only ever added).

Cards (:mod:`~herna.games.marias.cards`)
    A card is an ``int`` 0..31 = ``suit * 8 + rank``; suits ``R B G A`` = 0..3; natural ranks
    ``07 08 09 10 0J 0Q 0K 0A`` = 0..7. Sets of cards are ``int`` bitmasks.
    ``parse_card("G0J") -> 20``, ``format_card(20) -> "G0J"``, ``parse_cards("R07 A0A")``,
    ``format_cards([...])``, ``parse_suit("G")``, ``format_suit(2)``, ``mask_of``,
    ``cards_of``, ``CARD_CODES``. ``CardError`` (a ``ValueError``) for bad codes; ``T01``–``T22``
    and ``J00`` are refused with a message saying they are not mariáš cards
    (``is_cgml_card_code`` accepts them, for the codec).

Contracts (:mod:`~herna.games.marias.contracts`)
    ``Contract`` is the CGML ladder as an ``IntEnum`` in order: ``PASS G BG C7 B7 C100 C107
    B100 B107 SMALL BIG C27 C127 B27 B127``; ``Contract.parse("107")``, ``.code`` (``"107"``),
    ``.hearts``, ``.has_trumps``, ``.has_second_suit``, ``.parts`` (``Part`` tuple in flek
    order). ``format_trumps(G, B) -> "G:B"``, ``parse_trumps("G:B") -> (G, B)``,
    ``format_flek((2, 1)) -> "2:1"``, ``parse_flek("2:1", nparts)``. ``Tariff`` (units per
    defender, ČSM default; ``TARIFFS`` = csm/re/pub) and ``Rules`` (tariff, max flek).

Actions (:mod:`~herna.games.marias.actions`), in CGML flow order
    ``Deal(card)`` chance, 32 per game (5 each from forhont, talon 2, 5 each) ·
    ``Bid(contract)`` the bidder's offer (``<licite type="ask"/>`` → code or ``PASS``) ·
    ``Answer(yes)`` the holder's ``YES``/``NO`` (``<licite type="ask">CODE</licite>``) ·
    the talon goes to the auction winner automatically (no action) ·
    ``Discard((c1, c2))`` two cards to the talon · ``GameType(contract, trumps, second)``
    (keep or raise; trumps None for betl/durch; second = strkací suit for dvě sedmy) ·
    ``Flek(levels)`` keep or raise per part (CGML ``a:b``) · ``Play(card)`` ·
    ``Claim(cards)`` ložená: all remaining cards at once (not in ``legal_actions()``) ·
    ``Renonc(action)`` the server rules the current player's illegal action a renonc ·
    ``Resign()`` the aktér concedes on his turn (flek or play): every part lost.
    ``encode_action``/``decode_action`` give compact log strings (``"play A0A"``,
    ``"game 27 G:B"``, ``"flek 2:1"``); ``MariasCodec`` is the ``ActionCodec`` for
    :class:`herna.hall.match.Match`; ``parse_licite_answer("YES")``, ``licite_text(action)``.

State (:mod:`~herna.games.marias.state`)
    ``new_game(dealer=0, rules=Rules()) -> MariasState`` (seats 0, 1, 2 clockwise; forhont is
    ``dealer + 1``, the middle ``dealer + 2``, zadák = dealer). A group of games rotates the
    dealer clockwise: ``next_dealer(d) == (d + 1) % 3``, ``dealer_of_game(first, i)``.
    ``MariasState`` implements :class:`herna.core.game.GameState`: ``num_players`` (3),
    ``current_player()`` (seat, ``CHANCE`` or ``TERMINAL``), ``legal_actions()``,
    ``chance_outcomes()``, ``apply(action) -> MariasState`` (a new state, the receiver
    unchanged; raises ``IllegalAction(reason, code)`` with a seed-style reason such as
    ``"You must play red!"``), ``is_terminal()``, ``outcome()`` (``Outcome.returns`` = money
    per seat in tariff units, summing to zero) and ``view(player | None)`` (JSON-ready, only
    what that seat may see; ``None`` = spectator). And OpenSpiel's in-place API, the fast
    path that servers, bots and search use: ``apply_action(action)`` (mutates; same checks,
    an illegal action changes nothing), ``clone()``, ``is_chance_node()``, ``returns()``
    (money per seat as floats once terminal, zeros before). Also: ``phase`` (``Phase``),
    ``check(action) -> str | None`` (reason when illegal), ``claim_holds(player)``,
    ``settlement()`` → ``Settlement`` (money, parts, renonc, tricks for the CGML
    ``<result>``), ``auction_winner``, ``declarer``, ``contract``, ``trumps``, ``second``,
    ``flek_levels`` (highest level per part), ``seat_flek_levels(seat)``, ``flek_text()``
    (highest, for the summary and result) and ``flek_text(seat)`` (what a ``<flek
    type="ask">`` offers that seat: a flek binds only the defender who said it),
    ``trumps_text()``, ``hand(seat)``, ``talon()`` (dealt talon, then the discards),
    ``dealt_talon()`` (the two cards the winner picks up),
    ``tricks`` (``Trick`` tuples: number, leader, cards, winner), ``current_trick()``,
    ``history()`` (every action applied, with the acting seat), ``pending_bid`` (the code
    to ask the holder about, or None when the bidder is asked to offer).
    Renonc: ``state.apply(Renonc(Play(card)))`` ends the game; ``settlement().renonc`` has the
    offender and the reason.

Rules tables (:mod:`~herna.games.marias.rules`), views (:mod:`~herna.games.marias.view`),
reasons (:mod:`~herna.games.marias.legality`), the deal's facts (:mod:`~herna.games.marias.core`)
    ``Phase``; ``legal_play_mask(hand_mask, trick, trumps, order)`` (the seed's 11 steps on
    masks; ``trumps`` -1 and ``order`` 1 for betl/durch), ``trick_winner_index``,
    ``DEAL_TO`` (deal position → seat offset from the dealer, -1 talon), ``STRENGTH``;
    ``state_view`` and ``rules_of_view``. (``state`` re-exports the rules names.)

Log and replay (:mod:`~herna.games.marias.log`)
    ``GameLog(seed, dealer, actions)`` with ``to_json``/``from_json``; ``play_log(log)``
    rebuilds the state; ``deal_actions(rng)`` draws the 32 chance actions of a shuffled deal.
    :mod:`herna.games.marias.replay` has ``replay_steps`` for the web hall.

Bots (:mod:`~herna.games.marias.bots`)
    Every bot has ``choose(view, legal_actions, rng) -> action``: it only ever gets the seat's
    view (``state.view(seat)``) and the legal actions; ``rng`` is a ``random.Random``-like
    object (``random()``, ``randrange(n)``). ``RandomBot()``, ``RuleBot()`` (hand-strength
    bidding, standard play), ``SearchBot(iterations=..., time_budget=None, clock=None)``
    (PIMC: samples hidden hands consistent with the view).
    ``make_bot("random" | "heuristic" | "sampling-search")`` or by level
    ``make_bot("easy" | "medium" | "hard" | "strongest")``.

Example::

    >>> import random
    >>> from herna.games.marias import new_game, RandomBot
    >>> rng = random.Random(7)
    >>> state, bot = new_game(dealer=0), RandomBot()
    >>> while not state.is_terminal():
    ...     if state.is_chance_node():
    ...         state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    ...     else:
    ...         view = state.view(state.current_player())
    ...         state.apply_action(bot.choose(view, state.legal_actions(), rng))
    >>> sum(state.returns()), state.returns() == list(state.outcome().returns)
    (0.0, True)
"""

from herna.core.game import CHANCE, TERMINAL
from herna.games.marias.actions import (
    BID,
    DEAL,
    NO,
    PLAY,
    RESIGN,
    YES,
    Action,
    Answer,
    Bid,
    Claim,
    Deal,
    Discard,
    Flek,
    GameType,
    MariasCodec,
    Play,
    Renonc,
    Resign,
    decode_action,
    discard_of,
    encode_action,
    licite_text,
    parse_licite_answer,
)
from herna.games.marias.bots import Bot, RandomBot, RuleBot, SearchBot, make_bot
from herna.games.marias.cards import (
    CARD_CODES,
    SUIT_CODES,
    Card,
    CardError,
    Suit,
    cards_of,
    format_card,
    format_cards,
    format_suit,
    is_cgml_card_code,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
)
from herna.games.marias.contracts import (
    CONTRACTS,
    TARIFFS,
    Contract,
    Part,
    Rules,
    Tariff,
    format_flek,
    format_trumps,
    parse_flek,
    parse_trumps,
)
from herna.games.marias.log import GameLog, deal_actions, play_log
from herna.games.marias.state import (
    MariasState,
    PartResult,
    Phase,
    RenoncInfo,
    Settlement,
    Trick,
    dealer_of_game,
    new_game,
    next_dealer,
)

__all__ = [
    "BID",
    "CARD_CODES",
    "CHANCE",
    "CONTRACTS",
    "DEAL",
    "NO",
    "PLAY",
    "RESIGN",
    "SUIT_CODES",
    "TARIFFS",
    "TERMINAL",
    "YES",
    "Action",
    "Answer",
    "Bid",
    "Bot",
    "Card",
    "CardError",
    "Claim",
    "Contract",
    "Deal",
    "Discard",
    "Flek",
    "GameLog",
    "GameType",
    "MariasCodec",
    "MariasState",
    "Part",
    "PartResult",
    "Phase",
    "Play",
    "RandomBot",
    "Renonc",
    "RenoncInfo",
    "Resign",
    "RuleBot",
    "Rules",
    "SearchBot",
    "Settlement",
    "Suit",
    "Tariff",
    "Trick",
    "cards_of",
    "deal_actions",
    "dealer_of_game",
    "decode_action",
    "discard_of",
    "encode_action",
    "format_card",
    "format_cards",
    "format_flek",
    "format_suit",
    "format_trumps",
    "is_cgml_card_code",
    "licite_text",
    "make_bot",
    "mask_of",
    "new_game",
    "next_dealer",
    "parse_card",
    "parse_cards",
    "parse_flek",
    "parse_licite_answer",
    "parse_suit",
    "parse_trumps",
    "play_log",
]
