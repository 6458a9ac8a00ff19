-- Player statistics kept as the games are played (PostgreSQL), so that a
-- statistics request reads a few rows instead of every game.
--
-- solo_results: one row per played solo game (one with an action at
-- least): its player, mode (the draw and the scoring letter of its code),
-- start, whether it is won, whether its log holds an undo or a finish
-- (undone), whether it was helped (undone, a hint given or the live check
-- on: a win so helped is assisted). solo_figures: the same game's last
-- action's tally (last_seq, score, moves, play_ms), with its player, mode,
-- since and won for its indexes; apart, so that an action, which changes
-- only the tally, writes a narrow row version and two index entries (its
-- key's and the score's), not one in each index of the game.
-- since is the reset point under which the game counts: the player's
-- stats_since ('-infinity' when they never reset) when the game was started
-- after it, NULL when before. A game counts while its since is the
-- player's current reset point, so a reset re-marks only the games started
-- after its new point (usually none) and leaves the rest.
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
-- Triggers keep the tables up to date in the transaction of every write,
-- whichever node makes it: during a rolling upgrade the nodes of the
-- release before, which know nothing of these tables, still insert actions
-- and update games, and their writes are counted as this release's are.
-- The actions' insert (a game played, its tally, an undo: once per
-- statement, over its transition table: the games played before in one
-- statement, those played for the first time one at a time), the games'
-- status (a win, a race's end), result, seats, hints and checked, their
-- insert and deletion, a reset (players.stats_since) and a player's
-- deletion. A game whose win changes is taken out and put back
-- (solo_results_removed, solo_results_added), which join or split the runs
-- on either side of it by index seeks; so is a race whose end changes.
--
-- A player's statistics are changed under their advisory lock (the two-key
-- form: the schema's and the player's hashes), taken by every write that
-- changes them before it touches any of their rows, several players' in
-- the order of their ids: the writes of one player's statistics (two of
-- their games written at once, a reset) follow one another, so that a
-- reset sees every game played before it and a game played after it sees
-- the new reset point, and two writes never wait on each other's rows.
--
-- The tables are filled from the games already played while the writes of
-- those nodes wait (LOCK ... IN SHARE MODE until this migration commits),
-- so that none falls between the fill and the triggers.

-- +goose Up
LOCK TABLE players, games, actions IN SHARE MODE;

CREATE TABLE solo_results (
    game_id    text        NOT NULL PRIMARY KEY,
    player_id  text        NOT NULL,
    draw       integer     NOT NULL,
    scoring    text        NOT NULL,
    created_at timestamptz NOT NULL,
    since      timestamptz,
    won        integer     NOT NULL,
    undone     integer     NOT NULL,
    helped     integer     NOT NULL,
    run_before integer
);

CREATE TABLE solo_figures (
    game_id   text        NOT NULL PRIMARY KEY,
    player_id text        NOT NULL,
    draw      integer     NOT NULL,
    scoring   text        NOT NULL,
    since     timestamptz,
    won       integer     NOT NULL,
    last_seq  bigint      NOT NULL,
    score     integer,
    moves     integer,
    play_ms   bigint
);

CREATE TABLE solo_totals (
    player_id text    NOT NULL,
    draw      integer NOT NULL,
    scoring   text    NOT NULL,
    played    integer NOT NULL,
    won       integer NOT NULL,
    assisted  integer NOT NULL,
    tail      integer NOT NULL,
    PRIMARY KEY (player_id, draw, scoring)
);

-- The row of the solo game g from its header, its player p and its log
-- (none while the game has no action).
-- +goose StatementBegin
CREATE FUNCTION solo_result_of(g games, p players) RETURNS SETOF solo_results LANGUAGE sql STABLE AS $$
    SELECT g.id, g.seat1,
        CASE WHEN substr(g.code, 6, 1) IN ('0', '1', '2', '3', '4', '5', '6', '7', '8', '9') THEN CAST(substr(g.code, 6, 1) AS integer) ELSE 0 END,
        substr(g.code, 7, 1), g.created_at,
        CASE WHEN g.created_at > COALESCE(p.stats_since, '-infinity') THEN COALESCE(p.stats_since, '-infinity') END,
        CASE WHEN g.status = 'won' THEN 1 ELSE 0 END,
        CASE WHEN x.undone THEN 1 ELSE 0 END,
        CASE WHEN x.undone OR g.hints > 0 OR g.checked THEN 1 ELSE 0 END,
        NULL::integer
    FROM (SELECT EXISTS (SELECT 1 FROM actions AS u WHERE u.game_id = g.id AND u.action IN ('{"type":"undo"}', '{"type":"finish"}')) AS undone) AS x
    WHERE EXISTS (SELECT 1 FROM actions AS a WHERE a.game_id = g.id)
