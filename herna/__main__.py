"""`python -m herna ...` is the `herna` command (as `python -m herna.cli ...` is)."""

import sys

from herna.cli import main

sys.exit(main())
