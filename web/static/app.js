// The page: reads the input (the box, or ?load= / ?grid= in the address),
// asks the worker, draws what it answers. No search and no parsing here:
// the library does both (web/src/lib.rs).
import { draw, rulesText } from './draw.js';

const $ = (id) => document.getElementById(id);
const input = $('input');
const result = $('result');
const statusLine = $('status');
const actions = ['solve', 'check', 'count', 'candidates', 'random', 'hint', 'rate'];

let worker = null;
const pending = new Map();
let nextId = 1;
let shown = null; // { input, description }
let seed = 1;

function startWorker() {
  worker = new Worker('./worker.js', { type: 'module' });
  worker.onmessage = (event) => {
    const p = pending.get(event.data.id);
    if (!p) return;
    pending.delete(event.data.id);
    if (event.data.ok) p.resolve(event.data);
    else p.reject(new Error(event.data.error));
  };
  worker.onerror = (event) => {
    for (const p of pending.values()) p.reject(new Error(event.message || 'the engine failed to load'));
    pending.clear();
  };
}

function call(message) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ ...message, id });
  });
}

function busy(on) {
  for (const b of ['show', ...actions]) $(b).disabled = on;
  $('stop').disabled = !on;
}

function setResult(text, state) {
  result.textContent = text;
  result.dataset.state = state;
}

function inputText() {
  return input.value.trim();
}

async function show() {
  const text = inputText();
  const answer = await call({ kind: 'describe', input: text });
  shown = { input: text, description: answer.value };
  draw($('board'), answer.value.fpuzzles, {});
  $('rules').textContent = rulesText(answer.value.fpuzzles);
  $('link').href = answer.value.link;
  $('sudokupad').href = answer.value.sudokupad;
  $('export').hidden = false;
  return answer.value;
}

async function act(action) {
  busy(true);
  setResult('', 'running');
  statusLine.textContent = `${action}…`;
  try {
    if (!shown || shown.input !== inputText()) await show();
    const cap = Math.max(1, Number($('cap').value) || 1000);
    const answer = await call({ kind: 'run', input: shown.input, action, cap, seed: seed++ });
    const v = answer.value;
    const overlay = {};
    if (v.solution) overlay.solution = v.solution;
    if (v.candidates) overlay.candidates = v.candidates;
    if (v.step) overlay.step = v.step;
    draw($('board'), shown.description.fpuzzles, overlay);
    if (v.link) $('link').href = v.link;
    if (v.sudokupad) $('sudokupad').href = v.sudokupad;
    const nodes = v.nodes !== undefined ? `, ${v.nodes} nodes, ${v.guesses} guesses` : '';
    statusLine.textContent = `${action}: ${answer.ms.toFixed(1)} ms${nodes}`;
    setResult(v.result, 'done');
  } catch (err) {
    if (err.stopped) {
      statusLine.textContent = `${action}: stopped. The page is ready again.`;
      setResult('stopped', 'stopped');
    } else {
      statusLine.textContent = `${action}: ${err.message}`;
      setResult(err.message, 'error');
    }
  } finally {
    busy(false);
  }
}

function stop() {
  worker.terminate();
  const stopped = Object.assign(new Error('stopped'), { stopped: true });
  for (const p of pending.values()) p.reject(stopped);
  pending.clear();
  startWorker();
  busy(false);
}

// A parameter of the address, percent-escapes undone but `+` kept (the
// f-puzzles string is base 64, where `+` is a digit, not a space).
function param(name) {
  const m = location.search.match(new RegExp(`[?&]${name}=([^&#]*)`));
  return m ? decodeURIComponent(m[1]) : null;
}

async function main() {
  startWorker();
  $('show').onclick = async () => {
    busy(true);
    try {
      await show();
      statusLine.textContent = 'Shown.';
      setResult('', 'shown');
    } catch (err) {
      statusLine.textContent = err.message;
      setResult(err.message, 'error');
    } finally {
      busy(false);
    }
  };
  for (const a of actions) $(a).onclick = () => act(a);
  $('stop').onclick = stop;
  const load = param('load');
  const grid = param('grid');
  const action = param('action');
  if (load !== null || grid !== null) {
    input.value = load !== null ? load : grid;
    if (action) {
      await act(action);
      return;
    }
    try {
      await show();
      setResult('', 'done');
    } catch (err) {
      setResult(err.message, 'error');
    }
  }
  statusLine.textContent = 'Ready.';
}

main();
