"""``python -m pagesieve_dev``: the same command line as the ``pagesieve-dev`` script."""

import sys

from pagesieve_dev.cli import main

sys.exit(main())
