//! Per-ply search state, preallocated once so the search never allocates.

use crate::movegen::{BBox, MoveList};
use crate::types::{Pos, Value, VALUE_NONE};

/// Deepest ply the search can reach (main search, extensions and quiescence).
pub const MAX_PLY: usize = 128;

// One slot per ply: the parent writes the child's bounding box before recursing, the
// node owns its move list and killers.
/// The search state of one ply.
pub struct Frame {
    /// Moves of this node.
    pub moves: MoveList,
    /// Two recent quiet moves that caused a cutoff at this ply.
    pub killers: [Pos; 2],
    /// Candidate area of this node's position.
    pub bbox: BBox,
    /// The move left out of this node's search (`Pos::NONE` but during the singular
    /// extension's test of the other moves, which neither probes nor stores the table).
    pub excluded: Pos,
    /// The static values of the parent and the grandparent (`VALUE_NONE` where not
    /// computed), written by the parent before recursing; the grandparent's is from this
    /// node's side to move, as its own.
    pub evals: [Value; 2],
    /// Whether this node is expected to fail high (a cut node), written by the parent:
    /// the first move's child of a cut node is an all node and the reverse, and a
    /// reduced search's child is a cut node. Read only by `lmr_cut` and `rfp_cut`.
    pub cut: bool,
}

impl Frame {
    fn new() -> Frame {
        Frame {
            moves: MoveList::default(),
            killers: [Pos::NONE; 2],
            bbox: BBox::default(),
            excluded: Pos::NONE,
            evals: [VALUE_NONE; 2],
            cut: false,
        }
    }
}

/// A fresh stack of `MAX_PLY + 2` frames (heap allocated).
#[must_use]
pub fn new_stack() -> Vec<Frame> {
    (0..MAX_PLY + 2).map(|_| Frame::new()).collect()
}
