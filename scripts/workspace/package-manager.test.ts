import { describe, expect, it } from 'vitest';
import { packageManagerProblems } from './package-manager.ts';

const HASH = 'ab'.repeat(64);

describe('packageManagerProblems', () => {
  it('accepts a hash-pinned pnpm that the Dockerfile installs too', () => {
    expect(packageManagerProblems(`pnpm@10.34.9+sha512.${HASH}`, 'FROM node\nARG PNPM_VERSION=10.34.9\n')).toEqual([]);
  });

  it('wants the hash, since without it corepack asks the registry for a signature the mirror lacks', () => {
    expect(packageManagerProblems('pnpm@10.34.9', 'ARG PNPM_VERSION=10.34.9')).toHaveLength(1);
    expect(packageManagerProblems(undefined, 'ARG PNPM_VERSION=10.34.9')).toHaveLength(1);
  });

  it('flags a Dockerfile that installs another pnpm', () => {
    expect(packageManagerProblems(`pnpm@10.34.9+sha512.${HASH}`, 'ARG PNPM_VERSION=10.30.0')).toEqual([
      'Dockerfile: ARG PNPM_VERSION=10.30.0 differs from packageManager pnpm@10.34.9',
    ]);
  });
});
