/** The draft analysis, off the main thread: text in, `{ text, analysis }` out (see analysis-runner.ts). */
import { analyzeText } from './analysis';

self.onmessage = (event: MessageEvent<string>) => {
  const text = event.data;
  self.postMessage({ text, analysis: analyzeText(text) });
};
