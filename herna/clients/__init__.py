"""Python client libraries used by bots, terminal clients and tests."""
