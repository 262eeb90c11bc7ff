"""Accounts: identity and sessions, settings, friends, profiles, ratings, password reset, and
the admin tools with their audit."""
