"""Who is registered at a Mia table: names, addresses, the secrets that hold them, rate limits.

:class:`Seats` decides whether a REGISTER may have its name (the hall's
:class:`~herna.hall.identity.Identity` for reserved and house-bot names, look-alike names,
the seed's same-IP rule, a seat's secret, the names one address may hold) and keeps the
registrations by name and by address. It sends nothing: the table answers REGISTERED or
REJECTED, keeps the scores and tells spectators, so the rounds stay in one place
(:mod:`herna.servers.mia.table`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from herna.hall.identity import Identity, Refusal, name_key, same_secret
from herna.protocols.mia import NAME_ALREADY_TAKEN, TOO_MANY_NAMES, Register

Addr = tuple[str, int]

INACTIVE_AFTER_MISSED_JOINS = 5


@dataclass
class Client:
    name: str
    addr: Addr
    spectator: bool
    missed_joins: int = 0
    joined_once: bool = False
    """It joined a round since it registered: a name that never did is waited for in one
    round only (see ``MiaTable._begin_round``)."""
    allowance: float = 0.0
    last_seen: float = 0.0
    verified: bool = False
    """It proved its name with the reserved name's token (a live session counts only such
    players: nobody else can play under their name)."""
    person: bool = False
    """A person plays under the name (``person`` in REGISTER): recorded as a person."""
    level: str = ""
    """The house bots' level it asked for (``bots=LEVEL``; ``""``: the table's default)."""
    secret: str | None = None
    """The token it registered with when its name is not reserved (**Herna extension**):
    while it is active, the name is registered again only with the same token, from any port
    of its address. The people's seats (browser, ``herna play mia``) send a fresh one, so no
    other program on their host takes a guest's seat over by its name, as the seed would
    allow. ``None`` (a seed client): the seed's rule."""

    @property
    def active(self) -> bool:
        return self.missed_joins < INACTIVE_AFTER_MISSED_JOINS


@dataclass(frozen=True)
class Rejection:
    """A REGISTER refused: the code REJECTED carries and the reason the log gives."""

    code: str
    reason: str


def seat_options(fields: Sequence[str]) -> tuple[bool, str]:
    """``(person, level)`` from REGISTER's seat fields (``person``, ``bots=LEVEL``)."""
    level = next((f[5:] for f in fields if f.startswith("bots=")), "")
    return "person" in fields, level


class Seats:
    """The registrations of one table, by name and by address.

    ``on_removed(client)`` runs for every registration that goes (UNREGISTER, or a new
    registration from its address and port): the table takes it out of the round.
    """

    def __init__(
        self,
        identity: Identity,
        on_removed: Callable[[Client], None],
        names_per_address: int = 32,
        rate_limit: float = 5000.0,
    ) -> None:
        self.identity = identity
        self.on_removed = on_removed
        self.names_per_address = names_per_address
        self.rate_limit = rate_limit
        self.clients: dict[str, Client] = {}
        self.by_addr: dict[Addr, Client] = {}
        self._spelled: dict[str, str] = {}
        """Registered names by look-alike key: ``alice`` or ``Аlice`` is ``Alice`` in use."""
        self._per_ip: Counter[str] = Counter()
        """Registrations (``by_addr`` entries) per IP address."""
        self._rate: dict[Addr, tuple[float, float]] = {}  # (ip, port) -> (allowance, last time)

    def within_rate(self, addr: Addr, now: float) -> bool:
        """May a datagram from ``addr`` be read now (a token bucket per address)?"""
        limit = self.rate_limit
        allowance, last = self._rate.get(addr, (limit, now))
        allowance = min(limit, allowance + (now - last) * limit)
        if allowance < 1.0:
            self._rate[addr] = (allowance, now)
            return False
        self._rate[addr] = (allowance - 1.0, now)
        if len(self._rate) > 10_000:  # forget idle addresses so spoofed floods cannot grow it
            self._rate = {k: v for k, v in self._rate.items() if now - v[1] < 10}
        return True

    def register(self, msg: Register, addr: Addr) -> Client | Rejection:
        """Give ``msg.name`` to ``addr``, or say why not."""
        if msg.problem:
            return Rejection(msg.problem, "REGISTER")
        admission = self.identity.admit(msg.name, msg.token)
        if isinstance(admission, Refusal):
            return Rejection(admission.code, admission.reason)
        existing = self.clients.get(self._spelled.get(name_key(msg.name), msg.name))
        if existing is not None and existing.name != msg.name:
            reason = f"the name looks like {existing.name!r}, which is registered"
            return Rejection(NAME_ALREADY_TAKEN, reason)
        if existing is not None:
            # The seed lets the same IP take a name over (the player moved to a new port).
            # From another IP only the reserved name's token does: an owner may move hosts,
            # nobody else may take a name that is in use.
            if existing.addr[0] != addr[0] and not admission.verified:
                reason = f"the name is in use from {existing.addr[0]}"
                return Rejection(NAME_ALREADY_TAKEN, reason)
            if not admission.verified and not self._holds_secret(existing, msg.token):
                reason = "the name is held with its registration's secret"
                return Rejection(NAME_ALREADY_TAKEN, reason)
            # The player moved (new port or, with the token, new host); keep the score.
            self._forget_addr(existing.addr)
            occupant = self.by_addr.get(addr)
            if occupant is not None and occupant is not existing:
                self.remove(occupant)
            existing.addr = addr
            existing.spectator = msg.spectator
            existing.verified = admission.verified
            existing.secret = None if admission.verified else msg.token
            existing.person, existing.level = seat_options(msg.seat)
            self._place(addr, existing)
            return existing
        limit = self.names_per_address
        full = limit > 0 and self._per_ip[addr[0]] >= limit and addr not in self.by_addr
        if full and not admission.house:
            reason = f"{addr[0]} has {limit} names registered (--mia-names-per-address)"
            return Rejection(TOO_MANY_NAMES, reason)
        occupant = self.by_addr.get(addr)
        if occupant is not None:
            # A new registration from the same address and port replaces the player there.
            self.remove(occupant)
        client = Client(msg.name, addr, msg.spectator, verified=admission.verified)
        client.secret = None if admission.verified else msg.token
        client.person, client.level = seat_options(msg.seat)
        self.clients[msg.name] = client
        self._spelled[name_key(msg.name)] = msg.name
        self._place(addr, client)
        return client

    @staticmethod
    def _holds_secret(existing: Client, token: str | None) -> bool:
        """May a registration with ``token`` take ``existing`` over? Always under the seed's
        rule (no secret); with a secret only by it, unless ``existing`` stopped joining
        (a seat whose program died must not keep its name from its person for ever)."""
        if existing.secret is None or not existing.active:
            return True
        return same_secret(token, existing.secret)

    def remove(self, client: Client) -> None:
        """Forget ``client``'s registration; the table hears of it (``on_removed``)."""
        self.clients.pop(client.name, None)
        self._spelled.pop(name_key(client.name), None)
        self._forget_addr(client.addr)
        self.on_removed(client)

    def _place(self, addr: Addr, client: Client) -> None:
        self.by_addr[addr] = client
        self._per_ip[addr[0]] += 1

    def _forget_addr(self, addr: Addr) -> None:
        if self.by_addr.pop(addr, None) is not None:
            self._per_ip[addr[0]] -= 1
            if not self._per_ip[addr[0]]:
                del self._per_ip[addr[0]]
