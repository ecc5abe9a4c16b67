//! How a node chooses the child to visit, apart from the search loop (as mctx keeps its
//! `policies.py` apart from `search.py`): PUCT with AlphaZero's growing exploration
//! (Silver et al. 2018), the root's Dirichlet noise, Gumbel root selection with
//! Sequential Halving and the completed-Q policy below it (Danihelka, Guez, Schrittwieser
//! and Silver, ICLR 2022, "Policy improvement by planning with Gumbel"), and the move
//! played, by temperature. Written from the papers' descriptions.

use super::tree::{Node, seen};
use crate::search::rng::Rng;

/// PUCT's constants: `c(N) = init + ln((N + base + 1) / base)`, AlphaZero's form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Puct {
    /// The exploration at few visits (AlphaZero's and mctx's 1.25).
    pub init: f64,
    /// The visits over which exploration grows by one (19,652).
    pub base: f64,
}

impl Default for Puct {
    fn default() -> Self {
        Puct {
            init: 1.25,
            base: 19_652.0,
        }
    }
}

/// Gumbel MuZero's constants (the paper's and mctx's defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gumbel {
    /// Root moves considered (the m of Sequential Halving): the best by Gumbel noise plus
    /// logit. At least 2 ([`GameError::BadBatchOptions`](crate::search::GameError)
    /// else): with one, the search would play the noise's pick whatever it found.
    pub considered: u32,
    /// `sigma(q) = (c_visit + max visits) * c_scale * q`: c_visit (50).
    pub c_visit: f64,
    /// c_scale (0.1).
    pub c_scale: f64,
}

impl Default for Gumbel {
    fn default() -> Self {
        Gumbel {
            considered: 16,
            c_visit: 50.0,
            c_scale: 0.1,
        }
    }
}

/// The value a child has for the side to move at `parent`, with its visits in flight
/// counted as losses (virtual loss): `(sum, visits)`.
fn with_virtual_loss(parent: &Node, child: &Node) -> (f64, f64) {
    let visits = f64::from(child.visits);
    let sum = seen(child.value(), child.max_to_move, parent.max_to_move) * visits;
    let pending = f64::from(child.pending);
    (sum - pending, visits + pending)
}

/// Whether the child is proven lost for the side to move at `parent`: it is never chosen
/// while another is not.
pub(crate) fn lost_for_parent(parent: &Node, child: &Node) -> bool {
    child
        .proof
        .is_some_and(|p| seen(f64::from(p), child.max_to_move, parent.max_to_move) < 0.0)
}

/// Whether the child is left out of the choice at `parent`: proven lost for it, or,
/// below the root (`prune`), proven at no more than the parent has proven already, so
/// that a visit cannot change the parent's proof (score-bounded MCTS). The root keeps
/// its proven draws among its choices, so that its visits stay a policy.
pub(crate) fn left_out(parent: &Node, child: &Node, prune: bool) -> bool {
    match child.proof {
        None => false,
        Some(p) => {
            let mine = seen(f64::from(p), child.max_to_move, parent.max_to_move);
            mine < 0.0 || (prune && mine <= f64::from(parent.lo))
        }
    }
}

/// `ln(1 + x)`, by three terms of its series where `x` is below 0.05 (an error under
/// 2e-6, and no logarithm at each node of a search of fewer visits than `base / 20`).
fn growth(x: f64) -> f64 {
    if x < 0.05 {
        x * (1.0 - x * (0.5 - x / 3.0))
    } else {
        x.ln_1p()
    }
}

