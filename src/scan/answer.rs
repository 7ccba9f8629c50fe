//! What a probe answers: water, a ship cell, or (under rules that announce it) the
//! last cell of a ship.

/// What a probe answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Water.
    Miss,
    /// A ship cell, its ship not complete yet (or rules that never say "sunk").
    Hit,
    /// A ship cell that completes its ship: under `sunk named`, the kind of the ship
    /// (an index into the fleet's kinds), under `sunk yes` none.
    Sunk(Option<usize>),
}

impl Answer {
    /// True for a ship cell (`Hit` or `Sunk`).
    /// Pre: none. Post: false only for `Miss`.
    #[inline]
    pub fn is_hit(self) -> bool {
        self != Answer::Miss
    }

    /// `Hit` for true, `Miss` for false.
    /// Pre: none. Post: `is_hit() == hit`.
    #[inline]
    pub fn from_hit(hit: bool) -> Answer {
        if hit {
            Answer::Hit
        } else {
            Answer::Miss
        }
    }
}
