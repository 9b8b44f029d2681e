"""A round's pairing post in the tournament's thread: each game's number a link a player can
click to reach the game (its thread), and every message within Discord's 2000 characters
however large the round (issue 50, finding 15)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from support import take
from test_tournament_service import GUILD, PEOPLE, compute, created

from bot.outbox import decode
from bot.service import Player
from bot.service.tournaments import MESSAGE_LIMIT, link_games
from bot.store import OutboxRow
from bot.words.i18n import LANGUAGES, Texts, phrase_from_json

# the longest a link can be: Discord's ids have at most 20 digits
LONGEST_LINK = "https://discord.com/channels/" + "9" * 20 + "/" + "9" * 20


def test_link_games_links_each_games_number_and_nothing_else():
    text = "Tournament #3, round 2 (ends soon):\n#8: <@1> – <@2>\n#9: <@3> – <@4>\n<@5>: a bye"
    linked = link_games(text, {8: "https://discord.com/channels/1/80"})
    assert linked.splitlines() == [
        "Tournament #3, round 2 (ends soon):",
        "[#8](<https://discord.com/channels/1/80>): <@1> – <@2>",
        "#9: <@3> – <@4>",  # no thread yet: left as it was
        "<@5>: a bye"]


async def placed_and_posts(service, store) -> tuple[list[int], list[dict]]:
    """What the delivery worker does with a round's rows (as `place_all`), keeping its posts:
    the matches started and the tournament posts written."""
    placed, posts = [], []
    while True:
        rows = await take(store)
        posts += [r for r in rows if r["kind"] == "tour"]
        rows = [r for r in rows if r["kind"] in ("tourpair", "tourmatch")]
        if not rows:
            return placed, posts
        for row in rows:
            if row["kind"] == "tourpair":
                await service.tournaments.pair_job(row["tournament_id"], row["number"],
                                                   compute)
            else:
                assert await service.tournaments.place(row["match_id"], 10_000 + row["match_id"])
                placed.append(row["match_id"])


async def start(service, store, players: int, **kw) -> int:
    t = await created(service, **kw)
    people = PEOPLE + [Player(2_000_000_000_000_000_000 + i, f"Q{i}") for i in range(players)]
    for p in people[:players]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    return t.id


@pytest.mark.parametrize("fmt,players", [("swiss", 32), ("round_robin", 16), ("swiss", 6)])
async def test_every_game_is_in_a_post_within_discords_limit_linked_at_its_longest(
        service, store, fmt, players):
    """A Swiss of 32 (16 games) and a round robin of 16 (120 games paired at once) go out in
    as many posts as the limit asks: every game in exactly one, each post within 2000
    characters in every language with every game linked at the longest a link can be (the
    round robin's one post was cut at 2000 characters, most of its games lost); the first
    post has the heading and pings its players, each further one pings its own."""
    tid = await start(service, store, players, format=fmt,
                      rounds=5 if fmt == "swiss" else None)
    placed, posts = await placed_and_posts(service, store)
    posts = [p for p in posts if p.get("games") or "{pairings}" in json.dumps(p["text"])]
    assert posts, "no pairing post"
    games = [m for p in posts for m in p["games"]]
    assert sorted(games) == sorted(placed) and len(placed) == (
        players // 2 if fmt == "swiss" else players * (players - 1) // 2)
    if players > 6:
        assert len(posts) > 1
    for index, post in enumerate(posts):
        text = phrase_from_json(post["text"])
        for language in LANGUAGES:
            rendered = Texts(language)(text)
            linked = link_games(rendered, dict.fromkeys(post["games"], LONGEST_LINK))
            assert len(linked) <= MESSAGE_LIMIT, (language, len(linked))
            assert all(f"[#{m}](<{LONGEST_LINK}>): <@" in linked for m in post["games"])
            # the heading, once: the further posts are the games' lines alone
            assert (not rendered.startswith("#")) == (index == 0), rendered[:80]
            assert (f"Tournament #{tid}" in rendered) == (index == 0) or language != "en"
        assert post["mention"] and set(post["mention"]) <= {
            s for p in posts for s in p["mention"]}
    assert (posts[0]["picture"] is None) and all(p["picture"] is None for p in posts[1:])


async def test_the_post_links_each_game_to_its_thread_once_the_threads_are_made(
        service, store, monkeypatch):
    """Delivered before its games' threads are made, the post waits for them (a retry);
    once they are, each game's number is a jump link to its thread; after a few tries it
    goes without the links still missing rather than not at all."""
    from bot.delivery import THREAD_WAITS, Delivery
    from bot.outbox_worker import Retry

    await start(service, store, 4, format="round_robin", rounds=None)
    rows = await store.conn.fetch("SELECT * FROM outbox WHERE kind = 'tour' ORDER BY id")
    row = next(r for r in rows if json.loads(r["payload"]).get("games"))
    sent: list[dict] = []

    async def send(row, channel_id, **kwargs):
        sent.append(kwargs)
        return SimpleNamespace(id=4242)

    delivery = Delivery(SimpleNamespace(), store, service, None, answers=None,
                        api_base="http://unused", on_dm_closed=lambda user: None)
    monkeypatch.setattr(delivery, "_send", send)

    def as_row(attempts: int) -> OutboxRow:
        return OutboxRow(row["id"], row["lane"], row["kind"], json.loads(row["payload"]),
                         attempts, row["created_at"])

    post = decode(row["kind"], json.loads(row["payload"]))
    with pytest.raises(Retry):
        await delivery.deliver(as_row(0), post)
    assert not sent
    first, *others = post.games
    assert await service.tournaments.place(first, 70_001)
    result = await delivery.deliver(as_row(THREAD_WAITS), post)  # waited enough: goes out
    assert result == {"message_id": 4242}
    content = sent[-1]["content"]
    assert f"[#{first}](<https://discord.com/channels/{GUILD}/70001>): <@" in content
    assert all(f"\n#{m}: <@" in content for m in others)
    for number, match_id in enumerate(others, 2):
        assert await service.tournaments.place(match_id, 70_000 + number)
    await delivery.deliver(as_row(0), post)
    content = sent[-1]["content"]
    assert all(f"[#{m}](<https://discord.com/channels/{GUILD}/" in content for m in post.games)
