-- Delivery and scale: an outbox written in the same transaction as every change, the messages
-- whose components are live, indexed clock columns (nothing is decoded to find what is due),
-- interaction ids on log entries (a replayed interaction is recognised), per-user notification
-- choices and DM channels, and a small key-value table (the command set's hash).
ALTER TABLE matches ADD COLUMN parent_channel_id INTEGER;
ALTER TABLE matches ADD COLUMN waiting_on INTEGER;
ALTER TABLE matches ADD COLUMN next_check_at REAL;
ALTER TABLE matches ADD COLUMN board_version INTEGER;
ALTER TABLE matches ADD COLUMN finished_at REAL;
CREATE INDEX matches_due ON matches (next_check_at) WHERE status = 'active';
CREATE INDEX matches_waiting_on ON matches (waiting_on) WHERE status = 'active';
CREATE INDEX matches_by_host ON matches (host_id, status);
CREATE INDEX matches_finished ON matches (finished_at) WHERE status = 'finished';
ALTER TABLE moves ADD COLUMN interaction_id INTEGER;
CREATE UNIQUE INDEX moves_by_interaction ON moves (interaction_id)
    WHERE interaction_id IS NOT NULL;
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lane TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL NOT NULL,
    claimed_by TEXT,
    claimed_until REAL,
    created_at REAL NOT NULL,
    done_at REAL,
    result TEXT,
    error TEXT
);
CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX outbox_lane ON outbox (lane, id) WHERE status = 'pending';
CREATE INDEX outbox_done ON outbox (done_at) WHERE status <> 'pending';
CREATE TABLE live_messages (
    message_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    kind TEXT NOT NULL,
    version INTEGER NOT NULL,
    offer_id INTEGER,
    created_at REAL NOT NULL
);
CREATE INDEX live_messages_by_match ON live_messages (match_id, version);
ALTER TABLE offers ADD COLUMN answered_by INTEGER;
ALTER TABLE users ADD COLUMN notify TEXT NOT NULL DEFAULT 'channel'
    CHECK (notify IN ('channel', 'dm', 'both'));
ALTER TABLE users ADD COLUMN dm_channel_id INTEGER;
ALTER TABLE users ADD COLUMN dm_closed_at REAL;
ALTER TABLE users ADD COLUMN next_digest_at REAL;
UPDATE users SET next_digest_at = COALESCE(last_digest_at + 86400, 0) WHERE reminders = 'digest';
CREATE INDEX users_digest_due ON users (next_digest_at) WHERE reminders = 'digest';
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
