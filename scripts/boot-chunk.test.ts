/**
 * What the first screen loads before the rows (BENCHMARKS.md, issue 26): the modules imported
 * statically from the page's first script and the bundle it starts (boot.tsx). zod (60 KB of the
 * boot chunk) came back into it once through a shared module the HTTP client needs for one header
 * name; the views load it lazily, the first screen does not need it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\s+from\s+)?'([^']+)'/gm;

/** Each package a module imports, with the chain of local modules that leads to it. */
function staticPackages(entries: string[]): Map<string, string[]> {
  const from = new Map<string, string | null>();
  const packages = new Map<string, string[]>();
  const queue = entries.map((e) => ({ file: resolve(ROOT, e), parent: null as string | null }));
  while (queue.length) {
    const { file, parent } = queue.shift()!;
    if (from.has(file)) continue;
    from.set(file, parent);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (!spec!.startsWith('.')) {
        if (spec!.endsWith('.css')) continue;
        const chain: string[] = [];
        for (let at: string | null | undefined = file; at; at = from.get(at)) chain.push(relative(ROOT, at));
        if (!packages.has(spec!)) packages.set(spec!, chain);
        continue;
      }
      const target = resolve(dirname(file), spec!);
      if (target.endsWith('.css')) continue;
      expect(existsSync(target), `${relative(ROOT, file)} imports ${spec}`).toBe(true);
      queue.push({ file: target, parent: file });
    }
  }
  return packages;
}

describe("the first screen's static imports", () => {
  const packages = staticPackages(['renderer/main.tsx', 'renderer/boot.tsx']);

  it('leave zod out (validation is for the forms, loaded with their views)', () => {
    expect(packages.get('zod') ?? null, `zod <- ${packages.get('zod')?.join(' <- ')}`).toBeNull();
  });

  it("leave the server's renderer out (renderer/ssr.tsx and React DOM's server side: out/renderer-ssr only)", () => {
    const server = [...packages.keys()].filter((p) => p.startsWith('react-dom/server'));
    expect(server, server.map((p) => `${p} <- ${packages.get(p)?.join(' <- ')}`).join('\n')).toEqual([]);
  });

  it('are React, zustand, i18next and the virtualiser, nothing else', () => {
    const names = new Set(
      [...packages.keys()].map((p) =>
        p
          .split('/')
          .slice(0, p.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
    );
    expect([...names]).toEqual(expect.arrayContaining(['react', 'react-dom', 'zustand']));
    const allowed = ['react', 'react-dom', 'zustand', 'i18next', 'react-i18next', '@tanstack/react-virtual'];
    const unexpected = [...names].filter((n) => !allowed.includes(n));
    expect(unexpected, unexpected.map((n) => `${n} <- ${packages.get(n)?.join(' <- ')}`).join('\n')).toEqual(
      [],
    );
  });
});
