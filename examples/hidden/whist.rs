//! Tiny Whist: a two-player trick-taking game small enough that every deal consistent
//! with what a player has seen can be enumerated (the tests check the hidden-information
//! searches against that). A deck of `suits` x `ranks` cards; each player is dealt
//! `hand` of them, the rest lie out of play, unseen by both. Player 0 leads the first
//! trick; the other must follow the suit led if it can; the higher card of the suit led
//! takes the trick, and its taker leads the next. No trumps. The score is player 0's
//! tricks minus player 1's (player 0 is MAX).

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move};

/// A position of Tiny Whist; cards are numbered `suit * ranks + rank`.
#[derive(Clone, Debug)]
pub struct Whist {
    pub suits: u32,
    pub ranks: u32,
    /// Each player's cards, one bit a card.
    pub hands: [u32; 2],
    pub to_move: usize,
    /// The card led in the trick under way, if one has been.
    pub led: Option<u32>,
    pub tricks: [i32; 2],
    /// Every card played, in order, with its player: what both players have seen.
    pub played: Vec<(usize, u32)>,
    /// For undo: the leader and tricks before each card.
    undo: Vec<(Option<u32>, usize, [i32; 2])>,
}

/// SplitMix64, for deals and samples.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `k` cards drawn at random from `from` (a set of at least `k`), by `seed`.
fn draw(from: u32, k: u32, seed: u64) -> u32 {
    let mut left: Vec<u32> = (0..32).filter(|c| from >> c & 1 == 1).collect();
    let mut out = 0;
    let mut r = seed;
    for _ in 0..k {
        r = mix(r);
        let i = (r % left.len() as u64) as usize;
        out |= 1 << left.swap_remove(i);
    }
    out
}

impl Whist {
    /// A deal from `seed`: `hand` cards each from `suits` x `ranks` (at most 32 cards).
    pub fn deal(suits: u32, ranks: u32, hand: u32, seed: u64) -> Whist {
        let deck = suits * ranks;
        assert!(deck <= 32 && 2 * hand <= deck);
        let all = if deck == 32 {
            u32::MAX
        } else {
            (1 << deck) - 1
        };
        let first = draw(all, hand, seed);
        let second = draw(all & !first, hand, mix(seed ^ 1));
        Whist {
            suits,
            ranks,
            hands: [first, second],
            to_move: 0,
            led: None,
            tricks: [0, 0],
            played: Vec::new(),
            undo: Vec::new(),
        }
    }

    pub fn suit(&self, card: u32) -> u32 {
        card / self.ranks
    }

    /// The cards of `suit`, one bit a card.
    pub fn suit_cards(&self, suit: u32) -> u32 {
        ((1 << self.ranks) - 1) << (suit * self.ranks)
    }

    /// Every card of the deck.
    pub fn deck(&self) -> u32 {
        let n = self.suits * self.ranks;
        if n == 32 { u32::MAX } else { (1 << n) - 1 }
    }

    /// The cards `hand` may play now: the suit led if it has any, else all.
    pub fn playable(&self, hand: u32) -> u32 {
        match self.led {
            Some(c) if hand & self.suit_cards(self.suit(c)) != 0 => {
                hand & self.suit_cards(self.suit(c))
            }
            _ => hand,
        }
    }

    /// The suits `player` has shown it has none of (it did not follow them).
    pub fn voids(&self, player: usize) -> u32 {
        let mut voids = 0;
        let mut lead = None;
        for &(p, c) in &self.played {
            match lead {
                None => lead = Some(c),
                Some(l) => {
                    if p == player && self.suit(c) != self.suit(l) {
                        voids |= 1 << self.suit(l);
                    }
                    lead = None;
                }
            }
        }
        voids
    }

    pub fn over(&self) -> bool {
        self.hands == [0, 0]
    }
}

impl Game for Whist {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let cards = self.playable(self.hands[self.to_move]);
        out.extend((0..32).filter(|c| cards >> c & 1 == 1).map(Move::from));
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        let card = mv as u32;
        let p = self.to_move;
        self.undo.push((self.led, p, self.tricks));
        self.hands[p] &= !(1 << card);
        self.played.push((p, card));
        match self.led {
            None => {
                self.led = Some(card);
                self.to_move = 1 - p;
            }
            Some(l) => {
                // The follower takes the trick only with a higher card of the suit led.
                let follower_wins = self.suit(card) == self.suit(l) && card > l;
                let winner = if follower_wins { p } else { 1 - p };
                self.tricks[winner] += 1;
                self.led = None;
                self.to_move = winner;
            }
        }
    }

    fn undo(&mut self, mv: Move) {
        let (led, p, tricks) = self.undo.pop().expect("a card to take back");
        self.played.pop();
        self.hands[p] |= 1 << mv as u32;
        (self.led, self.to_move, self.tricks) = (led, p, tricks);
    }

    fn outcome(&mut self) -> Option<i32> {
        self.over().then(|| self.tricks[0] - self.tricks[1])
    }

    fn evaluate(&mut self) -> i32 {
        self.tricks[0] - self.tricks[1]
    }

    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.to_move == 0)
    }

    fn bounds(&mut self) -> Option<(i32, i32)> {
        let n = (self.hands[0].count_ones() + self.hands[1].count_ones()) as i32 / 2;
        let (a, b) = (self.tricks[0], self.tricks[1]);
        Some((a - b - n - 1, a - b + n + 1))
    }

    fn hash(&mut self) -> Option<u64> {
        let led = self.led.map_or(0, |c| c as u64 + 1);
        let h = mix(self.hands[0] as u64 ^ (self.hands[1] as u64) << 32);
        Some(mix(h
            ^ led << 1
            ^ self.to_move as u64
            ^ (self.tricks[0] as u64) << 8))
    }

    /// The mover's hand and every card played, in order.
    fn information_key(&mut self) -> Option<u64> {
        let mut h = mix(self.hands[self.to_move] as u64 ^ (self.to_move as u64) << 40);
        for &(p, c) in &self.played {
            h = mix(h ^ (c as u64) << 1 ^ p as u64);
        }
        Some(h)
    }

    /// Deals the other player's hand again from the cards the mover has not seen,
    /// leaving out the suits it has shown it lacks; the rest lie out of play.
    fn sample(&mut self, seed: u64) -> bool {
        let (me, other) = (self.to_move, 1 - self.to_move);
        let seen = self
            .played
            .iter()
            .fold(self.hands[me], |s, &(_, c)| s | 1 << c);
        let mut allowed = self.deck() & !seen;
        let voids = self.voids(other);
        for s in 0..self.suits {
            if voids >> s & 1 == 1 {
                allowed &= !self.suit_cards(s);
            }
        }
        let k = self.hands[other].count_ones();
        if allowed.count_ones() < k {
            return false;
        }
        self.hands[other] = draw(allowed, k, seed);
        true
    }
}
