export const SERVICE_NAMES = ['gateway', 'auth', 'catalog', 'billing', 'crawler-worker'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export function isServiceName(value: string): value is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(value);
}
