"""Invitation notices: a friend's invitation to a table, told by push and e-mail.

The same channels and the same choices as turn notices (an account that chose no channel gets
nothing; the e-mail switch and the unsubscribe link stop these mails too).  Sent by the process
that made the invitation, once the request committed it, in a task of its own: the invite's
answer never waits for a push service or a mail server, and a failure costs the notice only.

Why not the leader, as for turns: every process hears of every move, so turns need one teller;
an invitation is made by one request on one process, and the database keeps one invitation per
table and invitee, so exactly one process makes it and tells it.  A repeated invitation to the
same table is refused while the first one waits; one withdrawn (or declined) and made again is not
told again by this process (it remembers the last ``REMEMBERED`` tables and invitees it told).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from sqlalchemy import select

from app.db.models import Account
from app.services.accounts import friends
from app.services.context import Context
from app.services.notify.channels import Channel
from app.services.notify.messages import WaitingGame, invitation_notice
from app.tasks import wind_down

log = logging.getLogger(__name__)

REMEMBERED = 10_000
"""How many (table, invitee) pairs a process remembers having told (the oldest are forgotten first)."""


class InvitationNotices:
    """Tells invitees of new invitations through ``channels`` (see the module's docstring)."""

    def __init__(self, ctx: Context, channels: list[Channel]) -> None:
        self._ctx = ctx
        self._channels = channels
        self._told: OrderedDict[tuple[int, int], None] = OrderedDict()
        self._sends: set[asyncio.Task] = set()
        self._stopping = False

    def tell(self, invitation_id: int) -> None:
        """Tell the invitee of the committed invitation ``invitation_id``, in the background; returns at once."""
        if self._stopping:
            return
        task = asyncio.create_task(self._tell(invitation_id))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    async def settle(self) -> None:
        """Wait until every notice under way has left (tests)."""
        while self._sends:
            await asyncio.gather(*list(self._sends), return_exceptions=True)

    async def stop(self) -> None:
        """Take no more; notices under way finish first (``app.tasks.wind_down``)."""
        self._stopping = True
        await wind_down(list(self._sends))

    async def _tell(self, invitation_id: int) -> None:
        try:
            async with self._ctx.sessions() as session:
                pending = await friends.pending_invitation(session, self._ctx.registry, invitation_id)
            if pending is None:
                return
            key = (pending.table_id, pending.invitee_id)
            if key in self._told:
                return
            self._told[key] = None
            while len(self._told) > REMEMBERED:
                self._told.popitem(last=False)
            async with self._ctx.sessions() as session:
                language = await session.scalar(select(Account.language).where(Account.id == pending.invitee_id))
            notice = invitation_notice(pending.inviter_name, WaitingGame(pending.table_id, pending.title), pending.terms,
                                       pending.rematch, language)
            await asyncio.gather(*(channel.deliver(pending.invitee_id, notice) for channel in self._channels),
                                 return_exceptions=True)
        except Exception:
            log.exception("invitation notices: could not tell invitation %s", invitation_id)
