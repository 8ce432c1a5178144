-- Win rate of each side (team or seat) with a 95% Wilson interval, and of whoever took
-- the first turn: does the first player win too often? What-if branches only with branches = true.
-- params: ruleset: text = NULL, version: text = NULL, branches: bool = false
WITH finished AS (
    SELECT * FROM matches
    WHERE finished AND ($branches OR branch_of IS NULL) AND ($ruleset IS NULL OR ruleset = $ruleset) AND ($version IS NULL OR version = $version)
),
sides AS (
    SELECT f.ruleset, f.version, s.side AS side, f.winner = s.side AS won
    FROM finished f JOIN (SELECT DISTINCT match_id, side FROM seats) s USING (match_id)
    UNION ALL
    SELECT ruleset, version, '(first turn)' AS side, winner = first_side AS won FROM finished WHERE first_side IS NOT NULL
),
counted AS (
    SELECT ruleset, version, side, count(*) AS n, count(*) FILTER (WHERE won) AS wins FROM sides GROUP BY ALL
)
SELECT ruleset, version, side, n AS matches, wins, round(wins / n, 3) AS win_rate,
       round((wins / n + 1.96 ^ 2 / (2 * n) - 1.96 * sqrt(wins / n * (1 - wins / n) / n + 1.96 ^ 2 / (4 * n ^ 2))) / (1 + 1.96 ^ 2 / n), 3) AS low95,
       round((wins / n + 1.96 ^ 2 / (2 * n) + 1.96 * sqrt(wins / n * (1 - wins / n) / n + 1.96 ^ 2 / (4 * n ^ 2))) / (1 + 1.96 ^ 2 / n), 3) AS high95
FROM counted
ORDER BY ruleset, version, side
