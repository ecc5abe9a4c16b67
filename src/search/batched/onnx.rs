//! A network saved as ONNX, evaluated by the library itself on batched MCTS's batches
//! (the `onnx` feature; inference by tract, pure Rust). The model's contract is checked
//! once, when it is loaded: one float input `[batch, observation_size]`; two outputs,
//! `value` `[batch]` or `[batch, 1]` and `logits` `[batch, action_count]` (by those
//! names, or else told apart by their shapes); a batch dimension that is dynamic, or
//! fixed (the batches are then cut and padded to it). A model that does not fit is an
//! [`OnnxError`] that names the input or output at fault.

use std::collections::HashMap;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Arc, Mutex};

use tract_onnx::prelude::*;
use tract_onnx::tract_hir::infer::{DimFact, Factoid};
use tract_onnx::tract_hir::tract_core::tract_data::internal::DimLike;

use super::{Encode, Evaluator};
use crate::search::game::GameError;
use crate::search::pool;

/// What went wrong loading a model, with a message that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnnxError {
    /// The file could not be read.
    Io(String),
    /// The bytes are not an ONNX model that tract can read, or use an operator it
    /// cannot run.
    NotAModel(String),
    /// The input is not one float tensor `[batch, observation_size]`.
    BadInput(String),
    /// The outputs are not a value `[batch]` or `[batch, 1]` and logits
    /// `[batch, action_count]`.
    BadOutput(String),
    /// The model's sizes are not the game's.
    WrongGame(String),
}

impl fmt::Display for OnnxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OnnxError::Io(m)
            | OnnxError::NotAModel(m)
            | OnnxError::BadInput(m)
            | OnnxError::BadOutput(m)
            | OnnxError::WrongGame(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for OnnxError {}

/// A plan tract has made for one batch size.
type Plan = Arc<TypedRunnableModel>;

/// The fewest rows a thread takes when a batch is split among threads: below this, the
/// hand-over costs more than it saves.
const SPLIT_ROWS: usize = 32;

/// An ONNX model as a batched MCTS evaluator.
pub struct OnnxEvaluator {
    /// The model as read, kept to make a plan for each batch size.
    model: InferenceModel,
    observation_size: usize,
    action_count: usize,
    /// The batch size the model was saved with, if it is not dynamic.
    fixed_batch: Option<usize>,
    /// The dynamic batch's name (`B`, `batch`), where the model gives one: a plan binds
    /// it everywhere it appears (exporters also write it in the shapes of the model's
    /// inner values, which a concrete input alone would contradict).
    batch_symbol: Option<Symbol>,
    /// Which output is the value (0 or 1); the other is the logits.
    value_output: usize,
    /// Plans by batch size: a dynamic model's batches are padded to a power of two, so
    /// that a search whose batches vary makes a few plans, not one a size.
    plans: HashMap<usize, Plan>,
    /// The threads a batch is split among: the search's ([`Evaluator::share_threads`]),
    /// whose helpers wait while it runs. tract runs a batch on one thread.
    threads: usize,
}

impl fmt::Debug for OnnxEvaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnnxEvaluator")
            .field("observation_size", &self.observation_size)
            .field("action_count", &self.action_count)
            .field("fixed_batch", &self.fixed_batch)
            .finish_non_exhaustive()
    }
}

