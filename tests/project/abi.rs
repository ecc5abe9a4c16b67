//! The ABI's layout: the size, alignment and every field offset of each public struct, as
//! the Rust side lays it out, are (1) static-asserted by a generated C file against the
//! header's declarations, compiled as C11 and as C++, so that the header cannot disagree
//! with the library; and (2) compared with the committed `abi/layout.txt`, so that a
//! layout change (an ABI break for programs already built) cannot slip through unseen.
//! `MM_BLESS=1` rewrites the committed file after an intended change.

use crate::common;

use common::{compile, root, scratch};
use minimax::ffi::batched::{
    mm_batched_options, mm_batched_result, mm_batched_root, mm_encoding, mm_evaluator,
};
use minimax::ffi::game::mm_game;
use minimax::ffi::hidden::ismcts::{mm_ismcts_options, mm_ismcts_result};
use minimax::ffi::hidden::pimc::{mm_pimc_move, mm_pimc_options, mm_pimc_result};
use minimax::ffi::mcts::{mm_mcts_move, mm_mcts_options, mm_mcts_progress, mm_mcts_result};
use minimax::ffi::options::{mm_progress, mm_search_method, mm_search_options};
use minimax::ffi::parse_error::mm_parse_error;
use minimax::ffi::players::maxn::{mm_maxn_options, mm_maxn_result};
use minimax::ffi::players::maxn_mcts::{mm_maxn_mcts_options, mm_maxn_mcts_result};
use minimax::ffi::probcut::mm_probcut_pair;
use minimax::ffi::result::{mm_search_result, mm_search_stats};
use minimax::ffi::reward::mm_mcts_reward;
use minimax::ffi::status::mm_status;
use minimax::ffi::tree::leaves::{mm_algorithm, mm_chance_solution, mm_solution, mm_stats};
use minimax::ffi::tree::trees::{mm_node_info, mm_tree_solution};
use minimax::ffi::twoplayer::calibrate::{mm_calibrate_options, mm_calibration, mm_probcut_depths};
use std::collections::BTreeSet;
use std::mem::{align_of, offset_of, size_of};

