// A flooding client of its own: `concurrency` loops, each sending the next of the given requests
// as soon as the previous one is answered (a refusal included: no pause, as an abuser would),
// until the deadline; prints one JSON line counting the answers by status. Its own process, so
// that its work is not counted in what the benchmark's other clients measure.
// Usage: node bench/lib/flood.mjs <base url> <key> <milliseconds> <concurrency> '<[{method, path, body?}]>'
const [base, key, duration, concurrency, requestsJson] = process.argv.slice(2);
const requests = JSON.parse(requestsJson);
const headers = { 'x-service-api-key': key, 'content-type': 'application/json' };
const end = performance.now() + Number(duration);
const statuses = {};
let next = 0;

async function loop() {
  while (performance.now() < end) {
    const { method, path, body } = requests[next++ % requests.length];
    try {
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    } catch {
      statuses.failed = (statuses.failed ?? 0) + 1;
    }
  }
}

await Promise.all(Array.from({ length: Number(concurrency) }, loop));
process.stdout.write(`${JSON.stringify({ statuses })}\n`);
