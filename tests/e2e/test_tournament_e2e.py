"""Tournaments through the real bot: created with /tournament create (a sign-up thread with
Join / Leave), started, its rounds pairing themselves as matches end (resignations), a
withdrawal, a round deadline that decides a running match on time, a restart in the middle,
the final standings with the winner pinged once, standings pictures and the TRF export."""

from __future__ import annotations

import re

from discord_fake import RoleRef, UserRef
from discord_fake.model import MANAGE_GUILD
from e2e_helpers import decode_png, is_ephemeral, says
from test_tournaments_trf import read_trf

DAY = 86400
# a game's line: its number (a link to its thread once the thread is made), its two players
PAIRING = re.compile(r"\[?#(\d+)(?:\]\(<https://discord\.com/channels/\d+/\d+>\))?: "
                     r"<@(\d+)> – <@(\d+)>")


async def create(fake, mod: int, **options) -> tuple[int, int]:
    """/tournament create by a server manager: (tournament id, its thread)."""
    record = await fake.answered(await fake.slash(mod, "tournament", subcommand="create",
                                                  manager=True, **options), timeout=15)
    found = await fake.wait_for(lambda: re.search(
        r"Tournament #(\d+) is open for sign-up in <#(\d+)>", says(record.original) or ""),
        what="the answer to /tournament create")
    return int(found[1]), int(found[2])


async def signup_message(fake, thread: int) -> dict:
    return await fake.wait_for(lambda: next(
        (m for m in fake.channel_messages(thread)
         if any(c.startswith("c1:T:j:") for c in fake.custom_ids(m))), None),
        what="the sign-up message")


async def join_all(fake, thread: int, users: list[int], total: int | None = None) -> None:
    message = await signup_message(fake, thread)
    join = next(c for c in fake.custom_ids(message) if c.startswith("c1:T:j:"))
    for user in users:
        record = await fake.answered(await fake.click(user, message, join))
        assert "You are signed up" in says(record.original), record.original
    await fake.wait_for(lambda: f"Players ({total or len(users)})" in fake.messages[int(message["id"])]
                        ["content"], what="the sign-up list with everyone")


async def announcements(fake, thread: int, text: str, count: int, timeout: float = 20) -> list:
    return await fake.wait_for(
        lambda: (found := [m for m in fake.channel_messages(thread) if text in says(m)])
        and len(found) >= count and found, what=f"{count} x {text!r}", timeout=timeout)


def pairings(message: dict) -> list[tuple[int, int, int]]:
    return [(int(m), int(a), int(b)) for m, a, b in PAIRING.findall(says(message))]


async def match_thread(fake, match_id: int) -> int:
    """The thread the bot made for a match: where its first board says it began."""
    def find():
        for channel_id in list(fake.channels):
            for m in fake.channel_messages(channel_id):
                if f"Match #{match_id} of" in says(m) and m["attachments"]:
                    return channel_id
        return None
    return await fake.wait_for(find, what=f"the thread of match #{match_id}", timeout=20)


async def resign(fake, user: int, thread: int) -> None:
    confirm = await fake.answered(await fake.slash(user, "resign", channel_id=thread))
    ids = [c for c in fake.custom_ids(confirm.original) if c.startswith("c1:r:")]
    assert ids, confirm.original
    await fake.answered(await fake.click(user, confirm.original, ids[0]))
    await fake.wait_for(lambda: any("resigned" in says(m)
                                    for m in fake.channel_messages(thread)),
                        what="the final board after a resignation")


async def play_round(fake, games: list[tuple[int, int, int]], skip: set[int] = frozenset()):
    """Each game ends: its second seat resigns (the first seat wins)."""
    for match_id, _first, second in games:
        if match_id in skip:
            continue
        await resign(fake, second, await match_thread(fake, match_id))