impl OnnxEvaluator {
    /// Loads and checks the model in the file at `path`.
    pub fn from_path(path: impl AsRef<Path>) -> Result<OnnxEvaluator, OnnxError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| {
            OnnxError::Io(format!(
                "the model {} could not be read: {e}",
                path.display()
            ))
        })?;
        OnnxEvaluator::from_bytes(&bytes)
    }

    /// Loads and checks the model in `bytes` (an ONNX file's contents).
    pub fn from_bytes(bytes: &[u8]) -> Result<OnnxEvaluator, OnnxError> {
        let model = onnx().model_for_read(&mut &bytes[..]).map_err(|e| {
            OnnxError::NotAModel(format!("not an ONNX model tract can read: {}", chain(&e)))
        })?;
        let (observation_size, fixed_batch, batch_symbol) = check_input(&model)?;
        let mut evaluator = OnnxEvaluator {
            model,
            observation_size,
            action_count: 0,
            fixed_batch,
            batch_symbol,
            value_output: 0,
            plans: HashMap::new(),
            threads: 1,
        };
        evaluator.check_outputs()?;
        Ok(evaluator)
    }

    /// Floats in one observation, as the model takes them.
    pub fn observation_size(&self) -> usize {
        self.observation_size
    }

    /// Logits a position, as the model gives them.
    pub fn action_count(&self) -> usize {
        self.action_count
    }

    /// The batch size the model was saved with, or `None` for a dynamic one.
    pub fn fixed_batch(&self) -> Option<usize> {
        self.fixed_batch
    }

    /// Whether the model's sizes are `game`'s ([`OnnxError::WrongGame`] else).
    pub fn fits<G: Encode + ?Sized>(&self, game: &G) -> Result<(), OnnxError> {
        let (obs, actions) = (game.observation_size(), game.action_count());
        if (obs, actions) != (self.observation_size, self.action_count) {
            return Err(OnnxError::WrongGame(format!(
                "the model takes observations of {} floats and gives {} logits; the game's are {obs} and {actions}",
                self.observation_size, self.action_count
            )));
        }
        Ok(())
    }

    /// The plan for batches of `size`, made once.
    fn plan(&mut self, size: usize) -> TractResult<Plan> {
        if let Some(p) = self.plans.get(&size) {
            return Ok(p.clone());
        }
        let typed = match &self.batch_symbol {
            Some(batch) => {
                let bound = HashMap::from([(batch.clone(), TDim::Val(size as i64))]);
                self.model.clone().into_typed()?.set_symbols(&bound)?
            }
            None => {
                let fact = f32::fact([size, self.observation_size]);
                self.model
                    .clone()
                    .with_input_fact(0, fact.into())?
                    .into_typed()?
            }
        };
        let plan = typed.into_optimized()?.into_runnable()?;
        self.plans.insert(size, plan.clone());
        Ok(plan)
    }

    /// The rows a plan takes for a part of `n` rows: the fixed batch, or `n` padded to a
    /// power of two.
    fn step(&self, n: usize) -> usize {
        self.fixed_batch
            .unwrap_or_else(|| n.max(1).next_power_of_two())
    }

    /// Runs the model on the batch on this thread.
    fn run_here(
        &mut self,
        observations: &[f32],
        values: &mut [f32],
        logits: &mut [f32],
    ) -> TractResult<()> {
        let step = self.step(values.len());
        let plan = self.plan(step)?;
        Rows::new(observations, values, logits).run(&plan, step, self.shape())
    }

    /// Runs the model on the batch cut into `parts` parts, one a thread: the plans made
    /// here, then the parts run by the pool's threads and this one (a part no helper took,
    /// for want of a thread or memory, runs here after).
    fn run_split(
        &mut self,
        observations: &[f32],
        values: &mut [f32],
        logits: &mut [f32],
        parts: usize,
    ) -> Result<(), GameError> {
        let (obs, acts) = (self.observation_size, self.action_count);
        let rows = values.len().div_ceil(parts);
        let mut jobs = Vec::new();
        jobs.try_reserve_exact(parts)
            .map_err(|_| GameError::OutOfMemory)?;
        let chunks = observations
            .chunks(rows * obs)
            .zip(values.chunks_mut(rows))
            .zip(logits.chunks_mut(rows * acts));
        for ((o, v), l) in chunks {
            let step = self.step(v.len());
            let plan = self.plan(step).map_err(|_| GameError::EvaluatorFailed)?;
            jobs.push(Mutex::new((Rows::new(o, v, l), plan, step, None)));
        }
        let shape = self.shape();
        let work = |i: usize| {
            let mut job = jobs[i].lock().unwrap_or_else(|p| p.into_inner());
            let (rows, plan, step, done) = &mut *job;
            if done.is_none() {
                let ran = catch_unwind(AssertUnwindSafe(|| rows.run(plan, *step, shape)));
                *done = Some(matches!(ran, Ok(Ok(()))));
            }
        };
        pool::with_helpers(jobs.len() - 1, &work, || work(0));
        (0..jobs.len()).for_each(work);
        let failed = jobs.iter().any(|j| {
            let job = j.lock().unwrap_or_else(|p| p.into_inner());
            job.3 != Some(true)
        });
        if failed {
            return Err(GameError::EvaluatorFailed);
        }
        Ok(())
    }

    /// The observation's size, the logits' count and the value's output.
    fn shape(&self) -> (usize, usize, usize) {
        (self.observation_size, self.action_count, self.value_output)
    }

    /// Finds the value and the logits among the outputs, as a plan for one batch types
    /// them.
    fn check_outputs(&mut self) -> Result<(), OnnxError> {
        let outlets = self
            .model
            .output_outlets()
            .map_err(|e| OnnxError::NotAModel(chain(&e)))?
            .to_vec();
        if outlets.len() != 2 {
            return Err(OnnxError::BadOutput(format!(
                "the model has {} outputs: it needs two, value [batch] and logits [batch, actions]",
                outlets.len()
            )));
        }
        let names: Vec<String> = outlets
            .iter()
            .map(|&o| {
                self.model
                    .outlet_label(o)
                    .map(str::to_string)
                    .unwrap_or_else(|| self.model.node(o.node).name.clone())
            })
            .collect();
        let batch = self.fixed_batch.unwrap_or(1);
        let plan = self.plan(batch).map_err(|e| {
            OnnxError::NotAModel(format!(
                "tract could not prepare the model for a batch of {batch}: {}",
                chain(&e)
            ))
        })?;
        let mut shapes = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let fact = plan
                .model()
                .output_fact(i)
                .map_err(|e| OnnxError::BadOutput(chain(&e)))?;
            if fact.datum_type != f32::datum_type() {
                return Err(OnnxError::BadOutput(format!(
                    "the output {name:?} is of {:?}: it must be float (f32)",
                    fact.datum_type
                )));
            }
            let dims: Option<Vec<usize>> = fact.shape.as_concrete().map(|d| d.to_vec());
            let Some(dims) = dims else {
                return Err(OnnxError::BadOutput(format!(
                    "the output {name:?} has shape {:?}, not known for a batch of {batch}",
                    fact.shape
                )));
            };
            shapes.push(dims);
        }
        // By name where the model says; else the output of one number a row is the value.
        let is_value = |s: &Vec<usize>| s.len() == 1 || (s.len() == 2 && s[1] == 1);
        let value_output = match (names[0].as_str(), names[1].as_str()) {
            ("value", _) | (_, "logits") => 0,
            ("logits", _) | (_, "value") => 1,
            _ if is_value(&shapes[0]) && !is_value(&shapes[1]) => 0,
            _ if is_value(&shapes[1]) && !is_value(&shapes[0]) => 1,
            _ => {
                return Err(OnnxError::BadOutput(format!(
                    "the outputs {:?} {:?} and {:?} {:?} cannot be told apart: name them value and logits",
                    names[0], shapes[0], names[1], shapes[1]
                )));
            }
        };
        let (value, logits) = (&shapes[value_output], &shapes[1 - value_output]);
        let value_name = &names[value_output];
        let logits_name = &names[1 - value_output];
        if !(value.first() == Some(&batch) && is_value(value)) {
            return Err(OnnxError::BadOutput(format!(
                "the value output {value_name:?} has shape {value:?} for a batch of {batch}: it must be [batch] or [batch, 1]"
            )));
        }
        if !(logits.len() == 2 && logits[0] == batch && logits[1] > 0) {
            return Err(OnnxError::BadOutput(format!(
                "the logits output {logits_name:?} has shape {logits:?} for a batch of {batch}: it must be [batch, actions]"
            )));
        }
        self.value_output = value_output;
        self.action_count = logits[1];
        Ok(())
    }
}

