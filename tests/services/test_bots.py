"""Bot seats: seated by the creator, played by the server through the ordinary pipeline."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.bots import BOT_LEVELS, make_bot
from app.db.models import Seat
from app.main import create_app
from app.rulesets.base import Rng
from app.rulesets.registry import Registry
from tests.conftest import TOY_RULESETS, make_settings
from tests.services.test_whole_games import QUICK_OPTIONS
from tests.support.players import Player, started_table

RULESETS = [ruleset.name for ruleset in Registry.discover(TOY_RULESETS).all() if ruleset.listed]


def wait_for(client, table_id, predicate, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{table_id}").json()
        if predicate(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"condition not reached; last state version {state.get('version')}")


def bot_table(owner, ruleset, seats, levels):
    options = QUICK_OPTIONS.get(ruleset, {})
    table_id = owner.post("/api/tables", {"ruleset": ruleset, "seats": seats, "options": options}).json()["id"]
    for seat, level in levels.items():
        response = owner.post(f"/api/tables/{table_id}/bots", {"seat": seat, "level": level})
        assert response.status_code == 200, response.text
    return table_id


def test_bot_seat_shows_in_lobby_and_blocks_joins(client):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = bot_table(ana, "toy-race", 2, {1: "random"})
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[1] == {"seat": 1, "account_id": None, "name": "Babak (bot)", "bot": True, "bot_level": "random",
                        "takeover": None, "deadline": None, "away_since": None, "away_deadline": None,
                        "held_for": None}
    assert bo.post(f"/api/tables/{table_id}/join").json()["error"]["code"] == "table_full"
    assert bo.post(f"/api/tables/{table_id}/bots", {"seat": 1}).json()["error"]["code"] == "forbidden"
    assert ana.post(f"/api/tables/{table_id}/join", {"seat": 0}).json()["error"]["code"] == "conflict"
    assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 1, "level": "genius"}).json()["error"]["code"] == "bad_request"
    assert ana.client.delete(f"/api/tables/{table_id}/bots/1", headers=ana.headers).json()["seats"][1]["bot"] is False
    assert bo.post(f"/api/tables/{table_id}/join").status_code == 200


def test_person_against_bot(client):
    ana = Player(client, "Ana")
    table_id = bot_table(ana, "toy-race", 2, {1: "default"})
    assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    state = wait_for(client, table_id, lambda s: s["version"] >= 2)
    assert state["to_act"] == [0] and state["players"][1]["name"] == "Babak (bot)" and state["players"][1]["bot"]
    assert any(entry["text"].startswith("Babak (bot) added") for entry in state["log"])


@pytest.mark.parametrize("ruleset_name", RULESETS)
def test_all_bot_game_runs_to_the_end_through_the_pipeline(client, ruleset_name):
    ana = Player(client, "Ana")
    seats = client.app.state.ctx.registry.get(ruleset_name).min_players
    table_id = bot_table(ana, ruleset_name, seats, {seat: "random" for seat in range(seats)})
    assert all(seat["bot"] for seat in client.get(f"/api/tables/{table_id}").json()["seats"])
    assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
    final = wait_for(client, table_id, lambda s: s["status"] == "finished", seconds=120)
    assert final["result"] is not None and final["version"] > 0
    log = client.get(f"/api/games/{table_id}/log").json()
    assert log and log[-1]["version"] == final["version"]


def test_search_bot_prefers_winning_move():
    from tests.support.toy_rulesets import ToyRace

    class Determinized(ToyRace):
        def determinize(self, view, seat, rng):
            return {"total": view["total"], "turn": view["turn"], "words": ["a", "b"], "winner": None, "rng": 0}

        def evaluate(self, state, seat):
            return 1.0 if state["winner"] == seat else 0.0

    ruleset = Determinized()
    state = {"total": 8, "turn": 0, "words": ["a", "b"], "winner": None, "rng": 0}
    legal = ruleset.legal_moves(state, 0)
    for level in ("default", "medium", "strong"):
        chosen = {make_bot(level, seconds=None, simulations=20).choose(ruleset, ruleset.view(state, 0), legal, 0,
                                                                       Rng(seed)).amount for seed in range(10)}
        assert chosen == {2, 3}, level  # 8 + 2 or 8 + 3 reaches 10; adding 1 never wins at once
    assert BOT_LEVELS == ("random", "easy", "medium", "strong")


def test_the_old_level_name_is_stored_as_medium_and_a_seat_stored_with_it_still_plays(client):
    """Tables seated before the levels had names say ``default``: the API takes the name and
    stores ``medium``; a seat row that still says ``default`` loads and its bot plays."""
    ana = Player(client, "Ana")
    table_id = bot_table(ana, "toy-race", 2, {1: "default"})
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["bot_level"] == "medium"
    ctx = client.app.state.ctx

    async def store_old_name():
        async with ctx.sessions() as session:
            await session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == 1).values(bot_level="default"))
            await session.commit()

    client.portal.call(store_old_name)
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["bot_level"] == "default"
    assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    state = wait_for(client, table_id, lambda s: s["version"] >= 2)
    assert state["to_act"] == [0]  # the bot moved


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_each_level_can_be_seated_and_answers(client, level):
    ana = Player(client, "Ana")
    table_id = bot_table(ana, "toy-race", 2, {1: level})
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["bot_level"] == level
    assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    assert wait_for(client, table_id, lambda s: s["version"] >= 2)["to_act"] == [0]


CAPITAL_ACTIONS = ("tax", "recruit", "build", "research", "scribe")


@pytest.fixture
def unhurried_client(database_url):
    """A test app whose bots have all the time they want a move (60 s, the setting's most): the
    medium bot then weighs every candidate, so its moves do not depend on the machine's load (with
    the tests' usual 0.2 s, a loaded machine cut its search short and changed the game)."""
    with TestClient(create_app(make_settings(database_url, bot_move_seconds=60))) as test_client:
        yield test_client


def test_heroes_follow_prompts_work_with_a_bot_on_either_side(unhurried_client):
    """Heroes' Follow window (spec 1.7, "Following a Capital Action") asks each other seat
    in turn; a bot seat answers its own prompt through the pipeline, and a person answers the
    prompt a bot's Capital Action opens.  Ana plays so that both prompts come, and follows
    whenever she is asked, until both kinds of prompt have been answered."""
    client = unhurried_client
    ana = Player(client, "Ana")
    options = {"round_limit": 6, "first_player": "host"}
    table_id = ana.post("/api/tables", {"ruleset": "heroes", "seats": 2, "options": options}).json()["id"]
    assert ana.post(f"/api/tables/{table_id}/bots", {"seat": 1, "level": "default"}).status_code == 200
    assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
    bot_answered = ana_answered = False
    for _ in range(300):
        game = wait_for(client, table_id, lambda s: s["status"] == "finished" or s["to_act"] == [0], seconds=60)
        log = [entry["text"] for entry in client.get(f"/api/games/{table_id}/log").json()]
        bot_answered = bot_answered or any(text.startswith("Babak (bot) follows") or text == "Babak (bot) does not follow"
                                           for text in log)
        if game["status"] == "finished" or (bot_answered and ana_answered):
            break
        mine = ana.get(f"/api/games/{table_id}").json()
        legal = mine["legal"]
        if mine["view"]["phase"] == "follow":
            move = next(move for move in legal if move["type"] != "skip")
            ana_answered = True
        else:
            # A seat is asked to follow only while its own slot of that action is empty this round
            # (spec 1.7), and a Tax can always be followed: so Ana never taxes, and once the bot
            # has answered she leaves her Capital Action slots empty for the bot's actions.
            wanted = (("recruit", "build") if not bot_answered
                      else tuple(move["type"] for move in legal if move["type"] not in CAPITAL_ACTIONS))
            preferred = [move for move in legal if move["type"] in wanted]
            move = (preferred or [move for move in legal if move["type"] != "tax"] or legal)[0]
        response = ana.move(table_id, mine["version"], move)
        assert response.status_code == 200, response.text
    assert bot_answered and ana_answered
    log = [entry["text"] for entry in client.get(f"/api/games/{table_id}/log").json()]
    assert any(text.startswith("Ana follows the") for text in log)


def test_a_person_cannot_take_the_move_id_of_the_bots_next_move(client):
    """The bot answering version 1 at seat 1 uses the id ``bot:1:1``: a person sending that id (or any
    id of the server's) is refused and changes nothing, and the bot still plays."""
    ana = Player(client, "Ana")
    table_id = bot_table(ana, "toy-race", 2, {1: "default"})
    assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
    for move_id in ("bot:1:1", "timeout:1:0:0"):
        refused = ana.move(table_id, 0, {"type": "add", "amount": 1}, move_id=move_id)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request", refused.text
    assert client.get(f"/api/games/{table_id}").json()["version"] == 0
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    assert wait_for(client, table_id, lambda s: s["version"] >= 2)["to_act"] == [0]


def test_the_sweep_makes_a_bot_move_nothing_set_going_and_says_so(client, caplog):
    """A bot owed a move that no commit's notice set going (here: a take-over written straight into
    the database) is found by the leader's sweep, which makes the move, counts it and logs a warning;
    a game where a person is to act gets no move from it."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    owed, waiting = started_table(ana, [bo]), started_table(ana, [bo])
    assert ana.move(waiting, 0, {"type": "add", "amount": 1}).status_code == 200  # Bo is to act there
    for table_id in (owed, waiting):  # a bot plays Ana's seat 0 from now on; nobody is told
        on_loop(client, lambda ctx, table_id=table_id: _take_over_silently(ctx, table_id, 0))
    bots, stalled = client.app.state.bots, client.app.state.ctx.metrics.bot_failures.labels("stalled")
    on_loop(client, lambda ctx: bots.settled())
    assert [client.get(f"/api/games/{game}").json()["version"] for game in (owed, waiting)] == [0, 1]
    before = stalled._value.get()
    for _ in range(2):  # the second sweep finds nothing owed
        on_loop(client, lambda ctx: bots.sweep())
        on_loop(client, lambda ctx: bots.settled())
    assert [client.get(f"/api/games/{game}").json()["to_act"] for game in (owed, waiting)] == [[1], [1]]
    assert [client.get(f"/api/games/{game}").json()["version"] for game in (owed, waiting)] == [1, 1]
    assert stalled._value.get() == before + 1
    warnings = [record.getMessage() for record in caplog.records if "nothing had set going" in record.getMessage()]
    assert warnings == [f"a bot of game {owed} was owed a move that nothing had set going; made by the sweep"]


def on_loop(client, coroutine_function):
    """Run ``coroutine_function(ctx)`` on the test app's event loop; its result."""
    return client.portal.call(lambda: coroutine_function(client.app.state.ctx))


async def _take_over_silently(ctx, table_id: int, seat: int) -> None:
    async with ctx.sessions() as session:
        await session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == seat).values(takeover="left"))
        await session.commit()


