/**
 * The docs ship and work from the package: README.md and docs/*.md are in the tarball,
 * every relative link in them resolves to a file in the tarball (the npm page and a
 * reader of node_modules/momo-partner-sdk have nothing else), and a file or command that
 * only the repository has (`src/...`, `bench/...`, `examples/callbacks.ts`, `npm run
 * bench`) is cited as the repository's, never as if the package held it. And a fresh
 * checkout packs a complete package: `prepack` builds dist/ before `npm pack` or `npm
 * publish` reads it. test/docs/links.test.ts runs the same checks under vitest.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';

const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const REQUIRED = [
  'dist/index.js',
  'dist/index.cjs',
  'dist/index.d.ts',
  'dist/testing.js',
  'dist/cli.js',
];
/** Words that say where a cited file or command lives. */
const SAYS_REPOSITORY = /\brepository\b/i;
/**
 * Citations that docs owned elsewhere still have to reword; each entry must still occur
 * (a stale one fails), so the list only shrinks.
 */
export const KNOWN_UNMARKED = [{ file: 'docs/simulator.md', cited: 'test/browser' }];

/** The files `npm pack` would put in the tarball, without building (dist/ as it is). */
export function packedFiles(root) {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out);
  return new Set(pack.files.map((f) => f.path));
}

/** README.md and every Markdown file under docs/ that ships. */
export function packedDocs(shipped) {
  return ['README.md', ...[...shipped].filter((p) => p.startsWith('docs/') && p.endsWith('.md'))];
}

