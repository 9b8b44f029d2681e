"""Ratings: OpenSkill's numbers, who counts, the final board's line, and a recompute from the
log that gives the stored numbers back."""

import random

import pytest
from openskill.models import PlackettLuce
from support import ALICE, BOB, CAROL, take

from bot import ratings
from bot import service as svc
from bot.ratings import Skill
from bot.service import Player
from games import Outcome, Termination

DAN = Player(404, "Dan")
GAME2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]  # Bob wins


def direct(ratings_before, ranks):
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings_before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


@pytest.mark.parametrize("before, places", [
    ([(25.0, 25 / 3), (25.0, 25 / 3)], [1, 2]),
    ([(25.0, 25 / 3), (25.0, 25 / 3)], [1, 1]),  # a draw
    ([(31.2, 4.1), (22.0, 6.5), (25.0, 25 / 3)], [2, 1, 3]),
    ([(25.0, 25 / 3)] * 4, [1, 2, 2, 4]),
    ([(28.0, 5.0), (24.0, 7.0), (20.0, 3.0), (26.0, 8.0)], [3, 1, 4, 2]),
])
def test_rate_gives_openskills_own_numbers(before, places):
    got = ratings.rate([Skill(mu, sigma) for mu, sigma in before], places)
    flat = [x for s in got for x in (s.mu, s.sigma)]
    assert flat == pytest.approx([x for pair in direct(before, places) for x in pair])


def test_places_from_outcomes_and_scores():
    won = Outcome((1,), Termination.RULES)
    assert ratings.places(won, 2) == [2, 1]
    assert ratings.places(Outcome((0, 1), Termination.RULES, draw=True), 2) == [1, 1]
    # a game's own ending ranks the others by score; resignations and timeouts do not
    assert ratings.places(Outcome((2,), Termination.RULES), 4, (3, 7, 9, 3)) == [3, 2, 1, 3]
    assert ratings.places(Outcome((0, 2), Termination.RESIGNATION), 3, (1, 9, 2)) == [1, 2, 1]


def test_display_and_provisional():
    fresh = Skill.new()
    assert fresh.display == 1500 and fresh.provisional and fresh.text() == "1500?"
    assert Skill(27.0, 3.0).text() == "1620"


@pytest.mark.parametrize("rated, ids, reason, plies, counted", [
    (True, (1, 2), Termination.RULES, 30, True),
    (False, (1, 2), Termination.RULES, 30, False),  # opened unrated
    (True, (1, -12), Termination.RULES, 30, False),  # an AI seat
    (True, (1, 2), Termination.RESIGNATION, 1, False),  # resigned in the first two moves
    (True, (1, 2), Termination.TIMEOUT, 0, False),
    (True, (1, 2), Termination.RESIGNATION, 2, True),
    (True, (1, 2), Termination.AGREEMENT, 1, False),  # a draw agreed before playing
    (True, (1, 2), Termination.AGREEMENT, 2, True),
])
def test_which_matches_count(rated, ids, reason, plies, counted):
    outcome = Outcome((0,), reason)
    assert ratings.counts(rated=rated, user_ids=ids, outcome=outcome, plies=plies) is counted


async def finish_game2(service, host=ALICE, guest=BOB, channel=500, **kw):
    match = await service.open_match(game_id="progressive-mancala", options={}, host=host,
                                     opponent=guest, guild_id=kw.pop("guild_id", 1),
                                     channel_id=channel, first="me", **kw)
    match = await service.accept(match.id, guest.user_id)
    for notation in GAME2:  # as a click plays it: on the match it read (the last move,
        # which rates the players, is worked out under the write lock)
        match = (await service.play(match.id, match.to_move().user_id, notation,
                                    seen=match)).match
    assert match.status == "finished"
    return match


async def test_a_rated_match_changes_ratings_once_and_the_final_board_says_so(service, store):
    match = await finish_game2(service)
    assert match.row.rated  # a challenge between two humans is rated by default
    skills = await store.skills([ALICE.user_id, BOB.user_id], "progressive-mancala")
    expected = direct([(25.0, 25 / 3)] * 2, [2, 1])
    assert (skills[ALICE.user_id].mu, skills[ALICE.user_id].sigma) == pytest.approx(expected[0])
    assert (skills[BOB.user_id].mu, skills[BOB.user_id].sigma) == pytest.approx(expected[1])
    assert skills[BOB.user_id].games == 1
    [board] = [b for b in await take(store, "board") if b["final"]]
    bob_after = Skill(*expected[1]).text()
    assert [BOB.user_id, "1500?", bob_after, Skill(*expected[1]).display - 1500] in \
        board["ratings"]
    from bot.boards import board_text
    from bot.outbox import decode
    from bot.words.i18n import ENGLISH

    content, _ = board_text(decode("board", board), ENGLISH, current=True)
    assert f"Bob 1500? → {bob_after} (+{Skill(*expected[1]).display - 1500})" in content
    assert f"Alice 1500? → {Skill(*expected[0]).text()} (−" in content
    # the finished match can't finish again: a replayed last move changes nothing
    with pytest.raises(svc.WrongPhase):
        await service.play(match.id, BOB.user_id, "f")
    assert (await store.skills([BOB.user_id], "progressive-mancala"))[BOB.user_id].games == 1


