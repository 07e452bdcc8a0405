/** Destinations: S3-compatible buckets a job's results are written to when it ends. */
export { destinationRoutes } from './destination-routes.ts';
export { Destinations, type DestinationSeams } from './destinations.ts';
export { partName, writeParts } from './part-writer.ts';
