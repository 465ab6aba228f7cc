//! Chain runs: the Sudoku layer's [`Propagator`] for the automata the
//! encoder reads along cells ([`Encoder::chain`]: sandwiches, arrows and
//! pill arrows, little killers, lines whose rule is a state carried along
//! them), made consistent with the cells' candidates at every node where
//! nothing is forced.
//!
//! The matrix says an automaton with an option a transition, tied step to
//! step by items, and that only *forward checks*: a transition goes when
//! its cell's digit or a neighbouring step's state is taken, not when no
//! run through the candidates of the other cells can reach it. A sandwich
//! clue of 18 on an empty row keeps every digit of every cell in the
//! matrix; the runs say that a 1 or 9 in the row's middle leaves too few
//! cells on one side. Here each automaton is kept as its layers of states
//! and transitions, and at a node the states reachable from the start
//! through the cells' candidates are marked forward, those that reach an
//! accepting state backward, and a cell keeps only the digits of a
//! transition on such a run (the *regular* constraint's consistency, as
//! constraint solvers enforce it). An automaton with no run left is a dead
//! end. Without it, "Sandwich snipe 18" (13 clues, no givens) searched
//! 41 M first-forced nodes in 30 s without a solution (BENCHMARKS.md,
//! "Chain runs").
//!
//! A digit's transitions that move one run of states into another (a
//! sum's step: every state moves by the digit) are read as two slices
//! side by side rather than an index a transition: a long pill arrow's
//! automaton, some 2,000 transitions a step, 3.8× faster so.
//!
//! Each call runs every automaton that reads a cell whose candidates
//! changed since the last call on this path, and again each one that
//! reads a cell another has narrowed, to a fixpoint: the propagator keeps each
//! cell's candidates, as that call left them, in its words of the state
//! ([`Live::state`], restored on a backtrack), as the sum bounds do.
//!
//! Invariant: a digit goes only when no run of its automaton through the
//! other cells' candidates takes it, and every automaton is one of the
//! rules (or implied by them), so no solution is lost: the propagator is
//! redundant, as the [`Propagator`] contract asks.

use std::cell::RefCell;

use super::Run;
use crate::dlx::{Live, Propagator};

