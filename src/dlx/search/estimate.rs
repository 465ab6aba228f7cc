//! Knuth's estimate of a search tree from random probes ("Estimating the
//! efficiency of backtrack programs", 1975): how many nodes, updates and
//! solutions a search will meet, before running it.
//!
//! A probe walks from the root to a leaf, choosing at each branch point one
//! of its `d` children uniformly at random, and multiplies: what it meets at
//! a node reached through branch points of `d_1, …, d_l` children counts
//! `d_1⋯d_l` times. The expected value of one probe's total is exactly the
//! tree's, so the mean of many probes converges to it; the spread of the
//! probes says how far to trust the mean (trees with a few huge subtrees
//! need many probes).
//!
//! The walk is the split's ([`split`](super::split::split)) at depth one,
//! repeated: from a node, the search runs through forced levels and dead
//! ends to the next level of branch points, and its counters there (nodes,
//! updates, solutions met) are exact; the children are the live subtrees
//! below, one of which is taken by preselecting its prefix. So a probe is
//! the very search the engine would make, forced chains and dead ends
//! counted exactly rather than sampled, which is Knuth's estimator with its
//! variance only at branch points — and written once, for every engine.

use rand::Rng;

use super::super::stats::Stats;
use super::split::split;
use super::{Split, Steps, Subtree};

/// The mean of a quantity over the probes, and how much they spread.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Spread {
    /// The estimate: the mean over the probes.
    pub mean: f64,
    /// The standard error of the mean: the probes' standard deviation over
    /// the square root of their number (0 with one probe).
    pub std_error: f64,
    /// The smallest single-probe estimate.
    pub min: f64,
    /// The largest single-probe estimate.
    pub max: f64,
}

