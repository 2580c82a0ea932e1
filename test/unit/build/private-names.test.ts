import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { privateNames, propertyLikeNames } from '../../../scripts/vite-private-names.js';

// The build shortens the names of private members only where nothing else can read them by
// that name (scripts/vite-private-names.ts): what the type checker lets through, on a
// project made of each case.

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'private-names-'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', experimentalDecorators: true, useDefineForClassFields: false } }),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return join(dir, 'tsconfig.json');
}

describe('private names the build shortens', () => {
  const tsconfig = project({
    'a.ts': `
      const decorate = (_proto: object, _key: string): void => undefined;
      export class A {
        private alone = 1;
        private sharedName = 2;
        private spoken = 3;
        private keyed = 4;
        @decorate private registered = 5;
        constructor(private readonly given: number) {}
        private helper(): number { return this.alone + this.sharedName + this.spoken + this.keyed + this.registered + this.given; }
        sum(other: A): number { return this.helper() + other.alone; }
      }
      export class B { sharedName = 0; private alone = 'another class'; }
      export const literal = { keyed: true };
      export const words = 'what is spoken';
    `,
  });
  const { names, kept } = privateNames(tsconfig, (file) => file.endsWith('/a.ts'));

  it('shortens a private name every use of which is a private member, of its class or another', () => {
    expect([...names].sort()).toEqual(['alone', 'given', 'helper']);
  });

  it('keeps a name that is public elsewhere, in a string, a key of an object or registered by a decorator', () => {
    expect(kept.get('sharedName')).toMatch(/not private/);
    expect(kept.get('spoken')).toMatch(/string/);
    expect(kept.get('keyed')).toMatch(/not private/);
    expect(kept.get('registered')).toMatch(/decorated/);
  });

  it("reads a library's property names, erring on the side of more", () => {
    const found = propertyLikeNames('a.helper();x={alone:1};class C{get given(){}}f("spoken");let local=1');
    expect([...found]).toEqual(expect.arrayContaining(['alone', 'given', 'helper', 'spoken']));
    expect(found.has('local')).toBe(false);
  });
});
