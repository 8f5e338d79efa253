"""Group commit (:mod:`diceboard.server.storage.group_commit`): writes that arrive together
share one transaction, each is answered only after it committed, and one refused or broken
write never takes the others with it."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from diceboard.server.storage import Database, MoveData, Repository
from diceboard.server.storage.group_commit import GroupCommit
from diceboard.server.storage.repository import Write
from diceboard.server.storage.rows import GameData
from tests.server.test_units import sample_game


@pytest.fixture(params=["bulk", "general"])
def repository(database_url: str, request: pytest.FixtureRequest) -> Iterator[Repository]:
    """A repository on the test's database; on SQLite, once with batches of moves stored in
    bulk (the server's way there) and once the general way, which must store the same."""
    database = Database.open(database_url)
    repository = Repository(database)
    if request.param == "general":
        repository._bulk = None
    elif repository._bulk is None:
        pytest.skip("batches are stored in bulk on SQLite only")
    yield repository
    database.close()


def _games(repository: Repository, count: int) -> list[GameData]:
    games = [dataclasses.replace(sample_game(), id=f"g{i}") for i in range(count)]
    for game in games:
        repository.insert(game, [], [])
    return games


def _move(game: GameData, notation: str) -> Write:
    after = dataclasses.replace(game, revision=game.revision + 1, version=2, move_count=1)
    return Write(game, after, new_moves=(MoveData(notation, "W", 1.0),))


def _commits(repository: Repository) -> list[int]:
    """A list that counts the transactions committed on ``repository``'s engine."""
    seen: list[int] = []
    event.listen(repository.database.engine, "commit", lambda _conn: seen.append(1))
    return seen


def _statements(repository: Repository) -> list[str]:
    """A list of the SQL statements run on ``repository``'s engine from now on."""
    seen: list[str] = []
    event.listen(
        repository.database.engine,
        "before_cursor_execute",
        lambda _conn, _cursor, statement, *_args: seen.append(statement),
    )
    return seen


def _stored_moves(repository: Repository, game_id: str) -> list[str]:
    loaded = repository.load(game_id)
    assert loaded is not None
    return [m.notation for m in loaded[2]]


@pytest.mark.parametrize("in_thread", [True, False])
def test_writes_of_one_turn_share_one_transaction(repository: Repository, in_thread: bool) -> None:
    games = _games(repository, 20)
    commits = _commits(repository)
    group = GroupCommit(repository, in_thread=in_thread)

    async def main() -> list[bool]:
        return await asyncio.gather(*(group.commit(_move(g, f"m{g.id}")) for g in games))

    assert asyncio.run(main()) == [True] * 20
    assert len(commits) == 1 and (group.transactions, group.writes) == (1, 20)
    for game in games:
        assert _stored_moves(repository, game.id) == [f"m{game.id}"]


def test_each_writer_is_answered_after_its_transaction_committed(repository: Repository) -> None:
    games = _games(repository, 3)
    commits = _commits(repository)
    group = GroupCommit(repository)
    committed_when_answered: list[int] = []

    async def one(game: GameData) -> None:
        assert await group.commit(_move(game, "x"))
        committed_when_answered.append(len(commits))
        # what was acknowledged is in the database, read on another connection
        assert _stored_moves(repository, game.id) == ["x"]

    async def main() -> None:
        await asyncio.gather(*(one(g) for g in games))

    asyncio.run(main())
    assert committed_when_answered == [1, 1, 1]


def test_a_write_refused_by_its_guard_leaves_the_others_stored(repository: Repository) -> None:
    fresh, stale = _games(repository, 2)
    moved = _move(stale, "first")
    assert repository.commit(moved.before, moved.after)  # another writer came first
    group = GroupCommit(repository)

    async def main() -> list[bool]:
        return await asyncio.gather(
            group.commit(_move(fresh, "a")), group.commit(_move(stale, "b"))
        )

    assert asyncio.run(main()) == [True, False]
    assert _stored_moves(repository, fresh.id) == ["a"]
    assert _stored_moves(repository, stale.id) == []
    loaded = repository.load(stale.id)
    assert loaded is not None and loaded[0].revision == stale.revision + 1


def test_a_write_that_breaks_a_constraint_fails_alone(repository: Repository) -> None:
    before, good, after = _games(repository, 3)
    # a game whose stored move 0 exists although its row says it has none: appending move 0
    # breaks the moves' primary key inside the shared transaction
    clashing = dataclasses.replace(sample_game(), id="clash")
    repository.insert(clashing, [], [MoveData("taken", "W", 1.0)])
    commits = _commits(repository)
    group = GroupCommit(repository)

    async def main() -> list[bool]:
        return await asyncio.gather(
            group.commit(_move(before, "a")),
            group.commit(_move(clashing, "b")),
            group.commit(_move(good, "c")),
            group.commit(_move(after, "d")),
        )

    assert asyncio.run(main()) == [True, False, True, True]
    assert [_stored_moves(repository, g.id) for g in (before, good, after)] == [["a"], ["c"], ["d"]]
    stored = repository.load("clash")
    assert stored is not None
    assert stored[0].revision == clashing.revision and [m.notation for m in stored[2]] == ["taken"]
    # the shared transaction was rolled back, then the three good writes committed one by one
    assert len(commits) == 3


def test_a_failing_transaction_raises_to_its_writers(
    repository: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = _games(repository, 2)
    group = GroupCommit(repository)

    def fail(*_args: Any) -> Any:
        raise OSError("disk full")

    monkeypatch.setattr(repository, "commit_all", fail)
    monkeypatch.setattr(repository, "commit_write", fail)

    async def main() -> list[BaseException | bool]:
        return await asyncio.gather(
            *(group.commit(_move(g, "x")) for g in games), return_exceptions=True
        )

    results = asyncio.run(main())
    assert all(isinstance(r, OSError) for r in results)


def test_a_constraint_broken_in_the_shared_transaction_spoils_no_other_write(
    repository: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import IntegrityError

    games = _games(repository, 3)
    group = GroupCommit(repository)
    real_write = repository.commit_write

    def shared(_writes: Any) -> list[bool]:
        raise IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))

    def alone(write: Write) -> bool:
        if write.before.id == games[1].id:
            return False  # the write that broke the constraint, refused on its own
        return real_write(write)

    monkeypatch.setattr(repository, "commit_all", shared)
    monkeypatch.setattr(repository, "commit_write", alone)

    async def main() -> list[bool]:
        return await asyncio.gather(*(group.commit(_move(g, "x")) for g in games))

    assert asyncio.run(main()) == [True, False, True]
    assert [_stored_moves(repository, g.id) for g in games] == [["x"], [], ["x"]]


def test_writes_queued_while_one_commits_go_into_the_next(repository: Repository) -> None:
    games = _games(repository, 6)
    group = GroupCommit(repository)

    async def main() -> None:
        first = [asyncio.create_task(group.commit(_move(g, "a"))) for g in games[:3]]
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the first batch is taken and committing now
        later = [asyncio.create_task(group.commit(_move(g, "b"))) for g in games[3:]]
        assert all(await asyncio.gather(*first, *later))

    asyncio.run(main())
    assert group.writes == 6 and 1 <= group.transactions <= 2


def test_a_shared_transaction_stores_every_write_in_its_order(repository: Repository) -> None:
    # the new moves of a shared transaction go in one statement at its end; two writes of
    # one game in a batch (which the service's lock never makes) are stored one after the
    # other, and a takeback drops its moves before the new ones are stored
    first, other = _games(repository, 2)
    assert repository.commit_all([_move(first, "a"), _move(other, "x")]) == [True, True]
    first = dataclasses.replace(first, revision=first.revision + 1, move_count=1)
    other = dataclasses.replace(other, revision=other.revision + 1, move_count=1)
    second = _extend(first, "b")
    third = _extend(second.after, "c")
    back = Write(
        other,
        dataclasses.replace(other, revision=other.revision + 1, move_count=1),
        keep_moves=0,
        new_moves=(MoveData("y", "W", 2.0),),
    )
    assert repository.commit_all([second, third, back]) == [True, True, True]
    assert _stored_moves(repository, first.id) == ["a", "b", "c"]
    assert _stored_moves(repository, other.id) == ["y"]
    # a write whose guard fails in a shared transaction adds no move
    stale = _extend(first, "z")
    assert repository.commit_all([stale, _extend(third.after, "d")]) == [False, True]
    assert _stored_moves(repository, first.id) == ["a", "b", "c", "d"]
    # and with each game once (the moves stored together): a stale write adds nothing, a
    # takeback keeps its order
    fourth = dataclasses.replace(third.after, revision=third.after.revision + 1, move_count=4)
    undo = Write(
        fourth,
        dataclasses.replace(fourth, revision=fourth.revision + 1, move_count=3),
        keep_moves=2,
        new_moves=(MoveData("e", "W", 3.0),),
    )
    assert repository.commit_all([undo, _extend(other, "q")]) == [True, False]
    assert _stored_moves(repository, first.id) == ["a", "b", "e"]
    assert _stored_moves(repository, other.id) == ["y"]


def _extend(game: GameData, notation: str) -> Write:
    after = dataclasses.replace(game, revision=game.revision + 1, move_count=game.move_count + 1)
    return Write(game, after, new_moves=(MoveData(notation, "W", 1.0),))


def _everything_changed(game: GameData, notation: str) -> Write:
    """A move that also changes every column a write may change."""
    after = dataclasses.replace(
        game,
        options={"variant": "chaos", "nested": [1, 2.5, None, "x"]},
        start_position="somewhere",
        seed=2**40,
        mode="online",
        listed=True,
        status="finished",
        revision=game.revision + 1,
        version=game.version + 1,
        move_count=game.move_count + 2,
        result="1-0",
        winner="W",
        reason="elimination",
        initial_ms=60_000,
        increment_ms=2_000,
        clock_first_ms=12_345,
        clock_second_ms=54_321,
        clock_running="B",
        clock_since=1234.5,
        draw_offer="W",
        takeback_offer="B",
        rematch_offer="W",
        rematch_game="r1",
        rematch_of="r0",
        invite_code="code",
        updated_at=99.25,
        tags={"Event": "ünïcode", "Round": 3},
    )
    moves = (MoveData(notation, "W", 1.5, 100), MoveData(notation + "=4", None, 2.0))
    return Write(game, after, new_moves=moves)


def test_a_batch_stores_every_column_as_written(repository: Repository) -> None:
    games = _games(repository, 3)
    writes = [_everything_changed(g, f"m{g.id}") for g in games]
    statements = _statements(repository)
    assert repository.commit_all(writes) == [True, True, True]
    if repository._bulk is not None:  # in bulk: one update of the games, one insert of moves
        assert [s.split()[0] for s in statements] == ["UPDATE", "INSERT"]
    for write in writes:
        loaded = repository.load(write.before.id)
        assert loaded is not None
        data, _seats, moves = loaded
        assert data == write.after
        assert tuple(moves) == write.new_moves


def test_a_batch_larger_than_one_statement_takes_is_stored_whole(
    repository: Repository,
) -> None:
    if repository._bulk is None:
        pytest.skip("the bulk statements' size limit")
    # as an SQLite built with a low limit on bound parameters has it: two games' or nine
    # moves' values a statement
    repository._bulk._variables = 58
    games = _games(repository, 5)
    writes = [_everything_changed(g, f"m{g.id}") for g in games]
    statements = _statements(repository)
    assert repository.commit_all(writes) == [True] * 5
    assert [s.split()[0] for s in statements] == ["UPDATE"] * 3 + ["INSERT"] * 2
    for write in writes:
        loaded = repository.load(write.before.id)
        assert loaded is not None
        assert loaded[0] == write.after and tuple(loaded[2]) == write.new_moves


def test_a_stale_write_in_a_batch_is_refused_and_the_others_stored_once(
    repository: Repository,
) -> None:
    first, stale, last = _games(repository, 3)
    moved = _move(stale, "came first")
    assert repository.commit(moved.before, moved.after, new_moves=moved.new_moves)
    assert repository.commit_all([_move(first, "a"), _move(stale, "b"), _move(last, "c")]) == [
        True,
        False,
        True,
    ]
    assert [_stored_moves(repository, g.id) for g in (first, stale, last)] == [
        ["a"],
        ["came first"],
        ["c"],
    ]
    for game in (first, last):
        loaded = repository.load(game.id)
        assert loaded is not None and loaded[0].revision == game.revision + 1
    # and one write alone
    assert not repository.commit_write(_move(stale, "d"))
    assert repository.commit_write(_extend(_move(first, "a").after, "e"))
    assert _stored_moves(repository, first.id) == ["a", "e"]
