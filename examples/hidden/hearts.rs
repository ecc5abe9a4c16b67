//! Hearts for four, by the rules and move numbering of OpenSpiel's `hearts` at its
//! defaults (written from the rules and from what pyspiel's states show, not from its
//! code): chance draws the pass direction (0 none, 1 left, 2 across, 3 right) and deals
//! the cards one at a time to players 0, 1, 2, 3 in turn; each player then picks three
//! cards to pass, one at a time, player 0 first, and they go over together (left: to
//! the next player). The holder of the two of clubs leads it to the first trick;
//! players follow the suit led if they can; the highest card of that suit takes the
//! trick, whose taker leads the next. No heart and not the queen of spades on the first
//! trick unless a hand holds nothing else; no heart led until a heart or the queen has
//! been played, unless a hand holds nothing else. A heart is a point, the queen 13; a
//! player who takes all 26 shoots the moon, and the others have 26 each instead. Each
//! player's score is 26 less its points (OpenSpiel's returns). Cards are numbered
//! `4 * rank + suit`, ranks 2 to ace as 0 to 12, suits clubs, diamonds, hearts, spades.

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move};

// Each game file stands alone (shared by path), so a program with two has two copies.
#[allow(clippy::duplicate_mod)]
#[path = "../common/splitmix.rs"]
mod splitmix;
use splitmix::mix;

const PLAYERS: usize = 4;
const ALL: u64 = (1 << 52) - 1;
const NONE: u8 = u8::MAX;
const HEARTS: u8 = 2;
const QUEEN_OF_SPADES: u8 = 4 * 10 + 3;
/// How another player sees a card passed to someone: face down.
pub const PASSED: Move = 52;

/// A position of Hearts: a plain value (no heap), so a copy is cheap.
#[derive(Clone, Copy, Debug)]
pub struct Hearts {
    /// The pass direction (`NONE` until chance has drawn it).
    direction: u8,
    /// Cards dealt so far.
    dealt: u8,
    /// Each player's cards, one bit a card (less those picked to pass, until they go
    /// over).
    hands: [u64; 4],
    /// The cards each player has picked to pass, and how many picks are made.
    picked: [u64; 4],
    picks: u8,
    /// The cards each player received.
    received: [u64; 4],
    /// The cards played, in order, and how many.
    plays: [u8; 52],
    played: u8,
    played_set: u64,
    /// The leader of each trick.
    leaders: [u8; 14],
    points: [u8; 4],
}

fn suit(card: u8) -> u8 {
    card % 4
}

/// The cards of one suit.
fn suit_cards(s: u8) -> u64 {
    0x0001_1111_1111_1111 << s
}

/// The cards that score: the hearts and the queen of spades.
fn point_cards() -> u64 {
    suit_cards(HEARTS) | 1 << QUEEN_OF_SPADES
}

fn card_points(card: u8) -> u8 {
    match card {
        QUEEN_OF_SPADES => 13,
        c if suit(c) == HEARTS => 1,
        _ => 0,
    }
}

impl Default for Hearts {
    fn default() -> Self {
        Hearts::new()
    }
}

impl Hearts {
    /// The start of a deal, before chance has acted.
    pub fn new() -> Hearts {
        Hearts {
            direction: NONE,
            dealt: 0,
            hands: [0; 4],
            picked: [0; 4],
            picks: 0,
            received: [0; 4],
            plays: [0; 52],
            played: 0,
            played_set: 0,
            leaders: [NONE; 14],
            points: [0; 4],
        }
    }

    fn chance(&self) -> bool {
        self.direction == NONE || self.dealt < 52
    }

    /// Whether the players are picking cards to pass.
    fn passing(&self) -> bool {
        !self.chance() && self.direction != 0 && self.picks < 12
    }

    pub fn over(&self) -> bool {
        self.played == 52
    }

    /// A player's cards.
    pub fn hand(&self, p: usize) -> u64 {
        self.hands[p]
    }

    /// The player who receives `p`'s passed cards.
    fn recipient(&self, p: usize) -> usize {
        (p + self.direction as usize) % PLAYERS
    }

    /// The player to move (picking or playing).
    pub fn mover(&self) -> usize {
        if self.passing() {
            return (self.picks / 3) as usize;
        }
        let t = (self.played / 4) as usize;
        ((self.leaders[t] + self.played % 4) % 4) as usize
    }

