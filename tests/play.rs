//! `play` against a referee written here: the binary asks `? r c` over real pipes, the
//! referee answers from a real board, and the final count and grid must be exactly the
//! judge's output for the same board, for every strategy. Then the error contract: bad
//! answers, end of input and impossible answers.

use crate::common;

use spot_the_ships::cli::{self, CliError, Streams};
use spot_the_ships::game::board::Board;
use spot_the_ships::game::placement::random_board;
use spot_the_ships::game::position::Position;
use spot_the_ships::game::rng::Rng;
use spot_the_ships::scan::referee::Referee;
use spot_the_ships::strategy::{self, NAMES};
use std::io::{BufRead, BufReader, Write};
use std::time::Instant;

/// How a game ended, as the referee saw it.
struct Game {
    /// Everything after the last question (count and grid on success).
    output: String,
    /// Questions asked.
    questions: usize,
    status: Option<i32>,
    stderr: String,
}

/// Plays one game: spawns `play` with `args`, answers each question from `board`.
/// Fails the test if a question is malformed, outside the board, or asked twice.
fn referee(board: &Board, args: &[String]) -> Game {
    let mut child = common::spawn(&[&["play".to_string()], args].concat());
    let mut to_player = child.stdin.take().expect("stdin");
    let mut from_player = BufReader::new(child.stdout.take().expect("stdout"));
    let mut asked = vec![false; board.rows() * board.cols()];
    let mut questions = 0;
    let mut output = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if from_player.read_line(&mut line).expect("read") == 0 {
            break;
        }
        let Some(rest) = line.strip_prefix("? ") else {
            output.push_str(&line);
            continue;
        };
        let nums: Vec<usize> = rest.split_whitespace().map(|t| t.parse().expect("number")).collect();
        let [r, c] = nums[..] else { panic!("bad question {line:?}") };
        assert!(r < board.rows() && c < board.cols(), "question outside the board: {line:?}");
        let i = r * board.cols() + c;
        assert!(!asked[i], "cell asked twice: {line:?}");
        asked[i] = true;
        questions += 1;
        let answer = if board.is_ship(Position::new(r, c)) { "hit\n" } else { "miss\n" };
        to_player.write_all(answer.as_bytes()).expect("answer");
        to_player.flush().expect("flush");
    }
    drop(to_player);
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        std::io::Read::read_to_string(&mut e, &mut stderr).expect("stderr");
    }
    let status = child.wait().expect("exit").code();
    Game { output, questions, status, stderr }
}

fn fleet_args(board: &Board) -> Vec<String> {
    if board.fleet().is_empty() {
        vec!["--cells".into(), "0".into()]
    } else {
        let sizes: Vec<String> = board.fleet().iter().map(usize::to_string).collect();
        vec!["--fleet".into(), sizes.join(",")]
    }
}

fn size_args(board: &Board) -> Vec<String> {
    vec!["--rows".into(), board.rows().to_string(), "--cols".into(), board.cols().to_string()]
}

/// Plays `games` random boards (up to 8x8) with every strategy but lookahead (seconds a
/// game: `referee.rs` plays it through pipes), on one thread per strategy, comparing each
/// game with the library's own run through `sonar_of`.
fn every_strategy_matches(games: usize, seed: u64, with_fleet: bool) {
    let start = Instant::now();
    std::thread::scope(|scope| {
        for name in strategy::all().map(|e| e.name) {
            scope.spawn(move || {
                let mut rng = Rng::new(seed);
                for game in 0..games {
                    let rows = 1 + rng.below(8) as usize;
                    let cols = 1 + rng.below(8) as usize;
                    let board = random_board(rows, cols, &mut rng).unwrap();
                    let game_seed = 1000 + game as u64;
                    let mut s = strategy::by_name(name, game_seed).expect("strategy");
                    let direct = Referee::new(&board);
                    let record = if with_fleet {
                        strategy::solve(s.as_mut(), &mut { direct })
                    } else {
                        strategy::solve(s.as_mut(), &mut common::NoFleet(direct))
                    }
                    .expect("direct run");
                    let expected = record.render_output(Some(&board));
                    let mut args = size_args(&board);
                    if with_fleet {
                        args.extend(fleet_args(&board));
                    } else {
                        args.extend(["--cells".to_string(), board.ship_cells().to_string()]);
                    }
                    args.extend(["--strategy".into(), name.into(), "--seed".into(), game_seed.to_string()]);
                    let played = referee(&board, &args);
                    assert_eq!(played.status, Some(0), "{name} {args:?}: {}", played.stderr);
                    assert_eq!(played.output, expected, "{name} game {game} {args:?}");
                    assert_eq!(played.questions, record.scans(), "{name} game {game}");
                    assert!(!expected.contains('O'), "{name}: a finished run left a ship unseen");
                }
            });
        }
    });
    eprintln!("{games} games x {} strategies in {:?}", NAMES.len(), start.elapsed());
}