/** Every relative link of the packed Markdown files that names no packed file. */
export function brokenLinks(root, shipped) {
  const broken = [];
  let checked = 0;
  for (const file of packedDocs(shipped)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, target] of text.matchAll(LINK)) {
      if (/github\.com\/momo-partner-sdk\//.test(target))
        broken.push(`${file}: ${target} (placeholder repository)`);
      if (/^([a-z]+:|#)/i.test(target)) continue;
      const path = normalize(join(dirname(file), decodeURIComponent(target.split('#')[0])));
      checked++;
      if (!shipped.has(path)) broken.push(`${file}: ${target} (${path} is not in the package)`);
    }
  }
  return { broken, checked };
}

/**
 * A Markdown file cut into the blocks that must say where a cited file lives: a
 * paragraph, a table row, a heading, a list item (with the paragraph introducing its
 * list), or a fenced code block (with the block before it). `line` is 1-based.
 */
function blocksOf(text) {
  const blocks = [];
  let block = null;
  let fence = null;
  const flush = () => {
    if (block) blocks.push({ line: block.line, item: block.item, text: block.lines.join('\n') });
    block = null;
  };
  text.split('\n').forEach((line, i) => {
    if (fence) {
      fence.lines.push(line);
      if (!/^\s*(```|~~~)/.test(line)) return;
      blocks.push({ line: fence.line, fence: true, text: fence.lines.join('\n') });
      fence = null;
    } else if (/^\s*(```|~~~)/.test(line)) {
      flush();
      fence = { line: i + 1, lines: [line] };
    } else if (line.trim() === '') {
      flush();
    } else if (/^\s*(\||#|([-*+]|\d+[.)])\s)/.test(line) || !block) {
      flush();
      block = { line: i + 1, item: /^\s*([-*+]|\d+[.)])\s/.test(line), lines: [line] };
      if (/^\s*(\||#)/.test(line)) flush();
    } else {
      block.lines.push(line);
    }
  });
  flush();
  let intro = '';
  blocks.forEach((b, k) => {
    const before = blocks[k - 1];
    if (b.item && !before?.item) intro = before && !before.fence ? before.text : '';
    const context = b.item ? intro : b.fence ? (before?.text ?? '') : '';
    b.context = `${context}\n${b.text}`;
  });
  return blocks;
}

/** Repository files and `npm run` scripts a block cites that the package does not ship. */
function citationsOf(root, shipped, scripts, text) {
  const cited = new Set();
  const isShipped = (path) =>
    shipped.has(path) || [...shipped].some((f) => f.startsWith(`${path}/`));
  // Link targets are checked by brokenLinks; only what a reader sees is read here.
  for (const word of text.replace(/\]\([^)]*\)/g, ']').split(/[\s`'"()[\]<>,;|*=]+/)) {
    const token = word.replace(/[.:]+$/, '').replace(/^\.\//, '');
    if (!/\/|^[\w-]+\.[a-z]+$/i.test(token) || /^[a-z]+:|[{…*]|^(dist|node_modules)\//i.test(token))
      continue;
    const path = normalize(token).replace(/\/$/, '');
    if (path === '' || path.startsWith('.') || path.startsWith('/')) continue;
    if (existsSync(join(root, path)) && !isShipped(path)) cited.add(path);
  }
  for (const [command, script] of text.matchAll(/\bnpm (?:run ([\w:-]+)|test\b)/g)) {
    if (script === undefined || script in scripts) cited.add(command);
  }
  return cited;
}

/**
 * Every citation of a file or `npm run` script that only the repository has, in a
 * block that does not say so ("in the repository", "the repository's ..."): on the npm
 * page it would read as something the package holds. A page whose introduction (before
 * its first `##`) has a `>` note naming the repository cites repository paths throughout.
 */
export function unmarkedCitations(root, shipped) {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const found = [];
  const docs = packedDocs(shipped);
  for (const file of docs) {
    const text = readFileSync(join(root, file), 'utf8');
    const intro = text.split(/^## /m)[0];
    if (/^>.*\brepository\b/im.test(intro)) continue;
    for (const { line, text: block, context } of blocksOf(text)) {
      if (SAYS_REPOSITORY.test(context)) continue;
      for (const cited of citationsOf(root, shipped, scripts, block))
        found.push({ file, line, cited });
    }
  }
  const known = (f) => KNOWN_UNMARKED.some((k) => k.file === f.file && k.cited === f.cited);
  const problems = found
    .filter((f) => !known(f))
    .map(
      (f) => `${f.file}:${f.line}: ${f.cited} is not in the package; say it is the repository's`,
    );
  for (const k of KNOWN_UNMARKED) {
    if (docs.includes(k.file) && !found.some((f) => f.file === k.file && f.cited === k.cited))
      problems.push(`KNOWN_UNMARKED: ${k.file} no longer cites ${k.cited} unmarked; remove it`);
  }
  return problems;
}

/** The packed docs: links resolve inside the package, repository files are cited as such. */
export function checkPackedDocs(root, pack) {
  const shipped = new Set(pack.files.map((f) => f.path));
  const docs = packedDocs(shipped);
  if (docs.length === 1) throw new Error('no docs/*.md in the package');
  const { broken, checked } = brokenLinks(root, shipped);
  const problems = [...broken, ...unmarkedCitations(root, shipped)];
  if (problems.length > 0) throw new Error(`docs:\n${problems.join('\n')}`);
  return `${docs.length - 1} docs shipped; ${checked} relative links resolve inside the package; repository files cited as such`;
}

/**
 * The tracked files alone (no dist/), as a fresh clone has them, packed with
 * `npm pack --dry-run`: the prepack script must build dist/ on its own.
 */
export function checkFreshClonePack(root) {
  const clone = mkdtempSync(join(tmpdir(), 'momo-clone-'));
  try {
    const tracked = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    )
      .split('\0')
      .filter((f) => f && f !== 'node_modules');
    for (const file of tracked) {
      mkdirSync(join(clone, dirname(file)), { recursive: true });
      cpSync(join(root, file), join(clone, file));
    }
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
    const out = execFileSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: clone,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    // The prepack build prints to stdout too; the JSON report comes last.
    const [pack] = JSON.parse(out.slice(out.search(/^\[/m)));
    const files = new Set(pack.files.map((f) => f.path));
    const missing = [...REQUIRED, 'docs/simulator.md'].filter((f) => !files.has(f));
    if (missing.length > 0)
      throw new Error(`packed from a fresh clone without ${missing.join(', ')}`);
    return `a fresh clone packs ${pack.files.length} files, dist/ built by prepack`;
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}
