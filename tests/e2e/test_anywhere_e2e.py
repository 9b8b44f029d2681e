"""Corral where it is not a member: two friends in their DM, three in a group DM, a player in a
server that did not add Corral. Discord lets a user-installed app only answer interactions
there (a response within 3 s, follow-ups and edits while the token lives, five follow-ups an
interaction); the imitation refuses every channel request there (50001 Missing Access), and
refuses a DM to a user who neither installed the app nor shares a server with it (50278)."""

from __future__ import annotations

import random
import re

import pytest
from discord_fake import UserRef
from e2e_helpers import (
    alt_texts,
    board_buttons,
    boards,
    components,
    enter_move,
    is_ephemeral,
    labels,
    mover,
    next_board,
    says,
)
from test_endings_e2e import WHOLE_GAME
from test_ghostone_e2e import logged_state

from bot.words.descriptions import alt_text
from bot.words.i18n import Texts
from games import get_game
from render import render_observation

MANCALA = get_game("progressive-mancala")
GHOSTONE = get_game("ghostone")
TOKEN_LIFE = 15 * 60
# Discord takes 30 follow-ups a minute in a channel: a match played at a test's pace waits
# for the next minute now and then (the bot keeps the board until then)
PATIENCE = 75.0


def channel_requests(fake, channel_id: int) -> list:
    """Requests the bot sent to a channel's own routes (never allowed where it is no
    member)."""
    return [r for r in fake.requests if r.path.startswith(f"/channels/{channel_id}")]


def follow_ups_per_interaction(fake) -> dict[str, int]:
    counts: dict[str, int] = {}
    for request in fake.requests:
        match = re.fullmatch(r"/webhooks/\d+/([^/]+)", request.path)
        if request.method == "POST" and match and request.status < 300:
            counts[match.group(1)] = counts.get(match.group(1), 0) + 1
    return counts


async def invite(fake, host: int, guest: int, channel_id: int, **options) -> dict:
    before = {m["id"] for m in fake.channel_messages(channel_id)}
    opened = await fake.answered(await fake.slash(host, "play", channel_id=channel_id,
                                                  opponent=UserRef(guest), **options))
    assert opened.original is not None and is_ephemeral(opened.original), opened.callbacks
    return await fake.wait_for(lambda: next((
        m for m in fake.channel_messages(channel_id)
        if m["id"] not in before and any(":accept:" in c for c in fake.custom_ids(m))), None),
        what="the invitation")


async def accepted(fake, host: int, guest: int, channel_id: int, **options) -> dict:
    """`/play` with an opponent there, Accept: the first board."""
    invitation = await invite(fake, host, guest, channel_id, **options)
    before = len(boards(fake, channel_id))
    await fake.answered(await fake.click(guest, invitation, next(
        c for c in fake.custom_ids(invitation) if ":accept:" in c)))
    return await next_board(fake, before, channel_id, "the first board", timeout=PATIENCE)


