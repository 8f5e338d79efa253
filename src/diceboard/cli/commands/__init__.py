"""One module per ``diceboard`` command, each with ``register(subparsers)``; the list of them
is :data:`diceboard.cli.main.COMMANDS`."""
