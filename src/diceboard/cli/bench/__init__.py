"""Targets of ``diceboard bench``: one module per target group, each with
``register(subparsers)`` like a command module; the list of them is :data:`TARGETS`."""

#: the bench target modules in ``diceboard.cli.bench``; a new target (``bench server``,
#: ``bench vector``) is a new module there and one name here
TARGETS: tuple[str, ...] = (
    "engines",
    "server",
    "broadcast",
    "startup",
    "vector",
    "search",
    "evals",
    "review",
    "endings",
)
