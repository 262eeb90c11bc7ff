"""Prometheus metrics of one server process (``GET /metrics``), via prometheus-client.

Each process keeps its own registry (a lifespan object, no module globals); with several
workers, scrape each or read them as per-process series.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine


class Metrics:
    """The counters, gauges and the move-latency histogram of one process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves_committed = Counter("caravanserai_moves_committed", "Moves committed by this process",
                                       registry=self.registry)
        self.moves_refused = Counter("caravanserai_moves_refused", "Moves refused, by error code", ["code"],
                                     registry=self.registry)
        self.move_seconds = Histogram(
            "caravanserai_move_seconds", "Time from receiving a move to its commit, in seconds",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5), registry=self.registry)
        self.open_sockets = Gauge("caravanserai_open_sockets", "WebSocket subscriptions open on this process",
                                  registry=self.registry)
        self.games_running = Gauge("caravanserai_games_running", "Games in the running state (whole database)",
                                   registry=self.registry)
        self.bot_moves_computed = Counter("caravanserai_bot_moves_computed",
                                          "Bot moves this process computed (only the leader computes them)",
                                          registry=self.registry)
        self.leader = Gauge("caravanserai_leader", "1 while this process is the leader (drives bots and clocks)",
                            registry=self.registry)
        self.db_pool_in_use = Gauge("caravanserai_db_pool_connections_in_use",
                                    "Database connections checked out of this process's pool", registry=self.registry)
        self.notifications_sent = Counter("caravanserai_notifications_sent", "Turn notices handed to a push service "
                                          "or the SMTP server, by channel (push, email)", ["channel"], registry=self.registry)
        self.notifications_failed = Counter(
            "caravanserai_notifications_failed", "Turn notices not delivered, by channel and reason (gone: the push "
            "subscription expired and was dropped; refused; timeout; unreachable)", ["channel", "reason"],
            registry=self.registry)

        self.db_checkouts = Counter("caravanserai_db_checkouts", "Database connections taken from this process's pool "
                                    "(about one per database session)", registry=self.registry)

    def count_checkouts(self, engine: AsyncEngine) -> None:
        """Count every connection ``engine``'s pool hands out (``caravanserai_db_checkouts_total``)."""
        event.listen(engine.sync_engine, "checkout", lambda *_: self.db_checkouts.inc())

    def render(self) -> bytes:
        """The text exposition format."""
        return generate_latest(self.registry)
