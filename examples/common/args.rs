//! The examples' command lines: `--name value` options and `--flag`s, checked against
//! what the example takes. `--help` (or `-h`) prints the usage and exits 0; an argument
//! the example does not take, or an option without a number, prints what was wrong and
//! the usage, and exits 2.
#![allow(dead_code)]

use std::str::FromStr;

pub struct Args {
    usage: &'static str,
    args: Vec<String>,
}

impl Args {
    /// The program's arguments, checked: `options` take a value, `flags` do not.
    pub fn parse(usage: &'static str, options: &[&str], flags: &[&str]) -> Args {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let a = Args { usage, args };
        let mut i = 0;
        while i < a.args.len() {
            match a.args[i].as_str() {
                "--help" | "-h" => {
                    println!("{usage}");
                    std::process::exit(0);
                }
                s if options.contains(&s) && i + 1 < a.args.len() => i += 2,
                s if options.contains(&s) => a.fail(&format!("{s} needs a value")),
                s if flags.contains(&s) => i += 1,
                s => a.fail(&format!("unknown argument {s}")),
            }
        }
        a
    }

    /// The value of option `name` as a number, or `default` if it is not given.
    pub fn number<T: FromStr>(&self, name: &str, default: T) -> T {
        match self.args.iter().position(|a| a == name) {
            None => default,
            Some(i) => match self.args[i + 1].parse() {
                Ok(v) => v,
                Err(_) => self.fail(&format!("{name} needs a number, not {}", self.args[i + 1])),
            },
        }
    }

    /// The value of option `name`, one of `choices`, or `default` if it is not given.
    pub fn choice(
        &self,
        name: &str,
        choices: &[&'static str],
        default: &'static str,
    ) -> &'static str {
        match self.args.iter().position(|a| a == name) {
            None => default,
            Some(i) => match choices.iter().find(|&&c| c == self.args[i + 1]) {
                Some(c) => c,
                None => self.fail(&format!(
                    "{name} takes one of {choices:?}, not {}",
                    self.args[i + 1]
                )),
            },
        }
    }

    /// Whether flag `name` is given.
    pub fn flag(&self, name: &str) -> bool {
        self.args.iter().any(|a| a == name)
    }

    /// Says what was wrong, and the usage, and exits with status 2.
    pub fn fail(&self, what: &str) -> ! {
        let name = self.usage.split_whitespace().nth(1).unwrap_or("example");
        eprintln!("{name}: {what}\n{}", self.usage);
        std::process::exit(2);
    }
}
