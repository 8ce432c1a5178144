-- Where Warcraft: Frontline's pushes stop, per version: how many matches ended with the
-- frontline at each position (grids from the middle; the sign says toward whose base),
-- from the last value of the `frontline` metric. For the Compare page's heatmaps.
-- params: version: text = NULL, bots: bool = NULL
WITH last AS (
    SELECT m.version, arg_max(s.value, s.seq) AS front
    FROM matches m JOIN steps s USING (match_id)
    WHERE m.ruleset = 'frontline' AND m.finished AND s.metric = 'frontline'
      AND ($version IS NULL OR m.version = $version) AND ($bots IS NULL OR (m.source = 'simulation') = $bots)
    GROUP BY m.match_id, m.version
)
SELECT version, 'frontline stopped' AS what, CAST(front AS INTEGER) AS front, count(*) AS times
FROM last GROUP BY ALL ORDER BY ALL
