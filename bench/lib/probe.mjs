// A client of its own: sends `GET <url>` one after another (a short pause between) until the
// deadline and prints one JSON line with every answer's time in ms. It runs as its own process so
// that what it measures is the service, not the work of the benchmark's other clients (their
// large answers, their garbage collections) in the same event loop.
// Usage: node bench/lib/probe.mjs <url> <milliseconds> [pause ms]
const [url, duration, pause = '5'] = process.argv.slice(2);
// One answer first, not counted: the first fetch of a process loads its HTTP client.
await (await fetch(url)).arrayBuffer();
const end = performance.now() + Number(duration);
const times = [];
while (performance.now() < end) {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  times.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, Number(pause)));
}
process.stdout.write(`${JSON.stringify({ times })}\n`);
