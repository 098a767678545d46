/**
 * Turn-taking for long answers: `nextLoopTurn()` resolves on a later event-loop turn, one waiter
 * per turn, in arrival order. A producer that awaits it before each piece of work therefore does
 * at most one piece per loop turn together with every other producer: however many long lists
 * are being answered at once, the requests arriving meanwhile wait behind one piece, not one per
 * list.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(releaseOne);
  else scheduled = false;
}

export function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseOne);
    }
  });
}
