import type { Reservation } from '@crawl/contracts';
import type { ReservationDoc } from './reservation-repository.ts';

/** The wire view: `pending` answers as held (its steps finish it), `settling` as settled, the rest as released. */
export function toReservationView(doc: ReservationDoc): Reservation {
  const status = doc.status === 'pending' || doc.status === 'held' ? 'held' : doc.status === 'settling' || doc.status === 'settled' ? 'settled' : 'released';
  return {
    jobId: doc._id,
    organizationId: doc.organizationId,
    credits: doc.credits,
    creditsPerTarget: doc.creditsPerTarget,
    targetCount: doc.targetCount,
    status,
    captured: doc.captured,
    released: doc.released,
    createdAt: doc.createdAt,
  };
}
