// Corral's Activity (issue 55): the entry page Discord opens in its iframe signs the player in
// through the Embedded App SDK and sends them to their match. Built by `npm run build` into
// bot/web/static/activity.js (committed: running the bot needs no node). The page's CSP is
// script-src 'self': nothing here uses eval, inline code or the network beyond Corral's own
// routes. Texts come from the page's data-* attributes (translated) and are shown with
// textContent only.
import { DiscordSDK } from "@discord/embedded-app-sdk";

const root = document.getElementById("activity");
const status = document.getElementById("activity-status");
const list = document.getElementById("activity-matches");

function say(text) {
  if (status) status.textContent = text;
}

// The reason a step failed, as a sentence: a server's {"error": "..."}, an SDK error's
// message (RPC errors reject with {code, message}), or the exception's text.
function reason(error) {
  if (error && typeof error.message === "string" && error.message) return error.message;
  if (typeof error === "string") return error;
  return "";
}

class Refused extends Error {}

async function json(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const text = body && typeof body.error === "string" ? body.error : `HTTP ${response.status}`;
    throw new Refused(text);
  }
  if (body === null || typeof body !== "object") throw new Refused("invalid answer");
  return body;
}

function showMatches(matches) {
  list.replaceChildren();
  for (const match of matches) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = match.url;
    link.textContent = match.title;
    item.append(link);
    list.append(item);
  }
}

async function run() {
  const clientId = root.dataset.clientId;
  const sdk = new DiscordSDK(clientId);
  // outside Discord (the page opened in a browser) nobody answers the handshake: say so
  let waiting;
  const late = new Promise((_, reject) => {
    waiting = window.setTimeout(() => reject(new Refused(root.dataset.noDiscord)), 15000);
  });
  await Promise.race([sdk.ready(), late]);
  window.clearTimeout(waiting);
  say(root.dataset.signingIn);
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const session = await json(
    await fetch(root.dataset.signin, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ code }),
    }),
  );
  await sdk.commands.authenticate({ access_token: session.access_token });
  const where = `${root.dataset.where}?channel_id=${encodeURIComponent(sdk.channelId ?? "")}`;
  const { matches } = await json(await fetch(where, { credentials: "same-origin" }));
  if (!Array.isArray(matches)) throw new Refused("invalid answer");
  const here = matches.filter((m) => m.here === true);
  if (here.length === 1) {
    say("");
    window.location.assign(here[0].url);
    return;
  }
  if (matches.length === 0) {
    say(root.dataset.none);
    return;
  }
  say("");
  showMatches(matches);
}

function failed(error) {
  const why = reason(error);
  say(why ? `${root.dataset.failed} ${why}` : root.dataset.failed);
}

// (new DiscordSDK throws without Discord's query parameters, frame_id etc.: a rejection here)
if (root && status && list) run().catch(failed);
