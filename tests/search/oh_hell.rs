//! Oh Hell's samples (the native game of issue 52, for 3 to 7 players) against what the
//! mover has seen, worked out here apart from the game: its hand, the cards played, each
//! other player's count, and the suits each has shown it lacks (read off the tricks
//! played: a card off the suit led); with no suit shown lacking, each unseen card goes
//! to each place in proportion to its room. Its moves and scores are checked against
//! OpenSpiel's oh_hell in python/tests/test_hidden.py.

use crate::shared::oh_hell;

use minimax::search::{Game, Move};
use oh_hell::OhHell;

/// SplitMix64.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a position shows, as a player would write it down from the moves: the line.
struct Seen {
    players: usize,
    line: Vec<Move>,
}

/// A random game of `players` played `plies` moves past the deal (chance included),
/// with its line.
fn random_position(
    players: usize,
    tricks: Option<Move>,
    plies: usize,
    seed: u64,
) -> (OhHell, Seen) {
    let mut g = OhHell::new(players);
    let mut line = Vec::new();
    let mut r = seed;
    let mut plies_left = plies;
    loop {
        let mut moves = Vec::new();
        if g.is_chance() {
            let mut outs = Vec::new();
            g.outcomes(&mut outs).unwrap();
            moves.extend(outs.iter().map(|o| o.0));
            if line.is_empty() {
                if let Some(t) = tricks {
                    moves = vec![t];
                }
            }
        } else {
            if plies_left == 0 {
                break;
            }
            g.moves(&mut moves).unwrap();
            if moves.is_empty() {
                break;
            }
            plies_left -= 1;
        }
        r = mix(r);
        let m = moves[(r % moves.len() as u64) as usize];
        g.play(m);
        line.push(m);
    }
    (g, Seen { players, line })
}

/// What the line shows: the tricks, the dealer, who holds which card of the deal (by
/// the dealing order), the trump, the bids, and each card played with its player.
struct Reading {
    hands: Vec<u64>,
    trump: Move,
    plays: Vec<(usize, Move)>,
    voids: Vec<u8>,
}

fn read(seen: &Seen) -> Reading {
    let n = seen.players;
    let tricks = seen.line[0] as usize;
    let dealer = seen.line[1] as usize;
    let mut hands = vec![0u64; n];
    for (i, &c) in seen.line[2..2 + n * tricks].iter().enumerate() {
        hands[i % n] |= 1 << c;
    }
    let trump = seen.line[2 + n * tricks];
    let rest = &seen.line[3 + n * tricks + n.min(seen.line.len() - 3 - n * tricks)..];
    let mut plays = Vec::new();
    let mut voids = vec![0u8; n];
    let mut leader = (dealer + 1) % n;
    for trick in rest.chunks(n) {
        let led = trick[0] % 4;
        for (k, &c) in trick.iter().enumerate() {
            let p = (leader + k) % n;
            plays.push((p, c));
            hands[p] &= !(1 << c);
            if c % 4 != led {
                voids[p] |= 1 << led;
            }
        }
        if trick.len() == n {
            // The taker: the highest trump, else the highest of the suit led.
            let t = trump % 4;
            let key = |c: Move| (c % 4 == t, c % 4 == led, c / 4);
            let best = (0..n).max_by_key(|&k| key(trick[k])).unwrap();
            leader = (leader + best) % n;
        }
    }
    Reading {
        hands,
        trump,
        plays,
        voids,
    }
}

#[test]
fn samples_keep_what_the_mover_has_seen() {
    let mut checked = 0;
    for seed in 0..400u64 {
        let players = 3 + (seed % 5) as usize;
        let (g, seen) = random_position(players, None, (mix(seed) % 40) as usize, seed);
        let mut g0 = g;
        if g0.is_chance() || g0.over() {
            continue;
        }
        let me = g0.player_to_move();
        let truth = read(&seen);
        let key = g0.information_key();
        for s in 0..20 {
            let mut d = g;
            assert!(d.sample(mix(seed ^ s << 32)), "seed {seed}: no sample");
            assert_eq!(d.information_key(), key);
            assert_eq!(d.player_to_move(), me);
            let hands: Vec<u64> = (0..players).map(|p| d.hand(p)).collect();
            assert_eq!(hands[me], truth.hands[me]);
            let mut all = 1u64 << truth.trump;
            for &(_, c) in &truth.plays {
                all |= 1 << c;
            }
            for (p, &hand) in hands.iter().enumerate() {
                assert_eq!(hand.count_ones(), truth.hands[p].count_ones());
                assert_eq!(all & hand, 0, "a card seen elsewhere dealt to {p}");
                all |= hand;
                for suit in 0..4 {
                    if truth.voids[p] >> suit & 1 == 1 {
                        assert_eq!(hand & 0x0001_1111_1111_1111 << suit, 0);
                    }
                }
            }
            // The sample plays on: its moves are the moves of a game.
            let mut moves = Vec::new();
            d.moves(&mut moves).unwrap();
            assert!(!moves.is_empty());
        }
        checked += 1;
    }
    assert!(checked > 250, "{checked} positions");
}

