// Draws a puzzle from its f-puzzles JSON (what the library writes for any
// input) as SVG: regions, givens, every constraint the library reads, and
// a solution or true candidates over it.

const NS = 'http://www.w3.org/2000/svg';

function el(parent, name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

// f-puzzles' default boxes: rows × columns, the rows the largest divisor of
// n not above its square root.
function boxRows(n) {
  let h = 1;
  for (let d = 1; d * d <= n; d++) if (n % d === 0) h = d;
  return h;
}

// "R3C4" → [2, 3] (0-based; R0 and R(n+1) are outside the grid).
function rc(name) {
  const m = /^R(-?\d+)C(-?\d+)$/i.exec(name);
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

function digitText(d) {
  return d < 10 ? String(d) : String.fromCharCode(55 + d); // 10 → A
}

export function rulesText(fp) {
  const words = [];
  if (fp['diagonal+'] || fp['diagonal-']) words.push('diagonals');
  if (fp.antiking) words.push('anti-king');
  if (fp.antiknight) words.push('anti-knight');
  if (fp.nonconsecutive) words.push('non-consecutive');
  if (fp.disjointgroups) words.push('disjoint groups');
  if (fp.paritystrings) words.push(`no ${fp.paritystrings} in a row of one parity`);
  for (const sum of fp.negativesum || []) words.push(`every mark of ${sum} given`);
  for (const neg of fp.negative || []) {
    words.push({ ratio: 'every black dot given', difference: 'every white dot given', xv: 'every X and V given', x: 'every X given', v: 'every V given' }[neg] || `negative ${neg}`);
  }
  const counted = [
    ['killercage', 'killer cages'], ['productcage', 'product cages'], ['thermometer', 'thermometers'], ['slowthermometer', 'slow thermometers'],
    ['arrow', 'arrows'], ['difference', 'white dots'], ['ratio', 'black dots'], ['xv', 'XV'],
    ['littlekillersum', 'little killers'], ['sandwichsum', 'sandwiches'], ['whispers', 'whispers'],
    ['renban', 'renban'], ['palindrome', 'palindromes'], ['betweenline', 'between lines'],
    ['regionsumline', 'region sum lines'], ['equalsums', 'groups of equal sum'], ['zipperline', 'zipper lines'],
    ['entropicline', 'entropic lines'], ['modularline', 'modular lines'],
    ['differencescountline', 'differences count lines'], ['fibonacciline', 'Fibonacci lines'],
    ['indexline', 'index lines'], ['nabnerline', 'Nabner lines'], ['parityline', 'parity lines'],
    ['skyscraper', 'skyscrapers'], ['xsum', 'X-sums'], ['numberedroom', 'numbered rooms'],
    ['sunburn', 'suns'], ['knightcircles', 'knight circles'],
    ['equalproducts', 'equal products'], ['summark', 'sum marks'],
    ['countingcircles', 'counting circles'], ['odd', 'odd'], ['even', 'even'], ['minimum', 'minima'], ['maximum', 'maxima'],
    ['columnindexing', 'column indexing'], ['rowindexing', 'row indexing'], ['quadruple', 'quadruples'], ['clone', 'clones'], ['extraregion', 'extra regions'],
  ];
  for (const [key, name] of counted) if (fp[key] && fp[key].length) words.push(`${name} (${fp[key].length})`);
  const marked = (fp.grid || []).flat().filter((cell) => cell && cell.givenPencilMarks && cell.givenPencilMarks.length).length;
  if (marked) words.push(`given candidates (${marked} cells)`);
  return words.length ? `Rules: ${words.join(' · ')}` : 'Classic rules.';
}

export function draw(svg, fp, overlay) {
  const n = fp.size;
  const S = n <= 9 ? 48 : n <= 16 ? 34 : 24;
  const M = S; // room outside the grid for clues
  const W = n * S + 2 * M;
  svg.setAttribute('viewBox', `0 0 ${W} ${W}`);
  svg.replaceChildren();
  const x = (c) => M + c * S;
  const y = (r) => M + r * S;
  const cx = (c) => x(c) + S / 2;
  const cy = (r) => y(r) + S / 2;
  const centre = (name) => { const p = rc(name); return p ? [cx(p[1]), cy(p[0])] : null; };
  // A line through the cells' centres (every kind drawn as a line, and
  // equal products under the shading).
  const path = (cells, stroke, width, opacity = 1) => {
    const pts = cells.map(centre).filter(Boolean).map((p) => p.join(',')).join(' ');
    return el(svg, 'polyline', { points: pts, fill: 'none', stroke, 'stroke-width': width, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', opacity });
  };
  el(svg, 'rect', { x: 0, y: 0, width: W, height: W, fill: 'white' });

  // Shaded cells.
  const shade = (name, fill) => { const p = rc(name); if (p) el(svg, 'rect', { x: x(p[1]), y: y(p[0]), width: S, height: S, fill }); };
  for (const e of fp.extraregion || []) for (const c of e.cells) shade(c, '#e4e4e4');
  for (const e of fp.clone || []) for (const c of [...e.cells, ...e.cloneCells]) shade(c, '#dcebf7');
  for (const e of fp.maximum || []) shade(e.cell, '#f7e3cf');
  for (const e of fp.minimum || []) shade(e.cell, '#d9efd9');
  for (const e of fp.countingcircles || []) {
    for (const c of e.cells) { const [a, b] = centre(c); el(svg, 'circle', { cx: a, cy: b, r: S * 0.4, fill: 'none', stroke: '#555', 'stroke-width': 1.5 }); }
  }
  for (const e of fp.equalproducts || []) for (const l of e.lines) path(l, '#e0a458', S * 0.12, 0.7);
  for (const e of fp.summark || []) {
    const [p, q] = e.cells.map(centre);
    if (p && q) {
      const [a, b] = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
      el(svg, 'rect', { x: a - S * 0.16, y: b - S * 0.16, width: S * 0.32, height: S * 0.32, fill: '#cdeefc', stroke: '#333' });
      el(svg, 'text', { x: a, y: b + S * 0.07, 'text-anchor': 'middle', 'font-size': S * 0.18 }, e.value.join('/'));
    }
  }
  for (const e of fp.knightcircles || []) {
    for (const c of e.cells) { const [a, b] = centre(c); el(svg, 'circle', { cx: a, cy: b, r: S * 0.42, fill: 'none', stroke: '#2b8a3e', 'stroke-width': 2 }); }
  }
  for (const e of fp.sunburn || []) { const [a, b] = centre(e.cell); el(svg, 'circle', { cx: a, cy: b, r: S * 0.42, fill: '#fff3b0', stroke: '#f2b400', 'stroke-width': 2 }); }
  // Indexing cells: shaded, an arrow along the row (column indexing) or
  // down the column (row indexing) in the corner.
  for (const [key, fill, mark] of [['columnindexing', '#f6d5d5', '↔'], ['rowindexing', '#d5e3f6', '↕']]) {
    for (const e of fp[key] || []) {
      const p = centre(e.cell);
      if (!p) continue;
      shade(e.cell, fill);
      el(svg, 'text', { x: p[0] + S * 0.3, y: p[1] + S * 0.42, 'font-size': S * 0.22, 'text-anchor': 'middle', fill: '#666' }, mark);
    }
  }
  for (const e of fp.odd || []) { const [a, b] = centre(e.cell); el(svg, 'circle', { cx: a, cy: b, r: S * 0.38, fill: '#d6d6d6' }); }
  for (const e of fp.even || []) { const [a, b] = centre(e.cell); el(svg, 'rect', { x: a - S * 0.36, y: b - S * 0.36, width: S * 0.72, height: S * 0.72, fill: '#d6d6d6' }); }
  // A hint's cells: green where it places a digit, orange where it removes
  // candidates (those digits drawn small, struck through, below).
  const step = overlay.step;
  if (step) {
    for (const m of step.eliminate) shade(m.cell, '#fbe3c8');
    for (const m of step.place) shade(m.cell, '#cdeccd');
  }

  // Diagonals.
  if (fp['diagonal-']) el(svg, 'line', { x1: x(0), y1: y(0), x2: x(n), y2: y(n), stroke: '#8fb3d9', 'stroke-width': 2 });
  if (fp['diagonal+']) el(svg, 'line', { x1: x(0), y1: y(n), x2: x(n), y2: y(0), stroke: '#8fb3d9', 'stroke-width': 2 });

  // Lines.
  for (const [key, colour] of [['thermometer', '#b8b8b8'], ['slowthermometer', '#c9b3d9']]) {
    for (const t of fp[key] || []) for (const l of t.lines) {
      path(l, colour, S * 0.3);
      const [a, b] = centre(l[0]);
      el(svg, 'circle', { cx: a, cy: b, r: S * 0.38, fill: colour });
    }
  }
  // Groups of one sum that no region bounds (dlx's `equalsums`): each
  // group a region sum line's stroke, dashed.
  for (const e of fp.equalsums || []) for (const g of e.groups) {
    if (g.length > 1) path(g, '#4fb3e0', S * 0.14, 0.85);
    for (const c of g) { const p = centre(c); if (p) el(svg, 'circle', { cx: p[0], cy: p[1], r: S * 0.12, fill: '#4fb3e0' }); }
  }
  const lineKinds = [['whispers', '#5ec26a'], ['renban', '#c77dd9'], ['palindrome', '#9a9a9a'], ['betweenline', '#9ec3e6'], ['regionsumline', '#4fb3e0'],
    ['zipperline', '#b59be0'], ['entropicline', '#f2b27a'], ['modularline', '#5cb8b2'],
    ['differencescountline', '#a6d96a'], ['fibonacciline', '#6adaed'], ['indexline', '#71ded2'],
    ['nabnerline', '#e8c547'], ['parityline', '#e07a9b']];
  for (const [key, colour] of lineKinds) {
    for (const e of fp[key] || []) for (const l of e.lines) {
      path(l, colour, S * 0.18, 0.85);
      if (key === 'betweenline') {
        for (const end of [l[0], l[l.length - 1]]) {
          const [a, b] = centre(end);
          el(svg, 'circle', { cx: a, cy: b, r: S * 0.4, fill: 'white', stroke: '#7fa7cf', 'stroke-width': 2 });
        }
      }
    }
  }
  for (const a of fp.arrow || []) {
    const circle = a.cells.map(centre).filter(Boolean);
    if (circle.length === 1) {
      el(svg, 'circle', { cx: circle[0][0], cy: circle[0][1], r: S * 0.4, fill: 'white', stroke: '#999', 'stroke-width': 2 });
    } else if (circle.length > 1) {
      path(a.cells, '#999', S * 0.8 + 4);
      path(a.cells, 'white', S * 0.8);
    }
    for (const l of a.lines) {
      const shaft = l.filter((c) => !a.cells.includes(c));
      if (!shaft.length) continue;
      const pts = [centre(l[l.indexOf(shaft[0]) - 1] || shaft[0]), ...shaft.map(centre)].filter(Boolean);
      el(svg, 'polyline', { points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: '#999', 'stroke-width': 2 });
      const [p, q] = [pts[pts.length - 2] || pts[0], pts[pts.length - 1]];
      const ang = Math.atan2(q[1] - p[1], q[0] - p[0]);
      const h = S * 0.22;
      const wing = (s) => `${q[0] - h * Math.cos(ang + s)},${q[1] - h * Math.sin(ang + s)}`;
      el(svg, 'polyline', { points: `${wing(0.5)} ${q.join(',')} ${wing(-0.5)}`, fill: 'none', stroke: '#999', 'stroke-width': 2 });
    }
  }

  // Killer and product cages: a dashed outline inside each cage's cells,
  // the sum (or × and the product) in its first cell's corner.
  const inset = 4;
  const cages = (fp.killercage || []).map((cage) => [cage, '']).concat((fp.productcage || []).map((cage) => [cage, '×']));
  for (const [cage, sign] of cages) {
    const cells = new Set(cage.cells.map((c) => rc(c)).filter(Boolean).map(([r, c]) => r * n + c));
    for (const k of cells) {
      const [r, c] = [Math.floor(k / n), k % n];
      const has = (dr, dc) => r + dr >= 0 && r + dr < n && c + dc >= 0 && c + dc < n && cells.has((r + dr) * n + c + dc);
      const [l, t, rr, b] = [x(c) + (has(0, -1) ? 0 : inset), y(r) + (has(-1, 0) ? 0 : inset), x(c + 1) - (has(0, 1) ? 0 : inset), y(r + 1) - (has(1, 0) ? 0 : inset)];
      const seg = (x1, y1, x2, y2) => el(svg, 'line', { x1, y1, x2, y2, stroke: '#333', 'stroke-width': 1, 'stroke-dasharray': '3,3' });
      if (!has(-1, 0)) seg(l, t, rr, t);
      if (!has(1, 0)) seg(l, b, rr, b);
      if (!has(0, -1)) seg(l, t, l, b);
      if (!has(0, 1)) seg(rr, t, rr, b);
    }
    if (cage.value !== undefined && cage.value !== '' && cells.size) {
      const first = Math.min(...cells);
      const [r, c] = [Math.floor(first / n), first % n];
      el(svg, 'rect', { x: x(c) + 2, y: y(r) + 2, width: S * (sign ? 0.6 : 0.42), height: S * 0.3, fill: 'white' });
      el(svg, 'text', { x: x(c) + 5, y: y(r) + S * 0.28, 'font-size': S * 0.25, fill: '#222' }, sign + String(cage.value));
    }
  }

  // The grid: thin lines between cells, thick between regions.
  const region = [];
  const h = boxRows(n);
  const w = n / h;
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const cell = fp.grid && fp.grid[r] && fp.grid[r][c];
    region.push(cell && cell.region !== undefined ? cell.region : Math.floor(r / h) * (n / w) + Math.floor(c / w));
  }
  for (let i = 1; i < n; i++) {
    el(svg, 'line', { x1: x(0), y1: y(i), x2: x(n), y2: y(i), stroke: '#aaa', 'stroke-width': 1 });
    el(svg, 'line', { x1: x(i), y1: y(0), x2: x(i), y2: y(n), stroke: '#aaa', 'stroke-width': 1 });
  }
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    if (c + 1 < n && region[r * n + c] !== region[r * n + c + 1]) el(svg, 'line', { x1: x(c + 1), y1: y(r), x2: x(c + 1), y2: y(r + 1), stroke: '#000', 'stroke-width': 3, 'stroke-linecap': 'square' });
    if (r + 1 < n && region[r * n + c] !== region[(r + 1) * n + c]) el(svg, 'line', { x1: x(c), y1: y(r + 1), x2: x(c + 1), y2: y(r + 1), stroke: '#000', 'stroke-width': 3, 'stroke-linecap': 'square' });
  }
  el(svg, 'rect', { x: x(0), y: y(0), width: n * S, height: n * S, fill: 'none', stroke: '#000', 'stroke-width': 3 });

  // Dots and XV on the edge between two cells.
  const between = (cells) => {
    const [a, b] = cells.map(centre);
    return a && b ? [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] : null;
  };
  for (const [key, fill, ink] of [['difference', 'white', '#000'], ['ratio', '#000', '#fff']]) {
    for (const d of fp[key] || []) {
      const p = between(d.cells);
      if (!p) continue;
      el(svg, 'circle', { cx: p[0], cy: p[1], r: S * 0.13, fill, stroke: '#000', 'stroke-width': 1.5 });
      if (d.value) el(svg, 'text', { x: p[0], y: p[1] + S * 0.06, 'font-size': S * 0.16, 'text-anchor': 'middle', fill: ink }, String(d.value));
    }
  }
  for (const d of fp.xv || []) {
    const p = between(d.cells);
    if (!p) continue;
    el(svg, 'rect', { x: p[0] - S * 0.14, y: p[1] - S * 0.14, width: S * 0.28, height: S * 0.28, fill: 'white' });
    el(svg, 'text', { x: p[0], y: p[1] + S * 0.1, 'font-size': S * 0.3, 'text-anchor': 'middle', 'font-weight': 'bold' }, String(d.value));
  }
  for (const q of fp.quadruple || []) {
    const ps = q.cells.map(rc).filter(Boolean);
    if (!ps.length) continue;
    const r = Math.max(...ps.map((p) => p[0]));
    const c = Math.max(...ps.map((p) => p[1]));
    el(svg, 'circle', { cx: x(c), cy: y(r), r: S * 0.3, fill: 'white', stroke: '#000', 'stroke-width': 1.5 });
    const vals = (q.values || []).join('');
    el(svg, 'text', { x: x(c), y: y(r) + S * 0.07, 'font-size': S * (vals.length > 2 ? 0.15 : 0.2), 'text-anchor': 'middle' }, vals);
  }

  // Outside clues.
  for (const lk of fp.littlekillersum || []) {
    const [a, b] = centre(lk.cell) || [0, 0];
    el(svg, 'text', { x: a, y: b + S * 0.12, 'font-size': S * 0.32, 'text-anchor': 'middle' }, String(lk.value ?? ''));
    const dir = { UR: [1, -1], UL: [-1, -1], DR: [1, 1], DL: [-1, 1] }[lk.direction] || [1, 1];
    const [tx, ty] = [a + dir[0] * S * 0.38, b + dir[1] * S * 0.38];
    el(svg, 'line', { x1: a + dir[0] * S * 0.2, y1: b + dir[1] * S * 0.2, x2: tx, y2: ty, stroke: '#000', 'stroke-width': 1.5 });
  }
  for (const s of fp.sandwichsum || []) {
    const [a, b] = centre(s.cell) || [0, 0];
    el(svg, 'text', { x: a, y: b + S * 0.12, 'font-size': S * 0.34, 'text-anchor': 'middle' }, String(s.value ?? ''));
  }
  // Skyscrapers in a square, X-sums in a circle, numbered rooms in a
  // diamond; a clue sharing its place with another kind's moves aside.
  const taken = new Map();
  for (const s of fp.sandwichsum || []) taken.set(s.cell, 1);
  for (const [key, mark] of [['skyscraper', 'square'], ['xsum', 'circle'], ['numberedroom', 'diamond']]) {
    for (const s of fp[key] || []) {
      const p = centre(s.cell);
      if (!p) continue;
      const k = taken.get(s.cell) || 0;
      taken.set(s.cell, k + 1);
      const [a, b] = [p[0] + (k % 2 ? 1 : -1) * (k ? S * 0.22 : 0), p[1] + (k > 1 ? S * 0.22 : 0)];
      const r = S * (k ? 0.2 : 0.3);
      if (mark === 'square') el(svg, 'rect', { x: a - r, y: b - r, width: 2 * r, height: 2 * r, fill: 'none', stroke: '#555' });
      if (mark === 'circle') el(svg, 'circle', { cx: a, cy: b, r, fill: 'none', stroke: '#555' });
      if (mark === 'diamond') el(svg, 'polygon', { points: `${a},${b - r} ${a + r},${b} ${a},${b + r} ${a - r},${b}`, fill: 'none', stroke: '#555' });
      el(svg, 'text', { x: a, y: b + r * 0.4, 'font-size': r * 1.1, 'text-anchor': 'middle' }, String(s.value ?? ''));
    }
  }

  // Digits: givens, then the solution or the candidates in the other cells.
  const givens = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const cell = fp.grid && fp.grid[r] && fp.grid[r][c];
    givens.push(cell && cell.given && cell.value ? cell.value : 0);
  }
  for (let k = 0; k < n * n; k++) {
    const [r, c] = [Math.floor(k / n), k % n];
    if (givens[k]) {
      el(svg, 'text', { x: cx(c), y: cy(r) + S * 0.22, 'font-size': S * 0.62, 'text-anchor': 'middle', fill: '#000' }, digitText(givens[k]));
    } else if (overlay.solution) {
      el(svg, 'text', { x: cx(c), y: cy(r) + S * 0.22, 'font-size': S * 0.62, 'text-anchor': 'middle', fill: '#1f5fbf' }, digitText(overlay.solution[k]));
    } else if (step && step.place.some((m) => rc(m.cell)[0] === r && rc(m.cell)[1] === c)) {
      const m = step.place.find((m) => rc(m.cell)[0] === r && rc(m.cell)[1] === c);
      el(svg, 'text', { x: cx(c), y: cy(r) + S * 0.22, 'font-size': S * 0.62, 'text-anchor': 'middle', fill: '#1b7a1b' }, digitText(m.digit));
    } else if (step && step.eliminate.some((m) => rc(m.cell)[0] === r && rc(m.cell)[1] === c)) {
      const side = Math.ceil(Math.sqrt(n));
      for (const m of step.eliminate.filter((m) => rc(m.cell)[0] === r && rc(m.cell)[1] === c)) {
        const i = m.digit - 1;
        const [tx, ty] = [x(c) + (i % side + 0.5) * S / side, y(r) + (Math.floor(i / side) + 0.8) * S / side];
        el(svg, 'text', { x: tx, y: ty, 'font-size': S / side * 0.8, 'text-anchor': 'middle', fill: '#c0392b', 'text-decoration': 'line-through' }, digitText(m.digit));
      }
    } else if (overlay.candidates) {
      const ds = overlay.candidates[k];
      if (ds.length === 1) {
        el(svg, 'text', { x: cx(c), y: cy(r) + S * 0.22, 'font-size': S * 0.62, 'text-anchor': 'middle', fill: '#1f5fbf' }, digitText(ds[0]));
      } else {
        const side = Math.ceil(Math.sqrt(n));
        for (const d of ds) {
          const i = d - 1;
          el(svg, 'text', { x: x(c) + (i % side + 0.5) * S / side, y: y(r) + (Math.floor(i / side) + 0.8) * S / side, 'font-size': S / side * 0.8, 'text-anchor': 'middle', fill: '#1f5fbf' }, digitText(d));
        }
      }
    } else {
      // Given candidates (pencil marks given as clues), small and grey.
      const cell = fp.grid && fp.grid[r] && fp.grid[r][c];
      const side = Math.ceil(Math.sqrt(n));
      const marks = (cell && cell.givenPencilMarks) || [];
      for (const d of marks) {
        const i = d - 1;
        el(svg, 'text', { x: x(c) + (i % side + 0.5) * S / side, y: y(r) + (Math.floor(i / side) + 0.8) * S / side, 'font-size': S / side * 0.8, 'text-anchor': 'middle', fill: '#777' }, digitText(d));
      }
    }
  }
}
