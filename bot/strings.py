"""Every sentence the bot says, in one place, so that it can be translated later.

Templates use str.format fields. Rule summaries for `/rules` are here too.
"""

from __future__ import annotations

# -- errors (always ephemeral) ---------------------------------------------------------
NO_MATCH_HERE = "There is no match in this channel. Start one with `/play`."
NO_SUCH_MATCH = "Match #{match_id} no longer exists."
MATCH_OVER = "Match #{match_id} is over, so nothing can be played in it."
CHANNEL_BUSY = ("This channel already has a match (#{match_id}). Finish it, or ask its host or "
                "a server manager to `/abort` it, or start yours in another channel or thread.")
NOT_A_PLAYER = "You are not playing in match #{match_id}; only its players can do that."
NOT_YOUR_TURN = "It is not your turn: match #{match_id} is waiting for {name}."
NOT_STARTED = "Match #{match_id} has not started yet."
ILLEGAL_MOVE = "`{notation}` can't be played: {reason}."
UNKNOWN_GAME = "Unknown game: {reason}."
BAD_OPTION = "Bad option: {reason}."
BAD_OPTION_SYNTAX = ("Bad options `{text}`: write them as `name=value`, separated by spaces "
                     "(for example `pits=17`).")
STALE_BOARD = ("That board is out of date: the match has moved on (it is at move {ply} now). "
               "Use the newest board.")
RACE_LOST = "The match changed while you were moving; nothing was played. Look at the newest board."
OPPONENT_IS_YOU = "You can't challenge yourself. Leave the opponent empty to open a lobby."
OPPONENT_IS_BOT = "{name} is a bot and can't play."
ALREADY_SEATED = "You have already joined match #{match_id}."
LOBBY_FULL = "Match #{match_id} is full."
ONLY_HOST_STARTS = "Only the host, {name}, can start match #{match_id}."
NOT_ENOUGH_PLAYERS = "Match #{match_id} needs at least {count} players to start; it has {have}."
NOT_INVITED = "This invitation is for {name}, not for you."
NOT_AN_INVITATION = "Match #{match_id} is not waiting for an answer to an invitation."
NOT_A_LOBBY = "Match #{match_id} is not an open lobby."
ABORT_FORBIDDEN = ("Only the host can abort match #{match_id} before it starts; once it has "
                   "started, only a server manager can (players can `/resign`).")
NOT_IN_GUILD = "Matches are played in server channels, not in direct messages."
SETTINGS_FORBIDDEN = "Only server managers (Manage Server permission) can change Corral's settings."
INTERNAL_ERROR = ("Something went wrong on my side. The match is safe: use `/board` to see where "
                  "it stands.")

# -- server settings -------------------------------------------------------------------
SETTINGS_THREADS_ON = "in a thread of their own"
SETTINGS_THREADS_OFF = "in the channel where `/play` is used"

# -- lobby and invitations -------------------------------------------------------------
LOBBY_OPEN = ("**{host}** opened a lobby for **{game}** (match #{match_id}{options}). "
              "Press **Join** to take a seat; the host presses **Start** when ready.")
LOBBY_SEATS = "Seated: {names}"
INVITATION = ("{opponent}, **{host}** challenges you to **{game}** (match #{match_id}{options}). "
              "Accept or decline below.")
DECLINED = "**{name}** declined the challenge to match #{match_id}."
ABORTED = "Match #{match_id} was aborted by **{name}**."
MATCH_STARTED = "Match #{match_id} of **{game}** has begun: {seats}."
SEAT_LINE = "{seat_no}. {name}"
THREAD_NAME = "{game}: {names}"
THREAD_OPENED = "Match #{match_id} is in its own thread: {link}"

# -- board messages --------------------------------------------------------------------
MOVE_PLAYED = "**{name}** played `{notation}`{detail}."
YOUR_TURN = "{mention}, your turn{extra}."
EXTRA_MOVES = " ({n} extra move{s} to make after this one)"
GAME_WON = "🏆 **{names}** won match #{match_id} ({reason})."
GAME_DRAWN = "Match #{match_id} is drawn ({reason})."
REASONS = {
    "target": "reached the winning score",
    "repetition": "third repetition of the position",
    "no-legal-move": "no legal move left",
    "tie-break": "equal scores, four in a line",
    "pickup-failure": "the opponent's stock could not cover the pick-up",
    "resignation": "by resignation",
    "agreement": "by agreement",
    "timeout": "on time",
}
RESIGNED = "**{name}** resigned match #{match_id}."
RESIGN_CONFIRM = "Resign match #{match_id}? This ends the match and can't be undone."
RESIGN_DONE = "You resigned match #{match_id}."
BOARD_HEADER = "Match #{match_id} · {game} · move {ply}"
SCORES = "Score: {scores}"