/// PUCT's choice among `kids` of `parent` (none proven lost for it, and none of prior 0,
/// a move the evaluator ruled out with a logit of -infinity, unless all are),
/// `noise` the root's noisy priors (else the children's own). An unvisited child is worth
/// the parent's mean value, as mctx and Leela take it.
pub(crate) fn puct(
    c: &Puct,
    parent: &Node,
    kids: &[Node],
    noise: Option<&[f32]>,
    prune: bool,
) -> Option<usize> {
    let n = f64::from(parent.visits + parent.pending);
    let explore = (c.init + growth((n + 1.0) / c.base)) * n.max(1.0).sqrt();
    let fpu = parent.value();
    let mut best = None;
    let mut best_score = f64::NEG_INFINITY;
    for (i, kid) in kids.iter().enumerate() {
        let prior = noise.map_or(kid.prior, |p| p[i]);
        if left_out(parent, kid, prune) || prior <= 0.0 {
            continue;
        }
        let (sum, visits) = with_virtual_loss(parent, kid);
        let q = if visits > 0.0 { sum / visits } else { fpu };
        let score = q + explore * f64::from(prior) / (1.0 + visits);
        if score > best_score {
            (best, best_score) = (Some(i), score);
        }
    }
    best.or_else(|| (!kids.is_empty()).then_some(0))
}

/// The root's noisy priors: `(1 - fraction) * prior + fraction * Dirichlet(alpha)`, drawn
/// afresh for each search and never stored in the tree (so a kept tree's priors stay
/// the network's).
pub(crate) fn dirichlet_noise(
    rng: &mut Rng,
    kids: &[Node],
    alpha: f64,
    fraction: f64,
    out: &mut Vec<f32>,
) {
    out.clear();
    let draws: Vec<f64> = kids.iter().map(|_| gamma(rng, alpha)).collect();
    let total: f64 = draws.iter().sum();
    for (kid, d) in kids.iter().zip(draws) {
        let eta = if total > 0.0 {
            d / total
        } else {
            1.0 / kids.len() as f64
        };
        out.push(((1.0 - fraction) * f64::from(kid.prior) + fraction * eta) as f32);
    }
}