#[test]
fn every_strategy_plays_the_judges_game_over_pipes() {
    every_strategy_matches(200, 77, true);
}

/// A board that hides its fleet: only the number of ship cells is known (`--cells`).
#[test]
fn every_strategy_plays_with_only_a_cell_count() {
    every_strategy_matches(40, 78, false);
}

fn play(args: &[&str], answers: &str) -> std::process::Output {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    common::run(&all, answers.as_bytes())
}

/// Checks the error contract (exit 2, one `error: ` line) and returns the message.
fn refused(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(err.starts_with("error: ") && err.matches('\n').count() == 1, "{err:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().all(|l| l.starts_with("? ")), "only questions on stdout: {stdout}");
    err
}

#[test]
fn a_bad_answer_over_a_pipe_is_an_error() {
    let out = play(&["--rows", "3", "--cols", "3", "--cells", "2", "--strategy", "linear"], "hit\nperhaps\n");
    let err = refused(&out);
    assert!(err.contains("`perhaps`") && err.contains("hit, miss"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "? 0 0\n? 0 1\n");
}

#[test]
fn accepted_answer_forms() {
    // 1x6, two 1-cell ships at columns 0 and 4; every accepted spelling once.
    let out =
        play(&["--rows", "1", "--cols", "6", "--fleet", "1,1", "--strategy", "linear"], "HIT\r\n m \n0\nMiss\nh\n");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("? 0 4\n5\n+XXX+.\n"));
    let out = play(&["--rows", "1", "--cols", "3", "--cells", "1", "--strategy", "linear"], "0\n1");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "? 0 0\n? 0 1\n2\nX+.\n");
}

#[test]
fn end_of_input_before_the_end_is_an_error() {
    let err = refused(&play(&["--rows", "4", "--cols", "4", "--cells", "3"], ""));
    assert!(err.contains("ended before every ship cell was found"), "{err}");
    let err = refused(&play(&["--rows", "4", "--cols", "4", "--fleet", "2,1"], "miss\nhit\n"));
    assert!(err.contains("ended"), "{err}");
}

#[test]
fn a_diagonal_hit_is_a_contradiction_naming_the_cells() {
    // linear asks (0,0) (0,1) (0,2) (1,0) (1,1): a hit at (1,1) touches (0,0).
    let out = play(&["--rows", "3", "--cols", "3", "--cells", "3", "--strategy", "linear"], "1\n0\n0\n0\n1\n");
    let err = refused(&out);
    assert!(err.starts_with("error: play: contradiction: ") && err.contains("(1,1)") && err.contains("(0,0)"), "{err}");
}

#[test]
fn other_contradictions() {
    let linear = ["--rows", "1", "--cols", "9", "--strategy", "linear"];
    // A run longer than the fleet's longest ship.
    let err = refused(&play(&[&linear[..], &["--fleet", "2,1"]].concat(), "1\n1\n1\n"));
    assert!(
        err.contains("contradiction") && err.contains("(0,2)") && err.contains("longest ship afloat has 2"),
        "{err}"
    );
    // Longer than any ship at all (no fleet).
    let err = refused(&play(&[&linear[..], &["--cells", "7"]].concat(), "1\n1\n1\n1\n1\n1\n"));
    assert!(err.contains("contradiction") && err.contains("(0,5)"), "{err}");
    // Every cell water with a ship announced.
    // The last water is refused: the ship cell would have nowhere to be.
    let err = refused(&play(&[&linear[..], &["--cells", "1"]].concat(), &"0\n".repeat(9)));
    assert!(
        err.contains("contradiction: (0,8) is water, but 1 ship cell is still to be found and only 0 cells"),
        "{err}"
    );
    // The same with a ship cell count on a 2x2 board.
    let err = refused(&play(&["--rows", "2", "--cols", "2", "--cells", "1", "--strategy", "linear"], "0\n0\n0\n0\n"));
    assert!(err.contains("contradiction: (1,1) is water, but 1 ship cell is still"), "{err}");
}

