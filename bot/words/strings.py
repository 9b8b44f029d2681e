"""Every sentence the bot says, marked for the translation catalogs.

Each constant is a gettext message id (English, with str.format fields); `N_` marks it for the
extractor and `NP_` marks a singular/plural pair. Code turns them into `Phrase`s with their
fields (`phrase(strings.X, name=...)`), and `bot.words.i18n` translates a phrase for whoever
reads it.
Rule summaries for `/rules` are files in each game's kit, `games/<kit>/rules/<language>.md`.
"""

from __future__ import annotations

from games import N_


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular/plural pair for the catalogs."""
    return singular, plural


# -- refusals (always ephemeral) -----------------------------------------------------------
NO_MATCH_HERE = N_("There is no match in this channel. Start one with `/play`.")
NO_SUCH_MATCH = N_("Match #{match_id} does not exist.")
MATCH_OVER = N_("Match #{match_id} is over, so nothing can be played in it.")
MATCH_ABORTED = N_("Match #{match_id} was aborted, so nothing can be played in it.")
CHANNEL_BUSY = N_("This channel already has a match (#{match_id}). Finish it, or ask its host or "
                  "a server manager to `/abort` it, or start yours in another channel or thread.")
NOT_A_PLAYER = N_("You are not playing in match #{match_id}; only its players can do that.")
NOT_YOUR_TURN = N_("It is not your turn: match #{match_id} is waiting for {name}.")
NOT_YOUR_TURN_ROLL = N_("It is not your turn: match #{match_id} is waiting for a die roll.")
NOT_STARTED = N_("Match #{match_id} has not started yet.")
NOT_A_MOVE = N_("`{text}` is not a move: {reason}.")
ILLEGAL_MOVE = N_("`{text}` can't be played: {reason}.")
ILLEGAL_CHOICE = N_("That choice can't be made now: {reason}.")
UNKNOWN_GAME = N_("Unknown game: {reason}.")
BAD_OPTION = N_("Bad option: {reason}.")
BAD_FIRST = N_("`first` is random, me or opponent, not `{text}`.")
BAD_OPTION_SYNTAX = N_("Bad options `{text}`: write them as `name=value`, separated by spaces "
                       "(for example `pits=17`).")
REPEATED_OPTION = N_("The option `{name}` is given twice.")
STALE_BOARD = N_("That board is out of date: the match has moved on (it is at move {ply} now). "
                 "Use the newest board.")
ALREADY_PLAYED = N_("Already played: `{notation}` (move {ply}). The match has moved on; see the "
                    "newest board.")
CONFIRM_REPEAT = N_("You played `{notation}` a moment ago and it is your move again in match "
                    "#{match_id}. Play `{notation}` again?")
RACE_LOST = N_("The match changed while you were moving; nothing was played. Look at the newest "
               "board.")
OPPONENT_IS_YOU = N_("You can't challenge yourself. Leave the opponent empty to open a lobby.")
OPPONENT_IS_BOT = N_("{name} is a bot and can't play.")
ALREADY_SEATED = N_("You have already joined match #{match_id}.")
LOBBY_FULL = N_("Match #{match_id} is full.")
ONLY_HOST_STARTS = N_("Only the host, {name}, can start match #{match_id}.")
NOT_ENOUGH_PLAYERS = N_("Match #{match_id} needs at least {count} players to start; it has "
                        "{have}.")
NOT_INVITED = N_("This invitation is for {name}, not for you.")
NOT_AN_INVITATION = N_("Match #{match_id} is not waiting for an answer to an invitation.")
NOT_A_LOBBY = N_("Match #{match_id} is not an open lobby.")
ABORT_FORBIDDEN = N_("Only the host can abort match #{match_id} before it starts; once it has "
                     "started, only a server manager can (players can `/resign`).")
NOT_IN_GUILD = N_("Matches are played in server channels, not in direct messages.")
NO_CHANNEL = N_("Discord did not say which channel this is: try again in a moment.")
NEEDS_SERVER_INSTALL = N_("This needs Corral added to the server (by someone who can manage "
                          "it). Matches work anywhere: `/play`.")
AI_ONLY_IN_BOT_DM = N_("Here only you and Corral can see the match: play against the AI "
                       "(`ai:`), or challenge your friend in your DM with them.")
PRIVATE_ANSWERS_ONLY = N_("This server lets apps it did not add answer only privately, so "
                          "your opponent would never see the board: play against the AI "
                          "(`ai:`) here, or challenge them in a DM.")
SETTINGS_FORBIDDEN = N_("Only server managers (Manage Server permission) can change Corral's "
                        "settings.")
MULTI_SEAT_NO_OPPONENT = N_("{game} is played by {players} players: leave the opponent empty to "
                            "open a lobby that others join.")
INTERNAL_ERROR = N_("Something went wrong on my side. The match is safe: use `/board` to see "
                    "where it stands.")
UNKNOWN_COMPONENT = N_("That button is not one I know (or it is from an older version of "
                       "Corral). Use the newest board, or `/board`.")
WRONG_CHANNEL = N_("That button belongs to match #{match_id}, which is not played in this "
                   "channel.")
ALREADY_OPEN = N_("Your match #{match_id} is already open in {link}.")
ALREADY_OPENING = N_("Your match #{match_id} is being opened in a thread of {link}.")
THREAD_FAILED = N_("I could not create a thread for the match; nothing was opened. Try again "
                   "in a moment.")

# -- lobby and invitations -----------------------------------------------------------------
LOBBY_OPEN = N_("**{host}** opened a lobby for **{game}** (match #{match_id}{options}). "
                "Press **Join** to take a seat; it starts when full ({max} players), or when "
                "the host presses **Start**.")
LOBBY_SEATS = N_("Seated: {names}")
INVITATION = N_("{opponent}, **{host}** challenges you to **{game}** (match "
                "#{match_id}{options}). Accept or decline below.")
DECLINED = N_("**{name}** declined the challenge to match #{match_id}.")
WITHDRAWN = N_("**{name}** withdrew the challenge to match #{match_id}.")
ABORTED = N_("Match #{match_id} was aborted by **{name}**.")
ABORT_DONE = N_("Match #{match_id} is aborted.")
MATCH_STARTED = N_("Match #{match_id} of **{game}** has begun: {seats}.")
SEATED = N_("{name} ({seat})")  # one player in MATCH_STARTED's list, by the game's seat title
THREAD_NAME = N_("{game}: {names}")
THREAD_OPENED = N_("Match #{match_id} is in its own thread: {link}")
# what the player who opened a match is told: what happened, and where
OPENED_HERE = N_("Match #{match_id} is open: the invitation is in {link}.")
OPENED_LOBBY = N_("Match #{match_id} is open: its lobby is in {link}, where players join.")
OPENED_STARTED = N_("Match #{match_id} against {opponents} has started in {link}.")
THREAD_FORBIDDEN = N_("I may not create threads here, so match #{match_id} is in this channel.")
BUTTON_JOIN = N_("Join")
BUTTON_START = N_("Start")
BUTTON_CANCEL = N_("Cancel")
BUTTON_ACCEPT = N_("Accept")
BUTTON_DECLINE = N_("Decline")
BUTTON_RESIGN = N_("Resign")
BUTTON_REMATCH = N_("Rematch")
BUTTON_MOVES = N_("Moves")
BUTTON_MY_VIEW = N_("My view")
BUTTON_PLAY = N_("Play…")
BUTTON_BACK = N_("Back")
BUTTON_PLAY_AGAIN = N_("Play {notation} again")
BUTTON_CLAIM = N_("Claim the win")
BUTTON_SKIP = N_("Skip their turn")
PICK_PAGE = N_("{prompt} ({first}–{last})")

# -- boards --------------------------------------------------------------------------------
MOVE_PLAYED = N_("**{name}** played `{notation}`.")
MOVE_PLAYED_EFFECTS = N_("**{name}** played `{notation}`: {effects}.")
ROLL_LINE = N_("🎲 {effects}.")
YOUR_TURN = N_("{mention}, your turn.")
YOUR_TURN_NOTE = N_("{mention}, your turn ({note}).")
DUE = N_("Time for this move runs out {relative} ({absolute}).")
ON_VACATION = N_("{name} is on vacation until {until}; their clock is paused.")
SCORES = N_("Score: {scores}")
BOARD_HEADER = N_("Match #{match_id} · {game} · move {ply}")
REPOSTED = N_("(Posted again after a restart.)")
RESULT_LINE = N_("🏁 Match #{match_id}: {result}.")
RESULT_DRAW = N_("drawn")
PLAYERS_LINE = N_("Players: {mentions}")
DM_CLOSED_PRIVATE = N_("I couldn't DM you your private view of match #{match_id}: your DMs are "
                       "closed to me. Press **My view** under its board in {link}, or use "
                       "`/hand` there, to see it.")
DM_CLOSED = N_("I couldn't DM you about match #{match_id}: your DMs are closed to me. Its board "
               "in {link} shows everything, and mentions you when it is your turn.")
CHANNEL_GONE = N_("The channel of match #{match_id} ({game}) was deleted, so the match has ended "
                  "there without a result (it is not rated). Start a new one with `/play`.")
DM_TURN_FALLBACK = N_("{mention}, your turn in match #{match_id} (I couldn't DM you).")
BOARD_BY_DM = N_("Match #{match_id}: Corral can post in {link} only in answer to a click or a "
                 "command there, so here is the board. Play here, or there (a click on its "
                 "board, or `/board public:True`, brings it up to date).")
NOTICE_BY_DM = N_("Match #{match_id} ({link}):")
MISSED_TURN = N_("While you were away: it is your turn in match #{match_id} ({link}). A click "
                 "on its board there, or `/board public:True`, brings the board up to date.")
MISSED_TURN_PRIVATE = N_("While you were away: it is your turn in match #{match_id} ({link}). "
                         "`/hand` there shows your own view; a click on its board, or `/board "
                         "public:True`, brings the board up to date.")
MISSED_END = N_("While you were away: match #{match_id} ({link}) is over: {result}.")
MISSED_ENDED = N_("While you were away: match #{match_id} ({link}) is over.")
MISSED_MOVES = N_("While you were away: match #{match_id} ({link}) moved on; it is {name}'s "
                  "turn.")
BOARD_BROUGHT_UP = N_("That board was out of date: the current one follows.")

# how matches end, beyond what each game says
RESIGNED_WIN = N_("{name} resigned: {winners} wins")
RESIGNED_WIN_MANY = N_("{name} resigned: {winners} win")
TIMEOUT_WIN = N_("Time ran out for {absent}; {claimer} claimed the win")
AGREED_DRAW = N_("Drawn by agreement")

# -- moves, step by step -------------------------------------------------------------------
YOU_PLAYED = N_("You played `{notation}` in match #{match_id}.")
STEP_PROMPT = N_("Match #{match_id}, move {ply}: {prompt}")
PRIVATE_HINT = N_("(only you see this)")

# -- private views and turn notices by DM ----------------------------------------------------
PRIVATE_VIEW = N_("Your view of match #{match_id} ({game}) in {link}.")
NO_PRIVATE_VIEW = N_("{game} has no hidden information: everything is on the board "
                     "(`/board`).")
DM_MATCH_STARTED = N_("Your match #{match_id} of **{game}** has started in {link}. You are "
                      "{seat}.")
DM_YOUR_TURN = N_("Your turn in match #{match_id} of **{game}** ({link}).")
DM_GAME_OVER = N_("Match #{match_id} of **{game}** is over ({link}): {result}. {moves_text}, "
                  "{duration}. Final board: {board}")
MOVES_COUNT = NP_("{n} move", "{n} moves")

# -- clocks, offers, vacations ---------------------------------------------------------------
BAD_DURATION = N_("`{text}` is not a time per move: write it like `3d`, `12h`, `1d12h`, `90m`, "
                  "or `none`.")
DURATION_RANGE = N_("A time per move is between 1 minute and 30 days, or `none`.")
NO_CLOCK = N_("Match #{match_id} has no time limit.")
NOT_EXPIRED = N_("{name}'s time is not up yet in match #{match_id}: it runs out {relative}.")
CLAIM_OWN_TURN = N_("It is your own turn: the claim is for your opponents. Play a move instead.")
CANNOT_SKIP = N_("The turn of {name} cannot be skipped now: {reason}.")
CLAIMED_SKIP = N_("⏰ **{name}** skipped the turn of {absent}, who ran out of time.")
EXPIRED = N_("⏰ {absent}'s time is up in match #{match_id}. {mentions}: you may {action}, or "
             "keep waiting.")
ACTION_CLAIM = N_("claim the win")
ACTION_SKIP = N_("skip their turn")
REMINDER_HALF = N_("⏳ Half your time is gone in match #{match_id} of **{game}** ({link}): it "
                   "runs out {relative}.")
REMINDER_LAST = N_("⌛ Little time is left in match #{match_id} of **{game}** ({link}): it runs "
                   "out {relative}.")
DIGEST_HEADER = NP_("Your daily digest: {n} match waiting on you.",
                    "Your daily digest: {n} matches waiting on you.")
DIGEST_LINE = N_("• #{match_id} {game} in {link}: your turn since {since}{due}")
DUE_SUFFIX = N_(", runs out {relative}")
DRAW_ONLY_TWO = N_("Draw offers are for two-player matches.")
OFFER_DRAW = N_("🤝 **{name}** offers a draw in match #{match_id}. {mention}, accept or "
                "decline.")
OFFER_TAKEBACK = N_("↩️ **{name}** asks to take back `{notation}` in match #{match_id}. "
                    "{mention}, accept or decline.")
OFFER_SENT = N_("Your {kind} offer is posted in match #{match_id}.")
OFFER_KIND_DRAW = N_("draw")
OFFER_KIND_TAKEBACK = N_("takeback")
NO_TAKEBACK_HIDDEN = N_("Takebacks are not allowed in games with hidden information.")
NO_TAKEBACK = N_("You can take back only your own last move, before anyone else has moved and "
                 "never across a die roll.")
OFFER_GONE = N_("That offer is no longer open (answered, withdrawn, or the match moved on).")
OFFER_OWN = N_("You can't answer your own offer.")
OFFER_DECLINED = N_("**{name}** declined the {kind} offer in match #{match_id}.")
DRAW_AGREED = N_("🤝 **{name}** accepted the draw in match #{match_id}.")
TAKEBACK_DONE = N_("↩️ **{name}** accepted: `{notation}` is taken back.")
REMATCH_ONLY_PLAYERS = N_("Only the players of match #{match_id} can ask for a rematch.")
REMATCH_NOT_OVER = N_("Match #{match_id} is not over.")
VACATION_RANGE = N_("A vacation lasts 1 to {max} days.")
VACATION_ALLOWANCE = NP_("You have {n} vacation day left this year (of {total}).",
                         "You have {n} vacation days left this year (of {total}).")
VACATION_ALREADY = N_("You are already on vacation until {until}. Use `/vacation end:True` "
                      "first.")
VACATION_SET = NP_("🏖️ Enjoy! Your clocks are paused until {until} ({n} day; {left} left this "
                   "year).", "🏖️ Enjoy! Your clocks are paused until {until} ({n} days; {left} "
                   "left this year).")
VACATION_ENDED = N_("Welcome back: your clocks run again.")
VACATION_NONE = N_("You are not on vacation.")
REMINDERS_ON = N_("Reminders are on: a DM when half your time is gone and when little is left.")
REMINDERS_OFF = N_("Reminders are off.")
REMINDERS_DIGEST = N_("You will get one DM a day listing every match waiting on you.")
NOTIFY_CHANNEL = N_("Your turns are announced with a mention in the match's channel.")
NOTIFY_DM = N_("Your turns are announced by DM (the channel names you without a ping).")
NOTIFY_BOTH = N_("Your turns are announced by a mention in the channel and by DM.")
BAD_CHOICE = N_("`{text}` is not one of {choices}.")

# -- server settings -------------------------------------------------------------------------
CHANNEL_NOT_ALLOWED = N_("Corral hosts matches only in {channels} on this server.")
SETTINGS_LINES = N_("Corral settings for this server:\n• new matches open {threads}\n• time per "
                    "move: {time}\n• channels: {channels}\n• spectators in match threads: "
                    "{spectators}")
SETTINGS_LANGUAGE = N_("• language of boards and notices: {language}")
LANGUAGE_SET = N_("Direct messages, reminders and digests will be in {language}.")
LANGUAGE_NAMES = {"en": N_("English"), "ja": N_("Japanese")}
OPTION_DEFAULT = N_("{choice} (default)")  # a match option's default value in its menu
SETTINGS_THREADS_ON = N_("in a thread of their own")
SETTINGS_THREADS_OFF = N_("in the channel where `/play` is used")
SETTINGS_ALL_CHANNELS = N_("any channel")
SPECTATORS_TALK = N_("may talk")
SPECTATORS_QUIET = N_("may only watch (their messages are removed)")
NO_LIMIT = N_("none")

# -- listings, history and help ----------------------------------------------------------------
MATCHES_NONE = N_("You have no matches. Start one with `/play`.")
MATCHES_HEADER = N_("**Your matches**")
MATCHES_FINISHED = N_("**Finished**")
MATCH_LINE = N_("#{match_id} {game} in {link}: {status}")
STATUS_YOUR_TURN = N_("**your turn** since {since}{due}")
STATUS_WAITING = N_("waiting for {name}")
STATUS_WAITING_VACATION = N_("waiting for {name} (on vacation until {until})")
STATUS_LOBBY = N_("lobby ({have}/{need} seated)")
STATUS_INVITED = N_("waiting for {name} to accept")
STATUS_ROLL = N_("a die roll is due")
MOVES_HEADER = N_("**Match #{match_id}** · {game} · {players}")
MOVES_EMPTY = N_("No moves yet.")
MOVES_ENTRY = N_("{ply}. {name}: `{notation}`")
MOVES_ENTRY_EFFECTS = N_("{ply}. {name}: `{notation}` ({effects})")
MOVES_ROLL = N_("{ply}. 🎲 `{notation}` ({effects})")
MOVES_SKIP = N_("{ply}. {name}'s turn was skipped (out of time)")
MOVES_TRUNCATED = N_("… {n} earlier moves: the whole record is in `/record`.")
RECORD_READY = N_("The record of match #{match_id} ({n} lines). `python -m games replay` reads "
                  "it.")
RECORD_PUBLIC = N_("The record of running match #{match_id}, public notation only (the hidden "
                   "tiles are in it once the game is over).")
HOST = N_("the host")
RESIGN_CONFIRM = N_("Resign match #{match_id}? This ends the match and can't be undone.")
RESIGNED_YOU = N_("You resigned match #{match_id}.")
UNKNOWN_LANGUAGE = N_("Corral speaks {languages}.")
ONLY_HOST_ADDS_AI = N_("Only the host, {name}, can add an AI player.")
AI_THINKING = N_("🤖 {name} is thinking…")
BUTTON_ADD_AI = N_("Add AI player")
AI_NOT_HERE = N_("An AI player joins from the lobby's **Add AI player** button in games for "
                 "3 or more; for two players use `ai:` alone.")

# /help: every command the bot registers (bot/cogs/info.py), by section, each with its own
# description; a command no section names is listed under HELP_MORE
HELP_INTRO = N_("**Corral** hosts small abstract board games, played turn by turn in this "
                "channel. Games: {games}.")
HELP_PLAYING = N_("Playing a match")
HELP_TURNS = N_("Your matches and turns")
HELP_LEARNING = N_("Learning the games")
HELP_AFTER = N_("Records, ratings and analyses")
HELP_TOURNAMENTS = N_("Tournaments")
HELP_SERVER = N_("For server managers")
HELP_MORE = N_("More")
HELP_LINE = N_("{command} — {description}")
HELP_SUBCOMMANDS = N_("{command} — {description}: {subcommands}")
RULES_UNKNOWN = N_("No rules for `{game}`. Games: {games}.")

# -- ratings, profiles, leaderboards and replays -----------------------------------------------
AI_NEVER_RATED = N_("Matches against the AI are never rated: leave `rated` empty or set it to "
                    "False.")
LOBBY_RATED = N_("Rated: the result changes the players' ratings.")
RATINGS_LINE = N_("📈 Ratings: {changes}")
RATING_CHANGE = N_("{name} {before} → {after} ({delta})")
PROFILE_HEADER = N_("**{name}**'s record")
PROFILE_NOTHING = N_("{name} has not finished a match yet.")
PROFILE_GAME = N_("**{game}**: rating {rating} · {played} · {won} won, {drawn} drawn, {lost} lost")
PROFILE_UNRATED = N_("none yet")
PROFILE_GAMES = NP_("{n} game", "{n} games")
PROFILE_AVERAGE = N_("  average {moves} per match, {duration} from start to end")
PROFILE_STREAK = N_("Current streak: {streak}")
STREAK_WIN = NP_("{n} win", "{n} wins")
STREAK_DRAW = NP_("{n} draw", "{n} draws")
STREAK_LOSS = NP_("{n} loss", "{n} losses")
PROFILE_LAST = N_("Last results:")
PROFILE_RESULT_LINE = N_("{mark} #{match_id} {game} vs {opponents} ({when})")
PROFILE_ACTIVE = NP_("Active: {n} match {links}", "Active: {n} matches {links}")
PROFILE_CHART = N_("{name} · {game}")
LEADERBOARD_SERVER = N_("this server")
LEADERBOARD_GLOBAL = N_("all servers")
LEADERBOARD_HEADER = N_("🏆 **{game}** leaderboard, {scope} ({min}, active in the last {days} "
                        "days)")
LEADERBOARD_MIN = NP_("at least {n} rated game", "at least {n} rated games")
LEADERBOARD_LINE = N_("{rank}. {name} {rating} ({games})")
LEADERBOARD_YOU = N_("You: {rank}. {rating} ({games})")
LEADERBOARD_YOU_NOT = N_("You are not on it: it lists players with {min} who played one in the "
                         "last {days} days.")
LEADERBOARD_EMPTY = N_("Nobody is on it yet.")
REPLAY_NOTHING = N_("Match #{match_id} has not started, so there is nothing to replay.")
REPLAY_NO_SUCH_MOVE = N_("Match #{match_id} has moves 0 to {total}; that one does not exist.")
REPLAY_POSTED = N_("🎞️ Replay of match #{match_id} ({game}, {moves}).")
REPLAY_HIDDEN = N_("Hidden tiles stay hidden until the match is over.")
REPLAY_TOO_BIG = N_("The animation of match #{match_id} does not fit this channel's upload limit "
                    "even with small frames; step through it below instead.")
REPLAY_VIEWER = N_("Match #{match_id}, move {ply} of {total}: {move}")
REPLAY_VIEWER_START = NP_("Match #{match_id}, the start ({n} move in all)",
                          "Match #{match_id}, the start ({n} moves in all)")
BUTTON_FIRST = N_("⏮ First")
BUTTON_PREVIOUS = N_("◀ Back")
BUTTON_NEXT = N_("Next ▶")
BUTTON_LAST = N_("Last ⏭")
# -- post-game analysis (issue 30) ----------------------------------------------------------
BUTTON_ANALYSIS = N_("📈 Analysis")
ANALYSIS_NOT_OVER = N_("Match #{match_id} is not over: a match is analysed only once it has "
                       "ended.")
ANALYSIS_ABORTED = N_("Match #{match_id} was aborted, so there is nothing to analyse.")
ANALYSIS_NO_MOVES = N_("Match #{match_id} has no moves to analyse.")
ANALYSIS_HIDDEN = N_("Match #{match_id} ended before every hidden tile was shown, so it can't be "
                     "analysed without telling what a player kept hidden.")
ANALYSIS_QUEUED = N_("📈 Analysis of match #{match_id} ({game}): waiting for its turn…")
ANALYSIS_PROGRESS = N_("📈 Analysis of match #{match_id} ({game}): analysing move {n} of "
                       "{total}…")
ANALYSIS_EXPLAINING = N_("📈 Analysis of match #{match_id} ({game}): every move analysed; "
                         "explaining swing {n} of {total}…")
ANALYSIS_FINISHING = N_("📈 Analysis of match #{match_id} ({game}): every move analysed; "
                        "finishing…")
ANALYSIS_READY = N_("📈 The analysis of match #{match_id} is ready: see {link}.")
ANALYSIS_FAILED = N_("📈 The analysis of match #{match_id} failed. Sorry; ask again later.")
ANALYSIS_ALREADY = N_("Match #{match_id} is being analysed already ({n} of {total} moves done); "
                      "the result will be posted in {link}.")
ANALYSIS_AGAIN = N_("The analysis of match #{match_id} is posted again in this channel.")
ANALYSIS_HEADER = N_("📈 **Analysis of match #{match_id}** ({game}, by the {level} AI): each "
                     "player's estimated chance of winning after every move.")
ANALYSIS_SWINGS = N_("The biggest swings:")
ANALYSIS_SWING = N_("{rank}. Move {index}, {name}: played `{move}`, the AI preferred `{best}` "
                    "({loss} chance of winning).")
# {move} in the lines below is ANALYSIS_MOVE or ANALYSIS_MOVE_EFFECTS: what a ply did is why
# the line is better or worse (the game's own move effects: "scored 6 seeds from the goal")
ANALYSIS_REFUTED = N_("   After {move}, {replies}.")
ANALYSIS_BETTER = N_("   Better was {move}: {replies}.")
ANALYSIS_BETTER_ALONE = N_("   Better was {move}.")
ANALYSIS_REPLY = N_("{name} answers {move}")
ANALYSIS_PLAYS = N_("{name} plays {move}")
ANALYSIS_AGAIN_REPLY = N_("{name} moves again, {move}")
ANALYSIS_MOVE = N_("`{move}`")
ANALYSIS_MOVE_EFFECTS = N_("`{move}` ({effects})")
ANALYSIS_THEN = N_("{first}, then {rest}")
ANALYSIS_NO_SWINGS = N_("No move gave away a noticeable chance of winning.")
AI_LEVEL_EASY = N_("easy")
AI_LEVEL_NORMAL = N_("normal")
AI_LEVEL_HARD = N_("hard")
ANALYSIS_BUSY = N_("Match #{match_id} is being queued for analysis right now; ask again in a "
                   "moment.")

# -- tournaments (bot/service/tournaments.py, bot/cogs/tournaments.py) ------------------------
FORMAT_NAMES = {"swiss": N_("Swiss"), "round_robin": N_("round robin"),
                "knockout": N_("knockout"), "pods": N_("pods")}
NO_SUCH_TOURNAMENT = N_("Tournament #{tournament_id} does not exist in this server.")
NO_TOURNAMENT_HERE = N_("There is no tournament in this channel: run the command in the "
                        "tournament's thread, or give its number.")
TRY_AGAIN = N_("Something else changed at the same moment; nothing was done. Try again.")
TOURNAMENT_CREATE_FORBIDDEN = N_("Only server managers, or members with the organiser role "
                                 "named in `/corral settings`, can create tournaments.")
TOURNAMENT_BAD_FORMAT = N_("`{text}` is not a tournament format here.")
TOURNAMENT_PODS_ONLY_MULTI = N_("Pods are for games of three or more players; {game} is played "
                                "by two.")
TOURNAMENT_TWO_PLAYER_ONLY = N_("Swiss, round robin and knockout are for two-player games; "
                                "{game} cannot be played by two. Choose pods.")
TOURNAMENT_BAD_ROUNDS = N_("Swiss and pods need a number of rounds, from 1 to {max}.")
TOURNAMENT_NO_ROUNDS = N_("Round robin and knockout set their own number of rounds: leave "
                          "`rounds` empty.")
TOURNAMENT_BAD_MIN_RATING = N_("The minimum rating must be between 0 and 5000.")
TOURNAMENT_BAD_WINDOW = N_("The sign-up window and the round time must each be between a "
                           "minute and 90 days.")
# /tournament create's round_time and signup: each error names its own option and range
TOURNAMENT_BAD_ROUND_TIME = N_("`{text}` is not a round's time: write it like `7d`, `3d12h` or "
                               "`90m`.")
TOURNAMENT_ROUND_TIME_RANGE = N_("A round's time is between 1 minute and 90 days.")
TOURNAMENT_BAD_SIGNUP = N_("`{text}` is not a sign-up time: write it like `2d`, `12h` or `90m`.")
TOURNAMENT_SIGNUP_RANGE = N_("The sign-up time is between 1 minute and 90 days.")
TOURNAMENT_MOVE_OVER_ROUND = N_("The time per move cannot be longer than a round.")
TOURNAMENT_ALREADY_IN = N_("You are already signed up for tournament #{tournament_id}.")
TOURNAMENT_NOT_IN = N_("You are not playing in tournament #{tournament_id}.")
TOURNAMENT_NOT_A_PLAYER = N_("That member is not playing in tournament #{tournament_id}.")
TOURNAMENT_OVER = N_("Tournament #{tournament_id} is over.")
TOURNAMENT_NO_LATE_JOIN = N_("Tournament #{tournament_id} has started, and a {format} takes no "
                             "late entries.")
TOURNAMENT_FULL = N_("Tournament #{tournament_id} is full ({max} players).")
TOURNAMENT_RATING_TOO_LOW = N_("This tournament needs a {game} rating of at least {minimum}; "
                               "yours is {rating}.")
TOURNAMENT_ORGANISER_ONLY = N_("Only the organiser of tournament #{tournament_id} (or a server "
                               "manager) can do that.")
TOURNAMENT_STARTED = N_("Tournament #{tournament_id} has already started.")
TOURNAMENT_TOO_FEW = N_("Tournament #{tournament_id} needs at least {count} players to start; "
                        "{have} signed up.")
TOURNAMENT_ROUNDS = N_(", {rounds} rounds")
TOURNAMENT_RATED = N_("rated")
TOURNAMENT_UNRATED = N_("unrated")
TOURNAMENT_MIN_RATING = N_(", rating {rating} or more")
TOURNAMENT_DESCRIPTION = N_("🏆 Tournament #{tournament_id} **{name}**: {game}, {format}{rounds}; "
                            "time per move {move}, {round} per round; {rated}{minimum}.")
TOURNAMENT_NOBODY = N_("(nobody yet)")
TOURNAMENT_SIGNUP_OPEN = N_("Sign-up closes {until} (or when the organiser starts it).")
TOURNAMENT_SIGNUP_CLOSED = N_("Sign-up is closed.")
TOURNAMENT_SIGNUP = N_("{description}\n{state} Rules: `/tournament rules`.\nPlayers ({count}):"
                       "\n{players}")
TOURNAMENT_WITHDRAWN = N_("{name} has withdrawn from tournament #{tournament_id}: their results "
                          "stand, their games still to play are lost by forfeit.")
TOURNAMENT_DEADLINE_END = N_("The round's time is up: match #{match_id} is lost on time by the "
                             "player to move.")
TOURNAMENT_WITHDRAWAL_END = N_("Match #{match_id} ends: a player withdrew from the tournament.")
TOURNAMENT_ROUND_PAIRED = N_("Tournament #{tournament_id}, round {round} (ends {deadline}):\n"
                             "{pairings}")
TOURNAMENT_ALL_PAIRED = N_("Tournament #{tournament_id}: every game is paired at once; play "
                           "them all by {deadline}:\n{pairings}")
TOURNAMENT_FINISHED = N_("🏆 Tournament #{tournament_id} **{name}** is over. Winner: {winners}!"
                         "\n{standings}")
TOURNAMENT_CANCELLED = N_("Tournament #{tournament_id} is cancelled: sign-up closed with fewer "
                          "than {count} players.")
TOURNAMENT_CREATED = N_("Tournament #{tournament_id} is open for sign-up in {link}.")
TOURNAMENT_JOINED = N_("You are signed up for tournament #{tournament_id}.")
TOURNAMENT_LEFT = N_("You are no longer signed up for tournament #{tournament_id}.")
TOURNAMENT_STARTING = N_("Tournament #{tournament_id} starts: the first round is being paired.")
TOURNAMENT_WITHDREW_YOU = N_("You have withdrawn from tournament #{tournament_id}.")
TOURNAMENT_REMOVED = N_("{name} is removed from tournament #{tournament_id}.")
TOURNAMENT_STANDINGS = N_("Tournament #{tournament_id} **{name}**, after {rounds} of its rounds "
                          "({status}):\n{standings}")
TOURNAMENT_STATUS = {"signup": N_("sign-up"), "running": N_("running"),
                     "finished": N_("finished"), "cancelled": N_("cancelled")}
TOURNAMENT_EXPORT = N_("Tournament #{tournament_id}, exported.")
TOURNAMENT_THREAD = N_("🏆 Tournament: {name}")
TOURNAMENT_MATCH_THREAD = N_("🏆 #{tournament_id}, round {round}: {names}")
TOURNAMENT_BYE_LINE = N_("{player}: a bye")
TOURNAMENT_FORFEIT_LINE = N_("{players}: decided by forfeit")
TOURNAMENT_THREAD_FAILED = N_("I could not create the tournament's thread here; nothing was "
                              "created. Check my permissions, or try another channel.")
BUTTON_TOURNAMENT_JOIN = N_("Join")
BUTTON_TOURNAMENT_LEAVE = N_("Leave")
SETTINGS_ORGANISERS = N_("Tournament organisers: server managers and {role}.")
SETTINGS_ORGANISERS_NONE = N_("Tournament organisers: server managers.")
SETTINGS_ROLE_NOT_HERE = N_("That role is not one of this server's roles; nothing was changed.")
TOURNAMENT_RULES = N_(
    "**How Corral's tournaments run**\n"
    "• Sign up with the Join button or `/tournament join`; sign-up closes when its window ends "
    "or when the organiser runs `/tournament start`.\n"
    "• Every game is an ordinary match in a thread of its own, with the tournament's time per "
    "move; rated if the tournament is.\n"
    "• Swiss: each round pairs players with equal scores, never the same pair twice, first "
    "seats balanced; an odd player out gets a bye (1 point, never twice). Late entries score "
    "nothing for the rounds they missed.\n"
    "• Round robin: every game is paired at once and played side by side.\n"
    "• Knockout: seeded by rating, byes to the top seeds; a drawn game is replayed (or a "
    "two-game mini-match) until someone wins, at most three times, then the higher seed goes "
    "through.\n"
    "• Pods: tables of the game's size, players of similar score together; points by place.\n"
    "• When every game of a round has ended, the next round is paired at once. When the "
    "round's time is up, each game still running is lost on time by the player to move (a "
    "game that never started scores nothing).\n"
    "• Withdrawing (`/tournament withdraw`, or removed by the organiser): your results stand, "
    "your games still to play are lost by forfeit, and you are paired no more.\n"
    "• Standings: points, then Buchholz and Sonneborn-Berger (Swiss, round robin), "
    "head-to-head, then rating.")

# -- lessons (/learn) ------------------------------------------------------------------------
NO_LESSON = N_("{game} has no lesson yet: `/rules` explains it.")
LESSON_NOT_YOURS = N_("That lesson belongs to someone else: `/learn` opens your own.")
LESSON_STALE = N_("That lesson step is out of date: use the newest copy of your lesson, or "
                  "`/learn` again.")
LESSON_BAD_ANSWER = N_("That answer is not one this step offers.")
LESSON_HEADER = N_("📖 **{title}** · step {n} of {total}")
LESSON_RESUMED = N_("Welcome back: you continue where you left off (**Start over** begins "
                    "again).")
LESSON_RIGHT = N_("✅ {why}")
LESSON_RIGHT_PLAIN = N_("✅ Right.")
LESSON_WRONG = N_("❌ {why} Try again.")
LESSON_REPLY = N_("Your opponent answered `{moves}`.")
LESSON_DONE = N_("🎓 **{title}** is done ({mistakes}). Now play a real match against the easy "
                 "AI, set up as in the lesson. It starts at once in a new thread of {link} "
                 "(or in {link} itself, if no thread can be made there).")
LESSON_MISTAKES = NP_("{n} wrong answer on the way", "{n} wrong answers on the way")
LESSON_SENT_DM = N_("Your lesson is in your direct messages.")
LESSON_DM_CLOSED = N_("I cannot send you a direct message (your DMs are closed to me): leave "
                      "out `dm:` to see the lesson here.")
LESSON_NO_CHANNEL = N_("I do not know which server channel to open the match in: use `/play` "
                       "there (with `ai:` easy).")
# the lesson's closing match cannot start: the channel's match is in the way, and no thread
LESSON_MATCH_NOWHERE = N_("{link} already has a match (#{match_id}) and I may not make a thread "
                          "there, so yours cannot start: finish that one first, or take "
                          "`/learn` again in another channel.")
LESSON_MATCH_IN_CHANNEL = N_("I may not make threads in {link}, so match #{match_id} is in the "
                             "channel itself.")
LESSON_YOU = N_("You")
LESSON_OPPONENT = N_("Opponent")
# a lesson picture of a finished game whose winner the step asks about
LESSON_GAME_OVER = N_("The game is over")
BUTTON_LESSON_PLAY = N_("Play the easy AI")
BUTTON_LESSON_RESTART = N_("Start over")

# -- conditional moves (/conditional) ----------------------------------------------------------
CONDITIONAL_NOT_HERE = N_("Conditional moves are for two-player games without hidden "
                          "information or chance; {game} here is not one.")
CONDITIONAL_YOUR_TURN = N_("It is your turn in match #{match_id}: play your move first, then "
                           "queue your replies to theirs.")
CONDITIONAL_STALE = N_("Those conditional moves are out of date (the match or the queue has "
                       "changed): use `/conditional` again.")
CONDITIONAL_NOT_YOURS = N_("Those conditional moves belong to someone else: `/conditional` "
                           "shows your own.")
CONDITIONAL_FULL = N_("Your queue is full (or reaches the end of the match): clear it to start "
                      "again.")
CONDITIONAL_ENDS = N_("After `{notation}` the match is over: there is nothing to reply.")
CONDITIONAL_HEADER = N_("🔀 Your conditional moves in match #{match_id} (only you see them):")
CONDITIONAL_PAIR = N_("{n}. if they play `{theirs}`, I play `{mine}`")
CONDITIONAL_PICTURE_HEADING = N_("Your conditional moves in match #{match_id}")  # a picture's
CONDITIONAL_PICTURE_PAIR = N_("{n}. if they play {theirs}, I play {mine}")  # above a small board
CONDITIONAL_PICTURE_DRAFT = N_("{n}. being entered: {moves}")  # the pair not yet complete
CONDITIONAL_EMPTY = N_("None queued yet.")
CONDITIONAL_ENTER_THEIRS = N_("Next: choose their move (after the pairs above).")
CONDITIONAL_ENTER_MINE = N_("If they play `{theirs}`: now choose your reply.")
CONDITIONAL_ENTER_THEIRS_MORE = N_("They play `{theirs}` and move again: choose the rest of their "
                                   "move.")
CONDITIONAL_ENTER_MINE_MORE = N_("If they play `{theirs}`, you play `{mine}` and move again: "
                                 "choose the rest of your reply.")
CONDITIONAL_CHANGED = N_("This view of your conditional moves is out of date: the match or the "
                         "queue has changed since.")
CONDITIONAL_NOW = N_("Here is your queue as it is now:")
CONDITIONAL_CLEARED_BY_MOVE = N_("🔀 Your conditional moves in match #{match_id} are cleared: "
                                 "{name} played `{notation}`, not `{expected}`.")
CONDITIONAL_SAVED = N_("Queued. When their move matches the first pair, your reply is played at "
                       "once; any other move clears the queue.")
CONDITIONAL_CLEARED = N_("Your conditional moves in match #{match_id} are cleared.")
CONDITIONAL_PLAYED = N_("↪ **{name}** played `{notation}` (a conditional move).")
CONDITIONAL_PLAYED_EFFECTS = N_("↪ **{name}** played `{notation}` (a conditional move): "
                                "{effects}.")
BUTTON_CONDITIONAL_CLEAR = N_("Clear the queue")
BUTTON_CONDITIONAL = N_("If they play…")

# -- the web companion (bot/web/pages.py has the pages' own words) --------------------------------
BUTTON_WEB = N_("Watch on the web")  # a link button to the match's web page
BUTTON_OPEN_BOARD = N_("Open board")  # the match's page as an Activity in Discord
ACTIVITY_OFF = N_("The board inside Discord is turned off on this Corral: the board's "
                  "other buttons, and its web page, still work.")
BUTTON_TOURNAMENT_WEB = N_("Tournament page")  # a link button to the tournament's web page
SETTINGS_WEB_ON = N_("• web links: boards carry a link to the match's web page")
SETTINGS_WEB_OFF = N_("• web links: off (no links, and match pages are not shown)")

# -- puzzles (/puzzle) --------------------------------------------------------------------------
NO_PUZZLE = N_("No {game} puzzle for you now: you have answered every one there is (more come "
               "from analysed matches).")
PUZZLE_NOT_YOURS = N_("That puzzle was offered to someone else: `/puzzle` gives you your own.")
PUZZLE_STALE = N_("That puzzle is already answered or no longer exists: `/puzzle` gives you "
                  "another.")
PUZZLE_BAD_ANSWER = N_("That answer is not a move of this puzzle.")
PUZZLE_HEADER = N_("🧩 **{game} puzzle #{puzzle}** (from match #{match_id}) · your puzzle "
                   "rating {rating}")
PUZZLE_HEADER_CURATED = N_("🧩 **{game} puzzle #{puzzle}** · your puzzle rating {rating}")
# whose side the solver plays: the game's own seat title ("the first player"), then its number
PUZZLE_SIDE = N_("You play {seat} (seat {n}).")
PUZZLE_SIDE_PLAIN = N_("You play seat {n}.")
PUZZLE_GOAL = N_("Goal: {goal}")  # a sentence of games.puzzles.GOALS
PUZZLE_GOAL_BEST = N_("Find the best move.")  # a puzzle found before goals were stated
PUZZLE_SOLVED = N_("✅ Right: `{solution}`.")
PUZZLE_FAILED = N_("❌ Not quite: you played `{answer}`; the move was `{solution}`.")
PUZZLE_WHY_NOT = N_("Why not `{answer}`: {line}")  # the line of its refutation, in words
PUZZLE_POINT = N_("The point: {line}")  # the solution's line, in words
PUZZLE_GAINS = N_("`{answer}` gains {gain}; `{solution}` gains {best}.")  # goal "most"
PUZZLE_THEMES = N_("Themes: {themes}")
# a line in words, one ply each: "You play `a`, then they play `f`. They win."
PUZZLE_PLY_YOU = N_("you play `{move}`")
PUZZLE_PLY_THEY = N_("they play `{move}`")  # the one opponent of a two-seat game
PUZZLE_PLY_SEAT = N_("{seat} plays `{move}`")  # an opponent of a game of more seats
PUZZLE_PLY_CHANCE = N_("`{move}` comes up")  # a die roll or a draw in the line
PUZZLE_PLY_EFFECTS = N_(" ({effects})")  # after a ply: what it did (Game.move_gist)
PUZZLE_THEN = N_(", then ")
PUZZLE_LINE = N_("{plies}.")  # the plies of a line, joined by PUZZLE_THEN
PUZZLE_LINE_ENDS = N_("{line} {end}")  # the line, then how the game ends (PUZZLE_END_…)
PUZZLE_END_YOU = N_("You win.")
PUZZLE_END_THEY = N_("They win.")
PUZZLE_END_SEAT = N_("{seat} wins.")
PUZZLE_END_DRAW = N_("A draw.")
PUZZLE_END_NO_WIN = N_("No win this turn.")  # a wrong answer's line to a "win" puzzle
PUZZLE_RATING_SWING = N_("Puzzle rating {before} → {after} ({change})")

# -- play without sight: the text board (/board text:True, Describe), /board at:, /last and
# /clocks (bot/textboard.py); plain sentences, essentials first, no emoji, for screen readers
BUTTON_DESCRIBE = N_("Describe")
TEXT_RESULT = N_("The game is over: {result}.")
TEXT_YOUR_TURN = N_("Your turn.")
TEXT_YOUR_TURN_NOTE = N_("Your turn ({note}).")
TEXT_TO_MOVE = N_("{name} to move.")
TEXT_TO_MOVE_NOTE = N_("{name} to move ({note}).")
TEXT_ROLL_DUE = N_("A die roll is due.")
TEXT_LAST_MOVE = N_("Last move: {line}")
TEXT_NO_MOVE_YET = N_("No move yet.")
TEXT_YOUR_VIEW = N_("The board as you see it (only you get this answer):")
TEXT_PUBLIC_VIEW = N_("The board as everyone sees it:")
TEXT_HOW_TO_MOVE = NP_("Your move: `/move` with one legal move, e.g. {examples}.",
                       "Your move: `/move` with one of {n} legal moves, e.g. {examples}; the "
                       "list shows them all as you type.")
POINT_LINE = N_("Match #{match_id}, move {ply}: {point}")
LAST_HEADER = N_("Last moves in match #{match_id} ({game}), newest first:")
LAST_LINE = N_("{line}, {ago}")
LAST_NONE_YET = N_("{name}: no move yet.")
CLOCKS_HEADER = N_("Clocks of match #{match_id} ({game}):")
CLOCKS_NONE = N_("Match #{match_id} has no clock: moves have no time limit.")
CLOCKS_PER_MOVE = N_("Each move must be made within {time} of the turn's start.")
CLOCKS_NOT_STARTED = N_("The match has not started: no clock runs yet.")
CLOCKS_OVER = N_("The match is over: no clock runs.")
CLOCKS_MOVER = N_("{name} is to move: {left} left, until {relative} ({absolute}).")
CLOCKS_MOVER_VACATION = N_("{name} is to move but on vacation until {until}: the clock is "
                           "paused with {left} left.")
CLOCKS_MOVER_OUT = N_("{name} is to move and out of time since {relative}: the opponent may "
                      "claim the win.")
CLOCKS_AI = N_("{name} is to move: the AI is not timed.")
CLOCKS_ROLL = N_("A die roll is due: no clock runs.")
CLOCKS_WAITING = N_("{name} waits: their clock starts with their turn.")
CLOCKS_WAITING_VACATION = N_("{name} waits, on vacation until {until}.")

# -- alt text of pictures (what a screen reader says instead of the picture) --------------------
ALT_REPLAY = N_("Animation of match #{match_id} of {game}: the board after each move, "
                "{moves} in all.")
ALT_RATING = N_("Rating of {name} in {game} over {games}: from {first} to {last}, highest "
                "{high}, lowest {low}.")
ALT_ANALYSIS_CHART = N_("Chart of each player's chance to win after every move of match "
                        "#{match_id}: {chances}.")
ALT_ANALYSIS_CHANCE = N_("{name} from {start} to {end}")  # one seat's chance, start to end
ALT_ANALYSIS_SWING = N_("Swing {rank}, move {index}: the board after {name} played {move} "
                        "and the replies that punish it ({loss}), beside the board after the "
                        "better move {best}.")
ALT_STANDINGS = N_("Standings of {name}: {rows}.")
ALT_STANDING_ROW = N_("{rank}. {player}, {points} points")
ALT_BRACKET = N_("Knockout bracket of {name}: {ties}.")
ALT_BRACKET_WON = N_("{winner} beat {loser}")
ALT_BRACKET_OPEN = N_("{first} against {second}")
ALT_QUEUE = N_("{heading} {pairs}")  # the queue picture: its heading, then each pair's caption