/// A Gamma(shape, 1) draw: Marsaglia and Tsang's method, with the boost
/// `Gamma(a) = Gamma(a + 1) * U^(1 / a)` for a shape below 1.
fn gamma(rng: &mut Rng, shape: f64) -> f64 {
    if shape < 1.0 {
        let u = rng.unit().max(f64::MIN_POSITIVE);
        return gamma(rng, shape + 1.0) * u.powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = rng.unit();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = 1.0 - rng.unit(); // in (0, 1]
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gumbel(0, 1) draw.
pub(crate) fn gumbel(rng: &mut Rng) -> f64 {
    let u = rng.unit().max(f64::MIN_POSITIVE);
    -(-u.ln()).ln()
}

/// What the completed Q-values of `kids` for the side to move at `parent` pass on:
/// their range, the best of the moves of positive prior, and the children's most visits
/// and visits with those in flight.
struct Completed {
    lo: f64,
    hi: f64,
    top: f64,
    most: u32,
    in_flight: f64,
}

/// The completed Q-values of `kids`, unscaled, into `out`: a known child's value, an
/// unvisited one's the mixed value of the parent's network value and its visited
/// children's values weighted by their priors (the paper's v_mix). Two passes, the cost
/// of a level of Gumbel's descent.
fn completed_values(parent: &Node, kids: &[Node], out: &mut Vec<f64>) -> Completed {
    let (mut visited, mut weight, mut weighted) = (0.0, 0.0, 0.0);
    let (mut most, mut in_flight) = (0u32, 0.0);
    for kid in kids {
        if kid.known() {
            let q = seen(kid.value(), kid.max_to_move, parent.max_to_move);
            visited += f64::from(kid.visits);
            weight += f64::from(kid.prior);
            weighted += f64::from(kid.prior) * q;
        }
        most = most.max(kid.visits);
        in_flight += f64::from(kid.visits + kid.pending);
    }
    let own = f64::from(parent.net_value);
    let mix = if weight > 0.0 {
        (own + visited * weighted / weight) / (1.0 + visited)
    } else {
        own
    };
    out.clear();
    let (mut lo, mut hi, mut top) = (f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for kid in kids {
        let q = if kid.known() {
            seen(kid.value(), kid.max_to_move, parent.max_to_move)
        } else {
            mix
        };
        (lo, hi) = (lo.min(q), hi.max(q));
        if kid.prior > 0.0 {
            top = top.max(q);
        }
        out.push(q);
    }
    Completed {
        lo,
        hi,
        top,
        most,
        in_flight,
    }
}

/// The completed Q-values of `kids` for the side to move at `parent` ([`completed_values`]),
/// rescaled to [0, 1] by their minimum and maximum, into `out`.
pub(crate) fn completed_q(parent: &Node, kids: &[Node], out: &mut Vec<f64>) {
    let Completed { lo, hi, .. } = completed_values(parent, kids, out);
    let span = (hi - lo).max(1e-8);
    for q in out.iter_mut() {
        *q = (*q - lo) / span;
    }
}

/// `sigma(q)` of the paper: the scale that turns a completed Q-value into logits.
pub(crate) fn sigma(g: &Gumbel, kids: &[Node]) -> f64 {
    let most = kids.iter().map(|k| k.visits).max().unwrap_or(0);
    (g.c_visit + f64::from(most)) * g.c_scale
}

/// The improved policy `softmax(log prior + sigma(completed q))` over `kids`, into `out`
/// (its probabilities); `q` from [`completed_q`].
pub(crate) fn improved_policy(g: &Gumbel, kids: &[Node], q: &[f64], out: &mut Vec<f64>) {
    out.clear();
    let s = sigma(g, kids);
    // softmax(ln p + s q) = p exp(s q) / sum: no logarithm, one exponential a move.
    let top = kids
        .iter()
        .zip(q)
        .filter(|(k, _)| k.prior > 0.0)
        .map(|(_, &q)| s * q)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for (k, &q) in kids.iter().zip(q) {
        let e = if k.prior > 0.0 {
            // (In f32: a quarter of the time of f64's, and ample for a choice.)
            f64::from(k.prior * ((s * q - top) as f32).exp())
        } else {
            0.0
        };
        total += e;
        out.push(e);
    }
    for p in out.iter_mut() {
        *p /= total;
    }
}

/// Gumbel's choice below the root: the child whose share of visits lags most behind
/// the improved policy, `argmax(pi'(a) - N(a) / (1 + sum N))`, deterministic (visits in
/// flight counted, so that a batch spreads), proven children left out as PUCT's.
pub(crate) fn gumbel_interior(
    g: &Gumbel,
    parent: &Node,
    kids: &[Node],
    q: &mut Vec<f64>,
    policy: &mut Vec<f64>,
) -> Option<usize> {
    // What completed_q and improved_policy compute, in four passes over the children
    // (the cost of a level of the descent): the completed values, unscaled...
    let Completed {
        lo,
        hi,
        top,
        most,
        in_flight: total,
    } = completed_values(parent, kids, q);
    let scale = (g.c_visit + f64::from(most)) * g.c_scale / (hi - lo).max(1e-8);
    // ... the improved policy, unnormalised ...
    policy.clear();
    let mut sum = 0.0;
    for (kid, &v) in kids.iter().zip(q.iter()) {
        let e = if kid.prior > 0.0 {
            f64::from(kid.prior * ((scale * (v - top)) as f32).exp())
        } else {
            0.0
        };
        sum += e;
        policy.push(e);
    }
    // ... and the child furthest behind it.
    let mut best = None;
    let mut best_score = f64::NEG_INFINITY;
    for (i, kid) in kids.iter().enumerate() {
        if left_out(parent, kid, true) || kid.prior <= 0.0 {
            continue;
        }
        let score = policy[i] / sum - f64::from(kid.visits + kid.pending) / (1.0 + total);
        if score > best_score {
            (best, best_score) = (Some(i), score);
        }
    }
    best.or_else(|| (!kids.is_empty()).then_some(0))
}

/// Sequential Halving at the root, for one search: the considered moves (best first by
/// Gumbel noise plus logit), how many remain, and the visits (of this search) each must
/// reach before the next halving.
#[derive(Debug, Clone, Default)]
pub(crate) struct Halving {
    /// (child index, Gumbel noise + log prior), best first.
    pub order: Vec<(usize, f64)>,
    pub remaining: usize,
    pub target: u32,
    /// Visits of each considered move at the start of the search (a kept tree's).
    pub base: Vec<u32>,
    /// Simulations of a phase.
    pub per_phase: u32,
}

impl Halving {
    /// The plan for `simulations` from a root whose children are `kids`: the top
    /// `considered` by Gumbel noise plus log prior, leaving out moves proven lost.
    pub fn new(g: &Gumbel, rng: &mut Rng, root: &Node, kids: &[Node], simulations: u32) -> Halving {
        let mut order: Vec<(usize, f64)> = kids
            .iter()
            .enumerate()
            .map(|(i, k)| (i, gumbel(rng) + f64::from(k.prior).ln()))
            .filter(|&(i, score)| score.is_finite() && !lost_for_parent(root, &kids[i]))
            .collect();
        order.sort_by(|a, b| b.1.total_cmp(&a.1));
        order.truncate(g.considered.max(1) as usize);
        let m = order.len().max(1);
        let phases = (usize::BITS - (m - 1).leading_zeros()).max(1); // ceil(log2 m)
        let per_phase = simulations / phases;
        let base = order.iter().map(|&(i, _)| kids[i].visits).collect();
        let remaining = order.len();
        let target = (per_phase / remaining.max(1) as u32).max(1);
        Halving {
            order,
            remaining,
            target,
            base,
            per_phase,
        }
    }

    /// The root child to visit next: among the remaining moves, the first with fewest
    /// visits of this search (in flight counted) below the target; when all reach it,
    /// the remaining moves are halved by score and the target raised. `None` if no move
    /// is considered.
    pub fn next(
        &mut self,
        g: &Gumbel,
        root: &Node,
        kids: &[Node],
        q: &mut Vec<f64>,
    ) -> Option<usize> {
        if self.order.is_empty() {
            return None;
        }
        loop {
            let done = |j: usize| {
                let k = &kids[self.order[j].0];
                (k.visits + k.pending).saturating_sub(self.base[j])
            };
            let pick = (0..self.remaining)
                .filter(|&j| !lost_for_parent(root, &kids[self.order[j].0]))
                .min_by_key(|&j| done(j));
            match pick {
                Some(j) if done(j) < self.target || self.remaining == 1 => {
                    return Some(self.order[j].0);
                }
                Some(_) => self.halve(g, root, kids, q),
                // Every remaining move proven lost: the others come back in.
                None if self.remaining < self.order.len() => self.remaining = self.order.len(),
                None => return Some(self.order[0].0),
            }
        }
    }

    /// Keeps the better half of the remaining moves (at least two) by Gumbel noise + log
    /// prior + sigma(completed q), and gives each its share of the next phase.
    fn halve(&mut self, g: &Gumbel, root: &Node, kids: &[Node], q: &mut Vec<f64>) {
        let r = self.remaining;
        self.rank(g, root, kids, q);
        // (Never below two, as mctx's schedule: the last two share what is left.)
        self.remaining = r.div_ceil(2).max(2).min(r);
        let share = (self.per_phase / self.remaining as u32).max(1);
        self.target += share;
    }

    /// Sorts the remaining moves by their final score (best first), carrying their base
    /// visits along.
    fn rank(&mut self, g: &Gumbel, root: &Node, kids: &[Node], q: &mut Vec<f64>) {
        completed_q(root, kids, q);
        let s = sigma(g, kids);
        let r = self.remaining;
        let mut scored: Vec<((usize, f64), u32, f64)> = (0..r)
            .map(|j| {
                let (i, noisy) = self.order[j];
                let lost = lost_for_parent(root, &kids[i]);
                let score = if lost {
                    f64::NEG_INFINITY
                } else {
                    noisy + s * q[i]
                };
                (self.order[j], self.base[j], score)
            })
            .collect();
        scored.sort_by(|a, b| b.2.total_cmp(&a.2));
        for (j, (entry, base, _)) in scored.into_iter().enumerate() {
            self.order[j] = entry;
            self.base[j] = base;
        }
    }

    /// The move Gumbel plays: the best remaining by its final score; if those are all
    /// proven lost (proofs found after they were kept), the best of every considered
    /// move.
    pub fn chosen(
        &mut self,
        g: &Gumbel,
        root: &Node,
        kids: &[Node],
        q: &mut Vec<f64>,
    ) -> Option<usize> {
        if self.order.is_empty() {
            return None;
        }
        self.rank(g, root, kids, q);
        if lost_for_parent(root, &kids[self.order[0].0]) {
            self.remaining = self.order.len();
            self.rank(g, root, kids, q);
        }
        Some(self.order[0].0)
    }
}

/// The move to play from visit counts: the most visited at temperature 0 (the first of
/// equals), else drawn with probability proportional to `visits^(1 / temperature)`.
pub(crate) fn by_temperature(rng: &mut Rng, visits: &[u32], temperature: f64) -> Option<usize> {
    if visits.is_empty() {
        return None;
    }
    let most = visits.iter().copied().max().unwrap_or(0);
    if temperature <= 0.0 || most == 0 {
        return visits.iter().position(|&v| v == most);
    }
    let weights: Vec<f64> = visits
        .iter()
        .map(|&v| (f64::from(v) / f64::from(most)).powf(1.0 / temperature))
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return Some(i);
        }
        x -= w;
    }
    weights.iter().rposition(|&w| w > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::batched::tree::State;

    fn kid(prior: f32, visits: u32, sum: f64) -> Node {
        let mut k = Node::fresh(0, 0, prior, 0, false);
        (k.visits, k.value_sum, k.state) = (visits, sum, State::Expanded);
        k
    }

    #[test]
    #[cfg_attr(miri, ignore = "tens of thousands of draws, for safe code only")]
    fn dirichlet_draws_have_the_mean_and_spread_of_the_distribution() {
        // Dirichlet(0.3) over 4 moves: each share has mean 1/4 and variance
        // (1/4 * 3/4) / (1.2 + 1) = 0.0852.
        let mut rng = Rng::new(11);
        let kids: Vec<Node> = (0..4).map(|_| kid(0.25, 0, 0.0)).collect();
        let (mut sum, mut sq, n) = (0.0, 0.0, 20_000);
        let mut out = Vec::new();
        for _ in 0..n {
            dirichlet_noise(&mut rng, &kids, 0.3, 1.0, &mut out);
            let x = f64::from(out[0]);
            (sum, sq) = (sum + x, sq + x * x);
            assert!((out.iter().map(|&p| f64::from(p)).sum::<f64>() - 1.0).abs() < 1e-5);
        }
        let mean = sum / f64::from(n);
        let var = sq / f64::from(n) - mean * mean;
        assert!((mean - 0.25).abs() < 0.01, "{mean}");
        assert!((var - 0.1875 / 2.2).abs() < 0.006, "{var}");
    }

    #[test]
    fn the_interior_choice_follows_the_improved_policy() {
        // Against completed_q and improved_policy, pass by pass.
        let g = Gumbel::default();
        let mut parent = kid(1.0, 9, 0.0);
        (parent.max_to_move, parent.net_value) = (true, 0.3);
        let kids = [
            kid(0.4, 3, 1.2),
            kid(0.3, 0, 0.0),
            kid(0.2, 5, -2.0),
            kid(0.1, 0, 0.0),
        ];
        let (mut q, mut p) = (Vec::new(), Vec::new());
        completed_q(&parent, &kids, &mut q);
        improved_policy(&g, &kids, &q, &mut p);
        let total: f64 = kids.iter().map(|k| f64::from(k.visits)).sum();
        let by_hand = (0..4)
            .max_by(|&a, &b| {
                let s = |i: usize| p[i] - f64::from(kids[i].visits) / (1.0 + total);
                s(a).total_cmp(&s(b))
            })
            .unwrap();
        let (mut q2, mut p2) = (Vec::new(), Vec::new());
        assert_eq!(
            gumbel_interior(&g, &parent, &kids, &mut q2, &mut p2),
            Some(by_hand)
        );
    }

    #[test]
    fn the_growth_of_exploration_is_the_logarithm() {
        for x in [0.0, 1e-6, 0.01, 0.049, 0.05, 0.5, 3.0] {
            assert!((growth(x) - f64::ln_1p(x)).abs() < 2e-6, "{x}");
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "tens of thousands of draws, for safe code only")]
    fn gumbel_draws_have_the_mean_of_the_distribution() {
        // Gumbel(0, 1)'s mean is the Euler-Mascheroni constant, 0.5772.
        let mut rng = Rng::new(5);
        let mean = (0..100_000).map(|_| gumbel(&mut rng)).sum::<f64>() / 100_000.0;
        assert!((mean - 0.5772).abs() < 0.02, "{mean}");
    }

    #[test]
    fn puct_prefers_the_prior_when_unvisited_and_the_value_when_visited() {
        let mut parent = kid(1.0, 10, 0.0);
        parent.max_to_move = true;
        // Children have the other side to move: a child's sum -5 over 5 visits is +1
        // for the parent.
        let kids = [kid(0.1, 5, -5.0), kid(0.9, 5, 5.0)];
        assert_eq!(puct(&Puct::default(), &parent, &kids, None, true), Some(0));
        let fresh = [kid(0.1, 0, 0.0), kid(0.9, 0, 0.0)];
        assert_eq!(puct(&Puct::default(), &parent, &fresh, None, true), Some(1));
        // A child proven lost for the parent is left out.
        let mut lost = kids.clone();
        lost[0].proof = Some(1);
        assert_eq!(puct(&Puct::default(), &parent, &lost, None, true), Some(1));
    }

    #[test]
    fn sequential_halving_visits_evenly_then_halves() {
        let g = Gumbel {
            considered: 4,
            ..Gumbel::default()
        };
        let mut rng = Rng::new(1);
        let mut root = kid(1.0, 1, 0.0);
        root.max_to_move = true;
        let mut kids: Vec<Node> = (0..4).map(|_| kid(0.25, 0, 0.0)).collect();
        let mut plan = Halving::new(&g, &mut rng, &root, &kids, 16);
        assert_eq!((plan.remaining, plan.target, plan.per_phase), (4, 2, 8));
        let mut q = Vec::new();
        let mut seq = Vec::new();
        for _ in 0..16 {
            let i = plan.next(&g, &root, &kids, &mut q).unwrap();
            seq.push(i);
            kids[i].visits += 1;
            // Child 3 wins for the root (its own side loses).
            kids[i].value_sum += if i == 3 { -1.0 } else { 1.0 };
            root.visits += 1;
        }
        // Phase 1: two visits each (8); phase 2: the better two take four more each.
        let first: Vec<u32> = (0..4)
            .map(|i| seq[..8].iter().filter(|&&s| s == i).count() as u32)
            .collect();
        assert_eq!(first, [2, 2, 2, 2]);
        assert_eq!(plan.remaining, 2);
        assert!(seq[8..].contains(&3));
        assert_eq!(plan.chosen(&g, &root, &kids, &mut q), Some(3));
    }

    #[test]
    #[cfg_attr(miri, ignore = "tens of thousands of draws, for safe code only")]
    fn temperature_zero_takes_the_most_visits_and_one_follows_them() {
        let mut rng = Rng::new(3);
        assert_eq!(by_temperature(&mut rng, &[3, 9, 9, 1], 0.0), Some(1));
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[by_temperature(&mut rng, &[1, 2, 7], 1.0).unwrap()] += 1;
        }
        assert!((2_700..3_300).contains(&counts[0]), "{counts:?}");
        assert!((20_300..21_700).contains(&counts[2]), "{counts:?}");
    }
}
