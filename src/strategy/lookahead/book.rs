//! lookahead's opening book: the choices [`Lookahead::new`] makes under the default
//! seed on the classic 10x10 game in the states it reaches most often, worked out once
//! ([`make`]) and kept in `book.txt`, so that the judge and `play` take them at once
//! instead of thinking up to a second each. The early probes are the dear ones (their
//! rollouts are whole games), and every game starts in the same few states.
//!
//! A choice in the book is the one a run makes there, not an approximation of it: with
//! each choice the book keeps where the run's random stream stood after it (as the
//! scanner's own memo does, [`Checkpoint`]), so a game that leaves the book plays on
//! exactly as a run that thought every probe. A test replays entries against the live
//! search, and `make` run again writes the same book.
//!
//! A line is one state and its choice: the known cells (`INDEXcode`, the index
//! row-major; code `o` miss, `x` hit, `s` sunk, `kN` the sunk ship of kind N), then
//! `>`, the chosen cell's index and the checkpoint's five words in hex.

use super::Lookahead;
use crate::game::board::Board;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::posterior::{Checkpoint, Estimator, Evidence, Prior, Settings};
use crate::scan::observer::{Silent, Source};
use crate::scan::referee::{self, Referee};
use crate::scan::sonar::Answer;
use crate::scan::{Scan, ScanError};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The game the book is for: the preset's name and the bay.
pub const GAME: (&str, usize, usize) = ("classic", 10, 10);

/// The book's text, as `make` wrote it.
const TEXT: &str = include_str!("book.txt");

/// Chosen cells by what was known ([`Memo::key`](super::Memo::key)), with where the stream stood after.
#[derive(Debug, Clone, Default)]
pub struct Book {
    chosen: HashMap<Vec<u8>, (Position, Checkpoint)>,
}

impl Book {
    /// Reads a book of a `rows` x `cols` bay.
    /// Pre: none. Post: `Err` with the line's number and what is wrong there.
    pub fn parse(text: &str, rows: usize, cols: usize) -> Result<Book, String> {
        let mut chosen = HashMap::new();
        let cells = rows.saturating_mul(cols);
        for (n, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| format!("line {}: {why}", n + 1);
            let (known, choice) = line.split_once('>').ok_or_else(|| bad("no `>`"))?;
            let mut key = vec![0u8; cells];
            for token in known.split_whitespace() {
                let (index, code) = token_parts(token).ok_or_else(|| bad("a known cell is not INDEXcode"))?;
                *key.get_mut(index).ok_or_else(|| bad("a cell outside the bay"))? = code;
            }
            let mut words = choice.split_whitespace();
            let cell: usize =
                words.next().and_then(|w| w.parse().ok()).ok_or_else(|| bad("no chosen cell after `>`"))?;
            if cell >= cells || key.get(cell) != Some(&0) {
                return Err(bad("the chosen cell is outside the bay or known"));
            }
            let mut at = [0u64; 5];
            for w in &mut at {
                let word = words.next().ok_or_else(|| bad("fewer than five words"))?;
                *w = u64::from_str_radix(word, 16).map_err(|_| bad("a word is not hex"))?;
            }
            if words.next().is_some() {
                return Err(bad("more than five words"));
            }
            let pos = Position::new(cell / cols.max(1), cell % cols.max(1));
            if chosen.insert(key, (pos, Checkpoint::from_words(at))).is_some() {
                return Err(bad("a state given twice"));
            }
        }
        Ok(Book { chosen })
    }

    /// The choice in the state `key` ([`Memo::key`](super::Memo::key)) and where the stream stood after.
    /// Pre: none. Post: `None` when the state is not in the book.
    pub fn get(&self, key: &[u8]) -> Option<&(Position, Checkpoint)> {
        self.chosen.get(key)
    }

    /// How many states the book holds.
    /// Pre: none. Post: no change.
    pub fn len(&self) -> usize {
        self.chosen.len()
    }

    /// True when the book holds no state.
    /// Pre: none. Post: `len() == 0`.
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }
}

/// The book kept in the repository, read once (a book that cannot be read is empty;
/// a test reads it).
pub fn classic() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(TEXT, GAME.1, GAME.2).unwrap_or_default())
}

