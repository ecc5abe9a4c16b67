//! Multi-ProbCut's fit ([`Options::probcut`]): for pairs of depths (deep, shallow), the
//! deep search's value predicted from the shallow one's, `v_deep ≈ a * v_shallow + b`, with
//! the spread `sigma` of the error, measured on positions of the user's own game
//! (`twoplayer/calibrate.rs`), each stage of the game apart ([`Game::stage`]): in Othello the
//! error's spread grows tenfold from the opening to the end, so that one fit for all
//! cuts too little early and wrongly late (docs/performance.md has the figures). A node `deep` plies from the leaves searches itself `shallow` plies
//! deep with a null window around the bound the fit predicts, `t * sigma` past the
//! window, and is cut off when that search says the deep one would fail too (Buro,
//! "ProbCut: An Effective Selective Extension of the Alpha-Beta Algorithm", 1995, and
//! "Experiments with Multi-ProbCut and a New High-Quality Evaluation Function for
//! Othello", 1997, written from the papers' descriptions). The node's side is in
//! `engine/probcut.rs`.
//!
//! A fit is plain data: a program calibrates it once and keeps it as text
//! ([`ProbCut::to_text`], [`ProbCut::from_text`]).
//!
//! [`Options::probcut`]: super::Options::probcut
//! [`Game::stage`]: super::Game::stage

use std::fmt;

/// The most pairs a fit holds: a fixed array, so that a fit is copied into every
/// thread's plan without memory to allocate.
pub const MAX_PAIRS: usize = 96;
/// The deepest depth a pair may cut at.
pub const MAX_DEEP: u32 = 63;

/// The first line of a fit's text.
const HEADER: &str = "libminimax probcut 1";

/// One depth pair's fit at one stage of the game: `v_deep ≈ a * v_shallow + b`, the
/// error's standard deviation `sigma`, in the game's score units, from `samples`
/// positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCutPair {
    /// The stage of the game ([`Game::stage`](super::Game::stage)) the pair is for.
    pub stage: u32,
    /// The depth of the nodes the pair cuts.
    pub deep: u32,
    /// The depth of the search that predicts theirs.
    pub shallow: u32,
    /// The slope of the prediction.
    pub a: f64,
    /// Its offset, in score units.
    pub b: f64,
    /// The standard deviation of its error, in score units.
    pub sigma: f64,
    /// The positions the fit was made from (0 for a pair made by hand).
    pub samples: u32,
}

impl ProbCutPair {
    /// The least-squares line through `(v_shallow, v_deep)` samples, and the spread of its
    /// residuals; `None` for fewer than 3 samples, shallow values all alike, or a slope
    /// that is not positive (a shallow search then says nothing usable of the deep one).
    pub fn fit(stage: u32, deep: u32, shallow: u32, samples: &[(f64, f64)]) -> Option<ProbCutPair> {
        let n = samples.len() as f64;
        if samples.len() < 3 {
            return None;
        }
        let mx = samples.iter().map(|s| s.0).sum::<f64>() / n;
        let my = samples.iter().map(|s| s.1).sum::<f64>() / n;
        let sxx: f64 = samples.iter().map(|s| (s.0 - mx).powi(2)).sum();
        let sxy: f64 = samples.iter().map(|s| (s.0 - mx) * (s.1 - my)).sum();
        if sxx <= 0.0 {
            return None;
        }
        let a = sxy / sxx;
        let b = my - a * mx;
        let sse: f64 = samples.iter().map(|s| (s.1 - a * s.0 - b).powi(2)).sum();
        let sigma = (sse / (n - 2.0)).sqrt();
        let pair = ProbCutPair {
            stage,
            deep,
            shallow,
            a,
            b,
            sigma,
            samples: samples.len() as u32,
        };
        pair.is_valid().then_some(pair)
    }

