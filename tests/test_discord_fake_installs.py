"""The Discord imitation's user installs: DMs between users, group DMs and servers without the
bot (issue 54), driven over HTTP with aiohttp, as in test_discord_fake.py (no bot).

Sources: interactions/receiving-and-responding.mdx (authorizing_integration_owners, contexts,
app_permissions for (G)DMs, 5 follow-ups for user installs), change-log.mdx (User-Installed
Apps GA: USE_EXTERNAL_APPS), topics/opcodes-and-status-codes.mdx (50001, 50007, 50278, 40094),
interactions/application-commands.mdx (integration_types, contexts)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from discord_fake import APP_ID, EPHEMERAL, FakeDiscord, InteractionRecord, spec
from test_discord_fake import Api as FakeApi

Json = dict[str, Any]
GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 0, 1 << 9, 1 << 12
USE_EXTERNAL_APPS = 1 << 50
PRIVATE_PERMISSIONS = (1 << 15) | (1 << 14) | (1 << 17)  # ATTACH_FILES|EMBED_LINKS|MENTION_EVERYONE
BOT_DM_PERMISSIONS = PRIVATE_PERMISSIONS | (1 << 18)  # and USE_EXTERNAL_EMOJIS: 442368

MISSING_ACCESS = (403, {"message": "Missing Access", "code": 50001})
TOO_MANY_FOLLOWUPS = (400, {"message": "This interaction has hit the maximum number of follow "
                                       "up messages", "code": 40094})

# a command for every install and context, one only servers install, one for user installs
# outside (G)DMs
EVERYWHERE = {"name": "play", "description": "Start a match", "integration_types": [0, 1],
              "contexts": [0, 1, 2], "options": [
                  {"type": 3, "name": "game", "description": "Which", "autocomplete": True}]}
SERVERS = {"name": "setup", "description": "Server settings"}  # integration_types: [0]
NO_PRIVATE = {"name": "stats", "description": "Ratings", "integration_types": [0, 1],
              "contexts": [0, 1]}
USER_ONLY = {"name": "mine", "description": "Mine", "integration_types": [1]}

needs_spec = pytest.mark.skipif(not spec.spec_path().is_file() and not spec.required(),
                                reason=spec.status())


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


class Api(FakeApi):
    """Raw REST calls, as the bot's library makes them (tests/test_discord_fake.py's), and
    the few more these tests make."""

    async def edit_original(self, record: InteractionRecord, body: Json) -> tuple[int, Any]:
        return await self.call(
            "PATCH", f"/webhooks/{APP_ID}/{record.token}/messages/@original", body)

    async def register(self, *commands: Json) -> tuple[int, Any]:
        status, body = await super().register(*commands)
        assert status == 200, body
        return status, body


@pytest.fixture
async def api(fake: FakeDiscord) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        yield Api(fake, session)


async def identified(fake: FakeDiscord, session: aiohttp.ClientSession,
                     intents: int = GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES
                     ) -> tuple[aiohttp.ClientWebSocketResponse, Json]:
    """A gateway session, IDENTIFYed; its READY."""
    ws = await session.ws_connect(fake.gateway_url)
    assert (await ws.receive_json(timeout=2))["op"] == 10
    await ws.send_json({"op": 2, "d": {"token": "fake-token", "intents": intents,
                                       "properties": {}}})
    while True:
        event = await ws.receive_json(timeout=2)
        if event.get("t") == "READY":
            return ws, event["d"]


def button(custom_id: str) -> Json:
    return {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": custom_id,
                                       "label": "go"}]}


# -- rules 1 and 2: what interactions carry, what a client offers ---------------------------------
async def test_dms_and_group_dms_between_users_are_private_channel_interactions(fake, api):
    await api.register(EVERYWHERE, SERVERS, NO_PRIVATE, USER_ONLY)
    alice = fake.add_user("Alice", installed=True)
    bob, carol = fake.add_user("Bob"), fake.add_user("Carol")
    dm = fake.add_dm(alice, bob)
    assert fake.add_dm(bob, alice) == dm and dm != fake.dm_channel(alice)  # one DM per pair
    assert fake.channels[dm]["type"] == 1 and not fake.is_member_channel(dm)

    record = await fake.slash(alice, "play", channel_id=dm)
    payload = record.payload
    assert payload["context"] == 2 and payload["authorizing_integration_owners"] == {
        "1": str(alice)}
    assert payload["user"]["id"] == str(alice) and "member" not in payload
    assert "guild_id" not in payload and payload["channel"]["type"] == 1
    assert int(payload["app_permissions"]) == PRIVATE_PERMISSIONS
    assert (await fake.autocomplete(alice, "play", "game", channel_id=dm, game="g")
            ).payload["authorizing_integration_owners"] == {"1": str(alice)}

    with pytest.raises(AssertionError, match="not installed"):  # Bob has no user install
        await fake.slash(bob, "play", channel_id=dm)
    with pytest.raises(AssertionError, match="not offered"):  # integration_types [0]
        await fake.slash(alice, "setup", channel_id=dm)
    with pytest.raises(AssertionError, match="cannot be used"):  # contexts [0, 1]
        await fake.slash(alice, "stats", channel_id=dm)
    with pytest.raises(AssertionError, match="not in the"):  # Carol is not in that DM
        await fake.slash(carol, "play", channel_id=dm)
    fake.install(carol)
    with pytest.raises(AssertionError, match="not in the"):
        await fake.slash(carol, "play", channel_id=dm)

    group = fake.add_group_dm(alice, bob, carol, name="Friday games")
    channel = fake.channels[group]
    assert channel["type"] == 3 and channel["owner_id"] == str(alice)
    assert channel["name"] == "Friday games"
    assert [u["id"] for u in channel["recipients"]] == [str(alice), str(bob), str(carol)]
    assert not fake.is_member_channel(group)
    in_group = await fake.slash(carol, "mine", channel_id=group)  # contexts missing: all
    assert in_group.payload["context"] == 2 and in_group.payload["channel"]["type"] == 3
    assert in_group.payload["authorizing_integration_owners"] == {"1": str(carol)}
    fake.uninstall(carol)
    with pytest.raises(AssertionError, match="not installed"):
        await fake.slash(carol, "mine", channel_id=group)


async def test_clicks_and_modals_inherit_the_owners_of_the_message(fake, api):
    await api.register(EVERYWHERE)
    alice, bob = fake.add_user("Alice", installed=True), fake.add_user("Bob")
    dm = fake.add_dm(alice, bob)
    record = await fake.slash(alice, "play", channel_id=dm)
    status, _ = await api.answer(record, 4, {"content": "a match", "components": [
        button("join")]})
    assert status == 200
    assert record.original["interaction_metadata"]["authorizing_integration_owners"] == {
        "1": str(alice)}
    click = await fake.click(bob, record.original, "join")  # Bob needs no install to click
    assert click.payload["authorizing_integration_owners"] == {"1": str(alice)}
    assert click.payload["context"] == 2 and click.payload["user"]["id"] == str(bob)
    assert click.payload["message"]["id"] == record.original["id"]
    modal = {"custom_id": "name", "title": "Name", "components": [{"type": 1, "components": [
        {"type": 4, "custom_id": "title", "label": "Title", "style": 1}]}]}
    assert (await api.answer(click, 9, modal))[0] == 200
    submitted = await fake.submit_modal(bob, click, {"title": "Friday"})
    assert submitted.payload["authorizing_integration_owners"] == {"1": str(alice)}
    assert submitted.payload["context"] == 2
    assert (await api.answer(submitted, 4, {"content": "named"}))[0] == 200
    assert submitted.original["interaction_metadata"]["authorizing_integration_owners"] == {
        "1": str(alice)}


async def test_owners_in_a_server_with_the_bot_and_in_its_dm(fake, api):
    await api.register(EVERYWHERE, SERVERS, USER_ONLY)
    alice, bob = fake.add_user("Alice", installed=True), fake.add_user("Bob")
    both = await fake.slash(alice, "play")
    assert both.payload["authorizing_integration_owners"] == {"0": str(fake.guild_id),
                                                              "1": str(alice)}
    assert both.payload["context"] == 0 and "guild" in both.payload
    assert (await fake.slash(bob, "play")).payload["authorizing_integration_owners"] == {
        "0": str(fake.guild_id)}
    assert (await fake.slash(alice, "setup")).payload["authorizing_integration_owners"] == {
        "0": str(fake.guild_id)}  # a guild-install command: the server's only
    assert (await fake.slash(alice, "mine")).payload["authorizing_integration_owners"] == {
        "1": str(alice)}
    with pytest.raises(AssertionError, match="not installed"):
        await fake.slash(bob, "mine")  # integration_types [1], Bob without the install

    in_dm = await fake.slash(bob, "setup", dm=True)  # as before: {"0": "0"}, context 1
    assert in_dm.payload["authorizing_integration_owners"] == {"0": "0"}
    assert in_dm.payload["context"] == 1 and "guild_id" not in in_dm.payload
    assert int(in_dm.payload["app_permissions"]) == (1 << 41) - 1  # as before, unless strict
    fake.strict_bot_dm_permissions = True
    strict = await fake.slash(bob, "setup", dm=True)
    assert int(strict.payload["app_permissions"]) == BOT_DM_PERMISSIONS == 442368
    assert (await fake.slash(alice, "play", dm=True)).payload[
        "authorizing_integration_owners"] == {"0": "0", "1": str(alice)}

    status, posted = await api.call("POST", f"/channels/{fake.channel_id}/messages",
                                    {"content": "board", "components": [button("move")]})
    assert status == 200 and "interaction_metadata" not in posted
    click = await fake.click(bob, posted, "move")  # a message the bot posted itself
    assert click.payload["authorizing_integration_owners"] == {"0": str(fake.guild_id)}
    assert (await api.answer(both, 4, {"content": "x", "components": [button("b")]}))[0] == 200
    assert (await fake.click(bob, both.original, "b")).payload[
        "authorizing_integration_owners"] == {"0": str(fake.guild_id), "1": str(alice)}


async def test_a_server_without_the_bot(fake, api):
    away = fake.add_guild("Elsewhere", bot_member=False)
    await api.register(EVERYWHERE, SERVERS, NO_PRIVATE)
    alice = fake.add_user("Alice", installed=True, in_server=False)
    bob = fake.add_user("Bob")
    assert not fake.is_member_channel(away.channel_id)
    assert fake.is_member_channel(fake.channel_id) and fake.is_member_channel(
        fake.dm_channel(bob))
    async with aiohttp.ClientSession() as session:
        ws, ready = await identified(fake, session)
        assert [g["id"] for g in ready["guilds"]] == [str(fake.guild_id)]  # not in READY
        record = await fake.slash(alice, "play", channel_id=away.channel_id)
        await ws.close()
    created = fake.sessions[0].names()
    assert created.count("GUILD_CREATE") == 1 and created[-1] == "INTERACTION_CREATE"
    with pytest.raises(AssertionError, match="not in that guild"):
        await fake.announce_guild(away.guild_id)

    payload = record.payload
    assert payload["context"] == 0 and payload["guild_id"] == str(away.guild_id)
    assert payload["authorizing_integration_owners"] == {"1": str(alice)}  # no "0"
    assert payload["member"]["user"]["id"] == str(alice)
    assert int(payload["app_permissions"]) & ~BOT_DM_PERMISSIONS == 0  # no bot: no SEND etc.
    assert (await fake.slash(alice, "stats", channel_id=away.channel_id)).payload[
        "authorizing_integration_owners"] == {"1": str(alice)}  # context 0 is allowed
    with pytest.raises(AssertionError, match="not installed"):
        await fake.slash(bob, "play", channel_id=away.channel_id)
    with pytest.raises(AssertionError, match="without Corral"):  # integration_types [0]
        await fake.slash(alice, "setup", channel_id=away.channel_id)
    with pytest.raises(AssertionError, match="shares no server"):  # in_server=False
        await fake.slash(alice, "play")

    status, body = await api.call("PUT", f"/applications/{APP_ID}/guilds/{away.guild_id}/commands",
                                  [SERVERS])
    assert (status, body) == MISSING_ACCESS
    assert await api.call("GET", f"/applications/{APP_ID}/guilds/{away.guild_id}/commands") \
        == MISSING_ACCESS


# -- rule 3: channel routes where the bot is not ----------------------------------------------------
async def test_channel_routes_where_the_bot_is_not_are_missing_access(fake, api):
    await api.register(EVERYWHERE)
    alice, bob = fake.add_user("Alice", installed=True), fake.add_user("Bob")
    away = fake.add_guild("Elsewhere", bot_member=False)
    places = [fake.add_dm(alice, bob), fake.add_group_dm(alice, bob), away.channel_id]
    async with aiohttp.ClientSession() as session:
        ws, _ = await identified(fake, session)
        for channel_id in places:
            fake.advance(5.0)  # the bot token's 50 requests a second
            theirs = await fake.user_message(bob, channel_id, "hello")  # the bot is not told
            record = await fake.slash(alice, "play", channel_id=channel_id)
            assert (await api.answer(record, 5))[0] == 200  # interaction answers work there
            status, edited = await api.edit_original(record, {"content": "the board",
                                                              "components": [button("go")]})
            assert status == 200 and edited["content"] == "the board"
            status, followed = await api.followup(record, {"content": "your turn"})
            assert status == 200 and followed["channel_id"] == str(channel_id)
            mine = edited["id"]
            base = f"/channels/{channel_id}"
            for method, path, body in [
                    ("POST", f"{base}/messages", {"content": "hi"}),
                    ("GET", f"{base}/messages", None),
                    ("GET", f"{base}/messages/{mine}", None),
                    ("PATCH", f"{base}/messages/{mine}", {"content": "edited"}),
                    ("DELETE", f"{base}/messages/{mine}", None),
                    ("DELETE", f"{base}/messages/{theirs['id']}", None),
                    ("POST", f"{base}/threads", {"name": "t", "type": 11}),
                    ("POST", f"{base}/messages/{mine}/threads", {"name": "t"}),
                    ("GET", base, None),
                    ("PATCH", base, {"archived": False})]:
                assert await api.call(method, path, body) == MISSING_ACCESS, (method, path)
            assert fake.messages[int(mine)]["content"] == "the board"  # nothing changed
        await ws.close()
    names = fake.sessions[0].names()
    assert names.count("INTERACTION_CREATE") == 3
    assert not [n for n in names if n.startswith("MESSAGE_")]  # none of those channels'
    # the channels stay readable by the test
    assert [m["content"] for m in fake.channel_messages(away.channel_id)] == [
        "hello", "the board", "your turn"]


# -- rule 4: the bot's DM with a user -------------------------------------------------------------
async def test_a_dm_needs_a_shared_server_or_a_user_install(fake, api):
    stranger = fake.add_user("Stranger", in_server=False)
    member = fake.add_user("Member")
    closed = fake.add_user("Closed", in_server=False)
    fake.close_dms(closed)

    async def dm(user: int) -> tuple[int, Any]:
        status, channel = await api.call("POST", "/users/@me/channels", {"recipient_id": user})
        assert status == 200 and channel["id"] == str(fake.dm_channel(user))  # opening works
        fake.advance(5.0)  # the channel's 5 messages in 5 s
        return await api.call("POST", f"/channels/{channel['id']}/messages", {"content": "hi"})

    assert await dm(stranger) == (403, {"message": "Cannot send messages to this user due to "
                                                   "having no mutual guilds", "code": 50278})
    assert fake.dm_messages(stranger) == []
    assert (await dm(member))[0] == 200
    assert (await dm(closed))[1]["code"] == 50007  # closed DMs: 50007 whatever else holds
    fake.install(stranger)
    assert (await dm(stranger))[0] == 200  # a user install is enough
    fake.uninstall(stranger)
    assert (await dm(stranger))[1]["code"] == 50278


# -- rule 5: five follow-ups for a user install alone -------------------------------------------------
async def test_an_interaction_only_a_user_install_authorized_has_five_followups(fake, api):
    await api.register(EVERYWHERE)
    alice, bob = fake.add_user("Alice", installed=True), fake.add_user("Bob")
    dm = fake.add_dm(alice, bob)
    record = await fake.slash(alice, "play", channel_id=dm)
    assert record.user_installed_only
    assert (await api.answer(record, 4, {"content": "the board"}))[0] == 200
    for number in range(5):
        fake.advance(2.0)  # an interaction's follow-ups: 5 per 2 s
        assert (await api.followup(record, {"content": f"move {number}"}))[0] == 200
    fake.advance(2.0)
    assert await api.followup(record, {"content": "one too many"}) == TOO_MANY_FOLLOWUPS
    assert len(record.followups) == 5
    status, edited = await api.edit_original(record, {"content": "edits are not limited"})
    assert status == 200 and edited["content"] == "edits are not limited"
    last = record.followups[-1]["id"]
    status, _ = await api.call("PATCH", f"/webhooks/{APP_ID}/{record.token}/messages/{last}",
                               {"content": "nor are follow-ups' edits"})
    assert status == 200
    fake.advance(15 * 60)
    assert await api.edit_original(record, {"content": "late"}) == (
        401, {"message": "Invalid Webhook Token", "code": 50027})

    # a click on that message: the same owners, the same limit
    click_on = await fake.slash(alice, "play", channel_id=dm)
    assert (await api.answer(click_on, 4, {"content": "b", "components": [button("go")]}))[0] \
        == 200
    click = await fake.click(bob, click_on.original, "go")
    assert (await api.answer(click, 6))[0] == 200
    for number in range(5):
        fake.advance(2.0)
        assert (await api.followup(click, {"content": f"note {number}"}))[0] == 200
    fake.advance(2.0)
    assert await api.followup(click, {"content": "one too many"}) == TOO_MANY_FOLLOWUPS

    # where the server's install authorizes it too ("0" and "1"), no limit
    both = await fake.slash(alice, "play")
    assert both.owners == {"0": str(fake.guild_id), "1": str(alice)}
    assert (await api.answer(both, 5))[0] == 200
    for number in range(7):
        fake.advance(2.0)
        assert (await api.followup(both, {"content": f"move {number}"}))[0] == 200


# -- rule 6: USE_EXTERNAL_APPS ----------------------------------------------------------------------
@pytest.mark.parametrize("kind", [4, 5])
async def test_without_external_apps_answers_in_a_server_without_the_bot_are_ephemeral(
        fake, api, kind):
    await api.register(EVERYWHERE)
    alice = fake.add_user("Alice", installed=True)
    closed = fake.add_guild("Strict", bot_member=False, external_apps=False)
    assert not fake.guilds[closed.guild_id].roles[closed.guild_id].permissions & USE_EXTERNAL_APPS
    open_ = fake.add_guild("Relaxed", bot_member=False)
    assert fake.guilds[open_.guild_id].roles[open_.guild_id].permissions & USE_EXTERNAL_APPS
    installed = fake.add_guild("Ours", external_apps=False)  # the app is installed there

    for where, ephemeral in [(closed, True), (open_, False), (installed, False)]:
        record = await fake.slash(alice, "play", channel_id=where.channel_id)
        status, _ = await api.answer(record, kind, {"content": "public?", "flags": 0}
                                     if kind == 4 else {"flags": 0})
        assert status == 200
        assert bool(record.original["flags"] & EPHEMERAL) is ephemeral, where
        if kind == 5:
            assert (await api.edit_original(record, {"content": "done"}))[0] == 200
        fake.advance(2.0)
        status, followed = await api.followup(record, {"content": "and more"})
        assert status == 200 and bool(followed["flags"] & EPHEMERAL) is ephemeral
        assert bool(fake.channel_messages(where.channel_id)) is not ephemeral


# -- rule 7: integration_types and contexts in command syncs ------------------------------------------
def inner(body: Json, *path: str | int) -> list[str]:
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body", body
    node = body["errors"]
    for key in path:
        node = node[str(key)]
    return [e["code"] for e in node["_errors"]]


@needs_spec
async def test_integration_types_and_contexts_take_only_discords_values(fake, api):
    path = f"/applications/{APP_ID}/commands"
    for field, wrong in [("integration_types", 2), ("integration_types", -1),
                         ("contexts", 3)]:
        status, body = await api.call("PUT", path, [{**SERVERS, field: [0, wrong]}])
        assert status == 400 and inner(body, 0, field, 1) == ["BASE_TYPE_CHOICES"], body
    for field in ("integration_types", "contexts"):  # at least one, each once
        status, body = await api.call("PUT", path, [{**SERVERS, field: []}])
        assert status == 400 and field in body["errors"]["0"], body
    assert "global" not in fake.commands
    status, stored = await api.call("PUT", path, [{**SERVERS, "integration_types": [0, 1],
                                                   "contexts": [0, 1, 2]}])
    assert status == 200 and stored[0]["contexts"] == [0, 1, 2]