/// True when the book holds `scan`'s game: the classic preset on its 10x10 bay.
pub fn covers(scan: &Scan<'_>) -> bool {
    (scan.rows(), scan.cols()) == (GAME.1, GAME.2) && Rules::preset(GAME.0).is_ok_and(|r| *scan.rules() == r)
}

/// A known cell's token split into its index and its [`Memo::key`](super::Memo::key) byte.
fn token_parts(token: &str) -> Option<(usize, u8)> {
    let split = token.find(|c: char| !c.is_ascii_digit())?;
    let (index, code) = token.split_at(split);
    let byte = match code {
        "o" => 1,
        "x" => 2,
        "s" => 3,
        _ => code.strip_prefix('k')?.parse::<u8>().ok()?.checked_add(4)?,
    };
    Some((index.parse().ok()?, byte))
}

/// One line of a book: the state `key`, the cell chosen there and the checkpoint.
fn line(key: &[u8], cell: Position, at: &Checkpoint, cols: usize) -> String {
    let mut out = String::new();
    for (i, &b) in key.iter().enumerate() {
        let code = match b {
            0 => continue,
            1 => "o".to_string(),
            2 => "x".to_string(),
            3 => "s".to_string(),
            k => format!("k{}", k - 4),
        };
        let _ = write!(out, "{i}{code} ");
    }
    let _ = write!(out, "> {}", cell.row * cols + cell.col);
    for w in at.words() {
        let _ = write!(out, " {w:016x}");
    }
    out
}

/// What [`make`] did: the states it chose in and the share of games that reach one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Made {
    /// The states in the book.
    pub states: usize,
    /// The chance that a game's next probe is taken from the book, summed over the
    /// probes of a game: the probes a game takes from the book on average.
    pub probes: f64,
}

/// Works out a book for `look` on `rules`' bay (whose fleet the scans know): from the
/// empty bay, every state a game reaches with a chance of at least `reach` (the
/// chances of each answer estimated on `samples` layouts drawn there), the likeliest
/// first. Returns the book's text (its lines in a fixed order) and what it holds.
/// Pre: `look` is the scanner whose choices the book is to hold, fresh (its memo
/// empty); `reach` > 0. Post: `Book::parse` reads the text back; `look`'s memo holds
/// the choices.
pub fn make(look: &mut Lookahead, rules: &Rules, reach: f64, samples: usize) -> Result<(String, Made), ScanError> {
    let (rows, cols) = rules.bay();
    let settings = Settings { prior: Prior::Uniform, samples: samples.max(1), ..Settings::default() };
    let mut odds = Estimator::with_settings(0x600c, settings);
    let mut drawn = Vec::new();
    // The states to expand: their chance, the probes that lead there, a bay that agrees.
    let Some(first) = any_layout(rules, &mut odds, &mut drawn) else { return Ok((String::new(), no_book())) };
    let mut open: Vec<(f64, Vec<Position>, Board)> = vec![(1.0, Vec::new(), first)];
    let mut probes = 0.0;
    while let Some(at) = (0..open.len()).max_by(|&a, &b| open[a].0.total_cmp(&open[b].0)) {
        let (chance, path, board) = open.swap_remove(at);
        let mut referee = Referee::new(&board);
        let mut silent = Silent;
        let mut scan = Scan::new(&mut referee, &mut silent);
        look.start(&scan);
        for &cell in &path {
            look.step(&scan)?;
            scan.probe(cell, Source::Density)?;
            scan.end_step();
        }
        if scan.is_done() {
            continue;
        }
        let cell = look.step(&scan)?;
        probes += chance;
        // The answers there: each one's chance, and a layout that gives it.
        let Some(post) = super::posterior_rules(&scan) else { continue };
        let ev = Evidence { known: scan.record(), wrecks: None, rules: &post };
        if odds.sample_layouts(&ev, samples, &mut drawn).is_err() {
            continue;
        }
        let mut answers: Vec<(Answer, f64, Vec<crate::game::ship::Ship>)> = Vec::new();
        let i = cell.row * cols + cell.col;
        for l in &drawn {
            let Ok(layout) = Board::with_rules(rows, cols, l.ships.clone(), &post) else { continue };
            let mut record = scan.record().clone();
            let said = referee::probe(&layout, i, &mut record);
            match answers.iter_mut().find(|a| a.0 == said) {
                Some(a) => a.1 += l.weight,
                None => answers.push((said, l.weight, l.ships.clone())),
            }
        }
        for (_, weight, ships) in answers {
            // The memo holds every state expanded; a full one would start again.
            if chance * weight >= reach && look.memo.chosen.len() + open.len() < super::MEMO_CHOICES {
                let mut next = path.clone();
                next.push(cell);
                // The game's board with the scan's rules (the layout's are the fleet's).
                let Ok(bay) = Board::with_rules(rows, cols, ships, scan.rules()) else { continue };
                open.push((chance * weight, next, bay));
            }
        }
    }
    let mut lines: Vec<(usize, String)> = look
        .memo
        .chosen
        .iter()
        .map(|(k, (c, at))| (k.iter().filter(|&&b| b != 0).count(), line(k, *c, at, cols)))
        .collect();
    lines.sort();
    let states = lines.len();
    let mut text = format!("{}\n", header(reach, samples));
    text.extend(lines.into_iter().map(|(_, l)| l + "\n"));
    Ok((text, Made { states, probes }))
}

