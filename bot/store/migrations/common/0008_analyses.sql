-- Post-game analyses (issue 30): one row per finished match, the durable job and its result.
-- A second request finds the row (the primary key) and never starts a second analysis. The
-- job's progress is its `judged` list (one judgement per position, JSON), saved after every
-- position: a job cut short by a crash resumes where it stopped. `served_at` is when a worker
-- last took a slice of it: servers whose jobs were served longest ago go first (fairness).
-- `token`/`token_expires`: the reply of the request that queued it, edited to show progress
-- while Discord keeps the token (15 minutes), in the language of the one who asked.
CREATE TABLE analyses (
    match_id BIGINT PRIMARY KEY REFERENCES matches (id),
    guild_id BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done', 'failed')),
    level TEXT NOT NULL,
    total INTEGER NOT NULL,
    judged TEXT NOT NULL DEFAULT '[]',
    result TEXT,
    channel_id BIGINT NOT NULL,
    token TEXT,
    token_expires DOUBLE PRECISION,
    language TEXT,
    requested_by BIGINT NOT NULL,
    requested_at DOUBLE PRECISION NOT NULL,
    served_at DOUBLE PRECISION,
    claimed_by TEXT,
    claimed_until DOUBLE PRECISION,
    attempts INTEGER NOT NULL DEFAULT 0,
    finished_at DOUBLE PRECISION,
    error TEXT
);
CREATE INDEX analyses_queued ON analyses (guild_id, requested_at) WHERE status = 'queued';
