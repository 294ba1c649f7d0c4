import sys

from herna.cli import main

sys.exit(main())
