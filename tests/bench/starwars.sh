#!/usr/bin/env bash
# The remote-service solver's game (README, "Results on the seed's game"): bayes,
# density and the seed's own method (density-random) on the same 2,000 boards of the
# starwars preset's 58x23 sea, paired; the floor is the fleet's 21 ship cells.
# Usage: bash tests/bench/starwars.sh [GAMES]
#        (release build; 2,000 games take about 3.5 minutes on 2 cores, bayes most of it)
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-2000}
cargo build --release --quiet
bin=$PWD/target/release/spot-the-ships
# The issue's command, then the same boards with the seed's method added: the rows of
# random, density and bayes are the same in both (each strategy's random stream
# depends only on the seed, the game and its name).
time "$bin" simulate --rules starwars --games "$games" --strategies random,density,bayes
time "$bin" simulate --rules starwars --games "$games" --strategies random,density,bayes,density-random
