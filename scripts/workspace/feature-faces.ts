import { posix } from 'node:path';
import ts from 'typescript';

/**
 * Services whose features still reach into each other's files. Each is reported (as a warning)
 * but does not fail the check until its features have their faces; then it comes off this list.
 * Empty: every service is enforced. A service that cannot follow the rule at once (a new one, one
 * being reorganised) is listed here for the time being, and counted.
 */
export const NOT_YET_ENFORCED: readonly string[] = [];

/** Folders under `features/` that hold what several features share; anyone may import their files. */
const SHARED_FOLDERS = new Set(['shared']);

const FEATURE_FILE = /^services\/([^/]+)\/src\/features\/([^/]+)\/.+$/;

export interface FaceViolation {
  /** The importing file, relative to the repository root. */
  file: string;
  line: number;
  specifier: string;
  service: string;
  /** The feature whose file is imported past its face. */
  feature: string;
}

/**
 * Imports from one feature folder into another that do not go through the other's face,
 * `features/<feature>/index.ts`. A feature's own files (its tests included) import each other
 * freely, and the shared folders' files are open to every feature.
 */
export function faceViolations(files: readonly string[], read: (file: string) => string): FaceViolation[] {
  const violations: FaceViolation[] = [];
  for (const file of files) {
    const importer = FEATURE_FILE.exec(file);
    if (!importer) continue;
    const [, service, feature] = importer as unknown as [string, string, string];
    const source = read(file);
    for (const { fileName, pos } of ts.preProcessFile(source, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = FEATURE_FILE.exec(posix.normalize(posix.join(posix.dirname(file), fileName)));
      if (!target || target[1] !== service) continue;
      const [path, , imported] = target as unknown as [string, string, string];
      if (imported === feature || SHARED_FOLDERS.has(imported)) continue;
      if (path === `services/${service}/src/features/${imported}/index.ts`) continue;
      violations.push({ file, line: lineOf(source, pos), specifier: fileName, service, feature: imported });
    }
  }
  return violations;
}

/**
 * The check as `pnpm check:workspace` runs it: a violation in an enforced service is a problem;
 * in a service on NOT_YET_ENFORCED it is counted in a notice, and a listed service that has none
 * left is named so it can come off the list.
 */
export function featureFaceCheck(
  files: readonly string[],
  read: (file: string) => string,
  notYetEnforced: readonly string[] = NOT_YET_ENFORCED,
): { problems: string[]; notices: string[] } {
  const violations = faceViolations(files, read);
  const problems = violations
    .filter((v) => !notYetEnforced.includes(v.service))
    .map((v) => `${v.file}:${v.line}: imports ${v.specifier}; other features use features/${v.feature} through features/${v.feature}/index.ts`);
  const notices: string[] = [];
  for (const service of notYetEnforced) {
    const count = violations.filter((v) => v.service === service).length;
    const hasFeatures = files.some((file) => file.startsWith(`services/${service}/src/features/`));
    if (count > 0)
      notices.push(
        `services/${service}: ${count} import${count === 1 ? '' : 's'} between features bypass${count === 1 ? 'es' : ''} a feature's index.ts (not enforced yet)`,
      );
    else if (hasFeatures)
      notices.push(`services/${service}: every feature is used through its index.ts; take it off NOT_YET_ENFORCED in scripts/workspace/feature-faces.ts`);
  }
  return { problems, notices };
}

function lineOf(source: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < source.length; i += 1) if (source.charCodeAt(i) === 10) line += 1;
  return line;
}
