//! Ship groups: the posterior's view of the fleet. Ships the answers cannot tell apart
//! (same shape, and same name when sunk answers name ships) are one group of
//! interchangeable ships. Groups are in the generator's placement order: largest
//! first, ties in the fleet's order.

use crate::game::fleet::Fleet;
use crate::game::rules::{Rules, Sunk};
use crate::game::shape::Shape;

/// Interchangeable ships.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Group {
    /// The shapes the ships may take on the bay.
    pub variants: Vec<Shape>,
    /// Cells per ship.
    pub size: usize,
    /// Ships in the group.
    pub count: usize,
    /// The fleet kinds merged into the group.
    pub kinds: Vec<usize>,
}

/// The groups of `fleet` under `rules`, in placement order.
/// Pre: none. Post: one entry per distinct (shape, and name under `sunk named`).
pub(crate) fn groups(fleet: &Fleet, rules: &Rules) -> Vec<Group> {
    let named = rules.sunk() == Sunk::Named;
    let mut out: Vec<(Shape, String, Group)> = Vec::new();
    for k in fleet.ship_kinds() {
        let Some(kind) = fleet.kinds().get(k) else { continue };
        let same = |(shape, name, _): &&mut (Shape, String, Group)| {
            *shape == kind.shape && (!named || name.eq_ignore_ascii_case(&kind.name))
        };
        match out.iter_mut().find(|e| same(e)) {
            Some((_, _, g)) => {
                g.count += 1;
                if !g.kinds.contains(&k) {
                    g.kinds.push(k);
                }
            }
            None => out.push((
                kind.shape,
                kind.name.clone(),
                Group { variants: rules.variants(kind.shape), size: kind.shape.size(), count: 1, kinds: vec![k] },
            )),
        }
    }
    out.into_iter().map(|(_, _, g)| g).collect()
}

/// The group holding fleet kind `kind`.
/// Pre: none. Post: `None` for a kind in no group.
pub(crate) fn group_of(groups: &[Group], kind: usize) -> Option<usize> {
    groups.iter().position(|g| g.kinds.contains(&kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_merge_what_the_answers_cannot_tell_apart() {
        let g = groups(&Fleet::of_sizes(&[5, 4, 3, 3, 2, 2, 1, 1]), &Rules::problem_g());
        let sizes: Vec<(usize, usize, usize)> = g.iter().map(|g| (g.size, g.count, g.variants.len())).collect();
        assert_eq!(sizes, vec![(5, 1, 2), (4, 1, 2), (3, 2, 2), (2, 2, 2), (1, 2, 1)]);
        let classic = Rules::preset("classic").unwrap();
        assert_eq!(groups(classic.fleet(), &classic).len(), 5);
        let unnamed = classic.clone().with_sunk(Sunk::Yes);
        let g = groups(unnamed.fleet(), &unnamed);
        assert_eq!(g.len(), 4);
        assert_eq!((g[2].count, g[2].kinds.clone()), (2, vec![2, 3]));
        assert_eq!(group_of(&g, 3), Some(2));
    }
}
