-- Lead changes and comebacks from each game's `score` metric (positive: the first side
-- leads). A comeback: the winner trailed at some point.
-- params: ruleset = NULL, version = NULL
WITH score AS (
    SELECT s.match_id, s.seq, s.value, sign(s.value) AS lead
    FROM steps s JOIN matches m USING (match_id)
    WHERE s.metric = 'score' AND ($ruleset IS NULL OR m.ruleset = $ruleset) AND ($version IS NULL OR m.version = $version)
),
leads AS (
    SELECT match_id, lead, lag(lead) OVER (PARTITION BY match_id ORDER BY seq) AS before
    FROM score WHERE lead <> 0
),
per_match AS (
    SELECT m.match_id, m.ruleset, m.version, m.winner,
           coalesce((SELECT count(*) FROM leads l WHERE l.match_id = m.match_id AND l.before IS NOT NULL AND l.before <> l.lead), 0) AS lead_changes,
           (SELECT min(value) FROM score s WHERE s.match_id = m.match_id) AS low,
           (SELECT max(value) FROM score s WHERE s.match_id = m.match_id) AS high,
           (SELECT side FROM seats WHERE seats.match_id = m.match_id ORDER BY seat_order LIMIT 1) AS first_listed
    FROM matches m
    WHERE m.finished AND ($ruleset IS NULL OR m.ruleset = $ruleset) AND ($version IS NULL OR m.version = $version)
)
SELECT ruleset, version, count(*) AS matches,
       round(avg(lead_changes), 2) AS mean_lead_changes,
       count(*) FILTER (WHERE lead_changes > 0) AS matches_with_lead_change,
       count(*) FILTER (WHERE (winner = first_listed AND low < 0) OR (winner <> first_listed AND high > 0)) AS comebacks
FROM per_match GROUP BY ALL ORDER BY ruleset, version
