"""Herna: a game hall for bots and people."""

__version__ = "0.1.0"
