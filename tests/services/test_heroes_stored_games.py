"""A Heroes game stored during a tactic choice by the old code loads and plays on after the data
migration ``0007`` (the old slash-encoded choice becomes the ``tactic`` move's wire
form), on both backends; the move log replays to the same state."""

from __future__ import annotations

import importlib.util
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from alembic import command
from fastapi.testclient import TestClient

from app.db.migrate import alembic_config
from app.paths import MIGRATIONS_DIR
from app.db.models import Table
from app.main import create_app
from app.rulesets.testing import canonical
from tests.conftest import make_settings
from tests.services.test_backup import replayed, stored_games, write_whole_states
from tests.support.players import Player, started_table

MIGRATION = MIGRATIONS_DIR / "versions" / "0007_ts_heroes_tactic_choices.py"


def load_migration():
    spec = importlib.util.spec_from_file_location("migration_0007_ts_heroes", MIGRATION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def old_token(seat: str, choice: dict) -> str:
    """How the code before ``0007`` stored a choice (``battles.choice_token``)."""
    numbers = [choice[name] for name in ("ore", "mana", "food", "serf", "warrior", "hero", "mercenary")]
    return "/".join(["hidden-tactic", seat, choice["card"], *map(str, numbers)])


def test_the_migration_reads_both_old_token_forms_and_leaves_other_states_alone():
    migration = load_migration()
    choice = {"type": "tactic", "card": "charge", "ore": 0, "mana": 6, "food": 0, "serf": 1, "warrior": 0,
              "hero": 0, "mercenary": 0}
    state = {"phase": "tactics", "pending": {"battle": {}, "chosen": {"0": True, "1": False},
                                            "choices": {"0": old_token("0", choice)}}}
    assert migration.upgraded(state)["pending"]["choices"] == {"0": choice}
    without_mercenary = "hidden-tactic/0/charge/0/6/0/1/0/0"  # written before the Mercenary Nomads
    before_mercenaries = {**state, "pending": {**state["pending"], "choices": {"0": without_mercenary}}}
    assert migration.upgraded(before_mercenaries)["pending"]["choices"] == {"0": choice}
    assert migration.downgraded(migration.upgraded(state)) == state
    assert migration.upgraded({"phase": "action", "pending": None}) is None
    assert migration.upgraded(migration.upgraded(state)) is None


def run_only_the_migration(database_url: str) -> None:
    """Run ``0007`` alone over the database, as an upgrade from the release before it does, and
    leave ``alembic_version`` at head again.  Upgrading to head from the revision before ``0007``
    would run every later migration a second time over tables that already exist, and a failed
    upgrade would leave the revision behind: on Postgres the test database is shared by the rest of
    the session, so every later test that migrates it (a restore, a server start) would fail too.
    Alembic's environment runs its own event loop, so in a thread of its own (a test before may have
    left one running in this thread)."""
    migration, config = load_migration(), alembic_config(database_url)

    def migrate() -> None:
        command.stamp(config, migration.down_revision)
        try:
            command.upgrade(config, migration.revision)
        finally:
            command.stamp(config, "head")

    with ThreadPoolExecutor(1) as worker:
        worker.submit(migrate).result()


def acting(client, players, table_id):
    """The seat to act, its player and its game frame (view and legal moves)."""
    seat = client.get(f"/api/games/{table_id}").json()["to_act"][0]
    return seat, players[seat], players[seat].get(f"/api/games/{table_id}").json()


def hostile_first(game: dict, seat: int, chooser: random.Random) -> dict:
    """A legal move, marches into another seat's units or capital first (to reach a battle soon)."""
    view = game["view"]
    hostile = {region for region, entry in view["regions"].items() if any(int(s) != seat for s in entry["units"])}
    hostile |= {player["capital"] for index, player in enumerate(view["players"]) if index != seat}
    attacks = [move for move in game["legal"] if move["type"] == "march" and move["destination"] in hostile]
    return chooser.choice(attacks or game["legal"])


@pytest.mark.postgres
def test_a_game_stored_during_a_tactic_choice_plays_on_after_the_migration(postgres_database):
    """On Postgres only, to keep the suite short (the migration's transform is tested on its own above)."""
    database_url = postgres_database
    chooser = random.Random(5)
    options = {"nomads": "none", "first_player": "host"}
    with TestClient(create_app(make_settings(database_url))) as client:
        players = [Player(client, "Ana"), Player(client, "Bo")]
        table_id = started_table(players[0], players[1:], ruleset="heroes", options=options)
        for _ in range(400):  # to the first tactic choice, then one side chooses
            seat, player, game = acting(client, players, table_id)
            tactics = game["view"]["phase"] == "tactics"
            move = game["legal"][0] if tactics else hostile_first(game, seat, chooser)
            assert player.move(table_id, game["version"], move).status_code == 200
            if tactics:
                break
        write_whole_states(client)  # the state at the game's version in its row, as before checkpoints
        _, version, _, state = stored_games(client)[table_id]
        assert state["phase"] == "tactics" and len(state["pending"]["choices"]) == 1
        (chooser_seat, choice), = state["pending"]["choices"].items()
        old = {**state, "pending": {**state["pending"], "choices": {chooser_seat: old_token(chooser_seat, choice)}}}

        async def store_the_old_form():
            async with client.app.state.ctx.sessions() as session, session.begin():
                (await session.get(Table, table_id)).state = old

        client.portal.call(store_the_old_form)

    run_only_the_migration(database_url)

    with TestClient(create_app(make_settings(database_url))) as client:
        assert canonical(stored_games(client)[table_id][3]) == canonical(state)
        for player in players:  # the same people (their session cookies) at the restarted server
            player.client = client
        for _ in range(60):  # the other side chooses, the battle resolves, the game goes on
            if client.get(f"/api/games/{table_id}").json()["to_act"] == []:
                break
            _, player, game = acting(client, players, table_id)
            assert player.move(table_id, game["version"], chooser.choice(game["legal"])).status_code == 200
        _, version, state_version, state = stored_games(client)[table_id]
        assert canonical(replayed(client, table_id, state_version or version)) == canonical(state)