PICK_CELL = "Play on a cell ({first}–{last})…"
CELL_CHOICES = "stones: {counts}"
HOW_MANY = "**{cell}**: how many stones?"
TURN_CARD = ("Your turn in match #{match_id} of **{game}** ({link}).\n{details}")
PASTORAL_CARD = ("You picked up {picked}: you hold **{held}** stone{s}, and {stock} remain in your "
                 "stock. {opponent} holds {opp_held}, stock {opp_stock}.")
PASTORAL_BLOCKED = "You may not place on {cells} this turn (your stones there were just mutilated)."
TURN_CARD_UNDELIVERED = "({name}: I couldn't DM you your turn card; your DMs are closed.)"

YOU_PLAYED = "You played `{notation}` in match #{match_id}."
MY_VIEW = "My view"
PLAY_TILE = "Play…"
PRIVATE_VIEW = "Your view of match #{match_id} ({game}) in {link}.\nYour hand: {hand}."
PRIVATE_EMPTY_HAND = "empty"
NO_PRIVATE_VIEW = "{game} has no hidden information: everything is on the board (`/board`)."
TILE_ACTION = "What do you want to do?"
TILE_PLACE_KIND = "Place a {kind} ({n} in hand)"
TILE_MOVE = "Move a tile on the grid"
TILE_SQUARE = "Where do you put the {kind}?"
TILE_ORIGIN = "Which tile do you move?"
TILE_HOW = "**{kind} on {square}**: place it, or place and push?"
TILE_TARGET = "**{origin}**: where to?"
TILE_PLACE_BUTTON = "Place"
TILE_PUSH_BUTTON = "Push {direction}"
TILE_KINDS = {"BM": "blue moon", "BS": "blue sun", "BD": "blue dot", "RM": "red moon",
              "RS": "red sun", "RD": "red dot"}

PICK_SETUP = "Place a pawn on…"
PICK_GHOST = "Put the ghost on…"
SETUP_ROCKS = "**Pawn on {plate}**: choose the 3 plates that get a rock."
STEP_ENDING = "**{prefix}**: which way does a rock from {origin} go?"
NO_ROCK = "no rock"
ROCK_BUTTON = "rock {direction}"
ROLL_ANNOUNCE = "🎲 The die shows **{direction}**: the ghost moves {origin} → {target}{took}."
ROLL_TOOK = " and takes a rock from {origin}"
MULTI_SEAT_NO_OPPONENT = ("{game} is played by {players} players: leave the opponent empty to "
                          "open a lobby that others join.")

# -- clocks, offers, vacations -----------------------------------------------------------
BAD_DURATION = ("`{text}` is not a time per move: write it like `3d`, `12h`, `1d12h`, `90m`, "
                "or `none`.")
DURATION_RANGE = "A time per move is between 1 minute and 30 days, or `none`."
NO_CLOCK = "Match #{match_id} has no time limit."
NOT_EXPIRED = "{name}'s time is not up yet in match #{match_id}: {left} left."
NOT_OPPONENT = "Only {name}'s opponents can claim; it is {name}'s own turn."
CANNOT_SKIP = "The turn of {name} cannot be skipped now: {reason}"
CLAIMED_WIN = "⏰ **{name}** claimed match #{match_id}: {absent} ran out of time."
SKIPPED = "⏰ **{name}** skipped the turn of {absent}, who ran out of time (match #{match_id})."
EXPIRED = ("⏰ {absent}'s time is up in match #{match_id}. {mentions}: you may {action}, or keep "
           "waiting.")
ACTION_CLAIM = "claim the win"
ACTION_SKIP = "skip their turn"
CLAIM_BUTTON = "Claim the win"
SKIP_BUTTON = "Skip their turn"
REMINDER_HALF = ("⏳ Half your time is gone in match #{match_id} of **{game}** ({link}): {left} "
                 "left for your move.")
REMINDER_LAST = ("⌛ Little time is left in match #{match_id} of **{game}** ({link}): {left} left "
                 "for your move.")
