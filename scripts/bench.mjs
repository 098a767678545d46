// `npm run bench`: runs every benchmark one after the other (never two at once: they measure the
// same cores), prints their output, and rewrites the "## Load", "## SPA performance" and
// "## Reliability" sections of bench/RESULTS.md from this run's figures. The other sections are
// written by hand from their scripts' output and are left exactly as they are.
//
//   npm run bench                       everything
//   npm run bench -- --only load,spa    a subset: engine, service, team, long-thread, load,
//                                       send-floor, debug-loop, long-reply, spa, spa-long,
//                                       test-suite, impact-preview, reliability
//   npm run bench -- --quick            shorter runs (smoke-testing the benchmarks themselves)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.indexOf('--only');
const only = onlyArg === -1 ? null : new Set(args[onlyArg + 1].split(','));
const wanted = (name) => !only || only.has(name);
const RESULTS = 'bench/RESULTS.md';
const DIST = '.e2e/dist-bench';

mkdirSync('.e2e', { recursive: true });
const failures = [];

/** Runs a command, echoing its output; answers the output. */
function run(label, cmd, cmdArgs) {
  console.log(`\n▶ ${label}: ${cmd} ${cmdArgs.join(' ')}`);
  const r = spawnSync(cmd, cmdArgs, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(r.stdout ?? '');
  if (r.status !== 0) failures.push(label);
  return r.stdout ?? '';
}

const resultOf = (output) => {
  const line = output.split('\n').find((l) => l.startsWith('RESULT '));
  return line ? JSON.parse(line.slice('RESULT '.length)) : undefined;
};

const needsDist =
  wanted('debug-loop') ||
  wanted('long-reply') ||
  wanted('spa') ||
  wanted('spa-long') ||
  wanted('impact-preview');
if (needsDist) {
  console.log(`\n▶ build the SPA once into ${DIST}`);
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', DIST], { stdio: 'inherit' });
}

if (wanted('engine')) run('engine turn (bench/engine-turn.ts)', 'npx', ['tsx', 'bench/engine-turn.ts']);
if (wanted('service'))
  run('service throughput (bench/service-throughput.ts)', 'npx', [
    'tsx',
    'bench/service-throughput.ts',
    ...(quick ? ['--seconds', '2'] : []),
  ]);
if (wanted('team'))
  run('team service: SQLite vs PostgreSQL, one and two instances (bench/team-service.ts)', 'npx', [
    'tsx',
    'bench/team-service.ts',
    ...(quick ? ['--seconds', '2'] : []),
  ]);
if (wanted('long-thread'))
  run('service with a 10,000-turn thread (bench/long-thread-service.ts)', 'npx', [
    'tsx',
    'bench/long-thread-service.ts',
    ...(quick ? ['--turns', '500', '--reps', '2'] : []),
  ]);
const load = wanted('load')
  ? resultOf(
      run('service against a bare node:http server (bench/service-vs-bare.ts)', 'npx', [
        'tsx',
        'bench/service-vs-bare.ts',
        ...(quick ? ['--seconds', '2'] : []),
      ]),
    )
  : undefined;
if (wanted('send-floor'))
  run('sends against a floor doing the same engine turn and SQLite append (bench/send-floor.ts)', 'npx', [
    'tsx',
    'bench/send-floor.ts',
    ...(quick ? ['--seconds', '2', '--rounds', '1'] : []),
  ]);
if (wanted('debug-loop'))
  run('debug loop (bench/spa-debug-loop.ts)', 'npx', [
    'tsx',
    'bench/spa-debug-loop.ts',
    '--dist',
    DIST,
    ...(quick ? ['--runs', '1'] : []),
  ]);
if (wanted('long-reply'))
  run('clicks with a 1 MB reply (bench/spa-long-reply.ts)', 'npx', [
    'tsx',
    'bench/spa-long-reply.ts',
    '--dist',
    DIST,
    ...(quick ? ['--reps', '3'] : []),
  ]);
if (wanted('test-suite'))
  run('conversation test suite and impact endpoint (bench/test-suite.ts)', 'npx', [
    'tsx',
    'bench/test-suite.ts',
    ...(quick ? ['--reps', '2', '--cases', '20'] : []),
  ]);
if (wanted('impact-preview'))
  run('impact preview, keystroke to count (bench/spa-impact-preview.ts)', 'npx', [
    'tsx',
    'bench/spa-impact-preview.ts',
    '--dist',
    DIST,
    ...(quick ? ['--reps', '2'] : []),
  ]);
const spa = wanted('spa')
  ? resultOf(
      run('SPA performance (bench/spa-perf.ts)', 'npx', [
        'tsx',
        'bench/spa-perf.ts',
        '--dist',
        DIST,
        ...(quick ? ['--turns', '200', '--sends', '3'] : []),
      ]),
    )
  : undefined;
if (wanted('spa-long'))
  run('SPA with a 10,000-turn thread (bench/spa-perf.ts --parts long)', 'npx', [
    'tsx',
    'bench/spa-perf.ts',
    '--dist',
    DIST,
    '--parts',
    'long',
    ...(quick ? ['--turns', '500', '--sends', '3'] : ['--turns', '10000']),
  ]);
let reliability;
if (wanted('reliability')) {
  const output = run('reliability suite (tests/reliability)', 'npx', [
    'vitest',
    'run',
    'tests/reliability',
    '--reporter=default',
    '--reporter=json',
    '--outputFile.json=.e2e/reliability.json',
  ]);
  const report = JSON.parse(readFileSync('.e2e/reliability.json', 'utf8'));
  const figures = [...output.matchAll(/\[figure\] (\w+): (.*)/g)].map((m) => [m[1], m[2].trim()]);
  reliability = {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    seconds: Math.round((Date.now() - report.startTime) / 1000),
    figures: Object.fromEntries(figures),
  };
}

// ---------------------------------------------------------------- RESULTS.md

const met = (ok) => (ok ? 'met' : '**missed**');

function loadSection(r) {
  const rows = r.rows.map(
    (x) =>
      `| ${x.scenario} | ${x.bytes} | ${x.service.rps} | ${x.service.p50} / ${x.service.p99} | ${x.bare.rps} | ${x.bare.p50} / ${x.bare.p99} | ${Math.round(x.ratio * 100)}% (${met(x.ratio >= 0.5)}) |`,
  );
  const allMet = r.rows.every((x) => x.ratio >= 0.5);
  return `## Load

\`npx tsx bench/service-vs-bare.ts\` (run by \`npm run bench\`): autocannon against the real service
(\`server/main.ts\`, its own process, SQLite in WAL mode, request log on), each scenario followed at
once by the same load on a bare \`node:http\` server (its own process) that reads the same requests
and answers a stored copy of the service's answer (same bytes). Target: the service reaches at
least 50% of the bare server's requests/s.

${r.date}, ${r.machine}, ${r.setup}.

| scenario | answer bytes | service req/s | service p50 / p99 ms | bare req/s | bare p50 / p99 ms | service / bare |
|---|---|---|---|---|---|---|
${rows.join('\n')}

${
  allMet
    ? 'The target is met in every scenario.'
    : `Why the 50% target is missed: the floor costs almost nothing per request (read the bytes, write a
stored buffer), so on two cores the bare server runs into the load generator, which itself needs a
core; the service does real work per request. A CPU profile of the service under the trace GET
load shows where it goes: socket and pipe writes (\`writev\`: the answer and one request-log line to
stdout per request), the web-standard \`Request\`/\`Response\` objects that \`@hono/node-server\`
builds around Node's own (undici classes), two SQLite reads (the task, for the key's agent check,
then the turn) with the trace's JSON parsed and serialised again, zod validation of the path and
query, and a SHA-256 of the API key for the constant-time key lookup. A send also runs the engine
turn and commits one SQLite transaction, hence its much lower figure. Closing the gap would mean
serving stored trace JSON without re-parsing, caching the key lookup, and a cheaper request log; a
ratio near 50% is not reachable with any framework layer when the floor is a few microseconds of
work per request. Figures on this shared machine move with the other work running on it (see the
load average above).`
}
`;
}

function spaSection(r) {
  const s = r.longThread.scroll;
  const a = r.longThread.append;
  const sendOk = r.sendToGraph.medianMs < 100;
  const switchTargets = [150, 200, 300];
  const graphOk = r.traceSwitch.every((g, i) => g.medianMs < switchTargets[i]);
  const panOk = r.pan.fps >= 55;
  // 60 fps: the median frame fits a 60 Hz frame and at most 5% of frames take over 25 ms (a dropped frame).
  const smooth = (f) => f.medianMs <= 17 && f.droppedShare <= 0.05;
  const scrollOk = smooth(s);
  const appendOk = smooth(a);
  const why = [];
  if (!sendOk) {
    const st = r.sendToGraph.stagesMedianMs;
    const ms = (x) => `${Math.round(x)} ms`;
    why.push(`- **Send → graph**, stage by stage (medians after the click): the request leaves at ${ms(st.requestStart)}
  (the composer and outbox update first), the answer is in at ${ms(st.answer)} (the service: request,
  engine turn, SQLite commit), the new turn is on screen at ${ms(st.turnShown)} (React rendering the
  transcript), and the graph's nodes are in the document at ${ms(st.graphInDocument)} (mounting a new
  React Flow graph for the selected turn: model, layout, node components, measuring), then
  drawn in the next frame. On this shared two-core machine each step also waits for a core.`);
  }
  if (!graphOk || !panOk) {
    why.push(`- **Trace graph**: see the trace-graph sections below for where the time goes.`);
  }
  if (!appendOk) {
    const grows = a.sendToGraphMedianMs > 1.25 * r.sendToGraph.medianMs;
    why.push(`- **Appending to the ${r.longThread.turns}-turn thread**: the frames that run past 16.7 ms are those in which the
  page renders the new turn and lays out its graph on the main thread (Send → graph there: median
  ${a.sendToGraphMedianMs} ms, against ${r.sendToGraph.medianMs} ms in a new thread).${
    grows
      ? ` The difference grows with the thread: each new turn rebuilds the whole transcript (the
  ${r.longThread.turns} traces merged with this browser's records) and copies the cached trace list.`
      : " The thread's length adds little: the list is virtualised."
  }`);
  }
  if (!scrollOk) {
    why.push(`- **Scrolling**: frames over budget while rows are measured as they enter the view.`);
  }
  return `## SPA performance

\`npx tsx bench/spa-perf.ts\` (run by \`npm run bench\`): the built SPA in Chromium ${r.chromium}
(headless) against the reference service on loopback. Times are taken inside the page with
\`performance.mark\`/\`measure\` and animation-frame timestamps, by instrumentation injected before the
app loads (the app carries no benchmark code): "rendered" is the first animation frame after the
graph's nodes are in the document. "60 fps" counts as met when the median frame fits a 60 Hz frame
(16.7 ms) and at most 5% of frames take over 25 ms (a dropped frame). The figures move with the
load of this shared machine (its load average is given below): compare runs at similar load. All data comes through the real API and engine: the large
graphs are the traces of bundles with one tool and ${r.traceSwitch.map((g) => g.rules).join(' / ')} global rules, the long thread is
${r.longThread.turns} messages sent over the API (opened in ${r.longThread.openMs} ms, all pages of traces included).

${r.date}, ${r.machine}.

| measure | figure | target | |
|---|---|---|---|
| welcome-screen JS fetched, gzip | ${r.firstLoad.kb} KB in ${r.firstLoad.files} files | 200 KB | ${met(r.firstLoad.kb <= 200)} |
| Send → rendered graph (${r.sendToGraph.runs} turns of a new thread) | min ${r.sendToGraph.minMs} ms, median ${r.sendToGraph.medianMs} ms, p95 ${r.sendToGraph.p95Ms} ms (answer in after ${Math.round(r.sendToGraph.stagesMedianMs.answer)} ms) | < 100 ms | ${met(sendOk)} |
${r.traceSwitch
  .map(
    (g, i) =>
      `| trace switch to a ${g.modelNodes}-node trace (${g.nodesDrawn} nodes drawn), ${g.runs} runs | min ${g.minMs} ms, median ${g.medianMs} ms, max ${g.maxMs} ms (model + layout alone: ${g.modelInNodeMedianMs} ms) | < ${switchTargets[i]} ms | ${met(g.medianMs < switchTargets[i])} |`,
  )
  .join('\n')}
| panning the ${r.pan.modelNodes}-node trace (${r.pan.nodesDrawn} nodes drawn) | ${r.pan.fps} fps; frames: median ${r.pan.medianMs} ms, p95 ${r.pan.p95Ms} ms; ${Math.round(r.pan.droppedShare * 100)}% over 25 ms | ≥ 55 fps | ${met(panOk)} |
| scrolling the ${r.longThread.turns}-turn thread (wheel, top and back) | ${s.fps} fps; frames: median ${s.medianMs} ms, p95 ${s.p95Ms} ms, max ${s.maxMs} ms; ${Math.round(s.droppedShare * 100)}% over 25 ms | 60 fps | ${met(scrollOk)} |
| appending 5 turns to it with the composer | ${a.fps} fps; frames: median ${a.medianMs} ms, p95 ${a.p95Ms} ms, max ${a.maxMs} ms; Send → graph median ${a.sendToGraphMedianMs} ms | 60 fps | ${met(appendOk)} |

${why.length ? `Where a target is missed, and why:\n\n${why.join('\n')}\n` : 'Every target is met.\n'}`;
}

