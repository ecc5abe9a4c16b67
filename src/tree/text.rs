//! The tree notation: a leaf is an integer (`-3`), an inner node is `(` its children `)`
//! separated by whitespace or commas, any node may carry a label first (`A:(3 5)`, `D:3`),
//! and `#` starts a comment to the end of the line. The whole text is one node, the root:
//! `(((3 5) (6 9)) ((1 2) (0 -1)))`. A chance node is `?(` its children `)`, each with
//! its weight first: `?(1: 3, 2: B:(4 5))` draws the leaf 3 with probability 1/3.
//!
//! The parser keeps its own stack (no recursion), so a million nested parentheses are just
//! data, and it runs in time linear in the text.

use std::collections::HashMap;
use std::fmt;

use super::general::Tree;

/// What is wrong with a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A `)` with no `(` open, or a `(` never closed.
    Unbalanced,
    /// `()`: an inner node needs at least one child.
    EmptyList,
    /// A token that is neither an integer nor a label.
    BadToken,
    /// An integer outside `int32_t`.
    IntegerOutOfRange,
    /// A label used twice.
    DuplicateLabel,
    /// Text after the root's end.
    TrailingText,
    /// No node where one must be: an empty text, or a label with nothing after it.
    MissingNode,
    /// A chance node's child without its weight, a weight that is not a finite
    /// non-negative number, weights that sum to zero, or a weight outside `?( )`.
    BadWeight,
}

/// A parse error with its 1-based line and column (columns count bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub kind: ParseErrorKind,
    /// 1-based line of the error.
    pub line: usize,
    /// 1-based column (in bytes) of the error.
    pub column: usize,
    /// "line L, column C: what is wrong".
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// The position of byte `at` in `text`, 1-based.
fn position(text: &[u8], at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = at
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, column)
}

fn error(text: &[u8], at: usize, kind: ParseErrorKind, message: String) -> ParseError {
    let (line, column) = position(text, at);
    ParseError {
        kind,
        line,
        column,
        message,
    }
}

/// The error for a label (at byte `at`) that no node follows.
fn unused_label(text: &[u8], (at, name): (usize, &str)) -> ParseError {
    error(
        text,
        at,
        ParseErrorKind::MissingNode,
        format!("label '{name}' is not followed by a node"),
    )
}

fn is_separator(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b','
}

fn is_token_byte(b: u8) -> bool {
    !is_separator(b) && !matches!(b, b'(' | b')' | b'#' | b':' | b'?')
}

