"""Game records for both games: PGN-style text and JSON (see ``docs/records.md``).

>>> import diceboard
>>> from diceboard.records import GameRecord, read_pgn
>>> state = diceboard.game("custodian", placement="rolled").start(seed=3)
>>> print(GameRecord.from_state(state, players=("Alice", "Bob"), date="2024.05.01").to_pgn())
[Game "Custodian Dice"]
[Placement "rolled"]
[White "Alice"]
[Black "Bob"]
[Date "2024.05.01"]
[Result "*"]
[Termination "unterminated"]
<BLANKLINE>
=2 =5 =5 =2 =3 =5 =4 =6 =5 =1 *
<BLANKLINE>
"""

from diceboard.core.errors import RecordError
from diceboard.records.files import read_pgn, write_pgn
from diceboard.records.record import GameRecord

__all__ = ["GameRecord", "RecordError", "read_pgn", "write_pgn"]
