import { Type, type Static } from '@sinclair/typebox';
import { Target } from './catalog.ts';

/**
 * The live event stream of one job (`GET /jobs/:id/events`, Server-Sent Events), documented in
 * docs/api.md. Each event's `data` is one line of JSON: `job` and `end` carry the Job as
 * `GET /jobs/:id` answers it, `target` a JobTargetEvent, `monitor` (a monitor's run only) the
 * MonitorEvent a rule fired for one of its targets (docs/monitors.md).
 */
export const JOB_EVENT_NAMES = ['job', 'target', 'monitor', 'end'] as const;
export type JobEventName = (typeof JOB_EVENT_NAMES)[number];

/** Targets of the job by outcome after the event: `pending` counts those not finished yet. */
export const JobProgress = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  done: Type.Integer({ minimum: 0, description: 'Targets that succeeded.' }),
  failed: Type.Integer({ minimum: 0, description: 'Targets that failed, whatever the reason.' }),
  pending: Type.Integer({ minimum: 0, description: 'Targets not finished yet (total − done − failed).' }),
});
export type JobProgress = Static<typeof JobProgress>;

/** `event: target`: one target reached success or failure. */
export const JobTargetEvent = Type.Object({
  jobId: Type.String(),
  index: Type.Integer({ minimum: 0, description: "The target's place in the job's `targets`." }),
  target: Target,
  progress: JobProgress,
});
export type JobTargetEvent = Static<typeof JobTargetEvent>;

/** The 200 answer of the stream route, for OpenAPI: the body is `text/event-stream`, not JSON. */
export const JobEventStream = Type.Unsafe<string>({
  description:
    'Server-Sent Events: `event: job` (the Job, first as a snapshot, then on each status change), `event: target` (a JobTargetEvent when a target succeeds or fails), `event: monitor` (on a monitor’s run: a MonitorEvent, after the `target` event of the target it is about, when one of the monitor’s rules fired), `event: end` (the terminal Job; the stream then closes). Every event has a numeric `id` (send it back as `Last-Event-ID` to resume; a `monitor` event repeats the id of the event before it); `: keep-alive` comments every 15 s.',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
});
