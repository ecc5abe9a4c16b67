//! `onnx-profile MODEL MACS [BATCH]`: one batch of `BATCH` (256) rows of the model in
//! `MODEL` (one float input `[batch, n]`), evaluated again and again for 3 s each way:
//! the library's `OnnxEvaluator`; tract's plan with each node timed, summed by operator;
//! rten on one thread. `MACS` is the model's multiply-adds a row, for the GFLOP/s.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use ours::search::batched::{Evaluator, OnnxEvaluator};
use rten_tensor::NdTensor;
use rten_tensor::prelude::*;
use tract_onnx::prelude::*;

const SECONDS: f64 = 3.0;

fn main() -> TractResult<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: onnx-profile MODEL MACS [BATCH]");
        std::process::exit(2);
    }
    let (path, macs) = (&args[1], args[2].parse::<f64>()?);
    let batch: usize = match args.get(3) {
        Some(b) => b.parse()?,
        None => 256,
    };
    let mut ours = OnnxEvaluator::from_path(path)?;
    let (obs, acts) = (ours.observation_size(), ours.action_count());
    let rows: Vec<f32> = (0..batch * obs)
        .map(|i| ((i * 7) % 5) as f32 / 4.0 - 0.5)
        .collect();
    let rate = |calls: usize, spent: Duration| (calls * batch) as f64 / spent.as_secs_f64();
    let show = |who: &str, r: f64| {
        println!(
            "{who}: {r:.0} positions a second ({:.1} GFLOP/s)",
            2.0 * macs * r / 1e9
        )
    };
    println!("{path}, batch {batch}, one thread, {SECONDS} s each:");

    let (mut values, mut logits) = (vec![0.0; batch], vec![0.0; batch * acts]);
    let (start, mut calls) = (Instant::now(), 0);
    while start.elapsed().as_secs_f64() < SECONDS {
        ours.evaluate(&rows, &mut values, &mut logits)?;
        calls += 1;
    }
    show(
        "the library's OnnxEvaluator (tract)",
        rate(calls, start.elapsed()),
    );

    // tract's plan for this batch, each node's evaluation timed.
    let plan = tract_onnx::onnx()
        .model_for_path(path)?
        .with_input_fact(0, f32::fact([batch, obs]).into())?
        .into_optimized()?
        .into_runnable()?;
    let input: Tensor = tract_ndarray::Array2::from_shape_vec((batch, obs), rows.clone())?.into();
    let mut state = plan.spawn()?;
    let mut by_op: BTreeMap<String, Duration> = BTreeMap::new();
    let (start, mut calls) = (Instant::now(), 0);
    while start.elapsed().as_secs_f64() < SECONDS {
        state.run_plan_with_eval(
            tvec![input.clone().into()],
            |ctx, op_state, node, inputs| {
                let began = Instant::now();
                let out = tract_onnx::tract_core::plan::eval(ctx, op_state, node, inputs);
                *by_op.entry(node.op().name().to_string()).or_default() += began.elapsed();
                out
            },
        )?;
        calls += 1;
    }
    let total: Duration = by_op.values().sum();
    println!(
        "tract, node by node: {:.0} us a batch in its nodes",
        total.as_secs_f64() * 1e6 / calls as f64
    );
    let mut ops: Vec<_> = by_op.into_iter().collect();
    ops.sort_by(|a, b| b.1.cmp(&a.1));
    for (op, spent) in ops.iter().filter(|(_, t)| *t >= total / 100) {
        println!(
            "  {op}: {:.0}%",
            100.0 * spent.as_secs_f64() / total.as_secs_f64()
        );
    }

    let model = rten::Model::load_file(path)?;
    let rten_input = NdTensor::from_data([batch, obs], rows);
    let one = std::sync::Arc::new(rten::ThreadPool::with_num_threads(1));
    let options = rten::RunOptions::default().with_thread_pool(Some(one));
    let (inp, outs) = (model.input_ids()[0], model.output_ids().to_vec());
    let (start, mut calls) = (Instant::now(), 0);
    while start.elapsed().as_secs_f64() < SECONDS {
        let out = model.run(
            vec![(inp, rten_input.view().into())],
            &outs,
            Some(options.clone()),
        )?;
        std::hint::black_box(out);
        calls += 1;
    }
    show("rten 0.27", rate(calls, start.elapsed()));
    Ok(())
}
