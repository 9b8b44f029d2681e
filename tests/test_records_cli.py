"""Game records, `python -m games` and `python -m render`, run as a user would: a subprocess on
real files."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from games import REGISTRY
from games.record import RecordError, format_record, parse_record, replay_record

ROOT = Path(__file__).resolve().parents[1]
GAME2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


def run(*args, stdin: str | None = None, cwd: Path = ROOT):
    return subprocess.run([sys.executable, "-m", "games", *args], capture_output=True,
                          text=True, input=stdin, cwd=cwd, timeout=60)


def draw(*args):
    """`python -m render`: the pictures of a record."""
    return subprocess.run([sys.executable, "-m", "render", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "record.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def game2(moves=GAME2, extra=""):
    return ("# game: progressive-mancala\n# players: Alice, Bob\n# date: 2004-05-01\n"
            + extra + "\n".join(moves) + "\n")


def test_list_names_every_game_with_players_and_options():
    result = run("list")
    assert result.returncode == 0
    for game_id in ("pastoral-square", "ghostone", "progressive-mancala", "ico", "consequence"):
        assert game_id in result.stdout
    assert "pits=11|17" in result.stdout


def test_replay_of_game_2_reports_the_second_players_win(tmp_path):
    result = run("replay", write(tmp_path, game2()))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "game": "progressive-mancala", "finished": True, "winners": [2], "scores": [5, 28],
        "to_move": None, "moves": 15}


def test_replay_of_a_running_game_and_its_legal_moves(tmp_path):
    path = write(tmp_path, game2(GAME2[:13], extra="\n# a comment line\n\n"))
    summary = json.loads(run("replay", path).stdout)
    assert summary["finished"] is False and summary["winners"] == []
    assert summary["to_move"] == 1 and summary["scores"] == [5, 21] and summary["moves"] == 13
    moves = run("moves", path)
    assert moves.returncode == 0
    # pits after move 13: a9 b3 c0 d8 e0 f3 g0 h1 i1 j0 k4, first player's extra move
    assert moves.stdout.split() == ["a", "b", "d", "f", "h", "i", "k"]


def test_options_in_the_header_are_used(tmp_path):
    path = write(tmp_path, "# game: progressive-mancala\n# option: pits=17\nq\n")
    # q -> l -> f -> goal empties q, l and f of the 17-pit board
    assert run("moves", path).stdout.split() == list("abcdeghijkmnop")


@pytest.mark.parametrize("text, message", [
    (game2(["k", "k"]), "line 5: 'k': pit k is empty"),
    (game2(["k", "zz"]), "line 5: 'zz': write the letter of a pit, a to k"),
    ("# game: chess\ne4\n", "line 1: '# game: chess': chess is not a game"),
    ("# game: progressive-mancala\n# option: pits=12\n", "line 2: '# option: pits=12': pits can be 11, 17, not 12"),
    ("# game: progressive-mancala\n# seats: 3\n", "line 2: '# seats: 3': Progressive Mancala is played by 2 players, not 3"),
    ("k\n", "line 1: 'k': the record must start with '# game: <id>'"),
    (game2(GAME2 + ["a"]), "line 19: 'a': the game is over"),
])
def test_bad_records_exit_2_with_the_line_and_the_reason(tmp_path, text, message):
    result = run("replay", write(tmp_path, text))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().startswith(message), result.stderr


def test_games_no_longer_draws_and_never_imports_render(tmp_path):
    assert run("render", write(tmp_path, game2()), "-o", str(tmp_path / "b.png")).returncode == 2
    code = ("import sys, games, games.__main__, games.ai, games.record; "
            "print(sorted(m for m in sys.modules if m == 'render' or m.startswith(('render.', "
            "'PIL'))))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd=ROOT)
    assert found.stdout.strip() == "[]"


def test_render_writes_a_png_of_the_position(tmp_path):
    out = tmp_path / "board.png"
    result = draw(write(tmp_path, game2(GAME2[:14])), "-o", str(out))
    assert result.returncode == 0, result.stderr
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width >= 800


def test_play_hot_seat_explains_bad_input_and_saves_the_record(tmp_path):
    out = tmp_path / "saved.txt"
    session = "z\nk\nk\nc\nundo\nc\nquit\n"
    result = run("play", "progressive-mancala", "--out", str(out), stdin=session)
    assert result.returncode == 0, result.stderr
    assert "not played: write the letter of a pit, a to k" in result.stdout
    assert "not played: pit k is empty" in result.stdout
    assert "legal: a b c d e f g h i j k" in result.stdout
    record = out.read_text(encoding="utf-8")
    assert record.startswith("# game: progressive-mancala\n# option: pits=11\n")
    assert record.splitlines()[-2:] == ["k", "c"]
    replayed = json.loads(run("replay", str(out)).stdout)
    assert replayed["scores"] == [1, 2] and replayed["moves"] == 2


def test_format_and_parse_record_round_trip():
    game = REGISTRY["progressive-mancala"]
    start = game.new(options={"pits": "17"})
    text = format_record(game, start, ["q", "a"], meta={"players": "A, B"})
    record = parse_record(text)
    assert record.options == {"pits": "17", "repetition": "on"}
    assert record.meta == {"players": "A, B"} and [m for _, m in record.moves] == ["q", "a"]
    _, state = replay_record(record)
    assert state.ply == 2


def test_header_after_a_move_is_refused():
    with pytest.raises(RecordError, match="line 3: '# option: pits=17': '# option:' must come"):
        parse_record("# game: progressive-mancala\nk\n# option: pits=17\n")


def test_pastoral_records_replay_list_moves_and_render(tmp_path):
    text = "# game: pastoral-square\n# option: colour=white\nc3:2\nsave\nsave\nsave\nd3:3\n"
    path = write(tmp_path, text)
    summary = json.loads(run("replay", path).stdout)
    assert summary == {"game": "pastoral-square", "finished": False, "winners": [],
                       "scores": None, "to_move": 2, "moves": 5}
    moves = run("moves", path).stdout.split()
    assert moves[0] == "save" and "c3:1" not in moves  # c3 is the first player's
    out = tmp_path / "pastoral.png"
    assert draw(path, "-o", str(out)).returncode == 0
    with Image.open(out) as image:
        assert image.format == "PNG"
    bad = run("replay", write(tmp_path, "# game: pastoral-square\nd4:4\n"))
    assert bad.returncode == 2
    assert bad.stderr.strip() == "line 2: 'd4:4': you hold 2 stones, not 4"


def test_consequence_records_keep_the_full_notation(tmp_path):
    path = write(tmp_path, "# game: consequence\nBS@b2\nRD@a1>NE\nBM@d1\n")
    summary = json.loads(run("replay", path).stdout)
    assert summary == {"game": "consequence", "finished": False, "winners": [], "scores": None,
                       "to_move": 2, "moves": 3}
    moves = run("moves", path).stdout.split()
    assert "RS@a1" in moves and "c3-c4" in moves and all("@" in m or "-" in m for m in moves)
    out = tmp_path / "c.png"
    assert draw(path, "-o", str(out)).returncode == 0
    bad = run("replay", write(tmp_path, "# game: consequence\nB@b2\n"))
    assert bad.returncode == 2 and bad.stderr.startswith("line 2: 'B@b2': say which tile")


def test_ghostone_record_with_rolls_replays_exactly(tmp_path):
    import random

    game = REGISTRY["ghostone"]
    rng = random.Random(2)
    state = game.new(3)
    moves = []
    roll_due_at = None
    while game.outcome(state) is None:
        if game.is_chance(state) and roll_due_at is None:
            roll_due_at = len(moves)
        move = rng.choice(game.legal_moves(state))
        moves.append(game.format_move(state, move))
        state = game.apply(state, move)
    assert roll_due_at is not None and any(m.startswith("roll ") for m in moves)
    path = write(tmp_path, "# game: ghostone\n# seats: 3\n" + "\n".join(moves) + "\n")
    first, second = run("replay", path).stdout, run("replay", path).stdout
    assert first == second
    summary = json.loads(first)
    assert summary["finished"] and summary["scores"] == list(game.scores(state))
    assert summary["winners"] == [w + 1 for w in game.outcome(state).winners]
    partial = write(tmp_path, "# game: ghostone\n# seats: 3\n" + "\n".join(moves[:roll_due_at]) + "\n")
    assert run("moves", partial).stdout.split("\n")[:8] == [
        f"roll {d}" for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")]
    assert json.loads(run("replay", partial).stdout)["to_move"] is None


def test_ico_records_need_their_start_face(tmp_path):
    path = write(tmp_path, "# game: ico\n# seats: 3\n# option: level=2\n# option: start=f0\ne5\ne7\n")
    summary = json.loads(run("replay", path).stdout)
    assert summary == {"game": "ico", "finished": False, "winners": [], "scores": None,
                       "to_move": 3, "moves": 2}
    # f14 has e7 (blue), e8 and e21: yellow may take either empty edge (count balance)
    assert run("moves", path).stdout.split() == ["e8", "e21"]
    missing = run("replay", write(tmp_path, "# game: ico\ne5\n"))
    assert missing.returncode == 2
    assert missing.stderr.startswith("line 1: '# game: ico': start=random: the host draws")


def test_odd_input_never_ends_a_terminal_game(tmp_path):
    out = tmp_path / "saved.txt"
    session = "a²-b2\nk²\n" + "9" * 5000 + "\n\x00\nk\nquit\n"
    result = run("play", "progressive-mancala", "--out", str(out), stdin=session)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("not played: write the letter of a pit, a to k") == 4
    assert out.read_text(encoding="utf-8").splitlines()[-1] == "k"


def test_records_with_a_byte_order_mark_or_odd_digits(tmp_path):
    path = write(tmp_path, "\ufeff# game: progressive-mancala\nk\n")
    assert json.loads(run("replay", path).stdout)["moves"] == 1
    bad = run("replay", write(tmp_path, "# game: ghostone\n# seats: ³\n"))
    assert bad.returncode == 2
    assert bad.stderr.strip() == "line 2: '# seats: ³': seats must be a whole number"
    huge = run("replay", write(tmp_path, "# game: ghostone\n# seats: " + "9" * 5000 + "\n"))
    assert huge.returncode == 2 and len(huge.stderr) < 300


# -- python -m games ai ------------------------------------------------------------------
def _random_record(game_id, seats=None, options=None, *, until, seed=0):
    """A record of random play up to the first position where `until(game, state)` holds."""
    import random

    game = REGISTRY[game_id]
    rng = random.Random(seed)
    for _ in range(500):
        start = game.new(seats, options)
        state, moves = start, []
        while not until(game, state) and game.outcome(state) is None:
            move = rng.choice(game.legal_moves(state))
            moves.append(game.format_move(state, move))
            state = game.apply(state, move)
        if until(game, state):
            return format_record(game, start, moves), game, state
    raise AssertionError("no such position")


def test_ai_prints_one_legal_move_and_nothing_else(tmp_path):
    path = write(tmp_path, game2(GAME2[:13]))
    result = run("ai", path, "--level", "easy", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1
    assert result.stdout.strip() in run("moves", path).stdout.split()


def test_ai_with_a_seed_gives_the_same_move(tmp_path):
    text, game, state = _random_record("ghostone", 3, until=lambda g, s: s.ghost is not None
                                       and not g.is_chance(s), seed=3)
    path = write(tmp_path, text)
    first = run("ai", path, "--seed", "42", "--iterations", "150")
    again = run("ai", path, "--seed", "42", "--iterations", "150")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert first.stdout.strip() in game.legal_notations(state)


@pytest.mark.parametrize("options", [{"level": "2+", "antipodal": "yes", "start": "f4"},
                                     {"level": "1+", "start": "f9"}])
def test_ai_for_every_seat_count_of_ico(tmp_path, options):
    for seats in (2, 3, 4):
        text, game, state = _random_record("ico", seats, options,
                                           until=lambda g, s: g.ply(s) >= 9)
        result = run("ai", write(tmp_path, text), "--level", "easy", "--seed", "0")
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() in game.legal_notations(state)


def test_ai_on_a_bad_record_names_the_line(tmp_path):
    result = run("ai", write(tmp_path, game2(["k", "k"])))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().startswith("line 5: 'k': pit k is empty")


def test_ai_when_the_game_is_over(tmp_path):
    result = run("ai", write(tmp_path, game2()))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "the game is over" in result.stderr


def test_ai_when_a_die_roll_is_due(tmp_path):
    text, _, _ = _random_record("ghostone", 4, until=lambda g, s: g.is_chance(s), seed=1)
    result = run("ai", write(tmp_path, text))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "die roll is due" in result.stderr


def test_ai_gives_the_same_move_for_records_differing_in_what_the_mover_cannot_know(tmp_path):
    """The sun player placed a red sun in one record and a red dot in the other: the moon
    player, to move, cannot tell them apart."""
    moves = []
    for red in ("RS", "RD"):
        a = tmp_path / f"{red}.txt"
        a.write_text(f"# game: consequence\nBM@b2\n{red}@c3\nBD@a1\nRM@d4\n", encoding="utf-8")
        result = run("ai", str(a), "--seed", "5", "--iterations", "300")
        assert result.returncode == 0, result.stderr
        moves.append(result.stdout)
    assert moves[0] == moves[1]


def test_play_against_the_ai_in_the_terminal(tmp_path):
    out = tmp_path / "match.txt"
    result = run("play", "progressive-mancala", "--ai", "easy", "--out", str(out),
                 stdin="k\nundo\nk\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "the AI plays seat 2 (easy)" in result.stdout
    assert "the AI (seat 2):" in result.stdout
    record = parse_record(out.read_text(encoding="utf-8"))
    notations = [m for _, m in record.moves]
    assert notations[0] == "k" and len(notations) >= 2  # undo took back k and the AI's reply
    replay_record(record)


def test_play_with_the_ai_first_and_the_host_rolling(tmp_path):
    out = tmp_path / "match.txt"
    result = run("play", "ghostone", "--seats", "3", "--ai", "easy", "--ai-seat", "1",
                 "--ai-seat", "3", "--out", str(out), stdin="quit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "the AI (seat 1):" in result.stdout
    record = parse_record(out.read_text(encoding="utf-8"))
    assert len(record.moves) == 1  # the AI's first set-up placement, then seat 2 quits
    replay_record(record)


def test_a_record_with_options_valid_only_together_replays(tmp_path):
    """antipodal=yes goes with level=2+: each alone is checked against the other's default."""
    text = "# game: ico\n# seats: 2\n# option: level=2+\n# option: antipodal=yes\n# option: start=f0\ne0\n"
    assert run("replay", write(tmp_path, text)).returncode == 0
    alone = run("replay", write(tmp_path, "# game: ico\n# option: antipodal=yes\n"))
    assert alone.returncode == 2
    assert alone.stderr.startswith("line 2: '# option: antipodal=yes'")