async def test_two_friends_play_a_whole_mancala_match_in_their_dm(fake, bot):
    """Neither shares a server with Corral: both installed it to their accounts. Bob is away
    for longer than a token lives; his reminder comes by DM, and his next click goes on."""
    alice = fake.add_user("Alice", installed=True, in_server=False)
    bob = fake.add_user("Bob", installed=True, in_server=False)
    dm = fake.add_dm(alice, bob)
    invitation = await invite(fake, alice, bob, dm, game=MANCALA.id, first="me", time="1h")
    before = len(boards(fake, dm))
    accepted = await fake.answered(await fake.click(bob, invitation, next(
        c for c in fake.custom_ids(invitation) if ":accept:" in c)))
    assert accepted.kind == 7
    board = await next_board(fake, before, dm, "the first board", timeout=PATIENCE)
    # a seed whose match ends within Discord's 30 follow-ups a minute in a channel (at a
    # test's pace, a longer match waits for the next minute now and then)
    state, rng, away = MANCALA.new(2), random.Random(15), False
    sent, moves = len(fake.requests), 0
    while MANCALA.outcome(state) is None:
        user = mover(board, [alice, bob])
        assert user == (alice, bob)[state.to_move], says(board)
        if user == bob and not away:  # Bob is away: the token of Alice's click dies
            away = True
            fake.advance(TOKEN_LIFE + 60)
            bot.advance(31 * 60)
            reminder = await fake.wait_for(lambda: [m for m in fake.dm_messages(bob)
                                                    if "runs out <t:" in says(m)],
                                           what="Bob's reminder by DM")
            assert "Half your time is gone" in says(reminder[0])
        notation = rng.choice(MANCALA.legal_notations(state))
        count = len(boards(fake, dm))
        clicked = await fake.answered(await fake.click(user, board,
                                                       board_buttons(fake, board)[notation]))
        assert clicked.kind == 7, clicked.callbacks
        board = await next_board(fake, count, dm, f"the board after {notation}",
                                 timeout=PATIENCE)
        state = MANCALA.play(state, notation)
        moves += 1
    assert away
    assert "Rematch" in labels(board), says(board)
    # a move costs its click's answer and one follow-up (the reminder's DM aside: two
    # requests, the DM and its channel, the first time)
    requests = fake.requests[sent:]
    assert len(requests) <= 2 * moves + 2, [(r.method, r.path) for r in requests]
    # a rematch is played where the match was: its invitation follows up the click
    shown = len(fake.channel_messages(dm))
    rematch = next(c["custom_id"] for c in components(board, 2) if c.get("label") == "Rematch")
    await fake.answered(await fake.click(bob, board, rematch))
    await fake.wait_for(lambda: any(":accept:" in c for m in fake.channel_messages(dm)[shown:]
                                    for c in fake.custom_ids(m)), what="the rematch's invitation")
    assert not channel_requests(fake, dm)  # everything went through interactions
    assert max(follow_ups_per_interaction(fake).values()) <= 5


async def test_the_board_goes_by_dm_when_no_interaction_can_carry_it(fake, bot):
    """A timeout comes from the clock, long after the last click: the notice cannot reach the
    DM between the players, so it reaches each of them in their own DM with Corral, with its
    Claim button, which works there."""
    alice = fake.add_user("Alice", installed=True, in_server=False)
    bob = fake.add_user("Bob", installed=True, in_server=False)
    dm = fake.add_dm(alice, bob)
    board = await accepted(fake, alice, bob, dm, game=MANCALA.id, first="me", time="1h")
    fake.advance(TOKEN_LIFE + 60)
    bot.advance(61 * 60)
    expiry = await fake.wait_for(lambda: [m for m in fake.dm_messages(bob)
                                          if "time is up" in says(m)],
                                 what="the expiry notice in Bob's DM")
    claim = next(c for c in fake.custom_ids(expiry[0]) if c.startswith("c1:"))
    done = await fake.answered(await fake.click(bob, expiry[0], claim))
    assert done.kind == 7, done.callbacks
    final = await fake.wait_for(lambda: [m for m in fake.dm_messages(alice)
                                         if "claimed the win" in says(m)],
                                what="the result in Alice's DM")
    assert "Match #" in says(final[0])
    assert not channel_requests(fake, dm)
    # the stale board in the players' DM is brought up to date by the next click there
    count = len(boards(fake, dm))
    late = await fake.answered(await fake.click(alice, board, next(iter(
        board_buttons(fake, board).values()))))
    assert is_ephemeral(late.original) and "out of date" in says(late.original)
    current = await next_board(fake, count, dm, "the board brought up to date",
                               timeout=PATIENCE)
    assert "claimed the win" in says(current)


