//! Oh Hell for 3 to 7 players, by the rules and move numbering of OpenSpiel's `oh_hell`
//! at its defaults (written from the rules and from what pyspiel's states show, not from
//! its code): chance picks the number of tricks (1 to 51 / players) and the dealer, deals
//! the cards one at a time to players 0, 1, 2, ... in turn, and turns up a trump card.
//! Each player, from the dealer's left, bids 0 to the tricks (moves 52 + bid); the dealer
//! may not bid so that the bids add up to the tricks. The dealer's left leads the first
//! trick; players follow the suit led if they can; the highest trump takes the trick, or
//! the highest card of the suit led, and its taker leads the next. A player scores a point
//! a trick and 10 more for taking exactly its bid. Cards are numbered `4 * rank + suit`,
//! ranks 2 to ace as 0 to 12.

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move};

/// The cards in the deck.
pub const CARDS: u32 = 52;
/// A bid of `b` is the move `BID + b`.
pub const BID: Move = 52;
const NONE: u8 = u8::MAX;
const ALL: u64 = (1 << CARDS) - 1;

/// A position of Oh Hell: a plain value (no heap), so a copy is cheap.
#[derive(Clone, Copy, Debug)]
pub struct OhHell {
    players: u8,
    /// The tricks this deal (0 until chance has picked them).
    tricks: u8,
    dealer: u8,
    /// Cards dealt so far.
    dealt: u8,
    trump: u8,
    /// Each player's cards, one bit a card.
    hands: [u64; 7],
    /// Each player's bid (-1 until made), and how many bids are made.
    bids: [i8; 7],
    made: u8,
    /// The cards played, in order, and how many.
    plays: [u8; 52],
    played: u8,
    played_set: u64,
    /// The leader of each trick (the first the dealer's left).
    leaders: [u8; 18],
    won: [u8; 7],
    /// Samples know which cards were dealt (see [`OhHell::sampling_dealt_cards`]).
    dealt_known: bool,
}

/// SplitMix64, for samples.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn suit(card: u8) -> u8 {
    card % 4
}

/// The cards of one suit.
fn suit_cards(s: u8) -> u64 {
    0x0001_1111_1111_1111 << s
}

impl OhHell {
    /// The start of a game of `players` (3 to 7), before chance has acted.
    pub fn new(players: usize) -> OhHell {
        assert!((3..=7).contains(&players));
        OhHell {
            players: players as u8,
            tricks: 0,
            dealer: NONE,
            dealt: 0,
            trump: NONE,
            hands: [0; 7],
            bids: [-1; 7],
            made: 0,
            plays: [0; 52],
            played: 0,
            played_set: 0,
            leaders: [NONE; 18],
            won: [0; 7],
            dealt_known: false,
        }
    }

    /// The same game, whose samples deal the other players the cards they hold between
    /// them (each as many as it holds, none of a suit it has shown it lacks), not every
    /// card the mover has not seen: what it is told is which cards were dealt. OpenSpiel's
    /// `oh_hell` resamples so (measured here: its samples put in those hands only the
    /// cards they hold), and a search beside its ISMCTSBot is compared on equal terms
    /// with it.
    pub fn sampling_dealt_cards(mut self) -> OhHell {
        self.dealt_known = true;
        self
    }

    /// The most tricks a deal may have: the deck less the trump card, shared out.
    pub fn most_tricks(&self) -> u8 {
        (CARDS as u8 - 1) / self.players
    }

    fn n(&self) -> u8 {
        self.players
    }

    /// Whether chance is to act: the tricks, the dealer, a card of the deal or the trump.
    fn chance(&self) -> bool {
        self.tricks == 0
            || self.dealer == NONE
            || self.dealt < self.n() * self.tricks
            || self.trump == NONE
    }

    /// A player's cards.
    pub fn hand(&self, p: usize) -> u64 {
        self.hands[p]
    }

