import type { RecordAuditBody } from '@crawl/contracts';
import type { Logger } from './resources.ts';

/** Records one event in catalog's audit log. */
export type RecordAudit = (event: RecordAuditBody) => Promise<void>;

/**
 * An audit record that never fails what it records: the credits were granted or the rate was set
 * either way, so a failure (catalog unreachable) is logged and the caller carries on. Without a
 * recorder, nothing is recorded.
 */
export function bestEffortAudit(record: RecordAudit | undefined, logger: Logger): RecordAudit {
  return async (event) => {
    if (!record) return;
    try {
      await record(event);
    } catch (error) {
      logger.warn({ err: error, action: event.action, resourceId: event.resourceId }, 'audit event could not be recorded');
    }
  };
}
