-- Pick rate and win rate of each hero, unit or faction (from each game's roster), with a
-- 95% Wilson interval on the win rate. What-if branches only with branches = true.
-- params: ruleset: text = NULL, version: text = NULL, branches: bool = false
WITH finished AS (
    SELECT * FROM matches
    WHERE finished AND NOT draw AND ($branches OR branch_of IS NULL) AND ($ruleset IS NULL OR ruleset = $ruleset) AND ($version IS NULL OR version = $version)
),
picks AS (
    SELECT f.ruleset, f.version, r.piece, r.side = f.winner AS won
    FROM rosters r JOIN finished f USING (match_id)
),
counted AS (
    SELECT p.ruleset, p.version, p.piece, count(*) AS n, count(*) FILTER (WHERE won) AS wins,
           (SELECT count(*) FROM finished f WHERE f.ruleset = p.ruleset AND f.version = p.version) AS games
    FROM picks p GROUP BY ALL
)
SELECT ruleset, version, piece, n AS picks, round(n / games, 3) AS picks_per_match, wins,
       round(wins / n, 3) AS win_rate,
       round((wins / n + 1.96 ^ 2 / (2 * n) - 1.96 * sqrt(wins / n * (1 - wins / n) / n + 1.96 ^ 2 / (4 * n ^ 2))) / (1 + 1.96 ^ 2 / n), 3) AS low95,
       round((wins / n + 1.96 ^ 2 / (2 * n) + 1.96 * sqrt(wins / n * (1 - wins / n) / n + 1.96 ^ 2 / (4 * n ^ 2))) / (1 + 1.96 ^ 2 / n), 3) AS high95
FROM counted ORDER BY ruleset, version, win_rate DESC
