// Renders the recorded benchmark results, bench/results.json, into bench/RESULTS.md, the speed
// table of README.md (between its speed-table markers) and the chart bench/speed.svg, so each
// figure is written down once.
//   node bench/report.mjs --write   regenerates the three
//   node bench/report.mjs --check   fails when one of them differs from what results.json gives
// A cell of the speed table or the chart may cite a table cell of a run as
// {{benchmark#run#table#row#column}}: row by its first cell, column by its heading.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_JSON = join(ROOT, 'bench/results.json');
const RESULTS_MD = join(ROOT, 'bench/RESULTS.md');
const README = join(ROOT, 'README.md');
const SVG = join(ROOT, 'bench/speed.svg');
const BEGIN = '<!-- speed-table:begin (generated from bench/results.json by bench/report.mjs) -->';
const END = '<!-- speed-table:end -->';

/** The text of the table cell a citation names; throws when it names nothing. */
function cite(results, ref) {
  const [id, run, table, row, column] = ref.split('#');
  const bench = results.benchmarks.find((b) => b.id === id);
  const t = bench?.runs[Number(run)]?.tables[Number(table)];
  if (!t) throw new Error(`results.json: no table ${run}#${table} in benchmark "${id}"`);
  const r = t.rows.find((cells) => cells[0] === row);
  const c = t.head.indexOf(column);
  if (!r || c < 0) throw new Error(`results.json: no cell "${row}" / "${column}" in ${id}#${run}#${table}`);
  return r[c];
}

function resolve(results, text) {
  return text.replace(/\{\{([^}]+)\}\}/g, (_, ref) => cite(results, ref));
}

function table(head, rows) {
  const align = head.map((_, i) => (i === 0 ? '---' : '---:'));
  return [head, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function renderRun(run) {
  const out = [`### ${run.date}, commit ${run.commit}`, ''];
  out.push(`- Machine: ${run.machine}`, `- Load: ${run.load}`, '', '```sh', run.command, '```', '');
  for (const t of run.tables) {
    if (t.caption) out.push(t.caption, '');
    out.push(table(t.head, t.rows), '');
  }
  for (const note of run.notes ?? []) out.push(note, '');
  return out;
}

function renderResults(results) {
  const out = ['# Benchmark results', ''];
  for (const p of results.intro) out.push(p, '');
  for (const bench of results.benchmarks) {
    out.push(`## ${bench.title}`, '');
    for (const p of bench.about) out.push(p, '');
    for (const run of bench.runs) out.push(...renderRun(run));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function renderSpeedTable(results) {
  const rows = results.speed.rows.map((cells) => cells.map((c) => resolve(results, c)));
  return [BEGIN, '', results.speed.intro, '', table(['what', 'chess-native', 'peer', 'ratio'], rows), '', END].join('\n');
}

function withSpeedTable(readme, results) {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error('README.md: the speed-table markers are missing');
  return readme.slice(0, start) + renderSpeedTable(results) + readme.slice(end + END.length);
}

const escapeXml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A horizontal bar chart of speed ratios on a log scale, bars starting at parity (1x). */
function renderChart(results) {
  const { title, bars } = results.speed.chart;
  const values = bars.map(([label, ref, kind]) => {
    const text = resolve(results, ref);
    const number = /^[\d,]+(\.\d+)?/.exec(text)?.[0].replace(/,/g, '') ?? '';
    const value = Number(number);
    if (!(value > 0)) throw new Error(`chart: "${label}" is not a positive ratio: ${text}`);
    return { label, value, number, kind };
  });
  const width = 900;
  const left = 300;
  const right = 840;
  const top = 56;
  const rowHeight = 32;
  const height = top + rowHeight * values.length + 56;
  const [lo, hi] = [0.5, 10000];
  const x = (v) => left + ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (right - left);
  const colour = { engine: '#3b6fb6', js: '#d9822b' };
  const f = (n) => n.toFixed(1);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="26" text-anchor="middle" font-size="16" font-weight="bold" fill="#222">${escapeXml(title)}</text>`,
  ];
  const bottom = top + rowHeight * values.length;
  for (const tick of [1, 10, 100, 1000, 10000]) {
    const tx = f(x(tick));
    out.push(`<line x1="${tx}" y1="${top - 6}" x2="${tx}" y2="${bottom}" stroke="${tick === 1 ? '#555' : '#ddd'}"/>`);
    out.push(`<text x="${tx}" y="${bottom + 18}" text-anchor="middle" fill="#555">${tick}x</text>`);
  }
  values.forEach(({ label, value, number, kind }, i) => {
    const y = top + i * rowHeight;
    const [x0, x1] = [x(Math.min(1, value)), x(Math.max(1, value))];
    out.push(`<text x="${left - 10}" y="${y + 20}" text-anchor="end" fill="#222">${escapeXml(label)}</text>`);
    out.push(`<rect x="${f(x0)}" y="${y + 6}" width="${f(Math.max(x1 - x0, 1))}" height="${rowHeight - 12}" fill="${colour[kind]}"/>`);
    out.push(`<text x="${f(x1 + 6)}" y="${y + 20}" fill="#222">${number}x</text>`);
  });
  const ly = bottom + 40;
  out.push(`<rect x="${left}" y="${ly - 11}" width="12" height="12" fill="${colour.engine}"/>`);
  out.push(`<text x="${left + 18}" y="${ly}" fill="#222">C/C++ engines (1 thread, bulk-counting perft)</text>`);
  out.push(`<rect x="${left + 330}" y="${ly - 11}" width="12" height="12" fill="${colour.js}"/>`);
  out.push(`<text x="${left + 348}" y="${ly}" fill="#222">JavaScript libraries</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

const mode = process.argv[2];
if (mode !== '--check' && mode !== '--write') {
  console.error('usage: node bench/report.mjs --check|--write');
  process.exit(2);
}
const results = JSON.parse(readFileSync(RESULTS_JSON, 'utf8'));
const outputs = [
  [RESULTS_MD, renderResults(results)],
  [README, withSpeedTable(readFileSync(README, 'utf8'), results)],
  [SVG, renderChart(results)],
];
const read = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};
if (mode === '--write') {
  for (const [file, text] of outputs) writeFileSync(file, text);
  console.log('bench-report: bench/RESULTS.md, the README speed table and bench/speed.svg written');
} else {
  const stale = outputs.filter(([file, text]) => read(file) !== text).map(([file]) => file.slice(ROOT.length + 1));
  if (stale.length > 0) {
    console.error(`bench-report: ${stale.join(', ')} differ from bench/results.json: run \`npm run docs\` and commit`);
    process.exit(1);
  }
  console.log('bench-report: bench/RESULTS.md, the README speed table and bench/speed.svg match bench/results.json');
}