/// The observation size, the fixed batch (if any) and the dynamic batch's name (if any)
/// of the model's one input.
fn check_input(
    model: &InferenceModel,
) -> Result<(usize, Option<usize>, Option<Symbol>), OnnxError> {
    let inputs = model
        .input_outlets()
        .map_err(|e| OnnxError::NotAModel(chain(&e)))?;
    if inputs.len() != 1 {
        return Err(OnnxError::BadInput(format!(
            "the model has {} inputs: it needs one, the observations [batch, observation_size]",
            inputs.len()
        )));
    }
    let name = model.node(inputs[0].node).name.clone();
    let fact = model
        .input_fact(0)
        .map_err(|e| OnnxError::BadInput(chain(&e)))?;
    match fact.datum_type.concretize() {
        Some(t) if t == f32::datum_type() => {}
        t => {
            return Err(OnnxError::BadInput(format!(
                "the input {name:?} is of {t:?}: it must be float (f32)"
            )));
        }
    }
    let dims: Vec<_> = fact.shape.dims().cloned().collect();
    if fact.shape.is_open() || dims.len() != 2 {
        return Err(OnnxError::BadInput(format!(
            "the input {name:?} has shape {:?}: it must be [batch, observation_size]",
            fact.shape
        )));
    }
    let size = |d: &DimFact| d.concretize().and_then(|d| d.to_usize().ok());
    let Some(observation_size) = size(&dims[1]).filter(|&n| n > 0) else {
        return Err(OnnxError::BadInput(format!(
            "the input {name:?} has shape {:?}: its second dimension, the observation's size, must be a number",
            fact.shape
        )));
    };
    let fixed_batch = size(&dims[0]);
    if fixed_batch == Some(0) {
        return Err(OnnxError::BadInput(format!(
            "the input {name:?} has a batch of 0"
        )));
    }
    let batch_symbol = match dims[0].concretize() {
        Some(TDim::Sym(batch)) => Some(batch),
        _ => None,
    };
    Ok((observation_size, fixed_batch, batch_symbol))
}

