/**
 * The TypeScript snippets of README.md and docs/*.md, as files a compiler can check and
 * a process can run: each snippet's imports stay at the top, the rest becomes the body
 * of an async function (so `await`, `return` and names reused across snippets are fine),
 * and free names the prose defines (`momo`, `options`, `orders`...) come from
 * test/support/snippet-globals.d.ts.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface Snippet {
  /** `README.md:42`: the file and the line of the opening fence. */
  where: string;
  /** The heading the snippet sits under. */
  heading: string;
  code: string;
}

/** Every ```ts block of README.md and docs/*.md, in order. */
export function collectSnippets(root: string): Snippet[] {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)];
  return files
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) => snippetsOf(file, readFileSync(join(root, file), 'utf8')));
}

function snippetsOf(file: string, text: string): Snippet[] {
  const found: Snippet[] = [];
  const lines = text.split('\n');
  let heading = '';
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!fenced && /^#{1,4} /.test(line)) heading = line.replace(/^#+ /, '');
    if (line.trim() !== '```ts') {
      if (line.trim().startsWith('```')) fenced = !fenced;
      continue;
    }
    const start = i;
    const code: string[] = [];
    for (i++; i < lines.length && lines[i]?.trim() !== '```'; i++) code.push(lines[i] ?? '');
    found.push({ where: `${file}:${start + 1}`, heading, code: code.join('\n') });
  }
  return found;
}

/** A snippet as a module: imports first, everything else inside an async function. */
export function asModule(snippet: Snippet): string {
  const imports: string[] = [];
  const body: string[] = [];
  const lines = snippet.code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!/^import\s/.test(line)) {
      body.push(line);
      continue;
    }
    // A multi-line import runs to its `from '...';` line.
    let statement = line;
    while (!/from\s+['"][^'"]+['"];?\s*$/.test(statement) && i + 1 < lines.length) {
      statement += `\n${lines[++i] ?? ''}`;
    }
    // The README's test file imports its app from beside it: examples/checkout/.
    imports.push(statement.replace("from './app.js'", "from '../../examples/checkout/app.js'"));
  }
  return `// ${snippet.where} (${snippet.heading})\n${imports.join('\n')}\nexport {};\nasync function snippet() {\n${body.join('\n')}\n}\nvoid snippet;\n`;
}

/** Writes files where module resolution finds this repository's node_modules. */
export function writeSnippetFiles(root: string, dir: string, files: Record<string, string>) {
  const out = join(root, dir);
  mkdirSync(out, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
  return out;
}

export interface SnippetRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a snippet exactly as written, as a partner's own ESM file (tsx), with `env` added. */
export function runSnippet(
  root: string,
  name: string,
  code: string,
  env: Record<string, string> = {},
): Promise<SnippetRun> {
  const dir = writeSnippetFiles(root, '.scratch/doc-snippets', { [name]: code });
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(dir, name)],
      { cwd: root, timeout: 60_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** `async` functions' constructor: a snippet's top-level `await` stays valid. */
const AsyncFunction = (async () => {}).constructor as new (
  ...parameters: string[]
) => (...values: unknown[]) => Promise<void>;

/**
 * A snippet run as written, in this process: its imports come from `modules` (keyed by specifier: the
 * namespaces the test imported, so vitest's aliases hold; a default import reads
 * `default`, e.g. `{ pg: { default: pg } }`), the names its prose defines
 * (`options`, `process`...) from `scope`. Resolves when its last statement has run.
 */
export function evalSnippet(
  snippet: Snippet,
  modules: Record<string, object>,
  scope: Record<string, unknown>,
): Promise<void> {
  const { outputText } = ts.transpileModule(snippet.code, {
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      esModuleInterop: true,
    },
    fileName: 'snippet.ts',
  });
  const require = (specifier: string) => {
    const module = modules[specifier];
    if (!module) throw new Error(`${snippet.where} imports ${specifier}: not handed in`);
    return { __esModule: true, ...module };
  };
  const run = new AsyncFunction('require', 'exports', ...Object.keys(scope), outputText);
  return run(require, {}, ...Object.values(scope));
}
