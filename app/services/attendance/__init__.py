"""Attendance: who sits at their seat: who has a game open or is away, whose seat a bot plays
(takeover), and the move deadlines written with each change."""