$$;
-- +goose StatementEnd

-- The figures of the game of the row r: its last action's tally.
-- +goose StatementBegin
CREATE FUNCTION solo_figures_of(r solo_results) RETURNS SETOF solo_figures LANGUAGE sql STABLE AS $$
    SELECT r.game_id, r.player_id, r.draw, r.scoring, r.since, r.won, a.seq, a.score, a.moves, a.play_ms
    FROM actions AS a
    WHERE a.game_id = r.game_id AND a.seq = (SELECT MAX(m.seq) FROM actions AS m WHERE m.game_id = r.game_id)
$$;
-- +goose StatementEnd

-- The games played so far, and their last actions' tallies.
INSERT INTO solo_results
SELECT r.* FROM games AS g JOIN players AS p ON p.id = g.seat1, LATERAL solo_result_of(g, p) AS r
WHERE g.kind = 'solo';

INSERT INTO solo_figures
SELECT f.* FROM solo_results AS r, LATERAL solo_figures_of(r) AS f;

-- Each unwon game's run: the wins up to it less the wins up to the unwon
-- game before it.
UPDATE solo_results AS s SET run_before = r.n FROM (
    SELECT u.game_id, u.wins - COALESCE(LAG(u.wins) OVER (PARTITION BY u.player_id, u.draw, u.scoring ORDER BY u.created_at, u.game_id), 0) AS n
    FROM (
        SELECT w.game_id, w.player_id, w.draw, w.scoring, w.created_at, w.won,
            SUM(w.won) OVER (PARTITION BY w.player_id, w.draw, w.scoring ORDER BY w.created_at, w.game_id ROWS UNBOUNDED PRECEDING) AS wins
        FROM solo_results AS w WHERE w.since IS NOT NULL
    ) AS u
    WHERE u.won = 0
) AS r
WHERE s.game_id = r.game_id;

INSERT INTO solo_totals (player_id, draw, scoring, played, won, assisted, tail)
SELECT player_id, draw, scoring, COUNT(*), SUM(won), SUM(won * helped), SUM(won) - COALESCE(SUM(run_before), 0)
FROM solo_results WHERE since IS NOT NULL
GROUP BY player_id, draw, scoring;

CREATE TABLE race_totals (
    player_id  text    NOT NULL PRIMARY KEY,
    played     integer NOT NULL,
    won        integer NOT NULL,
    lost       integer NOT NULL,
    drawn      integer NOT NULL,
    bot_played integer NOT NULL,
    bot_won    integer NOT NULL,
    bot_lost   integer NOT NULL,
    bot_drawn  integer NOT NULL
);

-- The outcome of the race g for each of its seats' players (once when a
-- player holds both) that counts it: won, lost, drawn, against the bot.
-- +goose StatementBegin
CREATE FUNCTION race_outcomes(g games) RETURNS TABLE (player_id text, w integer, l integer, d integer, b integer)
LANGUAGE sql STABLE AS $$
    SELECT s.player_id,
        CASE WHEN x.winner = s.seat THEN 1 ELSE 0 END,
        CASE WHEN x.winner <> s.seat THEN 1 ELSE 0 END,
        CASE WHEN x.winner IS NULL THEN 1 ELSE 0 END,
        CASE WHEN g.seat1 = 'bot' OR g.seat2 = 'bot' THEN 1 ELSE 0 END
    FROM (VALUES (g.seat1, 1), (g.seat2, 2)) AS s (player_id, seat)
    JOIN players AS p ON p.id = s.player_id,
        LATERAL (SELECT CAST(CAST(g.result AS json) ->> 'winner' AS integer) AS winner) AS x
    WHERE g.kind = 'race' AND g.status = 'over' AND g.result IS NOT NULL
        AND (s.seat = 1 OR g.seat2 <> g.seat1)
        AND g.created_at > COALESCE(p.stats_since, '-infinity')