    /// Whether a heart or the queen of spades has been played.
    fn broken(&self) -> bool {
        self.played_set & point_cards() != 0
    }

    /// The suits each player has shown it lacks, one bit a suit.
    fn voids(&self) -> [u8; 4] {
        let mut voids = [0u8; 4];
        for i in 0..self.played {
            let (t, pos) = (i / 4, i % 4);
            if pos == 0 {
                continue;
            }
            let led = suit(self.plays[(t * 4) as usize]);
            if suit(self.plays[i as usize]) != led {
                let p = (self.leaders[t as usize] + pos) % 4;
                voids[p as usize] |= 1 << led;
            }
        }
        voids
    }

    /// The passes go over; the holder of the two of clubs leads.
    fn exchange(&mut self) {
        for p in 0..PLAYERS {
            let to = self.recipient(p);
            self.hands[to] |= self.picked[p];
            self.received[to] = self.picked[p];
        }
        self.lead_two();
    }

    fn lead_two(&mut self) {
        self.leaders[0] = (0..PLAYERS).find(|&p| self.hands[p] & 1 != 0).unwrap_or(0) as u8;
    }

    /// Each player's points, the moon shot counted.
    fn final_points(&self) -> [u8; 4] {
        match self.points.iter().position(|&x| x == 26) {
            Some(shooter) => {
                let mut out = [26; 4];
                out[shooter] = 0;
                out
            }
            None => self.points,
        }
    }

    /// The cards the mover may play.
    fn playable(&self) -> u64 {
        let hand = self.hands[self.mover()];
        let pos = self.played % 4;
        let first_trick = self.played < 4;
        if pos == 0 {
            if first_trick {
                return hand & 1; // the two of clubs
            }
            let others = hand & !suit_cards(HEARTS);
            return if self.broken() || others == 0 {
                hand
            } else {
                others
            };
        }
        let led = suit(self.plays[(self.played - pos) as usize]);
        let follow = hand & suit_cards(led);
        if follow != 0 {
            return follow;
        }
        if first_trick && hand & !point_cards() != 0 {
            return hand & !point_cards();
        }
        hand
    }
}

impl Game for Hearts {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.chance() || self.over() {
            return Ok(());
        }
        let mut c = if self.passing() {
            self.hands[self.mover()]
        } else {
            self.playable()
        };
        out.try_reserve(c.count_ones() as usize)
            .map_err(|_| GameError::OutOfMemory)?;
        while c != 0 {
            out.push(c.trailing_zeros() as Move);
            c &= c - 1;
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        if self.direction == NONE {
            self.direction = mv as u8;
        } else if self.dealt < 52 {
            self.hands[(self.dealt % 4) as usize] |= 1 << mv;
            self.dealt += 1;
            if self.dealt == 52 && self.direction == 0 {
                self.lead_two();
            }
        } else if self.passing() {
            let p = self.mover();
            self.hands[p] &= !(1 << mv);
            self.picked[p] |= 1 << mv;
            self.picks += 1;
            if self.picks == 12 {
                self.exchange();
            }
        } else {
            let p = self.mover();
            let card = mv as u8;
            self.hands[p] &= !(1 << card);
            self.plays[self.played as usize] = card;
            self.played += 1;
            self.played_set |= 1 << card;
            if self.played % 4 == 0 {
                let t = (self.played / 4 - 1) as usize;
                let trick = &self.plays[t * 4..t * 4 + 4];
                let led = suit(trick[0]);
                let best = (0..4)
                    .filter(|&i| suit(trick[i]) == led)
                    .max_by_key(|&i| trick[i])
                    .unwrap_or(0);
                let w = (self.leaders[t] as usize + best) % 4;
                self.points[w] += trick.iter().map(|&c| card_points(c)).sum::<u8>();
                self.leaders[t + 1] = w as u8;
            }
        }
    }

