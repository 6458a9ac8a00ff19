-- Glicko-2 ratings. ratings holds each rated player's current rating, its
-- deviation and volatility and how many rated races it rests on (a player
-- without a row has the start rating, 1500 / 350 / 0.06). race_ratings holds
-- what was decided for each finished race between two players: rated or
-- not (flag says why not, e.g. too_fast when a seat's median time between
-- its actions was under 150 ms), each seat's median gap, and both seats'
-- ratings before and after. Its key is what keeps a race from being rated
-- twice.

-- +goose Up
CREATE TABLE ratings (
    player_id  text             NOT NULL PRIMARY KEY REFERENCES players (id),
    rating     double precision NOT NULL,
    deviation  double precision NOT NULL,
    volatility double precision NOT NULL,
    races      integer          NOT NULL,
    updated_at timestamptz      NOT NULL
);

CREATE TABLE race_ratings (
    game_id            text             NOT NULL PRIMARY KEY REFERENCES games (id),
    seat1              text             NOT NULL REFERENCES players (id),
    seat2              text             NOT NULL REFERENCES players (id),
    rated              boolean          NOT NULL,
    flag               text             NOT NULL,
    gap1_ms            bigint           NOT NULL,
    gap2_ms            bigint           NOT NULL,
    before1_rating     double precision NOT NULL,
    before1_deviation  double precision NOT NULL,
    before1_volatility double precision NOT NULL,
    before1_races      integer          NOT NULL,
    before2_rating     double precision NOT NULL,
    before2_deviation  double precision NOT NULL,
    before2_volatility double precision NOT NULL,
    before2_races      integer          NOT NULL,
    after1_rating      double precision NOT NULL,
    after1_deviation   double precision NOT NULL,
    after1_volatility  double precision NOT NULL,
    after1_races       integer          NOT NULL,
    after2_rating      double precision NOT NULL,
    after2_deviation   double precision NOT NULL,
    after2_volatility  double precision NOT NULL,
    after2_races       integer          NOT NULL,
    at                 timestamptz      NOT NULL
);

-- +goose Down
DROP TABLE race_ratings;
DROP TABLE ratings;
