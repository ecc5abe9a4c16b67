//! Helpers shared by the integration tests: a seeded generator, and building and running
//! C programs against the freshly built library with the compiler the `cc` crate finds.
#![allow(dead_code)] // each test binary uses a different part

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};

/// SplitMix64: small, seeded, and the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[lo, hi]`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }
    /// A leaf value: mostly small (many ties), sometimes `i32::MIN`, `i32::MAX` or anything.
    pub fn leaf(&mut self) -> i32 {
        match self.range(0, 19) {
            0 => i32::MIN,
            1 => i32::MAX,
            2 => self.next_u64() as i32,
            _ => self.range(-9, 9) as i32,
        }
    }
    /// `count` lines of `lo..=hi` Connect Four column digits ("4453") that `ok` accepts:
    /// positions by random play.
    pub fn c4_lines(
        &mut self,
        count: usize,
        lo: u64,
        hi: u64,
        ok: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let mut out = Vec::new();
        while out.len() < count {
            let n = lo + self.next_u64() % (hi - lo + 1);
            let line: String = (0..n)
                .map(|_| char::from(b'1' + (self.next_u64() % 7) as u8))
                .collect();
            if ok(&line) {
                out.push(line);
            }
        }
        out
    }
    /// An alpha or beta bound, extremes included.
    pub fn bound(&mut self) -> i32 {
        match self.range(0, 5) {
            0 => i32::MIN,
            1 => i32::MAX,
            _ => self.range(-12, 12) as i32,
        }
    }
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory where cargo put the library that these tests were built with.
pub fn cargo_lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap(); // target/<profile>/deps/<test>
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// Builds the shared library with cargo (`cargo test` builds only the rlib) into the
/// directory these tests were built in, with the same profile, and returns its path.
fn build_shared_library() -> PathBuf {
    let lib_dir = cargo_lib_dir();
    let target_dir = lib_dir.parent().unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--lib", "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir);
    if lib_dir.file_name().is_some_and(|n| n == "release") {
        cmd.arg("--release");
    }
    // The library these tests were built with: the same features, so that neither build
    // undoes the other's.
    if cfg!(feature = "onnx") {
        cmd.args(["--features", "onnx"]);
    }
    let status = cmd.status().expect("cargo runs");
    assert!(status.success(), "cargo build --lib failed");
    let built = lib_dir.join("libminimax.so");
    assert!(built.exists(), "{} was not built", built.display());
    built
}

/// A directory of this test binary's own, under cargo's scratch space.
pub fn scratch(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let stem = exe.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(stem).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Held by the tests that run `make install` or `cargo cinstall`: both write the build
/// directory's links and `build/minimax.pc`, which two at once in one test binary race on.
pub static INSTALLING: Mutex<()> = Mutex::new(());

/// The shared library's soname, as build.rs sets it (`libminimax.so.0.4`).
pub const SONAME: &str = env!("MM_SONAME");

/// A directory holding `libminimax.so` and its soname link (`SONAME`), both
/// pointing at the library cargo just built, for programs to link and start with.
pub fn lib_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(make_lib_dir).clone()
}

fn make_lib_dir() -> PathBuf {
    let dir = scratch("lib");
    let built = build_shared_library();
    for name in ["libminimax.so", SONAME] {
        let link = dir.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&built, &link).unwrap();
    }
    dir
}

/// The C or C++ compiler that the `cc` crate would use for this target.
pub fn compiler(cpp: bool) -> Command {
    cc::Build::new()
        .cpp(cpp)
        .target(env!("MM_TARGET"))
        .host(env!("MM_TARGET"))
        .opt_level(2)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .get_compiler()
        .to_command()
}

/// How the C programs are built and run, from `MM_CHECK`: plainly (unset), with
/// AddressSanitizer and UndefinedBehaviorSanitizer (`asan`), or under valgrind
/// (`valgrind`). In either check mode every run must end without a report, whatever the
/// test expects of the program itself, and is logged to `MM_CHECK_LOG` if that is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    Plain,
    Sanitizers,
    Valgrind,
}

pub fn check_mode() -> Check {
    match std::env::var("MM_CHECK").as_deref() {
        Err(_) | Ok("") => Check::Plain,
        Ok("asan") => Check::Sanitizers,
        Ok("valgrind") => Check::Valgrind,
        Ok(other) => panic!("MM_CHECK={other}: use asan or valgrind"),
    }
}

