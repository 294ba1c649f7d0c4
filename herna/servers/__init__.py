"""Thin asyncio transports that wire the protocol cores to the hall."""
