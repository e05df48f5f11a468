/**
 * The docs ship and work from the package: README.md and docs/*.md are in the tarball,
 * and every relative link in them resolves to a file in the tarball (the npm page and a
 * reader of node_modules/momo-partner-sdk have nothing else). And a fresh checkout packs
 * a complete package: `prepack` builds dist/ before `npm pack` or `npm publish` reads it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
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

/** Every relative link of every packed Markdown file names a packed file. */
export function checkPackedDocs(root, pack) {
  const shipped = new Set(pack.files.map((f) => f.path));
  const docs = [...shipped].filter((p) => p.startsWith('docs/') && p.endsWith('.md'));
  if (docs.length === 0) throw new Error('no docs/*.md in the package');
  const broken = [];
  let checked = 0;
  for (const file of ['README.md', ...docs]) {
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
  if (broken.length > 0) throw new Error(`broken links:\n${broken.join('\n')}`);
  return `${docs.length} docs shipped; ${checked} relative links resolve inside the package`;
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
