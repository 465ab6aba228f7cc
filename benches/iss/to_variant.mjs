// Converts a collection of the Interactive Sudoku Solver (ISS,
// github.com/sigh/Interactive-Sudoku-Solver) to dlx's variant text, one
// puzzle a line, for `dlx sudoku check --format variant`: the same
// puzzles side by side with ISS's own benchmark
// (`node tools/perf/benchmark_puzzles.js --max-backtracks none --puzzles NAME`).
//
//   node benches/iss/to_variant.mjs ISS_CHECKOUT COLLECTION_OR_NAME > FILE
//
// ISS's own parser (from the checkout, at run time; nothing of it is in
// this repository) reads each puzzle into its canonical constraint string;
// this script maps that string's constraints to ours. A constraint it does
// not know stops it, named: a puzzle solved without one of its rules would
// be a wrong answer. Only 9×9 grids.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [iss, selector] = process.argv.slice(2);
if (!iss || !selector) {
  console.error('usage: node to_variant.mjs ISS_CHECKOUT COLLECTION_OR_NAME');
  process.exit(2);
}
const root = pathToFileURL(resolve(iss)).href;
const lib = await import(`${root}/tools/lib/solver_analysis.js`);
const { SudokuParser } = await import(`${root}/js/sudoku_parser.js${globalThis.self?.VERSION_PARAM ?? ''}`);

const cell = (id) => {
  const m = /^R(\d+)C(\d+)$/i.exec(id);
  if (!m) throw new Error(`not a cell: ${id}`);
  return [Number(m[1]), Number(m[2])];
};
const name = ([r, c]) => `R${r}C${c}`;
const cells = (ids) => ids.map((id) => name(cell(id))).join(',');

// ISS's little killer clue names the diagonal's first cell; the direction
// follows from the side it is on (ISS's LittleKiller.cellMap).
const littleKiller = (first) => {
  let [r, c] = cell(first);
  const [dr, dc] = c === 1 && r < 9 ? [1, 1]
    : c === 9 && r > 1 && r < 9 ? [-1, -1]
      : r === 1 && c > 1 ? [1, -1]
        : r === 9 && c > 1 && c < 9 ? [-1, 1]
          : null;
  if (!dr) throw new Error(`no little killer diagonal starts at ${first}`);
  const out = [];
  for (; r >= 1 && r <= 9 && c >= 1 && c <= 9; r += dr, c += dc) out.push(name([r, c]));
  return out.join(',');
};

const convert = (canonical) => {
  const grid = Array(81).fill('.');
  const rules = [];
  for (const piece of canonical.split('.').filter((p) => p.trim() !== '')) {
    const [type, ...args] = piece.trim().split('~');
    switch (type) {
      case '': // givens: ~R1C1_5
        for (const g of args) {
          const [id, v] = g.split('_');
          const [r, c] = cell(id);
          grid[(r - 1) * 9 + (c - 1)] = v;
        }
        break;
      case 'Shape':
        if (args[0] !== '9x9') throw new Error(`grid ${args[0]}: 9×9 only`);
        break;
      case 'Cage':
        // A cage of sum 0 (or none) is ISS's cage without a sum.
        rules.push(args[0] === '' || Number(args[0]) === 0 ? `cage=${cells(args.slice(1))}` : `cage=${args[0]}:${cells(args.slice(1))}`);
        break;
      case 'Thermo':
        rules.push(`thermo=${cells(args)}`);
        break;
      case 'Renban':
        rules.push(`renban=${cells(args)}`);
        break;
      case 'LittleKiller':
        rules.push(`littlekiller=${args[0]}:${littleKiller(args[1])}`);
        break;
      case 'AntiKing':
        rules.push('antiking');
        break;
      case 'AntiKnight':
        rules.push('antiknight');
        break;
      case 'Diagonal':
        // ISS: 1 runs bottom-left to top-right, -1 top-left to bottom-right.
        rules.push(args[0] === '1' ? 'diagonal+' : 'diagonal-');
        break;
      default:
        throw new Error(`ISS constraint ${type} has no mapping here: ${piece}`);
    }
  }
  return [grid.join(''), ...rules].join(' ');
};

const puzzles = await lib.materializePuzzles(lib.resolvePuzzles([selector]));
for (const p of puzzles) {
  const canonical = SudokuParser.parseText(p.input).toString();
  try {
    console.log(convert(canonical));
  } catch (e) {
    console.error(`${p.name}: ${e.message}`);
    process.exit(1);
  }
}
