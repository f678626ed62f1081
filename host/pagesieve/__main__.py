"""``python -m pagesieve``: the same command line as the ``pagesieve`` script."""

import sys

from pagesieve.cli import main

sys.exit(main())
