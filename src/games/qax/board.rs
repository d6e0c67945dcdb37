//! The play area (QAX-01): the board of `rows × cols` spaces plus one ring of
//! "outside" spaces, 8-neighbour adjacency (QAX-3.3, QAX-3.4 "horizontally, vertically or
//! diagonally").
//!
//! Cells are numbered on a fixed 16-wide grid, `cell = 16·row + col`, so a cell's name does
//! not depend on the board: columns `a`–`p`, rows `1`–`8` (`a1` is the top-left corner of
//! the play area, a ring cell; the 6×6 board is `b2`–`g7`). Sets of cells are `u128`
//! bitmasks.

use super::BoardShape;

/// Grid width used for cell numbers.
pub const GRID_W: usize = 16;
/// Grid height (rows of the largest play area).
pub const GRID_H: usize = 8;
/// Number of cell ids (`16 × 8`).
pub const MAX_CELLS: usize = GRID_W * GRID_H;
/// Marker for "no cell" (off the play area, or none).
pub const NO_CELL: u8 = u8::MAX;

/// Direction names, index = direction id: clockwise from north.
pub const DIR_NAMES: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];
/// Row and column steps per direction.
pub const DIRS: [(i8, i8); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// The name of a cell: column letter, then row number (`d3`).
pub fn cell_name(c: u8) -> String {
    let (r, col) = (c as usize / GRID_W, c as usize % GRID_W);
    format!("{}{}", (b'a' + col as u8) as char, r + 1)
}

/// Parses a cell name (`d3`); `None` if malformed or outside the 16 × 8 grid.
pub fn parse_cell(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() < 2 || !(b'a'..b'a' + GRID_W as u8).contains(&b[0]) {
        return None;
    }
    let row: usize = s[1..].parse().ok()?;
    if !(1..=GRID_H).contains(&row) || s[1..].starts_with('0') {
        return None;
    }
    Some(((row - 1) * GRID_W + (b[0] - b'a') as usize) as u8)
}

/// The geometry derived from the board shape: which cells are in the play area, on the
/// board, and each cell's neighbours.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Board rows (6 for 6×6).
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Cells of the play area (board + ring).
    pub area: u128,
    /// Cells of the board (where fields lie at setup).
    pub board: u128,
    /// Per cell, its 8-neighbours inside the play area.
    pub neigh: [u128; MAX_CELLS],
    /// Per cell and direction, the neighbour cell, or [`NO_CELL`] off the play area.
    pub step: [[u8; 8]; MAX_CELLS],
    /// Per cell and diagonal direction, the two orthogonal cells the move passes between
    /// (for `diagonal_rule`); [`NO_CELL`] off the area. Unused for orthogonal directions.
    pub between: [[[u8; 2]; 8]; MAX_CELLS],
}

impl Geometry {
    /// The geometry of a board shape.
    pub fn new(shape: BoardShape) -> Geometry {
        let (rows, cols) = shape.dims();
        let (h, w) = (rows + 2, cols + 2);
        let inside = |r: i32, c: i32| r >= 0 && c >= 0 && (r as usize) < h && (c as usize) < w;
        let id = |r: i32, c: i32| (r as usize * GRID_W + c as usize) as u8;
        let mut g = Geometry {
            rows,
            cols,
            area: 0,
            board: 0,
            neigh: [0; MAX_CELLS],
            step: [[NO_CELL; 8]; MAX_CELLS],
            between: [[[NO_CELL; 2]; 8]; MAX_CELLS],
        };
        for r in 0..h as i32 {
            for c in 0..w as i32 {
                let cell = id(r, c) as usize;
                g.area |= 1u128 << cell;
                if r >= 1 && c >= 1 && r as usize <= rows && c as usize <= cols {
                    g.board |= 1u128 << cell;
                }
                for (d, &(dr, dc)) in DIRS.iter().enumerate() {
                    let (nr, nc) = (r + dr as i32, c + dc as i32);
                    if inside(nr, nc) {
                        g.step[cell][d] = id(nr, nc);
                        g.neigh[cell] |= 1u128 << id(nr, nc);
                    }
                    if dr != 0 && dc != 0 {
                        // Both orthogonal cells are inside whenever the destination is.
                        if inside(nr, nc) {
                            g.between[cell][d] = [id(r + dr as i32, c), id(r, c + dc as i32)];
                        }
                    }
                }
            }
        }
        g
    }

    /// The direction from `a` to its neighbour `b`, if they are 8-adjacent.
    pub fn dir_between(&self, a: u8, b: u8) -> Option<u8> {
        (0..8u8).find(|&d| self.step[a as usize][d as usize] == b)
    }
}

/// Iterates the set bits of a cell mask in ascending order.
#[inline]
pub fn cells(mut mask: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let c = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(c)
        }
    })
}
