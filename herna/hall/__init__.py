"""The hall shared by all games: matches, records, ratings and the spectator event bus.

The package imports nothing itself: a client that needs only the identity rules must not load
the database layer (seconds of start-up for `herna bot`/`herna play`). Import the modules.
"""