async def test_a_swiss_of_seven_over_four_rounds_and_a_round_robin_of_four(fake, bot):
    mod = fake.add_user("Mod")
    people = [fake.add_user(f"Player{i}") for i in range(7)]
    tid, thread = await create(fake, mod, game="progressive-mancala", format="swiss", rounds=4,
                               time="1d", round_time="2d", signup="1d", title="Autumn Swiss")
    stranger = await fake.answered(await fake.slash(people[0], "tournament",
                                                    subcommand="create", game="ghostone",
                                                    format="pods", rounds=2))
    assert "Only server managers" in says(stranger.original)
    bad = await fake.answered(await fake.slash(mod, "tournament", subcommand="create",
                                               manager=True, game="ghostone", format="swiss",
                                               rounds=3))
    assert "two-player games" in says(bad.original)
    await join_all(fake, thread, people)
    twice = await fake.answered(await fake.slash(people[0], "tournament", subcommand="join",
                                                 channel_id=thread))
    assert "already signed up" in says(twice.original)
    early = await fake.answered(await fake.slash(people[1], "tournament", subcommand="start",
                                                 channel_id=thread))
    assert "Only the organiser" in says(early.original)
    start = await fake.answered(await fake.slash(mod, "tournament", subcommand="start",
                                                 channel_id=thread, manager=True))
    assert "starts" in says(start.original)

    # round 1: everyone resigns as the second seat
    first = (await announcements(fake, thread, f"Tournament #{tid}, round 1", 1))[0]
    games = pairings(first)
    # each game's number a link a player can click to reach the game: its thread
    for match_id, *_ in games:
        game_thread = await match_thread(fake, match_id)
        assert f"[#{match_id}](<https://discord.com/channels/" in says(first)
        assert f"/{game_thread}>): " in says(first)
    assert len(games) == 3 and ": a bye" in says(first)
    assert fake.pinged(first) == set(people)  # each player mentioned once
    match_id, white, _ = games[0]
    await match_thread(fake, match_id)
    mine = await fake.answered(await fake.slash(white, "matches"))
    assert f"#{match_id}" in says(mine.original)  # an ordinary match, listed in /matches
    await play_round(fake, games)

    # round 2: a player withdraws while their game runs
    second = (await announcements(fake, thread, f"Tournament #{tid}, round 2", 1))[-1]
    games = pairings(second)
    assert second["attachments"], "the standings picture after round 1"
    quitter_game = games[0]
    quitter = quitter_game[2]
    withdrawn = await fake.answered(await fake.slash(quitter, "tournament",
                                                     subcommand="withdraw", channel_id=thread))
    assert "You have withdrawn" in says(withdrawn.original)
    await posted_in(fake, await match_thread(fake, quitter_game[0]), "withdrew")
    rest = [g for g in games if g[0] != quitter_game[0]]
    await play_round(fake, rest[:-1])
    # the round's last game ends, and the bot dies at once (SIGKILL): the pairing of round 3
    # was committed with the result, and its announcement goes out once after the restart
    last_id, _, last_loser = rest[-1]
    confirm = await fake.answered(await fake.slash(last_loser, "resign",
                                                   channel_id=await match_thread(fake, last_id)))
    await fake.answered(await fake.click(last_loser, confirm.original,
                                         fake.custom_ids(confirm.original)[0]))
    await bot.kill()
    await bot.start()

    # round 3: one game still running when the round's time is up, across a restart
    third = (await announcements(fake, thread, f"Tournament #{tid}, round 3", 1))[-1]
    games = pairings(third)
    assert quitter not in {p for g in games for p in g[1:]}  # paired no more
    assert len(games) == 3 and ": a bye" not in says(third)  # six left: three games
    await play_round(fake, games[1:])
    late = await match_thread(fake, games[0][0])
    bot.advance(2 * DAY + 60)
    await posted_in(fake, late, "lost on time")

    # round 4, then the end
    fourth = (await announcements(fake, thread, f"Tournament #{tid}, round 4", 1))[-1]
    await play_round(fake, pairings(fourth))
    final = (await announcements(fake, thread, "is over. Winner:", 1))[0]
    winners = {int(u) for u in re.findall(r"Winner: ((?:<@\d+>(?: & )?)+)", says(final))[0]
               .replace("<@", " ").replace(">", " ").replace("&", " ").split()}
    assert fake.pinged(final) == winners and len(winners) >= 1
    await fake.settle(0.5)
    for number in (1, 2, 3, 4):  # each round announced once, even across the restart
        assert len([m for m in fake.channel_messages(thread)
                    if f"Tournament #{tid}, round {number} " in says(m)]) == 1
    assert len([m for m in fake.channel_messages(thread) if "is over" in says(m)]) == 1
    picture = decode_png(fake.attachment_bytes(final)[0])
    assert picture.width == 720

    table = await fake.answered(await fake.slash(people[2], "tournament",
                                                 subcommand="standings", channel_id=thread))
    assert is_ephemeral(table.original) and "finished" in says(table.original)
    export = await fake.answered(await fake.slash(people[2], "tournament", subcommand="export",
                                                  tournament=tid))
    names = [a["filename"] for a in export.original["attachments"]]
    assert names == [f"tournament-{tid}.trf", f"tournament-{tid}.json"]
    trf = fake.attachment_bytes(export.original)[0].decode()
    by_start = read_trf(trf, 4)  # the check written from the TRF specification
    assert len(by_start) == 7 and "012 Autumn Swiss" in trf
    quitter_row = next(p for p in by_start.values()
                       if p["name"] == f"Player{people.index(quitter)}")
    assert [b[2] for b in quitter_row["blocks"][2:]] == ["Z", "Z"]  # paired no more
    assert sum(b[2] == "U" for p in by_start.values() for b in p["blocks"]) == 2  # rounds 1-2

    # a round robin of four: every game at once
    rr_players = people[:4]
    rid, rthread = await create(fake, mod, game="progressive-mancala", format="round_robin",
                                signup="1h", round_time="1d")
    await join_all(fake, rthread, rr_players[:2])
    few = await fake.answered(await fake.slash(mod, "tournament", subcommand="start",
                                               channel_id=rthread, manager=True))
    assert "needs at least 3 players" in says(few.original)
    await join_all(fake, rthread, rr_players[2:], total=4)
    bot.advance(3700)  # the sign-up window closes: the clock starts it
    everything = (await announcements(fake, rthread, "every game is paired at once", 1))[0]
    games = pairings(everything)
    assert len(games) == 6
    assert {frozenset(g[1:]) for g in games} == {frozenset((a, b)) for a in rr_players
                                                 for b in rr_players if a < b}
    late_join = await fake.answered(await fake.slash(people[5], "tournament",
                                                     subcommand="join", tournament=rid))
    assert "takes no late entries" in says(late_join.original)
    await play_round(fake, games)
    done = (await announcements(fake, rthread, "is over. Winner:", 1))[0]
    assert len(fake.pinged(done)) >= 1
    # the first tournament's thread heard nothing of the second
    assert not [m for m in fake.channel_messages(thread)
                if f"Tournament #{rid}" in says(m)]


