"""Heroes of Land, Air & Sea, full edition (or the core edition) + Wandering Nomads or Mercenary
Nomads, and solo: the ruleset, its map and house data.

Modules: ``state`` (the typed layout of a state), ``houses`` (house values and the tactic set),
``board`` (the map graph), ``pieces`` (units and supplies in a state), ``rounds`` (setup, rounds,
turns), ``flow`` (legal moves, Follow, Muster, the dispatcher), ``actions`` (Recruit, Build, Tax),
``march``, ``battles``, ``nomads``, ``mercenaries`` (the Nomad Mercenary; the generic mercenary
cards are not public, so it is the only mercenary in the supply), ``collection``, ``scoring``,
``moves``, ``options``, ``view``, ``information`` and ``evaluation`` (the bots' hooks); the full
edition: ``catalogue`` (its house data), ``edition`` (its setup), ``spells``, ``vessels``,
``abilities`` (faction and Hero), ``exploration``; ``rules``
(the ruleset class); ``rivals`` (who answers the player: the other seats or the solo Enemy); the
solo game against the Enemy: ``solo`` (setup, the round, the solo Nomads, the end, the Enemy as
the player's rival), ``enemy`` (one Enemy card, its battles), ``deck`` (the Enemy deck),
``compass`` (arrows on the map); data in ``data/``.
Rules reference: ``reference.md`` (the rule codes and "spec" sections the code cites); wire
contract: ``docs/heroes.md``.
"""

from app.rulesets.heroes.rules import Heroes

__all__ = ["Heroes"]