$$;
-- +goose StatementEnd

-- The races finished so far.
INSERT INTO race_totals (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
SELECT o.player_id, COUNT(*), SUM(o.w), SUM(o.l), SUM(o.d), SUM(o.b), SUM(o.b * o.w), SUM(o.b * o.l), SUM(o.b * o.d)
FROM games AS g, LATERAL race_outcomes(g) AS o
WHERE g.kind = 'race' AND g.status = 'over' AND g.result IS NOT NULL
GROUP BY o.player_id;

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

-- The player's current reset point, '-infinity' when they never reset.
-- +goose StatementBegin
CREATE FUNCTION solo_since(player text) RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT COALESCE((SELECT p.stats_since FROM players AS p WHERE p.id = player), '-infinity')
$$;
-- +goose StatementEnd

-- Takes the player's lock until the transaction ends.
-- +goose StatementBegin
CREATE FUNCTION stats_lock(player text) RETURNS void LANGUAGE sql AS $$
    SELECT pg_advisory_xact_lock(hashtext(current_schema()), hashtext(player))
$$;
-- +goose StatementEnd

-- A game that counts joins its mode's figures; an unwon one ends the run it
-- falls in (its run_before is the wins since the unwon game before it, which
-- the run after it loses), a won one adds to the run after it (the next
-- unwon game's run_before, else the tail).
-- +goose StatementBegin
CREATE FUNCTION solo_results_added() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    prev_at timestamptz;
    prev_id text;
    next_id text;
    wins integer;
    delta integer := 1;
BEGIN
    IF NEW.since IS DISTINCT FROM solo_since(NEW.player_id) THEN
        RETURN NULL;
    END IF;
    INSERT INTO solo_totals AS t (player_id, draw, scoring, played, won, assisted, tail)
    VALUES (NEW.player_id, NEW.draw, NEW.scoring, 1, NEW.won, NEW.won * NEW.helped, 0)
    ON CONFLICT (player_id, draw, scoring) DO UPDATE
    SET played = t.played + 1, won = t.won + excluded.won, assisted = t.assisted + excluded.assisted;
    IF NEW.won = 0 THEN
        SELECT u.created_at, u.game_id INTO prev_at, prev_id FROM solo_results AS u
        WHERE u.player_id = NEW.player_id AND u.since = NEW.since AND u.draw = NEW.draw AND u.scoring = NEW.scoring
            AND u.won = 0 AND (u.created_at, u.game_id) < (NEW.created_at, NEW.game_id)
        ORDER BY u.created_at DESC, u.game_id DESC LIMIT 1;
        IF prev_id IS NULL THEN
            SELECT count(*) INTO wins FROM solo_results AS w
            WHERE w.player_id = NEW.player_id AND w.since = NEW.since AND w.draw = NEW.draw AND w.scoring = NEW.scoring
                AND (w.created_at, w.game_id) < (NEW.created_at, NEW.game_id);
        ELSE
            SELECT count(*) INTO wins FROM solo_results AS w
            WHERE w.player_id = NEW.player_id AND w.since = NEW.since AND w.draw = NEW.draw AND w.scoring = NEW.scoring
                AND (w.created_at, w.game_id) < (NEW.created_at, NEW.game_id) AND (w.created_at, w.game_id) > (prev_at, prev_id);
        END IF;
        UPDATE solo_results SET run_before = wins WHERE game_id = NEW.game_id;
        delta := -wins;
    END IF;
    SELECT n.game_id INTO next_id FROM solo_results AS n
    WHERE n.player_id = NEW.player_id AND n.since = NEW.since AND n.draw = NEW.draw AND n.scoring = NEW.scoring
        AND n.won = 0 AND (n.created_at, n.game_id) > (NEW.created_at, NEW.game_id)
    ORDER BY n.created_at, n.game_id LIMIT 1;
    IF next_id IS NULL THEN
        UPDATE solo_totals SET tail = tail + delta WHERE player_id = NEW.player_id AND draw = NEW.draw AND scoring = NEW.scoring;
    ELSE
        UPDATE solo_results SET run_before = run_before + delta WHERE game_id = next_id;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER solo_results_added AFTER INSERT ON solo_results
    FOR EACH ROW WHEN (NEW.since IS NOT NULL) EXECUTE FUNCTION solo_results_added();

-- A game that counted leaves its mode's figures: an unwon one's run joins
-- the run after it, a won one leaves it.
-- +goose StatementBegin
CREATE FUNCTION solo_results_removed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    next_id text;
    delta integer := CASE WHEN OLD.won = 1 THEN -1 ELSE OLD.run_before END;
BEGIN
    IF OLD.since IS DISTINCT FROM solo_since(OLD.player_id) THEN
        RETURN NULL;
    END IF;
    UPDATE solo_totals SET played = played - 1, won = won - OLD.won, assisted = assisted - OLD.won * OLD.helped
    WHERE player_id = OLD.player_id AND draw = OLD.draw AND scoring = OLD.scoring;
    SELECT n.game_id INTO next_id FROM solo_results AS n
    WHERE n.player_id = OLD.player_id AND n.since = OLD.since AND n.draw = OLD.draw AND n.scoring = OLD.scoring
        AND n.won = 0 AND (n.created_at, n.game_id) > (OLD.created_at, OLD.game_id)
    ORDER BY n.created_at, n.game_id LIMIT 1;
    IF next_id IS NULL THEN
        UPDATE solo_totals SET tail = tail + delta WHERE player_id = OLD.player_id AND draw = OLD.draw AND scoring = OLD.scoring;
    ELSE
        UPDATE solo_results SET run_before = run_before + delta WHERE game_id = next_id;
    END IF;
    DELETE FROM solo_totals WHERE player_id = OLD.player_id AND draw = OLD.draw AND scoring = OLD.scoring AND played = 0;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER solo_results_removed AFTER DELETE ON solo_results
    FOR EACH ROW WHEN (OLD.since IS NOT NULL) EXECUTE FUNCTION solo_results_removed();

-- A win that counts becomes assisted (or no longer).
-- +goose StatementBegin
CREATE FUNCTION solo_results_helped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.since IS NOT DISTINCT FROM solo_since(NEW.player_id) THEN
        UPDATE solo_totals SET assisted = assisted + NEW.helped - OLD.helped
        WHERE player_id = NEW.player_id AND draw = NEW.draw AND scoring = NEW.scoring;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER solo_results_helped AFTER UPDATE OF helped ON solo_results
    FOR EACH ROW WHEN (NEW.won = 1 AND NEW.helped <> OLD.helped) EXECUTE FUNCTION solo_results_helped();

-- The actions of a statement (a batch), per solo game: its figures are its
-- latest action's, an undo or a finish helps it, its first one makes it
-- played. The batch takes its players' locks first; the games played
-- before take their latest tally in one statement (nothing of their streaks
-- changes), and only a batch with a game played for the first time or an
-- undo goes on: the undos in one statement, the new games one at a time, in
-- the order of their ids, so that each one's row triggers see the ones
-- before.
-- +goose StatementBegin
CREATE FUNCTION actions_solo_results() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    PERFORM stats_lock(o.id) FROM (
        SELECT DISTINCT g.seat1 AS id FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo' ORDER BY 1
    ) AS o;
    UPDATE solo_figures AS f SET
        last_seq = GREATEST(f.last_seq, b.seq),
        score = CASE WHEN b.seq > f.last_seq THEN b.score ELSE f.score END,
        moves = CASE WHEN b.seq > f.last_seq THEN b.moves ELSE f.moves END,
        play_ms = CASE WHEN b.seq > f.last_seq THEN b.play_ms ELSE f.play_ms END
    FROM (SELECT DISTINCT ON (a.game_id) a.game_id, a.seq, a.score, a.moves, a.play_ms FROM added AS a ORDER BY a.game_id, a.seq DESC) AS b
    WHERE f.game_id = b.game_id;
    IF NOT EXISTS (
        SELECT 1 FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo'
        WHERE a.action IN ('{"type":"undo"}', '{"type":"finish"}') OR NOT EXISTS (SELECT 1 FROM solo_results AS s WHERE s.game_id = a.game_id)
    ) THEN
        RETURN NULL;
    END IF;
    UPDATE solo_results AS s SET undone = 1, helped = 1
    FROM (SELECT DISTINCT a.game_id FROM added AS a WHERE a.action IN ('{"type":"undo"}', '{"type":"finish"}')) AS b
    WHERE s.game_id = b.game_id AND s.undone = 0;
    FOR r IN
        SELECT DISTINCT ON (a.game_id) a.game_id, a.seq, a.score, a.moves, a.play_ms,
            bool_or(a.action IN ('{"type":"undo"}', '{"type":"finish"}')) OVER (PARTITION BY a.game_id) AS undone
        FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo'
        WHERE NOT EXISTS (SELECT 1 FROM solo_results AS s WHERE s.game_id = a.game_id)
        ORDER BY a.game_id, a.seq DESC
    LOOP
        INSERT INTO solo_results (game_id, player_id, draw, scoring, created_at, since, won, undone, helped)
        SELECT g.id, g.seat1,
            CASE WHEN substr(g.code, 6, 1) IN ('0', '1', '2', '3', '4', '5', '6', '7', '8', '9') THEN CAST(substr(g.code, 6, 1) AS integer) ELSE 0 END,
            substr(g.code, 7, 1), g.created_at,
            CASE WHEN g.created_at > COALESCE(p.stats_since, '-infinity') THEN COALESCE(p.stats_since, '-infinity') END,
            CASE WHEN g.status = 'won' THEN 1 ELSE 0 END, CASE WHEN r.undone THEN 1 ELSE 0 END,
            CASE WHEN r.undone OR g.hints > 0 OR g.checked THEN 1 ELSE 0 END
        FROM games AS g JOIN players AS p ON p.id = g.seat1
        WHERE g.id = r.game_id;
        INSERT INTO solo_figures (game_id, player_id, draw, scoring, since, won, last_seq, score, moves, play_ms)
        SELECT s.game_id, s.player_id, s.draw, s.scoring, s.since, s.won, r.seq, r.score, r.moves, r.play_ms
        FROM solo_results AS s WHERE s.game_id = r.game_id;
    END LOOP;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER actions_solo_results AFTER INSERT ON actions
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION actions_solo_results();

-- A solo game won (or no longer won), or handed to another player: taken
-- out and put back from its header and log.
-- +goose StatementBegin
CREATE FUNCTION games_solo_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM stats_lock(o.id) FROM (SELECT DISTINCT unnest(ARRAY[OLD.seat1, NEW.seat1]) AS id ORDER BY 1) AS o;
    DELETE FROM solo_figures WHERE game_id = NEW.id;
    DELETE FROM solo_results WHERE game_id = NEW.id;
    INSERT INTO solo_results
    SELECT r.* FROM players AS p, LATERAL solo_result_of(NEW, p) AS r WHERE p.id = NEW.seat1;
    INSERT INTO solo_figures
    SELECT f.* FROM solo_results AS r, LATERAL solo_figures_of(r) AS f WHERE r.game_id = NEW.id;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER games_solo_status AFTER UPDATE OF status, seat1 ON games
    FOR EACH ROW WHEN (NEW.kind = 'solo' AND ((OLD.status = 'won') <> (NEW.status = 'won') OR OLD.seat1 <> NEW.seat1))
    EXECUTE FUNCTION games_solo_status();

-- A hint given or the live check turned on.
-- +goose StatementBegin
CREATE FUNCTION games_solo_helped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM stats_lock(NEW.seat1);
    UPDATE solo_results SET helped = CASE WHEN undone = 1 OR NEW.hints > 0 OR NEW.checked THEN 1 ELSE 0 END
    WHERE game_id = NEW.id;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER games_solo_helped AFTER UPDATE OF hints, checked ON games
    FOR EACH ROW WHEN (NEW.kind = 'solo' AND (NEW.hints > 0 OR NEW.checked) <> (OLD.hints > 0 OR OLD.checked))
    EXECUTE FUNCTION games_solo_helped();

-- +goose StatementBegin
CREATE FUNCTION games_solo_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM stats_lock(OLD.seat1);
    DELETE FROM solo_figures WHERE game_id = OLD.id;
    DELETE FROM solo_results WHERE game_id = OLD.id;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER games_solo_deleted AFTER DELETE ON games
    FOR EACH ROW WHEN (OLD.kind = 'solo') EXECUTE FUNCTION games_solo_deleted();

-- A race that ends adds to its players' totals; one whose end, result or
-- seats change is taken out as it was and put back as it is; one deleted
-- is taken out.
-- +goose StatementBegin
CREATE FUNCTION race_totals_add(g games, sign integer) RETURNS void LANGUAGE sql AS $$
    INSERT INTO race_totals AS t (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
    SELECT o.player_id, sign, sign * o.w, sign * o.l, sign * o.d, sign * o.b, sign * o.b * o.w, sign * o.b * o.l, sign * o.b * o.d
    FROM race_outcomes(g) AS o
    ON CONFLICT (player_id) DO UPDATE SET played = t.played + excluded.played, won = t.won + excluded.won,
        lost = t.lost + excluded.lost, drawn = t.drawn + excluded.drawn, bot_played = t.bot_played + excluded.bot_played,
        bot_won = t.bot_won + excluded.bot_won, bot_lost = t.bot_lost + excluded.bot_lost, bot_drawn = t.bot_drawn + excluded.bot_drawn
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION games_race_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM stats_lock(o.id) FROM (SELECT DISTINCT unnest(ARRAY[NEW.seat1, NEW.seat2]) AS id ORDER BY 1) AS o WHERE o.id IS NOT NULL;
        PERFORM race_totals_add(NEW, 1);
    ELSIF TG_OP = 'UPDATE' THEN
        PERFORM stats_lock(o.id) FROM (SELECT DISTINCT unnest(ARRAY[OLD.seat1, OLD.seat2, NEW.seat1, NEW.seat2]) AS id ORDER BY 1) AS o WHERE o.id IS NOT NULL;
        PERFORM race_totals_add(OLD, -1);
        PERFORM race_totals_add(NEW, 1);
    ELSE
        PERFORM stats_lock(o.id) FROM (SELECT DISTINCT unnest(ARRAY[OLD.seat1, OLD.seat2]) AS id ORDER BY 1) AS o WHERE o.id IS NOT NULL;
        PERFORM race_totals_add(OLD, -1);
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER games_race_inserted AFTER INSERT ON games
    FOR EACH ROW WHEN (NEW.kind = 'race' AND NEW.status = 'over' AND NEW.result IS NOT NULL) EXECUTE FUNCTION games_race_totals();
CREATE TRIGGER games_race_updated AFTER UPDATE OF status, result, seat1, seat2 ON games
    FOR EACH ROW WHEN (NEW.kind = 'race' AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.result IS DISTINCT FROM NEW.result
        OR OLD.seat1 IS DISTINCT FROM NEW.seat1 OR OLD.seat2 IS DISTINCT FROM NEW.seat2))
    EXECUTE FUNCTION games_race_totals();
CREATE TRIGGER games_race_deleted AFTER DELETE ON games
    FOR EACH ROW WHEN (OLD.kind = 'race') EXECUTE FUNCTION games_race_totals();

-- A reset: the games started after the new point count (usually none yet);
-- their runs and their mode's figures are counted again, and so are the
-- player's races started after it.
-- +goose StatementBegin
CREATE FUNCTION players_stats_reset() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    mark timestamptz := COALESCE(NEW.stats_since, '-infinity');
BEGIN
    PERFORM stats_lock(NEW.id);
    UPDATE solo_results SET since = mark, run_before = NULL
    WHERE game_id IN (SELECT g.id FROM games AS g WHERE g.seat1 = NEW.id AND g.kind = 'solo' AND g.created_at > mark);
    UPDATE solo_figures SET since = mark
    WHERE game_id IN (SELECT g.id FROM games AS g WHERE g.seat1 = NEW.id AND g.kind = 'solo' AND g.created_at > mark);
    UPDATE solo_results AS s SET run_before = r.n FROM (
        SELECT u.game_id, u.wins - COALESCE(LAG(u.wins) OVER (PARTITION BY u.draw, u.scoring ORDER BY u.created_at, u.game_id), 0) AS n
        FROM (
            SELECT w.game_id, w.draw, w.scoring, w.created_at, w.won,
                SUM(w.won) OVER (PARTITION BY w.draw, w.scoring ORDER BY w.created_at, w.game_id ROWS UNBOUNDED PRECEDING) AS wins
            FROM solo_results AS w WHERE w.player_id = NEW.id AND w.since = mark
        ) AS u
        WHERE u.won = 0
    ) AS r
    WHERE s.game_id = r.game_id;
    DELETE FROM solo_totals WHERE player_id = NEW.id;
    INSERT INTO solo_totals (player_id, draw, scoring, played, won, assisted, tail)
    SELECT player_id, draw, scoring, COUNT(*), SUM(won), SUM(won * helped), SUM(won) - COALESCE(SUM(run_before), 0)
    FROM solo_results WHERE player_id = NEW.id AND since = mark
    GROUP BY player_id, draw, scoring;
    DELETE FROM race_totals WHERE player_id = NEW.id;
    INSERT INTO race_totals (player_id, played, won, lost, drawn, bot_played, bot_won, bot_lost, bot_drawn)
    SELECT NEW.id, COUNT(*), SUM(o.w), SUM(o.l), SUM(o.d), SUM(o.b), SUM(o.b * o.w), SUM(o.b * o.l), SUM(o.b * o.d)
    FROM games AS g, LATERAL race_outcomes(g) AS o
    WHERE (g.seat1 = NEW.id OR g.seat2 = NEW.id) AND g.kind = 'race' AND g.status = 'over' AND g.result IS NOT NULL
        AND g.created_at > mark AND o.player_id = NEW.id
    HAVING COUNT(*) > 0;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER players_stats_reset AFTER UPDATE OF stats_since ON players
    FOR EACH ROW WHEN (OLD.stats_since IS DISTINCT FROM NEW.stats_since) EXECUTE FUNCTION players_stats_reset();

-- +goose StatementBegin
CREATE FUNCTION players_stats_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM solo_totals WHERE player_id = OLD.id;
    DELETE FROM race_totals WHERE player_id = OLD.id;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER players_stats_deleted AFTER DELETE ON players
    FOR EACH ROW EXECUTE FUNCTION players_stats_deleted();

-- +goose Down
DROP TRIGGER players_stats_deleted ON players;
DROP FUNCTION players_stats_deleted();
DROP TRIGGER players_stats_reset ON players;
DROP FUNCTION players_stats_reset();
DROP TRIGGER games_race_deleted ON games;
DROP TRIGGER games_race_updated ON games;
DROP TRIGGER games_race_inserted ON games;
DROP FUNCTION games_race_totals();
DROP FUNCTION race_totals_add(games, integer);
DROP FUNCTION race_outcomes(games);
DROP TRIGGER games_solo_deleted ON games;
DROP FUNCTION games_solo_deleted();
DROP TRIGGER games_solo_helped ON games;
DROP FUNCTION games_solo_helped();
DROP TRIGGER games_solo_status ON games;
DROP FUNCTION games_solo_status();
DROP TRIGGER actions_solo_results ON actions;
DROP FUNCTION actions_solo_results();
DROP FUNCTION solo_figures_of(solo_results);
DROP FUNCTION solo_result_of(games, players);
DROP TABLE race_totals;
DROP TABLE solo_totals;
DROP TABLE solo_figures;
DROP TABLE solo_results;
DROP FUNCTION solo_results_added();
DROP FUNCTION solo_results_removed();
DROP FUNCTION solo_results_helped();
DROP FUNCTION stats_lock(text);
DROP FUNCTION solo_since(text);
