//! Pascal Pons' Connect Four sets, where they are found, for the tests that check
//! results against his published scores.
#![allow(dead_code)]

/// Where Pons' Connect Four sets are: `MM_C4_DATA`, else `../shared/data/connect4` beside
/// this checkout, else beside the repository it was cloned from (a fresh clone of a
/// working copy). They are read where they are, never copied in.
pub fn c4_data() -> Option<std::path::PathBuf> {
    let root = crate::common::root();
    let origin = std::process::Command::new("git")
        .args(["config", "--get", "remote.origin.url"])
        .current_dir(&root)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|url| url.starts_with('/'));
    let candidates = [
        std::env::var_os("MM_C4_DATA").map(std::path::PathBuf::from),
        Some(root.join("../shared/data/connect4")),
        origin.map(|o| std::path::Path::new(&o).join("../shared/data/connect4")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|d| d.join("Test_L3_R1").is_file())
}

/// `n` end games as "moves" and the score from the side to move's view: Pons' Test_L3_R1
/// with its published scores where the set can be found, else (said on the output)
/// seeded random positions of 28 to 34 stones with the engine's exact values, an
/// independent reference too.
pub fn end_games(n: usize) -> Vec<(String, i32)> {
    if let Some(dir) = c4_data() {
        let path = dir.join("Test_L3_R1");
        let text = std::fs::read_to_string(&path).unwrap();
        return text
            .lines()
            .take(n)
            .map(|l| {
                let mut it = l.split_whitespace();
                let moves = it.next().unwrap().to_string();
                (moves, it.next().unwrap().parse().unwrap())
            })
            .collect();
    }
    println!("Pons' sets not found (set MM_C4_DATA): random end games, the engine's values");
    let valued = super::games::valued_positions(n, 28, 34, 21);
    let side = |(moves, v): (String, i32)| {
        let side = if moves.len() % 2 == 0 { v } else { -v };
        (moves, side)
    };
    valued.into_iter().map(side).collect()
}