async def test_unrated_matches_leave_ratings_alone(service, store):
    await finish_game2(service, rated=False)
    assert await store.skills([ALICE.user_id, BOB.user_id], "progressive-mancala") == {}
    # a resignation on the first move does not count either
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=501, first="me")
    match = await service.accept(match.id, BOB.user_id)
    await service.play(match.id, ALICE.user_id, "k")
    match = await service.resign(match.id, BOB.user_id)
    assert match.status == "finished" and match.row.rated
    assert await store.skills([ALICE.user_id, BOB.user_id], "progressive-mancala") == {}
    # against the AI: never rated, and asking for it is refused
    with pytest.raises(svc.BadRequest, match="never rated"):
        await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                 opponent=Player(-12, "Corral (easy)"), guild_id=1,
                                 channel_id=502, rated=True)


async def test_lobbies_of_multiplayer_games_are_unrated_unless_asked(service, store):
    lobby = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=600)
    assert not lobby.row.rated
    lobby = await service.open_match(game_id="ghostone", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=601, rated=True)
    assert lobby.row.rated
    lobby = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=None, guild_id=1, channel_id=602)
    assert lobby.row.rated


async def play_randomly(service, match, rng, limit=400):
    game = match.game
    for _ in range(limit):
        if match.status != "active":
            return match
        mover = match.to_move()
        if mover is None:  # a die roll is due: the service rolls on the next move
            match = await service.get(match.id)
            mover = match.to_move()
            if mover is None:
                return match
        notation = rng.choice(game.legal_notations(match.state))
        match = (await service.play(match.id, mover.user_id, notation)).match
    return match


async def test_recomputing_every_rating_from_the_log_gives_the_stored_numbers(service, store,
                                                                             clock):
    rng = random.Random(5)
    players = [ALICE, BOB, CAROL, DAN]
    channel = 700
    for round_ in range(12):
        channel += 1
        game_id = ["progressive-mancala", "pastoral-square", "ico"][round_ % 3]
        host, guest = rng.sample(players, 2)
        match = await service.open_match(game_id=game_id, options={}, host=host, opponent=guest,
                                         guild_id=1 + round_ % 2, channel_id=channel)
        match = await service.accept(match.id, guest.user_id)
        if round_ % 4 == 3:  # some end by resignation, some by agreement
            match = await play_randomly(service, match, rng, limit=3)
            match = await service.resign(match.id, match.seats[0].user_id)
        elif round_ % 5 == 4:
            offer = await service.offer_draw(match.id, host.user_id)
            _, match = await service.answer_offer(offer.id, guest.user_id, True)
        else:
            match = await play_randomly(service, match, rng)
        clock.advance(3600)
        assert match.status == "finished", (game_id, match.status)
    # a three-player ICO lobby, rated on request
    lobby = await service.open_match(game_id="ico", options={}, host=ALICE, opponent=None,
                                     guild_id=1, channel_id=800, rated=True)
    await service.join(lobby.id, BOB)
    await service.join(lobby.id, CAROL)
    match = await service.start(lobby.id, ALICE.user_id)
    match = await play_randomly(service, match, rng, limit=2000)
    assert match.status == "finished"
    stored = {(r.user_id, r.game): (r.mu, r.sigma) for r in await store.all_ratings()}
    recomputed = {key: (s.mu, s.sigma) for key, s in (await service.ratings_from_log()).items()}
    assert stored and stored.keys() == recomputed.keys()
    for key in stored:
        assert stored[key] == pytest.approx(recomputed[key], abs=1e-9)
    history = await store.rating_log()
    assert len({m for m, _, _ in history}) >= 8  # most of the matches counted


async def test_profile_and_leaderboard(service, store, clock):
    for i in range(3):
        await finish_game2(service, channel=900 + i)
        clock.advance(60)
    profile = await service.profile(BOB.user_id)
    [record] = profile.games
    assert (record.played, record.won, record.drawn, record.lost) == (3, 3, 0, 0)
    assert record.average_plies == len(GAME2)
    assert profile.streak == ("win", 3)
    assert [r.result for r in profile.last] == ["win"] * 3
    assert profile.last[0].opponents == ("Alice",)
    assert profile.trend_game == "progressive-mancala" and len(profile.trend) == 3
    assert profile.trend[0][1] < profile.trend[-1][1]  # Bob's rating rose
    service.leaderboard_min_games = 3
    board = await service.leaderboard("progressive-mancala", ALICE.user_id, guild_id=1)
    assert [r.name for r in board.rows] == ["Bob", "Alice"]
    assert board.own_rank == 2
    assert (await service.leaderboard("progressive-mancala", ALICE.user_id,
                                      guild_id=2)).rows == []
    service.leaderboard_min_games = 4
    board = await service.leaderboard("progressive-mancala", ALICE.user_id)
    assert board.rows == [] and board.own_rank is None and board.own.games == 3
    # inactive for 90 days: off the board
    service.leaderboard_min_games = 1
    clock.advance(91 * 86400)
    assert (await service.leaderboard("progressive-mancala", ALICE.user_id)).rows == []

