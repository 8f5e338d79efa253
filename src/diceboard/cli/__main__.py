"""``python -m diceboard.cli``: the same program as the ``diceboard`` console script."""

import sys

from diceboard.cli.main import main

sys.exit(main())