/// The first line of a book [`make`] writes: how it was made.
pub fn header(reach: f64, samples: usize) -> String {
    format!(
        "# lookahead's opening book: reach {reach}, {samples} layouts a state (BOOK_REACH={reach} BOOK_SAMPLES={samples} cargo test --release --test all optimum::make_the_lookahead_book -- --exact --ignored)"
    )
}

/// The reach and the layouts a state of the kept book, from its first line.
/// Pre: none. Post: `None` when the first line is not a [`header`].
pub fn made_with() -> Option<(f64, usize)> {
    let first = TEXT.lines().next()?;
    let rest = first.strip_prefix("# lookahead's opening book: reach ")?;
    let (reach, rest) = rest.split_once(", ")?;
    let samples = rest.split_once(' ')?.0;
    let (reach, samples) = (reach.parse().ok()?, samples.parse().ok()?);
    (first == header(reach, samples)).then_some((reach, samples))
}

/// Nothing made.
fn no_book() -> Made {
    Made { states: 0, probes: 0.0 }
}

/// One layout of `rules`' fleet on its empty bay, as a board of those rules.
fn any_layout(rules: &Rules, odds: &mut Estimator, drawn: &mut Vec<crate::posterior::SampledLayout>) -> Option<Board> {
    let (rows, cols) = rules.bay();
    let record = crate::scan::record::ScanRecord::new(rows, cols);
    let ev = Evidence { known: &record, wrecks: None, rules };
    odds.sample_layouts(&ev, 1, drawn).ok()?;
    let l = drawn.first()?;
    Board::with_rules(rows, cols, l.ships.clone(), rules).ok()
}

#[cfg(test)]
mod tests {
    use super::super::Memo;
    use super::*;

    #[test]
    fn a_line_reads_back_as_written() {
        let mut key = vec![0u8; 12];
        (key[0], key[5], key[7], key[11]) = (1, 2, 3, 6);
        let at = Checkpoint::from_words([1, 2, u64::MAX, 0xabc, 17]);
        let text = line(&key, Position::new(1, 0), &at, 4);
        assert_eq!(
            text,
            format!("0o 5x 7s 11k2 > 4 {:016x} {:016x} {:016x} {:016x} {:016x}", 1, 2, u64::MAX, 0xabc, 17)
        );
        let book = Book::parse(&text, 3, 4).unwrap();
        let (cell, back) = book.get(&key).unwrap();
        assert_eq!((*cell, back.words()), (Position::new(1, 0), at.words()));
        assert_eq!(book.len(), 1);
    }