struct Layout {
    name: &'static str,
    size: usize,
    align: usize,
    /// Empty for a scalar type (an enum or a typedef).
    fields: Vec<(&'static str, usize)>,
}

macro_rules! layout {
    ($t:ident { $($f:ident),* $(,)? }) => {
        Layout {
            name: stringify!($t),
            size: size_of::<$t>(),
            align: align_of::<$t>(),
            fields: vec![$((stringify!($f), offset_of!($t, $f))),*],
        }
    };
    ($t:ident) => {
        Layout { name: stringify!($t), size: size_of::<$t>(), align: align_of::<$t>(), fields: vec![] }
    };
}

/// Every public type of the header, as Rust lays it out.
fn rust_layouts() -> Vec<Layout> {
    vec![
        layout!(mm_status),
        layout!(mm_search_method),
        layout!(mm_algorithm),
        layout!(mm_progress {
            depth,
            value,
            nodes,
            elapsed_us,
            pv,
            pv_len,
            value_kind,
            expected
        }),
        layout!(mm_search_options {
            struct_size,
            method,
            max_depth,
            iterative_deepening,
            table_bytes,
            node_limit,
            time_limit_us,
            stop,
            progress,
            progress_context,
            max_at_root,
            refine_distance,
            max_moves,
            table,
            threads,
            reserved,
            table_frontier,
            killer_moves,
            history_order,
            late_move_reductions,
            aspiration_windows,
            time_management,
            quiescence,
            null_move,
            enhanced_transposition_cutoffs,
            internal_iterative_deepening,
            probcut,
        }),
        layout!(mm_game {
            struct_size,
            context,
            moves,
            play,
            undo,
            outcome,
            evaluate,
            hash,
            max_to_move,
            bounds,
            copy_context,
            free_context,
            is_chance,
            outcomes,
            score_view,
            priors,
            noisy_moves,
            null_move,
            players,
            player_to_move,
            player_scores,
            player_evaluations,
            player_bounds,
            information_key,
            sample,
            observed_move,
            stage,
        }),
        layout!(mm_search_stats {
            nodes,
            leaves,
            cutoffs,
            table_probes,
            table_hits,
            elapsed_us
        }),
        layout!(mm_search_result {
            has_move,
            best_move,
            value,
            exact,
            proven,
            value_kind,
            plies_to_end,
            depth,
            pv_len,
            stats,
            threads_used,
            fewer_threads,
            expected,
        }),
        layout!(mm_stats {
            nodes,
            leaves,
            cutoffs
        }),
        layout!(mm_mcts_reward),
        layout!(mm_mcts_progress {
            playouts,
            nodes,
            has_move,
            best_move,
            value,
            elapsed_us
        }),
        layout!(mm_mcts_options {
            struct_size,
            playouts,
            max_nodes,
            time_limit_us,
            stop,
            exploration,
            reward,
            playout_depth,
            eval_scale,
            seed,
            max_at_root,
            max_moves,
            progress,
            progress_context,
            report_every,
            threads,
            open_loop
        }),
        layout!(mm_mcts_move {
            mv,
            visits,
            mean,
            is_proven,
            proven_reward
        }),
        layout!(mm_mcts_result {
            has_move,
            best_move,
            value,
            proven,
            proven_reward,
            has_score,
            score,
            root_len,
            playouts,
            nodes,
            depth,
            elapsed_us,
            threads_used,
            tree_full,
            fewer_threads
        }),
        layout!(mm_batched_root),
        layout!(mm_batched_options {
            struct_size,
            simulations,
            root,
            batch_size,
            leaves_per_tree,
            c_init,
            c_base,
            noise_alpha,
            noise_fraction,
            considered,
            c_visit,
            c_scale,
            temperature,
            max_nodes,
            max_moves,
            seed,
            max_at_root,
            decisive,
            threads
        }),
        layout!(mm_batched_result {
            has_move,
            best_move,
            value,
            proven,
            simulations,
            tree_full,
            threads_used,
            fewer_threads
        }),
        layout!(mm_maxn_options {
            struct_size,
            max_depth,
            iterative_deepening,
            shallow_pruning,
            node_limit,
            time_limit_us,
            stop,
            max_moves,
            table_bytes
        }),
        layout!(mm_maxn_result {
            has_move,
            best_move,
            scores,
            players,
            exact,
            proven,
            depth,
            pv_len,
            nodes,
            cutoffs,
            values,
            table_hits
        }),
        layout!(mm_maxn_mcts_options {
            struct_size,
            playouts,
            max_nodes,
            time_limit_us,
            stop,
            exploration,
            reward,
            playout_depth,
            seed,
            threads,
            max_moves
        }),
        layout!(mm_maxn_mcts_result {
            has_move,
            best_move,
            players,
            values,
            proven,
            proven_rewards,
            playouts,
            nodes,
            threads_used,
            fewer_threads,
            tree_full
        }),
        layout!(mm_ismcts_options {
            struct_size,
            iterations,
            time_limit_us,
            stop,
            exploration,
            reward,
            seed,
            max_nodes,
            max_moves,
            multi_observer
        }),
        layout!(mm_ismcts_result {
            has_move,
            best_move,
            value,
            visits,
            iterations,
            nodes
        }),
        layout!(mm_pimc_options {
            struct_size,
            samples,
            threads,
            seed,
            combine,
            search
        }),
        layout!(mm_pimc_result {
            has_move,
            best_move,
            value,
            proven,
            nodes,
            move_count
        }),
        layout!(mm_pimc_move { mv, mean, votes }),
        layout!(mm_probcut_depths { deep, shallow }),
        layout!(mm_probcut_pair {
            stage,
            deep,
            shallow,
            samples,
            a,
            b,
            sigma
        }),
        layout!(mm_calibration { positions, used }),
        layout!(mm_calibrate_options {
            struct_size,
            pairs,
            pair_count,
            max_depth,
            games,
            random_plies,
            max_plies,
            seed,
            node_limit,
            table_bytes
        }),
        layout!(mm_encoding {
            struct_size,
            observation_size,
            action_count,
            observe,
            action_index
        }),
        layout!(mm_evaluator {
            struct_size,
            context,
            evaluate
        }),
        layout!(mm_solution {
            value,
            best_leaf,
            line_len,
            line,
            stats
        }),
        layout!(mm_chance_solution {
            value,
            line_len,
            stats,
            pruned
        }),
        layout!(mm_parse_error {
            line,
            column,
            message
        }),
        layout!(mm_node_info {
            parent,
            position,
            child_count,
            value,
            label
        }),
        layout!(mm_tree_solution {
            value,
            best_leaf,
            line_len,
            stats
        }),
    ]
}

/// The structs the header declares, with their field names in order.
fn header_structs() -> Vec<(String, Vec<String>)> {
    let header = std::fs::read_to_string(root().join("include/minimax.h")).unwrap();
    let mut out = Vec::new();
    let mut current: Option<(String, Vec<String>)> = None;
    // A function pointer's declaration that cbindgen spread over several lines, joined.
    let mut pending = String::new();
    let mut joined;
    for line in header.lines() {
        let mut t = line.trim();
        if !pending.is_empty() || (t.contains("(*") && !t.ends_with(';')) {
            pending.push_str(t);
            pending.push(' ');
            if !t.ends_with(';') {
                continue;
            }
            joined = std::mem::take(&mut pending);
            t = joined.trim();
        }
        if let Some(rest) = t.strip_prefix("typedef struct ") {
            if let Some(name) = rest.strip_suffix(" {") {
                current = Some((name.to_string(), Vec::new()));
            }
            continue;
        }
        let Some((name, fields)) = current.as_mut() else {
            continue;
        };
        if t.starts_with('}') {
            assert_eq!(t, format!("}} {name};"));
            out.push(current.take().unwrap());
        } else if t.ends_with(';') && !t.starts_with('*') && !t.starts_with("/*") {
            // `type name;`, `type name[N];` or `ret (*name)(args);`
            let field = match t.find("(*") {
                Some(i) => &t[i + 2..t[i..].find(')').unwrap() + i],
                None => {
                    let decl = t.trim_end_matches(';');
                    let decl = decl.split('[').next().unwrap();
                    decl.rsplit([' ', '*']).next().unwrap()
                }
            };
            fields.push(field.to_string());
        }
    }
    out
}

#[test]
fn every_header_struct_is_covered_field_by_field() {
    let rust: Vec<(String, Vec<String>)> = rust_layouts()
        .into_iter()
        .filter(|l| !l.fields.is_empty())
        .map(|l| {
            (
                l.name.to_string(),
                l.fields.iter().map(|f| f.0.to_string()).collect(),
            )
        })
        .collect();
    let header = header_structs();
    assert!(header.len() >= 10, "the header parser found {header:?}");
    let names =
        |v: &[(String, Vec<String>)]| v.iter().map(|s| s.0.clone()).collect::<BTreeSet<_>>();
    assert_eq!(
        names(&header),
        names(&rust),
        "structs in the header and in this test"
    );
    for (name, fields) in &header {
        let ours = &rust.iter().find(|r| &r.0 == name).unwrap().1;
        assert_eq!(fields, ours, "{name}: the header's fields, in order");
    }
}

fn c_asserts(layouts: &[Layout]) -> String {
    let mut c = String::from(
        "/* Generated by tests/project/abi.rs from the Rust side's layouts. */\n\
         #include <stddef.h>\n#include \"minimax.h\"\n\
         #ifdef __cplusplus\n#define MM_ASSERT(c, m) static_assert(c, m)\n\
         #else\n#define MM_ASSERT(c, m) _Static_assert(c, m)\n#endif\n",
    );
    for l in layouts {
        let ty = match l.name {
            "mm_status" => "enum mm_status".to_string(),
            n => n.to_string(),
        };
        c += &format!("MM_ASSERT(sizeof({ty}) == {}, \"sizeof {ty}\");\n", l.size);
        c += &format!(
            "MM_ASSERT(_Alignof({ty}) == {}, \"alignment of {ty}\");\n",
            l.align
        );
        for (f, off) in &l.fields {
            c += &format!("MM_ASSERT(offsetof({ty}, {f}) == {off}, \"offset of {ty}.{f}\");\n");
        }
    }
    c + "int main(void) { return 0; }\n"
}

#[test]
fn the_header_lays_out_every_struct_as_rust_does() {
    let layouts = rust_layouts();
    let dir = scratch("abi");
    let c = c_asserts(&layouts);
    let c_file = dir.join("layout_check.c");
    std::fs::write(&c_file, &c).unwrap();
    // C++ spells _Alignof alignof.
    let cpp_file = dir.join("layout_check.cpp");
    std::fs::write(&cpp_file, c.replace("_Alignof(", "alignof(")).unwrap();
    let c_path = c_file.to_str().unwrap();
    let cpp_path = cpp_file.to_str().unwrap();
    compile(
        &[c_path],
        &dir.join("layout_c"),
        false,
        &["-std=c11", "-Wall", "-Wextra", "-Werror"],
        false,
    );
    compile(
        &[cpp_path],
        &dir.join("layout_cpp"),
        true,
        &["-std=c++11", "-Wall", "-Wextra", "-Werror"],
        false,
    );
    // The check must be able to fail: a wrong offset does not compile.
    let wrong = c.replacen(
        "offsetof(mm_game, moves) == 16",
        "offsetof(mm_game, moves) == 17",
        1,
    );
    assert_ne!(wrong, c, "the generated file has the expected assertion");
    let wrong_file = dir.join("layout_wrong.c");
    std::fs::write(&wrong_file, wrong).unwrap();
    let out = common::compiler(false)
        .args(["-std=c11", "-fsyntax-only", "-I"])
        .arg(root().join("include"))
        .arg(&wrong_file)
        .output()
        .unwrap();
    assert!(!out.status.success(), "a wrong offset must not compile");
}

#[test]
#[cfg_attr(
    not(all(target_arch = "x86_64", target_os = "linux")),
    ignore = "the committed list is x86_64 Linux's"
)]
fn layouts_match_the_committed_list() {
    let mut text = String::from(
        "# The C ABI's layouts on x86_64 Linux: type size align, then field offset.\n\
         # tests/project/abi.rs checks them; MM_BLESS=1 cargo test --test project abi:: rewrites this file.\n",
    );
    for l in rust_layouts() {
        text += &format!("{} {} {}\n", l.name, l.size, l.align);
        for (f, off) in &l.fields {
            text += &format!("  {f} {off}\n");
        }
    }
    let path = root().join("abi/layout.txt");
    if std::env::var_os("MM_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        committed, text,
        "the ABI's layout changed: programs built against the old header break. If that is \
         intended, bump the major version and run MM_BLESS=1 cargo test --test project abi::"
    );
}