    /// The trump card (once turned up).
    pub fn trump_card(&self) -> u8 {
        self.trump
    }

    pub fn over(&self) -> bool {
        !self.chance() && self.played == self.n() * self.tricks
    }

    /// The player to move (bidding or playing).
    pub fn mover(&self) -> usize {
        let n = self.n();
        if self.made < n {
            return ((self.dealer + 1 + self.made) % n) as usize;
        }
        let t = (self.played / n) as usize;
        ((self.leaders[t] + self.played % n) % n) as usize
    }

    /// The cards not dealt to a player and not the trump.
    fn undealt(&self) -> u64 {
        let held = self.hands.iter().fold(self.played_set, |a, h| a | h);
        let trump = if self.trump == NONE {
            0
        } else {
            1 << self.trump
        };
        ALL & !held & !trump
    }

    /// The suits each player has shown it lacks, one bit a suit.
    fn voids(&self) -> [u8; 7] {
        let n = self.n();
        let mut voids = [0u8; 7];
        for i in 0..self.played {
            let (t, pos) = (i / n, i % n);
            if pos == 0 {
                continue;
            }
            let led = suit(self.plays[(t * n) as usize]);
            if suit(self.plays[i as usize]) != led {
                let p = (self.leaders[t as usize] + pos) % n;
                voids[p as usize] |= 1 << led;
            }
        }
        voids
    }

    /// The taker of the trick whose cards are `cards` (in the order played).
    fn taker(&self, cards: &[u8], leader: u8) -> u8 {
        let trump = suit(self.trump);
        let led = suit(cards[0]);
        let mut best = 0;
        for (i, &c) in cards.iter().enumerate().skip(1) {
            let b = cards[best];
            let beats = if suit(c) == suit(b) {
                c > b
            } else {
                suit(c) == trump
            };
            if beats && (suit(c) == led || suit(c) == trump) {
                best = i;
            }
        }
        (leader + best as u8) % self.n()
    }

    /// A player's score: its tricks, and 10 if they are its bid.
    pub fn score(&self, p: usize) -> i32 {
        let bonus = if self.bids[p] == self.won[p] as i8 {
            10
        } else {
            0
        };
        self.won[p] as i32 + bonus
    }
}

impl Game for OhHell {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.chance() || self.over() {
            return Ok(());
        }
        let n = self.n();
        if self.made < n {
            let sum: i32 = self
                .bids
                .iter()
                .filter(|&&b| b >= 0)
                .map(|&b| b as i32)
                .sum();
            for b in 0..=self.tricks as i32 {
                if self.made == n - 1 && sum + b == self.tricks as i32 {
                    continue; // the dealer may not make the bids add up
                }
                out.try_reserve(1).map_err(|_| GameError::OutOfMemory)?;
                out.push(BID + b as Move);
            }
            return Ok(());
        }
        let hand = self.hands[self.mover()];
        let first = (self.played / n * n) as usize;
        let mut cards = hand;
        if self.played % n != 0 {
            let follow = hand & suit_cards(suit(self.plays[first]));
            if follow != 0 {
                cards = follow;
            }
        }
        out.try_reserve(cards.count_ones() as usize)
            .map_err(|_| GameError::OutOfMemory)?;
        let mut c = cards;
        while c != 0 {
            out.push(c.trailing_zeros() as Move);
            c &= c - 1;
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        let n = self.n();
        if self.tricks == 0 {
            self.tricks = mv as u8;
        } else if self.dealer == NONE {
            self.dealer = mv as u8;
            self.leaders[0] = (self.dealer + 1) % n;
        } else if self.dealt < n * self.tricks {
            self.hands[(self.dealt % n) as usize] |= 1 << mv;
            self.dealt += 1;
        } else if self.trump == NONE {
            self.trump = mv as u8;
        } else if self.made < n {
            let p = self.mover();
            self.bids[p] = (mv - BID) as i8;
            self.made += 1;
        } else {
            let p = self.mover();
            let card = mv as u8;
            self.hands[p] &= !(1 << card);
            self.plays[self.played as usize] = card;
            self.played += 1;
            self.played_set |= 1 << card;
            if self.played % n == 0 {
                let t = (self.played / n - 1) as usize;
                let start = t * n as usize;
                let mut trick = [0u8; 7];
                trick[..n as usize].copy_from_slice(&self.plays[start..start + n as usize]);
                let w = self.taker(&trick[..n as usize], self.leaders[t]);
                self.won[w as usize] += 1;
                self.leaders[t + 1] = w;
            }
        }
    }