#[test]
fn with_no_suit_lacking_each_card_goes_by_room() {
    // At the first bid, nothing is played: each unseen card lies with each other player
    // as often as that player's share of the unseen cards.
    let (mut g, _) = random_position(4, Some(5), 0, 11);
    let me = g.player_to_move();
    let unseen = 52 - 5 - 1;
    let samples = 20_000u64;
    let mut counts = vec![[0u32; 52]; 4];
    for s in 0..samples {
        let mut d = g;
        assert!(d.sample(mix(s)));
        for (p, row) in counts.iter_mut().enumerate() {
            let mut h = d.hand(p);
            while h != 0 {
                row[h.trailing_zeros() as usize] += 1;
                h &= h - 1;
            }
        }
    }
    let mine = g.hand(me) | 1 << g.trump_card();
    for p in (0..4).filter(|&p| p != me) {
        for c in (0..52).filter(|&c| mine >> c & 1 == 0) {
            let share = counts[p][c] as f64 / samples as f64;
            let expected = 5.0 / unseen as f64;
            // About 4.5 standard deviations of a share near 0.11 over 20,000 draws.
            assert!(
                (share - expected).abs() < 0.01,
                "player {p} card {c}: {share}"
            );
        }
    }
}

#[test]
fn dealt_card_samples_share_out_the_cards_the_others_hold() {
    // OpenSpiel's way (sampling_dealt_cards): the others' hands, read off the line, are
    // shared out among them again, each keeping its count and its voids; with no void,
    // each of those cards lies with each other player by that player's share.
    let mut checked = 0;
    for seed in 0..300u64 {
        let players = 3 + (seed % 5) as usize;
        let (g, seen) = random_position(players, None, (mix(seed) % 40) as usize, seed);
        let mut g = g.sampling_dealt_cards();
        if g.is_chance() || g.over() {
            continue;
        }
        let me = g.player_to_move();
        let truth = read(&seen);
        let held = (0..players)
            .filter(|&p| p != me)
            .fold(0, |h, p| h | truth.hands[p]);
        for s in 0..20 {
            let mut d = g;
            assert!(d.sample(mix(seed ^ s << 32)), "seed {seed}: no sample");
            let mut dealt = 0;
            for p in 0..players {
                let hand = d.hand(p);
                assert_eq!(hand.count_ones(), truth.hands[p].count_ones());
                if p == me {
                    assert_eq!(hand, truth.hands[me]);
                    continue;
                }
                assert_eq!(dealt & hand, 0);
                dealt |= hand;
                for suit in 0..4 {
                    if truth.voids[p] >> suit & 1 == 1 {
                        assert_eq!(hand & 0x0001_1111_1111_1111 << suit, 0);
                    }
                }
            }
            assert_eq!(dealt, held, "seed {seed}: the others' cards, shared out");
        }
        checked += 1;
    }
    assert!(checked > 180, "{checked} positions");
    let (g, seen) = random_position(3, Some(5), 0, 11);
    let mut g = g.sampling_dealt_cards();
    let me = g.player_to_move();
    let truth = read(&seen);
    let samples = 20_000u64;
    for p in (0..3).filter(|&p| p != me) {
        let mut held = truth.hands[3 - me - p] | truth.hands[p];
        while held != 0 {
            let c = held.trailing_zeros();
            held &= held - 1;
            let with_p = (0..samples)
                .filter(|&s| {
                    let mut d = g;
                    assert!(d.sample(mix(s)));
                    d.hand(p) >> c & 1 == 1
                })
                .count();
            // Each other player holds 5 of the 10: a half, within about 4.5 deviations.
            let share = with_p as f64 / samples as f64;
            assert!((share - 0.5).abs() < 0.016, "player {p} card {c}: {share}");
        }
    }
}

#[test]
fn undo_takes_back_every_move() {
    for seed in 0..100u64 {
        let (mut g, seen) = random_position(3 + (seed % 5) as usize, None, 200, seed);
        let end = format!("{g:?}");
        for &m in seen.line.iter().rev() {
            g.undo(m);
        }
        assert_eq!(format!("{g:?}"), format!("{:?}", OhHell::new(seen.players)));
        for &m in &seen.line {
            g.play(m);
        }
        assert_eq!(format!("{g:?}"), end);
    }
}
