// The search, off the page's thread: loads the WebAssembly module once and
// answers each message with the library's JSON (describe or run), timed.
// The page ends this worker to stop a search and starts a new one.
import init, { describe, run } from './dlx_web.js';

const ready = init();

self.onmessage = async (event) => {
  const { id, kind, input, action, cap, seed } = event.data;
  try {
    await ready;
    const start = performance.now();
    const json = kind === 'describe' ? describe(input) : run(input, action, cap, seed);
    const ms = performance.now() - start;
    self.postMessage({ id, ok: true, value: JSON.parse(json), ms });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String((err && err.message) || err) });
  }
};