    fn undo(&mut self, mv: Move) {
        let n = self.n();
        if self.played > 0 {
            if self.played % n == 0 {
                let t = (self.played / n) as usize;
                let w = self.leaders[t];
                self.won[w as usize] -= 1;
                self.leaders[t] = NONE;
            }
            self.played -= 1;
            let card = std::mem::take(&mut self.plays[self.played as usize]);
            self.played_set &= !(1 << card);
            let p = self.mover();
            self.hands[p] |= 1 << card;
        } else if self.made > 0 {
            self.made -= 1;
            let p = self.mover();
            self.bids[p] = -1;
        } else if self.trump != NONE {
            self.trump = NONE;
        } else if self.dealt > 0 {
            self.dealt -= 1;
            self.hands[(self.dealt % n) as usize] &= !(1 << mv);
        } else if self.dealer != NONE {
            self.dealer = NONE;
            self.leaders[0] = NONE;
        } else {
            self.tricks = 0;
        }
    }

    fn outcome(&mut self) -> Option<i32> {
        None // more than two players: `player_scores`
    }

    fn evaluate(&mut self) -> i32 {
        0
    }

    fn is_chance(&mut self) -> bool {
        self.chance()
    }

    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        if self.tricks == 0 {
            for t in 1..=self.most_tricks() {
                out.try_reserve(1).map_err(|_| GameError::OutOfMemory)?;
                out.push((t as Move, 1.0));
            }
        } else if self.dealer == NONE {
            for d in 0..self.n() {
                out.try_reserve(1).map_err(|_| GameError::OutOfMemory)?;
                out.push((d as Move, 1.0));
            }
        } else if self.chance() {
            let mut c = self.undealt();
            out.try_reserve(c.count_ones() as usize)
                .map_err(|_| GameError::OutOfMemory)?;
            while c != 0 {
                out.push((c.trailing_zeros() as Move, 1.0));
                c &= c - 1;
            }
        }
        Ok(())
    }

    fn players(&mut self) -> usize {
        self.players as usize
    }

    fn player_to_move(&mut self) -> usize {
        self.mover()
    }

    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        if !self.over() {
            return false;
        }
        for (p, s) in out.iter_mut().enumerate() {
            *s = self.score(p);
        }
        true
    }

    /// Each score at least 0, the sum at most the players times the most one can score
    /// (as OpenSpiel's utility range, and the adapter's bounds for it, give).
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        Some((0, self.n() as i32 * (self.most_tricks() as i32 + 10)))
    }

    fn hash(&mut self) -> Option<u64> {
        let mut h = mix(self.tricks as u64 | (self.dealer as u64) << 8 | (self.trump as u64) << 16);
        for p in 0..self.n() as usize {
            h = mix(h ^ self.hands[p] ^ (self.bids[p] as u8 as u64) << 56);
        }
        Some(mix(h ^ self.played_set ^ (self.played as u64) << 56))
    }

    /// The mover, its hand, the deal's tricks, dealer and trump, the bids, and every
    /// card played in order.
    fn information_key(&mut self) -> Option<u64> {
        if self.chance() {
            return None;
        }
        let me = self.mover();
        let mut h = mix(self.hands[me] ^ (me as u64) << 52 ^ (self.tricks as u64) << 56);
        h = mix(h ^ self.dealer as u64 ^ (self.trump as u64) << 8 ^ (self.made as u64) << 16);
        for p in 0..self.n() as usize {
            h = mix(h ^ self.bids[p] as u8 as u64);
        }
        for &c in &self.plays[..self.played as usize] {
            h = mix(h ^ c as u64);
        }
        Some(h)
    }

    /// Deals the cards the mover has not seen again (those the others hold, if
    /// [`OhHell::sampling_dealt_cards`]): each other player as many as it holds, none of
    /// a suit it has shown it lacks, the rest undealt. Cards go in a
    /// random order, each to a place left for it at random (by the room each has);
    /// a draw that leaves a card nowhere to go is drawn again.
    fn sample(&mut self, seed: u64) -> bool {
        if self.chance() || self.over() {
            return false;
        }
        let me = self.mover();
        let n = self.n() as usize;
        let voids = self.voids();
        let mut unseen = [0u8; 52];
        let mut k = 0;
        let mut c = ALL & !self.hands[me] & !self.played_set & !(1 << self.trump);
        if self.dealt_known {
            c = (0..n)
                .filter(|&p| p != me)
                .fold(0, |held, p| held | self.hands[p]);
        }
        while c != 0 {
            unseen[k] = c.trailing_zeros() as u8;
            k += 1;
            c &= c - 1;
        }
        // The places: each other player's count, and the undealt stock (index n).
        let mut need = [0u32; 8];
        for (p, room) in need.iter_mut().enumerate().take(n) {
            if p != me {
                *room = self.hands[p].count_ones();
            }
        }
        need[n] = k as u32 - need[..n].iter().sum::<u32>();
        let mut r = seed;
        // Where no one has shown a suit lacking, the shuffled cards are dealt in turn.
        let lacking = (0..n).any(|p| p != me && voids[p] != 0);
        // The suits by how many players lack them: cards of the most lacked go first,
        // as they have the fewest places.
        let mut lacked = [0usize; 4];
        for (p, v) in voids.iter().enumerate().take(n) {
            for (s, l) in lacked.iter_mut().enumerate() {
                if p != me && v >> s & 1 == 1 {
                    *l += 1;
                }
            }
        }
        for _ in 0..1000 {
            let mut left = need;
            let mut hands = [0u64; 7];
            let cards = &mut unseen[..k];
            for i in (1..k).rev() {
                r = mix(r);
                cards.swap(i, (r % (i as u64 + 1)) as usize);
            }
            if !lacking {
                let mut i = 0;
                for p in (0..n).filter(|&p| p != me) {
                    for &card in &cards[i..i + need[p] as usize] {
                        hands[p] |= 1 << card;
                    }
                    i += need[p] as usize;
                }
                for p in (0..n).filter(|&p| p != me) {
                    self.hands[p] = hands[p];
                }
                return true;
            }
            cards.sort_by_key(|&c| std::cmp::Reverse(lacked[suit(c) as usize]));
            let mut ok = true;
            for &card in cards.iter() {
                let fits = |p: usize| p == n || voids[p] >> suit(card) & 1 == 0;
                let room: u32 = (0..=n).filter(|&p| fits(p)).map(|p| left[p]).sum();
                if room == 0 {
                    ok = false;
                    break;
                }
                r = mix(r);
                let mut x = (r % room as u64) as u32;
                for p in 0..=n {
                    if !fits(p) {
                        continue;
                    }
                    if x < left[p] {
                        left[p] -= 1;
                        if p < n {
                            hands[p] |= 1 << card;
                        }
                        break;
                    }
                    x -= left[p];
                }
            }
            if ok {
                for (p, h) in hands.iter().enumerate().take(n) {
                    if p != me {
                        self.hands[p] = *h;
                    }
                }
                return true;
            }
        }
        false
    }
}
