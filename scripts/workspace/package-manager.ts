/**
 * The pnpm pin: `packageManager` names a version and the sha512 of its tarball (corepack and
 * scripts/use-node24.sh check the download against it; the registry mirror serves no signatures),
 * and the Dockerfile installs the same version.
 */
export function packageManagerProblems(packageManager: string | undefined, dockerfile: string): string[] {
  const pin = /^pnpm@(\d+\.\d+\.\d+)\+sha512\.([0-9a-f]{128})$/.exec(packageManager ?? '');
  if (!pin) return [`package.json: packageManager is not "pnpm@<version>+sha512.<128 hex digits>" (got ${JSON.stringify(packageManager)})`];
  const docker = /^ARG PNPM_VERSION=(\S+)$/m.exec(dockerfile)?.[1];
  if (docker !== pin[1]) return [`Dockerfile: ARG PNPM_VERSION=${docker ?? '(missing)'} differs from packageManager pnpm@${pin[1]}`];
  return [];
}
