// The physical floor for the service benchmarks: a bare `node:http` server that reads the request
// body and answers a stored JSON document. Usage: node bench/lib/bare-server.mjs <file.json>
// Prints `listening <url>` once ready.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]);
const server = createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
