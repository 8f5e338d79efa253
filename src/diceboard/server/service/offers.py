"""Offers: one state machine for a draw, a takeback and a rematch.

An offer is stored in one field of the game (the seat that made it, or none). A seat may
``offer``, and its opponent ``accept`` or ``decline``; what each step does is the offer's:

- ``offer``: granted at once where nobody has to be asked (at one screen; the computer answers
  for itself); if the opponent's offer of the same kind stands, the two offers meet (an
  acceptance, unless the kind says otherwise); offering again is refused (unless the kind says
  otherwise); else the offer is stored.
- ``accept``: only an opponent's standing offer can be accepted; the kind carries it out.
- ``decline``: only an opponent's standing offer; it is cleared and everyone is told.

Each kind is an :class:`OfferKind`, which says what granting it does and where it differs.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from diceboard.server.errors import Conflict, Forbidden
from diceboard.server.live import AGREEMENT, LiveGame
from diceboard.server.service.computer_turns import ComputerTurns
from diceboard.server.service.core import Action, ServiceCore, ended, next_revision, seats_of
from diceboard.server.service.lifecycle import Lifecycle
from diceboard.server.service.moves import Moves
from diceboard.server.storage.rows import replaced
from diceboard.server.tokens import derived_token, token_hash

R = TypeVar("R")


class OfferKind(Generic[R]):
    """One kind of offer: the game field it is stored in and what each step does. ``R`` is
    what an action on it answers (the game, or for a rematch a description of the seat)."""

    #: the kind's name, as in the ``<name>_declined`` notice
    name: str
    #: the :class:`~diceboard.server.storage.GameData` field holding the offering seat
    field: str
    #: whether the game must be in play (a rematch is arranged once it is over)
    in_play = True
    #: why offering twice is refused
    already: str
    #: why there is nothing to accept or decline
    nothing: str

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def settled(self, act: Action, action: str) -> R | None:
        """The answer when the matter is already settled (a rematch that has started), or a
        refusal when it cannot be raised yet; ``None`` to go on."""
        return None

    async def at_once(self, act: Action) -> R | None:
        """The answer to an offer that nobody has to be asked about; ``None`` to ask."""
        return None

    async def grant(self, act: Action, offerer: str) -> R:
        """Carry out ``offerer``'s offer."""
        raise NotImplementedError

    async def crossed(self, act: Action, standing: str) -> R:
        """An offer made while the opponent's (``standing``) stands: it is accepted."""
        return await self.grant(act, standing)

    async def repeated(self, act: Action) -> R:
        """An offer made again while one's own stands: refused."""
        raise Conflict(self.already, act.live)

    async def store(self, act: Action) -> R:
        """Store the caller's offer for the opponent to answer."""
        return self.answer(await self._set(act, act.me))

    async def declined(self, act: Action) -> R:
        """Clear the opponent's offer and tell everyone."""
        after = await self._set(act, None)
        self.core.hub.notice(act.live.id, {"event": f"{self.name}_declined", "by": act.me})
        return self.answer(after, declined=True)

    def answer(self, live: LiveGame, declined: bool = False) -> R:
        """What an action that left the game as ``live`` answers."""
        raise NotImplementedError

    async def _set(self, act: Action, seat: str | None) -> LiveGame:
        data = next_revision(act.live.data, act.now, **{self.field: seat})
        return await self.core.commit(act.live, replaced(act.live, data=data))