/// What a call of [`Chains::propagate`] works in, kept between calls on
/// the thread (a search calls at every node where nothing is forced; the
/// vectors are sized once, not allocated and zeroed each call).
#[derive(Default)]
struct Scratch {
    /// Each cell's candidates now.
    now: Vec<u64>,
    /// Whether each automaton is in `queue`.
    queued: Vec<bool>,
    queue: Vec<usize>,
    /// The states reached forward and backward ([`Chain::narrow`]).
    reach: Vec<bool>,
    back: Vec<bool>,
    /// The candidates of the automaton's cells, in its order.
    masks: Vec<u64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// One automaton along cells (see the module documentation).
#[derive(Clone, Debug)]
struct Chain {
    /// The cells read, in order.
    cells: Vec<usize>,
    /// Whether a cell is read more than once.
    repeats: bool,
    /// Where each layer's states start in a run's flags: layer `i` (the
    /// states before cell `i`; layer `cells.len()` the accepted ones)
    /// holds flags `first[i]..first[i + 1]`.
    first: Vec<usize>,
    /// The transitions of each step, (state before, state after), states
    /// by their place in their layer, by digit: step `i`'s transitions
    /// with digit `d + 1` are `moves[i][by_digit[i][d]..by_digit[i][d + 1]]`
    /// (a placed cell's step reads its digit's alone).
    moves: Vec<Vec<(u32, u32)>>,
    by_digit: Vec<Vec<u32>>,
    /// For each step and digit, where its transitions are one run of
    /// states into another, `(a + j → b + j)` for `j < len` (a sum's
    /// step: the state moves by the digit), `(a, b, len)`: read as two
    /// slices side by side, no index a transition.
    shifts: Vec<Vec<Option<(u32, u32, u32)>>>,
}

/// The fewest transitions of a digit read as slices ([`Chain::shifts`]).
const SHIFT_FROM: usize = 8;

/// Run consistency over every automaton of a rule set (see the module
/// documentation).
#[derive(Debug)]
pub(crate) struct Chains {
    n: usize,
    chains: Vec<Chain>,
    /// For each cell of the grid, the automata reading it.
    on: Vec<Vec<usize>>,
    /// The most flags one automaton needs.
    widest: usize,
}

impl Chains {
    /// The propagator for the automata `runs` of a grid of side `n`, or
    /// `None` where there are none.
    pub(crate) fn new(n: usize, runs: &[&Run]) -> Option<Chains> {
        if runs.is_empty() || n > 64 {
            return None;
        }
        let mut on = vec![Vec::new(); n * n];
        let mut chains = Vec::with_capacity(runs.len());
        for r in runs {
            let mut first = Vec::with_capacity(r.widths.len() + 1);
            let mut at = 0;
            for &w in &r.widths {
                first.push(at);
                at += w;
            }
            first.push(at);
            let mut moves = Vec::with_capacity(r.moves.len());
            let mut by_digit = Vec::with_capacity(r.moves.len());
            let mut shifts = Vec::with_capacity(r.moves.len());
            for step in &r.moves {
                let mut sorted: Vec<(u8, u32, u32)> = step
                    .iter()
                    .map(|&(a, d, b)| (d - 1, a as u32, b as u32))
                    .collect();
                sorted.sort_unstable();
                let mut starts = vec![0u32; n + 1];
                for &(d, _, _) in &sorted {
                    if let Some(at) = starts.get_mut(usize::from(d)) {
                        *at += 1;
                    }
                }
                // Counts to starts: digit x + 1's run begins after the
                // runs of the digits below it.
                let mut at = 0;
                for x in starts.iter_mut() {
                    let c = *x;
                    *x = at;
                    at += c;
                }
                let pairs: Vec<(u32, u32)> = sorted.iter().map(|&(_, a, b)| (a, b)).collect();
                let shift = (0..n)
                    .map(|x| {
                        let run = &pairs[starts[x] as usize..starts[x + 1] as usize];
                        let &(a, b) = run.first()?;
                        let along = (0u32..)
                            .zip(run)
                            .all(|(j, &(x, y))| x == a + j && y == b + j);
                        (along && run.len() >= SHIFT_FROM).then_some((a, b, run.len() as u32))
                    })
                    .collect();
                moves.push(pairs);
                by_digit.push(starts);
                shifts.push(shift);
            }
            for &k in &r.cells {
                match on.get_mut(k) {
                    Some(list) if list.last() != Some(&chains.len()) => list.push(chains.len()),
                    _ => {}
                }
            }
            let mut sorted = r.cells.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            chains.push(Chain {
                repeats: sorted.len() < r.cells.len(),
                cells: r.cells.to_vec(),
                first,
                moves,
                by_digit,
                shifts,
            });
        }
        let widest = chains.iter().map(|c| c.first.last().copied().unwrap_or(0));
        let widest = widest.max().unwrap_or(0);
        Some(Chains {
            n,
            chains,
            on,
            widest,
        })
    }
}

impl Chain {
    /// The digits each cell keeps (`masks`: their candidates, by the
    /// chain's order), written over `masks`; false where no run is left.
    /// `reach` and `back` are scratch flags, at least the chain's.
    fn narrow(&self, masks: &mut [u64], reach: &mut [bool], back: &mut [bool]) -> bool {
        let m = self.cells.len();
        let total = self.first[m + 1];
        let (reach, back) = (&mut reach[..total], &mut back[..total]);
        reach.fill(false);
        back.fill(false);
        if self.first[1] == 0 {
            // No state before the first cell: nothing is accepted.
            return false;
        }
        reach[0] = true;
        for (i, step) in self.moves.iter().enumerate() {
            let (from, to, starts) = (self.first[i], self.first[i + 1], &self.by_digit[i]);
            let mut any = false;
            let mut digits = masks[i];
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if let Some((a, b, len)) = self.shifts[i].get(d).copied().flatten() {
                    let (before, after) = reach.split_at_mut(to);
                    let src = &before[from + a as usize..][..len as usize];
                    let dst = &mut after[b as usize..][..len as usize];
                    let mut seen = false;
                    for (y, &x) in dst.iter_mut().zip(src) {
                        *y |= x;
                        seen |= x;
                    }
                    any |= seen;
                    continue;
                }
                let Some(run) = starts.get(d..d + 2) else {
                    break;
                };
                for &(a, b) in &step[run[0] as usize..run[1] as usize] {
                    if reach[from + a as usize] {
                        reach[to + b as usize] = true;
                        any = true;
                    }
                }
            }
            if !any {
                return false;
            }
        }
        // Every state of the last layer accepts (the encoder kept those).
        back[self.first[m]..total].fill(true);
        for (i, step) in self.moves.iter().enumerate().rev() {
            let (from, to, starts) = (self.first[i], self.first[i + 1], &self.by_digit[i]);
            let mut keep = 0u64;
            let mut digits = masks[i];
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if let Some((a, b, len)) = self.shifts[i].get(d).copied().flatten() {
                    let (before, after) = back.split_at_mut(to);
                    let found = &reach[from + a as usize..][..len as usize];
                    let src = &after[b as usize..][..len as usize];
                    let dst = &mut before[from + a as usize..][..len as usize];
                    let mut hit = false;
                    for ((y, &x), &r) in dst.iter_mut().zip(src).zip(found) {
                        let v = x & r;
                        *y |= v;
                        hit |= v;
                    }
                    if hit {
                        keep |= 1 << d;
                    }
                    continue;
                }
                let Some(run) = starts.get(d..d + 2) else {
                    break;
                };
                for &(a, b) in &step[run[0] as usize..run[1] as usize] {
                    let (a, b) = (from + a as usize, to + b as usize);
                    if reach[a] && back[b] {
                        back[a] = true;
                        keep |= 1 << d;
                    }
                }
            }
            if keep == 0 {
                return false;
            }
            masks[i] = keep;
        }
        true
    }
}