impl Spread {
    fn of(values: &[f64]) -> Spread {
        let n = values.len() as f64;
        if values.is_empty() {
            return Spread::default();
        }
        let mean = values.iter().sum::<f64>() / n;
        let var = if values.len() > 1 {
            values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        Spread {
            mean,
            std_error: (var / n).sqrt(),
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// The standard error as a fraction of the mean (0 when the mean is 0).
    pub fn relative_error(&self) -> f64 {
        if self.mean > 0.0 {
            self.std_error / self.mean
        } else {
            0.0
        }
    }
}

/// What [`Solver::estimate`](crate::dlx::Solver::estimate) found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    /// The probes made.
    pub probes: u64,
    /// Search-tree nodes, as [`Stats::nodes`] counts them.
    pub nodes: Spread,
    /// Updates, as [`Stats::updates`] counts them.
    pub updates: Spread,
    /// Solutions.
    pub solutions: Spread,
    /// The mean number of branch points on a probe's path.
    pub depth: f64,
}

/// `probes` random probes of the search of `s` below its preselected
/// options, fewer where its deadline or cancel handle stops them (a probe
/// cut short is dropped: [`Estimate::probes`] counts those made). The solver's preselected options (and excluded options and
/// retired items) and counters are as before afterwards; its search is
/// restarted and its profile cleared.
pub(crate) fn estimate(s: &mut impl Steps, probes: u64, rng: &mut impl Rng) -> Estimate {
    let base = {
        let d = s.driver();
        Subtree {
            options: d.preselected.clone(),
            excluded: d.excluded.clone(),
            retired: d.retired.clone(),
        }
    };
    let (stats, start) = (s.driver().stats, s.driver().base);
    let (mut nodes, mut updates, mut solutions) = (Vec::new(), Vec::new(), Vec::new());
    let mut depth = 0u64;
    let mut path = Subtree::default();
    let mut children: Vec<Subtree> = Vec::new();
    let mut made = 0;
    'probes: for _ in 0..probes {
        path.clone_from(&base);
        let (mut weight, mut total, mut levels) = (1.0f64, [0.0f64; 3], 0);
        loop {
            // The path is the search's own: entering it cannot fail.
            s.preselect_subtree(&path)
                .expect("a probe's path is a path of the search");
            children.clear();
            let (exact, stopped): (Stats, _) = split(s, 1, |piece| {
                if let Split::Subtree(p) = piece {
                    children.push(p.clone());
                }
            });
            if stopped.is_some() {
                // The deadline or the cancel handle: this probe is dropped
                // (its children are not all known), the others kept.
                break 'probes;
            }
            total[0] += weight * exact.nodes as f64;
            total[1] += weight * exact.updates as f64;
            total[2] += weight * exact.solutions as f64;
            if children.is_empty() {
                break;
            }
            levels += 1;
            weight *= children.len() as f64;
            let pick = rng.gen_range(0..children.len());
            path.extend(&children[pick]);
        }
        nodes.push(total[0]);
        updates.push(total[1]);
        solutions.push(total[2]);
        depth += levels;
        made += 1;
    }
    s.preselect_subtree(&base)
        .expect("the subtree was entered before the estimate");
    let d = s.driver_mut();
    d.stats = stats;
    d.base = start;
    Estimate {
        probes: made,
        nodes: Spread::of(&nodes),
        updates: Spread::of(&updates),
        solutions: Spread::of(&solutions),
        depth: if made == 0 {
            0.0
        } else {
            depth as f64 / made as f64
        },
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use crate::dlx::{knuth, LinksSolver};

    fn queens(n: usize) -> String {
        let mut text = String::new();
        for r in 0..n {
            text += &format!("r{r} c{r} ");
        }
        text += "|";
        for d in 0..2 * n - 1 {
            text += &format!(" a{d} b{d}");
        }
        text.push('\n');
        for r in 0..n {
            for c in 0..n {
                text += &format!("r{r} c{c} a{} b{}\n", r + c, n - 1 + r - c);
            }
        }
        text
    }

    #[test]
    fn a_tree_without_branch_points_is_estimated_exactly() {
        // One option per item: one path, no randomness, the exact counters.
        let m = knuth::read("A B\nA\nB\n".as_bytes()).unwrap();
        let mut s = LinksSolver::new(&m);
        let e = s.estimate(5, &mut StdRng::seed_from_u64(1));
        let mut one = LinksSolver::new(&m);
        one.count();
        assert_eq!(e.nodes.mean, one.stats().nodes as f64);
        assert_eq!(e.updates.mean, one.stats().updates as f64);
        assert_eq!(e.solutions.mean, 1.0);
        assert_eq!(e.nodes.std_error, 0.0);
    }

    #[test]
    fn a_uniform_tree_is_estimated_exactly_and_the_solver_is_left_as_it_was() {
        // Two items with two options each: every probe sees 2 × 2 leaves.
        let m = knuth::read("A B\nA\nA\nB\nB\n".as_bytes()).unwrap();
        let mut s = LinksSolver::new(&m);
        s.preselect(crate::dlx::OptionId::must(0)).unwrap();
        s.count();
        let before = s.stats();
        let e = s.estimate(10, &mut StdRng::seed_from_u64(7));
        assert_eq!(e.solutions.mean, 2.0); // below A's first option
        assert_eq!(s.stats(), before);
        assert_eq!(s.preselected().count(), 1);
        assert_eq!(s.count().solutions, 2);
        let mut fresh = LinksSolver::new(&m);
        let e = fresh.estimate(10, &mut StdRng::seed_from_u64(7)).solutions;
        assert_eq!((e.mean, e.std_error), (4.0, 0.0));
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of probes: slow under Miri")]
    fn queens_8_is_estimated_within_a_fifth() {
        let m = knuth::read(queens(8).as_bytes()).unwrap();
        let mut one = LinksSolver::new(&m);
        assert_eq!(one.count().solutions, 92);
        let mut s = LinksSolver::new(&m);
        let e = s.estimate(2000, &mut StdRng::seed_from_u64(3));
        let near = |est: f64, exact: u64| (est / exact as f64 - 1.0).abs() < 0.2;
        assert!(near(e.nodes.mean, one.stats().nodes), "{e:?}");
        assert!(near(e.updates.mean, one.stats().updates), "{e:?}");
        assert!(near(e.solutions.mean, 92), "{e:?}");
        assert!(e.nodes.min <= e.nodes.mean && e.nodes.mean <= e.nodes.max);
    }
}
