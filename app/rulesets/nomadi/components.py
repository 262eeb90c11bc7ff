"""What comes in the Nomadi box (Spec R-6 .. R-8, R-13): the numbers the setup deals out.

One copy, read by the setup (``rules.py``) and by ``determinize`` (``information.py``), which
rebuilds the hidden part of a game from the same components.
"""

from __future__ import annotations

COLOURS = ("blue", "yellow", "red", "green", "black")
"""R-6: the colours in the order seats take them."""
STONES_EACH = {2: 8, 3: 5, 4: 4, 5: 3}
"""R-6: stones per player by player count."""
STARTING_COINS = 5
"""R-7."""
CARD_VALUES = (1,) * 4 + (2,) * 4 + (3,) * 4 + (-1,) * 3 + (-2,) * 3
"""R-8: the 18 desert cards."""
CARD_IDS = tuple(f"card-{number:02d}" for number in range(1, len(CARD_VALUES) + 1))
"""The cards' ids, ``card-01`` .. ``card-18``: the setup numbers the shuffled deck in this order."""
DICE = 6
"""R-13."""
