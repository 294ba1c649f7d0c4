"""Sans-I/O protocol cores: bytes in, events out; events in, bytes out; errors as values."""
