"""The PGN-style text syntax, without any game knowledge: text to raw games and back.

Reading splits the text into tokens (tag pairs, comments, move numbers, moves, result
tokens) and groups them into :class:`RawGame` objects; whether a move is legal is for
:mod:`diceboard.records.record` to find out with the engine. Writing lays out tag pairs and
numbered movetext in lines of at most :data:`LINE_WIDTH` characters.

Braces are both PGN's comments and Chase's absorption prefix (``{a1,b6}d6-d3SW``). A brace
group is read as a prefix when it holds only a comma-separated list of squares (spaces
around the commas allowed) and the rest of the move follows with no space in between;
everything else in braces is a comment. The writer always puts a space after a comment, so
its own output is unambiguous.

Annotation glyphs follow their move: as a suffix (``b1-d2=4?``, ``a5-f8NE?!``) or as a
numeric annotation glyph token (``$2``); the writer writes the suffix.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from diceboard.core.errors import RecordError
from diceboard.records.tags import RESULTS, escape, unescape

#: the longest line the writer makes (PGN's export format asks for fewer than 80 characters)
LINE_WIDTH = 79

TokenKind = Literal["tag", "comment", "number", "move", "glyph", "result", "error"]

#: the annotation glyphs a record holds, and PGN's numeric glyphs ($1-$6) for them
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
NAGS = {f"${i}": glyph for i, glyph in enumerate(GLYPHS, start=1)}

_TAG = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_PREFIXED_MOVE = re.compile(
    r"\{[ \t]*[a-z]\d{1,2}(?:[ \t]*,[ \t]*[a-z]\d{1,2})*[ \t]*\}[^\s{}\[\]();]+", re.IGNORECASE
)
_WORD = re.compile(r"[^\s{}\[\]();]+")
_MOVE_NUMBER = re.compile(r"\d+\.+")
_SUFFIX = re.compile(r"[!?]{1,2}$")


@dataclass(frozen=True, slots=True)
class Token:
    """One lexical element of a PGN text and the line it starts on.

    ``text`` is the tag name, comment text, move, move number, result or error message;
    ``value`` is the (unescaped) value of a tag pair.
    """

    kind: TokenKind
    text: str
    line: int
    value: str = ""


@dataclass(slots=True)
class RawGame:
    """One game as the text has it: tags, move texts and comments, not yet replayed.

    ``comments[k]`` holds the comments that follow the first ``k`` move texts
    (``k = 0``: before the first move).
    """

    number: int
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    moves: list[tuple[str, int]] = field(default_factory=list)
    comments: dict[int, list[str]] = field(default_factory=dict)
    result: tuple[str, int] | None = None
    #: ``glyphs[k]``: the annotation glyph of the ``k``-th move text (from 1)
    glyphs: dict[int, str] = field(default_factory=dict)

    def add_comment(self, text: str) -> None:
        """Attach a comment after the moves read so far."""
        self.comments.setdefault(len(self.moves), []).append(text)


def normalise_newlines(text: str) -> str:
    """``text`` with ``\\r\\n`` and lone ``\\r`` line ends turned into ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def tokenize(text: str) -> Iterator[Token]:
    """The tokens of a PGN text (with ``\\n`` line ends); a lexical error is yielded as an
    ``error`` token, so that the caller can say which game it is in."""
    pos, line, n = 0, 1, len(text)
    while pos < n:
        ch = text[pos]
        if ch.isspace():  # the same spaces as the patterns' \s (no-break space included)
            line += ch == "\n"
            pos += 1
        elif ch == "%" and (pos == 0 or text[pos - 1] == "\n"):
            # PGN's escape mechanism: the whole line is ignored
            end = text.find("\n", pos)
            pos = n if end < 0 else end
        elif ch == ";":
            end = text.find("\n", pos)
            end = n if end < 0 else end
            yield Token("comment", text[pos + 1 : end].strip(), line)
            pos = end
        elif ch == "[":
            m = _TAG.match(text, pos)
            if m is None:
                end = text.find("\n", pos)
                snippet = text[pos : n if end < 0 else end]
                yield Token(
                    "error",
                    f'malformed tag {_shorten(snippet)!r}: a tag pair is [Name "value"], '
                    'with \\" and \\\\ for a quote and a backslash inside the value',
                    line,
                )
                return
            yield Token("tag", m.group(1), line, unescape(m.group(2)))
            pos = m.end()
        elif ch == "{":
            m = _PREFIXED_MOVE.match(text, pos)
            if m is not None:
                yield from _word_tokens(m.group(), line)  # a glyph suffix split off
                pos = m.end()
                continue
            end = text.find("}", pos)
            if end < 0:
                yield Token("error", "a comment opened with '{' is never closed with '}'", line)
                return
            body = text[pos + 1 : end]
            yield Token("comment", body.strip(), line)
            line += body.count("\n")
            pos = end + 1
        elif ch in "()":
            yield Token("error", "variations in parentheses ( … ) are not supported", line)
            return
        elif ch in "}]":
            yield Token("error", f"unexpected {ch!r} with no matching opening bracket", line)
            return
        else:
            m = _WORD.match(text, pos)
            assert m is not None  # every other character starts a word
            pos = m.end()
            yield from _word_tokens(m.group(), line)


