-- The outbox's pending rows in id order, for the worker's "head of every lane that is due"
-- (`Store.pending_outbox`, several times a second under load). Without it the query walked the
-- whole outbox in id order, the delivered rows too (they are kept seven days): its cost grew
-- with every row delivered, 0.3 ms at the start of a benchmark run and 0.9 ms three minutes
-- later (bench/web_load.py), and a busy week's outbox would take most of the bot's time.
CREATE INDEX outbox_pending ON outbox (id) WHERE status = 'pending';
