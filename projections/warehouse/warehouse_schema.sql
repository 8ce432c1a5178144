-- The warehouse: every logged match as tables. Rebuilt from the logs at any time;
-- never the source of truth.
CREATE TABLE IF NOT EXISTS matches (
    match_id VARCHAR PRIMARY KEY,
    ruleset VARCHAR, version VARCHAR, base_version VARCHAR, source VARCHAR, title VARCHAR,
    batch VARCHAR,                   -- the simulation batch holding the log, if any
    seed BIGINT, fingerprint VARCHAR, seat_count INTEGER,
    started_at TIMESTAMPTZ, ended_at TIMESTAMPTZ,
    events INTEGER, turns INTEGER, rounds INTEGER,
    first_side VARCHAR,              -- the side that took the first turn
    finished BOOLEAN, winner VARCHAR, draw BOOLEAN, win_reason VARCHAR, win_rule VARCHAR,
    declared BOOLEAN, declared_winner VARCHAR, declared_draw BOOLEAN, result_agrees BOOLEAN,
    violations INTEGER,              -- errors, after retractions and rulings
    synced_at TIMESTAMPTZ
);
-- A what-if branch names the match it left (MatchStarted.branch_of); win rates and balance
-- verdicts leave branches out unless asked. Added to a warehouse made before it.
ALTER TABLE matches ADD COLUMN IF NOT EXISTS branch_of VARCHAR;
CREATE TABLE IF NOT EXISTS seats (
    match_id VARCHAR, seat VARCHAR, player VARCHAR, side VARCHAR, seat_order INTEGER
);
CREATE TABLE IF NOT EXISTS rosters (
    match_id VARCHAR, side VARCHAR, piece VARCHAR
);
CREATE TABLE IF NOT EXISTS events (
    match_id VARCHAR, seq INTEGER, type VARCHAR, seat VARCHAR, recorded_at TIMESTAMPTZ,  -- seat: who did it (by)
    turn INTEGER, round INTEGER, phase VARCHAR, actor VARCHAR, voided BOOLEAN
);                                   -- the line itself stays in the log (`tabletape export`, the Parquet export)
-- A store synced before the line was left out: its copy of every line goes, once.
ALTER TABLE events DROP COLUMN IF EXISTS detail;
CREATE TABLE IF NOT EXISTS steps (   -- per-step metrics in long form, one row per change
    match_id VARCHAR, seq INTEGER, metric VARCHAR, value DOUBLE
);
CREATE TABLE IF NOT EXISTS places (  -- where on the board an event made something happen (Ruleset.places)
    match_id VARCHAR, seq INTEGER, what VARCHAR, col INTEGER, row INTEGER
);
CREATE TABLE IF NOT EXISTS violations (
    match_id VARCHAR, seq INTEGER, rule VARCHAR, severity VARCHAR, message VARCHAR
);
CREATE TABLE IF NOT EXISTS notes (
    match_id VARCHAR, note_id VARCHAR, from_seq INTEGER, to_seq INTEGER, author VARCHAR,
    text VARCHAR, tags VARCHAR[], rule VARCHAR, removed BOOLEAN, replies INTEGER,
    created_at TIMESTAMPTZ
);
CREATE TABLE IF NOT EXISTS checkpoints (  -- where each match's projection stands
    match_id VARCHAR PRIMARY KEY, last_seq INTEGER, last_hash VARCHAR, inode BIGINT,
    fingerprint VARCHAR, state BLOB, metrics VARCHAR, first_side VARCHAR,
    declared VARCHAR, errors INTEGER
);
CREATE TABLE IF NOT EXISTS note_checkpoints (
    match_id VARCHAR PRIMARY KEY, notes_seq INTEGER
);
-- One row per match with what the balance verdicts (projections/stats/verdicts.py) count: result,
-- length, sides and picks, lead changes, whether the winner came back from behind at half
-- time (both NULL for a game that gives no `score` metric: nothing to read them from, not
-- none), rules broken, and (human logs only; bots play on a simulated clock) the median
-- seconds per turn. A view, so it is always as fresh as the tables.
CREATE OR REPLACE VIEW match_outcomes AS
WITH score AS (
    SELECT match_id, seq, value, sign(value) AS lead FROM steps WHERE metric = 'score'
),
scored AS (
    SELECT DISTINCT match_id, true AS has_score FROM score
),
changes AS (
    SELECT match_id, count(*) AS lead_changes
    FROM (SELECT match_id, lead, lag(lead) OVER (PARTITION BY match_id ORDER BY seq) AS before
          FROM score WHERE lead <> 0)
    WHERE before <> lead GROUP BY match_id
),
half AS (
    SELECT m.match_id, arg_max(s.value, s.seq) AS score_at_half
    FROM matches m JOIN score s ON s.match_id = m.match_id AND s.seq <= m.events // 2
    GROUP BY m.match_id
),
sides AS (
    SELECT match_id, arg_min(side, seat_order) AS first_listed, list(DISTINCT side ORDER BY side) AS sides
    FROM seats GROUP BY match_id
),
picks AS (
    SELECT match_id, list({'side': side, 'piece': piece} ORDER BY side, piece) AS picks FROM rosters GROUP BY match_id
),
broken AS (
    SELECT match_id, list(rule ORDER BY seq) AS broken FROM violations WHERE severity = 'error' GROUP BY match_id
),
timed AS (
    SELECT e.match_id, e.turn,
           epoch(lead(e.recorded_at) OVER (PARTITION BY e.match_id ORDER BY e.seq) - e.recorded_at) AS seconds
    FROM events e JOIN matches m USING (match_id)
    WHERE NOT e.voided AND m.source <> 'simulation'
),
turn_seconds AS (
    SELECT match_id, median(seconds) AS median_turn_seconds
    FROM (SELECT match_id, turn, sum(seconds) AS seconds FROM timed WHERE turn > 0 GROUP BY ALL)
    WHERE seconds IS NOT NULL GROUP BY match_id
)
SELECT m.match_id, m.ruleset, m.version, m.source, m.batch, m.branch_of, m.seed, m.finished, m.draw, m.winner,
       m.first_side, s.first_listed, s.sides, coalesce(p.picks, []) AS picks, m.turns, m.events, m.violations,
       CASE WHEN sc.has_score THEN coalesce(c.lead_changes, 0) END AS lead_changes,
       CASE WHEN sc.has_score THEN coalesce(m.winner IS NOT NULL AND ((m.winner = s.first_listed AND h.score_at_half < 0)
                                          OR (m.winner <> s.first_listed AND h.score_at_half > 0)), false) END AS comeback,
       coalesce(b.broken, []) AS broken, t.median_turn_seconds
FROM matches m
LEFT JOIN sides s USING (match_id) LEFT JOIN picks p USING (match_id) LEFT JOIN changes c USING (match_id)
LEFT JOIN half h USING (match_id) LEFT JOIN broken b USING (match_id) LEFT JOIN turn_seconds t USING (match_id)
LEFT JOIN scored sc USING (match_id);