async def posted_in(fake, channel_id: int, text: str) -> dict:
    return await fake.wait_for(lambda: next((m for m in fake.channel_messages(channel_id)
                                             if text in says(m)), None),
                               what=repr(text), timeout=20)


def tables(message: dict) -> list[tuple[int, list[int]]]:
    """Each game of an announcement: (match id, its players in seat order)."""
    out = []
    for line in says(message).splitlines():
        found = re.match(r"\[?#(\d+)(?:\]\(<[^>]+>\))?: (.*)$", line)
        if found:
            out.append((int(found[1]), [int(u) for u in re.findall(r"<@(\d+)>", found[2])]))
    return out


async def test_a_knockout_of_six_and_ghostone_pods_of_seven(fake, bot):
    mod = fake.add_user("Mod")
    people = [fake.add_user(f"Entrant{i}") for i in range(7)]
    kid, kthread = await create(fake, mod, game="progressive-mancala", format="knockout",
                                draw_break="minimatch", title="Cup")
    await join_all(fake, kthread, people[:6])
    await fake.answered(await fake.slash(mod, "tournament", subcommand="start",
                                         channel_id=kthread, manager=True))
    first = (await announcements(fake, kthread, f"Tournament #{kid}, round 1", 1))[0]
    games = pairings(first)
    assert len(games) == 2 and says(first).count(": a bye") == 2  # byes to seeds 1 and 2
    assert first["attachments"], "the bracket"
    await play_round(fake, games)
    second = (await announcements(fake, kthread, f"Tournament #{kid}, round 2", 1))[0]
    games = pairings(second)
    assert len(games) == 2
    await play_round(fake, games)
    final_round = (await announcements(fake, kthread, f"Tournament #{kid}, round 3", 1))[0]
    (final_game,) = pairings(final_round)
    await play_round(fake, [final_game])
    over = (await announcements(fake, kthread, "is over. Winner:", 1))[0]
    assert fake.pinged(over) == {final_game[1]}  # the first seat won the final
    bracket = decode_png(fake.attachment_bytes(over)[0])
    assert bracket.width == 720 and bracket.height > 400
    export = await fake.answered(await fake.slash(mod, "tournament", subcommand="export",
                                                  channel_id=kthread))
    assert len(export.original["attachments"]) == 2  # TRF and JSON

    # pods of Ghostone: seven players at a table of four and one of three, two rounds
    pid, pthread = await create(fake, mod, game="ghostone", format="pods", rounds=2,
                                title="Ghost night")
    await join_all(fake, pthread, people)
    await fake.answered(await fake.slash(mod, "tournament", subcommand="start",
                                         channel_id=pthread, manager=True))
    first = (await announcements(fake, pthread, f"Tournament #{pid}, round 1", 1))[0]
    seated = tables(first)
    assert sorted(len(p) for _, p in seated) == [3, 4]
    removed = seated[0][1][-1]
    not_organiser = await fake.answered(await fake.slash(
        people[0], "tournament", subcommand="remove", channel_id=pthread,
        member=UserRef(removed)))
    assert "Only the organiser" in says(not_organiser.original)
    out = await fake.answered(await fake.slash(mod, "tournament", subcommand="remove",
                                               channel_id=pthread, manager=True,
                                               member=UserRef(removed)))
    assert "is removed" in says(out.original)
    await posted_in(fake, await match_thread(fake, seated[0][0]), "withdrew")
    for match_id, players in seated[1:]:
        await resign(fake, players[-1], await match_thread(fake, match_id))
    second = (await announcements(fake, pthread, f"Tournament #{pid}, round 2", 1))[0]
    seated = tables(second)
    assert removed not in {u for _, p in seated for u in p}
    assert sorted(len(p) for _, p in seated) == [3, 3]
    assert second["attachments"], "the standings after round 1"
    for match_id, players in seated:
        await resign(fake, players[0], await match_thread(fake, match_id))
    over = (await announcements(fake, pthread, "is over. Winner:", 1))[0]
    assert fake.pinged(over) and removed not in fake.pinged(over)
    export = await fake.answered(await fake.slash(mod, "tournament", subcommand="export",
                                                  channel_id=pthread))
    assert [a["filename"] for a in export.original["attachments"]] == [
        f"tournament-{pid}.json"]  # no TRF for pods


