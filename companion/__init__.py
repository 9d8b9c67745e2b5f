"""A Raspberry Pi companion that keeps the bank and the rules of cardboard board games."""

__version__ = "0.1.0"
