"""``python -m ginsim``: the same command line as the ``ginsim`` script."""

import sys

from .cli import main

sys.exit(main())
