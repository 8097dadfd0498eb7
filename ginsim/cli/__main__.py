"""``python -m ginsim.cli``: the ``ginsim`` command."""

from . import main

raise SystemExit(main())