async def test_an_organiser_role_lets_its_members_create_tournaments(fake, bot):
    """Roles as Discord sends them: an admin by a role with Manage Server names an organiser
    role; its members may create tournaments, others may not; a forged role changes nothing."""
    admins = await fake.add_role("Admins", permissions=MANAGE_GUILD)
    organisers = await fake.add_role("Organisers")
    admin, alice, bob = (fake.add_user(n) for n in ("Admin", "Alice", "Bob"))
    fake.give_role(admin, admins)
    fake.give_role(alice, organisers)

    async def create_as(user: int) -> str:
        record = await fake.answered(await fake.slash(
            user, "tournament", subcommand="create", game="progressive-mancala",
            format="swiss", rounds=2), timeout=15)
        return await fake.wait_for(lambda: says(record.original),
                                   what="the answer to /tournament create")

    async def settings(user: int, **options) -> str:
        record = await fake.answered(await fake.slash(user, "corral", subcommand="settings",
                                                      **options))
        return says(record.original)

    assert "Only server managers" in await create_as(alice)  # no organiser role named yet
    assert "Only server managers" in await settings(alice, organisers=RoleRef(organisers))
    shown = await settings(admin, organisers=RoleRef(organisers))
    assert f"Tournament organisers: server managers and <@&{organisers}>." in shown
    assert re.search(r"Tournament #\d+ is open for sign-up", await create_as(alice))
    assert "Only server managers" in await create_as(bob)

    # forged: another server's role, and an id that is nobody's role
    other = fake.add_guild("Elsewhere")
    theirs = await fake.add_role("Organisers", guild_id=other.guild_id)
    for forged in (RoleRef(theirs, forged=True), RoleRef(fake.new_id(), forged=True)):
        refused = await settings(admin, organisers=forged, threads=False)
        assert refused == "That role is not one of this server's roles; nothing was changed."
    now = await settings(admin)
    assert f"server managers and <@&{organisers}>." in now
    assert shown == now  # the forged settings changed nothing, threads included
    assert re.search(r"Tournament #\d+ is open for sign-up", await create_as(alice))