/// A weight token's value (`1`, `0.25`, `2e-3`), if it is a number at all.
fn number(token: &[u8]) -> Option<f64> {
    let first = *token.first()?;
    if !(first.is_ascii_digit() || matches!(first, b'.' | b'+' | b'-')) {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

fn is_identifier(token: &[u8]) -> bool {
    !token.is_empty()
        && (token[0].is_ascii_alphabetic() || token[0] == b'_')
        && token
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// An integer token's value: `Ok(None)` if it is not an integer at all.
fn integer(token: &[u8]) -> Result<Option<i32>, ()> {
    let digits = match token.first() {
        Some(b'+' | b'-') => &token[1..],
        _ => token,
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Ok(None);
    }
    let text = std::str::from_utf8(token).expect("ASCII");
    text.parse::<i32>().map(Some).map_err(|_| ())
}

/// Parses the notation into a tree whose nodes are numbered in preorder.
pub fn parse(text: &str) -> Result<Tree, ParseError> {
    parse_bytes(text.as_bytes())
}

/// [`parse`] for bytes that need not be UTF-8 (text from C): comments may hold any bytes,
/// and anywhere else a byte outside ASCII is part of a bad token.
pub fn parse_bytes(bytes: &[u8]) -> Result<Tree, ParseError> {
    use ParseErrorKind::*;
    let mut tree = Tree::builder();
    // Open inner nodes, innermost last.
    let mut open: Vec<Open> = Vec::new();
    // The children of the open nodes, and their weights (1 outside chance nodes).
    let mut pending: Vec<(usize, f64)> = Vec::new();
    let mut labels: HashMap<&str, ()> = HashMap::new();
    let mut label: Option<(usize, &str)> = None; // a label waiting for its node
    let mut weight: Option<f64> = None; // a chance child's weight waiting for its node
    let mut root_done = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if is_separator(b) {
            i += 1;
            continue;
        }
        if b == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if root_done {
            return Err(error(
                bytes,
                i,
                TrailingText,
                "text after the end of the tree".into(),
            ));
        }
        match b {
            b'(' | b'?' => {
                let chance = b == b'?';
                if chance && bytes.get(i + 1) != Some(&b'(') {
                    return Err(error(
                        bytes,
                        i,
                        BadToken,
                        "'?' must be followed by '('".into(),
                    ));
                }
                let w = node_weight(bytes, i, &open, &mut weight)?;
                let node = tree.add_node(0, label.take().map(|(_, l)| l.into()));
                open.push(Open {
                    node,
                    at: i,
                    first: pending.len(),
                    chance,
                    weight: w,
                });
                i += if chance { 2 } else { 1 };
            }
            b')' => {
                if let Some(label) = label {
                    return Err(unused_label(bytes, label));
                }
                if weight.is_some() {
                    return Err(error(
                        bytes,
                        i,
                        BadWeight,
                        "a weight with no node after it".into(),
                    ));
                }
                let Some(o) = open.pop() else {
                    return Err(error(
                        bytes,
                        i,
                        Unbalanced,
                        "')' without a matching '('".into(),
                    ));
                };
                if o.first == pending.len() {
                    return Err(error(
                        bytes,
                        o.at,
                        EmptyList,
                        "'()' has no children; a node needs at least one".into(),
                    ));
                }
                let (kids, weights): (Vec<usize>, Vec<f64>) =
                    pending[o.first..].iter().copied().unzip();
                tree.set_children(o.node, &kids);
                if o.chance && tree.set_chance(o.node, &weights).is_err() {
                    return Err(error(
                        bytes,
                        o.at,
                        BadWeight,
                        "a chance node's weights sum to zero".into(),
                    ));
                }
                pending.truncate(o.first);
                i += 1;
                match open.last() {
                    Some(_) => pending.push((o.node, o.weight)),
                    None => root_done = true,
                }
            }
            b':' => {
                return Err(error(
                    bytes,
                    i,
                    BadToken,
                    "':' must follow a label such as A, or a weight in '?( )'".into(),
                ));
            }
            _ => {
                let start = i;
                while i < bytes.len() && is_token_byte(bytes[i]) {
                    i += 1;
                }
                let token = &bytes[start..i];
                let colon = i < bytes.len() && bytes[i] == b':';
                if colon && is_identifier(token) {
                    let name = std::str::from_utf8(token).expect("ASCII");
                    if let Some(label) = label {
                        return Err(unused_label(bytes, label));
                    }
                    if labels.insert(name, ()).is_some() {
                        return Err(error(
                            bytes,
                            start,
                            DuplicateLabel,
                            format!("label '{name}' is used twice"),
                        ));
                    }
                    label = Some((start, name));
                    i += 1;
                    continue;
                }
                let shown = String::from_utf8_lossy(token);
                if let (true, Some(w)) = (colon, number(token)) {
                    let why = if !open.last().is_some_and(|o| o.chance) {
                        "a weight 'w:' goes only before a child of a chance node '?( )'"
                    } else if label.is_some() || weight.is_some() {
                        "a weight goes first: 'w: label: node'"
                    } else if !w.is_finite() || w < 0.0 {
                        "a weight must be a finite number, at least 0"
                    } else {
                        weight = Some(w);
                        i += 1;
                        continue;
                    };
                    return Err(error(bytes, start, BadWeight, format!("{shown}: {why}")));
                }
                let value = match integer(token) {
                    Ok(Some(v)) => v,
                    Ok(None) => {
                        return Err(error(
                            bytes,
                            start,
                            BadToken,
                            format!("'{shown}' is not an integer or a label"),
                        ));
                    }
                    Err(()) => {
                        return Err(error(
                            bytes,
                            start,
                            IntegerOutOfRange,
                            format!("{shown} is outside int32_t"),
                        ));
                    }
                };
                let w = node_weight(bytes, start, &open, &mut weight)?;
                let node = tree.add_node(value, label.take().map(|(_, l)| l.into()));
                match open.last() {
                    Some(_) => pending.push((node, w)),
                    None => root_done = true,
                }
            }
        }
    }
    if let Some(label) = label {
        return Err(unused_label(bytes, label));
    }
    if let Some(o) = open.last() {
        return Err(error(bytes, o.at, Unbalanced, "'(' is never closed".into()));
    }
    if !root_done {
        return Err(error(
            bytes,
            bytes.len(),
            MissingNode,
            "no tree: the text holds no node".into(),
        ));
    }
    Ok(tree)
}

/// An inner node being parsed: where its `(` is, where its children start in the
/// pending list, whether it is a chance node, and its own weight among its siblings.
struct Open {
    node: usize,
    at: usize,
    first: usize,
    chance: bool,
    weight: f64,
}

/// The weight of a node starting at byte `at`: the one written before it if its parent is
/// a chance node (which needs one), else 1.
fn node_weight(
    bytes: &[u8],
    at: usize,
    open: &[Open],
    weight: &mut Option<f64>,
) -> Result<f64, ParseError> {
    match (open.last().is_some_and(|o| o.chance), weight.take()) {
        (true, Some(w)) => Ok(w),
        (true, None) => Err(error(
            bytes,
            at,
            ParseErrorKind::BadWeight,
            "a chance node's child needs its weight first: 'w: node'".into(),
        )),
        (false, _) => Ok(1.0),
    }
}

/// Writes `tree` in the notation; [`parse`] reads it back as an equal tree.
pub fn print(tree: &Tree) -> String {
    enum Step {
        Node(usize),
        Close,
    }
    let mut out = String::new();
    let mut stack = vec![Step::Node(0)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.push(')'),
            Step::Node(node) => {
                if !out.is_empty() && !out.ends_with('(') {
                    out.push(' ');
                }
                if tree.parent(node).is_some_and(|p| tree.is_chance(p)) {
                    out.push_str(&format!("{}: ", tree.weight(node)));
                }
                if let Some(l) = tree.label(node) {
                    out.push_str(l);
                    out.push(':');
                }
                if tree.is_leaf(node) {
                    out.push_str(&tree.value(node).to_string());
                } else {
                    if tree.is_chance(node) {
                        out.push('?');
                    }
                    out.push('(');
                    stack.push(Step::Close);
                    stack.extend(tree.children(node).iter().rev().map(|&c| Step::Node(c)));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParseErrorKind::*;

    #[test]
    fn documents_example_and_labels() {
        let t = parse("(((3 5) (6 9)) ((1 2) (0 -1)))").unwrap();
        assert_eq!(t.node_count(), 15);
        let t = parse("A:(B:(3 5) C:(6, 9)) # a comment\n").unwrap();
        assert_eq!(
            (t.label(0), t.label(1), t.value(2)),
            (Some("A"), Some("B"), 3)
        );
        assert_eq!(print(&t), "A:(B:(3 5) C:(6 9))");
        assert_eq!(parse("D:3").unwrap().label(0), Some("D"));
    }

    #[test]
    fn chance_nodes_with_weights() {
        let t = parse("A:(B:?(1: D:(3 5), 3: 6) ?(0.5: 1, 0: 2))").unwrap();
        assert!(t.is_chance(1) && !t.is_chance(0) && !t.is_chance(2));
        assert_eq!(
            (t.weight(2), t.weight(5), t.label(2)),
            (1.0, 3.0, Some("D"))
        );
        assert_eq!(print(&t), "A:(B:?(1: D:(3 5) 3: 6) ?(0.5: 1 0: 2))");
        assert_eq!(parse(&print(&t)).unwrap(), t);
        assert_ne!(
            parse("(?(1: 3 2: 4))").unwrap(),
            parse("(?(2: 3 1: 4))").unwrap()
        );
        assert_ne!(parse("(?(1: 3 2: 4))").unwrap(), parse("((3 4))").unwrap());
        let cases: [(&str, usize, usize); 9] = [
            ("?(3 4)", 1, 3),        // no weight
            ("?(1: 3, 4)", 1, 9),    // the second has none
            ("(1: 3)", 1, 2),        // a weight outside a chance node
            ("?(-1: 3)", 1, 3),      // negative
            ("?(1e999: 3)", 1, 3),   // infinite
            ("?(0: 3, 0: 4)", 1, 1), // all zero
            ("?(1: )", 1, 6),        // a weight with no node
            ("?(A: 1: 3)", 1, 6),    // the weight after the label
            ("?(1: 2: 3)", 1, 6),    // two weights
        ];
        for (text, line, column) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(
                (e.kind, e.line, e.column),
                (BadWeight, line, column),
                "{text:?}: {e}"
            );
        }
        assert_eq!(parse("? (1: 3)").unwrap_err().kind, BadToken);
    }

    #[test]
    fn bytes_outside_utf8_are_comment_text_or_bad_tokens() {
        // Found by fuzzing: such bytes in a comment once made the C API panic.
        let t = parse_bytes(b"(1 2) # caf\xe9 \x9e\n").unwrap();
        assert_eq!(t.node_count(), 3);
        let e = parse_bytes(b"(1\n 2 \xe9)").unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (ParseErrorKind::BadToken, 2, 4));
        assert!(e.message.contains('\u{fffd}'), "{e}");
    }

    #[test]
    fn each_malformation_has_its_kind_and_place() {
        let cases: [(&str, ParseErrorKind, usize, usize); 12] = [
            ("(3 5", Unbalanced, 1, 1),
            ("(3 5))", TrailingText, 1, 6),
            (")", Unbalanced, 1, 1),
            ("(3\n ())", EmptyList, 2, 2),
            ("(3 x5)", BadToken, 1, 4),
            ("(3 --5)", BadToken, 1, 4),
            ("(3 2147483648)", IntegerOutOfRange, 1, 4),
            ("(-2147483649)", IntegerOutOfRange, 1, 2),
            ("A:(A:3 4)", DuplicateLabel, 1, 4),
            ("(1 2) 3", TrailingText, 1, 7),
            ("  # nothing\n", MissingNode, 2, 1),
            ("(A: )", MissingNode, 1, 2),
        ];
        for (text, kind, line, column) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(
                (e.kind, e.line, e.column),
                (kind, line, column),
                "{text:?}: {e}"
            );
        }
        assert_eq!(
            parse("(2147483647 -2147483648)").unwrap().value(2),
            i32::MIN
        );
    }
}