    fn undo(&mut self, mv: Move) {
        if self.played > 0 {
            if self.played % 4 == 0 {
                let t = (self.played / 4) as usize;
                let w = self.leaders[t] as usize;
                let trick = &self.plays[(t - 1) * 4..t * 4];
                self.points[w] -= trick.iter().map(|&c| card_points(c)).sum::<u8>();
                self.leaders[t] = NONE;
            }
            self.played -= 1;
            let card = std::mem::take(&mut self.plays[self.played as usize]);
            self.played_set &= !(1 << card);
            let p = self.mover();
            self.hands[p] |= 1 << card;
        } else if self.picks > 0 && self.direction != 0 && self.dealt == 52 {
            if self.picks == 12 {
                for p in 0..PLAYERS {
                    self.hands[self.recipient(p)] &= !self.picked[p];
                    self.received[self.recipient(p)] = 0;
                }
                self.leaders[0] = NONE;
            }
            self.picks -= 1;
            let p = self.mover();
            self.picked[p] &= !(1 << mv);
            self.hands[p] |= 1 << mv;
        } else if self.dealt > 0 {
            if self.dealt == 52 {
                self.leaders[0] = NONE;
            }
            self.dealt -= 1;
            self.hands[(self.dealt % 4) as usize] &= !(1 << mv);
        } else {
            self.direction = NONE;
        }
    }

    fn outcome(&mut self) -> Option<i32> {
        None // four players: `player_scores`
    }

    fn evaluate(&mut self) -> i32 {
        0
    }

    fn is_chance(&mut self) -> bool {
        self.chance()
    }

    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        let mut c = if self.direction == NONE {
            0b1111
        } else if self.dealt < 52 {
            ALL & !self.hands.iter().fold(0, |a, h| a | h)
        } else {
            0
        };
        out.try_reserve(c.count_ones() as usize)
            .map_err(|_| GameError::OutOfMemory)?;
        while c != 0 {
            out.push((c.trailing_zeros() as Move, 1.0));
            c &= c - 1;
        }
        Ok(())
    }

    fn players(&mut self) -> usize {
        PLAYERS
    }

    fn player_to_move(&mut self) -> usize {
        self.mover()
    }

    /// 26 less each player's points.
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        if !self.over() {
            return false;
        }
        for (s, x) in out.iter_mut().zip(self.final_points()) {
            *s = 26 - x as i32;
        }
        true
    }

    /// Each score at least 0, the four at most 78 (26 points shared out).
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        Some((0, 78))
    }

    fn hash(&mut self) -> Option<u64> {
        let mut h =
            mix(self.direction as u64 | (self.dealt as u64) << 8 | (self.picks as u64) << 16);
        for p in 0..PLAYERS {
            h = mix(h ^ self.hands[p] ^ (p as u64) << 60);
            h = mix(h ^ self.picked[p]);
        }
        Some(mix(h ^ self.played_set ^ (self.played as u64) << 56))
    }

    /// The mover, its hand, what it picked to pass and received, the pass direction,
    /// how many picks are made, and every card played in order.
    fn information_key(&mut self) -> Option<u64> {
        if self.chance() {
            return None;
        }
        let me = self.mover();
        let mut h = mix(self.hands[me] ^ (me as u64) << 52 ^ (self.direction as u64) << 56);
        h = mix(h ^ self.picked[me] ^ (self.picks as u64) << 56);
        h = mix(h ^ self.received[me]);
        for &c in &self.plays[..self.played as usize] {
            h = mix(h ^ c as u64);
        }
        Some(h)
    }

    /// Deals the cards the mover has not seen to the others again: each as many as it
    /// holds, none of a suit it has shown it lacks, and the cards the mover passed to
    /// their receiver (those not yet played). While cards are being picked, each other
    /// player's picks so far are drawn again from its new hand. Cards go in a random
    /// order, the most constrained first, each to a place left for it at random (by the
    /// room each has); a draw that leaves a card nowhere to go is drawn again.
    fn sample(&mut self, seed: u64) -> bool {
        if self.chance() || self.over() {
            return false;
        }
        let me = self.mover();
        let passing = self.passing();
        let voids = self.voids();
        // Cards whose holder the mover knows: those it passed, after the exchange.
        let mut known = [0u64; 4];
        if !passing && self.direction != 0 {
            known[self.recipient(me)] = self.picked[me] & !self.played_set;
        }
        let mut need = [0u32; 4];
        let mut unseen = [0u8; 52];
        let mut k = 0;
        let mut c = 0;
        for p in (0..PLAYERS).filter(|&p| p != me) {
            let held = if passing {
                self.hands[p] | self.picked[p]
            } else {
                self.hands[p]
            };
            need[p] = (held & !known[p]).count_ones();
            c |= held & !known[p];
        }
        while c != 0 {
            unseen[k] = c.trailing_zeros() as u8;
            k += 1;
            c &= c - 1;
        }
        let mut lacked = [0usize; 4];
        for (p, v) in voids.iter().enumerate() {
            for (s, l) in lacked.iter_mut().enumerate() {
                if p != me && v >> s & 1 == 1 {
                    *l += 1;
                }
            }
        }
        let mut r = seed;
        // Where no one has shown a suit lacking, the shuffled cards are dealt in turn.
        let lacking = lacked.iter().any(|&l| l > 0);
        for _ in 0..1000 {
            let mut hands = known;
            let cards = &mut unseen[..k];
            for i in (1..k).rev() {
                r = mix(r);
                cards.swap(i, (r % (i as u64 + 1)) as usize);
            }
            if lacking {
                cards.sort_by_key(|&c| std::cmp::Reverse(lacked[suit(c) as usize]));
                if !deal_by_room(cards, need, &voids, &mut hands, &mut r) {
                    continue;
                }
            } else {
                deal_in_turn(cards, need, &mut hands);
            }
            for p in (0..PLAYERS).filter(|&p| p != me) {
                if passing {
                    // Its picks so far, drawn again from its new cards.
                    let count = self.picked[p].count_ones();
                    let mut picked = 0u64;
                    for _ in 0..count {
                        let rest = hands[p] & !picked;
                        r = mix(r);
                        picked |= 1 << nth_bit(rest, (r % rest.count_ones() as u64) as u32);
                    }
                    self.picked[p] = picked;
                    self.hands[p] = hands[p] & !picked;
                } else {
                    self.hands[p] = hands[p];
                }
            }
            return true;
        }
        false
    }

    /// A playout on a copy: each chance outcome, pick and card uniform among those
    /// allowed, drawn from a set of bits with no list of moves.
    fn playout(&mut self, seed: u64, out: &mut [i32]) -> bool {
        let mut g = *self;
        let mut r = seed;
        while !g.over() {
            let allowed = if g.direction == NONE {
                0b1111
            } else if g.dealt < 52 {
                ALL & !g.hands.iter().fold(0, |a, h| a | h)
            } else if g.passing() {
                g.hands[g.mover()]
            } else {
                g.playable()
            };
            r = mix(r);
            g.play(nth_bit(allowed, (r % allowed.count_ones() as u64) as u32) as Move);
        }
        g.player_scores(out)
    }

    /// Another player sees a card picked to pass face down.
    fn observed_move(&mut self, mv: Move, player: usize) -> Move {
        if self.passing() && player != self.mover() {
            PASSED
        } else {
            mv
        }
    }
}

