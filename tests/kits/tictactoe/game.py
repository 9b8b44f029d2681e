"""Tic-tac-toe's rules: squares a1 to c3 (files a-c, ranks 1-3), seat 1 moves first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import (
    N_,
    Ending,
    Game,
    GameInfo,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    Outcome,
    Phrase,
    Seat,
    checked_decoder,
    phrase,
)
from games.grid import Grid

GRID = Grid(3)
EMPTY = -1
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToeEnding(Ending):
    LINE = "line"  # three in a row
    FULL = "full"  # the board is full without one


@dataclass(frozen=True)
class TicTacToeState:
    board: tuple[int, ...]  # per square: the seat whose mark is there, or EMPTY
    to_move: int
    ply: int


@dataclass(frozen=True)
class TicTacToeView:
    """Nothing is hidden: the whole position, as the picture needs it."""

    board: tuple[int, ...]
    to_move: int | None
    outcome: Outcome | None


def line_of(board: tuple[int, ...]) -> tuple[int, ...] | None:
    for line in LINES:
        a, b, c = (board[s] for s in line)
        if a != EMPTY and a == b == c:
            return line
    return None


class TicTacToe(Game[TicTacToeState, int]):
    info = GameInfo(id="tic-tac-toe", name="Tic-tac-toe", min_seats=2, max_seats=2,
                    endings=tuple(TicTacToeEnding))

    def new(self, seats=None, options=None) -> TicTacToeState:
        self.check_seats(seats)
        self.resolve_options(options)
        return TicTacToeState((EMPTY,) * 9, 0, 0)

    def options_of(self, state: TicTacToeState) -> dict[str, str]:
        return {}

    def seats(self, state: TicTacToeState) -> int:
        return 2

    def legal_moves(self, state: TicTacToeState) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return [s for s in range(9) if state.board[s] == EMPTY]

    def apply(self, state: TicTacToeState, move: int) -> TicTacToeState:
        if self.outcome(state) is not None:
            raise GameOverError(N_("the game is over"))
        if not isinstance(move, int) or not 0 <= move < 9 or state.board[move] != EMPTY:
            raise IllegalMoveError(N_("that square is taken"))
        board = list(state.board)
        board[move] = state.to_move
        return TicTacToeState(tuple(board), 1 - state.to_move, state.ply + 1)

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        line = line_of(state.board)
        if line is not None:
            return Outcome((state.board[line[0]],), ending=TicTacToeEnding.LINE)
        if EMPTY not in state.board:
            return Outcome((0, 1), draw=True, ending=TicTacToeEnding.FULL)
        return None

    def to_move(self, state: TicTacToeState) -> int | None:
        return None if self.outcome(state) is not None else state.to_move

    def scores(self, state: TicTacToeState) -> None:
        return None

    def ply(self, state: TicTacToeState) -> int:
        return state.ply

    def parse_move(self, state: TicTacToeState, text: str) -> int:
        square = GRID.parse(text.strip().lower())
        if square is None:
            raise InvalidMoveError(N_("a move is a square, a1 to c3"))
        return square

    def format_move(self, state: TicTacToeState, move: int) -> str:
        return GRID.name(move)

    def describe_outcome(self, state: TicTacToeState) -> Phrase:
        outcome = self.outcome(state)
        if outcome is None or outcome.draw:
            return super().describe_outcome(state)
        return phrase(N_("{winner} has three in a row"), winner=Seat(outcome.winners[0]))

    def to_json(self, state: TicTacToeState) -> dict[str, Any]:
        return {"board": list(state.board), "to_move": state.to_move, "ply": state.ply}

    @checked_decoder
    def from_json(self, data: Mapping[str, Any]) -> TicTacToeState:
        board = data["board"]
        if not isinstance(board, list) or len(board) != 9 or any(
                type(v) is not int or v not in (EMPTY, 0, 1) for v in board):
            raise InvalidStateError("board: nine squares of -1, 0 or 1")
        ply, to_move = data["ply"], data["to_move"]
        marks = [board.count(0), board.count(1)]
        if type(ply) is not int or ply != sum(marks) or marks[0] - marks[1] not in (0, 1):
            raise InvalidStateError("the marks on the board do not add up")
        if to_move != ply % 2:
            raise InvalidStateError("to_move does not follow the marks")
        return TicTacToeState(tuple(board), to_move, ply)

    def observe(self, state: TicTacToeState, viewer: int | None) -> TicTacToeView:
        return TicTacToeView(state.board, self.to_move(state), self.outcome(state))

    def describe(self, state: TicTacToeState) -> str:
        marks = {EMPTY: ".", 0: "X", 1: "O"}
        rows = [" ".join(marks[state.board[f + 3 * r]] for f in range(3)) for r in (2, 1, 0)]
        return "\n".join(f"{r + 1} {row}" for r, row in zip((2, 1, 0), rows, strict=True)) \
            + "\n  a b c"


GAME = TicTacToe()