const SANITIZE: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
    "-g",
];

/// Compiles `sources` (paths relative to the repository) into `out`, with the header's
/// directory on the include path and `extra` flags (any `-l` among them go after the
/// sources); panics with the compiler's output on failure. With `link`, links against the
/// library with an rpath to it.
pub fn compile(sources: &[&str], out: &Path, cpp: bool, extra: &[&str], link: bool) {
    let (libs, flags): (Vec<&str>, Vec<&str>) = extra.iter().partition(|f| f.starts_with("-l"));
    let mut cmd = compiler(cpp);
    if check_mode() == Check::Sanitizers {
        cmd.args(SANITIZE);
    }
    cmd.args(flags)
        .arg("-I")
        .arg(root().join("include"))
        .arg("-I")
        .arg(root().join("c_examples"));
    for s in sources {
        cmd.arg(root().join(s));
    }
    cmd.arg("-o").arg(out);
    if link {
        let lib = lib_dir();
        cmd.arg(format!("-L{}", lib.display()))
            .arg("-lminimax")
            .arg(format!("-Wl,-rpath,{}", lib.display()));
    }
    cmd.args(libs);
    let output = cmd.output().expect("the C compiler runs");
    assert!(
        output.status.success(),
        "compiling {sources:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Builds an example program from `c_examples/` with the warnings-as-errors flags, once
/// per test binary.
pub fn build_example(source: &str) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    built
        .entry(source.to_string())
        .or_insert_with(|| compile_example(source))
        .clone()
}

fn compile_example(source: &str) -> PathBuf {
    let cpp = source.ends_with(".cpp");
    let name = source.replace('.', "_");
    let out = scratch("bin").join(name);
    let flags: &[&str] = if cpp {
        &["-Wall", "-Wextra", "-Werror"]
    } else {
        &["-std=c99", "-Wall", "-Wextra", "-Werror"]
    };
    compile(&[&format!("c_examples/{source}")], &out, cpp, flags, true);
    out
}

/// Runs `exe` with `input` on its standard input (under valgrind in that check mode).
pub fn run(exe: &Path, args: &[&str], input: &str) -> Output {
    let mode = check_mode();
    let mut valgrind_log = None;
    let mut cmd = match mode {
        Check::Valgrind => {
            // valgrind's report goes to a file of its own: the tests compare stderr.
            let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let name = exe.file_name().unwrap().to_string_lossy();
            let log = scratch("valgrind").join(format!("{name}-{n}.log"));
            let mut c = Command::new("valgrind");
            // valgrind runs one thread at a time, and its default lock lets a busy thread
            // keep it: a search's threads could starve the thread that sets its stop
            // flag for seconds. Fair scheduling gives every thread its turn.
            c.arg("--error-exitcode=1")
                .arg("--fair-sched=yes")
                .arg("--leak-check=full")
                .arg("--errors-for-leak-kinds=definite,indirect,possible")
                // The search pool's threads live until exit, by design (see the file).
                .arg(format!(
                    "--suppressions={}",
                    root().join("tests/valgrind.supp").display()
                ))
                .arg(format!("--log-file={}", log.display()))
                .arg(exe);
            valgrind_log = Some(log);
            c
        }
        Check::Sanitizers => {
            let mut c = Command::new(exe);
            c.env("ASAN_OPTIONS", "detect_leaks=1:exitcode=86")
                .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1");
            c
        }
        Check::Plain => Command::new(exe),
    };
    let output = run_command(cmd.args(args), input);
    if mode != Check::Plain {
        check_clean(mode, exe, args, &output, valgrind_log.as_deref());
    }
    output
}

static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Panics if a sanitizer or valgrind reported anything; logs the run to `MM_CHECK_LOG`.
fn check_clean(
    mode: Check,
    exe: &Path,
    args: &[&str],
    output: &Output,
    valgrind_log: Option<&Path>,
) {
    let err = String::from_utf8_lossy(&output.stderr);
    let report = match mode {
        Check::Sanitizers => [
            "ERROR: AddressSanitizer",
            "ERROR: LeakSanitizer",
            "runtime error:",
        ]
        .iter()
        .any(|m| err.contains(m))
        .then(|| err.to_string()),
        Check::Valgrind => {
            let log = valgrind_log.and_then(|p| std::fs::read_to_string(p).ok());
            let log = log.unwrap_or_default();
            (!log.contains("ERROR SUMMARY: 0 errors")).then_some(log)
        }
        Check::Plain => None,
    };
    if let Some(report) = report {
        panic!("{mode:?} reported on {} {args:?}:\n{report}", exe.display());
    }
    if let Some(path) = valgrind_log {
        let _ = std::fs::remove_file(path);
    }
    if let Some(log) = std::env::var_os("MM_CHECK_LOG") {
        let line = format!(
            "{:?} exit={} {} {}\n",
            mode,
            output.status.code().unwrap_or(-1),
            exe.file_name().unwrap().to_string_lossy(),
            args.join(" ")
        );
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .unwrap();
        f.write_all(line.as_bytes()).unwrap();
    }
}

fn run_command(cmd: &mut Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    // Written from another thread, so that a program printing a lot cannot block us both.
    // A program that stops reading early closes the pipe: that is not an error here.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The leaf orders the speed tests cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Random,
    Ascending,
    Descending,
    /// Each node's best child first (for MAX at the root): alpha-beta's best case.
    Best,
    /// Distinct values placed so that alpha-beta prunes nothing.
    Worst,
}

pub const ORDERS: [Order; 5] = [
    Order::Random,
    Order::Ascending,
    Order::Descending,
    Order::Best,
    Order::Worst,
];

/// `2^h` leaves in the given order, MAX to move at the root.
pub fn leaves(rng: &mut Rng, h: u32, order: Order) -> Vec<i32> {
    let n = 1usize << h;
    let mut v: Vec<i32> = (0..n).map(|_| rng.leaf()).collect();
    match order {
        Order::Random => {}
        Order::Ascending => v.sort(),
        Order::Descending => v.sort_by(|a, b| b.cmp(a)),
        Order::Best => {
            best_first(&mut v, true);
        }
        Order::Worst => {
            let sorted: Vec<i32> = (0..n as i64).map(|i| (i - n as i64 / 2) as i32).collect();
            place_worst(&mut v, &sorted, true);
        }
    }
    v
}

/// Swaps subtrees so that each node's best child comes first; returns the node's value.
fn best_first(v: &mut [i32], is_max: bool) -> i32 {
    if v.len() == 1 {
        return v[0];
    }
    let half = v.len() / 2;
    let a = best_first(&mut v[..half], !is_max);
    let b = best_first(&mut v[half..], !is_max);
    if (is_max && b > a) || (!is_max && b < a) {
        let (l, r) = v.split_at_mut(half);
        l.swap_with_slice(r);
    }
    if is_max { a.max(b) } else { a.min(b) }
}

/// Under a MAX node the later child's values all lie above the earlier one's, under a MIN
/// node below: no window from the left ever cuts.
fn place_worst(out: &mut [i32], sorted: &[i32], is_max: bool) {
    if out.len() == 1 {
        out[0] = sorted[0];
        return;
    }
    let half = out.len() / 2;
    let (low, high) = sorted.split_at(half);
    let (first, second) = if is_max { (low, high) } else { (high, low) };
    let (l, r) = out.split_at_mut(half);
    place_worst(l, first, !is_max);
    place_worst(r, second, !is_max);
}

/// Every file and symlink under `dir`, relative to it, sorted (the install tests).
#[allow(dead_code)]
pub fn files(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                walk(base, &path, out);
            } else {
                out.push(path.strip_prefix(base).unwrap().display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Builds one of the C test programs in `tests/c/` (C99, warnings as errors, pthreads),
/// runs it, and returns its summary line once it exited 0 with "failures 0".
#[allow(dead_code)]
pub fn run_c_test(name: &str) -> String {
    let exe = scratch("bin").join(name);
    compile(
        &[&format!("tests/c/{name}.c")],
        &exe,
        false,
        &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pthread", "-lm"],
        true,
    );
    let out = run(&exe, &[], "");
    let summary = stdout(&out);
    println!("{summary}");
    assert!(out.status.success(), "{summary}{}", stderr(&out));
    assert!(summary.ends_with("failures 0\n"), "{summary}");
    summary
}