/// Deals `cards` (shuffled) to the players in turn, each as many as `need` says.
fn deal_in_turn(cards: &[u8], need: [u32; 4], hands: &mut [u64; 4]) {
    let mut i = 0;
    for p in 0..PLAYERS {
        for &card in &cards[i..i + need[p] as usize] {
            hands[p] |= 1 << card;
        }
        i += need[p] as usize;
    }
}

/// Deals `cards` (most lacked first) each to a player without that suit's void, drawn by
/// the room each has left; false where a card finds no room.
fn deal_by_room(
    cards: &[u8],
    mut left: [u32; 4],
    voids: &[u8; 4],
    hands: &mut [u64; 4],
    r: &mut u64,
) -> bool {
    for &card in cards {
        let fits = |p: usize| voids[p] >> suit(card) & 1 == 0;
        let room: u32 = (0..PLAYERS).filter(|&p| fits(p)).map(|p| left[p]).sum();
        if room == 0 {
            return false;
        }
        *r = mix(*r);
        let mut x = (*r % room as u64) as u32;
        for p in (0..PLAYERS).filter(|&p| fits(p)) {
            if x < left[p] {
                left[p] -= 1;
                hands[p] |= 1 << card;
                break;
            }
            x -= left[p];
        }
    }
    true
}

/// The index of the `k`th set bit of `bits` (from the lowest, `k` below their count).
fn nth_bit(mut bits: u64, k: u32) -> u32 {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}