def test_a_revealed_choice_a_bot_made_for_a_person_names_them_bot(client):
    """Nimalia's picks are shown together once everyone has chosen: a pick the bot made for Bo
    (who resigned) reads "Bo (bot) placed card …" even when Ana's pick is the move that shows it,
    and Ana's own placement keeps her plain name (``Event.reveals``, ``bot_log.mark_revealed``)."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    table_id = started_table(ana, [bo], ruleset="nimalia")
    assert bo.post(f"/api/tables/{table_id}/resign").status_code == 200
    state = wait_for(ana.client, table_id, lambda state: state["to_act"] == [0])  # the bot has chosen for Bo
    mine = ana.get(f"/api/games/{table_id}").json()
    moved = ana.move(table_id, mine["version"], mine["legal"][0])
    assert moved.status_code == 200, moved.text
    entries = [entry for entry in ana.get(f"/api/games/{table_id}/log").json()
               if entry["version"] == mine["version"] + 1]
    placed = {entry["text"].split(" placed card")[0]: entry for entry in entries if " placed card " in entry["text"]}
    assert set(placed) == {"Ana", "Bo (bot)"}, [entry["text"] for entry in entries]
    assert placed["Bo (bot)"]["args"]["seat1"]["bot"] is True and placed["Bo (bot)"]["args"]["by"]["seat"] == 1
    assert "bot" not in placed["Ana"]["args"]["seat0"]
    assert state["version"] == mine["version"]
