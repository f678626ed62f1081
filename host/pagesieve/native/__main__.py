"""``python -m pagesieve.native``: the native-messaging host."""

import sys

from pagesieve.native.host import main

sys.exit(main())
