import { availableParallelism } from 'node:os';
/**
 * docai serve [--port P] [--host H]   the API and workspace on 127.0.0.1 (another address only with --host)
 * docai keys create --name N [--balance PAGES] | keys list | keys revoke ID
 * docai parse ...                     (engine/parse/cli-parse.ts)
 */
import { loadSettings } from './core/config.js';
import { openDatabase } from './store/database.js';
import { KeyStore } from './store/key-store.js';

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq ? eq.slice(name.length + 1) : undefined;
}

const USAGE = `usage:
  docai serve [--port P] [--host H]
  docai keys create --name N [--balance PAGES]
  docai keys list
  docai keys revoke ID
  docai parse [options] FILE...`;

async function serve(argv: string[]): Promise<number> {
  const { createServer } = await import('./api/server.js');
  const portText = flag(argv, '--port');
  const host = flag(argv, '--host');
  const settings = loadSettings();
  const port = portText !== undefined ? Number(portText) : settings.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`docai: --port must be a number from 0 to 65535\n`);
    return 2;
  }
  // Only an explicit --host binds beyond loopback (settings/env cannot open the API to the network by accident).
  const bindHost = host ?? '127.0.0.1';
  const server = await createServer({ port, host: bindHost });
  let base: string;
  try {
    base = await server.listen(port, bindHost);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    await server.close().catch(() => undefined);
    if (code === 'EADDRINUSE') process.stderr.write(`docai: port ${port} on ${bindHost} is already in use; pick another with --port\n`);
    else if (code === 'EDATADIRLOCKED') process.stderr.write(`docai: ${(err as Error).message}\n`);
    else if (code === 'EADDRNOTAVAIL') process.stderr.write(`docai: ${bindHost} is not an address of this machine\n`);
    else throw err;
    return 1;
  }
  const shownKey = process.env.DOCAI_API_KEY || server.ownerKey;
  process.stdout.write(`listening on ${base}\n`);
  process.stdout.write(`${base}/#key=${shownKey}\n`);
  let stopping = false;
  const stop = (sig: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`docai: ${sig}, shutting down\n`);
    const hard = setTimeout(() => process.exit(1), 10_000);
    hard.unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return new Promise<number>(() => undefined);
}

function keys(argv: string[]): number {
  const settings = loadSettings();
  const db = openDatabase(settings.dataDir);
  try {
    const store = new KeyStore(db);
    const sub = argv[0];
    if (sub === 'create') {
      const name = flag(argv, '--name');
      if (!name) {
        process.stderr.write('docai keys create: --name is required\n');
        return 2;
      }
      const bal = flag(argv, '--balance');
      const balance = bal === undefined ? null : Number(bal);
      if (balance !== null && (!Number.isInteger(balance) || balance < 0)) {
        process.stderr.write('docai keys create: --balance must be a whole number of pages\n');
        return 2;
      }
      const { key, record } = store.create(name, { balance });
      process.stdout.write(`${key}\n`);
      process.stderr.write(`created ${record.id} (${record.name}, balance ${record.balance ?? 'unlimited'}); the key is shown only once\n`);
      return 0;
    }
    if (sub === 'list') {
      for (const k of store.list()) {
        const state = k.revokedAt ? 'revoked' : 'active';
        process.stdout.write(`${k.id}\t${k.name}\t${k.prefix}…\t${k.balance ?? 'unlimited'}\t${k.owner ? 'owner' : '-'}\t${state}\n`);
      }
      return 0;
    }
    if (sub === 'revoke') {
      const id = argv[1];
      if (!id) {
        process.stderr.write('docai keys revoke: give the key id (docai keys list)\n');
        return 2;
      }
      try {
        if (!store.revoke(id)) {
          process.stderr.write(`docai keys revoke: no key ${id}\n`);
          return 1;
        }
      } catch (err) {
        process.stderr.write(`docai keys revoke: ${(err as Error).message}\n`);
        return 1;
      }
      process.stdout.write(`revoked ${id}\n`);
      return 0;
    }
    process.stderr.write(`${USAGE}\n`);
    return 2;
  } finally {
    db.close();
  }
}

async function parse(argv: string[]): Promise<number> {
  // The CLI reads in-process and is the machine's only OCR user: two intra-op threads cut a page's wall time by a third.
  process.env.DOCAI_OCR_THREADS ??= String(Math.min(2, availableParallelism()));
  let mod: { runParseCommand?: (argv: string[]) => Promise<number> };
  try {
    const specifier = './parse/cli-parse.js';
    mod = (await import(specifier)) as typeof mod;
  } catch (err) {
    process.stderr.write(`docai parse: the parse command is not available in this build (${(err as Error).message})\n`);
    return 1;
  }
  if (typeof mod.runParseCommand !== 'function') {
    process.stderr.write('docai parse: the parse command is not available in this build\n');
    return 1;
  }
  return mod.runParseCommand(argv);
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'serve':
      return serve(rest);
    case 'keys':
      return keys(rest);
    case 'parse':
      return parse(rest);
    default:
      process.stderr.write(`${USAGE}\n`);
      return cmd === undefined || cmd === '--help' || cmd === 'help' ? 0 : 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`docai: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
