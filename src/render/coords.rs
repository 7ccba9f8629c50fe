//! Cells as a player names them: `B7` (row letters, then the column from 1), printed
//! and parsed in one place.

use crate::game::position::Position;

/// The row's name in letters: 0 is `A`, 25 `Z`, 26 `AA` (as spreadsheets name columns).
/// Pre: none. Post: one or more capital letters.
pub fn row_letters(row: usize) -> String {
    let mut n = row + 1;
    let mut out = Vec::new();
    while n > 0 {
        let k = (n - 1) % 26;
        out.push(b'A' + k as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// `pos` as a player names it: `B7` (row letters, column from 1).
/// Pre: none. Post: `parse_letters` reads it back.
pub fn letters(pos: Position) -> String {
    format!("{}{}", row_letters(pos.row), pos.col + 1)
}

/// The cell named `B7` (or `b7`, `AA10`): row letters, then the column from 1.
/// Pre: none. Post: `None` unless it is letters then a number of at least 1.
pub fn parse_letters(text: &str) -> Option<Position> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_alphabetic())?;
    let (word, number) = text.split_at(split);
    if word.is_empty() || word.len() > 12 {
        return None;
    }
    let mut row: usize = 0;
    for b in word.bytes() {
        row = row.checked_mul(26)?.checked_add(usize::from(b.to_ascii_uppercase() - b'A') + 1)?;
    }
    let col: usize = number.parse().ok()?;
    Some(Position::new(row.checked_sub(1)?, col.checked_sub(1)?))
}
