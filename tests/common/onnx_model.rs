//! ONNX model files written by the tests themselves, apart from the loader they test:
//! protobuf's wire format (varints and length-delimited fields) by hand, with the field
//! numbers of ONNX's published schema (onnx/onnx.proto: ModelProto, GraphProto,
//! NodeProto, TensorProto, ValueInfoProto, TypeProto, TensorShapeProto,
//! AttributeProto). Enough for the small networks of the tests: float tensors, nodes
//! with integer and float attributes.
#![allow(dead_code)] // each test binary uses a different part

/// One message's bytes, field by field.
#[derive(Default, Clone)]
pub struct Message(Vec<u8>);

impl Message {
    fn key(&mut self, field: u32, wire: u8) {
        self.varint(((field as u64) << 3) | wire as u64);
    }
    fn varint(&mut self, mut v: u64) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(byte);
                return;
            }
            self.0.push(byte | 0x80);
        }
    }
    /// An integer field (int32, int64 and enums are varints; negative ones ten bytes).
    pub fn int(mut self, field: u32, v: i64) -> Self {
        self.key(field, 0);
        self.varint(v as u64);
        self
    }
    /// A float field (fixed 32 bits).
    pub fn float(mut self, field: u32, v: f32) -> Self {
        self.key(field, 5);
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// A length-delimited field: bytes, a string or a message.
    pub fn bytes(mut self, field: u32, b: &[u8]) -> Self {
        self.key(field, 2);
        self.varint(b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }
    pub fn str(self, field: u32, s: &str) -> Self {
        self.bytes(field, s.as_bytes())
    }
    pub fn msg(self, field: u32, m: &Message) -> Self {
        self.bytes(field, &m.0)
    }
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

/// ONNX's element type for float (TensorProto.DataType.FLOAT) and int64.
pub const FLOAT: i64 = 1;
pub const INT64: i64 = 7;

/// A dimension: a number, or a name (a dynamic dimension).
#[derive(Clone, Copy)]
pub enum Dim {
    Value(i64),
    Param(&'static str),
}

/// A graph input or output: ValueInfoProto { name = 1, type = 2 }.
pub fn value_info(name: &str, elem_type: i64, dims: &[Dim]) -> Message {
    let mut shape = Message::default();
    for d in dims {
        let dim = match d {
            Dim::Value(v) => Message::default().int(1, *v),
            Dim::Param(p) => Message::default().str(2, p),
        };
        shape = shape.msg(1, &dim); // TensorShapeProto.dim
    }
    let tensor = Message::default().int(1, elem_type).msg(2, &shape); // TypeProto.Tensor
    let ty = Message::default().msg(1, &tensor); // TypeProto.tensor_type
    Message::default().str(1, name).msg(2, &ty)
}

/// A float tensor: TensorProto { dims = 1, data_type = 2, name = 8, raw_data = 9 }.
pub fn tensor(name: &str, dims: &[i64], data: &[f32]) -> Message {
    assert_eq!(
        dims.iter().product::<i64>() as usize,
        data.len(),
        "{name}'s size"
    );
    let mut t = Message::default();
    for &d in dims {
        t = t.int(1, d);
    }
    let raw: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
    t.int(2, FLOAT).str(8, name).bytes(9, &raw)
}

/// An int64 tensor (a Reshape's shape).
pub fn int_tensor(name: &str, data: &[i64]) -> Message {
    let raw: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
    Message::default()
        .int(1, data.len() as i64)
        .int(2, INT64)
        .str(8, name)
        .bytes(9, &raw)
}

/// A node: NodeProto { input = 1, output = 2, name = 3, op_type = 4, attribute = 5 }.
pub fn node(op: &str, inputs: &[&str], outputs: &[&str], attributes: &[Message]) -> Message {
    let mut n = Message::default();
    for i in inputs {
        n = n.str(1, i);
    }
    for o in outputs {
        n = n.str(2, o);
    }
    n = n.str(3, &format!("{op}_{}", outputs[0])).str(4, op);
    for a in attributes {
        n = n.msg(5, a);
    }
    n
}

/// An integer attribute: AttributeProto { name = 1, i = 3, type = 20 (INT = 2) }.
pub fn int_attribute(name: &str, v: i64) -> Message {
    Message::default().str(1, name).int(3, v).int(20, 2)
}

/// A float attribute: AttributeProto { name = 1, f = 2, type = 20 (FLOAT = 1) }.
pub fn float_attribute(name: &str, v: f32) -> Message {
    Message::default().str(1, name).float(2, v).int(20, 1)
}

/// A model of one graph: ModelProto { ir_version = 1, opset_import = 8, producer_name = 2,
/// graph = 7 }; GraphProto { node = 1, name = 2, initializer = 5, input = 11,
/// output = 12 }. Opset 13.
pub fn model(
    nodes: &[Message],
    initializers: &[Message],
    inputs: &[Message],
    outputs: &[Message],
) -> Vec<u8> {
    model_with_shapes(nodes, initializers, inputs, outputs, &[])
}

/// [`model`], with the shapes of inner values as exporters write them (GraphProto's
/// value_info = 13).
pub fn model_with_shapes(
    nodes: &[Message],
    initializers: &[Message],
    inputs: &[Message],
    outputs: &[Message],
    inner: &[Message],
) -> Vec<u8> {
    let mut graph = Message::default();
    for n in nodes {
        graph = graph.msg(1, n);
    }
    graph = graph.str(2, "test");
    for t in initializers {
        graph = graph.msg(5, t);
    }
    for i in inputs {
        graph = graph.msg(11, i);
    }
    for o in outputs {
        graph = graph.msg(12, o);
    }
    for v in inner {
        graph = graph.msg(13, v);
    }
    let opset = Message::default().str(1, "").int(2, 13); // OperatorSetIdProto
    Message::default()
        .int(1, 8)
        .str(2, "libminimax tests")
        .msg(7, &graph)
        .msg(8, &opset)
        .into_bytes()
}

/// A two-layer perceptron with tanh on the value: `h = relu(x W1 + b1)`,
/// `value = tanh(h Wv + bv)` (`[batch, 1]`), `logits = h Wp + bp`, its weights drawn from
/// `seed`; and the same network computed here in f64, for the outputs the model must
/// give.
pub struct Mlp {
    pub inputs: usize,
    pub hidden: usize,
    pub actions: usize,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub wv: Vec<f32>,
    pub bv: f32,
    pub wp: Vec<f32>,
    pub bp: Vec<f32>,
}

impl Mlp {
    pub fn random(inputs: usize, hidden: usize, actions: usize, seed: u64) -> Mlp {
        let mut s = seed;
        let mut next = move || {
            // splitmix64, to a float in [-0.5, 0.5)
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let mut take = |n: usize| (0..n).map(|_| next()).collect::<Vec<f32>>();
        Mlp {
            inputs,
            hidden,
            actions,
            w1: take(inputs * hidden),
            b1: take(hidden),
            wv: take(hidden),
            bv: take(1)[0],
            wp: take(hidden * actions),
            bp: take(actions),
        }
    }

    /// The model, its batch dimension `batch`, its outputs named `names` (the value's,
    /// the logits'), the value listed first unless `logits_first`.
    pub fn onnx(&self, batch: Dim, names: (&str, &str), logits_first: bool) -> Vec<u8> {
        self.build(batch, names, logits_first, &[])
    }

    /// The model as jax2onnx and torch.onnx write it: the inner values' shapes given too,
    /// with the batch's name in them.
    pub fn onnx_with_inner_shapes(&self, batch: Dim) -> Vec<u8> {
        let inner = [
            value_info("h", FLOAT, &[batch, Dim::Value(self.hidden as i64)]),
            value_info("vpre", FLOAT, &[batch, Dim::Value(1)]),
        ];
        self.build(batch, ("value", "logits"), false, &inner)
    }

    fn build(
        &self,
        batch: Dim,
        names: (&str, &str),
        logits_first: bool,
        inner: &[Message],
    ) -> Vec<u8> {
        let (i, h, a) = (self.inputs as i64, self.hidden as i64, self.actions as i64);
        let mut outputs = vec![
            value_info(names.0, FLOAT, &[batch, Dim::Value(1)]),
            value_info(names.1, FLOAT, &[batch, Dim::Value(a)]),
        ];
        if logits_first {
            outputs.reverse();
        }
        model_with_shapes(
            &[
                node("MatMul", &["x", "w1"], &["xw1"], &[]),
                node("Add", &["xw1", "b1"], &["pre"], &[]),
                node("Relu", &["pre"], &["h"], &[]),
                node("Gemm", &["h", "wv", "bv"], &["vpre"], &[]),
                node("Tanh", &["vpre"], &[names.0], &[]),
                node("Gemm", &["h", "wp", "bp"], &[names.1], &[]),
            ],
            &[
                tensor("w1", &[i, h], &self.w1),
                tensor("b1", &[h], &self.b1),
                tensor("wv", &[h, 1], &self.wv),
                tensor("bv", &[1], &[self.bv]),
                tensor("wp", &[h, a], &self.wp),
                tensor("bp", &[a], &self.bp),
            ],
            &[value_info("x", FLOAT, &[batch, Dim::Value(i)])],
            &outputs,
            inner,
        )
    }

    /// The network's value and logits for one observation, in f64.
    pub fn eval(&self, x: &[f32]) -> (f64, Vec<f64>) {
        let h: Vec<f64> = (0..self.hidden)
            .map(|j| {
                let s: f64 = (0..self.inputs)
                    .map(|k| x[k] as f64 * self.w1[k * self.hidden + j] as f64)
                    .sum::<f64>()
                    + self.b1[j] as f64;
                s.max(0.0)
            })
            .collect();
        let v = (h
            .iter()
            .zip(&self.wv)
            .map(|(a, &b)| a * b as f64)
            .sum::<f64>()
            + self.bv as f64)
            .tanh();
        let logits = (0..self.actions)
            .map(|c| {
                h.iter()
                    .enumerate()
                    .map(|(j, a)| a * self.wp[j * self.actions + c] as f64)
                    .sum::<f64>()
                    + self.bp[c] as f64
            })
            .collect();
        (v, logits)
    }
}

/// Tic-tac-toe's exact values as a network, for an encoding of the side to move's marks
/// then the other side's (18 floats, 0 or 1) and 9 actions: a unit for each position
/// that is not over, whose weights are +1 on the cells that position has and -1 on the
/// others, and whose bias makes the unit 1 on that position's observation and at most 0
/// on any other; the value is the units' sum weighted by the positions' values (by a
/// negamax written here); the logits are zero. Returns the model and how many positions
/// it holds.
pub fn tic_tac_toe_oracle() -> (Vec<u8>, usize) {
    use std::collections::HashMap;
    const LINES: [u16; 8] = [0x7, 0x38, 0x1c0, 0x49, 0x92, 0x124, 0x111, 0x54];
    // Whether the marks `m` hold a line.
    fn line(m: u16) -> bool {
        for l in LINES {
            if m & l == l {
                return true;
            }
        }
        false
    }
    // The value for the side to move, whose marks are `mine`.
    fn negamax(mine: u16, theirs: u16, memo: &mut HashMap<(u16, u16), f32>) -> f32 {
        if let Some(&v) = memo.get(&(mine, theirs)) {
            return v;
        }
        let v = if line(theirs) {
            -1.0
        } else if mine | theirs == 0x1ff {
            0.0
        } else {
            (0..9)
                .filter(|c| (mine | theirs) & (1 << c) == 0)
                .map(|c| -negamax(theirs, mine | (1 << c), memo))
                .fold(-1.0, f32::max)
        };
        memo.insert((mine, theirs), v);
        v
    }
    let mut seen = HashMap::new();
    let mut stack = vec![(0u16, 0u16)];
    while let Some((mine, theirs)) = stack.pop() {
        if line(theirs) || mine | theirs == 0x1ff || seen.contains_key(&(mine, theirs)) {
            continue;
        }
        seen.insert((mine, theirs), ());
        for c in 0..9 {
            if (mine | theirs) & (1 << c) == 0 {
                stack.push((theirs, mine | (1 << c)));
            }
        }
    }
    let mut all: Vec<(u16, u16)> = seen.into_keys().collect();
    all.sort();
    let p = all.len();
    let mut memo = HashMap::new();
    let (mut w, mut bias, mut v) = (vec![0.0f32; 18 * p], vec![0.0f32; p], vec![0.0f32; p]);
    for (j, &(mine, theirs)) in all.iter().enumerate() {
        for i in 0..18 {
            let has = if i < 9 {
                mine >> i & 1
            } else {
                theirs >> (i - 9) & 1
            };
            w[i * p + j] = if has == 1 { 1.0 } else { -1.0 };
        }
        bias[j] = 1.0 - (mine.count_ones() + theirs.count_ones()) as f32;
        v[j] = negamax(mine, theirs, &mut memo);
    }
    let b = Dim::Param("batch");
    let bytes = model(
        &[
            node("MatMul", &["x", "w"], &["xw"], &[]),
            node("Add", &["xw", "bias"], &["s"], &[]),
            node("Relu", &["s"], &["onehot"], &[]),
            node("MatMul", &["onehot", "v"], &["value"], &[]),
            node("MatMul", &["x", "zero"], &["logits"], &[]),
        ],
        &[
            tensor("w", &[18, p as i64], &w),
            tensor("bias", &[p as i64], &bias),
            tensor("v", &[p as i64, 1], &v),
            tensor("zero", &[18, 9], &[0.0; 162]),
        ],
        &[value_info("x", FLOAT, &[b, Dim::Value(18)])],
        &[
            value_info("value", FLOAT, &[b, Dim::Value(1)]),
            value_info("logits", FLOAT, &[b, Dim::Value(9)]),
        ],
    );
    (bytes, p)
}