    /// Whether the pair can be used: a shallower depth than the deep one (at least 1, the
    /// deep one at most [`MAX_DEEP`]), a finite positive slope, finite `b`, finite `sigma`
    /// not below 0.
    pub fn is_valid(&self) -> bool {
        self.shallow >= 1
            && self.shallow < self.deep
            && self.deep <= MAX_DEEP
            && self.a.is_finite()
            && self.a > 0.0
            && self.b.is_finite()
            && self.sigma.is_finite()
            && self.sigma >= 0.0
    }

    /// The least shallow value that predicts a deep value of at least `score` with
    /// confidence `t` (in sigmas), clamped to the evaluation's range (`±LIMIT`).
    pub(crate) fn high_bound(&self, score: i64, t: f64) -> i64 {
        let x = ((score as f64 + t * self.sigma - self.b) / self.a).ceil();
        x.clamp(-LIMIT, LIMIT) as i64
    }

    /// The most shallow value that predicts a deep value of at most `score`.
    pub(crate) fn low_bound(&self, score: i64, t: f64) -> i64 {
        let x = ((score as f64 - t * self.sigma - self.b) / self.a).floor();
        x.clamp(-LIMIT, LIMIT) as i64
    }
}

/// The range a bound is held in: any score is strictly inside `i32`.
const LIMIT: f64 = (i32::MAX - 1) as f64;

/// A Multi-ProbCut fit: pairs of depths, sorted by stage, deep then shallow depth, and
/// the confidence `t` (in sigmas) a cut needs. Several pairs with one deep depth are tried
/// from the shallowest (Multi-ProbCut's several checks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    pairs: [ProbCutPair; MAX_PAIRS],
    len: usize,
    /// Bit `d` set where some pair's deep depth is `d`: a node at another depth does not
    /// ask the game its stage.
    depths: u64,
    /// How many sigmas past the window a shallow search's bound is put.
    t: f64,
}

impl Default for ProbCut {
    /// No pairs (a fit that cuts nothing), and `t` at [`DEFAULT_T`].
    fn default() -> Self {
        ProbCut {
            pairs: [EMPTY; MAX_PAIRS],
            len: 0,
            depths: 0,
            t: DEFAULT_T,
        }
    }
}

/// The confidence a fit is made with unless asked otherwise.
pub const DEFAULT_T: f64 = 1.5;

/// Why a fit could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbCutError {
    /// A pair that cannot be used (see [`ProbCutPair::is_valid`]), or a `t` that is not
    /// finite and at least 0.
    BadPair,
    /// More than [`MAX_PAIRS`] pairs.
    TooManyPairs,
    /// A second pair for the same two depths.
    DuplicatePair,
    /// Text that is not a fit: the line (from 1) and what was wrong.
    Parse {
        /// The line, from 1.
        line: usize,
        /// What was wrong with it.
        reason: &'static str,
    },
}

impl fmt::Display for ProbCutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbCutError::BadPair => write!(
                f,
                "a ProbCut pair needs 1 <= shallow < deep <= {MAX_DEEP}, a finite slope above 0, a finite \
                 offset and a finite sigma of at least 0 (and t finite, at least 0)"
            ),
            ProbCutError::TooManyPairs => {
                write!(f, "a ProbCut fit holds at most {MAX_PAIRS} pairs")
            }
            ProbCutError::DuplicatePair => write!(f, "a ProbCut fit has one pair per two depths"),
            ProbCutError::Parse { line, reason } => {
                write!(f, "not a ProbCut fit at line {line}: {reason}")
            }
        }
    }
}

impl std::error::Error for ProbCutError {}

const EMPTY: ProbCutPair = ProbCutPair {
    stage: 0,
    deep: 0,
    shallow: 0,
    a: 1.0,
    b: 0.0,
    sigma: 0.0,
    samples: 0,
};

impl ProbCut {
    /// How many sigmas past the window a shallow search's bound is put.
    pub fn t(&self) -> f64 {
        self.t
    }

