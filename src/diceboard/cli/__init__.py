"""The ``diceboard`` command line: one module per command in :mod:`diceboard.cli.commands`,
assembled into one argparse parser by :func:`diceboard.cli.main.main`."""
