/**
 * Stack traces of the compiled code name the line in src/ (ARCHITECTURE.md §14), at no cost to start-up.
 *
 * Node's own source-map support (`--enable-source-maps`, `process.setSourceMapsEnabled`) reads and
 * parses the source map of every module loaded after it is on — node_modules included (Bolt alone
 * ships ~90) — and Node 20 cannot limit it to some files. Here nothing is read until a stack trace
 * is formatted (V8 formats `error.stack` on first read): a frame in dist/ is then mapped through the
 * `.js.map` beside its file; every other frame, and the first line, reads as V8's and Node's default
 * would.
 *
 * A parsed map is let go once no trace has needed it for a while (`keepMs`). Node's SourceMap keeps
 * an array per mapping, and most traces are formatted without ever being printed (Node's streams
 * read `error.stack` of every error a socket is destroyed with, e.g. when an idle keep-alive
 * connection times out): a map kept for good is heap the process carries for its whole life, and V8
 * sizes the heap under load at a multiple of what is live. The build keeps only the mappings into
 * src/ (scripts/build.mjs): with Bolt, undici and the rest bundled in it the Slack chunk's map was
 * 500 KB, about 11 MB of heap once parsed, and undici's idle sockets had it parsed a few seconds
 * after every start; it is 20 KB now. A frame in a bundled package keeps its place in dist/.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Node's own errors (`ERR_…`) have this symbol on their prototype and begin their trace with `Name [CODE]: message`. */
function isNodeError(error: object): error is Error & { code: unknown } {
  for (let p: object | null = error; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    if (Object.getOwnPropertySymbols(p).some((s) => s.description === 'kIsNodeError')) return true;
  }
  return false;
}

/** The first line of a trace, as Node's default formatter writes it. */
function headline(error: unknown): string {
  try {
    if (typeof error === 'object' && error !== null && isNodeError(error)) return `${error.name} [${String(error.code)}]: ${error.message}`;
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/** How long parsed maps are kept after the last trace that needed one: a burst of errors parses each map once. */
const KEEP_MS = 30_000;

/**
 * Maps stack frames in the files under `root` (the compiled dist/ folder) to their sources from then
 * on. Returns a function that puts the previous formatter back (tests).
 */
export function installSourceMaps(root: URL, options: { keepMs?: number } = {}): () => void {
  const rootPath = fileURLToPath(root).replace(/\/?$/, '/');
  const rootUrl = pathToFileURL(rootPath).href;
  /** Per compiled file: its map with the folder its sources are relative to, or null without one. */
  const maps = new Map<string, { map: SourceMap; base: string } | null>();
  /** Empties `maps` once `keepMs` have passed without a trace needing it; unref'd, so it never holds the process open. */
  let release: NodeJS.Timeout | undefined;

  function mapOf(path: string): { map: SourceMap; base: string } | null {
    if (release) release.refresh();
    else {
      const forget = () => {
        release = undefined;
        maps.clear();
      };
      release = setTimeout(forget, options.keepMs ?? KEEP_MS).unref();
    }
    if (!maps.has(path)) {
      let entry: { map: SourceMap; base: string } | null;
      try {
        const payload = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0] & { sourceRoot?: string };
        entry = { map: new SourceMap(payload), base: resolve(dirname(path), payload.sourceRoot ?? '') };
      } catch {
        entry = null; // no map (or an unreadable one): the frame stays as it is
      }
      maps.set(path, entry);
    }
    return maps.get(path) ?? null;
  }

  function frame(site: NodeJS.CallSite): string {
    const text = String(site);
    const file = site.getFileName();
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    if (!file || line === null || column === null) return text;
    const isUrl = file.startsWith(rootUrl);
    if (!isUrl && !file.startsWith(rootPath)) return text;
    const path = isUrl ? fileURLToPath(file) : file;
    const found = mapOf(path);
    if (!found) return text;
    const entry = found.map.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (!entry.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return text;
    const source = resolve(found.base, entry.originalSource);
    const where = `${isUrl ? pathToFileURL(source).href : source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    const generated = `${file}:${line}:${column}`;
    const at = text.lastIndexOf(generated);
    return at < 0 ? text : text.slice(0, at) + where + text.slice(at + generated.length);
  }

  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, sites) => {
    const head = headline(error);
    if (sites.length === 0) return head;
    return `${head}\n    at ${sites.map(frame).join('\n    at ')}`;
  };
  return () => {
    Error.prepareStackTrace = previous;
    clearTimeout(release);
  };
}