impl Propagator for Chains {
    fn propagate(&self, live: &mut dyn Live) -> bool {
        SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => self.run(live, &mut scratch),
            // (Not reentrant; were it ever, fresh vectors.)
            Err(_) => self.run(live, &mut Scratch::default()),
        })
    }

    /// Each cell's candidates as the last call on the path left them.
    fn state_words(&self) -> usize {
        self.n * self.n
    }
}

impl Chains {
    /// [`Propagator::propagate`] in `scratch`.
    fn run(&self, live: &mut dyn Live, scratch: &mut Scratch) -> bool {
        let Scratch {
            now,
            queued,
            queue,
            reach,
            back,
            masks,
        } = scratch;
        let n = self.n;
        let cells = n * n;
        // Each cell's candidates now (a placed cell its one digit).
        now.clear();
        now.resize(cells, 0);
        for (k, mask) in now.iter_mut().enumerate() {
            let options = live.options(k);
            *mask = if options != 0 {
                options
            } else {
                match live.chosen(k) {
                    Some(o) => 1 << (o.as_usize() % n),
                    None => return false,
                }
            };
        }
        // The automata to run: those reading a cell changed since the
        // last call on this path (all of them where no words are kept).
        queued.clear();
        queued.resize(self.chains.len(), false);
        {
            let words = live.state();
            let kept = words.len() >= cells;
            for (k, &mask) in now.iter().enumerate() {
                if !kept || words[k] != mask {
                    for &c in &self.on[k] {
                        queued[c] = true;
                    }
                }
            }
        }
        queue.clear();
        queue.extend((0..self.chains.len()).rev().filter(|&c| queued[c]));
        // (`narrow` clears the part it reads.)
        if reach.len() < self.widest {
            reach.resize(self.widest, false);
            back.resize(self.widest, false);
        }
        while let Some(c) = queue.pop() {
            queued[c] = false;
            let chain = &self.chains[c];
            masks.clear();
            masks.extend(chain.cells.iter().map(|&k| now[k]));
            if !chain.narrow(masks, reach, back) {
                live.state().fill(0);
                return false;
            }
            let mut narrowed = false;
            for (&k, &keep) in chain.cells.iter().zip(masks.iter()) {
                let gone = now[k] & !keep;
                if gone == 0 {
                    continue;
                }
                narrowed = true;
                if live.options(k) == 0 {
                    // A placed digit no run takes.
                    live.state().fill(0);
                    return false;
                }
                live.hide(k, gone);
                now[k] &= keep;
                // The other automata reading the cell run again.
                for &other in &self.on[k] {
                    if other != c && !queued[other] {
                        queued[other] = true;
                        queue.push(other);
                    }
                }
            }
            // An automaton that reads a cell twice (groups of equal
            // products that cross) narrows each reading apart: the cell
            // keeps what both allow, which may cut more.
            if narrowed && chain.repeats && !queued[c] {
                queued[c] = true;
                queue.push(c);
            }
        }
        let words = live.state();
        if words.len() >= cells {
            words[..cells].copy_from_slice(now);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::constraints::tests::Cells;

    /// Three cells of digits 1–4 adding up to `sum`, as the encoder would
    /// keep it: a state a partial sum.
    fn adding_up(cells: &[usize], n: u8, sum: usize) -> Run {
        let m = cells.len();
        let mut layers: Vec<Vec<usize>> = vec![vec![0]];
        for _ in 0..m {
            let last = layers.last().unwrap();
            let mut next: Vec<usize> = last
                .iter()
                .flat_map(|&s| (1..=n as usize).map(move |d| s + d))
                .filter(|&s| s <= sum)
                .collect();
            next.sort_unstable();
            next.dedup();
            layers.push(next);
        }
        layers[m].retain(|&s| s == sum);
        let moves = (0..m)
            .map(|i| {
                let mut out = Vec::new();
                for (a, &s) in layers[i].iter().enumerate() {
                    for d in 1..=n {
                        if let Some(b) = layers[i + 1].iter().position(|&t| t == s + d as usize) {
                            out.push((a, d, b));
                        }
                    }
                }
                out
            })
            .collect();
        Run {
            cells: cells.to_vec(),
            widths: layers.iter().map(Vec::len).collect(),
            moves,
        }
    }

    #[test]
    fn a_sum_keeps_the_digits_of_some_run() {
        let n = 4;
        let cells = [0, 1, 2];
        let run = adding_up(&cells, n as u8, 11);
        let p = Chains::new(n, &[&run]).unwrap();
        let mut live = Cells::new(n);
        assert!(p.propagate(&mut live));
        // 11 from three digits up to 4: each at least 3.
        assert_eq!(live.masks[..3], [0b1100, 0b1100, 0b1100]);
        // A 3 placed in the middle: the others hold 4.
        live.masks[1] = 0;
        live.placed[1] = Some(2);
        assert!(p.propagate(&mut live));
        assert_eq!(live.masks[0], 0b1000);
        assert_eq!(live.masks[2], 0b1000);
        // Both ends 3: no run.
        let mut live = Cells::new(n);
        live.masks[0] = 0b0100;
        live.masks[2] = 0b0100;
        live.masks[1] = 0b0011;
        assert!(!p.propagate(&mut live));
    }

    #[test]
    fn runs_read_as_slices_keep_what_brute_force_keeps() {
        use rand::{Rng, SeedableRng};
        // Five cells of digits 1–9 adding up to 25: a sum's steps, most
        // digits' transitions one run of states into another (slices).
        let n = 9;
        let cells = [0, 1, 2, 3, 4];
        let run = adding_up(&cells, n as u8, 25);
        let p = Chains::new(n, &[&run]).unwrap();
        let sliced = &p.chains[0];
        assert!(sliced.shifts.iter().flatten().any(Option::is_some));
        // The same automaton read transition by transition.
        let mut listed = sliced.clone();
        listed.shifts.iter_mut().flatten().for_each(|s| *s = None);
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let width = sliced.first.last().copied().unwrap();
        let (mut reach, mut back) = (vec![false; width], vec![false; width]);
        for _ in 0..200 {
            let masks: Vec<u64> = (0..5)
                .map(|_| match rng.gen_range(0..4) {
                    0 => 1 << rng.gen_range(0..n),
                    _ => rng.gen_range(1..1u64 << n),
                })
                .collect();
            // Brute force: the digits of each cell some assignment keeps.
            let mut want = vec![0u64; 5];
            let mut any = false;
            for code in 0..9usize.pow(5) {
                let digits: Vec<usize> = (0..5).map(|i| code / 9usize.pow(i) % 9).collect();
                let fits = digits.iter().zip(&masks).all(|(&d, &m)| m >> d & 1 != 0);
                if fits && digits.iter().map(|&d| d + 1).sum::<usize>() == 25 {
                    any = true;
                    for (w, &d) in want.iter_mut().zip(&digits) {
                        *w |= 1 << d;
                    }
                }
            }
            for chain in [sliced, &listed] {
                let mut got = masks.clone();
                let alive = chain.narrow(&mut got, &mut reach, &mut back);
                assert_eq!(alive, any, "{masks:?}");
                if any {
                    assert_eq!(got, want, "{masks:?}");
                }
            }
        }
    }
}
