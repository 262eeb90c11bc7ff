"""Games: the move pipeline, the state and log it keeps, the caches, undo, replays, and the
payloads a game is shown in (views, legal forms)."""
