/** Where a queued or running job stands in the fair dispatcher's order, and when it should be done. */
export { QueuePositions } from './queue-position.ts';
export { ThroughputMeter } from './throughput-meter.ts';