async def test_a_player_nobody_can_dm_is_told_at_their_next_interaction(fake, bot):
    """Bob has not installed Corral and shares no server with it: a DM to him is refused
    (50278). What he missed is told to him alone at his next interaction."""
    alice = fake.add_user("Alice", installed=True, in_server=False)
    bob = fake.add_user("Bob", in_server=False)
    dm = fake.add_dm(alice, bob)
    board = await accepted(fake, alice, bob, dm, game=MANCALA.id, first="opponent", time="1h")
    assert mover(board, [alice, bob]) == bob
    fake.advance(TOKEN_LIFE + 60)
    bot.advance(31 * 60)  # his reminder cannot reach him
    await fake.wait_for(lambda: any(r.error and r.error.get("code") == 50278
                                    for r in fake.requests), what="the refused DM")
    fake.expect_refusals()
    clicked = await fake.answered(await fake.click(bob, board, next(iter(
        board_buttons(fake, board).values()))))
    await fake.wait_for(lambda: any("While you were away" in says(m)
                                    for m in clicked.messages()), what="what Bob missed")
    assert not channel_requests(fake, dm)


async def test_three_friends_play_ghostone_in_a_group_dm(fake, bot):
    """A lobby in a group DM, opened by the one who installed Corral: the two others join by
    its button (a button needs no install), and the three play a whole match there."""
    users = [fake.add_user(name, installed=(name == "Aki"), in_server=False)
             for name in ("Aki", "Ben", "Cho")]
    group = fake.add_group_dm(*users, name="friends")
    opened = await fake.answered(await fake.slash(users[0], "play", channel_id=group,
                                                  game=GHOSTONE.id, first="me", time="none"))
    assert opened.original is not None
    lobby = await fake.wait_for(lambda: next((
        m for m in fake.channel_messages(group) if "opened a lobby" in says(m)), None),
        what="the lobby")
    ids = {c.split(":")[2]: c for c in fake.custom_ids(lobby)}
    for user in users[1:]:
        await fake.answered(await fake.click(user, fake.messages[int(lobby["id"])],
                                             ids["join"]))
    await fake.answered(await fake.click(users[0], fake.messages[int(lobby["id"])],
                                         ids["start"]))
    board = await next_board(fake, 0, group, "the first board")
    rng, turns = random.Random(7), 0
    while True:
        state = logged_state(bot)
        if GHOSTONE.outcome(state) is not None:
            break
        user = users[GHOSTONE.to_move(state)]
        assert mover(board, users) == user, says(board)
        board = await enter_move(fake, user, board, GHOSTONE, state,
                                 rng.choice(GHOSTONE.legal_notations(state)), group,
                                 PATIENCE)
        turns += 1
        if turns == TURNS:
            break
    assert turns == TURNS or GHOSTONE.outcome(logged_state(bot)) is not None
    assert fake.pinged(board) <= set(users)
    assert not channel_requests(fake, group)
    assert max(follow_ups_per_interaction(fake).values()) <= 5


TURNS = 24  # each a board in the group DM (and its dice rolls): the limit above, not the game


async def test_playing_the_ai_in_a_server_that_did_not_add_corral(fake, bot):
    """The server has not added Corral; its member installed it to their account: every board
    is an answer to their own clicks, and the AI's replies follow them up. What needs Corral
    in the server says so."""
    _, channel = fake.add_guild("Elsewhere", bot_member=False)
    alice = fake.add_user("Alice", installed=True)
    opened = await fake.answered(await fake.slash(alice, "play", channel_id=channel,
                                                  game=MANCALA.id, ai="easy", first="me"))
    assert opened.original is not None

    def alices_turn():
        shown = boards(fake, channel)
        if not shown:
            return None
        newest = fake.messages[int(shown[-1]["id"])]
        return newest if board_buttons(fake, newest) or "Rematch" in labels(newest) else None

    rng, moves = random.Random(1), 0
    while True:
        board = await fake.wait_for(alices_turn, what="Alice's turn",
                                     timeout=PATIENCE)
        if not board_buttons(fake, board):
            break
        count = len(boards(fake, channel))
        clicked = await fake.answered(await fake.click(
            alice, board, rng.choice(sorted(board_buttons(fake, board).values()))))
        assert clicked.kind == 7, clicked.callbacks
        await next_board(fake, count, channel, "the next board", timeout=PATIENCE)
        moves += 1
        assert moves < 200
    assert "Rematch" in labels(board)
    assert not channel_requests(fake, channel)
    assert max(follow_ups_per_interaction(fake).values()) <= 5
    settings = await fake.answered(await fake.slash(alice, "corral", subcommand="settings",
                                                    channel_id=channel))
    assert "needs Corral added to the server" in says(settings.original)