DIGEST_HEADER = "Your daily digest: {n} match{es} waiting on you."
DIGEST_LINE = "• #{match_id} {game} in {link}: waiting {waited}{due}"
DUE_IN = ", due in {left}"
TIME_LEFT = "{left} left for this move."
DRAW_ONLY_TWO = "Draw offers are for two-player matches."
OFFER_DRAW = "🤝 **{name}** offers a draw in match #{match_id}. {mention}, accept or decline."
OFFER_TAKEBACK = ("↩️ **{name}** asks to take back `{notation}` in match #{match_id}. {mention}, "
                  "accept or decline.")
NO_TAKEBACK_HIDDEN = "Takebacks are not allowed in games with hidden information."
NO_TAKEBACK = ("You can take back only your own last move, before anyone else has moved and "
               "never across a die roll.")
OFFER_GONE = "That offer is no longer open (answered, withdrawn, or the match moved on)."
OFFER_OWN = "You can't answer your own offer."
OFFER_DECLINED = "**{name}** declined the {kind} offer in match #{match_id}."
DRAW_AGREED = "🤝 Match #{match_id} is drawn by agreement."
TAKEBACK_DONE = "↩️ **{name}** accepted: `{notation}` is taken back."
ACCEPT = "Accept"
DECLINE = "Decline"
REMATCH = "Rematch"
REMATCH_ONLY_PLAYERS = "Only the players of match #{match_id} can ask for a rematch."
REMATCH_NOT_OVER = "Match #{match_id} is not over."
VACATION_RANGE = "A vacation lasts 1 to {max} days."
VACATION_ALLOWANCE = "You have {left} vacation day{s} left this year (of {total})."
VACATION_ALREADY = "You are already on vacation until {until}. Use `/vacation end` first."
VACATION_SET = ("🏖️ Enjoy! Your clocks are paused until {until} ({days} day{s}; {left} left this "
                "year).")
VACATION_ENDED = "Welcome back: your clocks run again."
VACATION_NONE = "You are not on vacation."
REMINDERS_SET = {"on": "Reminders are on: a DM when half your time is gone and when little is left.",
                 "off": "Reminders are off.",
                 "digest": "You will get one DM a day listing every match waiting on you."}
CHANNEL_NOT_ALLOWED = "Corral hosts matches only in {channels} on this server."
SETTINGS_LINES = ("Corral settings for this server:\n• new matches open {threads}\n• time per move: "
                  "{time}\n• channels: {channels}\n• spectators in match threads: {spectators}")
SETTINGS_ALL_CHANNELS = "any channel"
SPECTATORS_TALK = "may talk"
SPECTATORS_QUIET = "may only watch (their messages are removed)"
NO_LIMIT = "none"

# -- DMs ---------------------------------------------------------------------------------
DM_MATCH_STARTED = ("Your match #{match_id} of **{game}** has started in {link}. You are seat "
                    "{seat_no}{first}. I'll mention you there whenever it is your turn.")
DM_FIRST = " and you move first"
DM_CLOSED = ("I couldn't send you a direct message (your DMs are closed to me). Everything about "
             "match #{match_id} is in {link}: watch for your mention there, or use `/board`.")

# -- listings and help -----------------------------------------------------------------
MATCHES_NONE = "You have no matches in progress. Start one with `/play`."
MATCHES_HEADER = "Your matches:"
MATCH_LINE = "#{match_id} {game} in {link}: {status}"
STATUS_YOUR_TURN = "**your turn**"
STATUS_WAITING = "waiting for {name}"
STATUS_LOBBY = "lobby ({have}/{need} seated)"
STATUS_INVITED = "waiting for {name} to accept"

HELP = """**Corral** hosts small abstract board games, played turn by turn in this channel.
`/play game [opponent] [options]` — challenge someone, or open a lobby anyone can join
`/move notation` — play a move (the list completes as you type), or press a board button
`/board` — show the current board (only to you)
`/hand` — your private view, in games with hidden information
`/matches` — your matches and whose turn it is
`/rules [game]` — how a game is played
`/draw` — offer a draw · `/takeback` — ask to take back your last move
`/vacation days` — pause your clocks (30 days a year) · `/reminders` — on, digest or off
`/resign` — give up the match in this channel
`/abort` — cancel the match here (its host before it starts; server managers any time)
`/corral settings` — server managers: threads, default time per move, channels, spectators
Games: {games}."""