def _word_tokens(word: str, line: int) -> Iterator[Token]:
    number = _MOVE_NUMBER.match(word)
    if number is not None:
        yield Token("number", number.group(), line)
        word = word[number.end() :]
        if not word:
            return
    if word.startswith("$"):
        glyph = NAGS.get(word)
        if glyph is None:
            yield Token(
                "error",
                f"unknown numeric annotation glyph {word!r}; known: $1-$6 ({' '.join(GLYPHS)})",
                line,
            )
        else:
            yield Token("glyph", glyph, line)
        return
    if word in RESULTS:
        yield Token("result", word, line)
        return
    suffix = _SUFFIX.search(word)
    if suffix is not None and suffix.start() > 0 and suffix.group() in GLYPHS:
        yield Token("move", word[: suffix.start()], line)
        yield Token("glyph", suffix.group(), line)
        return
    yield Token("move", word, line)


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def split_games(text: str) -> list[RawGame]:
    """The games of a PGN text, in order.

    A game is its tag pairs followed by its movetext; it ends with its result token, or where
    the next game's tag pairs begin, or at the end of the text. Comments between a result
    token and the next game belong to the next game (before its first move); comments after
    the last game belong to its end.
    """
    games: list[RawGame] = []
    current: RawGame | None = None
    closed = True
    pending: list[str] = []

    def start(line: int) -> RawGame:
        nonlocal current, closed
        if current is not None:
            games.append(current)
        current = RawGame(len(games) + 1, line)
        if pending:
            current.comments[0] = pending.copy()
            pending.clear()
        closed = False
        return current

    for tok in tokenize(normalise_newlines(_without_bom(text))):
        if tok.kind == "error":
            number = 1 if current is None else current.number + closed
            raise RecordError(f"game {number}, line {tok.line}: {tok.text}")
        if tok.kind == "comment":
            if current is None or closed:
                pending.append(tok.text)
            else:
                current.add_comment(tok.text)
            continue
        game = current
        if game is None or closed or (tok.kind == "tag" and game.moves):
            game = start(tok.line)
        if tok.kind == "tag":
            if tok.text in game.tags:
                raise RecordError(
                    f"game {game.number}, line {tok.line}: the tag {tok.text} appears twice "
                    f"(first on line {game.tag_lines[tok.text]})"
                )
            game.tags[tok.text] = tok.value
            game.tag_lines[tok.text] = tok.line
        elif tok.kind == "move":
            game.moves.append((tok.text, tok.line))
        elif tok.kind == "glyph":
            if not game.moves:
                raise RecordError(
                    f"game {game.number}, line {tok.line}: the annotation glyph {tok.text} "
                    "follows no move"
                )
            game.glyphs[len(game.moves)] = tok.text
        elif tok.kind == "result":
            game.result = (tok.text, tok.line)
            closed = True
    if current is not None:
        games.append(current)
        if pending:
            current.comments.setdefault(len(current.moves), []).extend(pending)
    return games


# --- writing -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MovetextItem:
    """A move as the movetext writes it: its notation and the index of the player who
    decided it (``None`` for a chance outcome written on its own, such as a setup roll)."""

    notation: str
    player: int | None
    #: the move's annotation glyph (``?``, ``??`` …), or ""
    glyph: str = ""


def comment_token(text: str) -> str:
    """A comment as written: ``{text}``, or ``;text`` (ending its line) when the text holds a
    ``}``; a comment cannot hold both ``}`` and a line break."""
    if "}" not in text:
        return "{" + text + "}"
    if "\n" in text:
        raise RecordError(f"a comment cannot hold both '}}' and a line break: {text!r}")
    return ";" + text


def movetext_tokens(
    items: Sequence[MovetextItem], comments: Mapping[int, Sequence[str]], result: str
) -> list[str]:
    """The movetext of a game as tokens: rounds numbered from 1, ``N.`` before the first
    player's moves of a round and ``N...`` where a round's written moves start with the
    second player (at the start, and again after a comment); chance outcomes written on
    their own stand without numbers, so leading setup rolls come before ``1.``."""
    tokens = [comment_token(c) for c in comments.get(0, ())]
    round_no = 1
    previous: int | None = None
    renumber = True
    for i, item in enumerate(items):
        text = item.notation + item.glyph
        if item.player is not None:
            if item.player == 0 and previous is not None and previous != 0:
                round_no += 1
                text = f"{round_no}. {text}"
            elif item.player == 0 and previous is None:
                text = f"{round_no}. {text}"
            elif item.player != 0 and renumber:
                text = f"{round_no}... {text}"
            previous = item.player
            renumber = False
        tokens.append(text)
        after = comments.get(i + 1, ())
        tokens.extend(comment_token(c) for c in after)
        if after:
            renumber = True
    tokens.append(result)
    return tokens


def format_game(tags: Mapping[str, str], tokens: Sequence[str], width: int = LINE_WIDTH) -> str:
    """A game as PGN text: one tag pair a line, a blank line, the movetext wrapped at
    ``width`` characters (a token is never split), and a final line end."""
    head = "".join(f'[{name} "{escape(value)}"]\n' for name, value in tags.items())
    lines: list[str] = []
    line = ""
    for token in tokens:
        column = len(line) - line.rfind("\n") - 1
        first = token.split("\n", 1)[0]
        if line and column + 1 + len(first) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
        if token.startswith(";"):
            lines.append(line)
            line = ""
    if line:
        lines.append(line)
    return head + "\n" + "\n".join(lines) + "\n"
