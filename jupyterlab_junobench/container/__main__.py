"""``python -m jupyterlab_junobench.container``: the command line of :mod:`.cli`."""

import sys

from .cli import main

sys.exit(main())
