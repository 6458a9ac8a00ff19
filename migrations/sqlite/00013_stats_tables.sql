-- Player statistics kept as the games are played (SQLite), so that a
-- statistics request reads a few rows instead of every game.
--
-- solo_results: one row per played solo game (one with an action at
-- least): its player, mode (the draw and the scoring letter of its code),
-- start, whether it is won, whether its log holds an undo or a finish
-- (undone), whether it was helped (undone, a hint given or the live check
-- on: a win so helped is assisted). solo_figures: the same game's last
-- action's tally (last_seq, score, moves, play_ms), with its player, mode,
-- since and won for its indexes; apart, so that an action, which changes
-- only the tally, writes a narrow row and the one index of a tally that
-- changes with every action (the score's).
-- since is the reset point under which the game counts: the player's
-- stats_since (-9223372036854775807, minus infinity, when they never reset)
-- when the game was started after it, NULL when before. A game counts while
-- its since is the player's current reset point, so a reset re-marks only
-- the games started after its new point (usually none) and leaves the rest.
-- run_before, of an unwon game that counts: the wins of its mode, in the
-- order the games were started, since the unwon game before it (the run of
-- wins it ended). solo_totals holds, per player and mode, the counts of the
-- games that count and tail, the wins after the last unwon game; so the
-- best streak is the largest run_before or tail, and the current streak
-- the tail, or the latest game's run_before while it is unwon.
--
-- race_totals: per player, their races over with a result that count
-- (started after the player's reset point), by outcome for the player's
-- seat, and the same of those against the bot. A reset counts the player's
-- races again: those started after its new point, an index range.
--
-- The triggers keep the tables up to date in the transaction of every
-- write: the actions' insert (a game played, its tally, an undo), the
-- games' status (a win, a race's end), result, seats, hints and checked,
-- their insert and deletion, a reset (players.stats_since) and a player's
-- deletion. A game whose win changes is taken out and put back
-- (solo_results_removed, solo_results_added), which join or split the runs
-- on either side of it by index seeks; so is a race whose end changes.

-- +goose Up
CREATE TABLE solo_results (
    game_id    TEXT    NOT NULL PRIMARY KEY,
    player_id  TEXT    NOT NULL,
    draw       INTEGER NOT NULL,
    scoring    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    since      INTEGER,
    won        INTEGER NOT NULL,
    undone     INTEGER NOT NULL,
    helped     INTEGER NOT NULL,
    run_before INTEGER
) WITHOUT ROWID;

CREATE TABLE solo_figures (
    game_id   TEXT    NOT NULL PRIMARY KEY,
    player_id TEXT    NOT NULL,
    draw      INTEGER NOT NULL,
    scoring   TEXT    NOT NULL,
    since     INTEGER,
    won       INTEGER NOT NULL,
    last_seq  INTEGER NOT NULL,
    score     INTEGER,
    moves     INTEGER,
    play_ms   INTEGER
) WITHOUT ROWID;

CREATE TABLE solo_totals (
    player_id TEXT    NOT NULL,
    draw      INTEGER NOT NULL,
    scoring   TEXT    NOT NULL,
    played    INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    assisted  INTEGER NOT NULL,
    tail      INTEGER NOT NULL,
    PRIMARY KEY (player_id, draw, scoring)
) WITHOUT ROWID;

-- The games played so far, and their last actions' tallies.
INSERT INTO solo_results (game_id, player_id, draw, scoring, created_at, since, won, undone, helped)
SELECT g.id, g.seat1, CAST(substr(g.code, 6, 1) AS INTEGER), substr(g.code, 7, 1), g.created_at,
    CASE WHEN g.created_at > COALESCE(p.stats_since, -9223372036854775807) THEN COALESCE(p.stats_since, -9223372036854775807) END,
    g.status = 'won',
    EXISTS (SELECT 1 FROM actions AS x WHERE x.game_id = g.id AND x.action IN ('{"type":"undo"}', '{"type":"finish"}')),
    g.hints > 0 OR g.checked OR EXISTS (SELECT 1 FROM actions AS x WHERE x.game_id = g.id AND x.action IN ('{"type":"undo"}', '{"type":"finish"}'))
FROM games AS g
JOIN players AS p ON p.id = g.seat1
WHERE g.kind = 'solo' AND EXISTS (SELECT 1 FROM actions AS a WHERE a.game_id = g.id);

INSERT INTO solo_figures (game_id, player_id, draw, scoring, since, won, last_seq, score, moves, play_ms)
SELECT r.game_id, r.player_id, r.draw, r.scoring, r.since, r.won, a.seq, a.score, a.moves, a.play_ms
FROM solo_results AS r
JOIN actions AS a ON a.game_id = r.game_id AND a.seq = (SELECT MAX(m.seq) FROM actions AS m WHERE m.game_id = r.game_id);

-- Each unwon game's run: the wins up to it less the wins up to the unwon
-- game before it.
UPDATE solo_results SET run_before = r.n FROM (
    SELECT u.game_id, u.wins - COALESCE(LAG(u.wins) OVER (PARTITION BY u.player_id, u.draw, u.scoring ORDER BY u.created_at, u.game_id), 0) AS n
    FROM (
        SELECT w.game_id, w.player_id, w.draw, w.scoring, w.created_at, w.won,
            SUM(w.won) OVER (PARTITION BY w.player_id, w.draw, w.scoring ORDER BY w.created_at, w.game_id ROWS UNBOUNDED PRECEDING) AS wins
        FROM solo_results AS w WHERE w.since IS NOT NULL
    ) AS u
    WHERE u.won = 0
) AS r
WHERE solo_results.game_id = r.game_id;

INSERT INTO solo_totals (player_id, draw, scoring, played, won, assisted, tail)
SELECT player_id, draw, scoring, COUNT(*), SUM(won), SUM(won * helped), SUM(won) - COALESCE(SUM(run_before), 0)
FROM solo_results WHERE since IS NOT NULL
GROUP BY player_id, draw, scoring;

CREATE TABLE race_totals (
    player_id  TEXT    NOT NULL PRIMARY KEY,
    played     INTEGER NOT NULL,
    won        INTEGER NOT NULL,
    lost       INTEGER NOT NULL,
    drawn      INTEGER NOT NULL,
    bot_played INTEGER NOT NULL,
    bot_won    INTEGER NOT NULL,
    bot_lost   INTEGER NOT NULL,
    bot_drawn  INTEGER NOT NULL
) WITHOUT ROWID;

-- The races finished so far, each for both its seats (once when a player
-- holds both).
INSERT INTO race_totals (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
SELECT c.player_id, COUNT(*), SUM(c.w), SUM(c.l), SUM(c.d), SUM(c.b), SUM(c.b * c.w), SUM(c.b * c.l), SUM(c.b * c.d)
FROM (
    SELECT s.player_id,
        CASE WHEN json_extract(s.result, '$.winner') = s.seat THEN 1 ELSE 0 END AS w,
        CASE WHEN json_extract(s.result, '$.winner') <> s.seat THEN 1 ELSE 0 END AS l,
        CASE WHEN json_extract(s.result, '$.winner') IS NULL THEN 1 ELSE 0 END AS d,
        CASE WHEN s.seat1 = 'bot' OR s.seat2 = 'bot' THEN 1 ELSE 0 END AS b
    FROM (
        SELECT g.seat1 AS player_id, 1 AS seat, g.result, g.seat1, g.seat2, g.created_at FROM games AS g
        WHERE g.kind = 'race' AND g.status = 'over' AND g.result IS NOT NULL
        UNION ALL
        SELECT g.seat2, 2, g.result, g.seat1, g.seat2, g.created_at FROM games AS g
        WHERE g.kind = 'race' AND g.status = 'over' AND g.result IS NOT NULL AND g.seat2 <> g.seat1
    ) AS s
    JOIN players AS p ON p.id = s.player_id
    WHERE s.created_at > COALESCE(p.stats_since, -9223372036854775807)
) AS c
GROUP BY c.player_id;

-- A mode's games in the order they were started (the latest, the recent
-- ones, the wins between two unwon games), its unwon games in that order
-- (the unwon game before or after a game), the runs (the best streak), and
-- the best score, the fastest win and the fewest moves of a win.
CREATE INDEX solo_results_games ON solo_results (player_id, since, draw, scoring, created_at, game_id);
CREATE INDEX solo_results_unwon ON solo_results (player_id, since, draw, scoring, created_at, game_id) WHERE won = 0;
CREATE INDEX solo_results_runs ON solo_results (player_id, since, draw, scoring, run_before) WHERE won = 0;
CREATE INDEX solo_figures_score ON solo_figures (player_id, since, draw, scoring, score);
CREATE INDEX solo_figures_play ON solo_figures (player_id, since, draw, scoring, play_ms) WHERE won = 1;
CREATE INDEX solo_figures_moves ON solo_figures (player_id, since, draw, scoring, moves) WHERE won = 1;

-- A game that counts joins its mode's figures; an unwon one ends the run it
-- falls in (its run_before is the wins since the unwon game before it, which
-- the run after it loses), a won one adds to the run after it (the next
-- unwon game's run_before, else the tail).
-- +goose StatementBegin
CREATE TRIGGER solo_results_added AFTER INSERT ON solo_results
WHEN NEW.since = (SELECT COALESCE(p.stats_since, -9223372036854775807) FROM players AS p WHERE p.id = NEW.player_id)
BEGIN
    INSERT INTO solo_totals (player_id, draw, scoring, played, won, assisted, tail)
    VALUES (NEW.player_id, NEW.draw, NEW.scoring, 1, NEW.won, NEW.won * NEW.helped, 0)
    ON CONFLICT (player_id, draw, scoring) DO UPDATE
    SET played = played + 1, won = won + excluded.won, assisted = assisted + excluded.assisted;
    UPDATE solo_results SET run_before = (
        SELECT COUNT(*) FROM solo_results AS w
        WHERE w.player_id = NEW.player_id AND w.since = NEW.since AND w.draw = NEW.draw AND w.scoring = NEW.scoring
            AND (w.created_at, w.game_id) < (NEW.created_at, NEW.game_id)
            AND (w.created_at, w.game_id) > (
                COALESCE((SELECT u.created_at FROM solo_results AS u
                    WHERE u.player_id = NEW.player_id AND u.since = NEW.since AND u.draw = NEW.draw AND u.scoring = NEW.scoring
                        AND u.won = 0 AND (u.created_at, u.game_id) < (NEW.created_at, NEW.game_id)
                    ORDER BY u.created_at DESC, u.game_id DESC LIMIT 1), -9223372036854775807),
                COALESCE((SELECT u.game_id FROM solo_results AS u
                    WHERE u.player_id = NEW.player_id AND u.since = NEW.since AND u.draw = NEW.draw AND u.scoring = NEW.scoring
                        AND u.won = 0 AND (u.created_at, u.game_id) < (NEW.created_at, NEW.game_id)
                    ORDER BY u.created_at DESC, u.game_id DESC LIMIT 1), ''))
    )
    WHERE game_id = NEW.game_id AND NEW.won = 0;
    UPDATE solo_results
    SET run_before = run_before + CASE WHEN NEW.won = 1 THEN 1 ELSE -(SELECT s.run_before FROM solo_results AS s WHERE s.game_id = NEW.game_id) END
    WHERE game_id = (SELECT n.game_id FROM solo_results AS n
        WHERE n.player_id = NEW.player_id AND n.since = NEW.since AND n.draw = NEW.draw AND n.scoring = NEW.scoring
            AND n.won = 0 AND (n.created_at, n.game_id) > (NEW.created_at, NEW.game_id)
        ORDER BY n.created_at, n.game_id LIMIT 1);
    UPDATE solo_totals
    SET tail = tail + CASE WHEN NEW.won = 1 THEN 1 ELSE -(SELECT s.run_before FROM solo_results AS s WHERE s.game_id = NEW.game_id) END
    WHERE player_id = NEW.player_id AND draw = NEW.draw AND scoring = NEW.scoring
        AND NOT EXISTS (SELECT 1 FROM solo_results AS n
            WHERE n.player_id = NEW.player_id AND n.since = NEW.since AND n.draw = NEW.draw AND n.scoring = NEW.scoring
                AND n.won = 0 AND (n.created_at, n.game_id) > (NEW.created_at, NEW.game_id));
END;
-- +goose StatementEnd

-- A game that counted leaves its mode's figures: an unwon one's run joins
-- the run after it, a won one leaves it.
-- +goose StatementBegin
CREATE TRIGGER solo_results_removed AFTER DELETE ON solo_results
WHEN OLD.since = (SELECT COALESCE(p.stats_since, -9223372036854775807) FROM players AS p WHERE p.id = OLD.player_id)
BEGIN
    UPDATE solo_totals SET played = played - 1, won = won - OLD.won, assisted = assisted - OLD.won * OLD.helped
    WHERE player_id = OLD.player_id AND draw = OLD.draw AND scoring = OLD.scoring;
    UPDATE solo_results SET run_before = run_before + CASE WHEN OLD.won = 1 THEN -1 ELSE OLD.run_before END
    WHERE game_id = (SELECT n.game_id FROM solo_results AS n
        WHERE n.player_id = OLD.player_id AND n.since = OLD.since AND n.draw = OLD.draw AND n.scoring = OLD.scoring
            AND n.won = 0 AND (n.created_at, n.game_id) > (OLD.created_at, OLD.game_id)
        ORDER BY n.created_at, n.game_id LIMIT 1);
    UPDATE solo_totals SET tail = tail + CASE WHEN OLD.won = 1 THEN -1 ELSE OLD.run_before END
    WHERE player_id = OLD.player_id AND draw = OLD.draw AND scoring = OLD.scoring
        AND NOT EXISTS (SELECT 1 FROM solo_results AS n
            WHERE n.player_id = OLD.player_id AND n.since = OLD.since AND n.draw = OLD.draw AND n.scoring = OLD.scoring
                AND n.won = 0 AND (n.created_at, n.game_id) > (OLD.created_at, OLD.game_id));
    DELETE FROM solo_totals WHERE player_id = OLD.player_id AND draw = OLD.draw AND scoring = OLD.scoring AND played = 0;
END;
-- +goose StatementEnd

-- A win that counts becomes assisted (or no longer).
-- +goose StatementBegin
CREATE TRIGGER solo_results_helped AFTER UPDATE OF helped ON solo_results
WHEN NEW.won = 1 AND NEW.helped <> OLD.helped
    AND NEW.since = (SELECT COALESCE(p.stats_since, -9223372036854775807) FROM players AS p WHERE p.id = NEW.player_id)
BEGIN
    UPDATE solo_totals SET assisted = assisted + NEW.helped - OLD.helped
    WHERE player_id = NEW.player_id AND draw = NEW.draw AND scoring = NEW.scoring;
END;
-- +goose StatementEnd

-- Each action of a solo game: its figures are its latest action's; an undo
-- or a finish helps it; its first one makes it played (the rows are put
-- in, from its header). In any order: each trigger's work is there once.
-- +goose StatementBegin
CREATE TRIGGER actions_solo_figures AFTER INSERT ON actions
BEGIN
    UPDATE solo_figures SET
        last_seq = max(last_seq, NEW.seq),
        score = CASE WHEN NEW.seq > last_seq THEN NEW.score ELSE score END,
        moves = CASE WHEN NEW.seq > last_seq THEN NEW.moves ELSE moves END,
        play_ms = CASE WHEN NEW.seq > last_seq THEN NEW.play_ms ELSE play_ms END
    WHERE game_id = NEW.game_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER actions_solo_undone AFTER INSERT ON actions
WHEN NEW.action IN ('{"type":"undo"}', '{"type":"finish"}')
BEGIN
    UPDATE solo_results SET undone = 1, helped = 1 WHERE game_id = NEW.game_id AND undone = 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER actions_solo_played AFTER INSERT ON actions
WHEN NOT EXISTS (SELECT 1 FROM solo_results AS s WHERE s.game_id = NEW.game_id)
BEGIN
    INSERT INTO solo_results (game_id, player_id, draw, scoring, created_at, since, won, undone, helped)
    SELECT g.id, g.seat1, CAST(substr(g.code, 6, 1) AS INTEGER), substr(g.code, 7, 1), g.created_at,
        CASE WHEN g.created_at > COALESCE(p.stats_since, -9223372036854775807) THEN COALESCE(p.stats_since, -9223372036854775807) END,
        g.status = 'won', NEW.action IN ('{"type":"undo"}', '{"type":"finish"}'),
        NEW.action IN ('{"type":"undo"}', '{"type":"finish"}') OR g.hints > 0 OR g.checked
    FROM games AS g JOIN players AS p ON p.id = g.seat1
    WHERE g.id = NEW.game_id AND g.kind = 'solo';
    INSERT INTO solo_figures (game_id, player_id, draw, scoring, since, won, last_seq, score, moves, play_ms)
    SELECT r.game_id, r.player_id, r.draw, r.scoring, r.since, r.won, NEW.seq, NEW.score, NEW.moves, NEW.play_ms
    FROM solo_results AS r WHERE r.game_id = NEW.game_id;
END;
-- +goose StatementEnd

-- A solo game won (or no longer won), or handed to another player: taken
-- out and put back from its header and log.
-- +goose StatementBegin
CREATE TRIGGER games_solo_status AFTER UPDATE OF status, seat1 ON games
WHEN NEW.kind = 'solo' AND ((OLD.status = 'won') <> (NEW.status = 'won') OR OLD.seat1 <> NEW.seat1)
BEGIN
    DELETE FROM solo_figures WHERE game_id = NEW.id;
    DELETE FROM solo_results WHERE game_id = NEW.id;
    INSERT INTO solo_results (game_id, player_id, draw, scoring, created_at, since, won, undone, helped)
    SELECT g.id, g.seat1, CAST(substr(g.code, 6, 1) AS INTEGER), substr(g.code, 7, 1), g.created_at,
        CASE WHEN g.created_at > COALESCE(p.stats_since, -9223372036854775807) THEN COALESCE(p.stats_since, -9223372036854775807) END,
        g.status = 'won',
        EXISTS (SELECT 1 FROM actions AS x WHERE x.game_id = g.id AND x.action IN ('{"type":"undo"}', '{"type":"finish"}')),
        g.hints > 0 OR g.checked OR EXISTS (SELECT 1 FROM actions AS x WHERE x.game_id = g.id AND x.action IN ('{"type":"undo"}', '{"type":"finish"}'))
    FROM games AS g
    JOIN players AS p ON p.id = g.seat1
    WHERE g.id = NEW.id AND EXISTS (SELECT 1 FROM actions AS a WHERE a.game_id = g.id);
    INSERT INTO solo_figures (game_id, player_id, draw, scoring, since, won, last_seq, score, moves, play_ms)
    SELECT r.game_id, r.player_id, r.draw, r.scoring, r.since, r.won, a.seq, a.score, a.moves, a.play_ms
    FROM solo_results AS r
    JOIN actions AS a ON a.game_id = r.game_id AND a.seq = (SELECT MAX(m.seq) FROM actions AS m WHERE m.game_id = r.game_id)
    WHERE r.game_id = NEW.id;
END;
-- +goose StatementEnd

-- A hint given or the live check turned on.
-- +goose StatementBegin
CREATE TRIGGER games_solo_helped AFTER UPDATE OF hints, checked ON games
WHEN NEW.kind = 'solo' AND (NEW.hints > 0 OR NEW.checked) <> (OLD.hints > 0 OR OLD.checked)
BEGIN
    UPDATE solo_results SET helped = (undone OR NEW.hints > 0 OR NEW.checked) WHERE game_id = NEW.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_solo_deleted AFTER DELETE ON games WHEN OLD.kind = 'solo'
BEGIN
    DELETE FROM solo_figures WHERE game_id = OLD.id;
    DELETE FROM solo_results WHERE game_id = OLD.id;
END;
-- +goose StatementEnd

-- A race that ends adds to its players' totals; one whose end, result or
-- seats change is taken out as it was and put back as it is; one deleted
-- is taken out.
-- +goose StatementBegin
CREATE TRIGGER games_race_inserted AFTER INSERT ON games
WHEN NEW.kind = 'race' AND NEW.status = 'over' AND NEW.result IS NOT NULL
BEGIN
    INSERT INTO race_totals (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
    SELECT c.player_id, 1, c.w, c.l, c.d, c.b, c.b * c.w, c.b * c.l, c.b * c.d
    FROM (
        SELECT s.player_id,
            CASE WHEN json_extract(NEW.result, '$.winner') = s.seat THEN 1 ELSE 0 END AS w,
            CASE WHEN json_extract(NEW.result, '$.winner') <> s.seat THEN 1 ELSE 0 END AS l,
            CASE WHEN json_extract(NEW.result, '$.winner') IS NULL THEN 1 ELSE 0 END AS d,
            CASE WHEN NEW.seat1 = 'bot' OR NEW.seat2 = 'bot' THEN 1 ELSE 0 END AS b
        FROM (SELECT NEW.seat1 AS player_id, 1 AS seat UNION ALL SELECT NEW.seat2, 2 WHERE NEW.seat2 <> NEW.seat1) AS s
        JOIN players AS p ON p.id = s.player_id
        WHERE NEW.kind = 'race' AND NEW.status = 'over' AND NEW.result IS NOT NULL
            AND NEW.created_at > COALESCE(p.stats_since, -9223372036854775807)
    ) AS c
    WHERE true
    ON CONFLICT (player_id) DO UPDATE SET played = played + excluded.played, won = won + excluded.won,
        lost = lost + excluded.lost, drawn = drawn + excluded.drawn, bot_played = bot_played + excluded.bot_played,
        bot_won = bot_won + excluded.bot_won, bot_lost = bot_lost + excluded.bot_lost, bot_drawn = bot_drawn + excluded.bot_drawn;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_race_updated AFTER UPDATE OF status, result, seat1, seat2 ON games
WHEN NEW.kind = 'race' AND (OLD.status IS NOT NEW.status OR OLD.result IS NOT NEW.result
    OR OLD.seat1 IS NOT NEW.seat1 OR OLD.seat2 IS NOT NEW.seat2)
BEGIN
    INSERT INTO race_totals (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
    SELECT c.player_id, -1, -c.w, -c.l, -c.d, -c.b, -c.b * c.w, -c.b * c.l, -c.b * c.d
    FROM (
        SELECT s.player_id,
            CASE WHEN json_extract(OLD.result, '$.winner') = s.seat THEN 1 ELSE 0 END AS w,
            CASE WHEN json_extract(OLD.result, '$.winner') <> s.seat THEN 1 ELSE 0 END AS l,
            CASE WHEN json_extract(OLD.result, '$.winner') IS NULL THEN 1 ELSE 0 END AS d,
            CASE WHEN OLD.seat1 = 'bot' OR OLD.seat2 = 'bot' THEN 1 ELSE 0 END AS b
        FROM (SELECT OLD.seat1 AS player_id, 1 AS seat UNION ALL SELECT OLD.seat2, 2 WHERE OLD.seat2 <> OLD.seat1) AS s
        JOIN players AS p ON p.id = s.player_id
        WHERE OLD.kind = 'race' AND OLD.status = 'over' AND OLD.result IS NOT NULL
            AND OLD.created_at > COALESCE(p.stats_since, -9223372036854775807)
    ) AS c
    WHERE true
    ON CONFLICT (player_id) DO UPDATE SET played = played + excluded.played, won = won + excluded.won,
        lost = lost + excluded.lost, drawn = drawn + excluded.drawn, bot_played = bot_played + excluded.bot_played,
        bot_won = bot_won + excluded.bot_won, bot_lost = bot_lost + excluded.bot_lost, bot_drawn = bot_drawn + excluded.bot_drawn;
    INSERT INTO race_totals (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
    SELECT c.player_id, 1, c.w, c.l, c.d, c.b, c.b * c.w, c.b * c.l, c.b * c.d
    FROM (
        SELECT s.player_id,
            CASE WHEN json_extract(NEW.result, '$.winner') = s.seat THEN 1 ELSE 0 END AS w,
            CASE WHEN json_extract(NEW.result, '$.winner') <> s.seat THEN 1 ELSE 0 END AS l,
            CASE WHEN json_extract(NEW.result, '$.winner') IS NULL THEN 1 ELSE 0 END AS d,
            CASE WHEN NEW.seat1 = 'bot' OR NEW.seat2 = 'bot' THEN 1 ELSE 0 END AS b
        FROM (SELECT NEW.seat1 AS player_id, 1 AS seat UNION ALL SELECT NEW.seat2, 2 WHERE NEW.seat2 <> NEW.seat1) AS s
        JOIN players AS p ON p.id = s.player_id
        WHERE NEW.kind = 'race' AND NEW.status = 'over' AND NEW.result IS NOT NULL
            AND NEW.created_at > COALESCE(p.stats_since, -9223372036854775807)
    ) AS c
    WHERE true
    ON CONFLICT (player_id) DO UPDATE SET played = played + excluded.played, won = won + excluded.won,
        lost = lost + excluded.lost, drawn = drawn + excluded.drawn, bot_played = bot_played + excluded.bot_played,
        bot_won = bot_won + excluded.bot_won, bot_lost = bot_lost + excluded.bot_lost, bot_drawn = bot_drawn + excluded.bot_drawn;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER games_race_deleted AFTER DELETE ON games WHEN OLD.kind = 'race'
BEGIN
    INSERT INTO race_totals (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
    SELECT c.player_id, -1, -c.w, -c.l, -c.d, -c.b, -c.b * c.w, -c.b * c.l, -c.b * c.d
    FROM (
        SELECT s.player_id,
            CASE WHEN json_extract(OLD.result, '$.winner') = s.seat THEN 1 ELSE 0 END AS w,
            CASE WHEN json_extract(OLD.result, '$.winner') <> s.seat THEN 1 ELSE 0 END AS l,
            CASE WHEN json_extract(OLD.result, '$.winner') IS NULL THEN 1 ELSE 0 END AS d,
            CASE WHEN OLD.seat1 = 'bot' OR OLD.seat2 = 'bot' THEN 1 ELSE 0 END AS b
        FROM (SELECT OLD.seat1 AS player_id, 1 AS seat UNION ALL SELECT OLD.seat2, 2 WHERE OLD.seat2 <> OLD.seat1) AS s
        JOIN players AS p ON p.id = s.player_id
        WHERE OLD.kind = 'race' AND OLD.status = 'over' AND OLD.result IS NOT NULL
            AND OLD.created_at > COALESCE(p.stats_since, -9223372036854775807)
    ) AS c
    WHERE true
    ON CONFLICT (player_id) DO UPDATE SET played = played + excluded.played, won = won + excluded.won,
        lost = lost + excluded.lost, drawn = drawn + excluded.drawn, bot_played = bot_played + excluded.bot_played,
        bot_won = bot_won + excluded.bot_won, bot_lost = bot_lost + excluded.bot_lost, bot_drawn = bot_drawn + excluded.bot_drawn;
END;
-- +goose StatementEnd

-- A reset: the games started after the new point count (usually none yet);
-- their runs and their mode's figures are counted again, and so are the
-- player's races started after it.
-- +goose StatementBegin
CREATE TRIGGER players_stats_reset AFTER UPDATE OF stats_since ON players
WHEN OLD.stats_since IS NOT NEW.stats_since
BEGIN
    UPDATE solo_results SET since = COALESCE(NEW.stats_since, -9223372036854775807), run_before = NULL
    WHERE game_id IN (SELECT g.id FROM games AS g
        WHERE g.seat1 = NEW.id AND g.kind = 'solo' AND g.created_at > COALESCE(NEW.stats_since, -9223372036854775807));
    UPDATE solo_figures SET since = COALESCE(NEW.stats_since, -9223372036854775807)
    WHERE game_id IN (SELECT g.id FROM games AS g
        WHERE g.seat1 = NEW.id AND g.kind = 'solo' AND g.created_at > COALESCE(NEW.stats_since, -9223372036854775807));
    UPDATE solo_results SET run_before = r.n FROM (
        SELECT u.game_id, u.wins - COALESCE(LAG(u.wins) OVER (PARTITION BY u.draw, u.scoring ORDER BY u.created_at, u.game_id), 0) AS n
        FROM (
            SELECT w.game_id, w.draw, w.scoring, w.created_at, w.won,
                SUM(w.won) OVER (PARTITION BY w.draw, w.scoring ORDER BY w.created_at, w.game_id ROWS UNBOUNDED PRECEDING) AS wins
            FROM solo_results AS w WHERE w.player_id = NEW.id AND w.since = COALESCE(NEW.stats_since, -9223372036854775807)
        ) AS u
        WHERE u.won = 0
    ) AS r
    WHERE solo_results.game_id = r.game_id;
    DELETE FROM solo_totals WHERE player_id = NEW.id;
    INSERT INTO solo_totals (player_id, draw, scoring, played, won, assisted, tail)
    SELECT player_id, draw, scoring, COUNT(*), SUM(won), SUM(won * helped), SUM(won) - COALESCE(SUM(run_before), 0)
    FROM solo_results WHERE player_id = NEW.id AND since = COALESCE(NEW.stats_since, -9223372036854775807)
    GROUP BY player_id, draw, scoring;
    DELETE FROM race_totals WHERE player_id = NEW.id;
    INSERT INTO race_totals (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
    SELECT NEW.id, COUNT(*), SUM(c.w), SUM(c.l), SUM(c.d), SUM(c.b), SUM(c.b * c.w), SUM(c.b * c.l), SUM(c.b * c.d)
    FROM (
        SELECT CASE WHEN json_extract(g.result, '$.winner') = (CASE WHEN g.seat1 = NEW.id THEN 1 ELSE 2 END) THEN 1 ELSE 0 END AS w,
            CASE WHEN json_extract(g.result, '$.winner') <> (CASE WHEN g.seat1 = NEW.id THEN 1 ELSE 2 END) THEN 1 ELSE 0 END AS l,
            CASE WHEN json_extract(g.result, '$.winner') IS NULL THEN 1 ELSE 0 END AS d,
            CASE WHEN g.seat1 = 'bot' OR g.seat2 = 'bot' THEN 1 ELSE 0 END AS b
        FROM games AS g
        WHERE (g.seat1 = NEW.id OR g.seat2 = NEW.id) AND g.kind = 'race' AND g.status = 'over' AND g.result IS NOT NULL
            AND g.created_at > COALESCE(NEW.stats_since, -9223372036854775807)
    ) AS c
    HAVING COUNT(*) > 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER players_stats_deleted AFTER DELETE ON players
BEGIN
    DELETE FROM solo_totals WHERE player_id = OLD.id;
    DELETE FROM race_totals WHERE player_id = OLD.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER players_stats_deleted;
DROP TRIGGER players_stats_reset;
DROP TRIGGER games_race_deleted;
DROP TRIGGER games_race_updated;
DROP TRIGGER games_race_inserted;
DROP TRIGGER games_solo_deleted;
DROP TRIGGER games_solo_helped;
DROP TRIGGER games_solo_status;
DROP TRIGGER actions_solo_played;
DROP TRIGGER actions_solo_undone;
DROP TRIGGER actions_solo_figures;
DROP TRIGGER solo_results_helped;
DROP TRIGGER solo_results_removed;
DROP TRIGGER solo_results_added;
DROP TABLE race_totals;
DROP TABLE solo_totals;
DROP TABLE solo_figures;
DROP TABLE solo_results;