    /// Sets `t`: finite and at least 0 (0 cuts wherever the fit's line alone says so).
    pub fn set_t(&mut self, t: f64) -> Result<(), ProbCutError> {
        if !(t.is_finite() && t >= 0.0) {
            return Err(ProbCutError::BadPair);
        }
        self.t = t;
        Ok(())
    }

    /// The pairs, sorted by stage, deep then shallow depth.
    pub fn pairs(&self) -> &[ProbCutPair] {
        &self.pairs[..self.len]
    }

    /// Adds a pair, in its place in the order.
    pub fn add(&mut self, pair: ProbCutPair) -> Result<(), ProbCutError> {
        if !pair.is_valid() {
            return Err(ProbCutError::BadPair);
        }
        let key = |p: &ProbCutPair| (p.stage, p.deep, p.shallow);
        let at = match self.pairs().binary_search_by_key(&key(&pair), key) {
            Ok(_) => return Err(ProbCutError::DuplicatePair),
            Err(at) => at,
        };
        if self.len == MAX_PAIRS {
            return Err(ProbCutError::TooManyPairs);
        }
        self.pairs.copy_within(at..self.len, at + 1);
        self.pairs[at] = pair;
        self.len += 1;
        self.depths |= 1 << pair.deep;
        Ok(())
    }

    /// Whether some pair cuts at depth `depth` (at some stage).
    #[inline]
    pub(crate) fn cuts_at(&self, depth: u32) -> bool {
        depth <= MAX_DEEP && self.depths >> depth & 1 != 0
    }

    /// The pairs of stage `stage` whose deep depth is `depth`, shallowest first.
    #[cfg(test)]
    pub(crate) fn at(&self, stage: u32, depth: u32) -> &[ProbCutPair] {
        &self.pairs[self.at_range(stage, depth)]
    }

    /// Where in [`ProbCut::pairs`] the pairs of stage `stage` whose deep depth is `depth`
    /// are.
    pub(crate) fn at_range(&self, stage: u32, depth: u32) -> std::ops::Range<usize> {
        let pairs = self.pairs();
        let start = pairs.partition_point(|p| (p.stage, p.deep) < (stage, depth));
        start..start + pairs[start..].partition_point(|p| (p.stage, p.deep) == (stage, depth))
    }

    /// The fit as text, one pair a line, which [`ProbCut::from_text`] reads back exactly
    /// (the numbers are written in Rust's shortest round-trip form).
    pub fn to_text(&self) -> String {
        let mut s = format!("{HEADER}\nt {:?}\n", self.t);
        for p in self.pairs() {
            s += &format!(
                "pair {} {} {} {:?} {:?} {:?} {}\n",
                p.stage, p.deep, p.shallow, p.a, p.b, p.sigma, p.samples
            );
        }
        s
    }

