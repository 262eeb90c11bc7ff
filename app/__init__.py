"""Caravanserai: board games with friends in the browser (``caravanserai --version`` reads this)."""

__version__ = "0.1.0"