#[test]
fn bad_flags_are_refused_before_any_question() {
    for args in [
        &["--rows", "3"][..],
        &["--rows", "3", "--cols", "3", "--fleet", "5"],
        &["--rows", "3", "--cols", "3", "--fleet", "2", "--cells", "2"],
        &["--rows", "3", "--cols", "3", "--cells", "10"],
        &["--rows", "3", "--cols", "3", "--strategy", "psychic"],
        &["--rows", "0", "--cols", "3"],
        &["--rows", "3", "--cols", "3", "--fleet", "2,x"],
    ] {
        let out = play(args, "hit\n");
        let err = refused(&out);
        assert!(out.stdout.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn help_describes_the_protocol() {
    let out = play(&["--help"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for part in ["? r c", "hit, h or 1", "miss, m or 0", "--fleet", "--cells", "bayes"] {
        assert!(text.contains(part), "{part} missing from help");
    }
}

/// Runs the command in-process with `stdin_tty` set, as for a person at a terminal.
fn play_at_terminal(args: &[&str], answers: &str) -> (Result<cli::Status, CliError>, String, String) {
    let mut all = vec!["play".to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    let mut input = answers.as_bytes();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let result = {
        let mut io = Streams {
            stdin: &mut input,
            stdout: &mut out,
            stderr: &mut err,
            stdin_tty: true,
            stdout_tty: true,
            stderr_tty: true,
        };
        cli::run(&all, &mut io)
    };
    (result, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

#[test]
fn a_bad_answer_at_a_terminal_is_asked_again() {
    let (result, out, err) =
        play_at_terminal(&["--rows", "1", "--cols", "3", "--cells", "1", "--strategy", "linear"], "yes\n\nmiss\nhit\n");
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(out, "? 0 0\n? 0 0\n? 0 0\n? 0 1\n2\nX+.\n");
    assert!(err.contains("`yes` is not an answer"), "{err}");
    // At a terminal too, the end of input stops the game.
    let (result, _, _) = play_at_terminal(&["--rows", "2", "--cols", "2", "--cells", "1"], "nope\n");
    assert!(result.is_err());
}

#[test]
fn impossible_sunk_answers_are_refused_naming_the_cell_and_why() {
    // A carrier (5 cells) sunk on the first hit: accepted before the consistency check.
    let classic = ["--rules", "classic", "--rows", "10", "--cols", "10", "--strategy", "density"];
    let err = refused(&play(&classic, "miss\nsunk carrier\n"));
    assert!(
        err.starts_with("error: play: contradiction: (") && err.contains(") sinks a ship after 1 hit, but"),
        "{err}"
    );
    // Two hits not in line, neither announced sunk: under named sunk ships both must be
    // the boat's, which the second completes. Refused at that second hit, before the
    // `sunk 2` that follows (no line of 2 hits goes through it either).
    let boat = ["--rules", "classic", "--rows", "1", "--cols", "5", "--fleet", "2,1", "--strategy", "hunt"];
    let err = refused(&play(&boat, "hit\nmiss\nhit\nsunk 2\n"));
    assert!(
        err.contains("contradiction") && err.contains("is answered a hit, but then no layout of the fleet agrees"),
        "{err}"
    );
    // Ships that never touch: a hit beside a sunk ship, a sunk line of no afloat size.
    let russian = ["--rules", "russian", "--rows", "1", "--cols", "9", "--fleet", "3,1", "--strategy", "linear"];
    let err = refused(&play(&russian, "hit\nsunk\n"));
    assert!(err.contains("(0,1) sinks a ship of 2 cells, but no ship of that size is afloat"), "{err}");
    let err = refused(&play(&russian, "sunk\nhit\n"));
    assert!(err.contains("(0,1) is a hit beside the sunk ship at (0,0), and ships never touch"), "{err}");
}

#[test]
fn a_sunk_answer_where_the_rules_announce_none_lists_only_what_they_allow() {
    let err = refused(&play(&["--rows", "3", "--cols", "3", "--fleet", "1"], "sunk\n"));
    assert_eq!(err, "error: play: answer `sunk` is not one of hit, miss, h, m, 1, 0\n");
    // At a terminal, the hint follows the rules too.
    let (_, _, notes) =
        play_at_terminal(&["--rows", "1", "--cols", "3", "--cells", "1", "--strategy", "linear"], "x\n");
    assert!(notes.contains("`x` is not an answer: type hit, miss, h, m, 1, 0, or undo"), "{notes}");
    let classic = ["--rules", "classic", "--rows", "10", "--cols", "10", "--strategy", "density"];
    let (_, _, notes) = play_at_terminal(&classic, "x\n");
    assert!(notes.contains("type hit, miss, sunk NAME, sunk, h, m, 1, 0, or undo"), "{notes}");
    // So does the first line: sunk only where the rules announce it.
    assert!(notes.contains("with hit or miss, or sunk NAME when it completes the ship NAME (or undo)"), "{notes}");
    let (_, _, notes) = play_at_terminal(&["--rows", "2", "--cols", "2", "--cells", "1"], "x\n");
    assert!(notes.contains("with hit or miss (or undo)"), "{notes}");
}

#[test]
fn water_where_the_ship_cells_no_longer_fit_is_refused() {
    let err = refused(&play(&["--rows", "1", "--cols", "3", "--cells", "2", "--strategy", "linear"], "miss\nmiss\n"));
    assert!(
        err.contains(
            "contradiction: (0,1) is water, but 2 ship cells are still to be found and only 1 cell would be left"
        ),
        "{err}"
    );
}