/// An error and its causes, on one line.
fn chain(e: &TractError) -> String {
    format!("{e:#}")
}

impl Evaluator for OnnxEvaluator {
    fn evaluate(
        &mut self,
        observations: &[f32],
        values: &mut [f32],
        logits: &mut [f32],
    ) -> Result<(), GameError> {
        let n = values.len();
        if observations.len() != n * self.observation_size || logits.len() != n * self.action_count
        {
            // A game of other sizes than the model's ([`OnnxEvaluator::fits`]).
            return Err(GameError::EvaluatorFailed);
        }
        let parts = self.threads.min(n / SPLIT_ROWS).max(1);
        if parts > 1 {
            return self.run_split(observations, values, logits, parts);
        }
        self.run_here(observations, values, logits)
            .map_err(|_| GameError::EvaluatorFailed)
    }

    fn share_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }
}

/// A part of a batch: its observations, and where its values and logits go.
struct Rows<'a> {
    observations: &'a [f32],
    values: &'a mut [f32],
    logits: &'a mut [f32],
}

impl<'a> Rows<'a> {
    fn new(observations: &'a [f32], values: &'a mut [f32], logits: &'a mut [f32]) -> Self {
        Rows {
            observations,
            values,
            logits,
        }
    }

    /// Runs `plan` (for batches of `step` rows) on the rows, `step` at a time, each run
    /// padded to `step` with zeros; `(observation size, logits, value output)`.
    fn run(&mut self, plan: &Plan, step: usize, shape: (usize, usize, usize)) -> TractResult<()> {
        let (obs, acts, value_output) = shape;
        let n = self.values.len();
        let mut at = 0;
        while at < n {
            let k = step.min(n - at);
            // The observations copied once, into the input itself; padding rows stay zero.
            let mut input = Tensor::zero::<f32>(&[step, obs])?;
            input.try_as_plain_ram_mut()?.as_slice_mut::<f32>()?[..k * obs]
                .copy_from_slice(&self.observations[at * obs..(at + k) * obs]);
            let outputs = plan.run(tvec![input.into()])?;
            let value = outputs[value_output].try_as_plain_ram()?;
            let logit = outputs[1 - value_output].try_as_plain_ram()?;
            self.values[at..at + k].copy_from_slice(&value.as_slice::<f32>()?[..k]);
            self.logits[at * acts..(at + k) * acts]
                .copy_from_slice(&logit.as_slice::<f32>()?[..k * acts]);
            at += k;
        }
        Ok(())
    }
}
