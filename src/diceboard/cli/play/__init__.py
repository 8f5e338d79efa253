"""The terminal game of ``diceboard play``: seats (humans and agents), reading what a human
types, hints, and the game loop."""