class Offers:
    """The state machine every offer goes through (see the module's description)."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def act(self, kind: OfferKind[R], game_id: str, token: str | None, action: str) -> R:
        """``action`` (``offer``, ``accept`` or ``decline``) on an offer of ``kind``."""
        async with self.core.action(game_id, token, in_play=kind.in_play) as act:
            settled = await kind.settled(act, action)
            if settled is not None:
                return settled
            standing: str | None = getattr(act.live.data, kind.field)
            me = act.me
            if action == "offer":
                at_once = await kind.at_once(act)
                if at_once is not None:
                    return at_once
                if standing is not None and standing != me:
                    return await kind.crossed(act, standing)
                if standing == me:
                    return await kind.repeated(act)
                return await kind.store(act)
            if standing is None or standing == me:
                raise Conflict(kind.nothing, act.live)
            if action == "accept":
                return await kind.grant(act, standing)
            return await kind.declined(act)


class _GameAnswer(OfferKind[LiveGame]):
    def answer(self, live: LiveGame, declined: bool = False) -> LiveGame:
        return live


class DrawOffer(_GameAnswer):
    """A draw: agreed at once at one screen, judged by the computer, else asked for."""

    name = "draw"
    field = "draw_offer"
    already = "you have already offered a draw"
    nothing = "there is no draw offer from your opponent to answer"

    def __init__(self, core: ServiceCore, computer: ComputerTurns) -> None:
        super().__init__(core)
        self.computer = computer

    async def at_once(self, act: Action) -> LiveGame | None:
        live = act.live
        if live.data.mode == "local":
            return await self.grant(act, act.me)
        if live.data.mode == "computer":
            computer = live.opponent(act.me)
            if await self.computer.accepts_draw(live, computer):
                return await self.grant(act, act.me)
            self.core.hub.notice(live.id, {"event": "draw_declined", "by": computer})
            return live
        return None

    async def grant(self, act: Action, offerer: str) -> LiveGame:
        return await self.core.commit(act.live, ended(act.live, None, AGREEMENT, act.now))


class TakebackOffer(_GameAnswer):
    """Taking back one's last move (and the replies to it): granted at once by the computer
    and at one screen; an online opponent must accept. A request made while the opponent's
    stands replaces it (each side wants its own move back)."""

    name = "takeback"
    field = "takeback_offer"
    already = "you have already asked to take back a move"
    nothing = "there is no takeback request from your opponent to answer"

    def __init__(self, core: ServiceCore, moves: Moves) -> None:
        super().__init__(core)
        self.moves = moves

    async def at_once(self, act: Action) -> LiveGame | None:
        live = act.live
        if live.data.mode == "local":
            last = max(
                (i for i in (live.last_decision_by(s) for s in act.seats) if i is not None),
                default=None,
            )
            return await self.moves.undo(live, last, act.now)
        if live.data.mode == "computer":
            return await self.grant(act, act.me)
        return None

    async def grant(self, act: Action, offerer: str) -> LiveGame:
        return await self.moves.undo(act.live, act.live.last_decision_by(offerer), act.now)

    async def crossed(self, act: Action, standing: str) -> LiveGame:
        return await self.store(act)

    async def store(self, act: Action) -> LiveGame:
        if act.live.last_decision_by(act.me) is None:
            raise Conflict("you have no move to take back", act.live)
        return await super().store(act)


class RematchOffer(OfferKind[dict[str, Any]]):
    """A rematch once the game is over: the same settings, sides swapped. Started at once
    against the computer and at one screen; online, the opponent must accept (offering
    again is harmless). Once it exists, ``offer`` or ``accept`` hands the caller its seat
    there (the token is derived from the caller's, so each player finds its own)."""

    name = "rematch"
    field = "rematch_offer"
    in_play = False
    already = "you have already offered a rematch"
    nothing = "there is no rematch offer from your opponent"

    def __init__(self, core: ServiceCore, lifecycle: Lifecycle) -> None:
        super().__init__(core)
        self.lifecycle = lifecycle

    @staticmethod
    def token(act: Action) -> str:
        """The caller's token in the rematch of ``act``'s game."""
        return derived_token(act.token, f"rematch:{act.live.id}")

    async def settled(self, act: Action, action: str) -> dict[str, Any] | None:
        live = act.live
        if live.data.status != "finished":
            raise Conflict("a rematch can be arranged once the game is over", live)
        if live.data.rematch_game is None:
            return None
        if action == "decline":
            raise Conflict("the rematch has already started", live)
        return await self._seat(live.data.rematch_game, self.token(act))

    async def at_once(self, act: Action) -> dict[str, Any] | None:
        if act.live.data.mode == "online":
            return None
        return await self.grant(act, act.me)

    async def repeated(self, act: Action) -> dict[str, Any]:
        return await self.store(act)

    async def store(self, act: Action) -> dict[str, Any]:
        live, me = act.live, act.me
        seat = replaced(live.seats[me], rematch_hash=token_hash(self.token(act)))
        data = next_revision(live.data, act.now, rematch_offer=me)
        after = replaced(live, data=data, seats={**live.seats, me: seat})
        await self.core.commit(live, after, seats=(seat,))
        return {"status": "offered"}

    async def grant(self, act: Action, offerer: str) -> dict[str, Any]:
        old, me, mine = act.live, act.me, self.token(act)
        hashes: dict[str, str | None] = {}
        for s in old.players:
            if old.seats[s].kind != "human":
                continue
            mine_too = s == me or old.data.mode == "local"
            hashes[s] = token_hash(mine) if mine_too else old.seats[s].rematch_hash
        new = await self.lifecycle.create_rematch(old, hashes)
        data = next_revision(old.data, act.now, rematch_game=new.id, rematch_offer=None)
        await self.core.commit(old, replaced(old, data=data))
        return await self._seat(new.id, mine)

    def answer(self, live: LiveGame, declined: bool = False) -> dict[str, Any]:
        return {"status": "declined" if declined else "offered"}

    async def _seat(self, new_id: str, mine: str) -> dict[str, Any]:
        new = await self.core.get(new_id)
        seats = seats_of(new, mine)
        if not seats:
            raise Forbidden("you have no seat in the rematch")
        return {"status": "started", "game": new.id, "seats": seats, "token": mine}