    #[test]
    fn a_bad_line_is_refused_with_its_number() {
        let words = " 1 1 2 3 4 5";
        for (text, why) in [
            ("0o 1x", "no `>`"),
            ("0q > 1 1 2 3 4 5", "INDEXcode"),
            ("99o > 1 1 2 3 4 5", "outside the bay"),
            ("0o >", "no chosen cell"),
            ("0o > 0 1 2 3 4 5", "known"),
            ("0o > 12 1 2 3 4 5", "known"),
            ("0o > 1 1 2 3 4", "fewer than five"),
            ("0o > 1 1 2 3 4 g", "not hex"),
            ("0o > 1 1 2 3 4 5 6", "more than five"),
        ] {
            let err = Book::parse(&format!("# a comment\n\n{text}"), 3, 4).unwrap_err();
            assert!(err.starts_with("line 3: ") && err.contains(why), "{text}: {err}");
        }
        let twice = format!("0o >{words}\n0o > 2 1 2 3 4 5");
        assert!(Book::parse(&twice, 3, 4).unwrap_err().contains("line 2: a state given twice"));
    }

    #[test]
    fn the_kept_book_reads_and_each_state_follows_from_another_by_its_choice() {
        let book = Book::parse(TEXT, GAME.1, GAME.2).unwrap();
        assert_eq!(classic().len(), book.len());
        assert!(book.len() >= 20, "{} states", book.len());
        assert!(book.get(&[0; 100]).is_some(), "the empty bay's choice");
        for key in book.chosen.keys().filter(|k| k.iter().any(|&b| b != 0)) {
            // Some known cell is the choice of the state without it.
            let parent = key.iter().enumerate().filter(|(_, &b)| b != 0).any(|(i, _)| {
                let mut before = key.clone();
                before[i] = 0;
                book.get(&before).is_some_and(|(cell, _)| cell.row * GAME.2 + cell.col == i)
            });
            assert!(parent, "{}", line(key, Position::new(0, 0), &Checkpoint::from_words([0; 5]), GAME.2));
        }
    }

    #[test]
    fn the_kept_book_says_how_it_was_made() {
        let (reach, samples) = made_with().unwrap();
        assert!(reach > 0.0 && samples > 0);
        assert_eq!(made_with(), Some((reach, samples)));
    }

    #[test]
    fn the_books_first_choices_are_the_searchs() {
        use crate::strategy::testing::game_boards;
        let rules = Rules::preset(GAME.0).unwrap();
        // A board whose first answer is a miss: the empty bay's state, then the likeliest.
        let board = game_boards(&rules, GAME.1, GAME.2, 1, 8)
            .into_iter()
            .find(|b| classic().get(&[0; 100]).is_some_and(|(c, _)| !b.is_ship_at(c.row * GAME.2 + c.col)))
            .unwrap();
        let mut referee = Referee::new(&board);
        let mut silent = Silent;
        let mut scan = Scan::new(&mut referee, &mut silent);
        let mut look = Lookahead::new(crate::strategy::DEFAULT_SEED).without_book();
        look.start(&scan);
        for _ in 0..2 {
            let key = Memo::key(&scan);
            let (kept, at) = classic().get(&key).unwrap();
            assert_eq!(look.step(&scan).unwrap(), *kept);
            assert_eq!(look.estimator.checkpoint().words(), at.words());
            scan.probe(*kept, Source::Density).unwrap();
            scan.end_step();
        }
    }

    #[test]
    fn the_book_covers_the_classic_game_only() {
        use crate::game::rules::Sunk;
        use crate::strategy::testing::game_boards;
        let classic = Rules::preset(GAME.0).unwrap();
        let covered = |rules: &Rules, rows: usize, cols: usize| {
            let board = game_boards(rules, rows, cols, 3, 1).pop().unwrap();
            let mut referee = Referee::new(&board);
            let mut silent = Silent;
            covers(&Scan::new(&mut referee, &mut silent))
        };
        assert!(covered(&classic, 10, 10));
        assert!(!covered(&classic, 9, 10) && !covered(&classic, 10, 11));
        assert!(!covered(&classic.clone().with_touch(false), 10, 10));
        assert!(!covered(&classic.clone().with_sunk(Sunk::Yes), 10, 10));
        let fewer = crate::game::fleet::Fleet::of_sizes(&[5, 4, 3, 2]);
        assert!(!covered(&classic.clone().with_fleet(fewer), 10, 10));
        assert!(!covered(&Rules::preset("russian").unwrap(), 10, 10));
    }
}
