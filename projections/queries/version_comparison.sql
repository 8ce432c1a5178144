-- Version against version: for each measure, both means, the difference with a 95%
-- interval (Welch), the effect size (Cohen's d; for rates, Cohen's h) and whether the
-- interval excludes zero. Optionally only two simulation batches.
-- params: ruleset = 'mortalgate', a = '2.1', b = '2.5', source = NULL, batch_a = NULL, batch_b = NULL
WITH per_match AS (
    -- length and balance are measured on finished matches only (an unfinished one is cut
    -- short); decisiveness and violations on every match of the cohort
    SELECT m.version,
           CASE WHEN m.finished THEN m.events::DOUBLE END AS events,
           CASE WHEN m.finished THEN m.turns::DOUBLE END AS turns,
           (m.winner IS NOT NULL)::INTEGER::DOUBLE AS decided,
           CASE WHEN m.finished THEN (m.winner IS NOT NULL AND m.winner = m.first_side)::INTEGER::DOUBLE END AS first_side_won,
           m.violations::DOUBLE AS violations,
           CASE WHEN m.finished THEN coalesce((SELECT count(*) FROM (SELECT sign(value) AS lead, lag(sign(value)) OVER (ORDER BY seq) AS before
                     FROM steps s WHERE s.match_id = m.match_id AND s.metric = 'score' AND value <> 0)
                     WHERE before IS NOT NULL AND before <> lead), 0)::DOUBLE END AS lead_changes
    FROM matches m
    WHERE m.ruleset = $ruleset AND ($source IS NULL OR m.source = $source)
      AND ((m.version = $a AND ($batch_a IS NULL OR m.batch = $batch_a))
        OR (m.version = $b AND ($batch_b IS NULL OR m.batch = $batch_b)))
),
longform AS (
    SELECT version, measure, value FROM per_match
    UNPIVOT INCLUDE NULLS (value FOR measure IN (events, turns, decided, first_side_won, violations, lead_changes))
),
stats AS (
    SELECT measure,
           avg(value) FILTER (WHERE version = $a) AS mean_a, var_samp(value) FILTER (WHERE version = $a) AS var_a,
           count(value) FILTER (WHERE version = $a) AS n_a,
           avg(value) FILTER (WHERE version = $b) AS mean_b, var_samp(value) FILTER (WHERE version = $b) AS var_b,
           count(value) FILTER (WHERE version = $b) AS n_b
    FROM longform GROUP BY measure
)
SELECT measure, n_a, round(mean_a, 3) AS mean_a, n_b, round(mean_b, 3) AS mean_b,
       round(mean_b - mean_a, 3) AS difference,
       round(mean_b - mean_a - 1.96 * sqrt(var_a / n_a + var_b / n_b), 3) AS low95,
       round(mean_b - mean_a + 1.96 * sqrt(var_a / n_a + var_b / n_b), 3) AS high95,
       round(CASE WHEN measure IN ('first_side_won', 'decided')
                  THEN 2 * asin(sqrt(mean_b)) - 2 * asin(sqrt(mean_a))
                  ELSE (mean_b - mean_a) / nullif(sqrt(((n_a - 1) * var_a + (n_b - 1) * var_b) / (n_a + n_b - 2)), 0) END, 3) AS effect_size,
       CASE WHEN mean_b - mean_a - 1.96 * sqrt(var_a / n_a + var_b / n_b) > 0
              OR mean_b - mean_a + 1.96 * sqrt(var_a / n_a + var_b / n_b) < 0
            THEN 'yes' ELSE 'no' END AS significant
FROM stats ORDER BY measure