async def test_a_server_that_keeps_apps_private_is_told_so(fake, bot):
    """A server that forbids external apps' public answers: a challenge there would reach
    nobody but its author, so it is refused with the way out; the AI is still playable."""
    _, channel = fake.add_guild("Strict", bot_member=False, external_apps=False)
    alice, bob = fake.add_user("Alice", installed=True), fake.add_user("Bob")
    refused = await fake.answered(await fake.slash(alice, "play", channel_id=channel,
                                                   game=MANCALA.id, opponent=UserRef(bob)))
    assert "answer only privately" in says(refused.original)
    opened = await fake.answered(await fake.slash(alice, "play", channel_id=channel,
                                                  game=MANCALA.id, ai="easy", first="me"))
    assert opened.original is not None
    # Discord would show its boards to her alone, and only until she reloads: they come to
    # her DM with Corral, playable there
    board = await fake.wait_for(lambda: next((
        m for m in fake.dm_messages(alice) if board_buttons(fake, m)), None),
        what="the board in her DM")
    count = len(fake.dm_messages(alice))
    await fake.answered(await fake.click(alice, board, next(iter(
        board_buttons(fake, board).values()))))
    await fake.wait_for(lambda: len(fake.dm_messages(alice)) > count, what="the next board")
    assert not channel_requests(fake, channel)


FULL_NOTATION = re.compile(r"[BR][MSD]@")
SYMBOL_WORDS = re.compile(r"\b(moon|sun|dot)s?\b(?! player)", re.IGNORECASE)


async def test_a_consequence_match_in_a_dm_keeps_every_tile_private(fake, bot):
    """Hidden tiles reach each player alone (their own DM with Corral, ephemeral answers);
    the DM the two share sees only what a channel would."""
    consequence = get_game("consequence")
    alice = fake.add_user("Alice", installed=True, in_server=False)
    bob = fake.add_user("Bob", installed=True, in_server=False)
    dm = fake.add_dm(alice, bob)
    board = await accepted(fake, alice, bob, dm, game=consequence.id, first="me")
    for user in (alice, bob):
        await fake.wait_for(lambda u=user: [m for m in fake.dm_messages(u)
                                            if "has started" in says(m)],
                            what="the private view at the start")
    rng, state = random.Random(32), consequence.new()  # a whole match within the minute
    shown = [(board["id"], says(board), fake.attachment_bytes(board)[0], alt_texts(board),
              state)]
    while consequence.outcome(state) is None:
        notation = rng.choice(consequence.legal_notations(state))
        user = (alice, bob)[consequence.to_move(state)]
        assert mover(board, [alice, bob]) == user
        board = await enter_move(fake, user, board, consequence, state, notation, dm,
                                 PATIENCE)
        state = consequence.play(state, notation)
        shown.append((board["id"], says(board), fake.attachment_bytes(board)[0],
                      alt_texts(board), state))
    final = shown[-1][0]
    for message in fake.channel_messages(dm):  # the final count reveals every tile
        if message["id"] == final:
            continue
        assert not FULL_NOTATION.search(says(message)), says(message)
        assert not SYMBOL_WORDS.search(says(message)), says(message)
        for alt in alt_texts(message):
            assert not FULL_NOTATION.search(alt), alt
    for _, _, png, alts, position in shown[:-1]:
        public = render_observation(consequence.id, consequence.observe(position, None),
                                    names=["Alice", "Bob"])
        assert png == public  # exactly the public picture
        assert alts == [alt_text(consequence, consequence.observe(position, None),
                                 Texts("en"), ["Alice", "Bob"])] * 2
    assert not channel_requests(fake, dm)


