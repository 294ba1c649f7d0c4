"""Pure, deterministic rules engines, one package per game. No I/O, no clock, no global RNG."""
