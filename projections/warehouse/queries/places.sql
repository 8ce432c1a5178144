-- Where things happen on a game's board, per version: how often each kind of place (what
-- the game's rules report, e.g. Mercy Frontier's `mercenary died`) fell on each space,
-- leaving out what retracted events did. For the Compare page's heatmaps. bots: true bot
-- games, false human logs.
-- params: ruleset: text = NULL, version: text = NULL, bots: bool = NULL
SELECT m.ruleset, m.version, p.what, p.col, p.row, count(*) AS times
FROM places p
JOIN matches m USING (match_id)
JOIN events e ON e.match_id = p.match_id AND e.seq = p.seq
WHERE ($ruleset IS NULL OR m.ruleset = $ruleset) AND ($version IS NULL OR m.version = $version)
  AND ($bots IS NULL OR (m.source = 'simulation') = $bots) AND NOT e.voided
GROUP BY ALL ORDER BY ALL
