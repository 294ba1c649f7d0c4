"""Starter kits: a minimal bot per game and language that plays legal moves over standard
input and output, for authors of submitted bots (docs/bots.md; the web hall's bot pages
offer them for download). They are programs for the sandbox, never imported by Herna."""

from __future__ import annotations

from importlib import resources

STARTERS = {
    ("onitama", "python"): ("onitama.py", "onitama-starter.py"),
    ("onitama", "c"): ("onitama.c", "onitama-starter.c"),
    ("marias", "python"): ("marias.py", "marias-starter.py"),
    ("marias", "c"): ("marias.c", "marias-starter.c"),
    ("mia", "python"): ("mia.py", "mia-starter.py"),
    ("mia", "c"): ("mia.c", "mia-starter.c"),
    ("tiles", "python"): ("tiles.py", "tiles-starter.py"),
    ("tiles", "c"): ("tiles.c", "tiles-starter.c"),
}
"""(game, language) → (file in this package, name to download it as)."""


def starter(game: str, language: str) -> tuple[str, bytes] | None:
    """The download name and source of a starter kit, or ``None``."""
    entry = STARTERS.get((game, language))
    if entry is None:
        return None
    source = resources.files(__package__).joinpath(entry[0]).read_bytes()
    return entry[1], source
