"""A fifth game written from outside the platform, as a third party would: Three in a row
(noughts and crosses). It lives in the tests, is never shipped, and proves that a game needs only
the contract (``app/rulesets/base.py``): the conformance kit, the server and the generic renderer
take it unedited (``tests/rulesets/test_three_in_a_row.py``, ``tests/e2e/test_fifth_game_browser.py``).
"""