RULES = {
    "progressive-mancala": """**Progressive Mancala** (Ralf Gering, 2004) — 2 players
**Board**: 11 pits `a`–`k` with 5 seeds each, and one goal shared by both players.
**Sowing**: pick a non-empty pit, take all its seeds and sow them one by one. The first player sows k → j → … → a → goal → k; the second a → b → … → k → goal → a.
**Where the last seed falls**:
• in the **goal**: you score every seed in the goal; your move ends.
• in an **empty pit**: your move ends and your opponent must make **one extra move** on their next turn.
• in a **non-empty pit**: take all of it and sow on (relay).
**Turns**: one move, plus one extra move for every time your opponent ended in an empty pit during their last turn (extra moves are compulsory).
**Winning**: the first to hold **28** seeds wins. Option `pits=17`: 17 pits, first to **43**.
**House rule** (option `repetition=off` disables): the third repetition of a position is a draw.
**Notation**: the pit's letter, e.g. `/move k`.""",
}
RULES["pastoral-square"] = """**Pastoral Square** — 2 players, 64 stones (32 in each stock)
**Board**: the central 4×4 **corral** (cell values 2–4 shown in the corner), the **cattle area** around it, four 2×2 **holding areas** in the corners.
**Pick-up** (automatic): holding 0–3 stones you take 2 from your stock, holding 4 you take 1, holding 5 none. A stock too short to pick up loses.
**Actions** (pick one, paid from held stones): `save`; **claim** an empty corral cell with exactly its value (`d4:4`); **stack** on your own cell (`d4:1`), at most 5 per cell; or play on a **cattle** cell, allowed only as a reach or a mutilation.
**Mutilation**: A (opponent's corral cell), D (holding cell diagonal from A), B and C (the other corners, cattle). Putting stones on B or C so that A = B × C removes A, B and C; the stones go back to the stocks (one to your hand when odd), and the victim may not re-place on A next turn.
**Reach**: a cattle stack whose count divides the opponent's A, with its partner cell empty or yours.
**Winning**: three corral cells in a line, all yours, with **equal counts** (bingo).
**House rule** (option `repetition=off` disables): the third repetition is a draw."""
RULES["consequence"] = """**Consequence** (Jonas Lidström Isegrim, 2018) — 2 players, 14 face-down tiles
**Tiles**: blue (moon player): 3 moons, 1 sun, 3 dots; red (sun player): 3 suns, 1 moon, 3 dots. Nobody sees a tile on the grid; you remember what you placed.
**Opening**: the moon player places one tile; then the sun player starts.
**A turn** (one action): **place** a tile from your hand on an empty square; **move** any tile one step (not the one your opponent just moved); or **place and push**: put a tile next to a line of tiles and push the line one step; a tile pushed off goes to your **opponent's** hand (not the tile they just placed).
**End**: when a hand empties, the other player places all their remaining tiles. Then every tile is turned over: 1 point per adjacent pair (diagonals count) of your symbol. Tie: four of your symbol in a line wins.
**Playing here**: press **Play…** and choose privately; **My view** or `/hand` shows what you know."""
RULES["ghostone"] = """**Ghostone** (ブツダ, 2013) — 3 or 4 players
**Set-up**: one rock on each of the 16 plates. In snake order, each player places a pawn and adds a rock to 3 different plates around it.
**A turn**: move one of your pawns one step N/E/S/W onto a face-up plate without a pawn, then move one rock from the plate it left one step N/E/S/W (off the board from an edge; never onto a flipped plate). If nothing can move, your turn is passed.
**Escape**: stepping onto a plate with **no rock** escapes: you score the rocks on the plate you left (before the rock move), plus 3/2/1 for the first three escapes. The plate flips over.
**The ghost**: the third escaper places it. Before each turn of seat 1 the die is rolled: the ghost moves that way (skipping flipped plates, wrapping round) and takes a rock from the plate it left.
**End**: when only one player's pawns remain. Highest score wins."""
RULES["ico"] = """**ICO** (flat icosahedron) — 2 to 4 players: red, blue, yellow, green
**The map**: the 20 faces of an icosahedron seen from one corner (the outer circle is the opposite corner). The **black face** is active; faces with the same number are opposite on the solid.
**A turn**: put one marker of your colour on an edge (rod) of the black face, then the black face rolls over that edge. The edges you may use are labelled on the picture (and are the buttons).
**Balance**: an edge holds one marker per colour. If only one edge of the black face lacks your colour you must use it; otherwise use one of those with the fewest markers.
**Winning** (option `level`): **1** all three edges of a face in your colour; **1+** a face and its opposite face; **2** a belt of 10 edges around the solid (you may redouble on a face you already hold); **2+** the six outer edges of a big triangle (`antipodal=yes`: and the opposite one).
**Rolling without placing**: `-e12`, when none of the edges may take your marker (level 1+) or you have none left."""
RULES_UNKNOWN = "No rules for `{game}` yet. Games: {games}."
