// The command line of the tools that train one of the page's models once per seed and measure it at
// checkpoints (train-average.mjs, watch-onset.mjs): --seeds 1,2,3, --from/--to/--every in
// steps, --json, and each tool's own options. Bad input exits 2 with the tool's name.
//
// extra: {name: check} for each further option taking a value; check(raw) returns the value
// or throws with what it wants.
export function parseCheckpointArgs(argv, extra = {}) {
  const o = { json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const name = a.startsWith('--') ? a.slice(2) : null;
    if (a === '--json') o.json = true;
    else if (a === '--seeds') o.seeds = String(argv[++i]).split(',').map((x) => (x.trim() === '' ? NaN : Number(x)));
    else if (['from', 'to', 'every'].includes(name)) o[name] = Number(argv[++i]);
    else if (name !== null && Object.hasOwn(extra, name)) o[name] = extra[name](argv[++i]);
    else throw new Error(`unknown argument ${JSON.stringify(a)}`);
  }
  for (const k of ['from', 'to', 'every']) {
    if (o[k] !== undefined && !(Number.isInteger(o[k]) && o[k] > 0)) throw new Error(`--${k} wants a positive integer`);
  }
  if (o.seeds && !o.seeds.every((s) => Number.isInteger(s) && s >= 0)) throw new Error('--seeds wants integers, comma-separated');
  if (o.from !== undefined && o.to !== undefined && o.from > o.to) throw new Error(`--from ${o.from} is after --to ${o.to}: no checkpoint`);
  return o;
}

// args parsed for a tool run as `node scripts/lib/<tool>.mjs`, or exit 2 with its message.
export function argsOrExit(tool, parse) {
  try {
    return parse(process.argv.slice(2));
  } catch (e) {
    console.error(`${tool}: ${e.message}`);
    process.exit(2);
  }
}
