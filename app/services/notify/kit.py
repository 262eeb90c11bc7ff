"""The notice machinery of one process, built in the app's lifespan: keys, mailer, push sender,
channels, the :class:`~app.services.notify.notifier.Notifier` (turns) and the invitation notices."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.services.attendance import presence
from app.services.context import Context
from app.services.errors import AppError
from app.services.notify.notifier import Notifier, Presence
from app.services.notify import vapid
from app.services.notify.channels import Channel, MailChannel, PushChannel
from app.services.notify.invitations import InvitationNotices
from app.services.notify.mail import Mailer
from app.services.notify.tokens import Tokens


@dataclass
class NotifyKit:
    """What the notification API and the notifier share: the mailer, the link tokens, the VAPID
    key (and its public half, for browsers; both loaded on first use), the push channel, the notifier and
    the invitation notices."""

    mailer: Mailer
    tokens: Tokens
    key: vapid.VapidKey
    push: PushChannel
    notifier: Notifier
    invitations: InvitationNotices

    @property
    def public_key(self) -> str:
        """The VAPID public key browsers subscribe with (``applicationServerKey``, base64url)."""
        return self.key.public_key

    async def start(self) -> None:
        """Start the push channel (its HTTP client opens on the first push) and the notifier."""
        await self.push.start()
        await self.notifier.start()

    async def stop(self) -> None:
        """Stop the notifier and the invitation notices (notices under way finish), then close the HTTP client."""
        await self.notifier.stop()
        await self.invitations.stop()
        await self.push.close()


def build(ctx: Context, is_present: Presence, is_leader: Callable[[], bool] = lambda: True) -> NotifyKit:
    """The kit for ``ctx``; its VAPID key is read (or, on a first start without ``serve``, generated)
    when first used (``vapid.VapidKey``)."""
    settings = ctx.settings
    key = vapid.VapidKey(settings)
    mailer = Mailer(settings)
    tokens = Tokens(settings.session_secret)
    push = PushChannel(ctx, key, vapid.subject(settings))
    channels: list[Channel] = [push, MailChannel(ctx, mailer, tokens)]
    notifier = Notifier(ctx, channels, is_present=is_present, is_leader=is_leader)
    return NotifyKit(mailer, tokens, key, push, notifier, InvitationNotices(ctx, channels))


def presence_across_processes(ctx: Context) -> Presence:
    """``is_present`` for the notifier: a socket of the seat's person is open on any process
    (``app/services/attendance/presence.py``); a seat no person plays is never present."""

    async def is_present(game_id: int, seat: int) -> bool:
        try:
            return await presence.is_present(ctx, game_id, seat)
        except AppError:  # a bot's seat, or no such seat
            return False

    return is_present