async def test_a_dm_match_speaks_the_language_of_who_opened_it(fake, bot):
    """A DM has no server language: its messages speak the language of the player who
    opened the match, and what reaches a player's own DM speaks that player's."""
    alice = fake.add_user("Aki", installed=True, in_server=False)
    bob = fake.add_user("Ben", installed=True, in_server=False)
    fake.set_locale(alice, "ja")
    dm = fake.add_dm(alice, bob)
    invitation = await invite(fake, alice, bob, dm, game=MANCALA.id, first="me", time="1h")
    assert "の挑戦が届きました" in says(invitation), says(invitation)
    before = len(boards(fake, dm))
    await fake.answered(await fake.click(bob, invitation, next(
        c for c in fake.custom_ids(invitation) if ":accept:" in c)))
    board = await next_board(fake, before, dm, "the first board", timeout=PATIENCE)
    assert f"<@{alice}>さん、あなたの手番です。" in says(board), says(board)
    fake.advance(TOKEN_LIFE + 60)
    bot.advance(61 * 60)  # her time runs out while nobody is there: Ben's DM, in English
    expiry = await fake.wait_for(lambda: [m for m in fake.dm_messages(bob)
                                          if "time is up" in says(m)], what="the notice by DM")
    assert says(expiry[0]).startswith("Match #"), says(expiry[0])
    claim = next(c for c in fake.custom_ids(expiry[0]) if c.startswith("c1:"))
    await fake.answered(await fake.click(bob, expiry[0], claim))
    final = await fake.wait_for(lambda: [m for m in fake.dm_messages(alice)
                                         if "対局 #" in says(m)], what="Aki's result by DM")
    words = re.sub(r"https?://\S+|<[^>]+>|`[^`]*`|Corral|Aki|Ben", "", says(final[0]))
    assert not re.search(r"[A-Za-z]{4,}", words), says(final[0])  # no English left
    assert not channel_requests(fake, dm)


@pytest.fixture
async def analyst(fake, tmp_path, bot_process):
    process = bot_process(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    process.extra_env["CORRAL_ANALYSIS_LEVEL"] = "normal"  # short: see test_analysis_e2e
    await process.start()
    yield process
    await process.stop()
    log = process.log.read_text()
    assert "Traceback" not in log, log[-4000:]


async def test_an_analysis_asked_in_a_dm_reaches_the_one_who_asked(fake, analyst):
    """An analysis takes minutes; the DM of the players is out of reach by then: it comes to
    the DM of the player who asked, and its progress reply links there."""
    alice = fake.add_user("Alice", installed=True, in_server=False)
    bob = fake.add_user("Bob", installed=True, in_server=False)
    dm = fake.add_dm(alice, bob)
    board = await accepted(fake, alice, bob, dm, game=MANCALA.id, first="me")
    for notation in WHOLE_GAME:
        count = len(boards(fake, dm))
        user = mover(board, [alice, bob])
        await fake.answered(await fake.click(user, board, board_buttons(fake, board)[notation]))
        board = await next_board(fake, count, dm, f"the board after {notation}",
                                 timeout=PATIENCE)
    asked = await fake.answered(await fake.click(bob, board, next(
        c for c in fake.custom_ids(board) if c.startswith("c1:A:"))))
    assert "Analysis of match #" in says(asked.original)
    result = await fake.wait_for(lambda: [m for m in fake.dm_messages(bob) if any(
        a["filename"].endswith("-chart.png") for a in m["attachments"])],
        what="the analysis in Bob's DM", timeout=120)
    assert "Analysis of match #" in says(result[0])
    await fake.wait_for(lambda: "channels/@me/" in says(fake.messages[int(
        asked.original["id"])]), what="the reply's link to it")
    assert not channel_requests(fake, dm)
