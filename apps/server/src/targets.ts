import { isServiceName, SERVICE_NAMES, type ServiceName } from '@crawl/contracts';

export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

/**
 * Reads `--target=a,b --target c` (and `TARGET`) into service names. `all` (the default) is every
 * service; unknown names fail with the list of valid ones.
 */
export function parseTargets(argv: readonly string[], envTarget?: string): ServiceName[] {
  const raw: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg.startsWith('--target=')) raw.push(arg.slice('--target='.length));
    else if (arg === '--target' || arg === '-target') {
      const value = argv[i + 1];
      if (!value || value.startsWith('-')) throw new TargetError('--target needs a value');
      raw.push(value);
      i += 1;
    } else if (arg.startsWith('-target=')) raw.push(arg.slice('-target='.length));
    else throw new TargetError(`Unknown argument "${arg}"; usage: --target=all|${SERVICE_NAMES.join('|')} (repeatable or comma-separated)`);
  }
  if (raw.length === 0 && envTarget) raw.push(envTarget);
  const names = raw
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes('all')) return [...SERVICE_NAMES];
  const unknown = names.filter((name) => !isServiceName(name));
  if (unknown.length > 0) throw new TargetError(`Unknown target ${unknown.map((u) => `"${u}"`).join(', ')}; valid targets: all, ${SERVICE_NAMES.join(', ')}`);
  return [...new Set(names)] as ServiceName[];
}