    /// Reads a fit written by [`ProbCut::to_text`]: the header line, `t T`, then
    /// `pair STAGE DEEP SHALLOW A B SIGMA SAMPLES` lines; blank lines and lines starting `#` are
    /// skipped.
    pub fn from_text(text: &str) -> Result<ProbCut, ProbCutError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let err = |line, reason| ProbCutError::Parse { line, reason };
        match lines.next() {
            Some((_, HEADER)) => {}
            Some((line, _)) => return Err(err(line, "the first line is not the header")),
            None => return Err(err(1, "no header line")),
        }
        let mut fit = ProbCut::default();
        let mut have_t = false;
        for (line, text) in lines {
            let words: Vec<&str> = text.split_whitespace().collect();
            match words.as_slice() {
                ["t", _] if have_t => return Err(err(line, "a second `t` line")),
                ["t", t] => {
                    let t = t.parse().map_err(|_| err(line, "t is not a number"))?;
                    fit.set_t(t)
                        .map_err(|_| err(line, "t must be finite and at least 0"))?;
                    have_t = true;
                }
                ["pair", stage, deep, shallow, a, b, sigma, samples] => {
                    let int = |w: &str| w.parse::<u32>().map_err(|_| err(line, "a bad depth"));
                    let num = |w: &str| w.parse::<f64>().map_err(|_| err(line, "a bad number"));
                    let pair = ProbCutPair {
                        stage: stage.parse().map_err(|_| err(line, "a bad stage"))?,
                        deep: int(deep)?,
                        shallow: int(shallow)?,
                        a: num(a)?,
                        b: num(b)?,
                        sigma: num(sigma)?,
                        samples: samples
                            .parse()
                            .map_err(|_| err(line, "a bad sample count"))?,
                    };
                    fit.add(pair).map_err(|e| match e {
                        ProbCutError::BadPair => err(line, "a pair that cannot be used"),
                        ProbCutError::DuplicatePair => err(line, "a second pair for two depths"),
                        _ => err(line, "too many pairs"),
                    })?;
                }
                _ => return Err(err(line, "expected `t T` or `pair STAGE D S A B SIGMA N`")),
            }
        }
        if !have_t {
            return Err(err(1, "no `t` line"));
        }
        Ok(fit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_has_one_t() {
        let text = format!("{HEADER}\nt 1.0\nt 2.0\n");
        assert_eq!(
            ProbCut::from_text(&text).err(),
            Some(ProbCutError::Parse {
                line: 3,
                reason: "a second `t` line"
            })
        );
        assert!(ProbCut::from_text(&format!("{HEADER}\nt 2.0\n")).is_ok());
    }

    fn pair(deep: u32, shallow: u32) -> ProbCutPair {
        ProbCutPair {
            stage: 0,
            deep,
            shallow,
            a: 1.25,
            b: -3.5,
            sigma: 0.1 + deep as f64 / 3.0,
            samples: 100,
        }
    }

    #[test]
    fn a_fit_recovers_a_line_and_its_spread() {
        // y = 2x + 1 with residuals of +-1: the spread of the residuals is 1 * sqrt(n/(n-2)).
        let samples: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = i as f64;
                (x, 2.0 * x + 1.0 + if i % 2 == 0 { 1.0 } else { -1.0 })
            })
            .collect();
        let p = ProbCutPair::fit(0, 6, 2, &samples).unwrap();
        assert!((p.a - 2.0).abs() < 1e-3, "{p:?}");
        assert!((p.b - 1.0).abs() < 0.1, "{p:?}");
        assert!((p.sigma - (100.0f64 / 98.0).sqrt()).abs() < 1e-3, "{p:?}");
        assert_eq!(ProbCutPair::fit(0, 6, 2, &samples[..2]), None);
        assert_eq!(ProbCutPair::fit(0, 6, 2, &[(1.0, 2.0); 5]), None);
        let falling: Vec<(f64, f64)> = (0..9).map(|i| (i as f64, -(i as f64))).collect();
        assert_eq!(ProbCutPair::fit(0, 6, 2, &falling), None);
    }

    #[test]
    fn bounds_invert_the_prediction() {
        let p = ProbCutPair {
            a: 2.0,
            b: 10.0,
            sigma: 4.0,
            ..pair(8, 4)
        };
        // 2x + 10 >= 100 + 1.5 * 4 = 106 from x = 48.
        assert_eq!(p.high_bound(100, 1.5), 48);
        // 2x + 10 <= -100 - 6 = -106 up to x = -58.
        assert_eq!(p.low_bound(-100, 1.5), -58);
        assert_eq!(
            p.high_bound(i64::from(i32::MAX), 1e300),
            i64::from(i32::MAX - 1)
        );
    }

    #[test]
    fn pairs_are_kept_in_order_and_found_by_depth() {
        let mut f = ProbCut::default();
        for (d, s) in [(8, 4), (6, 2), (8, 2), (10, 4)] {
            f.add(pair(d, s)).unwrap();
        }
        f.add(ProbCutPair {
            stage: 1,
            ..pair(7, 3)
        })
        .unwrap();
        f.add(ProbCutPair {
            stage: 1,
            ..pair(6, 2)
        })
        .unwrap();
        let order: Vec<(u32, u32, u32)> = f
            .pairs()
            .iter()
            .map(|p| (p.stage, p.deep, p.shallow))
            .collect();
        assert_eq!(
            order,
            [
                (0, 6, 2),
                (0, 8, 2),
                (0, 8, 4),
                (0, 10, 4),
                (1, 6, 2),
                (1, 7, 3)
            ]
        );
        assert_eq!(f.at(0, 8).len(), 2);
        assert_eq!(f.at(0, 8)[0].shallow, 2);
        assert!(f.at(0, 7).is_empty() && f.at(0, 11).is_empty() && f.at(2, 6).is_empty());
        assert_eq!(f.at(1, 7).len(), 1);
        assert!(f.cuts_at(7) && f.cuts_at(10) && !f.cuts_at(9) && !f.cuts_at(64));
        assert_eq!(f.add(pair(64, 4)), Err(ProbCutError::BadPair));
        assert_eq!(f.add(pair(8, 4)), Err(ProbCutError::DuplicatePair));
        assert_eq!(f.add(pair(4, 4)), Err(ProbCutError::BadPair));
        assert_eq!(
            f.add(ProbCutPair {
                a: 0.0,
                ..pair(5, 1)
            }),
            Err(ProbCutError::BadPair)
        );
        let mut full = ProbCut::default();
        for k in 0..MAX_PAIRS as u32 {
            full.add(ProbCutPair {
                stage: k,
                ..pair(2, 1)
            })
            .unwrap();
        }
        assert_eq!(full.add(pair(9, 1)), Err(ProbCutError::TooManyPairs));
    }

    #[test]
    fn text_reads_back_exactly() {
        let mut f = ProbCut::default();
        f.set_t(1.25).unwrap();
        for (d, s) in [(8, 4), (6, 2), (9, 3)] {
            f.add(pair(d, s)).unwrap();
        }
        f.add(ProbCutPair {
            stage: 3,
            ..pair(6, 2)
        })
        .unwrap();
        let text = f.to_text();
        assert!(text.starts_with("libminimax probcut 1\nt 1.25\npair 0 6 2 1.25 -3.5 "));
        assert_eq!(ProbCut::from_text(&text), Ok(f));
        let parse = |t: &str| ProbCut::from_text(t).unwrap_err();
        assert!(matches!(parse(""), ProbCutError::Parse { line: 1, .. }));
        assert!(matches!(
            parse("probcut\n"),
            ProbCutError::Parse { line: 1, .. }
        ));
        assert!(matches!(
            parse("libminimax probcut 1\n"),
            ProbCutError::Parse { .. }
        ));
        let bad = "libminimax probcut 1\nt 1\n\npair 0 8 4 x 0 1 3\n";
        assert_eq!(
            parse(bad),
            ProbCutError::Parse {
                line: 4,
                reason: "a bad number"
            }
        );
        let unusable = "libminimax probcut 1\nt 1\npair 0 4 4 1 0 1 3\n";
        assert!(matches!(
            parse(unusable),
            ProbCutError::Parse { line: 3, .. }
        ));
        assert!(matches!(
            parse("libminimax probcut 1\nt -1\n"),
            ProbCutError::Parse { .. }
        ));
        assert!(matches!(
            parse("libminimax probcut 1\nt NaN\n"),
            ProbCutError::Parse { .. }
        ));
        let commented = "# a fit\nlibminimax probcut 1\nt 2\n";
        assert_eq!(ProbCut::from_text(commented).unwrap().t(), 2.0);
        assert_eq!(f.set_t(f64::NAN), Err(ProbCutError::BadPair));
    }
}
