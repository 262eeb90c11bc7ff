"""The leader: what one process runs for all (the clock that enforces deadlines, absence,
the bots' moves, the housekeeping of open tables) and the election that picks it."""
