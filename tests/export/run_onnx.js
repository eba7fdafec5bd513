// Runs ONNX models with ONNX Runtime (onnxruntime-node, CPU) and prints every output as JSON, for
// tst_export to compare with the engine.
// Usage: node run_onnx.js jobs.json
//   jobs.json: [{"model": "a.onnx", "input": "a.bin", "rows": N, "cols": C, "type": "float32"}, ...],
//   where the input file holds N*C little-endian values of the type, row after row (exact: no
//   decimal round trip); "type" is float32 (the default) or int64 (a text model's token ids).
// Prints {"results": [{"outputs": {"<name>": {"dims": [...], "data": [...]}}}, ...]}; float32
// values printed as JS numbers read back to the identical floats.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function run(job) {
  const bytes = fs.readFileSync(job.input);
  // Copied into a fresh buffer: a small file's Buffer may sit at an offset Float32Array refuses.
  const type = job.type || 'float32';
  const buffer = new Uint8Array(bytes).buffer;
  const data = type === 'int64' ? new BigInt64Array(buffer) : new Float32Array(buffer);
  if (data.length !== job.rows * job.cols) throw new Error(`${job.input}: ${data.length} values, expected ${job.rows * job.cols}`);
  const session = await ort.InferenceSession.create(job.model);
  const feeds = {[session.inputNames[0]]: new ort.Tensor(type, data, [job.rows, job.cols])};
  const results = await session.run(feeds);
  const outputs = {};
  for (const name of session.outputNames) outputs[name] = {dims: results[name].dims, data: Array.from(results[name].data)};
  return {outputs};
}

async function main() {
  const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const results = [];
  for (const job of jobs) {
    try {
      results.push(await run(job));
    } catch (e) {
      throw new Error(`${job.model}: ${e.message || e}`);
    }
  }
  process.stdout.write(JSON.stringify({results}) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.message ? e.message : e) + '\n');
  process.exit(1);
});
