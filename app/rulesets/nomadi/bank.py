"""The bank: every coin that changes hands, and the log line that announces it (Spec §2.7, R-39).

Balances are integers that may go negative (R-35: interest-free bank credit); a payment to the
bank is always made in full.  With public coins (the default) each line says the amount.  In the
hidden-coins variant (R-39 [D]) the public line says what happened without the amount and the
amount goes into a private line for the seats whose purses changed, so the log does not keep
everyone's books for them.
"""

from __future__ import annotations

from app.rulesets.base import Event, Seat
from app.rulesets.nomadi.state import NomadiState


def coins(amount: int) -> str:
    """``1 coin``, ``5 coins``."""
    return f"{amount} coin{'s' if amount != 1 else ''}"


def _announce(state: NomadiState, seats: tuple[Seat, ...], public: str, exact: str, events: list[Event]) -> None:
    if state["options"]["hidden_coins"]:
        events.append(Event.trusted(public))
        events.append(Event.trusted(exact, seats=seats))
    else:
        events.append(Event.trusted(exact))


def pay_out(state: NomadiState, seat: Seat, amount: int, reason: str, events: list[Event]) -> None:
    """The bank pays ``amount`` to ``seat`` (R-7: the bank has no limit)."""
    state["coins"][seat] += amount
    _announce(
        state, (seat,),
        f"{{seat{seat}}} is paid by the bank: {reason}",
        f"{{seat{seat}}} receives {coins(amount)}: {reason}",
        events,
    )


def pay_in(state: NomadiState, seat: Seat, amount: int, reason: str, events: list[Event]) -> None:
    """``seat`` pays ``amount`` to the bank, into debt if need be (R-35)."""
    state["coins"][seat] -= amount
    _announce(
        state, (seat,),
        f"{{seat{seat}}} pays the bank: {reason}",
        f"{{seat{seat}}} pays {coins(amount)}: {reason}",
        events,
    )


def transfer(state: NomadiState, giver: Seat, receiver: Seat, amount: int, reason: str, events: list[Event]) -> None:
    """``giver`` pays ``amount`` to ``receiver`` (R-41; the caller has checked that no debt arises)."""
    state["coins"][giver] -= amount
    state["coins"][receiver] += amount
    _announce(
        state, (giver, receiver),
        f"{{seat{giver}}} gives coins to {{seat{receiver}}}: {reason}",
        f"{{seat{giver}}} gives {coins(amount)} to {{seat{receiver}}}: {reason}",
        events,
    )
