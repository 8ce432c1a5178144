-- Where the game drags: median and 90th percentile seconds per turn and per phase, from
-- the recorded times. Human logs only: bot games play on a simulated clock, so they are
-- left out whatever the source asked for.
-- params: ruleset: text = NULL, source: text = 'playtest'
WITH timed AS (
    SELECT e.match_id, m.ruleset, m.version, e.turn, e.phase,
           epoch(lead(e.recorded_at) OVER (PARTITION BY e.match_id ORDER BY e.seq) - e.recorded_at) AS seconds
    FROM events e JOIN matches m USING (match_id)
    WHERE NOT e.voided AND m.source <> 'simulation' AND ($ruleset IS NULL OR m.ruleset = $ruleset) AND ($source IS NULL OR m.source = $source)
),
turns AS (
    SELECT ruleset, version, match_id, turn, sum(seconds) AS seconds FROM timed WHERE turn > 0 GROUP BY ALL
)
SELECT ruleset, version, 'turn' AS unit, NULL AS phase, count(*) AS samples,
       round(median(seconds), 1) AS median_s, round(quantile_cont(seconds, 0.9), 1) AS p90_s
FROM turns GROUP BY ALL
UNION ALL
SELECT ruleset, version, 'phase' AS unit, coalesce(phase, '(none)') AS phase, count(*) AS samples,
       round(median(seconds), 1) AS median_s, round(quantile_cont(seconds, 0.9), 1) AS p90_s
FROM timed WHERE seconds IS NOT NULL GROUP BY ALL
ORDER BY ruleset, version, unit DESC, phase
