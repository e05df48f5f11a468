// Bundled into dist/cli.js at build time; read from source under tsx.
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
