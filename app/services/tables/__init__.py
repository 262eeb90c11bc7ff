"""Tables: the lobby (create, join, leave, start, rematch), seats, chat, and the housekeeping of
open tables."""
