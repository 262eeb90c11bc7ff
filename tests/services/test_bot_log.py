"""How the log says a bot played a person's move (app/services/games/bot_log.py): the mover's name
says "(bot)" wherever the words name it, and " — played by ..." is said once per reader, on the
first entry they read when it does not name the mover; a move's consequences keep their words."""

from __future__ import annotations

from app.rulesets.base import arg_text, player
from app.services.games.bot_log import mark_bot_events, mark_revealed

BOT = {**player(1), "bot": True}


def row(text: str, seats: tuple[int, ...] | None = None) -> dict:
    return {"text": text, "args": {}, "rule": None, "seats": seats}


def texts(rows: list[dict]) -> list[str]:
    return [entry["text"] for entry in rows]


def test_the_move_names_the_mover_so_its_consequences_keep_their_words():
    # A Heroes pass at the end of a round: the bot's own line, then what followed for everyone.
    marked = mark_bot_events([row("{seat1} passes"), row("{seat0} collects nothing"), row("Round 2 begins")], 1)
    assert texts(marked) == ["{seat1} passes", "{seat0} collects nothing", "Round 2 begins"]
    assert marked[0]["args"]["seat1"] == BOT
    assert all(entry["args"]["by"] == BOT for entry in marked)  # every reader can still tell, from the arguments


def test_a_move_whose_words_name_nobody_says_who_played_once():
    marked = mark_bot_events([row("the round ends"), row("Round 2 begins")], 1)
    assert texts(marked) == ["the round ends — played by {by}", "Round 2 begins"]


def test_readers_of_a_private_entry_only_are_told_in_the_first_entry_they_read():
    # The bot's private draw (seat 1 reads it), then a public line: the others read only the second.
    marked = mark_bot_events([row("you draw {card}", seats=(1,)), row("a card is drawn"), row("the deck is empty")], 1)
    assert texts(marked) == ["you draw {card} — played by {by}", "a card is drawn — played by {by}", "the deck is empty"]


def test_an_entry_for_readers_already_told_keeps_its_words():
    marked = mark_bot_events([row("{seat1} bids"), row("your word is {word}", seats=(1,))], 1)
    assert texts(marked) == ["{seat1} bids", "your word is {word}"]


def test_a_bots_move_names_the_person_once_with_one_pair_of_brackets():
    """"Ben (bot)"; "Bob (seat 2, bot)" where two Bobs sit at the table (not "Bob (seat 2) (bot)");
    a bot's own seat ("Ada (bot)") and a person's own move keep their names."""
    names = ("Ben", "Bob (seat 2)", "Ada (bot)", "Bob (seat 4)")
    assert [arg_text({**player(seat), "bot": True}, names) for seat in range(4)] == [
        "Ben (bot)", "Bob (seat 2, bot)", "Ada (bot)", "Bob (seat 4, bot)"]
    assert arg_text(player(1), names) == "Bob (seat 2)"


def test_a_revealed_choice_names_only_the_seats_a_bot_chose_for():
    # Heroes' tactic cards, shown together: the bot chose for seat 1 only; seat 0's line is untouched.
    both = row("Both reveal: {seat0} Hold (+0), {seat1} First Strike (+2)")
    placed = row("{seat0} placed card {card}")
    marked = mark_revealed([both, placed, row("Round 2 begins")], [(0, 1), (0,), ()], {1})
    assert marked[0]["args"] == {"seat1": BOT, "by": BOT}
    assert marked[1:] == [placed, row("Round 2 begins")]