function reliabilitySection(r) {
  const lines = Object.entries(r.figures).map(([name, text]) => `- **${name}**: ${text}`);
  return `## Reliability

\`npx vitest run tests/reliability\` (part of \`npm test\`; figures collected by \`npm run bench\`):
fuzzing, crash durability, concurrency, authentication and limits against the real service over
loopback. ${r.passed} passed, ${r.failed} failed, in ${r.seconds} s on ${new Date().toISOString().slice(0, 10)}.

${lines.join('\n')}

The fuzzer is seeded (\`FUZZ_SEED\`, \`FUZZ_COUNT\` to change it); a failure prints the seed and each
failing request. Two service bugs these tests found are fixed: JSON nested thousands of levels deep
overflowed the stack of the recursive bundle readers (500; now a 422 above 100 levels; found by
the fuzzer), and a chunked body cut short at the size limit left a keep-alive connection that reset the client's next
request (now the 413 closes the connection; found by the limits test). The browser side (\`e2e/xss.spec.ts\`,
\`e2e/network-guard.spec.ts\` and the guard's global teardown) runs with the Playwright suite.
`;
}

/** Rewrites a section's text; its dated `### ` subsections (written by hand) are kept after it. */
function replaceSection(doc, heading, body) {
  const start = doc.indexOf(`\n${heading}\n`);
  if (start === -1) return `${doc.trimEnd()}\n\n${body.trimEnd()}\n`;
  const found = doc.indexOf('\n## ', start + heading.length + 2);
  const next = found === -1 ? doc.length : found;
  const sub = doc.indexOf('\n### ', start);
  const kept = sub !== -1 && sub < next ? `\n${doc.slice(sub + 1, next).trimEnd()}\n` : '';
  return `${doc.slice(0, start + 1)}${body.trimEnd()}\n${kept}${doc.slice(next)}`;
}

let doc = readFileSync(RESULTS, 'utf8');
if (load) doc = replaceSection(doc, '## Load', loadSection(load));
if (spa) doc = replaceSection(doc, '## SPA performance', spaSection(spa));
if (reliability) doc = replaceSection(doc, '## Reliability', reliabilitySection(reliability));
writeFileSync(RESULTS, doc);
console.log(`\nUpdated ${RESULTS}${failures.length ? `; failed: ${failures.join(', ')}` : ''}`);
process.exit(failures.length ? 1 : 0);
