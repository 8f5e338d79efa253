"""Analysis built on the computer players: a calibrated win probability
(:mod:`.calibration`), game review (:mod:`.review`) and puzzles (:mod:`.puzzles`).

This package sits above the AI and the records (beside the arena): the command line and the
web server use it; it names no game, and reads what it needs from the registry.
"""
